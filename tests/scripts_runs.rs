//! The scripts' (scripts/*.sh) work, run with bash on binaries already built or faked
//! (NQUEENS_RELEASE, `compare-builds.sh -b`, an `nqueens` on the PATH): what they print and
//! write, how they stop on a failure, and what a signal leaves behind. Building and timing are
//! not for the test suite. A test that needs the `nqueens` of this build (feature `cli`) says so
//! and checks nothing without it; the scripts' arguments and help are `scripts.rs`.

mod scripts_support;

use scripts_support::{fake, nqueens, refused, script_in, script_with, text};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Regression: a failed count left an empty `shards/nN-I.part` behind for ever. With an
/// `nqueens` on the PATH that fails after writing a line, nothing but the directory is left;
/// with one that succeeds, the result is renamed into place.
#[test]
fn slurm_array_sh_leaves_no_part_file_when_the_count_fails() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let fake = bin.join("nqueens");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (exit, left) in [(1, vec![]), (0, vec!["n12-1.json"])] {
        std::fs::write(&fake, format!("#!/bin/sh\necho '{{}}'\nexit {exit}\n")).unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let work = tempfile::tempdir().unwrap();
        let mut bash = Command::new("bash");
        bash.current_dir(work.path())
            .env("PATH", &path)
            .env("SLURM_ARRAY_TASK_ID", "1")
            .env("SLURM_ARRAY_TASK_COUNT", "2");
        let output = script_in("slurm-array.sh", &["12"], &mut bash);
        assert_eq!(output.status.code(), Some(exit), "{output:?}");
        let mut files: Vec<String> = std::fs::read_dir(work.path().join("shards"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(files, left, "exit {exit}");
    }
}

/// Regression: `compare-builds.sh` timed commands that failed (`count 99` exits 2 in both
/// builds) and gave them a ratio, exit 0, or stopped with exit 2 and no word of why. A command
/// that fails in either build now stops it before any timing: one line naming the command, the
/// build and its exit code, then the command's own stderr, exit 1. Both builds are binaries
/// already built (NQUEENS_RELEASE, -b), or fakes.
#[test]
fn compare_builds_sh_timed_commands_that_failed() {
    let Some(bin) = nqueens() else { return };
    let release = Path::new(bin).parent().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let failing = dir.path().join("failing/nqueens");
    fake(&failing, "echo 'boom: this build fails' >&2; exit 3");
    let failing_release = failing.parent().unwrap();
    let cases = [
        (
            release,
            bin,
            "count 99",
            format!("in the build of {bin} with exit code 2"),
            "board size 99 is out of range",
        ),
        (
            release,
            failing.to_str().unwrap(),
            "count 8",
            format!("in the build of {} with exit code 3", failing.display()),
            "boom: this build fails",
        ),
        (
            failing_release,
            bin,
            "count 8",
            "in the working tree's build with exit code 3".to_string(),
            "boom: this build fails",
        ),
    ];
    for (release, old, command, build, stderr_of_the_command) in cases {
        let output = compare_builds(release, old, &[command]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{command}: {stderr}");
        let first = stderr.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&format!(
                "compare-builds.sh: 'nqueens {command}' failed {build}"
            )),
            "{command}: {stderr}"
        );
        assert!(
            stderr.contains(stderr_of_the_command),
            "{command}: {stderr}"
        );
        assert_eq!(text(&output.stdout), "", "{command}: no table");
    }
}

/// Regression: `compare-builds.sh "count 8 --json"` always stopped on "disagreeing" builds,
/// the JSON's seconds and peak memory differing from run to run. The outputs are compared by
/// their results (a JSON line's n, solutions, known...; a table but its seconds): the same
/// binary twice agrees, and a build that prints another count still stops the script.
#[test]
fn compare_builds_sh_json_counts_always_disagreed() {
    let Some(bin) = nqueens() else { return };
    let release = Path::new(bin).parent().unwrap();
    let output = compare_builds(
        release,
        bin,
        &["count 8 --json", "count 4..6", "count 8 --unique --json"],
    );
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(
        stdout.contains("| `nqueens count 8 --json` | wall s |"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| `nqueens count 4..6` | wall s |"),
        "{stdout}"
    );
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("nqueens");
    fake(
        &other,
        r#"echo '{"n":8,"solutions":93,"seconds":0.1,"known":92,"match":false}'"#,
    );
    let output = compare_builds(release, other.to_str().unwrap(), &["count 8 --json"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("'nqueens count 8 --json' printed other results"),
        "{stderr}"
    );
    assert!(stderr.contains("\"solutions\":93"), "{stderr}");
}

/// `compare-builds.sh` comparing the working tree's build in `release` (NQUEENS_RELEASE)
/// with the binary `old`, one round of `commands`.
fn compare_builds(release: &Path, old: &str, commands: &[&str]) -> Output {
    let mut args = vec!["-b", old, "-R", "1"];
    args.extend_from_slice(commands);
    script_with("compare-builds.sh", &args, &[("NQUEENS_RELEASE", release)])
}

/// Regression: `compare-builds.sh "count 3 --estimate --json"` printed a ratio of `-nan`: the
/// estimate of no work is 0 core-seconds in both builds. A round whose figure of the other
/// build is 0 gives no ratio, and the table says so: never nan or inf.
#[test]
fn compare_builds_sh_gave_a_nan_ratio_to_figures_of_0() {
    let Some(bin) = nqueens() else { return };
    let release = Path::new(bin).parent().unwrap();
    let output = compare_builds(
        release,
        bin,
        &["count 3 --estimate --json", "count 5..6 --estimate --json"],
    );
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let row = stdout
        .lines()
        .find(|line| line.contains("count 3 --estimate"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        row.ends_with("| core-s | 0 | 0 | none (a figure of 0) | none |"),
        "{row}"
    );
    let lower = stdout.to_lowercase();
    assert!(!lower.contains("nan") && !lower.contains("inf"), "{stdout}");
}

/// Regression: the scripts' messages said "1 rounds of 1 commands" and "1 threads". A count
/// takes its noun in the singular for 1, the plural otherwise.
#[test]
fn scripts_said_1_rounds_of_1_commands() {
    let Some(bin) = nqueens() else { return };
    let release = Path::new(bin).parent().unwrap();
    let env = [("NQUEENS_RELEASE", release)];
    for (rounds, commands, said, header) in [
        (
            "1",
            &["count 5"][..],
            "1 round of 1 command",
            "1 round, alternated",
        ),
        (
            "2",
            &["count 5", "count 6"][..],
            "2 rounds of 2 commands",
            "2 rounds, alternated",
        ),
    ] {
        let mut args = vec!["-b", bin, "-R", rounds];
        args.extend(commands);
        let output = script_with("compare-builds.sh", &args, &env);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let stderr = text(&output.stderr);
        let said = format!("compare-builds.sh: {said}, alternately\n");
        assert!(stderr.contains(&said), "{stderr}");
        let stdout = text(&output.stdout);
        let first = stdout.lines().next().unwrap_or_default();
        assert!(first.ends_with(&format!(" · {header}")), "{first}");
    }
}

/// The fields of each record of a CSV text, read by the `csv` crate as RFC 4180 has them: a
/// field in double quotes holds commas, line breaks and doubled double quotes.
fn csv_records(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .map(|record| {
            record
                .expect("a whole CSV")
                .iter()
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// `frontier.sh` run small (a count of n = 5, an estimate of n = 6, one thread) with the
/// cache yardstick answering `caches` ([`frontier_release`]): its output and its files' prefix.
fn frontier_with_caches(dir: &Path, bin: &str, caches: [&str; 3]) -> (Output, PathBuf) {
    let release = frontier_release(dir, bin, caches);
    let prefix = dir.join("out");
    let args = [
        "-c",
        "5",
        "-e",
        "6",
        "-j",
        "1",
        "-o",
        prefix.to_str().unwrap(),
    ];
    let output = script_with("frontier.sh", &args, &[("NQUEENS_RELEASE", &release)]);
    (output, prefix)
}

/// A folder for `frontier.sh`'s NQUEENS_RELEASE in `dir`: the textbook yardstick and the chart
/// faked; `nqueens` the binary `bin` as built, but for `bench --yardsticks --json`, which
/// answers the JSON line of `nqueens bench` with the cache yardstick's ns a step `caches[i]`
/// at its i-th call (the last one past them), and writes a line to `dir/bench.calls` a call.
fn frontier_release(dir: &Path, bin: &str, caches: [&str; 3]) -> PathBuf {
    let release = dir.join("release");
    fake(&release.join("examples/textbook"), "echo 14772512");
    fake(
        &release.join("examples/frontier_chart"),
        "echo '<svg/>' > \"$1\"",
    );
    let calls = dir.join("bench.calls");
    let [first, second, third] = caches;
    fake(
        &release.join("nqueens"),
        &format!(
            r#"if [ "$1" = bench ]; then
  [ "$*" = "bench --yardsticks --json" ] || {{ echo "fake: not a yardsticks call: $*" >&2; exit 9; }}
  echo call >> '{calls}'
  case $(wc -l < '{calls}') in 1) c='{first}' ;; 2) c='{second}' ;; *) c='{third}' ;; esac
  echo '{{"format":"nqueens-bench 1","version":"0.10.0","workload":{{"cache_steps":268435456,"join_n":17,"quick":false,"search_n":16,"textbook_n":15}},"yardsticks":{{"cache_ns_per_step":'"$c"',"textbook_seconds":0.98}}}}'
  exit 0
fi
exec '{bin}' "$@""#,
            calls = calls.display(),
        ),
    );
    release
}

/// Regression: `frontier.sh -l 'the "fast", box'` wrote a CSV line that no reader could split
/// (the label put in quotes as it was, its own quotes and comma kept). Its fields are quoted as
/// RFC 4180 says; a label of two lines is refused. The binaries: nqueens as built (its cache
/// yardstick faked), the yardstick and the chart faked (NQUEENS_RELEASE).
#[test]
fn frontier_sh_csv_broke_on_a_label_with_quotes() {
    let Some(bin) = nqueens() else { return };
    let dir = tempfile::tempdir().unwrap();
    let release = frontier_release(dir.path(), bin, ["3.25", "3.5", "3.75"]);
    let prefix = dir.path().join("out");
    let label = "the \"fast\", box";
    let output = script_with(
        "frontier.sh",
        &[
            "-c",
            "4 5",
            "-e",
            "",
            "-j",
            "1",
            "-l",
            label,
            "-o",
            prefix.to_str().unwrap(),
        ],
        &[("NQUEENS_RELEASE", &release)],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let csv = std::fs::read_to_string(prefix.with_extension("csv")).unwrap();
    let records = csv_records(&csv);
    assert_eq!(records.len(), 3, "{csv}");
    let header = &records[0];
    assert_eq!(header[0], "label", "{csv}");
    for (record, n) in records[1..].iter().zip(["4", "5"]) {
        assert_eq!(record.len(), header.len(), "{csv}");
        assert_eq!(record[0], label, "{csv}");
        let field = |name: &str| &record[header.iter().position(|h| h == name).unwrap()];
        assert_eq!(
            (field("n").as_str(), field("kind").as_str()),
            (n, "count"),
            "{csv}"
        );
        assert_eq!(field("threads"), "1", "{csv}");
    }
    let md = std::fs::read_to_string(prefix.with_extension("md")).unwrap();
    assert!(md.contains("1 thread ·"), "{md}");
    refused("frontier.sh", &["-l", "two\nlines"], "a label of one line");
}

/// The issue: "measure a second yardstick of fixed code for the caches (bench and frontier.sh
/// both), show both". `frontier.sh` runs `nqueens bench --yardsticks --json` before, between
/// and after its counts, as it times the textbook yardstick, and shows its ns a step: all three
/// and their spread in the table's header (the textbook yardstick's line kept as it was), the
/// median in the CSV's column `cache_ns_per_step`. A bench line without the figure stops it,
/// exit 1, saying so.
#[test]
fn frontier_sh_shows_the_cache_yardstick_beside_the_textbook() {
    let Some(bin) = nqueens() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (output, prefix) = frontier_with_caches(dir.path(), bin, ["3.25", "3.5", "3.75"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let calls = std::fs::read_to_string(dir.path().join("bench.calls")).unwrap();
    assert_eq!(calls.lines().count(), 3, "before, between, after");
    let md = std::fs::read_to_string(prefix.with_extension("md")).unwrap();
    let header: Vec<&str> = md.lines().take(4).collect();
    assert!(
        header[2].starts_with(
            "yardstick examples/textbook.rs (the classic bitmask counter, one thread) at n = 16: "
        ),
        "{md}"
    );
    assert_eq!(
        header[3],
        "cache yardstick `nqueens bench --yardsticks` (a walk of a 1 MiB table, one thread): \
         3.25, 3.5, 3.75 ns a step (before, between, after; spread 15 %) ·",
        "{md}"
    );
    assert_eq!(
        text(&output.stdout).lines().nth(3),
        Some(header[3]),
        "printed"
    );
    let csv = std::fs::read_to_string(prefix.with_extension("csv")).unwrap();
    let records = csv_records(&csv);
    assert_eq!(records.len(), 3, "{csv}");
    let column = |name: &str| records[0].iter().position(|h| h == name).unwrap();
    let (cache, yardstick, kind) = (
        column("cache_ns_per_step"),
        column("yardstick_seconds"),
        column("kind"),
    );
    for (record, how) in records[1..].iter().zip(["count", "estimate"]) {
        assert_eq!(record.len(), records[0].len(), "{csv}");
        assert_eq!(record[kind], how, "{csv}");
        assert_eq!(record[cache], "3.5", "the median: {csv}");
        assert!(record[yardstick].parse::<f64>().is_ok(), "{csv}");
    }

    let dir = tempfile::tempdir().unwrap();
    let (output, prefix) = frontier_with_caches(dir.path(), bin, ["3.25", "oops", "3.75"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("frontier.sh: nqueens bench --yardsticks --json gave no cache_ns_per_step"),
        "{stderr}"
    );
    assert!(!prefix.with_extension("md").exists(), "no table");
}

/// Whether process `pid` runs: it exists and is not a zombie (one whose end its parent has not
/// yet collected).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z'))
    })
}

/// The processes of process group `group` that run (zombies aside): pid and command line.
fn group_members(group: u32) -> Vec<(u32, String)> {
    let mut members = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // After the command's name in parentheses: state, parent, process group.
        let Some((_, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let fields: Vec<&str> = rest.split(' ').collect();
        if fields[0] != "Z" && fields[2] == group.to_string() {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            members.push((pid, String::from_utf8_lossy(&cmdline).replace('\0', " ")));
        }
    }
    members
}

/// Waits until `done` holds, at most `within`; whether it did.
fn until(within: Duration, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while !done() {
        if started.elapsed() > within {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

/// Kills process group `group` (SIGKILL): what a failed test leaves is not left running.
fn kill_group(group: u32) {
    let _ = Command::new("bash")
        .args(["-c", &format!("kill -s KILL -- -{group} 2>/dev/null")])
        .status();
}

/// Whether the machine has what `memory-sensitivity.sh` needs (two cores, taskset); outside CI
/// a test without them says so and checks nothing, under CI=true it fails.
fn two_cores_and_taskset(test: &str) -> bool {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let taskset = Command::new("taskset").arg("--version").output().is_ok();
    if cores >= 2 && taskset {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test} needs two cores and taskset (util-linux): CI (CI=true) has them");
    }
    eprintln!("SKIPPED: scripts: {test} needs two cores and taskset: NOT tested");
    false
}

/// One way `memory-sensitivity.sh` ends before its end, for
/// `memory_sensitivity_sh_left_memory_stream_running_after_ctrl_c`: the signal (to the process
/// group for Ctrl-C, as a terminal sends it, else to the script alone), the pid file of the fake
/// that must run first (the stream settling, the script in its `sleep 2`; or the join beside
/// it), and the status the script ends with.
#[derive(Clone, Copy, Debug)]
enum End {
    CtrlC,
    Term,
    Hup,
    /// The join fails (exit 3) beside the stream: `set -e` ends the script.
    Failure,
}

impl End {
    fn signal(self) -> Option<(&'static str, i32, bool)> {
        match self {
            End::CtrlC => Some(("INT", 2, true)),
            End::Term => Some(("TERM", 15, false)),
            End::Hup => Some(("HUP", 1, false)),
            End::Failure => None,
        }
    }

    fn after(self) -> &'static str {
        if matches!(self, End::Term) {
            "join.pid"
        } else {
            "stream.pid"
        }
    }
}

/// Regression: `memory-sensitivity.sh` stopped by Ctrl-C or SIGTERM, or failing midway, left
/// its memory stream running (a core and 1 GiB, for a day): the stream, a background job in a
/// `$(...)`, ignored SIGINT and had no one to stop it. However the script ends, nothing it
/// started runs on (not the stream, the join or a sleep: its process group is empty), its
/// scratch folder is gone, and a signal ends it at once, by that signal. The examples are
/// fakes (NQUEENS_RELEASE) that write their pids: the join quick alone, and beside the stream
/// as long as it is let.
#[test]
fn memory_sensitivity_sh_left_memory_stream_running_after_ctrl_c() {
    if !two_cores_and_taskset("memory_sensitivity_sh_left_memory_stream_running_after_ctrl_c") {
        return;
    }
    let path = format!(
        "{}/scripts/memory-sensitivity.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    for end in [End::CtrlC, End::Term, End::Hup, End::Failure] {
        let dir = tempfile::tempdir().unwrap();
        let (d, file) = (dir.path().display(), |name: &str| dir.path().join(name));
        let release = file("release");
        fake(
            &release.join("examples/memory_stream"),
            &format!("echo $$ > {d}/stream.pid\nexec sleep 60"),
        );
        let beside = if matches!(end, End::Failure) {
            "exit 3"
        } else {
            "exec sleep 60"
        };
        let join =
            format!("[ -e {d}/stream.pid ] && {{ echo $$ > {d}/join.pid; {beside}; }}\necho alone");
        fake(&release.join("examples/join_partition"), &join);
        std::fs::create_dir(file("tmp")).unwrap();
        let mut command = Command::new("bash");
        command
            .args([&path, "-n", "20", "-p", "1", "-R", "1"])
            .env("NQUEENS_RELEASE", &release)
            .env("TMPDIR", file("tmp"))
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(file("stdout")).unwrap())
            .stderr(std::fs::File::create(file("stderr")).unwrap())
            .process_group(0);
        // The signals this test sends at their default action in the script, whatever this
        // test was started with: under `nohup` SIGHUP came ignored, bash cannot trap a signal
        // ignored when it starts, and the script ran on after the test's SIGHUP.
        // SAFETY: `signal` is async-signal-safe, and nothing else runs between fork and exec.
        unsafe {
            command.pre_exec(|| {
                for signal in [libc::SIGHUP, libc::SIGINT, libc::SIGTERM] {
                    libc::signal(signal, libc::SIG_DFL);
                }
                Ok(())
            });
        }
        let mut child: Child = command
            .spawn()
            .expect("bash cannot start: the script tests need bash");
        let script = child.id();
        let pid_in = |name: &str| -> Option<u32> {
            let pid = std::fs::read_to_string(file(name)).ok()?;
            pid.strip_suffix('\n')?.parse().ok()
        };
        let ready = until(Duration::from_secs(20), || pid_in(end.after()).is_some());
        if let (true, Some((signal, _, group))) = (ready, end.signal()) {
            let target = if group {
                format!("-{script}")
            } else {
                script.to_string()
            };
            let kill = format!("kill -s {signal} -- {target}");
            assert!(
                Command::new("bash")
                    .args(["-c", &kill])
                    .status()
                    .unwrap()
                    .success()
            );
        }
        let mut status = None;
        let ended = ready
            && until(Duration::from_secs(10), || {
                status = child.try_wait().unwrap();
                status.is_some()
            });
        let stream = pid_in("stream.pid").unwrap_or(0);
        let gone = until(Duration::from_secs(2), || {
            !running(stream) && group_members(script).is_empty()
        });
        let left = group_members(script);
        // Whatever survived is killed here, not left to the machine.
        kill_group(script);
        let log = std::fs::read_to_string(file("stderr")).unwrap();
        assert!(ready, "{end:?}: no {}: {log}", end.after());
        assert!(ended, "{end:?}: the script still ran 10 s after: {log}");
        let status = status.unwrap();
        match end.signal() {
            Some((_, number, _)) => assert_eq!(status.signal(), Some(number), "{end:?}: {log}"),
            None => assert_eq!(status.code(), Some(3), "{end:?}: {log}"),
        }
        assert!(
            gone,
            "{end:?}: still running after the script: {left:?} (stream {stream})"
        );
        let stdout = std::fs::read_to_string(file("stdout")).unwrap();
        assert!(
            stdout.contains("1 part a size, 1 round, alternated"),
            "{end:?}: {stdout}"
        );
        let scratch: Vec<PathBuf> = std::fs::read_dir(file("tmp"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(scratch.is_empty(), "{end:?}: left behind: {scratch:?}");
    }
}
