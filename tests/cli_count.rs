//! The `count` subcommand as a user runs it: its output, its JSON, and every kind of bad
//! input with its exit code and message.

mod cli_support;

use cli_support::{into_closed_pipe, nqueens};
use predicates::prelude::*;
use serde_json::Value;

#[test]
fn count_prints_the_total_alone() {
    nqueens()
        .args(["count", "10"])
        .assert()
        .success()
        .stdout("724\n")
        .stderr("");
}

#[test]
fn count_agrees_across_thread_counts() {
    for threads in ["1", "2", "3"] {
        nqueens()
            .args(["count", "13", "-j", threads])
            .assert()
            .success()
            .stdout("73712\n");
    }
}

#[test]
fn range_prints_a_table_with_every_size_checked() {
    let out = nqueens().args(["count", "1..11"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12, "{text}");
    assert!(lines[0].contains("solutions"));
    for (n, line) in (1..=11).zip(&lines[1..]) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[0], n.to_string());
        let expected = nqueens::known::total(n).unwrap().to_string();
        assert_eq!(fields[1], expected);
        assert_eq!(fields[3], "yes");
    }
}

#[test]
fn json_lines_parse_back_with_every_field() {
    let started = std::time::Instant::now();
    let out = nqueens()
        .args(["count", "8..10", "--json", "-j", "2", "--split-depth", "2"])
        .assert()
        .success();
    let wall = started.elapsed().as_secs_f64();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let objects: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 3);
    for (n, object) in (8..=10).zip(&objects) {
        let known = nqueens::known::total(n).unwrap() as u64;
        assert_eq!(object["n"], n);
        assert_eq!(object["solutions"], known);
        assert_eq!(object["known"], known);
        assert_eq!(object["match"], true);
        assert_eq!(object["threads"], 2);
        assert_eq!(object["split_depth"], 2);
        // The library makes the same plan for the same size, split and threads.
        let job = nqueens::Counter::new()
            .threads(2)
            .split_depth(2)
            .prepare(n)
            .unwrap();
        assert_eq!(object["tasks"], job.plan.len());
        // Some time was measured, and no more than the whole process took.
        let seconds = object["seconds"].as_f64().unwrap();
        assert!(seconds > 0.0 && seconds < wall, "{seconds} s of {wall} s");
        if cfg!(target_os = "linux") {
            // More than the program's own code takes, less than any count of n <= 10 could.
            let peak = object["peak_memory_bytes"].as_u64().unwrap();
            assert!((1 << 20..1 << 30).contains(&peak), "{peak}");
        }
    }
    let seconds: Vec<f64> = objects
        .iter()
        .map(|o| o["seconds"].as_f64().unwrap())
        .collect();
    assert!(
        seconds.iter().sum::<f64>() < wall,
        "{seconds:?} in {wall} s"
    );
}

#[test]
fn unique_prints_total_then_unique() {
    nqueens()
        .args(["count", "10", "--unique"])
        .assert()
        .success()
        .stdout("724 92\n");
    nqueens()
        .args(["count", "12", "--unique", "--symmetry", "mirror"])
        .assert()
        .success()
        .stdout("14200 1787\n");
}

#[test]
fn unique_json_has_class_sizes_that_add_up() {
    let out = nqueens()
        .args(["count", "6..12", "--unique", "--json"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for (n, line) in (6..=12).zip(text.lines()) {
        let object: Value = serde_json::from_str(line).unwrap();
        let unique = nqueens::known::unique(n).unwrap() as u64;
        assert_eq!(object["unique"], unique);
        assert_eq!(object["known_unique"], unique);
        assert_eq!(object["match"], true);
        if n < nqueens::join::AUTO_FROM {
            assert_eq!(
                (&object["engine"], &object["symmetry"]),
                (&"search".into(), &"full".into())
            );
        } else {
            assert_eq!(object["engine"], "join");
            assert!(object.get("symmetry").is_none(), "{object}");
        }
        let classes = &object["classes"];
        let get = |k: &str| classes[k].as_u64().unwrap();
        assert_eq!(get("1") + get("2") + get("4") + get("8"), unique);
        assert_eq!(
            get("1") + 2 * get("2") + 4 * get("4") + 8 * get("8"),
            object["solutions"].as_u64().unwrap()
        );
    }
}

#[test]
fn unique_table_has_a_unique_column() {
    let out = nqueens()
        .args(["count", "8..9", "--unique"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0], ["n", "solutions", "unique", "seconds", "known"]);
    assert_eq!(rows[1][..3], ["8", "92", "12"]);
    assert_eq!(rows[2][..3], ["9", "352", "46"]);
}

#[test]
fn two_and_three_count_zero() {
    nqueens()
        .args(["count", "2"])
        .assert()
        .success()
        .stdout("0\n");
    nqueens()
        .args(["count", "3"])
        .assert()
        .success()
        .stdout("0\n");
}

/// `--quiet` and `--progress never` each silence a run that otherwise writes progress lines
/// (regression: the test passed when both did nothing, as it ran a count that writes none).
#[test]
fn quiet_and_progress_never_keep_stderr_empty() {
    let count = ["count", "15", "-j", "1", "--engine", "dfs"];
    let run = |extra: &[&str]| {
        let out = nqueens()
            .args(count)
            .args(extra)
            .env("NQUEENS_PROGRESS_INTERVAL_MS", "5")
            .assert()
            .success()
            .stdout("2279184\n");
        String::from_utf8(out.get_output().stderr.clone()).unwrap()
    };
    let loud = run(&["--progress", "always"]);
    assert!(
        loud.lines().count() >= 2,
        "no progress to silence: {loud:?}"
    );
    assert_eq!(run(&["--progress", "always", "--quiet"]), "");
    assert_eq!(run(&["--progress", "never"]), "");
    assert_eq!(run(&["--quiet"]), "");
}

/// Regression: `count 8 --shard 0/18446744073709551615` panicked (capacity overflow, exit
/// 101), `0/4294967296` aborted on an allocation, and `5/300000000` took 8 s dealing 28
/// tasks. More shards than tasks is refused at once, naming the tasks, before anything is
/// sized by K; K up to the number of tasks still works.
#[test]
fn shard_count_above_tasks_is_refused() {
    for shard in [
        "0/29",
        "5/300000000",
        "0/4294967296",
        "0/18446744073709551615",
    ] {
        let out = nqueens()
            .args(["count", "8", "--shard", shard])
            .timeout(std::time::Duration::from_secs(10))
            .assert()
            .code(2)
            .stdout("");
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{shard}: {stderr}");
        assert!(
            stderr.starts_with("error: --shard: ") && stderr.contains(" shards for 28 tasks"),
            "{shard}: {stderr}"
        );
    }
    let out = nqueens()
        .args(["count", "8", "--shard", "27/28"])
        .assert()
        .success();
    let result: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(result["task_ids"].as_array().unwrap().len(), 1, "{result}");
}

/// Regression: `--unique` with `--shard` was dropped without a word (a shard prints its
/// partial total only). It is refused, with the reason.
#[test]
fn unique_with_shard_is_refused() {
    let out = nqueens()
        .args(["count", "12", "--unique", "--shard", "0/2"])
        .assert()
        .code(2)
        .stdout("");
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--unique does not go with --shard"),
        "{stderr}"
    );
}

/// Regression: `--split-depth 8` at n = 12 split at depth 6 without a word. The clamp is a
/// one-line note on stderr (not under `--quiet`), and `--json` gives the real depth.
#[test]
fn a_clamped_split_depth_is_said() {
    let out = nqueens()
        .args(["count", "12", "--split-depth", "8", "--json"])
        .assert()
        .success();
    let object: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let real = object["split_depth"].as_u64().unwrap();
    assert!(real < 8, "{object}");
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(
        stderr,
        format!(
            "note: --split-depth 8 is deeper than the search engine splits n = 12: it splits \
             at depth {real}\n"
        )
    );
    nqueens()
        .args(["count", "12", "--split-depth", "8", "--quiet"])
        .assert()
        .success()
        .stdout("14200\n")
        .stderr("");
    // A depth the board allows: no note.
    nqueens()
        .args(["count", "12", "--split-depth", "3"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn the_join_engine_reports_itself_and_its_peak_memory() {
    let out = nqueens()
        .args(["count", "10..14", "--engine", "join", "--json", "-j", "2"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for (n, line) in (10..=14).zip(text.lines()) {
        let object: Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            object["solutions"],
            nqueens::known::total(n).unwrap() as u64
        );
        assert_eq!(object["match"], true);
        assert_eq!(object["engine"], "join");
        assert!(object.get("symmetry").is_none(), "{object}");
        if cfg!(target_os = "linux") {
            assert!(object["peak_memory_bytes"].as_u64().unwrap() > 1 << 20);
        }
    }
}

#[test]
fn symmetry_asks_for_the_search_and_engines_agree() {
    for args in [
        &["count", "13"][..],
        &["count", "13", "--engine", "join"],
        &["count", "13", "--engine", "dfs"],
        &["count", "13", "--engine", "search"],
        &["count", "13", "--symmetry", "mirror"],
    ] {
        nqueens().args(args).assert().success().stdout("73712\n");
    }
    let out = nqueens()
        .args(["count", "13", "--symmetry", "mirror", "--json"])
        .assert()
        .success();
    let object: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        (&object["engine"], &object["symmetry"]),
        (&"search".into(), &"mirror".into())
    );
}

/// Each bad command line: exit 2, one line on stderr starting with "error:", nothing on
/// stdout, and no panic.
#[test]
fn bad_input_is_one_line_and_exit_two() {
    let cases: &[(&[&str], &str)] = &[
        (&["count", "0"], "out of range"),
        (&["count", "-3"], "out of range"),
        (&["count", "33"], "out of range"),
        (&["count", "abc"], "invalid board size"),
        (&["count", "4.5"], "invalid board size"),
        (&["count", ""], "invalid board size"),
        (&["count", "12..8"], "invalid range"),
        (&["count", "8.."], "invalid range"),
        (&["count", "..8"], "invalid range"),
        (&["count", "1..99"], "out of range"),
        (&["count", "8", "--threads", "0"], "--threads"),
        (&["count", "8", "-j", "x"], "invalid value"),
        (&["count", "8", "--split-depth", "0"], "--split-depth"),
        (&["count", "8", "--split-depth", "9"], "--split-depth"),
        (&["count", "8", "--bogus"], "unexpected argument"),
        (&["count", "8", "--progress", "sometimes"], "invalid value"),
        (&["count", "8", "--symmetry", "half"], "invalid value"),
        (&["count", "8", "--engine", "fast"], "invalid value"),
        (
            &["count", "3", "--engine", "join"],
            "join engine counts boards of 4 to",
        ),
        (&["count", "20..29", "--engine", "join"], "n = 29"),
        (
            &["count", "8", "--engine", "join", "--symmetry", "full"],
            "--symmetry",
        ),
        (
            &["count", "8", "--max-memory", "12X"],
            "invalid memory size",
        ),
        (&["count", "8", "--max-memory", "0"], "invalid memory size"),
        (&["count"], "required"),
        (&["frobnicate"], "unrecognized subcommand"),
    ];
    for (args, expected) in cases {
        let out = nqueens().args(*args).assert().code(2).stdout("");
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error:"), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn help_and_version_exit_zero() {
    nqueens()
        .args(["count", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("inclusive range"));
    nqueens()
        .arg("--version")
        .assert()
        .success()
        .stdout(format!("nqueens {}\n", env!("CARGO_PKG_VERSION")))
        .stderr("");
}

/// The two shard results of `count n --shard I/2`, written in `dir`.
fn two_shards(dir: &std::path::Path, n: &str) -> [std::path::PathBuf; 2] {
    [0, 1].map(|i| {
        let out = nqueens()
            .args(["count", n, "--shard", &format!("{i}/2")])
            .assert()
            .success();
        let path = dir.join(format!("s{i}"));
        std::fs::write(&path, &out.get_output().stdout).unwrap();
        path
    })
}

#[test]
fn a_closed_pipe_ends_count_and_merge_quietly_with_success() {
    // Regression: `count 8..14 | head -1`, `count --json`, `count --shard` and `merge` printed
    // "error: Broken pipe" and exited 1, and merge panicked (exit 101).
    let dir = tempfile::tempdir().unwrap();
    let [a, b] = two_shards(dir.path(), "10");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    for args in [
        &["count", "8..14"][..],
        &["count", "8", "--json"],
        &["count", "10", "--shard", "0/2"],
        &["merge", a, b],
        &["merge", "--json", a, b],
    ] {
        assert_eq!(into_closed_pipe(args), (Some(0), String::new()), "{args:?}");
    }
}

#[test]
fn a_full_disk_is_a_one_line_error() {
    // Regression: `merge ... >/dev/full` panicked (exit 101).
    let dir = tempfile::tempdir().unwrap();
    let shards = two_shards(dir.path(), "9");
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for args in [
        vec!["count".into(), "8".into()],
        vec!["count".into(), "8..9".into(), "--json".into()],
        vec![
            "merge".to_string(),
            shards[0].to_str().unwrap().into(),
            shards[1].to_str().unwrap().into(),
        ],
    ] {
        let output = cli_support::output(
            std::process::Command::new(cli_support::bin())
                .args(&args)
                .stdout(full()),
        );
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
    }
}

#[test]
fn without_the_mpi_feature_mpi_says_how_to_build_it() {
    if cfg!(feature = "mpi") {
        return;
    }
    // Regression: clap's generic "unexpected argument '--mpi'".
    nqueens()
        .args(["count", "12", "--mpi"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--features mpi"));
}

#[test]
fn absurd_thread_counts_are_refused_and_workers_never_outnumber_tasks() {
    // Regression: `--threads 99999` was still starting threads after a minute.
    nqueens()
        .args(["count", "10", "--threads", "99999"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("from 1 to 1024"));
    let out = nqueens()
        .args(["count", "6", "-j", "1000", "--json"])
        .assert()
        .success();
    let object: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert!(
        object["threads"].as_u64().unwrap() <= object["tasks"].as_u64().unwrap().max(1),
        "{object}"
    );
}

#[test]
fn every_out_of_range_size_gets_one_message() {
    for size in ["0", "4294967296", "18446744073709551615"] {
        nqueens()
            .args(["find", size])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "board size {size} is out of range: it must be from 1 to 4294967295"
            )));
    }
    for size in ["33", "99999999999999999999"] {
        nqueens()
            .args(["count", size])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "board size {size} is out of range: it must be from 1 to 32"
            )));
    }
}

#[test]
fn a_checkpoint_or_shard_file_must_be_a_regular_file() {
    // Regression: `--checkpoint FIFO` blocked, `--checkpoint /dev/full` read without end.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(cli_support::status(std::process::Command::new("mkfifo").arg(&fifo)).success());
    for path in [
        fifo.as_path(),
        dir.path(),
        std::path::Path::new("/dev/full"),
    ] {
        nqueens()
            .args(["count", "8", "--checkpoint"])
            .arg(path)
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .code(2)
            .stderr(predicates::str::contains("not a regular file"));
        nqueens()
            .arg("merge")
            .arg(path)
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .code(2)
            .stderr(predicates::str::contains("not a regular file"));
    }
    nqueens().args(["merge", "/no/such/shard"]).assert().code(2);
}

/// Regression (edges VI): a cut or non-JSON shard was exit 1 in `merge` while a damaged
/// journal was exit 2 in `audit`. A file a command cannot read is exit 2 everywhere, one
/// line naming it; a set that does not add up stays exit 1.
#[test]
fn merge_of_an_unreadable_shard_is_exit_2_and_of_a_bad_set_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |i: usize| {
        let out = nqueens()
            .args(["count", "8", "--shard", &format!("{i}/2")])
            .output()
            .unwrap();
        let file = dir.path().join(format!("s{i}.json"));
        std::fs::write(&file, &out.stdout).unwrap();
        file
    };
    let (s0, s1) = (shard(0), shard(1));
    let whole = std::fs::read_to_string(&s1).unwrap();
    let cut = dir.path().join("cut.json");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let not_json = dir.path().join("not.json");
    std::fs::write(&not_json, "shard 1 of 2\n").unwrap();
    let edited = dir.path().join("edited.json");
    std::fs::write(&edited, whole.replacen("\"units\":", "\"units\":1", 1)).unwrap();
    for (file, why) in [
        (&cut, "cut short"),
        (&not_json, "not JSON"),
        (&edited, "checksum mismatch"),
    ] {
        let out = nqueens().arg("merge").arg(&s0).arg(file).assert().code(2);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(why), "{stderr}");
        assert!(stderr.contains(file.to_str().unwrap()), "{stderr}");
    }
    nqueens().arg("merge").arg(&s0).arg(&s0).assert().code(1);
    nqueens()
        .arg("merge")
        .arg(&s0)
        .arg(&s1)
        .assert()
        .success()
        .stdout("92\n");
}

/// Regression: a shard file whose `shards` was 2^40, its checksum recomputed, grew `merge`
/// to 23 GB; it is one line on stderr, exit 2 (a file no run makes), at once.
#[test]
fn merge_refuses_a_shard_count_of_2_to_the_40_without_allocating_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..2 {
        let out = nqueens()
            .args(["count", "8", "--shard", &format!("{i}/2")])
            .output();
        let mut shard: Value = serde_json::from_slice(&out.unwrap().stdout).unwrap();
        shard["shards"] = (1u64 << 40).into();
        // The checksum as nqueens computes it: FNV-1a of the fields, `|`-separated.
        let field = |name: &str| shard[name].to_string().trim_matches('"').to_string();
        let ids: Vec<String> = shard["task_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(Value::to_string)
            .collect();
        let fields = ["format", "version", "n", "engine"].map(field).join("|")
            + &format!("/{}|", field("symmetry"))
            + &["split_depth", "tasks", "shard", "shards"]
                .map(field)
                .join("|")
            + &format!("|{}|", ids.join(","))
            + &["units", "units_per_solution"].map(field).join("|");
        let checksum = fields.bytes().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        shard["checksum"] = format!("{checksum:016x}").into();
        let file = dir.path().join(format!("s{i}.json"));
        std::fs::write(&file, shard.to_string()).unwrap();
        files.push(file);
    }
    let out = nqueens()
        .arg("merge")
        .args(&files)
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("at most one shard per task"), "{stderr}");
}

/// Regression: the subtotals of a shard (`count N --shard I/K --subtotals F`) said
/// `shard=all` in their header, as if they were the whole run's; they name the shard.
#[test]
fn a_shards_subtotals_header_names_the_shard_not_all() {
    let dir = tempfile::tempdir().unwrap();
    for (shard, named) in [(Some("1/3"), "shard=1/3"), (None, "shard=all")] {
        let file = dir.path().join("subtotals");
        let mut count = nqueens();
        count.args(["count", "10", "--subtotals"]).arg(&file);
        if let Some(shard) = shard {
            count.args(["--shard", shard]);
        }
        count.assert().success();
        let text = std::fs::read_to_string(&file).unwrap();
        let header = text.lines().next().unwrap();
        assert!(header.contains(&format!(" {named} ")), "{header}");
    }
}
