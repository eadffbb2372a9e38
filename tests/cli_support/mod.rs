//! What the command-line tests share: the binary under test, its standard output for a run
//! that must succeed, and a deadline for every process a test starts, so that a regression
//! that makes a run hang (a closed pipe not noticed, a lock never released) fails the test
//! instead of stalling the suite. Each test file uses a part of it.
#![allow(dead_code)]

use assert_cmd::Command;
use std::process::{Child, ExitStatus, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// The longest any one run of the binary may take in a test: far beyond the slowest (the
/// long runs take seconds), so that only a hang reaches it.
pub const DEADLINE: Duration = Duration::from_secs(180);

/// The `nqueens` binary of this build, killed (and the test failed) past [`DEADLINE`].
pub fn nqueens() -> Command {
    let mut command = Command::cargo_bin("nqueens").unwrap();
    command.timeout(DEADLINE);
    command
}

/// The path of the binary, for a `std::process::Command` started with [`Watched::spawn`].
pub fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("nqueens")
}

/// What `nqueens args` writes on stdout; the run must succeed.
pub fn stdout(args: &[&str]) -> Vec<u8> {
    nqueens()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

/// A started process with a deadline: a watchdog kills it with SIGKILL if it still runs after
/// [`DEADLINE`], and waiting for it then fails the test, naming the deadline.
pub struct Watched {
    /// The process (its pipes may be taken).
    pub child: Child,
    /// Dropped when the process has been waited for: the watchdog then stands down.
    _cancel: mpsc::Sender<()>,
    fired: Arc<AtomicBool>,
}

impl std::ops::Deref for Watched {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.child
    }
}

impl std::ops::DerefMut for Watched {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.child
    }
}

/// What `command` writes on stderr (piped here) and on stdout (where the caller sends it,
/// the test's own output if nowhere), run under the deadline: `Command::output` that cannot
/// hang the suite.
pub fn output(command: &mut std::process::Command) -> Output {
    Watched::spawn(command.stderr(Stdio::piped())).wait_with_output()
}

/// `command`'s exit status, run under the deadline.
pub fn status(command: &mut std::process::Command) -> ExitStatus {
    Watched::spawn(command).wait()
}

impl Watched {
    /// Starts `command` under the deadline.
    pub fn spawn(command: &mut std::process::Command) -> Watched {
        let child = command.spawn().unwrap();
        let pid = child.id().to_string();
        let (cancel, cancelled) = mpsc::channel::<()>();
        let fired = Arc::new(AtomicBool::new(false));
        let flag = fired.clone();
        std::thread::spawn(move || {
            if cancelled.recv_timeout(DEADLINE) == Err(RecvTimeoutError::Timeout) {
                flag.store(true, Ordering::SeqCst);
                let _ = std::process::Command::new("kill")
                    .args(["-KILL", &pid])
                    .status();
            }
        });
        Watched {
            child,
            _cancel: cancel,
            fired,
        }
    }

    /// `nqueens args` started with piped stdout and stderr (and no stdin).
    pub fn nqueens(args: &[&str]) -> Watched {
        Watched::spawn(
            std::process::Command::new(bin())
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
    }

    /// Whether it has ended (it is then reaped).
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().unwrap()
    }

    /// Waits for it to end; fails the test if the deadline killed it.
    pub fn wait(mut self) -> ExitStatus {
        let status = self.child.wait().unwrap();
        self.check();
        status
    }

    /// Waits for it to end with what is left of its output; fails the test if the deadline
    /// killed it.
    pub fn wait_with_output(self) -> Output {
        let Watched {
            child,
            _cancel,
            fired,
        } = self;
        let output = child.wait_with_output().unwrap();
        assert!(
            !fired.load(Ordering::SeqCst),
            "still running after {DEADLINE:?}: killed"
        );
        output
    }

    /// Waits for it to end, and the most resident memory it held (the kernel's account of the
    /// process, read as it is reaped); fails the test if the deadline killed it.
    pub fn wait_with_peak(self) -> (ExitStatus, u64) {
        use std::os::unix::process::ExitStatusExt;
        let pid = self.child.id() as libc::pid_t;
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value to be written over.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 writes into the two locals only; the child is ours and not yet
        // reaped (std's `Child` is never waited for after this).
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
        self.check();
        // Linux gives the peak in KiB.
        (
            ExitStatus::from_raw(status),
            u64::try_from(usage.ru_maxrss).unwrap() << 10,
        )
    }

    fn check(&self) {
        assert!(
            !self.fired.load(Ordering::SeqCst),
            "still running after {DEADLINE:?}: killed"
        );
    }
}

/// Text of bytes that must be UTF-8.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Runs `nqueens args` with its standard output a pipe whose reader is already gone; returns
/// the exit code and what it printed on stderr.
pub fn into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = output(std::process::Command::new(bin()).args(args).stdout(writer));
    (output.status.code(), text(&output.stderr))
}
