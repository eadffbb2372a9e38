//! The checks a record count needs through the binary: `count --double-check`, `audit` of
//! journals and subtotals files (a value corrupted on purpose is found, with the node that
//! counted it), and `selftest`, quick and as a stress test that stops at a wrong count.

mod cli_support;

use cli_support::{nqueens, stdout, text};
use nqueens::checkpoint::fnv1a;
use serde_json::Value;
use std::path::Path;

fn json(args: &[&str]) -> Value {
    serde_json::from_slice(&stdout(args)).unwrap()
}

/// `--double-check` agrees with the known counts, the join's task by task and the search's in
/// total, and says so in `--json`.
#[test]
fn a_double_check_agrees_with_the_known_counts() {
    for (n, way) in [
        ("12", "mirror split"),
        ("14", "other buckets"),
        ("17", "other buckets"),
    ] {
        let object = json(&["count", n, "--double-check", "--json", "-j", "2"]);
        assert_eq!(object["match"], true, "{object}");
        let check = &object["double_check"];
        assert_eq!(check["agrees"], true, "{object}");
        assert_eq!(check["solutions"], object["solutions"], "{object}");
        assert_eq!(check["differing_tasks"], serde_json::json!([]), "{object}");
        assert!(check["way"].as_str().unwrap().contains(way), "{object}");
    }
    // What does not go with it is refused, saying what to use instead.
    let out = nqueens()
        .args(["count", "16", "--double-check", "--shard", "0/2"])
        .assert()
        .code(2);
    assert!(text(&out.get_output().stderr).contains("nqueens audit"));
}

/// A journal of n = 16 (every task, counted here), with one record's value changed and its
/// checksum made to match, as a node that counted wrong would have written it: the task's
/// number and its value as recorded.
fn journal_with_a_wrong_value(dir: &Path) -> (std::path::PathBuf, usize, u128) {
    let journal = dir.join("n16.journal");
    nqueens()
        .args(["count", "16", "--checkpoint", journal.to_str().unwrap()])
        .assert()
        .success();
    let text = std::fs::read_to_string(&journal).unwrap();
    let header = text.lines().next().unwrap();
    let identity = header
        .strip_prefix("nqueens-checkpoint 3 ")
        .and_then(|h| h.rsplit_once(" check="))
        .unwrap()
        .0;
    // The first record with a value above zero.
    let line = text
        .lines()
        .find(|l| l.starts_with("task ") && l.split(' ').nth(2) != Some("0"))
        .unwrap();
    let fields: Vec<&str> = line.split(' ').collect();
    let (task, value, node) = (fields[1], fields[2].parse::<u128>().unwrap(), fields[3]);
    let wrong = value + 1;
    let check = fnv1a(&format!("{identity} {task} {wrong} {node}"));
    let forged = format!("task {task} {wrong} {node} {check:016x}");
    std::fs::write(&journal, text.replacen(line, &forged, 1)).unwrap();
    (journal, task.parse().unwrap(), wrong)
}

/// An audit of every task finds a value changed on purpose in a journal, names the task, its
/// values and the node that counted it (exit 1); of a subtotals file likewise.
#[test]
fn an_audit_of_every_task_finds_a_wrong_value_and_its_node() {
    let dir = tempfile::tempdir().unwrap();
    let (journal, task, wrong) = journal_with_a_wrong_value(dir.path());
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default();
    let out = nqueens()
        .args(["audit", journal.to_str().unwrap(), "--share", "1", "--json"])
        .assert()
        .code(1);
    let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(report["audited"], report["recorded"], "{report}");
    let differing = report["differing"].as_array().unwrap();
    assert_eq!(differing.len(), 1, "{report}");
    assert_eq!(differing[0]["task"], task);
    let recorded = &differing[0]["recorded"][0];
    assert_eq!(recorded["value"].to_string(), wrong.to_string());
    assert_eq!(recorded["file"], journal.to_str().unwrap());
    assert_eq!(
        differing[0]["recounted"].to_string(),
        (wrong - 1).to_string()
    );
    if !host.is_empty() {
        assert!(
            recorded["node"]
                .as_str()
                .unwrap()
                .starts_with(&host[..host.len().min(8)])
        );
    }
    // A subtotals file: the same task changed by hand is found, named after the file's node.
    let subtotals = dir.path().join("n16.tsv");
    nqueens()
        .args(["count", "16", "--subtotals", subtotals.to_str().unwrap()])
        .assert()
        .success();
    let text = std::fs::read_to_string(&subtotals).unwrap();
    let right = format!("\n{task}\t{}\n", wrong - 1);
    assert!(text.contains(&right), "{text}");
    // Its closing line made to add up, as a node that counted wrong would have written it.
    let forged = text.replace(&right, &format!("\n{task}\t{wrong}\n"));
    let (body, end) = forged.trim_end().rsplit_once('\n').unwrap();
    let units: u128 = end.rsplit_once("units=").unwrap().1.parse().unwrap();
    let end = end.replace(&format!("units={units}"), &format!("units={}", units + 1));
    std::fs::write(&subtotals, format!("{body}\n{end}\n")).unwrap();
    let out = nqueens()
        .args(["audit", subtotals.to_str().unwrap(), "--share", "1"])
        .assert()
        .code(1);
    let said = text_of(&out.get_output().stdout);
    assert!(
        said.contains(&format!(
            "task {task}: recorded {wrong}, recounted {}",
            wrong - 1
        )),
        "{said}"
    );
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// At 1 %, an audit finds the wrong value when its sample holds the task, and only then:
/// over 100 seeds it is found as often as the sample holds it (each seed's sample is named
/// by the same draw the library makes, `audit_sample`), about once in a hundred.
#[test]
fn an_audit_of_one_percent_finds_a_wrong_value_as_often_as_it_draws_it() {
    let dir = tempfile::tempdir().unwrap();
    let (journal, task, _) = journal_with_a_wrong_value(dir.path());
    let path = journal.to_str().unwrap();
    let recorded: Vec<usize> = (0..3299).collect();
    let (mut found, mut drawn) = (0, 0);
    for seed in 0..100u64 {
        let sample = nqueens::recount::audit_sample(&recorded, 33, seed);
        let holds = sample.contains(&task);
        drawn += usize::from(holds);
        let out = nqueens()
            .args([
                "audit",
                path,
                "--share",
                "0.01",
                "--seed",
                &seed.to_string(),
                "--json",
            ])
            .assert();
        let code = out.get_output().status.code();
        let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(report["audited"], 33, "{report}");
        assert_eq!(
            code,
            Some(if holds { 1 } else { 0 }),
            "seed {seed}: {report}"
        );
        found += usize::from(code == Some(1));
    }
    assert_eq!(found, drawn);
    // One in a hundred expected: 100 seeds draw it 0 to 5 times but for one time in 300.
    assert!(found <= 5, "{found} of 100");
}

/// `selftest` passes on this machine and says what it checked.
#[test]
fn the_selftest_passes_and_names_its_checks() {
    let out = stdout(&["selftest", "-j", "2"]);
    let said = text_of(&out);
    assert!(said.ends_with("every check passed\n"), "{said}");
    for what in ["the search", "the join engine", "three ways", "unique"] {
        assert!(said.contains(what), "{said}");
    }
    assert!(!said.contains("ERROR"), "{said}");
}

/// The stress test writes a timestamped line a round and stops at the first wrong count
/// (exit 1), here injected in its second round (`NQUEENS_SELFTEST_FAULT`).
#[test]
fn the_stress_test_stops_at_the_first_wrong_count() {
    let out = nqueens()
        .args(["selftest", "--for", "1d", "-j", "2"])
        .env("NQUEENS_SELFTEST_FAULT", "2")
        .assert()
        .code(1);
    let said = text_of(&out.get_output().stdout);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 2, "{said}");
    assert!(lines[0].contains(" round 1: OK"), "{said}");
    assert!(
        lines[1].contains(" round 2: ERROR n = 17: counted"),
        "{said}"
    );
    // Each line starts with the time, in UTC.
    for line in lines {
        let stamp = line.split(' ').next().unwrap();
        assert_eq!(stamp.len(), 20, "{line}");
        assert!(stamp.starts_with("20") && stamp.ends_with('Z'), "{line}");
    }
    // Bad durations are refused.
    for bad in ["0m", "5x", "-3m", "400d"] {
        nqueens().args(["selftest", "--for", bad]).assert().code(2);
    }
}
