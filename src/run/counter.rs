//! Counting all solutions of a board: the builder that ties split, kernel and driver together.

use super::driver;
use super::job::{Job, Progress};
#[cfg(not(feature = "gpu"))]
use crate::engine::NO_GPU_SUPPORT;
use crate::engine::{Engine, Plan, Reason, Request};
use crate::error::Error;
use crate::join;
use crate::search::split;
use crate::symmetry::{Classes, rotation_fixed};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// The result of a count, with what it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// The board size.
    pub n: u32,
    /// The number of solutions.
    pub solutions: u128,
    /// How many tasks the work was split into.
    pub tasks: usize,
    /// How many rows each task's prefix holds.
    pub split_depth: u32,
    /// How many worker threads ran.
    pub threads: usize,
    /// The engine that counted (never [`Engine::Auto`]).
    pub engine: Engine,
    /// The solutions by the size of their class of equivalent boards, when asked for
    /// ([`Counter::unique`]); `classes.unique()` is the number of unique solutions.
    pub classes: Option<Classes>,
    /// The GPU that counted every task, if one did (`engine` is then the search whose tasks
    /// it counted).
    #[cfg(feature = "gpu")]
    pub adapter: Option<crate::gpu::AdapterInfo>,
}

type ProgressFn<'a> = dyn Fn(Progress) + Sync + 'a;

/// Counts the solutions of n-queens boards, with a choice of threads, split depth and a
/// progress callback.
///
/// ```
/// let count = nqueens::Counter::new().threads(2).count(10)?;
/// assert_eq!(count.solutions, 724);
/// assert_eq!(count.threads, 2);
/// # Ok::<(), nqueens::Error>(())
/// ```
#[derive(Default)]
pub struct Counter<'a> {
    threads: Option<usize>,
    split_depth: Option<u32>,
    engine: Engine,
    max_memory: Option<u64>,
    thread_memory: u64,
    unique: bool,
    gpu_adapter: Option<String>,
    progress: Option<&'a ProgressFn<'a>>,
    cancel: Option<&'a AtomicBool>,
}

impl<'a> Counter<'a> {
    /// A counter with every setting at its default: all cores, automatic split depth.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs on `threads` worker threads (default: one per available core).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads);
        self
    }

    /// Splits the work at `depth` rows instead of choosing from the thread count.
    pub fn split_depth(mut self, depth: u32) -> Self {
        self.split_depth = Some(depth);
        self
    }

    /// Chooses the engine (default: [`Engine::Auto`]).
    ///
    /// ```
    /// use nqueens::{Counter, Engine, Symmetry};
    /// let count = Counter::new().engine(Engine::Join).count(12)?;
    /// assert_eq!((count.solutions, count.engine), (14_200, Engine::Join));
    /// let count = Counter::new().engine(Engine::Search(Symmetry::Mirror)).count(12)?;
    /// assert_eq!(count.solutions, 14_200);
    /// # Ok::<(), nqueens::Error>(())
    /// ```
    pub fn engine(mut self, engine: Engine) -> Self {
        self.engine = engine;
        self
    }

    /// Keeps the join engine's data within `bytes` (its quarter table and the half-boards
    /// each thread holds): it then joins in smaller pieces. When even the smallest pieces do
    /// not fit, [`Engine::Auto`] counts with the search, which needs next to no memory, and
    /// [`Engine::Join`] fails.
    pub fn max_memory(mut self, bytes: u64) -> Self {
        self.max_memory = Some(bytes);
        self
    }

    /// Counts `bytes` for each worker thread against [`Counter::max_memory`] besides the
    /// engine's data (its stack, the allocator's pages of its own: what the process around
    /// the library knows), for the threads the run will really have: no more than its tasks.
    pub fn thread_memory(mut self, bytes: u64) -> Self {
        self.thread_memory = bytes;
        self
    }

    /// Also counts the unique solutions (classes under rotation and reflection).
    ///
    /// ```
    /// let count = nqueens::Counter::new().unique(true).count(8)?;
    /// assert_eq!(count.classes.unwrap().unique(), 12);
    /// # Ok::<(), nqueens::Error>(())
    /// ```
    pub fn unique(mut self, unique: bool) -> Self {
        self.unique = unique;
        self
    }

    /// Counts on the GPU whose name contains `name` (see `gpu::Gpu::open`) with
    /// [`Engine::Gpu`]. With [`Engine::Auto`], tries that GPU (with full symmetry) and counts
    /// on the CPU if it cannot be opened or fails ([`Job::gpu_fallback`] says why).
    pub fn gpu_adapter(mut self, name: &str) -> Self {
        self.gpu_adapter = Some(name.to_string());
        self
    }

    /// Calls `callback` after every finished task, from the worker thread that finished it.
    pub fn on_progress(mut self, callback: &'a ProgressFn<'a>) -> Self {
        self.progress = Some(callback);
        self
    }

    /// Stops the count when `flag` is set: it is read before each task starts (never inside
    /// one), so the count ends when the running tasks do, with [`Error::Cancelled`].
    pub fn cancel_on(mut self, flag: &'a AtomicBool) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// Counts the solutions of the n x n board (with a progress callback, after estimating
    /// the tasks' sizes for it: [`Job::estimate_weights`]).
    pub fn count(&self, n: u32) -> Result<Count, Error> {
        let mut job = self.prepare(n)?;
        if self.progress.is_some() {
            job.estimate_weights()?;
        }
        let ids: Vec<usize> = (0..job.plan.len()).collect();
        let values = self.run(&job, &ids, &|_, _| {})?;
        Ok(self.finish(&job, values.iter().sum()))
    }

    /// Validates the settings and builds the plan of a count of the n x n board.
    pub fn prepare(&self, n: u32) -> Result<Job, Error> {
        Error::check_board_size(n)?;
        let threads = driver::resolve_threads(self.threads)?;
        if let Some(d) = self
            .split_depth
            .filter(|d| !(1..=split::MAX_DEPTH).contains(d))
        {
            return Err(Error::SplitDepth(d));
        }
        let choice = self
            .request(n, self.memory_threads(n, threads)?)
            .choose(|| self.open_gpu_for(threads))?;
        let engine = choice.engine;
        let gpu_fallback = OnceLock::new();
        if let Some(Reason::GpuUnavailable(error)) = choice.reasons.first() {
            let _ = gpu_fallback.set(error.clone());
        }
        let split_depth = match self.split_depth {
            // As deep as asked, or as the board, the cap on tasks and the memory limit allow.
            Some(d) => match self.max_memory {
                Some(limit) => Plan::depth_within(n, engine, d, limit)?,
                None => Plan::effective_depth(n, engine, d)?,
            },
            // Split for the threads that can run at once: tasks for more threads than the
            // machine has cores only cost their set-up (`-j 1000` on two cores split n = 10
            // into 496 tasks and took 0.8 s for a count of milliseconds).
            None => Plan::auto_depth(n, engine, threads.min(driver::default_threads()))?,
        };
        let mut plan = Plan::new(n, engine, split_depth)?;
        if let Plan::Join(join) = &mut plan {
            join.set_piece(choice.piece);
        }
        // Never more workers than tasks: a thread without a task only costs its start.
        let threads = threads.min(plan.len().max(1));
        let weights = vec![1; plan.len()];
        Ok(Job {
            n,
            engine,
            split_depth,
            threads,
            plan,
            weights,
            estimated: false,
            #[cfg(feature = "gpu")]
            gpu: choice.gpu,
            gpu_fallback,
            reasons: choice.reasons,
        })
    }

    /// Runs the tasks `ids` of `job` and returns their values in the order of `ids` (in units
    /// of [`Plan::units_per_solution`]). `on_task(id, value)` runs as each task finishes, on
    /// the worker that finished it; the progress callback follows these tasks only. An
    /// error ([`Error::Task`]), before anything runs, when an id is not a task of the job's
    /// plan.
    pub fn run(
        &self,
        job: &Job,
        ids: &[usize],
        on_task: &(dyn Fn(usize, u128) + Sync),
    ) -> Result<Vec<u128>, Error> {
        for &id in ids {
            job.plan.check_task(id)?;
        }
        #[cfg(feature = "gpu")]
        if let Some(gpu) = &job.gpu {
            return self.run_on_gpu(job, gpu, ids, on_task);
        }
        self.run_on_cpu(job, ids, on_task)
    }

    /// [`Counter::run`] on the GPU; under [`Engine::Auto`] the CPU counts what a failing GPU
    /// left.
    #[cfg(feature = "gpu")]
    fn run_on_gpu(
        &self,
        job: &Job,
        gpu: &crate::gpu::Gpu,
        ids: &[usize],
        on_task: &(dyn Fn(usize, u128) + Sync),
    ) -> Result<Vec<u128>, Error> {
        let work_total = ids.iter().map(|&i| job.weight(i)).sum();
        let (mut done, mut work_done) = (0, 0);
        let mut finished = std::collections::HashMap::new();
        let never = AtomicBool::new(false);
        let cancel = self.cancel.unwrap_or(&never);
        let result = gpu.run_until(
            job.n,
            &job.plan,
            ids,
            &mut |id, value| {
                on_task(id, value);
                finished.insert(id, value);
                done += 1;
                work_done += job.weight(id);
                if let Some(progress) = self.progress {
                    progress(Progress {
                        done,
                        total: ids.len(),
                        work_done,
                        work_total,
                    });
                }
            },
            cancel,
        );
        match result {
            Err(error) => {
                // What to fall back to is the decision's; the engine stays the one whose tasks
                // the GPU counted.
                let request = self.request(job.n, job.threads);
                if let Reason::GpuFailed(error) = request.after_gpu_failure(error)? {
                    let _ = job.gpu_fallback.set(error);
                }
                let rest: Vec<usize> = ids
                    .iter()
                    .copied()
                    .filter(|id| !finished.contains_key(id))
                    .collect();
                let values = self.run_on_cpu(job, &rest, on_task)?;
                finished.extend(rest.into_iter().zip(values));
                Ok(ids.iter().map(|id| finished[id]).collect())
            }
            values => values,
        }
    }

    /// What this counter asks of the engine for the n x n board on `threads` threads.
    fn request(&self, n: u32, threads: usize) -> Request {
        Request {
            engine: self.engine,
            n,
            gpu_named: self.gpu_adapter.is_some(),
            max_memory: self.max_memory,
            threads,
            thread_memory: self.thread_memory,
        }
    }

    /// The threads a memory limit is worked out for: those the run will have, no more than
    /// the join engine's tasks, where threads matter to the memory (n = 14 has 890 tasks, so
    /// `-j 1024` runs 890 threads). The plan is built for it (n = 23's in under a second);
    /// from the partitioned sizes on ([`join::Policy::for_board`]), where making it weighs
    /// every unit (tens of seconds to minutes), there are hundreds of thousands of tasks or
    /// more, and it is not.
    fn memory_threads(&self, n: u32, threads: usize) -> Result<usize, Error> {
        let partitioned = join::Policy::for_board(n).is_some();
        if self.max_memory.is_none() || !join::supports(n) || partitioned {
            return Ok(threads);
        }
        let depth = match self.split_depth {
            Some(depth) => Plan::effective_depth(n, Engine::Join, depth)?,
            None => join::auto_depth(n),
        };
        Ok(threads.min(join::Plan::new(n, depth).len().max(1)))
    }

    /// The GPU named, or the first found, opened for [`Request::choose`], fed by `threads`
    /// host threads.
    #[cfg(feature = "gpu")]
    fn open_gpu_for(&self, threads: usize) -> Result<crate::gpu::Gpu, Error> {
        crate::gpu::Gpu::open(self.gpu_adapter.as_deref()).map(|gpu| gpu.host_threads(threads))
    }

    /// Without the `gpu` feature there is no GPU to open: [`NO_GPU_SUPPORT`] says so.
    #[cfg(not(feature = "gpu"))]
    fn open_gpu_for(&self, _threads: usize) -> Result<(), Error> {
        Err(Error::Gpu(NO_GPU_SUPPORT.into()))
    }

    /// What tells the progress callback, if there is one, how far a run of the tasks `ids`
    /// on the CPU threads has got: called with each task as it finishes, from any thread.
    pub(crate) fn progress_of<'b>(
        &'b self,
        job: &'b Job,
        ids: &[usize],
    ) -> impl Fn(usize) + Sync + 'b {
        let finished = AtomicUsize::new(0);
        let work_finished = AtomicU64::new(0);
        let work_total = ids.iter().map(|&i| job.weight(i)).sum();
        let total = ids.len();
        move |i| {
            if let Some(progress) = self.progress {
                let work = job.weight(i);
                progress(Progress {
                    done: finished.fetch_add(1, Ordering::Relaxed) + 1,
                    total,
                    work_done: work_finished.fetch_add(work, Ordering::Relaxed) + work,
                    work_total,
                });
            }
        }
    }

    /// [`Counter::run`] on the CPU threads.
    fn run_on_cpu(
        &self,
        job: &Job,
        ids: &[usize],
        on_task: &(dyn Fn(usize, u128) + Sync),
    ) -> Result<Vec<u128>, Error> {
        if !ids.is_empty() {
            job.plan.prepare(job.threads);
        }
        let report = self.progress_of(job, ids);
        // The largest tasks first, so that no thread starts a large one when the others are
        // about to run out of work (ties, and tasks without estimates, in task order).
        let mut order: Vec<usize> = (0..ids.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(job.weight(ids[k])));
        let largest_first: Vec<usize> = order.iter().map(|&k| ids[k]).collect();
        let cancelled = || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        let values = driver::run_some(
            job.threads,
            &largest_first,
            |i| {
                if cancelled() {
                    0
                } else {
                    job.plan.task_value(i)
                }
            },
            |i, value| {
                if cancelled() {
                    return;
                }
                on_task(i, value);
                report(i);
            },
        )?;
        if cancelled() {
            return Err(Error::Cancelled);
        }
        let mut in_order = vec![0; ids.len()];
        for (&k, value) in order.iter().zip(values) {
            in_order[k] = value;
        }
        Ok(in_order)
    }

    /// The count of `job` from the sum of all its tasks' values.
    pub fn finish(&self, job: &Job, units: u128) -> Count {
        let n = job.n;
        let solutions = units / job.plan.units_per_solution();
        Count {
            n,
            solutions,
            tasks: job.plan.len(),
            split_depth: job.split_depth,
            threads: job.threads,
            engine: job.engine,
            classes: self
                .unique
                .then(|| Classes::from_counts(n, solutions, rotation_fixed(n))),
            #[cfg(feature = "gpu")]
            adapter: job
                .gpu
                .as_ref()
                .filter(|_| job.gpu_fallback.get().is_none())
                .map(|gpu| gpu.adapter().clone()),
        }
    }
}

#[cfg(test)]
mod cancel_tests {
    use super::*;

    #[test]
    fn a_set_flag_stops_the_count_between_tasks() {
        let flag = AtomicBool::new(true);
        let counter = Counter::new().threads(2).cancel_on(&flag);
        assert_eq!(counter.count(12), Err(Error::Cancelled));
        flag.store(false, Ordering::Relaxed);
        assert_eq!(counter.count(12).map(|c| c.solutions), Ok(14_200));
    }
}
