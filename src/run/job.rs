//! A count made ready to run ([`Job`]) and how far a run has got ([`Progress`]).

use super::deal::partition;
use super::driver;
use crate::engine::{Engine, Plan, Reason};
use crate::error::Error;
use std::sync::OnceLock;

/// How far a count has got; passed to the progress callback after every finished task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Tasks finished so far.
    pub done: usize,
    /// Tasks in the whole run.
    pub total: usize,
    /// The estimated work of the finished tasks (see [`Plan::weight`]): tasks differ in size
    /// by orders of magnitude, so this, not `done`, is what an ETA should follow.
    pub work_done: u64,
    /// The estimated work of the whole run.
    pub work_total: u64,
}

/// A count made ready to run: the plan of numbered tasks and their estimated sizes.
pub struct Job {
    /// The board size.
    pub n: u32,
    /// The engine that counts, settled for this `n` (never [`Engine::Auto`]).
    pub engine: Engine,
    /// The split depth the plan uses.
    pub split_depth: u32,
    /// Worker threads.
    pub threads: usize,
    /// The tasks.
    pub plan: Plan,
    /// Each task's estimated size ([`Plan::weight`]) once [`Job::estimate_weights`] has run,
    /// else 1 for every task.
    pub(crate) weights: Vec<u64>,
    pub(crate) estimated: bool,
    /// The GPU that counts the tasks, if one does ([`Engine::Gpu`]; `engine` is then the
    /// search whose tasks it counts).
    #[cfg(feature = "gpu")]
    pub gpu: Option<crate::gpu::Gpu>,
    /// Why the GPU asked for with [`Engine::Auto`] and [`Counter::gpu_adapter`](crate::Counter::gpu_adapter) did not count
    /// (it could not be opened, or failed during the run: the CPU then counted the rest).
    pub gpu_fallback: OnceLock<Error>,
    /// Why `engine` counts, as [`Request::choose`](crate::engine::Request::choose) decided
    /// when the job was prepared (a GPU failing later is in `gpu_fallback`).
    pub reasons: Vec<Reason>,
}

impl Job {
    /// Estimates every task's size ([`Plan::weight`]) on the job's threads: what shards are
    /// dealt by, what an ETA follows, and what lets [`Counter::run`](crate::Counter::run) start the largest tasks
    /// first. A separate step because the estimate costs a few probes a task: nothing on long
    /// runs, but more than the count itself on small boards. Runs once; later calls are free.
    pub fn estimate_weights(&mut self) -> Result<(), Error> {
        // A plan put in place of the one weighed (`plan` is a public field) is weighed anew.
        if !self.estimated || self.weights.len() != self.plan.len() {
            let plan = &self.plan;
            plan.prepare(self.threads);
            let weights = driver::run(
                self.threads,
                plan.len(),
                |i| plan.task_weight(i).into(),
                |_, _| {},
            )?;
            self.weights = weights.into_iter().map(|w| w as u64).collect();
            self.estimated = true;
        }
        Ok(())
    }

    /// Each task's estimated size, or 1 for every task before [`Job::estimate_weights`].
    pub fn weights(&self) -> &[u64] {
        &self.weights
    }

    /// Task `id`'s estimated size; 1 for a task the weights do not cover (a plan put in
    /// place of the one they were made for).
    pub(crate) fn weight(&self, id: usize) -> u64 {
        self.weights.get(id).copied().unwrap_or(1)
    }

    /// The tasks of shard `index` of `shards` (0 <= index < shards <= the number of tasks),
    /// dealt by estimated size ([`partition`](super::deal::partition)): estimates the weights
    /// first, so every machine deals the same shards. More shards than tasks is refused before
    /// anything is estimated or allocated.
    pub fn shard(&mut self, index: usize, shards: usize) -> Result<Vec<usize>, Error> {
        self.check_shard(index, shards)?;
        self.estimate_weights()?;
        partition(&self.weights, index, shards)
    }

    /// An error ([`Error::Shard`]) unless shard `index` of `shards` is one of this job's:
    /// `index` below `shards`, and `shards` at most the number of tasks.
    pub fn check_shard(&self, index: usize, shards: usize) -> Result<(), Error> {
        if index >= shards {
            return Err(Error::Shard(format!(
                "shard {index}/{shards}: it must be below {shards}"
            )));
        }
        if shards > self.plan.len() {
            return Err(Error::Shard(self.too_many_shards(shards)));
        }
        Ok(())
    }

    /// Why `shards` shards are refused for this job (more than its tasks).
    pub fn too_many_shards(&self, shards: usize) -> String {
        format!(
            "{shards} shards for {} tasks (n = {}, engine {}, split depth {}): at most one \
             shard per task",
            self.plan.len(),
            self.n,
            self.engine.name(),
            self.split_depth
        )
    }
}
