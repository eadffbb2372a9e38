//! Running numbered tasks on a rayon pool and collecting their results.
//!
//! The driver knows nothing of boards: an engine hands it a number of tasks and a function
//! that computes one of them, and gets back every task's result, in task order. Progress is
//! reported once per finished task, from the worker that finished it, never per node.

use crate::error::Error;
use rayon::prelude::*;

/// Runs `work(i)` for every task `i` in `0..tasks` on `threads` worker threads and returns the
/// results in task order. `on_done(i, result)` is called as each task finishes, in whatever
/// order they finish.
pub fn run<W, D>(threads: usize, tasks: usize, work: W, on_done: D) -> Result<Vec<u128>, Error>
where
    W: Fn(usize) -> u128 + Sync,
    D: Fn(usize, u128) + Sync,
{
    let ids: Vec<usize> = (0..tasks).collect();
    run_some(threads, &ids, work, on_done)
}

/// [`run`] for the tasks `ids` only (a shard, or what a checkpoint has not done yet); the
/// results come back in the order of `ids`.
pub fn run_some<W, D>(
    threads: usize,
    ids: &[usize],
    work: W,
    on_done: D,
) -> Result<Vec<u128>, Error>
where
    W: Fn(usize) -> u128 + Sync,
    D: Fn(usize, u128) + Sync,
{
    Ok(run_on(&pool(threads)?, ids, work, on_done))
}

/// A pool of `threads` worker threads, for [`run_on`]: one that several runs share keeps its
/// threads, and what each thread has built up (the join engine's buffers), between them.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("nqueens-worker-{i}"))
        .build()
        .map_err(Error::thread_pool)
}

/// [`run_some`] on the threads of `pool`.
pub fn run_on<W, D>(pool: &rayon::ThreadPool, ids: &[usize], work: W, on_done: D) -> Vec<u128>
where
    W: Fn(usize) -> u128 + Sync,
    D: Fn(usize, u128) + Sync,
{
    pool.install(|| {
        ids.par_iter()
            .copied()
            // One task per steal: task sizes differ by orders of magnitude, so rayon must not
            // hand a thread a long run of them in one piece.
            .with_max_len(1)
            .map(|i| {
                let result = work(i);
                on_done(i, result);
                result
            })
            .collect()
    })
}

use crate::limits::MAX_THREADS;

/// The worker threads for a setting: `None` for one per core; never zero, never more than
/// [`MAX_THREADS`].
pub fn resolve_threads(threads: Option<usize>) -> Result<usize, Error> {
    match threads {
        Some(0) => Err(Error::NoThreads),
        Some(t) if t > MAX_THREADS => Err(Error::TooManyThreads(t)),
        Some(t) => Ok(t),
        None => Ok(default_threads()),
    }
}

/// The number of threads to use when none is asked for: one per core the process may use.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn results_come_back_in_task_order_whatever_the_threads() {
        for threads in 1..=4 {
            let seen = Mutex::new(Vec::new());
            let results = run(
                threads,
                100,
                |i| (i * i) as u128,
                |i, r| {
                    seen.lock().unwrap().push((i, r));
                },
            )
            .unwrap();
            assert_eq!(
                results,
                (0..100).map(|i| (i * i) as u128).collect::<Vec<_>>()
            );
            // Every task reported once, with its own value.
            let mut seen = seen.into_inner().unwrap();
            seen.sort();
            assert_eq!(
                seen,
                (0..100).map(|i| (i, (i * i) as u128)).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn no_tasks_is_fine() {
        assert!(run(2, 0, |_| 1, |_, _| {}).unwrap().is_empty());
    }
}
