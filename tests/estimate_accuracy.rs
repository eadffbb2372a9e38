//! How close `--estimate`'s prediction comes to the count it predicts, at the sizes whose
//! counts take a second or less: the interval an estimate gives must hold the time its
//! count's tasks take. Alone in its file, so that no other test shares the cores while it
//! times; each part and each task timed by the thread's processor time, as `count
//! --estimate` times them.

use nqueens::{Counter, Job};
use std::time::Duration;

/// The calling thread's processor time (Linux), else the time since the first call.
fn thread_time() -> Duration {
    #[cfg(target_os = "linux")]
    {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid timespec for the call to fill.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0;
        assert!(ok, "no thread clock");
        Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
    }
    #[cfg(not(target_os = "linux"))]
    {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START.get_or_init(std::time::Instant::now).elapsed()
    }
}

fn job(n: u32) -> Job {
    let mut job = Counter::new().threads(1).prepare(n).unwrap();
    job.estimate_weights().unwrap();
    job
}

/// The seconds every task of `job` takes on this thread, run as a count runs them (the
/// heaviest first), the second time over: the first pays the thread's start, which an
/// estimate gives apart.
fn tasks_time(job: &Job) -> f64 {
    let mut order: Vec<usize> = (0..job.plan.len()).collect();
    order.sort_by_key(|&task| std::cmp::Reverse(job.weights()[task]));
    let mut seconds = 0.0;
    for _ in 0..2 {
        let start = thread_time();
        for &task in &order {
            std::hint::black_box(job.plan.run(task).unwrap());
        }
        seconds = (thread_time() - start).as_secs_f64();
    }
    seconds
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
        let (low, high) = (
            estimate.core_seconds * (1.0 - estimate.error),
            estimate.core_seconds * (1.0 + estimate.error),
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
