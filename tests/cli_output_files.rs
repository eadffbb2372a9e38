//! Output files at the edges, each test named after the defect it pins: files that are links,
//! devices, FIFOs or full disks, file modes and owners, `/dev/stdout` and its kin at the
//! shell's offset, the temporary of a killed run or of one still writing, and `--help` to a
//! full disk.

mod cli_support;

use cli_support::{Watched, nqueens, stdout, text};
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Stdio;

/// Whether the tests run as root, which the halves of tests that make device nodes (`mknod`)
/// or give files away (`chown`) need ([`available_or_skip`]).
fn root_or_skip(half: &str) -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    available_or_skip(root, half, "root", "run the tests as root")
}

/// Whether `half` of a test may run, which needs `what`: where it is missing, the half is
/// skipped with a `SKIPPED` line printed past the harness's capture, so that a newcomer's
/// first `cargo test` passes and says what it did not test (`remedy` says how to test it);
/// under CI=true (as `.ci/run` sets, as root and with every tool installed) it fails
/// instead, so no skip is silent in CI.
fn available_or_skip(available: bool, half: &str, what: &str, remedy: &str) -> bool {
    if available {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{half} needs {what}: CI (CI=true) has it");
    }
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED: cli_output_files: {half} needs {what}: it was NOT tested ({remedy})"
    );
    false
}

/// Makes a character device node like one of /dev's (`mknod`, root only): a private copy to
/// write to, so that a regression replaces the copy and not the system's device. `None` where
/// the tests do not run as root, outside CI ([`root_or_skip`]).
fn device(dir: &Path, name: &str, major: u32, minor: u32) -> Option<std::path::PathBuf> {
    if !root_or_skip(&format!("the device half ({name})")) {
        return None;
    }
    let path = dir.join(name);
    let made = cli_support::status(std::process::Command::new("mknod").arg(&path).args([
        "c",
        &major.to_string(),
        &minor.to_string(),
    ]));
    assert!(made.success(), "mknod {} failed as root", path.display());
    Some(path)
}

#[test]
fn solve_output_to_dev_full_keeps_the_device() {
    let dir = tempfile::tempdir().unwrap();
    // `> /dev/full` on standard output: one line, exit 1.
    let out = cli_support::output(
        std::process::Command::new(cli_support::bin())
            .args(["solve", "8"])
            .stdout(std::fs::File::create("/dev/full").unwrap()),
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    let Some(full) = device(dir.path(), "full", 1, 7) else {
        return;
    };
    let out = nqueens()
        .args(["solve", "8", "-o", full.to_str().unwrap()])
        .assert()
        .code(1);
    let stderr = text(&out.get_output().stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    let meta = std::fs::symlink_metadata(&full).unwrap();
    assert!(meta.file_type().is_char_device(), "{meta:?}");
    // Nothing else was left beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn solve_output_to_dev_null_keeps_the_device() {
    let dir = tempfile::tempdir().unwrap();
    let Some(null) = device(dir.path(), "null", 1, 3) else {
        return;
    };
    for args in [
        &["solve", "8", "-o"][..],
        &["find", "100", "-o"],
        &["count", "10", "--subtotals"],
    ] {
        nqueens()
            .args(args)
            .arg(&null)
            .assert()
            .success()
            .stderr("");
        let meta = std::fs::symlink_metadata(&null).unwrap();
        assert!(meta.file_type().is_char_device(), "{args:?}: {meta:?}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn solve_output_to_a_fifo_writes_it_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = cli_support::status(std::process::Command::new("mkfifo").arg(&fifo));
    assert!(made.success());
    let child = Watched::spawn(
        std::process::Command::new(cli_support::bin())
            .args(["solve", "6", "-o", fifo.to_str().unwrap()])
            .stderr(Stdio::piped()),
    );
    // Opening the FIFO to read lets the writer's open go on; it is read to its end.
    let mut read = String::new();
    std::fs::File::open(&fifo)
        .unwrap()
        .read_to_string(&mut read)
        .unwrap();
    let output = child.wait_with_output();
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(read.as_bytes(), stdout(&["solve", "6"]));
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
}

#[test]
fn solve_output_through_a_symlink_writes_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let target = sub.join("real.txt");
    std::fs::write(&target, "old\n").unwrap();
    // A chain: link -> sub/middle -> real.txt (relative to each link's own directory).
    std::os::unix::fs::symlink("real.txt", sub.join("middle")).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink("sub/middle", &link).unwrap();
    nqueens()
        .args(["solve", "6", "-o", link.to_str().unwrap()])
        .assert()
        .success();
    assert_eq!(std::fs::read(&target).unwrap(), stdout(&["solve", "6"]));
    for kept in [&link, &sub.join("middle")] {
        assert!(
            std::fs::symlink_metadata(kept)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
    // A link to a file not there yet: the file is created where the link points.
    let dangling = dir.path().join("dangling");
    std::os::unix::fs::symlink("sub/new.txt", &dangling).unwrap();
    nqueens()
        .args(["count", "10", "--subtotals", dangling.to_str().unwrap()])
        .assert()
        .success();
    assert!(
        text(&std::fs::read(sub.join("new.txt")).unwrap()).starts_with("# nqueens"),
        "the subtotals went elsewhere"
    );
    // Nothing but the named files: no temporary file left behind.
    assert_eq!(std::fs::read_dir(&sub).unwrap().count(), 3);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
}

/// The mode of a file `solve -o` creates under `umask`.
fn mode_under_umask(umask: &str, path: &Path) -> u32 {
    let bin = cli_support::bin();
    let status = cli_support::status(
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask} && exec \"$0\" solve 6 -o \"$1\""))
            .arg(bin)
            .arg(path),
    );
    assert!(status.success());
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[test]
fn solve_output_files_follow_the_umask_not_0600() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(mode_under_umask("022", &dir.path().join("a")), 0o644);
    assert_eq!(mode_under_umask("002", &dir.path().join("b")), 0o664);
    assert_eq!(mode_under_umask("077", &dir.path().join("c")), 0o600);
}

#[test]
fn solve_output_over_an_existing_file_keeps_its_mode_and_owner() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.txt");
    std::fs::write(&path, "old\n").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let root = root_or_skip("the owner half (chown)");
    if root {
        // Root may give a file away: a file of another user must stay that user's.
        std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
    }
    // Under a umask that would give a new file 0644: the old mode wins.
    mode_under_umask("022", &path);
    let meta = std::fs::metadata(&path).unwrap();
    assert_eq!(meta.permissions().mode() & 0o7777, 0o640);
    assert_eq!(std::fs::read(&path).unwrap(), stdout(&["solve", "6"]));
    if root {
        assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
    }
}

/// Runs `script` with `sh -c`, the binary as `$0`; its standard output and error go where
/// the script redirects them. The script must succeed.
fn shell(script: &str, dir: &Path) {
    let status = cli_support::status(
        std::process::Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg(cli_support::bin())
            .current_dir(dir),
    );
    assert!(status.success(), "{script}");
}

/// Regression: `(echo before; nqueens solve 8 -o /dev/stdout --limit 2; echo after) > f`
/// lost nqueens' lines: it reopened the file, so the shell's "after" went over them. A
/// descriptor of the process, however it is named, is written where it stands.
#[test]
fn output_to_dev_stdout_appends_at_the_shells_offset() {
    let dir = tempfile::tempdir().unwrap();
    let two = text(&stdout(&["solve", "8", "--limit", "2"]));
    let six = text(&stdout(&["find", "6"]));
    for (script, file) in [
        (
            r#"(echo before; "$0" solve 8 -o /dev/stdout --limit 2; echo after) > f"#,
            "f",
        ),
        (
            r#"(echo before >&2; "$0" solve 8 -o /dev/stderr --limit 2; echo after >&2) 2> g"#,
            "g",
        ),
        (
            r#"exec 3> h; echo before >&3; "$0" solve 8 -o /proc/self/fd/3 --limit 2; echo after >&3"#,
            "h",
        ),
        (
            r#"exec 3> i; echo before >&3; "$0" solve 8 -o /dev/fd/3 --limit 2; echo after >&3"#,
            "i",
        ),
    ] {
        shell(script, dir.path());
        let written = text(&std::fs::read(dir.path().join(file)).unwrap());
        assert_eq!(written, format!("before\n{two}after\n"), "{script}");
    }
    // `>>` too: at the end, after what was there.
    std::fs::write(dir.path().join("a"), "kept\n").unwrap();
    shell(
        r#""$0" find 6 -o /dev/stdout >> a; echo after >> a"#,
        dir.path(),
    );
    let written = text(&std::fs::read(dir.path().join("a")).unwrap());
    assert_eq!(written, format!("kept\n{six}after\n"));
    // Only the files the scripts made: no temporary file, nothing renamed over a link.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 5);
}

/// Regression: SIGKILL during `solve 16 -o out.txt` left a hidden temporary beside it for
/// ever (135 MB). The temporary has a name the next run knows (`.out.txt.nqueens-tmp`) and a
/// lock while its run lives: the next run writing out.txt finds it unlocked and removes it.
#[test]
fn a_killed_runs_temporary_is_removed_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let temporary = dir.path().join(".out.txt.nqueens-tmp");
    let mut run = Watched::nqueens(&["solve", "16", "-j", "1", "-o", out.to_str().unwrap()]);
    let started = std::time::Instant::now();
    while std::fs::metadata(&temporary).map_or(0, |m| m.len()) < 1 << 20 {
        assert!(
            run.try_wait().is_none(),
            "the run ended before it was killed"
        );
        assert!(started.elapsed().as_secs() < 60, "no temporary file");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    run.child.kill().unwrap();
    assert!(run.wait().code().is_none());
    assert!(temporary.exists(), "the kill left nothing to clean");
    nqueens()
        .args(["solve", "8", "-o", out.to_str().unwrap()])
        .assert()
        .success()
        .stderr("");
    assert_eq!(std::fs::read(&out).unwrap(), stdout(&["solve", "8"]));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// A file that another nqueens run is writing (its temporary is locked) is refused at once
/// with one line and exit 2, and what that run writes is left alone. The lock is held here
/// by the test, as a run holds it.
#[test]
fn an_output_file_another_run_is_writing_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let temporary = dir.path().join(".out.txt.nqueens-tmp");
    let held = std::fs::File::create(&temporary).unwrap();
    held.try_lock().unwrap();
    for args in [
        &["solve", "8", "-o"][..],
        &["find", "8", "-o"],
        &["count", "8", "--subtotals"],
    ] {
        let run = nqueens().args(args).arg(&out).assert().code(2).stdout("");
        let stderr = text(&run.get_output().stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.contains("another nqueens run is writing it"),
            "{stderr}"
        );
        assert!(temporary.exists() && !out.exists(), "{args:?}");
    }
    drop(held);
    // Unlocked, it is a dead run's: removed, and the file written.
    nqueens()
        .args(["solve", "8", "-o", out.to_str().unwrap()])
        .assert()
        .success();
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// Regression: `nqueens --help > /dev/full` and `--version > /dev/full` exited 0, where
/// every other failed write exits 1. A closed pipe stays a quiet success.
#[test]
fn help_and_version_to_a_full_disk_exit_1() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["count", "--help"],
        &["help", "verify"],
    ] {
        let out = cli_support::output(
            std::process::Command::new(cli_support::bin())
                .args(args)
                .stdin(Stdio::null())
                .stdout(std::fs::File::create("/dev/full").unwrap()),
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("No space left on device"), "{stderr}");
        let (code, stderr) = cli_support::into_closed_pipe(args);
        assert_eq!((code, stderr.as_str()), (Some(0), ""), "{args:?}");
    }
}

/// Whether `strace` runs here ([`available_or_skip`]; `.ci/run` installs it).
fn strace_or_skip(test: &str) -> bool {
    let runs = std::process::Command::new("strace")
        .args(["-o", "/dev/null", "true"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    available_or_skip(runs, test, "strace", "apt-get install strace")
}

/// The per-thread files `strace -ff -o DIR/PREFIX` wrote (`PREFIX<pid>`), each one whole.
fn traces_of(dir: &std::path::Path, prefix: &str) -> String {
    let mut traces = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name().to_string_lossy().starts_with(prefix) {
            traces += &std::fs::read_to_string(entry.path()).unwrap();
        }
    }
    traces
}

/// Regression (edges VI): `--checkpoint J`, a bare name, never synced the directory that
/// holds the new journal (`--checkpoint /abs/J` did), and the renames of `-o` and
/// `--subtotals` outputs synced no directory at all: a power loss could lose the new names.
/// Each run is traced: the current directory is opened and synced after the file is made.
#[test]
fn new_files_by_a_bare_name_sync_their_directory() {
    if !strace_or_skip("new_files_by_a_bare_name_sync_their_directory") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (i, args) in [
        &["count", "8", "--checkpoint", "J"][..],
        &["solve", "8", "-o", "out"],
        &["count", "8", "--subtotals", "subtotals"],
        &["find", "9", "-o", "found"],
    ]
    .into_iter()
    .enumerate()
    {
        let log = dir.path().join(format!("trace{i}"));
        // `-ff`: one file a thread, so no call is split into "unfinished" and "resumed"
        // halves by another thread's line (seen in CI with `-f` and one shared file).
        let out = cli_support::output(
            std::process::Command::new("strace")
                .args(["-ff", "-e", "trace=openat,fsync", "-o"])
                .arg(&log)
                .arg(cli_support::bin())
                .args(args)
                .current_dir(dir.path())
                .stdout(Stdio::null()),
        );
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let trace = traces_of(dir.path(), &format!("trace{i}."));
        // `openat(AT_FDCWD, ".", O_RDONLY|O_CLOEXEC) = 5`, then `fsync(5) = 0`.
        let synced = trace.lines().filter_map(|line| {
            let (_, opened) = line.split_once("openat(AT_FDCWD, \".\", ")?;
            opened.rsplit_once("= ").map(|(_, fd)| fd.trim().to_owned())
        });
        let synced: Vec<String> = synced.collect();
        // strace pads its calls to a column before their results.
        let fsynced = |fd: &String| {
            trace.lines().any(|line| {
                line.split_once(&format!("fsync({fd})"))
                    .is_some_and(|(_, result)| result.trim() == "= 0")
            })
        };
        assert!(
            synced.iter().any(fsynced),
            "{args:?}: the current directory was not synced:\n{trace}"
        );
    }
}
