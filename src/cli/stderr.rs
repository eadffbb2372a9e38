//! Standard error that never stops the run: every diagnostic line (notes, warnings, errors,
//! plain progress lines, the interrupt message; a terminal's bar is drawn by indicatif) goes
//! through [`say!`], which neither fails nor waits for long, whatever stderr is.
//!
//! Two ways stderr went wrong cost results and signals:
//! - A write that fails (a terminal that hung up, a closed pipe, `2>/dev/full`): `eprintln!`
//!   panicked, which lost finished results (exit 101, stdout empty) and killed the signal
//!   handler's thread, so the run could no longer be stopped. A failed write is dropped here.
//! - A write that blocks (a pipe or FIFO nobody reads, a terminal paused with Ctrl-S): the
//!   writer held std's stderr lock for good, so the signal handler waited on it with the
//!   journal locked, and the count never got to print its result. Lines are written by one
//!   thread of their own; the caller waits for its line to be written for at most
//!   [`PATIENCE`], and once a line has taken longer, stderr is deemed stuck and later lines
//!   are queued (up to [`QUEUE`]) or dropped without waiting.
//!
//! While stderr takes lines as it should, each `say!` returns once its line is written, so
//! lines keep their order with the program's stdout (`2>&1`). A diagnostic that cannot be
//! shown is not worth a result: the run goes on to write its result to stdout and exit with
//! its own code.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The longest a caller waits for its line to be written.
const PATIENCE: Duration = Duration::from_millis(500);

/// The lines that may wait for a stuck stderr; more are dropped.
const QUEUE: usize = 64;

/// A line to write, where to say that it is written (`None`: nobody waits), and whether it
/// is the last line the process writes ([`last_line`]).
type Line = (String, Option<SyncSender<()>>, bool);

/// The writer thread's queue, started with the first line.
static QUEUE_TO_WRITER: OnceLock<Mutex<SyncSender<Line>>> = OnceLock::new();

/// Set once a line took longer than [`PATIENCE`]: callers no longer wait.
static STUCK: AtomicBool = AtomicBool::new(false);

/// Writes one line to stderr: a failure to write it is ignored, and a stderr that does not
/// take it within [`PATIENCE`] is not waited for (see the module's doc).
pub fn line(text: std::fmt::Arguments) {
    send(text, false);
}

/// Writes one line as [`line`] does, and none after it: the interrupt message, which a
/// progress line queued a moment later must not follow (the process is about to exit).
pub fn last_line(text: std::fmt::Arguments) {
    send(text, true);
}

/// Queues `text` for the writer thread and waits for it (see [`line`]).
fn send(text: std::fmt::Arguments, last: bool) {
    let queue = QUEUE_TO_WRITER.get_or_init(|| {
        let (queue, lines) = sync_channel::<Line>(QUEUE);
        std::thread::spawn(move || write_lines(&lines));
        Mutex::new(queue)
    });
    let queue = queue.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if STUCK.load(Ordering::Relaxed) {
        let _ = queue.try_send((text.to_string(), None, last));
        return;
    }
    let (written, done) = sync_channel(1);
    if queue
        .try_send((text.to_string(), Some(written), last))
        .is_err()
    {
        STUCK.store(true, Ordering::Relaxed);
        return;
    }
    if done.recv_timeout(PATIENCE).is_err() {
        STUCK.store(true, Ordering::Relaxed);
    }
}

/// The writer thread: each line in turn to stderr, its errors ignored.
fn write_lines(lines: &Receiver<Line>) {
    write_each(lines, |text| {
        let mut stderr = std::io::stderr().lock();
        let _ = stderr
            .write_all(text.as_bytes())
            .and_then(|()| stderr.write_all(b"\n"));
    });
}

/// Writes each line with `write` and says it is written. After a last line, the lines still
/// sent are dropped unwritten (their senders are told so at once, and do not wait).
fn write_each(lines: &Receiver<Line>, mut write: impl FnMut(&str)) {
    let mut closed = false;
    for (text, written, last) in lines {
        if !closed {
            write(&text);
            closed = last;
        }
        if let Some(written) = written {
            let _ = written.try_send(());
        }
    }
}

/// `eprintln!` that never panics, and never waits long: the line is dropped when stderr
/// cannot take it.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::stderr::line(format_args!($($arg)*))
    };
}
pub(crate) use say;

#[cfg(test)]
mod tests {
    use super::*;

    /// The interrupt message was once followed by a progress line that the progress thread
    /// queued while the handler was exiting: nothing is written after a last line.
    #[test]
    fn interrupt_message_is_the_last_line_even_when_progress_follows() {
        let (queue, lines) = sync_channel::<Line>(8);
        for (text, last) in [
            ("n = 20: 1%", false),
            ("interrupted", true),
            ("n = 20: 2%", false),
        ] {
            queue.try_send((text.to_string(), None, last)).unwrap();
        }
        drop(queue);
        let mut written = Vec::new();
        write_each(&lines, |text| written.push(text.to_string()));
        assert_eq!(written, ["n = 20: 1%", "interrupted"]);
    }
}
