//! Faults around a run, through the binary: a standard error that cannot be written (a full
//! disk, a closed pipe, a terminal that hung up), signals once it has broken, a full disk at
//! the end of a count, and two outputs that are one file. Whatever happens to the files
//! around it, a finished count reaches stdout and the exit code is the documented one.

mod cli_support;

use cli_support::{Watched, bin, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a run may take to end once it is signalled: it stops at once, so this is only
/// there for a slow machine.
const STOP_WITHIN: Duration = Duration::from_secs(15);

/// A standard error that fails every write: the full device, or a pipe with no reader.
#[derive(Clone, Copy, Debug)]
enum BrokenStderr {
    Full,
    ClosedPipe,
}

impl BrokenStderr {
    const ALL: [BrokenStderr; 2] = [BrokenStderr::Full, BrokenStderr::ClosedPipe];

    fn stdio(self) -> Stdio {
        match self {
            BrokenStderr::Full => std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap()
                .into(),
            BrokenStderr::ClosedPipe => {
                let (reader, writer) = std::io::pipe().unwrap();
                drop(reader);
                writer.into()
            }
        }
    }
}

/// Runs `nqueens args` with a broken stderr; its exit code and stdout.
fn with_broken_stderr(stderr: BrokenStderr, args: &[&str], dir: &Path) -> (Option<i32>, String) {
    let output = Watched::spawn(
        Command::new(bin())
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr.stdio()),
    )
    .wait_with_output();
    (output.status.code(), text(&output.stdout))
}

/// Regression: every diagnostic write panicked when stderr failed (exit 101): `count 19
/// --progress always >result 2>/dev/full` counted, then lost the result; a note, an error
/// and a usage error lost their exit codes.
#[test]
fn a_broken_stderr_loses_no_result_and_no_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], i32, &str)] = &[
        // A result with progress lines, a note (the depth asked for is too deep), a
        // warning-free count and a table: each result whole on stdout.
        (&["count", "12", "--progress", "always"], 0, "14200\n"),
        (&["count", "10", "--split-depth", "8"], 0, "724\n"),
        (
            &["count", "13", "--engine", "search", "--unique"],
            0,
            "73712",
        ),
        // Errors: a size out of range, no solution, a missing file, a mistyped flag.
        (&["count", "33"], 2, ""),
        (&["find", "2"], 1, ""),
        (&["verify", "missing"], 2, ""),
        (&["count", "8", "--no-such-flag"], 2, ""),
    ];
    for stderr in BrokenStderr::ALL {
        for &(args, code, result) in cases {
            let (status, stdout) = with_broken_stderr(stderr, args, dir.path());
            assert_eq!(status, Some(code), "{stderr:?} {args:?}");
            assert!(
                stdout.starts_with(result),
                "{stderr:?} {args:?}: {stdout:?}"
            );
        }
    }
}

/// Whether the journal at `journal` holds a whole record yet.
fn has_a_record(journal: &Path) -> bool {
    std::fs::read_to_string(journal).is_ok_and(|text| text.lines().any(|l| l.starts_with("task ")))
}

/// Waits until `journal` holds a record (the run has counted something), or fails.
fn wait_for_a_record(journal: &Path, run: &mut Watched) {
    let started = Instant::now();
    while !has_a_record(journal) {
        assert!(
            run.try_wait().is_none(),
            "the run ended before its first record"
        );
        assert!(started.elapsed() < Duration::from_secs(120), "no record");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether another process holds `path`'s lock (a journal being written).
fn locked(path: &Path) -> bool {
    let file = std::fs::File::open(path).unwrap();
    matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock))
}

/// The journal's text is whole: every line ends, every record is one of the run's tasks.
fn assert_whole(journal: &Path) {
    let text = std::fs::read_to_string(journal).unwrap();
    assert!(text.ends_with('\n'), "a cut record: {text:?}");
    assert!(text.starts_with("nqueens-checkpoint"));
}

/// Sends `signal` to `run` and waits for it to end, at most [`STOP_WITHIN`]: its status.
fn stop_with(run: &mut Watched, signal: i32, what: &str) -> std::process::ExitStatus {
    // SAFETY: kill only sends a signal to our own child.
    assert_eq!(unsafe { libc::kill(run.id() as libc::pid_t, signal) }, 0);
    let started = Instant::now();
    loop {
        if let Some(status) = run.try_wait() {
            return status;
        }
        assert!(started.elapsed() < STOP_WITHIN, "{what}: still running");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Regression: the signal handler's thread died on its own message once stderr had broken,
/// so SIGHUP, SIGINT and SIGTERM no longer stopped the run, which held its journal's lock
/// (and both cores) to the end.
#[test]
fn signals_end_the_run_with_its_journal_kept_after_stderr_breaks() {
    let dir = tempfile::tempdir().unwrap();
    for (signal, name) in [
        (libc::SIGHUP, "HUP"),
        (libc::SIGINT, "INT"),
        (libc::SIGTERM, "TERM"),
    ] {
        for stderr in BrokenStderr::ALL {
            let journal = dir.path().join(format!("{name}-{stderr:?}.journal"));
            let mut run = Watched::spawn(
                Command::new(bin())
                    .args(["count", "19", "-j", "1", "--checkpoint"])
                    .arg(&journal)
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .stderr(stderr.stdio()),
            );
            wait_for_a_record(&journal, &mut run);
            let status = stop_with(&mut run, signal, &format!("SIG{name} {stderr:?}"));
            assert_eq!(status.code(), Some(130), "SIG{name} {stderr:?}: {status:?}");
            assert!(!locked(&journal), "SIG{name} {stderr:?}");
            assert_whole(&journal);
        }
    }
}

/// Regression: a run whose terminal hung up (`script` killed under it) went on counting,
/// deaf to signals, holding its journal's lock; "run the same command again" was refused.
#[test]
fn a_hung_up_terminal_ends_the_run_with_its_journal_kept() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("hangup.journal");
    let pid_file = dir.path().join("pid");
    // `script` gives the run a terminal of its own (a progress bar is drawn on it); killing
    // `script` closes the terminal, and the kernel hangs it up under the run.
    let inner = format!(
        "echo $$ > '{}'; exec '{}' count 19 -j 1 --checkpoint '{}'",
        pid_file.display(),
        bin().display(),
        journal.display()
    );
    let mut script = Watched::spawn(
        Command::new("script")
            .args(["-qfc", &inner, "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    );
    wait_for_a_record(&journal, &mut script);
    let pid: libc::pid_t = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    script.kill().unwrap();
    script.wait();
    let started = Instant::now();
    // SAFETY: signal 0 only asks whether the process exists.
    let alive = || unsafe { libc::kill(pid, 0) } == 0;
    while alive() && started.elapsed() < STOP_WITHIN {
        std::thread::sleep(Duration::from_millis(20));
    }
    let stopped = !alive();
    if !stopped {
        // SAFETY: the run started above, which the test must not leave behind.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    assert!(stopped, "the run went on after its terminal hung up");
    assert!(!locked(&journal));
    assert_whole(&journal);
}

/// `nqueens args` in `dir` with every file it writes limited to `bytes` bytes (a disk that
/// fills up, as the kernel's file-size limit; its signal ignored, so writes fail instead):
/// exit code, stdout, stderr.
fn with_full_disk(bytes: u64, args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    let output = cli_support::output(
        Command::new("bash")
            .arg("-c")
            .arg(format!(
                "ulimit -f {}; trap '' XFSZ; exec \"$0\" \"$@\"",
                bytes / 1024
            ))
            .arg(bin())
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped()),
    );
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

/// The names of the files in `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Regression: on a full disk, `count 17 --checkpoint small/j17` and `--subtotals small/sub`
/// counted everything, then printed only the error (the second without the file's name),
/// exit 1. The total is printed, the error names the file, exit 3.
#[test]
fn a_full_disk_at_the_end_keeps_the_count_and_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    // A journal whose header fits and whose records do not, a subtotals file too long.
    for (args, file) in [
        (&["count", "14", "--checkpoint", "j14"][..], "j14"),
        (&["count", "14", "--subtotals", "sub14"][..], "sub14"),
    ] {
        let (code, stdout, stderr) = with_full_disk(1024, args, dir.path());
        assert_eq!(code, Some(3), "{args:?}: {stderr}");
        assert_eq!(stdout, "365596\n", "{args:?}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(file),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    // The subtotals file the disk could not hold was never half-written: neither it nor its
    // temporary is there. The journal keeps its whole records (the torn last one is trimmed
    // when it is read again).
    assert_eq!(names(dir.path()), ["j14"]);
    let resumed = cli_support::stdout(&[
        "count",
        "14",
        "--checkpoint",
        dir.path().join("j14").to_str().unwrap(),
    ]);
    assert_eq!(text(&resumed), "365596\n");
    // A shard's result line too.
    let (code, stdout, stderr) = with_full_disk(
        1024,
        &["count", "14", "--shard", "1/2", "--subtotals", "shard-sub"],
        dir.path(),
    );
    assert_eq!(code, Some(3), "{stderr}");
    assert!(
        stdout.starts_with('{') && stdout.contains("\"units\""),
        "{stdout}"
    );
    assert!(stderr.contains("shard-sub"), "{stderr}");
}

/// Regression: `--checkpoint F --subtotals F` was accepted, and the journal was overwritten
/// by the subtotals at the end. Two outputs that are one file (by name, through a link, or as
/// the file stdout is redirected to) are refused before anything is counted.
#[test]
fn two_outputs_that_are_one_file_are_refused_at_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| -> PathBuf { dir.path().join(name) };
    std::fs::write(at("kept"), "keep me").unwrap();
    std::os::unix::fs::symlink(at("kept"), at("link")).unwrap();
    let run = |args: &[&str], stdout: Stdio| {
        let output = cli_support::output(
            Command::new(bin())
                .args(args)
                .current_dir(dir.path())
                .stdout(stdout),
        );
        (output.status.code(), text(&output.stderr))
    };
    for args in [
        &["count", "12", "--checkpoint", "same", "--subtotals", "same"][..],
        &[
            "count",
            "12",
            "--checkpoint",
            "same",
            "--subtotals",
            "./same",
        ],
        &["count", "12", "--checkpoint", "kept", "--subtotals", "link"],
    ] {
        let (code, stderr) = run(args, Stdio::piped());
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("same file"), "{args:?}: {stderr}");
    }
    // `count 12 --subtotals kept > kept`: the result and the subtotals in one file.
    for flag in ["--subtotals", "--checkpoint"] {
        let stdout = std::fs::OpenOptions::new()
            .append(true)
            .open(at("kept"))
            .unwrap();
        let (code, stderr) = run(&["count", "12", flag, "kept"], stdout.into());
        assert_eq!(code, Some(2), "{flag}: {stderr}");
        assert!(stderr.contains("standard output"), "{flag}: {stderr}");
    }
    assert_eq!(std::fs::read_to_string(at("kept")).unwrap(), "keep me");
    assert_eq!(names(dir.path()), ["kept", "link"]);
    // Nor by the name of its descriptor: `--subtotals /dev/stdout > f` put the subtotals and
    // the result in one file (Edges V, item 2), and is refused too, f left empty.
    let file = std::fs::File::create(at("both")).unwrap();
    let (code, stderr) = run(&["count", "8", "--subtotals", "/dev/stdout"], file.into());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("standard output"), "{stderr}");
    assert_eq!(std::fs::read_to_string(at("both")).unwrap(), "");
}

/// Regression: `nqueens serve 2>&1 | head -1`, then Ctrl-C: the line said on stopping
/// panicked on the closed pipe (exit 101). The server stops as it always does, exit 0. (The
/// signal is sent as soon as the address is read: it came before the server had set its
/// stop, once, and the process exited 130; the stop is now set before the address is
/// printed.)
#[test]
fn a_server_whose_reader_has_gone_stops_cleanly_on_ctrl_c() {
    let (reader, writer) = std::io::pipe().unwrap();
    let mut server = Watched::spawn(
        Command::new(bin())
            .arg("serve")
            .stdin(Stdio::null())
            .stdout(writer.try_clone().unwrap())
            .stderr(writer),
    );
    // `head -1`: the address, then the reader is gone.
    let mut first = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(reader), &mut first).unwrap();
    assert!(first.starts_with("http://127.0.0.1:"), "{first}");
    let status = stop_with(&mut server, libc::SIGINT, "SIGINT");
    assert_eq!(status.code(), Some(0), "{status:?}");
}

/// A pipe whose reader is kept open but never reads: a stderr whose writes block once its
/// buffer (made as small as the kernel allows, a page) is full.
fn unread_pipe() -> (std::io::PipeReader, Stdio) {
    use std::os::fd::AsRawFd;
    let (reader, writer) = std::io::pipe().unwrap();
    // SAFETY: F_SETPIPE_SZ on a pipe this process owns; a failure only leaves it larger.
    unsafe { libc::fcntl(writer.as_raw_fd(), libc::F_SETPIPE_SZ, 4096) };
    (reader, writer.into())
}

/// Regression: a stderr that blocks (a pipe nobody reads, a terminal paused with Ctrl-S)
/// held the progress line's writer for good: the count never printed its result, and SIGTERM
/// waited behind it with the journal locked, so the run could not be stopped either.
#[test]
fn a_stderr_that_blocks_keeps_the_result_and_the_signals() {
    let dir = tempfile::tempdir().unwrap();
    // A count whose progress lines fill the pipe long before it ends: its result comes.
    let (_unread, stderr) = unread_pipe();
    let output = Watched::spawn(
        Command::new(bin())
            .args(["count", "16", "--engine", "search", "-j", "1"])
            .args(["--progress", "always"])
            .env("NQUEENS_PROGRESS_INTERVAL_MS", "5")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr),
    )
    .wait_with_output();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout), "14772512\n");
    // A run stopped while its stderr is stuck: ended, its journal whole and unlocked.
    let journal = dir.path().join("blocked.journal");
    let (_unread, stderr) = unread_pipe();
    let mut run = Watched::spawn(
        Command::new(bin())
            .args([
                "count",
                "19",
                "-j",
                "1",
                "--progress",
                "always",
                "--checkpoint",
            ])
            .arg(&journal)
            .env("NQUEENS_PROGRESS_INTERVAL_MS", "5")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr),
    );
    wait_for_a_record(&journal, &mut run);
    // Long enough for a page of progress lines: stderr is stuck by now.
    std::thread::sleep(Duration::from_millis(1500));
    let status = stop_with(&mut run, libc::SIGTERM, "SIGTERM");
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert!(!locked(&journal));
    assert_whole(&journal);
}

/// Regression: Ctrl-C during `--double-check`'s second pass printed a bare "interrupted", as
/// if nothing were kept: the journal had been let go when the first pass ended. It is held
/// to the end now, and the message says that it is whole and that the same command resumes.
#[test]
fn ctrl_c_in_the_double_check_said_nothing_of_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("checked.journal");
    let args = ["count", "17", "--engine", "search", "--checkpoint"];
    cli_support::nqueens()
        .args(args)
        .arg(&journal)
        .assert()
        .success();
    // Every task is in the journal: the first pass reads them back in milliseconds, and the
    // second (the whole board again with the mirror split, on one thread) takes ten seconds
    // here: a second in, the run is in the second pass on any machine this suite runs on.
    let mut run = Watched::spawn(
        Command::new(bin())
            .args(args)
            .arg(&journal)
            .args(["--double-check", "-j", "1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    std::thread::sleep(Duration::from_secs(1));
    assert!(run.try_wait().is_none(), "the double check ended too soon");
    assert!(
        locked(&journal),
        "the journal was let go before the double check"
    );
    let status = stop_with(&mut run, libc::SIGINT, "SIGINT");
    let out = run.wait_with_output();
    let stderr = text(&out.stderr);
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("finished tasks are kept in"), "{stderr}");
    assert!(
        stderr.contains("run the same command again to resume"),
        "{stderr}"
    );
    assert!(!locked(&journal));
    assert_whole(&journal);
}

/// The exit-code table said 130 for a count, `solve` or `verify` interrupted, and left out
/// `audit` and `selftest`, which end the same way: a stress test stopped by Ctrl-C exits 130,
/// as the table now says of every command but `serve`.
#[test]
fn an_interrupted_selftest_exits_130_as_the_table_says() {
    let mut run = Watched::spawn(
        Command::new(bin())
            .args(["selftest", "--for", "1m", "-j", "1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    std::thread::sleep(Duration::from_millis(500));
    let status = stop_with(&mut run, libc::SIGINT, "SIGINT");
    assert_eq!(status.code(), Some(130));
    let table = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let row = table.lines().find(|l| l.starts_with("| 130 |")).unwrap();
    assert!(
        row.contains("any command but `serve`") && row.contains("`selftest`"),
        "{row}"
    );
}
