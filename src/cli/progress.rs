//! Every line of progress code: an indicatif bar on stderr when stderr is a terminal (drawn
//! when asked for, or in `auto` mode once the run has lasted long enough to matter), and
//! plain lines at a steady interval when `--progress always` is given and stderr is not a
//! terminal (a batch job's log: `2>run.log`, a Slurm output file), which a bar's cursor codes
//! would fill with garbage:
//!
//! ```text
//! n = 20: 37% (812/2048 tasks), elapsed 1m02s, ETA 1m45s
//! ```
//!
//! one every 10 seconds, and a last one when the count ends. The interval can be changed with
//! the environment variable `NQUEENS_PROGRESS_INTERVAL_MS` (for the tests, which cannot wait
//! ten seconds), down to 5 ms.

use super::stderr::say;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nqueens::Progress;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// When to draw the progress bar (`--progress`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// When stderr is a terminal and the run is long enough to matter.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Runs shorter than this never show a bar in `auto` mode: it would only flicker.
const AUTO_DELAY: Duration = Duration::from_millis(500);

/// Time between two plain progress lines.
const LINE_INTERVAL: Duration = Duration::from_secs(10);

/// The environment variable that sets the time between two plain lines, in milliseconds.
pub const INTERVAL_VARIABLE: &str = "NQUEENS_PROGRESS_INTERVAL_MS";

/// The least time between two plain lines, whatever the variable says: 0 wrote 272,000 lines
/// a second.
pub const LEAST_INTERVAL: Duration = Duration::from_millis(5);

/// Whether a bar is on the terminal now (the interrupt message then starts below it).
static BAR_ON_SCREEN: AtomicBool = AtomicBool::new(false);

/// Whether a progress bar is drawn on the terminal at this moment.
pub fn bar_on_screen() -> bool {
    BAR_ON_SCREEN.load(Ordering::Relaxed)
}

/// Set once the run is being interrupted: no bar is drawn again.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Stops every bar from being drawn again: the interrupt message is the last thing on the
/// terminal (a worker finishing a task would otherwise redraw the bar below it).
pub fn stop_drawing() {
    STOPPED.store(true, Ordering::SeqCst);
}

/// The progress of one count.
pub struct TaskBar {
    bar: ProgressBar,
    started: Instant,
    /// Whether the bar may be drawn at all.
    wanted: bool,
    /// Whether it is being drawn now.
    shown: AtomicBool,
    delayed: bool,
    /// The last progress, for the plain lines, when stderr is not a terminal.
    latest: Option<Latest>,
    /// The thread writing them (taken when it stops).
    lines: Mutex<Option<Lines>>,
}

/// The last progress recorded, shared with the thread that writes it.
type Latest = Arc<Mutex<Option<Progress>>>;

/// The thread that writes a plain line at each interval.
struct Lines {
    /// Dropped or sent to, it stops the thread.
    stop: Sender<()>,
    thread: Option<JoinHandle<()>>,
    prefix: String,
}

impl TaskBar {
    /// The progress of a count of board size `n`, hidden until it is due.
    pub fn new(mode: ProgressMode, n: u32) -> TaskBar {
        let terminal = std::io::stderr().is_terminal();
        let (wanted, delayed) = match mode {
            ProgressMode::Never => (false, false),
            ProgressMode::Always => (terminal, false),
            ProgressMode::Auto => (terminal, true),
        };
        let prefix = format!("n = {n}");
        let started = Instant::now();
        let latest: Option<Latest> =
            (mode == ProgressMode::Always && !terminal).then(Default::default);
        let lines = latest
            .as_ref()
            .map(|latest| Lines::start(&prefix, started, latest.clone()));
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg}, ETA {eta}",
            )
            .expect("the template is valid"),
        );
        bar.set_prefix(prefix);
        TaskBar {
            bar,
            started,
            wanted,
            shown: AtomicBool::new(false),
            delayed,
            latest,
            lines: Mutex::new(lines),
        }
    }

    /// Records a finished task.
    pub fn update(&self, progress: Progress) {
        if let Some(latest) = &self.latest {
            *latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(progress);
        }
        if !self.wanted || STOPPED.load(Ordering::SeqCst) {
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
            BAR_ON_SCREEN.store(true, Ordering::Relaxed);
        }
    }

    /// Removes the bar from the terminal, or writes the last plain line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
        BAR_ON_SCREEN.store(false, Ordering::Relaxed);
        if let (Some(mut lines), Some(latest)) = (self.take_lines(), &self.latest) {
            lines.stop();
            let latest = *latest.lock().unwrap_or_else(|e| e.into_inner());
            say!("{}", line(&lines.prefix, latest, self.started.elapsed()));
        }
    }
}

impl TaskBar {
    fn take_lines(&self) -> Option<Lines> {
        self.lines.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

impl Drop for TaskBar {
    /// A count that failed stops its line thread without a last line.
    fn drop(&mut self) {
        if let Some(mut lines) = self.take_lines() {
            lines.stop();
        }
    }
}

impl Lines {
    fn start(prefix: &str, started: Instant, latest: Latest) -> Lines {
        let interval = std::env::var(INTERVAL_VARIABLE)
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map_or(LINE_INTERVAL, Duration::from_millis)
            .max(LEAST_INTERVAL);
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = {
            let prefix = prefix.to_string();
            std::thread::spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(interval) {
                    let progress = *latest.lock().unwrap_or_else(|e| e.into_inner());
                    say!("{}", line(&prefix, progress, started.elapsed()));
                }
            })
        };
        Lines {
            stop,
            thread: Some(thread),
            prefix: prefix.to_string(),
        }
    }

    /// Stops the thread, and waits for it (so that no line comes after the last).
    fn stop(&mut self) {
        let _ = self.stop.send(());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// One plain progress line.
fn line(prefix: &str, progress: Option<Progress>, elapsed: Duration) -> String {
    let elapsed_text = duration(elapsed);
    let Some(p) = progress else {
        return format!("{prefix}: 0%, elapsed {elapsed_text}");
    };
    let share = if p.work_total == 0 {
        0.0
    } else {
        p.work_done as f64 / p.work_total as f64
    };
    let mut text = format!(
        "{prefix}: {}% ({}/{} tasks), elapsed {elapsed_text}",
        (share * 100.0).floor() as u64,
        p.done,
        p.total
    );
    if p.done < p.total && share > 0.0 {
        let left = elapsed.as_secs_f64() * (1.0 - share) / share;
        text.push_str(&format!(
            ", ETA {}",
            duration(Duration::from_secs_f64(left))
        ));
    }
    text
}

/// `12s`, `1m02s`, `3h05m09s`.
fn duration(time: Duration) -> String {
    let seconds = time.as_secs();
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    match (h, m) {
        (0, 0) => format!("{s}s"),
        (0, _) => format!("{m}m{s:02}s"),
        _ => format!("{h}h{m:02}m{s:02}s"),
    }
}

/// The progress of `nqueens bench`: a bar of its steps (each yardstick, each round of each
/// row) and what runs now, on a terminal only; nothing when stderr is not one, so that a
/// piped or redirected run prints its result alone.
pub struct StepBar(ProgressBar);

impl StepBar {
    /// A bar of `steps` steps, hidden unless stderr is a terminal.
    pub fn new(steps: u64) -> StepBar {
        if !std::io::stderr().is_terminal() {
            return StepBar(ProgressBar::hidden());
        }
        let bar = ProgressBar::new(steps);
        if let Ok(style) = ProgressStyle::with_template("bench [{bar:30}] {pos}/{len} {msg}") {
            bar.set_style(style.progress_chars("=> "));
        }
        BAR_ON_SCREEN.store(true, Ordering::Relaxed);
        StepBar(bar)
    }

    /// Says that `what` runs now, one more step begun.
    pub fn step(&self, what: &str) {
        if STOPPED.load(Ordering::SeqCst) {
            return;
        }
        self.0.set_message(what.to_string());
        self.0.inc(1);
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.0.finish_and_clear();
        BAR_ON_SCREEN.store(false, Ordering::Relaxed);
    }
}

/// `--estimate`'s line while its sample is timed (minutes at the record sizes): the time so
/// far and the most it may take, on a terminal once it has lasted [`AUTO_DELAY`], redrawn
/// by a ticker of its own (the sample reports nothing while it runs).
pub struct SampleBar {
    bar: ProgressBar,
    /// Dropped or sent to, it stops the thread that shows the bar after its delay.
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl SampleBar {
    /// The line of an estimate of board size `n` that takes at most `budget`; hidden where
    /// stderr is no terminal or `mode` is [`ProgressMode::Never`].
    pub fn new(mode: ProgressMode, n: u32, budget: Duration) -> SampleBar {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if mode == ProgressMode::Never || !std::io::stderr().is_terminal() {
            return SampleBar {
                bar,
                stop: None,
                thread: None,
            };
        }
        if let Ok(style) = ProgressStyle::with_template(
            "{prefix}: timing a sample of the tasks {spinner} {elapsed_precise} of at most {msg}",
        ) {
            bar.set_style(style);
        }
        bar.set_prefix(format!("n = {n}"));
        let seconds = budget.as_secs();
        bar.set_message(format!(
            "{:02}:{:02}:{:02}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        ));
        let (stop, stopped) = mpsc::channel::<()>();
        let shown = bar.clone();
        let delay = if mode == ProgressMode::Auto {
            AUTO_DELAY
        } else {
            Duration::ZERO
        };
        let thread = std::thread::spawn(move || {
            if stopped.recv_timeout(delay) == Err(RecvTimeoutError::Timeout)
                && !STOPPED.load(Ordering::SeqCst)
            {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                BAR_ON_SCREEN.store(true, Ordering::Relaxed);
                shown.enable_steady_tick(Duration::from_millis(200));
            }
        });
        SampleBar {
            bar,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Removes the line from the terminal.
    pub fn finish(mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        self.bar.finish_and_clear();
        BAR_ON_SCREEN.store(false, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_read_as_documented() {
        let progress = Progress {
            done: 812,
            total: 2048,
            work_done: 37,
            work_total: 100,
        };
        assert_eq!(
            line("n = 20", Some(progress), Duration::from_secs(62)),
            "n = 20: 37% (812/2048 tasks), elapsed 1m02s, ETA 1m45s"
        );
        assert_eq!(
            line("n = 9", None, Duration::from_millis(1500)),
            "n = 9: 0%, elapsed 1s"
        );
        let done = Progress {
            done: 5,
            total: 5,
            work_done: 9,
            work_total: 9,
        };
        assert_eq!(
            line(
                "n = 9",
                Some(done),
                Duration::from_secs(3 * 3600 + 5 * 60 + 9)
            ),
            "n = 9: 100% (5/5 tasks), elapsed 3h05m09s"
        );
    }
}
