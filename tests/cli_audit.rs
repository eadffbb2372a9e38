//! What `nqueens audit` and a resume make of files that are not what a run wrote: a task
//! recorded twice, a value no task can hold, two files that disagree, files cut short or
//! holding nothing, editors' byte-order marks and CRLF line ends, files of another version;
//! and the exit codes that tell a bad node (1) from a bad file (2).

mod cli_support;

use cli_support::{nqueens, text};
use nqueens::checkpoint::fnv1a;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A journal of the whole of `count n --engine search` (every task, counted here).
fn journal(dir: &Path, n: &str) -> PathBuf {
    kept(dir, &format!("n{n}.journal"), n, "--checkpoint")
}

/// The subtotals file of the whole of `count n --engine search`.
fn subtotals(dir: &Path, name: &str, n: &str) -> PathBuf {
    kept(dir, name, n, "--subtotals")
}

/// The file `dir/name` that `count n --engine search FLAG FILE` keeps.
fn kept(dir: &Path, name: &str, n: &str, flag: &str) -> PathBuf {
    let file = dir.join(name);
    nqueens()
        .args(["count", n, "--engine", "search", flag])
        .arg(&file)
        .assert()
        .success();
    file
}

/// A record line of `journal` for task `task` with `value`, its checksum made to match, as a
/// node that counted wrong (or a forger) would write it.
fn forged_record(journal: &Path, task: usize, value: u128) -> String {
    let text = std::fs::read_to_string(journal).unwrap();
    let identity = text
        .lines()
        .next()
        .unwrap()
        .strip_prefix("nqueens-checkpoint 3 ")
        .and_then(|h| h.rsplit_once(" check="))
        .unwrap()
        .0;
    let check = fnv1a(&format!("{identity} {task} {value} 0"));
    format!("task {task} {value} 0 {check:016x}\n")
}

/// The value `journal` records for `task`.
fn recorded_value(journal: &Path, task: usize) -> u128 {
    let text = std::fs::read_to_string(journal).unwrap();
    let prefix = format!("task {task} ");
    let line = text.lines().find(|l| l.starts_with(&prefix)).unwrap();
    line.split(' ').nth(2).unwrap().parse().unwrap()
}

/// A subtotals file `file` with task `task`'s value changed to `value` and its closing line
/// made to add up: what a node that counted that task wrong would have written.
fn with_subtotal(file: &Path, task: usize, value: u128) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let mut units = 0u128;
    let mut lines: Vec<String> = Vec::new();
    for line in text.lines() {
        match line.split_once('\t') {
            Some((id, old)) if id != "task" => {
                let v = if id == task.to_string() {
                    value
                } else {
                    old.parse().unwrap()
                };
                units += v;
                lines.push(format!("{id}\t{v}"));
            }
            _ if line.starts_with("# end: ") => {
                let tasks = line.split(' ').nth(2).unwrap();
                lines.push(format!("# end: {tasks} units={units}"));
            }
            _ => lines.push(line.to_string()),
        }
    }
    lines.join("\n") + "\n"
}

/// Runs `audit` with `args`; its exit code, stdout and stderr.
fn audit(args: &[&str], files: &[&Path]) -> (i32, String, String) {
    let out = nqueens()
        .arg("audit")
        .args(files)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// Regression: `audit` passed a journal that recorded a task twice with different values (the
/// last record won), and with the records the other way round blamed the node instead, where
/// `count` refuses the same file. Both read it alike now: a damaged file, exit 2, the same
/// words.
#[test]
fn audit_passed_a_journal_that_records_a_task_twice_differently() {
    let dir = tempfile::tempdir().unwrap();
    let journal = journal(dir.path(), "12");
    let right = recorded_value(&journal, 5);
    let whole = std::fs::read_to_string(&journal).unwrap();
    let twice = format!("{whole}{}", forged_record(&journal, 5, right + 7));
    let (header, records) = whole.split_once('\n').unwrap();
    let reversed = format!(
        "{header}\n{}{records}",
        forged_record(&journal, 5, right + 7)
    );
    for forged in [twice, reversed] {
        std::fs::write(&journal, forged).unwrap();
        let (code, stdout, stderr) = audit(&["--share", "1"], &[&journal]);
        assert_eq!(code, 2, "{stdout}{stderr}");
        assert!(
            stderr.contains("task 5 is recorded twice with different values"),
            "{stderr}"
        );
        assert!(stderr.starts_with("error: checkpoint journal "), "{stderr}");
        let out = nqueens()
            .args(["count", "12", "--engine", "search", "--checkpoint"])
            .arg(&journal)
            .output()
            .unwrap();
        assert_ne!(out.status.code(), Some(0));
        assert!(text(&out.stderr).contains("task 5 is recorded twice with different values"));
    }
}

/// Regression: a resume added the journal's values with wrapping 128-bit arithmetic, so a
/// record of 2^128 - 1 with a valid checksum made `count 14 --checkpoint` print 365015 (the
/// known count, 365596, less 581). A value no task of the run can hold is refused, by the
/// resume and the audit alike.
#[test]
fn a_resume_wrapped_a_forged_value_of_2_to_the_128_minus_1() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n14.journal");
    nqueens()
        .args(["count", "14", "--engine", "search", "--checkpoint"])
        .arg(&journal)
        .assert()
        .success()
        .stdout("365596\n");
    let whole = std::fs::read_to_string(&journal).unwrap();
    let value = recorded_value(&journal, 3);
    let line = forged_record(&journal, 3, value);
    assert!(whole.contains(&line));
    let forged = whole.replace(&line, &forged_record(&journal, 3, u128::MAX));
    std::fs::write(&journal, forged).unwrap();
    let out = nqueens()
        .args(["count", "14", "--engine", "search", "--checkpoint"])
        .arg(&journal)
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout), "");
    assert_ne!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("more than any task of this run can hold"),
        "{}",
        text(&out.stderr)
    );
    // The audit recounts it whatever its sample, and blames the node that wrote it (exit 1).
    let (code, stdout, stderr) = audit(&["--tasks", "1", "--json"], &[&journal]);
    assert_eq!(code, 1, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let differing = report["differing"].as_array().unwrap();
    assert_eq!(differing.len(), 1, "{report}");
    assert_eq!(differing[0]["task"], 3);
    assert_eq!(differing[0]["recounted"].to_string(), value.to_string());
    // The value as written, all 39 digits (a JSON number past what a double holds exactly).
    assert!(
        stdout.contains(&format!("\"value\":{}", u128::MAX)),
        "{stdout}"
    );
}

/// Regression: two subtotals files that record one task differently printed the second
/// file's value as the "recount", named neither file, and swapped counted the task as two
/// differences. Now: one difference, both values with their files, and the real recount,
/// whichever file comes first, even where the sample would not have drawn the task.
#[test]
fn two_files_recording_a_task_differently_printed_one_as_the_recount() {
    let dir = tempfile::tempdir().unwrap();
    let good = subtotals(dir.path(), "good.tsv", "12");
    let bad = dir.path().join("bad.tsv");
    let right = std::fs::read_to_string(&good)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("9\t").map(|v| v.parse::<u128>().unwrap()))
        .unwrap();
    std::fs::write(&bad, with_subtotal(&good, 9, right + 3)).unwrap();
    for files in [[&good, &bad], [&bad, &good]] {
        let args = ["--tasks", "1", "--seed", "1", "--json"];
        let (code, stdout, stderr) = audit(&args, &[files[0].as_path(), files[1].as_path()]);
        assert_eq!(code, 1, "{stdout}{stderr}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        let differing = report["differing"].as_array().unwrap();
        assert_eq!(differing.len(), 1, "{report}");
        assert_eq!(differing[0]["task"], 9);
        assert_eq!(differing[0]["recounted"].to_string(), right.to_string());
        let mut recorded: Vec<(String, String)> = differing[0]["recorded"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["file"].as_str().unwrap().to_string(),
                    r["value"].to_string(),
                )
            })
            .collect();
        recorded.sort();
        assert_eq!(
            recorded,
            [
                (bad.display().to_string(), (right + 3).to_string()),
                (good.display().to_string(), right.to_string())
            ]
        );
        assert_eq!(report["recorded_differently"], 1);
        // With every task in the sample, too.
        let every = ["--share", "1", "--json"];
        let (_, stdout, _) = audit(&every, &[files[0].as_path(), files[1].as_path()]);
        let report: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(report["recorded_differently"], 1, "{report}");
        // In words: both values with their files, then the recount.
        let (_, said, _) = audit(&["--tasks", "1"], &[files[0].as_path(), files[1].as_path()]);
        let line = said.lines().find(|l| l.starts_with("task 9:")).unwrap();
        assert!(line.contains(&format!("{} on", right + 3)), "{line}");
        assert!(
            line.contains("bad.tsv") && line.contains("good.tsv"),
            "{line}"
        );
        assert!(line.ends_with(&format!("recounted {right}")), "{line}");
        assert!(said.contains("1 task's value differs"), "{said}");
    }
}

/// Regression: audits that checked nothing passed: `--share 0` ("0 of 890 recounted ...
/// agrees", exit 0), a subtotals file of its header alone; a subtotals file cut mid-line had
/// its torn value blamed on the node, and one cut at a line's end passed with no word that
/// the rest was missing. Now an audit of nothing is refused, a subtotals file cut anywhere is
/// damaged (exit 2: it carries its number of tasks and their sum on a closing line), and a
/// journal that does not cover its run is said to.
#[test]
fn audits_that_checked_nothing_passed() {
    let dir = tempfile::tempdir().unwrap();
    let file = subtotals(dir.path(), "n12.tsv", "12");
    let (code, _, stderr) = audit(&["--share", "0"], &[&file]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("recounts no task"), "{stderr}");
    let whole = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    assert!(
        lines.last().unwrap().starts_with("# end: tasks="),
        "{whole}"
    );
    let cut = dir.path().join("cut.tsv");
    let header_alone = lines[..2].join("\n") + "\n";
    let at_a_line_end = lines[..20].join("\n") + "\n";
    let mid_line = &whole[..whole.len() - 30];
    for text in [header_alone.as_str(), &at_a_line_end, mid_line] {
        std::fs::write(&cut, text).unwrap();
        let (code, stdout, stderr) = audit(&["--share", "1"], &[&cut]);
        assert_eq!(code, 2, "{text:?}: {stdout}{stderr}");
        assert!(stderr.contains("cut short"), "{stderr}");
        assert!(stderr.starts_with("error: subtotals file "), "{stderr}");
        assert_eq!(stdout, "");
    }
    // A journal of a run that stopped after some tasks: audited, and the rest said missing.
    let journal = journal(dir.path(), "12");
    let text = std::fs::read_to_string(&journal).unwrap();
    let part: Vec<&str> = text.lines().take(30).collect();
    std::fs::write(&journal, part.join("\n") + "\n").unwrap();
    let (code, stdout, stderr) = audit(&["--share", "1", "--json"], &[&journal]);
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let recorded = report["recorded"].as_u64().unwrap();
    assert_eq!(
        report["missing"].as_u64().unwrap(),
        report["expected"].as_u64().unwrap() - recorded
    );
    assert!(report["missing"].as_u64().unwrap() > 0, "{report}");
    let (_, said, _) = audit(&["--share", "1"], &[&journal]);
    assert!(said.contains("missing"), "{said}");
    // And a journal of its header alone records nothing to audit.
    std::fs::write(&journal, part[0].to_string() + "\n").unwrap();
    let (code, _, stderr) = audit(&["--share", "1"], &[&journal]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("records no finished task"), "{stderr}");
}

/// Regression: "values differ" and "the file is unreadable or damaged" both exited 1, so a
/// script could not tell a bad node from a bad file; errors about a subtotals file were
/// prefixed `checkpoint`; a byte-order mark was refused where `merge` and `verify` skip it;
/// CRLF line ends put `\r` into node names; a file of 0.9.0 was told to be audited with that
/// version, which has no audit.
#[test]
fn audit_exit_codes_did_not_tell_a_bad_node_from_a_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = subtotals(dir.path(), "n12.tsv", "12");
    let whole = std::fs::read_to_string(&file).unwrap();
    let node = whole
        .lines()
        .next()
        .unwrap()
        .rsplit_once("node=")
        .unwrap()
        .1
        .to_string();
    // A byte-order mark and CRLF line ends are read past; the node's name is whole.
    let edited = dir.path().join("edited.tsv");
    let crlf = format!("\u{feff}{}", whole.replace('\n', "\r\n"));
    std::fs::write(&edited, crlf).unwrap();
    let (code, stdout, stderr) = audit(&["--share", "1", "--json"], &[&edited]);
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["agrees"], true);
    // A wrong value in the CRLF file: its node is named without a `\r`.
    let wrong = with_subtotal(&file, 9, 1_000);
    std::fs::write(&edited, wrong.replace('\n', "\r\n")).unwrap();
    let (code, stdout, _) = audit(&["--share", "1", "--json"], &[&edited]);
    assert_eq!(code, 1, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["differing"][0]["recorded"][0]["node"], node.as_str());
    // A damaged file: exit 2, its kind named.
    std::fs::write(&edited, whole.replace("\n9\t", "\nnine\t")).unwrap();
    let (code, _, stderr) = audit(&["--share", "1"], &[&edited]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.starts_with("error: subtotals file "), "{stderr}");
    assert!(!stderr.contains("checkpoint"), "{stderr}");
    // Files of 0.9.0: said to be of a version this audit does not read, and that none before
    // it had an audit.
    let old = whole.replacen(env!("CARGO_PKG_VERSION"), "0.9.0", 2);
    std::fs::write(&edited, old).unwrap();
    let (code, _, stderr) = audit(&[], &[&edited]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("nqueens 0.9.0") && !stderr.contains("with that version"));
    std::fs::write(
        &edited,
        "nqueens-checkpoint 2 n=12 engine=search symmetry=full split=2 tasks=130 shard=all \
         version=0.9.0 check=0\n",
    )
    .unwrap();
    let (code, _, stderr) = audit(&[], &[&edited]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("no earlier version has an audit"),
        "{stderr}"
    );
}

/// Regression: `audit --seed abc` showed Rust's parse message; `--share -1`, `--seed -1` and
/// `selftest --for -1` got clap's "unexpected argument"; `--for 0s` said "expected a number"
/// and a `--for` past 64 bits "invalid". Each now says what the value must be.
#[test]
fn audit_and_selftest_values_were_refused_in_rust_s_or_clap_s_words() {
    let dir = tempfile::tempdir().unwrap();
    let file = subtotals(dir.path(), "n8.tsv", "8");
    let refused = |args: &[&str], want: &str| {
        let out = nqueens().args(args).output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("unexpected argument"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("invalid digit"), "{args:?}: {stderr}");
    };
    let file = file.to_str().unwrap();
    refused(
        &["audit", file, "--seed", "abc"],
        "expected a whole number from 0",
    );
    refused(&["audit", file, "--seed", "-1"], "seed -1 is out of range");
    refused(
        &["audit", file, "--share", "-1"],
        "share -1 is out of range",
    );
    refused(
        &["audit", file, "--tasks", "-1"],
        "task count -1 is out of range",
    );
    refused(&["selftest", "--for", "-1s"], "above zero");
    refused(&["selftest", "--for", "0s"], "above zero");
    refused(
        &["selftest", "--for", "99999999999999999999999s"],
        "too long",
    );
}

/// Regression (edges VI): `audit` read a journal with a byte-order mark or CRLF line ends
/// while resuming the same journal refused it (exit 1), and the two prefixed one error
/// differently (`checkpoint journal J:` and `checkpoint J:`). Both refuse an editor's
/// journal alike: exit 2 (a file the command cannot take), the same line.
#[test]
fn audit_and_resume_read_an_edited_journal_alike() {
    let dir = tempfile::tempdir().unwrap();
    let journal = journal(dir.path(), "12");
    let whole = std::fs::read_to_string(&journal).unwrap();
    for (edited, why) in [
        (format!("\u{feff}{whole}"), "byte-order mark"),
        (whole.replace('\n', "\r\n"), "CRLF"),
    ] {
        std::fs::write(&journal, &edited).unwrap();
        let (code, stdout, audited) = audit(&["--share", "1"], &[&journal]);
        assert_eq!(code, 2, "{stdout}{audited}");
        let out = nqueens()
            .args(["count", "12", "--engine", "search", "--checkpoint"])
            .arg(&journal)
            .output()
            .unwrap();
        let resumed = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{resumed}");
        assert!(audited.contains(why), "{audited}");
        assert_eq!(audited, resumed);
        assert!(
            audited.starts_with("error: checkpoint journal "),
            "{audited}"
        );
        // The file is left as it was.
        assert_eq!(std::fs::read_to_string(&journal).unwrap(), edited);
    }
}
