//! How close `--estimate`'s prediction comes to the count it predicts, at the sizes whose
//! counts take a second or less: the interval an estimate gives must hold the time its
//! count's tasks take. Alone in its file, so that no other test shares the cores while it
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

/// Whether three estimates of n, each between two timings of the count's tasks, each hold
/// one of those two in their interval: the lines that say so of those that do not.
fn misses(n: u32) -> Vec<String> {
    let truth_job = job(n);
    let mut before = tasks_time(&truth_job);
    let mut misses = Vec::new();
    for round in 0..3 {
        let estimate = job(n)
            .estimate_with_clock(Duration::from_secs(60), &thread_time)
            .unwrap();
        let after = tasks_time(&truth_job);
        // What a count on one thread pays beside its tasks' work: its thread's start.
        let start = estimate.thread_start_seconds;
        let (low, high) = (
            estimate.core_seconds * (1.0 - estimate.error) + start,
            estimate.core_seconds * (1.0 + estimate.error) + start,
        );
        let line = format!(
            "n = {n} round {round}: {:.5} s ± {:.1} % (rate spread {:.1}, longest part \
             {:.6} s), the tasks took {before:.5} and {after:.5} s",
            estimate.core_seconds,
            100.0 * estimate.error,
            estimate.rate_spread.unwrap(),
            estimate.longest_part_seconds.unwrap(),
        );
        eprintln!("{line}");
        if [before, after]
            .iter()
            .all(|&truth| truth < low || truth > high)
        {
            misses.push(line);
        }
        before = after;
    }
    misses
}

/// Regression: at n = 14 to 16, one part of a sample could be timed at 5 to 7 ms where its
/// weight's time was 0.05 ms (the first touch of a fresh thread's buffers, with transparent
/// huge pages), and estimates came out 1.3 to 9 times the count, outside their own bars;
/// parts timed right after themselves came out a third under theirs. Three estimates of
/// each n = 14 to 18, each between two timings of the count's tasks, must each hold one of
/// them (the machine's pace moves between the two by a few %); a size that misses is tried
/// once more, three estimates again, and fails if one misses again: this machine's pace
/// can move by more than the bars' allowance for it for a moment, but not twice in a row.
#[test]
fn estimates_of_n_14_to_18_hold_the_time_of_the_count_s_tasks() {
    let mut failed = Vec::new();
    for n in 14..=18 {
        if misses(n).is_empty() {
            continue;
        }
        failed.extend(misses(n));
    }
    assert!(
        failed.is_empty(),
        "outside their bars twice:\n{}",
        failed.join("\n")
    );
}
