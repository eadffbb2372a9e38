//! `nqueens bench` through the binary: its JSON against its own schema, each derived figure
//! computed from the figures beside it, a baseline's round trip, a wrong count's exit 1, and
//! the bad inputs' one line and exit 2.

mod cli_support;

use cli_support::{nqueens, text};
use serde_json::Value;

/// `bench --quick` on `threads` as JSON.
fn quick_json(threads: &str) -> Value {
    let out = nqueens()
        .args(["bench", "--quick", "--threads", threads, "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Piped: nothing but the result, no progress.
    assert_eq!(text(&out.stderr), "");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn f(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// The JSON holds every field its schema names, with its type, and each derived figure is
/// what the figures beside it make: solutions a second = threads x the board's solutions
/// over the median, speed-up = threads x the one-thread median over the row's, efficiency =
/// speed-up over threads, the score = the join's row on the most threads.
#[test]
fn the_json_keeps_its_schema_and_its_figures_follow_from_the_rows() {
    let report = quick_json("1,2");
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(
        keys(&report),
        [
            "features",
            "format",
            "machine",
            "rounds",
            "rows",
            "score",
            "version",
            "warnings",
            "workload",
            "yardsticks_after",
            "yardsticks_before"
        ]
    );
    assert_eq!(
        keys(&report["machine"]),
        [
            "join_build",
            "logical_cpus",
            "memory_bytes",
            "model",
            "physical_cores",
            "search_build"
        ]
    );
    assert_eq!(
        keys(&report["rows"][0]),
        [
            "core_ns_per_solution",
            "efficiency",
            "engine",
            "max_seconds",
            "median_seconds",
            "min_seconds",
            "n",
            "solutions_per_second",
            "speedup",
            "threads"
        ]
    );
    assert_eq!(
        keys(&report["score"]),
        ["solutions_per_second", "textbook_counters", "threads"]
    );
    assert_eq!(report["format"], "nqueens-bench 1");
    assert_eq!(report["version"], env!("CARGO_PKG_VERSION"));
    assert!(
        report["features"]
            .as_array()
            .unwrap()
            .contains(&"cli".into())
    );
    let machine = &report["machine"];
    assert!(machine["logical_cpus"].as_u64().unwrap() >= 1);
    for build in ["join_build", "search_build"] {
        assert!(machine[build].is_string(), "{machine}");
    }
    let workload = &report["workload"];
    assert_eq!(workload["quick"], true);
    assert_eq!(report["rounds"], 1);
    for yardsticks in ["yardsticks_before", "yardsticks_after"] {
        assert!(f(&report[yardsticks]["textbook_seconds"]) > 0.0);
        assert!(f(&report[yardsticks]["cache_ns_per_step"]) > 0.0);
    }
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "{report}");
    for row in rows {
        let engine = row["engine"].as_str().unwrap();
        let threads = row["threads"].as_u64().unwrap() as f64;
        let n = row["n"].as_u64().unwrap() as u32;
        let key = if engine == "join" {
            "join_n"
        } else {
            "search_n"
        };
        assert_eq!(workload[key], n);
        let one = rows
            .iter()
            .find(|r| r["engine"] == engine && r["threads"] == 1)
            .unwrap();
        let median = f(&row["median_seconds"]);
        assert!(f(&row["min_seconds"]) <= median && median <= f(&row["max_seconds"]));
        let solutions = threads * nqueens::known::total(n).unwrap() as f64;
        assert!(
            close(f(&row["solutions_per_second"]), solutions / median),
            "{row}"
        );
        assert!(close(
            f(&row["core_ns_per_solution"]),
            median * threads * 1e9 / solutions
        ));
        let speedup = threads * f(&one["median_seconds"]) / median;
        assert!(close(f(&row["speedup"]), speedup), "{row}");
        assert!(close(f(&row["efficiency"]), speedup / threads), "{row}");
    }
    let best = rows
        .iter()
        .filter(|r| r["engine"] == "join")
        .max_by_key(|r| r["threads"].as_u64())
        .unwrap();
    let score = &report["score"];
    assert_eq!(score["threads"], best["threads"]);
    assert!(close(
        f(&score["solutions_per_second"]),
        f(&best["solutions_per_second"])
    ));
    let textbook = nqueens::known::total(workload["textbook_n"].as_u64().unwrap() as u32).unwrap()
        as f64
        / ((f(&report["yardsticks_before"]["textbook_seconds"])
            + f(&report["yardsticks_after"]["textbook_seconds"]))
            / 2.0);
    assert!(close(
        f(&score["textbook_counters"]),
        f(&best["solutions_per_second"]) / textbook
    ));
    assert!(report["warnings"].is_array());
}

/// A saved result read back as the baseline: every row printed beside its own, its median
/// and the ratio baseline/this computed from the two medians; the text names the machine,
/// the yardsticks and the score.
#[test]
fn a_saved_result_is_printed_beside_the_next_as_its_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("saved.json");
    let baseline = quick_json("1");
    std::fs::write(&saved, baseline.to_string()).unwrap();
    let out = nqueens()
        .args(["bench", "--quick", "--threads", "1", "--baseline"])
        .arg(&saved)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    for words in [
        "machine:",
        "instruction sets:",
        "yardsticks",
        "score:",
        "baseline/this",
    ] {
        assert!(said.contains(words), "{words}: {said}");
    }
    let rows: Vec<Vec<String>> = said
        .lines()
        .filter(|l| l.starts_with("| join") || l.starts_with("| search"))
        .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
        .collect();
    assert_eq!(rows.len(), 2, "{said}");
    for row in rows {
        // | engine | n | threads | median | min | max | sol/s | ns | speed-up | eff | base | ratio |
        let theirs = baseline["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["engine"] == row[1].as_str())
            .unwrap();
        let saved_median = f(&theirs["median_seconds"]);
        assert_eq!(row[11], format!("{saved_median:.3}"), "{row:?}");
        let this: f64 = row[4].parse().unwrap();
        let ratio: f64 = row[12].trim_end_matches('x').parse().unwrap();
        // Both printed rounded: the ratio of the printed medians, to the rounding.
        assert!(
            (ratio - saved_median / this).abs() < 0.02 + 0.01 * ratio,
            "{row:?}"
        );
    }
}

/// `--threads` is read as a set (sorted, each once), and `--yardsticks` times the two
/// yardsticks alone, in a format of its own that `--baseline` does not take for a result.
#[test]
fn threads_are_a_set_and_the_yardsticks_run_alone() {
    let report = quick_json("2,1,2");
    let threads: Vec<u64> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["engine"] == "join")
        .map(|r| r["threads"].as_u64().unwrap())
        .collect();
    assert_eq!(threads, [1, 2]);
    let out = nqueens()
        .args(["bench", "--quick", "--yardsticks", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let alone: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(alone["format"], "nqueens-bench-yardsticks 1");
    assert!(f(&alone["yardsticks"]["cache_ns_per_step"]) > 0.0);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("y.json");
    std::fs::write(&file, &out.stdout).unwrap();
    let out = nqueens()
        .args(["bench", "--quick", "--baseline"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("the yardsticks alone"));
}

/// A wrong count ends the benchmark with exit 1 and says which (a benchmark that can count
/// wrong is a stress test too).
#[test]
fn a_wrong_count_fails_the_benchmark() {
    let out = nqueens()
        .args(["bench", "--quick", "--threads", "1"])
        .env("NQUEENS_BENCH_FAULT", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("counts wrong"),
        "{}",
        text(&out.stderr)
    );
    // Regression (edges VI): "on 1 threads".
    assert!(
        text(&out.stderr).contains("the join engine on 1 thread: "),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "");
}

/// Bad input: one line on stderr, exit 2, nothing run.
#[test]
fn bad_input_gets_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let not_json = dir.path().join("not.json");
    std::fs::write(&not_json, "hello\n").unwrap();
    let other_format = dir.path().join("other.json");
    std::fs::write(&other_format, r#"{"format":"nqueens-bench 0"}"#).unwrap();
    let foreign = dir.path().join("foreign.json");
    std::fs::write(&foreign, r#"{"n":8,"solutions":92}"#).unwrap();
    // A full run's result: another workload than --quick's.
    let full = quick_json("1")
        .to_string()
        .replace(r#""quick":true"#, r#""quick":false"#);
    let other_workload = dir.path().join("full.json");
    std::fs::write(&other_workload, full).unwrap();
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    // A result with a figure that is no number above 0 (JSON's null, as a NaN is written).
    let nulled = quick_json("1").to_string().replacen(
        r#""median_seconds":"#,
        r#""median_seconds":null,"x":"#,
        1,
    );
    let damaged = dir.path().join("damaged.json");
    std::fs::write(&damaged, nulled).unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--rounds".into(), "101".into()], "out of range"),
        (
            vec!["--threads".into(), "1,,2".into()],
            "invalid thread count",
        ),
        (
            vec!["--json".into(), "--baseline".into(), path(&damaged)],
            "cannot be used with",
        ),
        (vec!["--baseline".into(), path(&damaged)], "damaged"),
        (
            vec!["--threads".into(), "0".into()],
            "thread count 0 is out of range",
        ),
        (vec!["--threads".into(), "1025".into()], "out of range"),
        (
            vec!["--threads".into(), "1,x".into()],
            "invalid thread count",
        ),
        (vec!["--threads".into(), "-1".into()], "out of range"),
        (
            vec!["--rounds".into(), "0".into()],
            "round count 0 is out of range",
        ),
        (
            vec!["--baseline".into(), "/nonexistent/b.json".into()],
            "cannot read it",
        ),
        (vec!["--baseline".into(), path(&not_json)], "not JSON"),
        (
            vec!["--baseline".into(), path(&other_format)],
            "another version",
        ),
        (vec!["--baseline".into(), path(&foreign)], "not a result of"),
        (
            vec!["--baseline".into(), path(&other_workload)],
            "another workload",
        ),
    ];
    let mut cases = cases;
    // More boards at once than the memory free holds (32 MiB a board): on a machine with
    // under 32 GiB free, as the build machine has, 1024 threads are refused before they run.
    let free_kib: Option<u64> = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemAvailable:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    });
    if free_kib.is_some_and(|kib| kib < 32 << 20) {
        cases.push((vec!["--threads".into(), "1024".into()], "MiB free now"));
    }
    for (args, want) in cases {
        let out = nqueens()
            .args(["bench", "--quick"])
            .args(&args)
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        assert_eq!(text(&out.stdout), "", "{args:?}");
    }
}

/// Regression (edges VI): `--baseline` took a result edited into another workload: a row of
/// another board, no rows at all (the score still compared), an unknown engine, a row given
/// twice, rounds outside 1..100, a least time above the most, a score on 0 threads; and
/// `/dev/zero` grew without end, a FIFO with no writer hung. Each is one line and exit 2,
/// at once, before anything runs.
#[test]
fn a_baseline_edited_into_another_workload_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let saved = quick_json("1");
    type Edit = fn(&mut Value);
    let edits: [(Edit, &str); 8] = [
        (
            |v| v["rows"][0]["n"] = 17.into(),
            "where the workload counts n = 16",
        ),
        (|v| v["rows"] = Value::Array(vec![]), "it has no rows"),
        (
            |v| v["rows"][1]["engine"] = "dfs".into(),
            "unknown engine \"dfs\"",
        ),
        (
            |v| {
                let row = v["rows"][0].clone();
                v["rows"].as_array_mut().unwrap().push(row);
            },
            "the join row on 1 thread given twice",
        ),
        (|v| v["rounds"] = 0.into(), "0 rounds"),
        (|v| v["rounds"] = 101.into(), "101 rounds"),
        (
            |v| v["rows"][0]["min_seconds"] = (f(&v["rows"][0]["max_seconds"]) * 2.0).into(),
            "a least time above",
        ),
        (|v| v["score"]["threads"] = 0.into(), "a score on 0 threads"),
    ];
    let mut cases: Vec<(std::path::PathBuf, &str)> = Vec::new();
    for (i, (edit, want)) in edits.into_iter().enumerate() {
        let mut edited = saved.clone();
        edit(&mut edited);
        let path = dir.path().join(format!("edited{i}.json"));
        std::fs::write(&path, edited.to_string()).unwrap();
        cases.push((path, want));
    }
    cases.push(("/dev/zero".into(), "not a regular file"));
    let fifo = dir.path().join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    cases.push((fifo, "not a regular file"));
    for (path, want) in cases {
        let started = std::time::Instant::now();
        let out = nqueens()
            .args(["bench", "--quick", "--baseline"])
            .arg(&path)
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{path:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{path:?}: {stderr}");
        assert!(stderr.contains(want), "{path:?}: {stderr}");
        assert!(
            started.elapsed().as_secs() < 10,
            "{path:?}: {:?}",
            started.elapsed()
        );
    }
}
