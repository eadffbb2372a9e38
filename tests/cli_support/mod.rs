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
    /// The thread reading the process's memory ([`Watched::measured`]): its peak, once the
    /// process has ended.
    memory: Option<std::thread::JoinHandle<u64>>,
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
            memory: None,
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
            ..
        } = self;
        let output = child.wait_with_output().unwrap();
        assert!(
            !fired.load(Ordering::SeqCst),
            "still running after {DEADLINE:?}: killed"
        );
        output
    }

    /// Reads the process's memory from now until it ends, for [`Watched::wait_with_peak`]:
    /// the kernel's high-water mark of the process's own memory (`VmHWM`), every millisecond
    /// (growth in its last millisecond may be missed).
    ///
    /// Not the `ru_maxrss` that `wait4` gives, but where that is all there is: Linux carries
    /// the peak of the memory a process held before `exec` into it, and a child started by
    /// `posix_spawn` held this test process's, so a test binary that had grown to 46 MiB made
    /// `verify` "peak" at 46 MiB (regression: `verify_reads_finds_output_past_a_million_rows`
    /// failed once so).
    ///
    /// A measured process is waited for by [`Watched::wait_with_peak`] alone: reaped by
    /// another wait while the thread reads, its number could be another process's.
    pub fn measured(mut self) -> Watched {
        let path = format!("/proc/{}/status", self.child.id());
        self.memory = Some(std::thread::spawn(move || {
            let mut peak = 0;
            // An ended process not yet reaped (a zombie) has no memory lines: the loop ends
            // there, before the caller reaps it and its number can be reused.
            while let Some(bytes) = std::fs::read_to_string(&path)
                .ok()
                .and_then(|s| high_water(&s))
            {
                peak = u64::max(peak, bytes);
                std::thread::sleep(Duration::from_millis(1));
            }
            peak
        }));
        self
    }

    /// Waits for a [`Watched::measured`] process to end, and the most resident memory it
    /// held: its high-water mark as last read, or, for a process that ended before it was
    /// read at all, the kernel's account as it is reaped (`ru_maxrss`, which may also hold
    /// this test process's memory: more, never less). Fails the test if the deadline killed
    /// it.
    pub fn wait_with_peak(mut self) -> (ExitStatus, u64) {
        use std::os::unix::process::ExitStatusExt;
        let memory = self.memory.take().expect("a process started measured");
        let read = memory.join().unwrap();
        let pid = self.child.id() as libc::pid_t;
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value to be written over.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 writes into the two locals only; the child is ours and not yet
        // reaped (std's `Child` is never waited for after this).
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
        self.check();
        // Linux gives ru_maxrss in KiB.
        let reaped_peak = u64::try_from(usage.ru_maxrss).unwrap() << 10;
        let peak = if read > 0 { read } else { reaped_peak };
        (ExitStatus::from_raw(status), peak)
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

/// The high-water mark of resident memory in a `/proc/PID/status` text, in bytes.
fn high_water(status: &str) -> Option<u64> {
    let kib = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))?;
    let kib: u64 = kib.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kib << 10)
}
