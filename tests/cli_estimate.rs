//! `nqueens count --estimate`: a prediction from a timed sample, in plain text and JSON, for
//! both engines, and the flags it refuses. How close the prediction comes is measured in
//! benchmarks and the README, not here: times on a shared machine drift.

mod cli_support;

use cli_support::{Watched, nqueens, stdout};
use serde_json::Value;
use std::io::BufRead;

fn json(args: &[&str]) -> Value {
    serde_json::from_slice(&stdout(args)).unwrap()
}

#[test]
fn estimate_json_names_the_tasks_the_count_would_run_and_a_finite_cost() {
    let estimate = json(&["count", "16", "--estimate", "--json", "-j", "2"]);
    let count = json(&["count", "16", "--json", "-j", "2"]);
    assert_eq!(estimate["tasks"], count["tasks"], "{estimate}");
    assert_eq!(estimate["engine"], "join");
    assert_eq!(estimate["threads"], 2);
    let core_seconds = estimate["core_seconds"].as_f64().unwrap();
    assert!(core_seconds > 0.0 && core_seconds.is_finite(), "{estimate}");
    assert!(
        estimate["error"].as_f64().unwrap().is_finite(),
        "{estimate}"
    );
    assert!(estimate["sampled"].as_u64().unwrap() >= 1, "{estimate}");
    // The join engine holds its quarter table: some memory, and no count is printed.
    assert!(
        estimate["memory_bytes"].as_u64().unwrap() > 1 << 20,
        "{estimate}"
    );
    assert!(estimate.get("solutions").is_none(), "{estimate}");
}

#[test]
fn estimate_of_the_search_needs_no_table_and_a_range_gives_a_line_per_size() {
    let estimate = json(&["count", "12", "--estimate", "--json", "--engine", "search"]);
    assert_eq!(estimate["engine"], "search");
    assert_eq!(estimate["symmetry"], "full");
    // Its tasks alone: a few hundred bytes each.
    let tasks = estimate["tasks"].as_u64().unwrap();
    assert_eq!(estimate["memory_bytes"].as_u64().unwrap(), tasks * 256);
    let text = String::from_utf8(stdout(&["count", "10..12", "--estimate"])).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (line, n) in lines.iter().zip(10..) {
        assert!(line.starts_with(&format!("n = {n}: about ")), "{line}");
        assert!(line.contains("core-seconds"), "{line}");
        // Regression (edges VI): "memory at most 7K" for a process that holds megabytes.
        // The engine's memory and the process's are named apart.
        assert!(line.contains("; memory: the engine's at most "), "{line}");
        assert!(line.contains(", the process's "), "{line}");
    }
}

#[test]
fn estimate_refuses_what_only_a_count_can_do() {
    for flag in [
        &["--shard", "0/2"][..],
        &["--unique"],
        &["--subtotals", "sub.txt"],
        &["--checkpoint", "run.journal"],
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = nqueens()
            .current_dir(dir.path())
            .args(["count", "14", "--estimate"])
            .args(flag)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("--estimate"), "{flag:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{flag:?}: {stderr}");
        // Nothing was written.
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "{flag:?}"
        );
    }
}

/// Regression: `count 19 --engine search --estimate` sampled a quarter of the run instead of
/// a twentieth (its first round timed 32 whole tasks, the largest most often), and
/// `count 29 --estimate` printed nothing after ten minutes. Parts of the search are now timed
/// from subtrees of milliseconds, and a round is cut short where it would pass the share.
#[test]
fn an_estimate_of_the_search_takes_no_more_than_a_twentieth_of_the_run_it_predicts() {
    let estimate = json(&[
        "count",
        "18",
        "--engine",
        "search",
        "--estimate",
        "--json",
        "-j",
        "1",
    ]);
    let core_seconds = estimate["core_seconds"].as_f64().unwrap();
    let sample = estimate["sample_seconds"].as_f64().unwrap();
    // A twentieth, and a part in flight when the share was reached (milliseconds; wall
    // time on a busy machine may stretch it).
    assert!(sample <= core_seconds / 20.0 * 1.25 + 0.25, "{estimate}");
    assert!(estimate["sampled"].as_u64().unwrap() >= 32, "{estimate}");
}

/// Regression: `count 32 --split-depth 8` aborted on an 8 GiB allocation (the search built
/// every task of the split, billions of them, before anything else). The depth is now
/// lowered to the deepest whose tasks fit the cap, with a note that says why; the plan is
/// built by the time the note is written, so the peak then is the plan's.
#[test]
fn a_split_depth_that_would_make_too_many_tasks_is_lowered_with_a_note_and_bounded_memory() {
    let mut run = Watched::nqueens(&[
        "count",
        "32",
        "--engine",
        "search",
        "--split-depth",
        "8",
        "--estimate",
        "-j",
        "1",
    ])
    .measured();
    let mut note = String::new();
    std::io::BufReader::new(run.child.stderr.take().unwrap())
        .read_line(&mut note)
        .unwrap();
    run.child.kill().unwrap();
    let (_, peak) = run.wait_with_peak();
    assert!(
        note.starts_with("note: --split-depth 8 would make more than 1048576 tasks at n = 32")
            && note.contains("it splits at depth 3"),
        "{note}"
    );
    assert!(peak < 400 << 20, "peak {} MiB", peak >> 20);
}
