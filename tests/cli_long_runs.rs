//! Long runs: checkpoints that survive SIGKILL and SIGTERM, shards with merge, subtotals.

mod cli_support;

use cli_support::{Watched, nqueens};
use std::path::Path;
use std::time::{Duration, Instant};

const Q16: &str = "14772512";
const Q17: &str = "95815104";
const Q18: &str = "666090624";

fn spawn(args: &[&str]) -> Watched {
    Watched::nqueens(args)
}

/// Counts that take seconds on two cores, by each engine (the search at n = 17, the join
/// engine at n = 18), with their results.
const LONG_COUNTS: [([&str; 6], &str); 2] = [
    (
        ["count", "17", "--engine", "search", "--split-depth", "2"],
        Q17,
    ),
    // Depth 4: the join engine's tasks by the first 8 rows (256 of them; depth 8 makes
    // 12,283, a journal sync each).
    (
        ["count", "18", "--engine", "join", "--split-depth", "4"],
        Q18,
    ),
];

/// `args` on two threads with a journal at `path`.
fn with_journal<'a>(args: &[&'a str], path: &'a str) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.extend(["-j", "2", "--checkpoint", path]);
    all
}

fn records(journal: &Path) -> usize {
    std::fs::read_to_string(journal)
        .map(|t| t.lines().filter(|l| l.starts_with("task ")).count())
        .unwrap_or(0)
}

/// The number of tasks of the run a journal's header names.
fn tasks(journal: &Path) -> usize {
    std::fs::read_to_string(journal)
        .unwrap()
        .split("tasks=")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Waits until the journal holds `count` records (or the run ends).
fn wait_for_records(child: &mut Watched, journal: &Path, count: usize) {
    let started = Instant::now();
    while records(journal) < count && child.try_wait().is_none() {
        assert!(started.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn resume_after_sigkill_at_several_points_gives_the_exact_count() {
    let dir = tempfile::tempdir().unwrap();
    for (engine, (count, expected)) in LONG_COUNTS.iter().enumerate() {
        for (i, kill_at) in [1usize, 20, 120].into_iter().enumerate() {
            let journal = dir.path().join(format!("j{engine}-{i}"));
            let args = with_journal(count, journal.to_str().unwrap());
            let mut child = spawn(&args);
            wait_for_records(&mut child, &journal, kill_at);
            child.kill().unwrap(); // SIGKILL
            let status = child.wait();
            let kept = records(&journal);
            // Killed mid-run: a run that had finished first would resume nothing, and check
            // nothing (regression: it could).
            assert!(
                status.code().is_none() && kept < tasks(&journal),
                "{count:?}: the run ended before the kill ({status:?}, {kept} records)"
            );
            if i == 1 {
                // A record cut short by the kill.
                let mut text = std::fs::read_to_string(&journal).unwrap();
                text.push_str("task 3");
                std::fs::write(&journal, text).unwrap();
            }
            nqueens()
                .args(&args)
                .assert()
                .success()
                .stdout(format!("{expected}\n"));
            let text = std::fs::read_to_string(&journal).unwrap();
            let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("task ")).collect();
            let mut ids: Vec<usize> = lines
                .iter()
                .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
                .collect();
            ids.sort_unstable();
            let before = ids.len();
            ids.dedup();
            assert_eq!(ids.len(), before, "a task recorded twice");
            assert!(kept <= ids.len());
        }
    }
}

#[test]
fn sigterm_keeps_the_journal_says_how_to_resume_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let args = with_journal(&LONG_COUNTS[0].0, journal.to_str().unwrap());
    let mut child = spawn(&args);
    // The first record of a run of seconds: the signal comes long before the end. A run that
    // finished first would check nothing, so it fails the test (regression: it used to pass).
    wait_for_records(&mut child, &journal, 1);
    cli_support::status(
        std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]),
    );
    let output = child.wait_with_output();
    assert_eq!(
        output.status.code(),
        Some(130),
        "the run was not interrupted: {output:?}"
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("run the same command again to resume"),
        "{stderr}"
    );
    let kept = records(&journal);
    assert!(kept >= 1);
    let tasks = tasks(&journal);
    assert!(kept < tasks, "every task was done: {kept} of {tasks}");
    nqueens()
        .args(&args)
        .assert()
        .success()
        .stdout(format!("{Q17}\n"));
}

/// A journal of another run, or a damaged one, is a file the resume cannot take: exit 2, as
/// for any input a command cannot read (exit 1 before edges VI, where `audit` said 2 of the
/// same file).
#[test]
fn a_journal_of_another_run_or_a_damaged_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let path = journal.to_str().unwrap();
    nqueens()
        .args(["count", "12", "--checkpoint", path])
        .assert()
        .success()
        .stdout("14200\n");
    let out = nqueens()
        .args(["count", "13", "--checkpoint", path])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("another run"), "{stderr}");
    nqueens()
        .args(["count", "12", "--symmetry", "mirror", "--checkpoint", path])
        .assert()
        .code(2);
    // A record changed in the middle of the file.
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let middle = lines.len() / 2;
    let fields: Vec<&str> = lines[middle].split(' ').collect();
    let value: u128 = fields[2].parse().unwrap();
    lines[middle] = format!("task {} {} {}", fields[1], value + 3, fields[3]);
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    let out = nqueens()
        .args(["count", "12", "--checkpoint", path])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("damaged record"), "{stderr}");
}

#[test]
fn shards_merged_equal_the_full_count() {
    let dir = tempfile::tempdir().unwrap();
    let engines = [
        ("full", ["--symmetry", "full"]),
        ("mirror", ["--symmetry", "mirror"]),
        ("join", ["--engine", "join"]),
    ];
    for (engine, flags) in engines {
        for shards in [1, 3, 4] {
            let mut files = Vec::new();
            for i in 0..shards {
                let out = nqueens()
                    .args(["count", "13"])
                    .args(flags)
                    .args(["--shard", &format!("{i}/{shards}")])
                    .assert()
                    .success();
                let file = dir.path().join(format!("{engine}-{i}-{shards}.json"));
                std::fs::write(&file, &out.get_output().stdout).unwrap();
                files.push(file.to_str().unwrap().to_string());
            }
            nqueens()
                .arg("merge")
                .args(&files)
                .assert()
                .success()
                .stdout("73712\n");
            if shards > 1 {
                let missing = &files[1..];
                let out = nqueens().arg("merge").args(missing).assert().code(1);
                let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
                assert!(
                    stderr.contains(&format!("shard 0/{shards} missing")),
                    "{stderr}"
                );
                let mut twice = files.clone();
                twice.push(files[1].clone());
                let out = nqueens().arg("merge").args(&twice).assert().code(1);
                let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
                assert!(stderr.contains("given twice"), "{stderr}");
            }
        }
    }
}

#[test]
fn merge_json_and_shards_of_different_runs() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, args: &[&str]| {
        let out = nqueens().args(args).assert().success();
        let file = dir.path().join(name);
        std::fs::write(&file, &out.get_output().stdout).unwrap();
        file.to_str().unwrap().to_string()
    };
    let a = write("a", &["count", "11", "--shard", "0/2"]);
    let b = write("b", &["count", "11", "--shard", "1/2"]);
    let c = write("c", &["count", "12", "--shard", "1/2"]);
    let merged = |files: [&str; 2]| -> serde_json::Value {
        let out = nqueens()
            .args(["merge", "--json"])
            .args(files)
            .assert()
            .success();
        serde_json::from_slice(&out.get_output().stdout).unwrap()
    };
    let object = merged([&a, &b]);
    assert_eq!(object["solutions"], 2680);
    assert_eq!(object["match"], true);
    assert_eq!(
        (&object["engine"], &object["symmetry"]),
        (&"search".into(), &"full".into())
    );
    let d = write("d", &["count", "14", "--shard", "0/2"]);
    let e = write("e", &["count", "14", "--shard", "1/2"]);
    let object = merged([&d, &e]);
    assert_eq!(
        (&object["solutions"], &object["engine"]),
        (&365_596.into(), &"join".into())
    );
    assert!(object.get("symmetry").is_none(), "{object}");
    let out = nqueens().args(["merge", &a, &c]).assert().code(1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("another run"), "{stderr}");
}

#[test]
fn subtotals_add_up_to_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sub.tsv");
    nqueens()
        .args(["count", "12", "--subtotals", file.to_str().unwrap()])
        .assert()
        .success()
        .stdout("14200\n");
    let text = std::fs::read_to_string(&file).unwrap();
    let header = text.lines().next().unwrap();
    let per: u128 = header
        .rsplit("units_per_solution=")
        .next()
        .and_then(|rest| rest.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    let units: u128 = text
        .lines()
        .skip(2)
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').nth(1).unwrap().parse::<u128>().unwrap())
        .sum();
    assert_eq!(units / per, 14200);
    // The closing line says how many tasks and what they add up to.
    let tasks = text.lines().filter(|l| !l.starts_with('#')).count() - 1;
    assert_eq!(
        text.lines().last().unwrap(),
        format!("# end: tasks={tasks} units={units}")
    );
}

#[test]
fn long_run_flags_need_one_board_size() {
    for flag in [
        ["--checkpoint", "x"],
        ["--shard", "0/2"],
        ["--subtotals", "x"],
    ] {
        nqueens()
            .args(["count", "8..9"])
            .args(flag)
            .assert()
            .code(2);
    }
    nqueens()
        .args(["count", "8", "--shard", "2/2"])
        .assert()
        .code(2);
}

/// Regression: after SIGTERM the message said 1816 tasks were kept where the journal held
/// 1818: the handler let go of the journal before the process ended, and workers recorded
/// more. The join engine's thousands of short tasks make the gap likely; three tries.
#[test]
fn sigterm_message_counts_what_the_journal_holds() {
    let dir = tempfile::tempdir().unwrap();
    for round in 0..3 {
        let journal = dir.path().join(format!("j{round}"));
        let path = journal.to_str().unwrap();
        let mut child = spawn(&[
            "count",
            "18",
            "--engine",
            "join",
            "-j",
            "2",
            "--checkpoint",
            path,
        ]);
        wait_for_records(&mut child, &journal, 50 + 50 * round);
        cli_support::status(
            std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]),
        );
        let output = child.wait_with_output();
        assert_eq!(output.status.code(), Some(130), "{output:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        let said: usize = stderr
            .split("interrupted: ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{stderr}"));
        assert_eq!(said, records(&journal), "round {round}: {stderr}");
    }
}

/// Starts `args` twice at once; whichever opens its file first must succeed and the other be
/// refused at once with exit 2 and one line on stderr: their outputs, the refused one second.
fn two_at_once(args: &[&str]) -> [std::process::Output; 2] {
    let runs = [spawn(args), spawn(args)];
    let [a, b] = runs.map(Watched::wait_with_output);
    let (done, refused) = if a.status.code() == Some(2) {
        (b, a)
    } else {
        (a, b)
    };
    assert_eq!(
        (done.status.code(), refused.status.code()),
        (Some(0), Some(2)),
        "{done:?} {refused:?}"
    );
    let stderr = String::from_utf8(refused.stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    [done, refused]
}

/// Regression: two runs started at once on one new journal both wrote a header, and the
/// journal could no longer be resumed; runs of different settings were both accepted. The
/// journal is locked for the whole run: the second run, whatever its settings, is refused at
/// once (exit 2), and the journal resumes.
#[test]
fn two_runs_at_once_on_one_journal_the_second_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let path = journal.to_str().unwrap();
    let count = [
        "count",
        "16",
        "--engine",
        "search",
        "-j",
        "1",
        "--checkpoint",
    ];
    let [done, refused] = two_at_once(&[&count[..], &[path]].concat());
    assert_eq!(done.stdout, format!("{Q16}\n").as_bytes());
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(
        stderr.contains("another run is using this journal"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(text.matches("nqueens-checkpoint").count(), 1, "{text}");
    // A run of other settings while one holds the journal: refused for the lock (exit 2),
    // not counted beside it.
    let fresh = dir.path().join("k");
    let fresh_path = fresh.to_str().unwrap();
    let mut first = spawn(&[&count[..], &[fresh_path]].concat());
    wait_for_records(&mut first, &fresh, 1);
    let out = nqueens()
        .args([
            "count",
            "16",
            "--symmetry",
            "mirror",
            "--checkpoint",
            fresh_path,
        ])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("another run is using this journal"),
        "{stderr}"
    );
    assert!(first.wait().success());
    // Both journals resume: every task done, the same count.
    for path in [path, fresh_path] {
        nqueens()
            .args(count)
            .arg(path)
            .assert()
            .success()
            .stdout(format!("{Q16}\n"));
    }
}

/// Two runs at once writing one subtotals file: the file is locked from the start of the run
/// (its temporary is), so the second is refused at once, not after its count.
#[test]
fn two_runs_at_once_on_one_subtotals_file_the_second_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sub.tsv");
    let path = file.to_str().unwrap();
    let args = [
        "count",
        "16",
        "--engine",
        "search",
        "-j",
        "1",
        "--subtotals",
        path,
    ];
    let [_, refused] = two_at_once(&args);
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(
        stderr.contains("another nqueens run is writing it"),
        "{stderr}"
    );
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .starts_with("# nqueens")
    );
    // Nothing but the file is left beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// The run of n = 28 the tests below forge files of: the mirror search split at one row,
/// which is planned at once (14 tasks) and never counted here.
fn n28_job() -> nqueens::Job {
    nqueens::Counter::new()
        .engine(nqueens::Engine::Search(nqueens::Symmetry::Mirror))
        .split_depth(1)
        .threads(1)
        .prepare(28)
        .unwrap()
}

const N28: [&str; 7] = [
    "28",
    "--engine",
    "search",
    "--symmetry",
    "mirror",
    "--split-depth",
    "1",
];

/// Regression (edges VI): past the known counts nothing checked a count; a count of n >= 6
/// that is not a multiple of 4 is no count of any board (H. M. Nielsen, 2026). Shards of
/// n = 28 whose values add up to 6, and a journal of n = 28 that records 6, are merged and
/// resumed to an error and exit 1, not printed as a count with exit 0.
#[test]
fn a_count_past_the_table_that_is_not_a_multiple_of_4_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let job = n28_job();
    let tasks: Vec<usize> = (0..job.plan.len()).collect();
    let (first, second) = tasks.split_at(1);
    let mut files = Vec::new();
    for (shard, (ids, units)) in [(first, 4u128), (second, 2)].into_iter().enumerate() {
        let result = nqueens::shard::ShardResult::new(&job, shard, 2, ids.to_vec(), units);
        let file = dir.path().join(format!("s{shard}.json"));
        std::fs::write(&file, serde_json::to_string(&result).unwrap()).unwrap();
        files.push(file);
    }
    let out = nqueens().arg("merge").args(&files).assert().code(1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("not a multiple of 4"), "{stderr}");
    // Shards that add up to 8 are a count this check cannot refuse.
    let result = nqueens::shard::ShardResult::new(&job, 1, 2, second.to_vec(), 4);
    std::fs::write(&files[1], serde_json::to_string(&result).unwrap()).unwrap();
    nqueens()
        .arg("merge")
        .args(&files)
        .assert()
        .success()
        .stdout("8\n");
    // A journal that records every task, 6 in all: the resume counts nothing and says so.
    let journal = dir.path().join("n28.journal");
    let checkpoint =
        nqueens::checkpoint::Checkpoint::open(&journal, &job, None, &tasks, "test").unwrap();
    for &id in &tasks {
        checkpoint.record(id, if id == 0 { 6 } else { 0 });
    }
    checkpoint.close().unwrap();
    drop(checkpoint);
    let out = nqueens()
        .arg("count")
        .args(N28)
        .arg("--checkpoint")
        .arg(&journal)
        .assert()
        .code(1)
        .stdout("6\n");
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("n = 28: counted 6 solutions, which is not a multiple of 4"),
        "{stderr}"
    );
}
