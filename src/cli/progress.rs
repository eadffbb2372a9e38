//! Every line of progress-bar code: an indicatif bar on stderr, drawn only when asked for, or
//! in `auto` mode when stderr is a terminal and the run has lasted long enough to matter.

use super::config::ProgressMode;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nqueens::Progress;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Runs shorter than this never show a bar in `auto` mode: it would only flicker.
const AUTO_DELAY: Duration = Duration::from_millis(500);

/// The bar of one count.
pub struct TaskBar {
    bar: ProgressBar,
    started: Instant,
    /// Whether the bar may be drawn at all.
    wanted: bool,
    /// Whether it is being drawn now.
    shown: AtomicBool,
    delayed: bool,
}

impl TaskBar {
    /// A bar for a count of board size `n`, hidden until it is due.
    pub fn new(mode: ProgressMode, n: u32) -> TaskBar {
        let (wanted, delayed) = match mode {
            ProgressMode::Never => (false, false),
            ProgressMode::Always => (true, false),
            ProgressMode::Auto => (std::io::stderr().is_terminal(), true),
        };
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg}, ETA {eta}",
            )
            .expect("the template is valid"),
        );
        bar.set_prefix(format!("n = {n}"));
        TaskBar {
            bar,
            started: Instant::now(),
            wanted,
            shown: AtomicBool::new(false),
            delayed,
        }
    }

    /// Records a finished task.
    pub fn update(&self, progress: Progress) {
        if !self.wanted {
            return;
        }
        // Position and ETA follow the estimated work, which moves evenly; the task count
        // is shown beside it.
        self.bar.set_length(progress.work_total);
        self.bar.set_position(progress.work_done);
        self.bar
            .set_message(format!("{}/{} tasks", progress.done, progress.total));
        if !self.shown.load(Ordering::Relaxed)
            && (!self.delayed || self.started.elapsed() >= AUTO_DELAY)
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
