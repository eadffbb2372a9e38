//! How close `--estimate`'s prediction comes to the count it predicts, at the sizes whose
//! counts take a few seconds at most: the median estimate must come within a quarter of the
//! time its count's tasks take. Alone in its file, so that no other test shares the cores while it
//! times; each part timed by its thread's processor time, as `count --estimate` times them,
//! and each count by the process's, its tasks on a worker thread as a count runs them.

use nqueens::{Counter, Job};
use std::time::Duration;

/// The processor time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`) or of the whole
/// process (`CLOCK_PROCESS_CPUTIME_ID`) (Linux), else the time since the first call.
fn cpu_time(clock: i32) -> Duration {
    #[cfg(target_os = "linux")]
    {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid timespec for the call to fill.
        let ok = unsafe { libc::clock_gettime(clock, &mut now) } == 0;
        assert!(ok, "no such clock");
        Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = clock;
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START.get_or_init(std::time::Instant::now).elapsed()
    }
}

#[cfg(target_os = "linux")]
const THREAD: i32 = libc::CLOCK_THREAD_CPUTIME_ID;
#[cfg(target_os = "linux")]
const PROCESS: i32 = libc::CLOCK_PROCESS_CPUTIME_ID;
#[cfg(not(target_os = "linux"))]
const THREAD: i32 = 0;
#[cfg(not(target_os = "linux"))]
const PROCESS: i32 = 0;

/// The calling thread's processor time: what the estimate times each part by.
fn thread_time() -> Duration {
    cpu_time(THREAD)
}

fn job(n: u32) -> Job {
    let mut job = Counter::new().threads(1).prepare(n).unwrap();
    job.estimate_weights().unwrap();
    job
}

/// The processor seconds a count of every task of `job` takes, as a count runs them: on a
/// worker thread of its own (a fresh one, whose memory the process pages in as the count
/// does), the heaviest first; timed by the process's processor time, which the calling
/// thread, waiting, adds nothing to.
fn tasks_time(job: &Job) -> f64 {
    let ids: Vec<usize> = (0..job.plan.len()).collect();
    let counter = Counter::new().threads(1);
    let start = cpu_time(PROCESS);
    std::hint::black_box(counter.run(job, &ids, &|_, _| {}).unwrap());
    (cpu_time(PROCESS) - start).as_secs_f64()
}

/// The median of some figures.
fn median(mut figures: Vec<f64>) -> f64 {
    figures.sort_by(f64::total_cmp);
    let mid = figures.len() / 2;
    if figures.len() % 2 == 1 {
        figures[mid]
    } else {
        (figures[mid - 1] + figures[mid]) / 2.0
    }
}

/// Three estimates of n, each between two timings of the count's tasks: the median
/// estimate over the median timing, and a line for each estimate.
fn ratio_and_lines(n: u32) -> (f64, Vec<String>) {
    let truth_job = job(n);
    let mut truths = vec![tasks_time(&truth_job)];
    let mut estimates = Vec::new();
    let mut lines = Vec::new();
    for round in 0..3 {
        let estimate = job(n)
            .estimate_with_clock(Duration::from_secs(60), &thread_time)
            .unwrap();
        truths.push(tasks_time(&truth_job));
        // What a count on one thread pays beside its tasks' work: its thread's start.
        let predicted = estimate.core_seconds + estimate.thread_start_seconds;
        let line = format!(
            "n = {n} round {round}: {:.5} s ± {:.1} % (rate spread {:.1}, longest part \
             {:.6} s), the tasks took {:.5} and {:.5} s",
            estimate.core_seconds,
            100.0 * estimate.error,
            estimate.rate_spread.unwrap(),
            estimate.longest_part_seconds.unwrap(),
            truths[round],
            truths[round + 1],
        );
        eprintln!("{line}");
        lines.push(line);
        estimates.push(predicted);
    }
    (median(estimates) / median(truths), lines)
}

/// How far the median estimate may stray from the median count: the estimates this test
/// pins were 1.3 to 9 times their count, while this machine's pace moves a timing of the
/// same tasks by up to a third from one second to the next (CI once saw n = 15's tasks
/// take 0.076 and 0.108 s in a row). The interval each estimate prints is its claim about
/// a quiet machine, measured there (the 30 estimates in docs/how-it-works.md's design
/// table, read from this test's lines); it is not asserted here, where a slow moment
/// would fail it.
const MOST_RATIO: f64 = 1.25;

/// Regression: at n = 14 to 16, one part of a sample could be timed at 5 to 7 ms where its
/// weight's time was 0.05 ms (the first touch of a fresh thread's buffers, with transparent
/// huge pages), and estimates came out 1.3 to 9 times the count; parts timed right after
/// themselves came out a third under theirs. The median of three estimates of each n = 14
/// to 18 must come within a factor of 1.25 of the median of four timings of the count's
/// tasks taken between them; a size that misses is tried once more and fails if it misses
/// again (regression: the test once asked each estimate's ±8-14 % bars to hold a timing,
/// and a noisy CI machine failed it with estimates 1.08 times their count).
#[test]
fn estimates_of_n_14_to_18_come_within_a_quarter_of_the_count_s_tasks() {
    let mut failed = Vec::new();
    for n in 14..=18 {
        let within = |ratio: f64| (1.0 / MOST_RATIO..=MOST_RATIO).contains(&ratio);
        if within(ratio_and_lines(n).0) {
            continue;
        }
        let (ratio, lines) = ratio_and_lines(n);
        if !within(ratio) {
            failed.push(format!(
                "n = {n}: median estimate {ratio:.3} times the count"
            ));
            failed.extend(lines);
        }
    }
    assert!(
        failed.is_empty(),
        "outside a factor of {MOST_RATIO} twice:\n{}",
        failed.join("\n")
    );
}
