//! The edges of the command line, each test named after the defect it pins: output files that
//! are links, devices, FIFOs or full disks, file modes, endless and binary input to `verify`,
//! progress in a log file, the interrupt message, shell completions and the manual page.

mod cli_support;

use cli_support::{Watched, nqueens, stdout, text};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Stdio;

/// Whether the tests run as root, which the halves of tests that make device nodes (`mknod`)
/// or give files away (`chown`) need. Not as root, such a half is skipped with a `SKIPPED`
/// line printed past the harness's capture, so that a newcomer's first `cargo test` passes
/// and says what it did not test; under CI=true (as `.ci/run` sets, running as root) it
/// fails instead, so no skip is silent in CI.
fn root_or_skip(half: &str) -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{half} needs root: CI (CI=true) runs the tests as root");
    }
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED: cli_edges: {half} needs root: it was NOT tested (run the tests as root)"
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

#[test]
fn verify_of_dev_zero_ends_at_once_with_an_error() {
    let out = nqueens().args(["verify", "/dev/zero"]).assert().code(2);
    let stderr = text(&out.get_output().stderr);
    assert_eq!(
        stderr,
        "error: input: binary data (not a solution listing in any format)\n"
    );
}

#[test]
fn verify_of_an_endless_line_is_refused_with_its_line_number() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.txt");
    // A one-queen board (detected as perm), then a line of digits without end: in perm a
    // word longer than any column number, refused at once.
    let mut input = b"0\n".to_vec();
    input.resize(input.len() + (1 << 20), b'1');
    std::fs::write(&path, &input).unwrap();
    let out = nqueens()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(2);
    let stderr = text(&out.get_output().stderr);
    assert_eq!(
        stderr,
        format!(
            "error: perm input, line 2: a word longer than {} bytes: longer than any column \
             number\n",
            nqueens::parse::MAX_WORD
        )
    );
    // The same text with -f flat is bounded by flat's largest board, and says so.
    let mut input = b"0\n".to_vec();
    let limit = nqueens::parse::line_limit(nqueens::format::Format::Flat);
    input.resize(input.len() + limit + 10, b'1');
    std::fs::write(&path, &input).unwrap();
    let out = nqueens()
        .args(["verify", "-f", "flat", path.to_str().unwrap()])
        .assert()
        .code(2);
    let stderr = text(&out.get_output().stderr);
    assert!(
        stderr.contains("line 2: a line longer than") && stderr.contains("n <= 2000"),
        "{stderr}"
    );
}

/// Regression: `verify` refused `find`'s own output past n = 1,000,000 ("a line longer than
/// 14000064 bytes"). What `find` writes, `verify` reads, number by number, in memory that
/// grows with the board (5 bits a row past the first 65,536), not with its text: n =
/// 20,000,000 in perm and json, piped from `find`, stays under 40 MiB where holding the line
/// and checking it as a list took over a gigabyte.
#[test]
fn verify_reads_finds_output_past_a_million_rows() {
    for format in ["perm", "json"] {
        let mut find = Watched::spawn(
            std::process::Command::new(cli_support::bin())
                .args(["find", "20000000", "-f", format])
                .stdout(Stdio::piped()),
        );
        let pipe = find.stdout.take().unwrap();
        let verify = Watched::spawn(
            std::process::Command::new(cli_support::bin())
                .arg("verify")
                .stdin(pipe)
                .stdout(Stdio::piped()),
        )
        .measured();
        let mut report = String::new();
        let mut verify = verify;
        verify
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut report)
            .unwrap();
        let (status, peak) = verify.wait_with_peak();
        assert!(find.wait().success());
        assert!(status.success(), "{format}: {status:?} {report}");
        assert_eq!(
            report,
            format!("1 placement of n = 20000000 ({format} format): 1 valid, 0 invalid\n")
        );
        assert!(peak < 40 << 20, "{format}: peak {} MiB", peak >> 20);
    }
}

/// Regression: a UTF-8 byte order mark at the start was refused; an SVG cut off before
/// `</svg>` was accepted; empty input said "0 placements ... 0 valid" and nothing else.
/// Now the mark is skipped, the cut SVG refused (exit 2), and empty input said on stderr;
/// `--complete N` of it holds only for n = 2 and 3, which have no solution.
#[test]
fn verify_takes_a_byte_order_mark_refuses_a_cut_svg_and_names_empty_input() {
    nqueens()
        .arg("verify")
        .write_stdin(&b"\xef\xbb\xbf1 3 0 2\n"[..])
        .assert()
        .success()
        .stdout("1 placement of n = 4 (perm format): 1 valid, 0 invalid\n");
    let svg = text(&stdout(&["solve", "6", "-f", "svg"]));
    let cut = &svg[..svg.rfind("</svg>").unwrap()];
    let out = nqueens().arg("verify").write_stdin(cut).assert().code(2);
    let stderr = text(&out.get_output().stderr);
    assert!(
        stderr.contains("ends before its closing </svg>"),
        "{stderr}"
    );
    let note = "note: the input holds no placement: nothing was read to check\n";
    nqueens()
        .arg("verify")
        .write_stdin("")
        .assert()
        .success()
        .stdout("0 placements (perm format): 0 valid, 0 invalid\n")
        .stderr(note);
    for n in ["2", "3"] {
        nqueens()
            .args(["verify", "--complete", n])
            .write_stdin("\n")
            .assert()
            .success()
            .stdout(format!(
                "0 placements of n = {n} (perm format): 0 valid, 0 invalid\n\
                 complete: n = {n} has no solution, and none was given\n"
            ))
            .stderr(note);
    }
    nqueens()
        .args(["verify", "--complete", "8"])
        .write_stdin("")
        .assert()
        .code(1)
        .stderr(note);
}

#[test]
fn verify_of_missing_directory_or_binary_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let cases: [(&[&str], &[u8], &str); 4] = [
        (&[missing.to_str().unwrap()], b"", "No such file"),
        (&[dir.path().to_str().unwrap()], b"", "is a directory"),
        (&[], b"1 3 0 2\n\xff\xfe\n", "line 2: not UTF-8 text"),
        (&[], b"1 3 0 2\n2 0\x003 1\n", "line 2: binary data"),
    ];
    for (args, input, expected) in cases {
        let out = nqueens()
            .arg("verify")
            .args(args)
            .write_stdin(input)
            .assert()
            .code(2);
        let stderr = text(&out.get_output().stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn verify_says_1_placement_not_1_placements() {
    nqueens()
        .args(["verify", "--complete", "1"])
        .write_stdin("0\n")
        .assert()
        .success()
        .stdout(
            "1 placement of n = 1 (perm format): 1 valid, 0 invalid\n\
             complete: the one solution of n = 1, once\n",
        );
    nqueens()
        .arg("verify")
        .write_stdin("1 3 0 2\n0\n")
        .assert()
        .code(1)
        .stdout(
            "line 2: 1 queen, but the boards have 4 rows\n\
             2 placements of n = 4 (perm format): 1 valid, 1 invalid\n",
        );
    nqueens()
        .args(["verify", "--complete", "4"])
        .write_stdin("1 3 0 2\n")
        .assert()
        .code(1)
        .stdout(
            "1 placement of n = 4 (perm format): 1 valid, 0 invalid\n\
             incomplete: 1 of the 2 solutions of n = 4, 1 missing, 0 duplicated, 0 invalid\n",
        );
}

/// Peak resident memory of process `pid` (Linux), in bytes.
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib << 10
}

/// Regression: `verify -f leetcode` read the whole document (one JSON array for the whole
/// set) into memory, 4.5 GB for `solve 16 -f leetcode`. 100 MB of it, checked while the
/// input is still open, must leave the process far below that.
#[test]
fn verify_reads_a_leetcode_document_in_bounded_memory() {
    let set = text(&stdout(&["solve", "12", "-f", "leetcode"]));
    let boards = set.trim_end().strip_prefix('[').unwrap();
    let boards = boards.strip_suffix(']').unwrap();
    let mut child = Watched::spawn(
        std::process::Command::new(cli_support::bin())
            .arg("verify")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped()),
    );
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"[").unwrap();
    let mut written = 0;
    let mut copies = 0;
    while written < 100 << 20 {
        if copies > 0 {
            stdin.write_all(b",").unwrap();
        }
        stdin.write_all(boards.as_bytes()).unwrap();
        written += boards.len();
        copies += 1;
    }
    // Everything written so far has passed through the pipe, which holds 64 KiB: the reader
    // has read all but that much of it.
    let peak = peak_memory(pid);
    stdin.write_all(b"]\n").unwrap();
    drop(stdin);
    let output = child.wait_with_output();
    assert!(output.status.success());
    let report = text(&output.stdout);
    assert_eq!(
        report,
        format!(
            "{} placements of n = 12 (leetcode format): {0} valid, 0 invalid\n",
            14_200 * copies
        )
    );
    assert!(peak < 50 << 20, "peak {} MiB", peak >> 20);
}

#[test]
fn verify_output_to_a_closed_pipe_is_quiet() {
    // Enough invalid lines that the report outgrows the pipe after the reader has gone.
    let input = "1 1 1 1\n".repeat(200_000);
    let mut child = Watched::spawn(
        std::process::Command::new(cli_support::bin())
            .arg("verify")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // The writer may be gone before all is written: that is the point.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let output = child.wait_with_output();
    assert_eq!(text(&output.stderr), "");
    assert!(output.status.success(), "{:?}", output.status);
}

#[test]
fn progress_always_without_a_terminal_writes_plain_lines() {
    let out = nqueens()
        .args([
            "count",
            "15",
            "-j",
            "1",
            "--engine",
            "dfs",
            "--progress",
            "always",
        ])
        .env("NQUEENS_PROGRESS_INTERVAL_MS", "5")
        .assert()
        .success()
        .stdout("2279184\n");
    let log = text(&out.get_output().stderr);
    assert!(!log.contains('\x1b'), "cursor codes in a log: {log:?}");
    let lines: Vec<&str> = log.lines().collect();
    // Lines at the interval while it runs (one at least: the count takes far longer than
    // 5 ms), then the last one.
    assert!(lines.len() >= 2, "{log}");
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("n = 15: 100% (") && last.contains(" tasks), elapsed "),
        "{last}"
    );
    let (done, total) = last
        .split_once('(')
        .unwrap()
        .1
        .split_once(" tasks")
        .unwrap()
        .0
        .split_once('/')
        .unwrap();
    assert_eq!(done, total);
    for line in &lines[..lines.len() - 1] {
        assert!(line.starts_with("n = 15: "), "{line}");
        assert!(line.contains("elapsed "), "{line}");
    }
    // Without `always`, and without a terminal, nothing.
    nqueens()
        .args(["count", "15", "-j", "1", "--engine", "dfs"])
        .env("NQUEENS_PROGRESS_INTERVAL_MS", "5")
        .assert()
        .success()
        .stderr("");
}

#[test]
fn interrupt_message_has_no_leading_empty_line() {
    let mut child = Watched::spawn(
        std::process::Command::new(cli_support::bin())
            .args(["count", "20", "-j", "1", "--progress", "always"])
            .env("NQUEENS_PROGRESS_INTERVAL_MS", "5")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    // The first progress line comes after the handler is installed: the signal is caught.
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    assert!(first.starts_with("n = 20: "), "{first}");
    let killed = cli_support::status(
        std::process::Command::new("kill").args(["-INT", &child.id().to_string()]),
    );
    assert!(killed.success());
    let status = child.wait();
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(
        !rest.contains("\n\n") && !rest.starts_with('\n'),
        "{rest:?}"
    );
    assert_eq!(rest.lines().last(), Some("interrupted"), "{rest:?}");
}

#[test]
fn completions_are_printed_for_every_shell() {
    let bash = text(&stdout(&["completions", "bash"]));
    assert!(bash.contains("complete -F _nqueens"), "{bash}");
    for word in ["count", "solve", "find", "verify", "merge", "--checkpoint"] {
        assert!(bash.contains(word), "{word} missing from the bash script");
    }
    for (shell, mark) in [
        ("zsh", "#compdef nqueens"),
        ("fish", "complete -c nqueens"),
        ("elvish", "edit:completion:arg-completer[nqueens]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let script = text(&stdout(&["completions", shell]));
        assert!(script.contains(mark), "{shell}: {script}");
        assert!(script.contains("verify"), "{shell}");
    }
    let out = nqueens().args(["completions", "tcsh"]).assert().code(2);
    assert!(text(&out.get_output().stderr).contains("possible values"));
}

#[test]
fn man_page_is_roff_and_names_every_subcommand() {
    let page = text(&stdout(&["man"]));
    assert!(page.starts_with(".TH nqueens 1 "), "{page}");
    assert_eq!(page.matches(".ds Aq").count(), 2, "{page}");
    for sub in [
        "count",
        "solve",
        "find",
        "verify",
        "merge",
        "completions",
        "man",
    ] {
        assert!(
            page.contains(&format!(".SH \"NQUEENS {}\"", sub.to_uppercase())),
            "no section for {sub}"
        );
    }
    // Regression: the page named pages of their own for the subcommands (`nqueens-count(1)`),
    // which are not installed; it names their sections of this page.
    assert!(!page.contains("(1)"), "{page}");
    assert!(
        page.contains("\\fBnqueens count\\fR (its section below)"),
        "{page}"
    );
    // Every option of every subcommand is there, --checkpoint among them.
    assert!(page.contains("\\-\\-checkpoint"), "{page}");
    assert!(page.contains(".SS EXAMPLES"), "{page}");
}

#[test]
fn help_shows_examples_for_count_solve_and_verify() {
    for sub in ["count", "solve", "verify"] {
        let help = text(&stdout(&[sub, "--help"]));
        let examples = help.split_once("Examples:\n").map(|(_, e)| e);
        let examples = examples.unwrap_or_else(|| panic!("{sub}: {help}"));
        assert!(
            examples
                .lines()
                .take_while(|l| !l.is_empty())
                .all(|l| l.trim_start().starts_with("nqueens ") || l.contains("| nqueens")),
            "{sub}: {examples}"
        );
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
