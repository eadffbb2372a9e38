//! One file by any name: no output of one run lands on a file another run holds (a journal in
//! use, an output being written), whatever name, link or hard link reaches it, and one run's
//! outputs are distinct files even before they exist (`nqueens::claim`).

mod cli_support;

use cli_support::{Watched, nqueens, text};
use std::fs::File;
use std::path::Path;
use std::process::Stdio;

const Q16: &str = "14772512";

/// A count that keeps its journal `journal` locked for some seconds, started and waited for
/// until its header is written.
fn journal_in_use(journal: &Path) -> Watched {
    let run = Watched::nqueens(&[
        "count",
        "16",
        "--engine",
        "search",
        "--symmetry",
        "mirror",
        "-j",
        "1",
        "--checkpoint",
        journal.to_str().unwrap(),
    ]);
    wait_until(|| std::fs::metadata(journal).is_ok_and(|m| m.len() > 0));
    run
}

/// The journal of [`journal_in_use`]'s run, once it has ended, resumes to the known count.
fn assert_resumes_whole(journal: &Path) {
    nqueens()
        .args(["count", "16", "--engine", "search", "--symmetry", "mirror"])
        .arg("--checkpoint")
        .arg(journal)
        .assert()
        .success()
        .stdout(format!("{Q16}\n"));
}

fn wait_until(ready: impl Fn() -> bool) {
    let started = std::time::Instant::now();
    while !ready() {
        assert!(started.elapsed().as_secs() < 60, "never ready");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// Runs `args` and `path`, which must be refused at once for another run's lock: exit 2, one
/// line naming the file, nothing on stdout.
fn refused(args: &[&str], path: &Path, why: &str) {
    let out = nqueens().args(args).arg(path).assert().code(2).stdout("");
    let stderr = text(&out.get_output().stderr);
    assert_eq!(stderr.lines().count(), 1, "{args:?} {path:?}: {stderr}");
    assert!(stderr.contains(why), "{args:?} {path:?}: {stderr}");
}

/// Every way an output names a file: `solve -o`, `find -o`, `count --subtotals`.
const OUTPUTS: [&[&str]; 3] = [
    &["solve", "8", "-o"],
    &["find", "8", "-o"],
    &["count", "8", "--subtotals"],
];

/// Regression: while a count ran with `--checkpoint jr`, `solve 8 -o jr` exited 0 and replaced
/// the journal (so did `count 8 --subtotals jr`, a hard link to jr and a symbolic link to
/// it): the count's closing line said its tasks were kept in jr, and the resume said "not a
/// checkpoint journal". Every output, by every name of the journal, is refused while it is in
/// use, and the journal resumes whole.
#[test]
#[cfg(unix)]
fn no_output_replaces_a_journal_in_use_by_any_name() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("jr");
    let hard = dir.path().join("hard");
    let soft = dir.path().join("soft");
    let chain = dir.path().join("chain");
    let run = journal_in_use(&journal);
    std::fs::hard_link(&journal, &hard).unwrap();
    std::os::unix::fs::symlink("jr", &soft).unwrap();
    std::os::unix::fs::symlink(&soft, &chain).unwrap();
    for args in OUTPUTS {
        for name in [&journal, &hard, &soft, &chain] {
            refused(args, name, "another nqueens run is using it");
        }
    }
    let out = run.wait_with_output();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{Q16}\n"));
    // The journal holds the whole run: a resume counts nothing again and agrees.
    assert_resumes_whole(&journal);
    // Nothing left beside them: no temporary of a refused output.
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["chain", "hard", "jr", "soft"]);
}

/// The other order. Regression: a `solve 15 -o X` still running renamed its output over a
/// journal that a later `count --checkpoint X` had started. A journal is refused at once
/// while another run writes an output to its file, by its name or a link's, and leaves no
/// file of its own behind.
#[test]
#[cfg(unix)]
fn a_journal_is_refused_on_a_file_another_run_is_writing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("X");
    let temporary = dir.path().join(".X.nqueens-tmp");
    let link = dir.path().join("link");
    std::os::unix::fs::symlink("X", &link).unwrap();
    let mut run = Watched::nqueens(&["solve", "16", "-j", "1", "-o", out.to_str().unwrap()]);
    wait_until(|| temporary.exists());
    for name in [&out, &link] {
        refused(
            &["count", "12", "--checkpoint"],
            name,
            "another nqueens run is writing this file",
        );
        assert!(!out.exists(), "the refused journal left {out:?}");
    }
    // The same while the lock is the test's, as a run holds it: a file of any age.
    run.child.kill().unwrap();
    run.wait();
    let held = File::create(&temporary).unwrap();
    held.lock().unwrap();
    std::fs::write(&out, "earlier\n").unwrap();
    refused(
        &["count", "12", "--checkpoint"],
        &link,
        "another nqueens run is writing this file",
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier\n");
}

/// Regression (edges VI): a hard link to a file another run's `-o` is replacing was taken as
/// a file of its own (the run's temporary sits beside the other name), while the README says
/// any name, link or hard link of such a file is refused. The run locks the file it replaces:
/// every output and a journal by the hard link are refused, and the file is left alone.
#[test]
#[cfg(unix)]
fn a_hard_link_to_an_output_being_written_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("X");
    let hard = dir.path().join("hard");
    std::fs::write(&out, "earlier\n").unwrap();
    std::fs::hard_link(&out, &hard).unwrap();
    let mut run = Watched::nqueens(&["solve", "16", "-j", "1", "-o", out.to_str().unwrap()]);
    // Held once the run has locked the file it replaces (after its temporary).
    wait_until(|| {
        let file = File::open(&hard).unwrap();
        matches!(
            file.try_lock_shared(),
            Err(std::fs::TryLockError::WouldBlock)
        )
    });
    for args in OUTPUTS {
        refused(args, &hard, "another nqueens run is using it");
    }
    refused(
        &["count", "12", "--checkpoint"],
        &hard,
        "another run is using",
    );
    run.child.kill().unwrap();
    run.wait();
    assert_eq!(std::fs::read_to_string(&hard).unwrap(), "earlier\n");
}

/// A journal held by a run, as the test holds it (an exclusive lock on its file): every
/// output refused by every name, the file untouched.
#[test]
#[cfg(unix)]
fn an_output_on_a_locked_journal_is_refused_and_the_file_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("jr");
    std::fs::write(&journal, "nqueens-checkpoint 2 held by the test\n").unwrap();
    let held = File::open(&journal).unwrap();
    held.lock().unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&journal, &link).unwrap();
    for args in OUTPUTS {
        for name in [&journal, &link] {
            refused(args, name, "another nqueens run is using it");
        }
    }
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap(),
        "nqueens-checkpoint 2 held by the test\n"
    );
    drop(held);
    // Unlocked, it is the user's file to replace.
    nqueens()
        .args(["solve", "8", "-o"])
        .arg(&link)
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&journal)
            .unwrap()
            .starts_with("0 4 7 5 2 6 1 3")
    );
}

/// Regression: `ln -s st stlink` with `st` absent, then `count 12 --checkpoint stlink
/// --subtotals st` exited 0 with the subtotals written over the journal (and the next resume
/// refused). Two outputs of one run are compared by the file their names lead to, dangling
/// links followed, in either order and through a chain of links.
#[test]
#[cfg(unix)]
fn one_run_s_outputs_are_one_file_through_a_dangling_link() {
    let dir = tempfile::tempdir().unwrap();
    let st = dir.path().join("st");
    let link = dir.path().join("stlink");
    let chain = dir.path().join("chain");
    std::os::unix::fs::symlink("st", &link).unwrap();
    std::os::unix::fs::symlink("stlink", &chain).unwrap();
    for (journal, subtotals) in [(&link, &st), (&st, &link), (&chain, &st), (&link, &chain)] {
        let out = nqueens()
            .args(["count", "12", "--checkpoint"])
            .arg(journal)
            .arg("--subtotals")
            .arg(subtotals)
            .assert()
            .code(2)
            .stdout("");
        let stderr = text(&out.get_output().stderr);
        assert!(stderr.contains("name the same file"), "{stderr}");
        assert!(!st.exists(), "{journal:?} {subtotals:?}");
    }
}

/// The file standard output is redirected to, named again as an output: `(echo hdr; nqueens
/// solve 8 -o f) > f` renamed its output over what the shell wrote. Refused for `solve -o`
/// and `find -o` as for `--subtotals` and `--checkpoint`, by its name and through a link.
#[test]
#[cfg(unix)]
fn an_output_that_is_also_standard_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f");
    let link = dir.path().join("link");
    std::os::unix::fs::symlink("f", &link).unwrap();
    let outputs: [&[&str]; 4] = [
        &["solve", "8", "-o"],
        &["find", "8", "-o"],
        &["count", "8", "--subtotals"],
        &["count", "8", "--checkpoint"],
    ];
    for args in outputs {
        for name in [&f, &link] {
            std::fs::write(&f, "hdr\n").unwrap();
            let stdout = std::fs::OpenOptions::new().append(true).open(&f).unwrap();
            let out = cli_support::output(
                std::process::Command::new(cli_support::bin())
                    .args(args)
                    .arg(name)
                    .stdin(Stdio::null())
                    .stdout(stdout),
            );
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?} {name:?}: {stderr}");
            assert!(stderr.contains("is also standard output"), "{stderr}");
            assert_eq!(std::fs::read_to_string(&f).unwrap(), "hdr\n");
        }
    }
}

/// The descriptor `pid` holds open on `path`, as `/proc/PID/fd/N`.
#[cfg(target_os = "linux")]
fn descriptor_of(pid: u32, path: &Path) -> std::path::PathBuf {
    let wanted = path.canonicalize().unwrap();
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|fd| std::fs::read_link(fd).is_ok_and(|target| target == wanted))
        .expect("the run holds its journal open")
}

/// Regression: with a count running on journal J, `find 4 -o /proc/PID/fd/N` (N its journal's
/// descriptor), `solve -o` and `--subtotals` to the same path, or a link to it, exited 0 and
/// appended their lines to J, so the resume refused it as damaged and every finished task was
/// lost: a path under `/proc` was written in place without asking whether another run held
/// the file. The open file is asked now, whatever name reached it, and a journal there is
/// refused as by its own name.
#[test]
#[cfg(target_os = "linux")]
fn a_journal_in_use_was_written_through_proc() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("jr");
    let run = journal_in_use(&journal);
    let fd = descriptor_of(run.child.id(), &journal);
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&fd, &link).unwrap();
    for args in OUTPUTS {
        for name in [&fd, &link] {
            refused(args, name, "another nqueens run is using it");
        }
    }
    refused(
        &["count", "8", "--checkpoint"],
        &fd,
        "another run is using this journal",
    );
    let out = run.wait_with_output();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Nothing was appended: the journal resumes whole, counting nothing again.
    assert_resumes_whole(&journal);
}

/// Regression: `count --checkpoint /dev/stdout > F` (and `/proc/self/fd/1`) was taken when
/// standard output was a regular file, and the printed count overwrote the journal's header;
/// `--subtotals /dev/stdout > F` mixed the subtotals and the count in one file, and through a
/// pipe too. `count` prints its result on standard output, so neither may be standard output
/// by any name; `solve -o /dev/stdout` still writes through it (its only output).
#[test]
#[cfg(target_os = "linux")]
fn a_checkpoint_named_dev_stdout_was_overwritten_by_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f");
    let run = |args: &[&str], stdout: Stdio| {
        cli_support::output(
            std::process::Command::new(cli_support::bin())
                .args(args)
                .stdin(Stdio::null())
                .stdout(stdout),
        )
    };
    for flag in ["--checkpoint", "--subtotals"] {
        for name in ["/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"] {
            let out = run(
                &["count", "10", flag, name],
                File::create(&f).unwrap().into(),
            );
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{flag} {name}: {stderr}");
            assert!(stderr.contains("is also standard output"), "{stderr}");
            assert_eq!(std::fs::read_to_string(&f).unwrap(), "", "{flag} {name}");
        }
    }
    // Standard error likewise, where the count's notes go: `--checkpoint /dev/stderr 2>F`.
    for flag in ["--checkpoint", "--subtotals"] {
        let out = Watched::spawn(
            std::process::Command::new(cli_support::bin())
                .args(["count", "10", flag, "/dev/stderr"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(File::create(&f).unwrap()),
        )
        .wait_with_output();
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let said = std::fs::read_to_string(&f).unwrap();
        assert!(said.contains("is also standard error"), "{said}");
        assert!(!said.contains("nqueens-checkpoint"), "{said}");
    }
    let out = run(
        &["count", "10", "--subtotals", "/dev/stdout"],
        Stdio::piped(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    // A device shared by any number of writers is not a file to keep.
    let out = run(&["count", "10", "--subtotals", "/dev/null"], Stdio::null());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(
        &["solve", "6", "-o", "/dev/stdout"],
        File::create(&f).unwrap().into(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&f).unwrap().lines().count(), 4);
}

/// Found in review: the lock check of an output named as one of the process's own
/// descriptors (`-o /dev/stdout`) was made on a duplicate of it, which shares its lock with
/// the parent's description: a lock the parent held (`exec 3>>F; flock 3; nqueens solve -o
/// /dev/fd/3`) was taken over and let go. The file is asked through a fresh open now: the
/// parent's lock stays, and the output is refused as held.
#[test]
#[cfg(target_os = "linux")]
fn the_lock_check_let_go_of_a_lock_the_parent_held_on_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f");
    let held = File::create(&f).unwrap();
    held.lock().unwrap();
    let out = cli_support::output(
        std::process::Command::new(cli_support::bin())
            .args(["solve", "6", "-o", "/dev/stdout"])
            .stdin(Stdio::null())
            .stdout(held.try_clone().unwrap()),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("holds its lock"));
    // Still the test's: another open of the file cannot take it.
    let other = File::open(&f).unwrap();
    assert!(matches!(
        other.try_lock(),
        Err(std::fs::TryLockError::WouldBlock)
    ));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "");
}
