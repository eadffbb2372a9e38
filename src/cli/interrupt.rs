//! Ctrl-C and SIGTERM: stop at once, keep what must be kept, remove what must not be left, and
//! exit with 130.
//!
//! A checkpoint journal is written record by record, so stopping mid-run loses only the tasks
//! that were running; the handler takes the journal's lock first, so that no record is cut
//! in half, syncs it to disk, and says how to resume. A temporary output file (the `-o` of `solve`) is removed:
//! the file the user named never existed half-written.

use super::stderr::say;
use nqueens::checkpoint::Journal;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The exit code of an interrupted run (128 + SIGINT), by convention.
pub const INTERRUPTED: i32 = 130;

#[derive(Default)]
struct Watched {
    journal: Option<Arc<Mutex<Journal>>>,
    temporary: Vec<PathBuf>,
    /// Set by a command that stops by itself (the server): called instead of exiting.
    stop: Option<Box<dyn Fn() + Send>>,
}

static WATCHED: Mutex<Watched> = Mutex::new(Watched {
    journal: None,
    temporary: Vec::new(),
    stop: None,
});

/// Installs the handler; once, at start-up.
pub fn install() {
    let installed = ctrlc::set_handler(|| {
        let watched = WATCHED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(stop) = &watched.stop {
            stop();
            return;
        }
        for path in &watched.temporary {
            let _ = std::fs::remove_file(path);
        }
        super::progress::stop_drawing();
        // A bar on the terminal holds the cursor at the end of its line: start below it.
        // Without one (no terminal, or no bar yet) the message is the first thing on its line.
        let below = if super::progress::bar_on_screen() {
            "\n"
        } else {
            ""
        };
        match &watched.journal {
            Some(journal) => {
                // Held until the process is gone: a worker that finishes a task now waits for
                // the lock and never writes, so the journal holds what the message says.
                let mut journal = journal.lock().unwrap_or_else(|e| e.into_inner());
                let _ = journal.sync();
                let kept = match journal.records() {
                    1 => "1 finished task is".to_string(),
                    records => format!("{records} finished tasks are"),
                };
                super::stderr::last_line(format_args!(
                    "{below}interrupted: {kept} kept in {}; run the same command again to resume",
                    journal.path().display()
                ));
                std::process::exit(INTERRUPTED);
            }
            None => super::stderr::last_line(format_args!("{below}interrupted")),
        }
        std::process::exit(INTERRUPTED);
    });
    if let Err(e) = installed {
        say!("warning: cannot catch Ctrl-C: {e}");
    }
}

/// Keeps `journal` whole if the run is interrupted, and names it in the message.
pub fn watch_journal(journal: Arc<Mutex<Journal>>) {
    WATCHED.lock().unwrap_or_else(|e| e.into_inner()).journal = Some(journal);
}

/// Forgets the journal (its run is over).
pub fn forget_journal() {
    WATCHED.lock().unwrap_or_else(|e| e.into_inner()).journal = None;
}

/// Removes `path` if the run is interrupted.
pub fn watch_temporary(path: PathBuf) {
    WATCHED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .temporary
        .push(path);
}

/// Forgets a temporary file (renamed or removed by its owner).
pub fn forget_temporary(path: &std::path::Path) {
    WATCHED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .temporary
        .retain(|p| p != path);
}

/// Calls `stop` on Ctrl-C or SIGTERM instead of exiting: the command shuts down by itself.
pub fn on_interrupt(stop: Box<dyn Fn() + Send>) {
    WATCHED.lock().unwrap_or_else(|e| e.into_inner()).stop = Some(stop);
}
