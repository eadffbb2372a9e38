//! The counting engines and their task lists: one place that knows how each engine splits a
//! board and counts one task, so that the driver, progress, shards and checkpoints can treat
//! every engine alike.

use crate::error::Error;
use crate::join;
use crate::search::kernel::{self, Unblocked};
use crate::search::{full, sample, split};
pub use crate::symmetry::Symmetry;
use std::time::Duration;

/// Which engine counts a board: the one type every output, file and error names engines by.
///
/// A [`Counter`](crate::Counter) is given one, [`Engine::Auto`] by default; the count it
/// returns names the engine that really counted, never `Auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Engine {
    /// The join engine where it is faster and supported ([`join::AUTO_FROM`] to
    /// [`join::MAX_N`], within the memory limit), else the search with full symmetry.
    #[default]
    Auto,
    /// The bitmask backtracking search, with the [`Symmetry`] it exploits.
    Search(Symmetry),
    /// The join of half-boards ([`crate::join`]).
    Join,
    /// Counting on a GPU (`crate::gpu`, in builds with the `gpu` feature; without it, an
    /// error). With no symmetry, the join engine's tasks where the CPU would take the join
    /// (n = [`join::AUTO_FROM`] to [`join::MAX_N`]) and the full-symmetry search's elsewhere;
    /// with a [`Symmetry`], the search's tasks with that symmetry
    /// ([`Engine::tasks_engine`]). The tasks and their values are that engine's, so a count
    /// names it (and `Count::adapter` the GPU), and its journals and shards are its.
    Gpu(Option<Symmetry>),
}

impl Engine {
    /// The search with its default symmetry.
    pub const SEARCH: Engine = Engine::Search(Symmetry::Full);

    /// The engine's name, as the command line, the JSON reports, checkpoint journals and
    /// shard files spell it: `auto`, `search` or `join`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Auto => "auto",
            Engine::Search(_) => "search",
            Engine::Join => "join",
            Engine::Gpu(_) => "gpu",
        }
    }

    /// The search's symmetry; `None` for the other engines.
    pub fn symmetry(self) -> Option<Symmetry> {
        match self {
            Engine::Search(symmetry) | Engine::Gpu(Some(symmetry)) => Some(symmetry),
            _ => None,
        }
    }

    /// The engine of a name and, for the search, a symmetry (as [`Engine::name`] and
    /// [`Symmetry::name`] spell them); `None` for anything else.
    pub fn from_names(engine: &str, symmetry: Option<&str>) -> Option<Engine> {
        match (engine, symmetry) {
            ("auto", None) => Some(Engine::Auto),
            ("join", None) => Some(Engine::Join),
            ("search", Some(symmetry)) => Symmetry::from_name(symmetry).map(Engine::Search),
            ("gpu", None) => Some(Engine::Gpu(None)),
            ("gpu", Some(symmetry)) => Symmetry::from_name(symmetry).map(|s| Engine::Gpu(Some(s))),
            _ => None,
        }
    }

    /// The engine that counts the n x n board when `self` is asked for: `Auto` settled by the
    /// board size; an error when the join engine is asked for a size it does not count.
    /// [`Request::choose`] for n alone (no memory limit, no GPU named), except that a GPU
    /// asked for is taken as there and stays named [`Engine::Gpu`]: nothing is opened.
    pub fn settle(self, n: u32) -> Result<Engine, Error> {
        let choice = Request::new(self, n).choose(|| Ok(()))?;
        Ok(match (choice.gpu, self) {
            (Some(()), Engine::Gpu(_)) => self,
            _ => choice.engine,
        })
    }
}

impl Engine {
    /// The CPU engine whose tasks `self` counts on the n x n board: a GPU's are the search's
    /// with the symmetry asked, or with none asked the join's where `Auto` takes the join
    /// by size, else the full-symmetry search's; every other engine's are its own.
    pub fn tasks_engine(self, n: u32) -> Engine {
        match self {
            Engine::Gpu(Some(symmetry)) => Engine::Search(symmetry),
            Engine::Gpu(None) if join_by_size(n) => Engine::Join,
            Engine::Gpu(None) => Engine::SEARCH,
            other => other,
        }
    }
}

impl std::fmt::Display for Engine {
    /// `search (full symmetry)`, `join`, `auto`: how messages name an engine.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Engine::Search(symmetry) => write!(f, "search ({} symmetry)", symmetry.name()),
            Engine::Gpu(Some(symmetry)) => write!(f, "gpu ({} symmetry)", symmetry.name()),
            other => f.write_str(other.name()),
        }
    }
}

/// Whether `Auto` takes the join engine by board size alone: [`join::AUTO_FROM`] to
/// [`join::MAX_N`].
fn join_by_size(n: u32) -> bool {
    (join::AUTO_FROM..=join::MAX_N).contains(&n)
}

/// What [`Engine::Gpu`] says in a build without the `gpu` feature.
pub const NO_GPU_SUPPORT: &str =
    "this build has no GPU support; build one with `cargo build --release --features gpu`";

/// What a count asks of its engine: the inputs of [`Request::choose`], the one place a job's
/// engine, and what it falls back to, is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The engine asked for.
    pub engine: Engine,
    /// The board size (checked by the caller: the choice does not refuse a size).
    pub n: u32,
    /// Whether a GPU was named ([`Counter::gpu_adapter`](crate::Counter::gpu_adapter)): with
    /// [`Engine::Auto`], it is tried first.
    pub gpu_named: bool,
    /// The limit on the join engine's data, in bytes, if any.
    pub max_memory: Option<u64>,
    /// The worker threads the run will have (no more than its tasks), each of which holds a
    /// piece of the join engine's.
    pub threads: usize,
    /// What each worker thread holds besides the engine's data (its stack, the allocator's
    /// pages of its own), taken off the memory limit for each thread and added to the least
    /// an error names.
    pub thread_memory: u64,
}

/// Why a [`Choice`] took its engine: each step of [`Request::choose`] that decided something.
/// The library prints nothing; each fallback's doc quotes the line `nqueens count` says for it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// The engine asked for counts as asked. No note.
    Asked,
    /// `Auto` on a board the join engine counts fastest (`join::AUTO_FROM` to
    /// `join::MAX_N`). No note.
    JoinBySize,
    /// `Auto` on a board below or past those sizes: the search, full symmetry. No note.
    SearchBySize,
    /// `Auto` with a GPU named, which opened: it counts the tasks [`Engine::Gpu`] without a
    /// symmetry would. No note.
    GpuNamed,
    /// `Auto` with a GPU named that could not be opened (or a build without the `gpu`
    /// feature: [`NO_GPU_SUPPORT`]); the CPU engine `Auto` takes by size counts. The CLI says
    /// `warning: {error}; the CPU counted instead` once the count is done.
    GpuUnavailable(Error),
    /// `Auto` with a GPU that failed while it counted ([`Request::after_gpu_failure`]): the
    /// CPU counts the tasks it left. The CLI says `warning: {error}; the CPU counted instead`.
    GpuFailed(Error),
    /// `Auto` would take the join engine, but the memory limit holds not even its smallest
    /// pieces: the search, which needs next to none, counts instead. The CLI says `note:
    /// --max-memory LIMIT is too little for the join engine at n = N (it needs at least
    /// LEAST): the search counts instead, which takes longer` (LEAST from `needed`).
    JoinOverMemory {
        /// The least memory the join engine needs here ([`join::least_bytes`]).
        needed: u64,
        /// Its quarter table's share of that.
        table: u64,
    },
}

/// The engine a [`Request`] gets, and why.
#[derive(Debug)]
pub struct Choice<G> {
    /// The engine that counts: never [`Engine::Auto`] nor [`Engine::Gpu`] (a GPU counts the
    /// tasks of the engine [`Engine::tasks_engine`] names, which is then this).
    pub engine: Engine,
    /// The GPU that counts, if one does: what the request's `open_gpu` returned.
    pub gpu: Option<G>,
    /// The join engine's piece under the memory limit ([`join::DEFAULT_PIECE`] without one; at
    /// most [`join::DEVICE_PIECE`] on a GPU).
    pub piece: usize,
    /// Each step that decided, in the order taken: one reason, or a fallback and then the
    /// reason for the engine fallen back to.
    pub reasons: Vec<Reason>,
}

impl Request {
    /// A request for `engine` on the n x n board, with no GPU named, no memory limit, and one
    /// thread.
    pub fn new(engine: Engine, n: u32) -> Request {
        Request {
            engine,
            n,
            gpu_named: false,
            max_memory: None,
            threads: 1,
            thread_memory: 0,
        }
    }

    /// The one place a job's engine and its fallbacks are decided; `open_gpu` is called only
    /// when a GPU is to count. Rows are tried in order; "join fits" is `join::piece_for`.
    ///
    /// | asked | n | GPU | memory | engine | reasons (or error) |
    /// |---|---|---|---|---|---|
    /// | `Search(s)` | any | - | any | `Search(s)` | `Asked` |
    /// | `Join` | outside `MIN_N..=MAX_N` | - | any | - | `Error::Engine` |
    /// | `Join` | supported | - | fits or none | `Join` | `Asked` |
    /// | `Join` | supported | - | too little | - | `Error::Memory` |
    /// | `Gpu(Some(s))` | any | opens | any | `Search(s)` on the GPU | `Asked` |
    /// | `Gpu(None)` | `AUTO_FROM..=MAX_N` | opens | fits or none | `Join` on the GPU | `Asked` |
    /// | `Gpu(None)` | `AUTO_FROM..=MAX_N` | opens | too little | - | `Error::Memory` |
    /// | `Gpu(None)` | other | opens | any | `SEARCH` on the GPU | `Asked` |
    /// | `Gpu(_)` | any | fails, or no `gpu` feature | any | - | the GPU's error |
    /// | `Auto`, no GPU named | `AUTO_FROM..=MAX_N` | - | fits or none | `Join` | `JoinBySize` |
    /// | `Auto`, no GPU named | `AUTO_FROM..=MAX_N` | - | too little | `SEARCH` | `JoinBySize`, `JoinOverMemory` |
    /// | `Auto`, no GPU named | other | - | any | `SEARCH` | `SearchBySize` |
    /// | `Auto`, GPU named | any | opens | any | as `Gpu(None)`; too little memory for the join: `SEARCH` on the GPU | `GpuNamed` (then `JoinOverMemory`) |
    /// | `Auto`, GPU named | any | fails, or no `gpu` feature | any | as `Auto` with none named | `GpuUnavailable`, then its rows' |
    ///
    /// Threads matter only to the memory a join needs (a piece per thread; on a GPU, a piece of
    /// at most [`join::DEVICE_PIECE`] and [`join::DEVICE_BATCH_BYTES`] per host thread). A
    /// GPU that fails
    /// while counting is [`Request::after_gpu_failure`]'s.
    pub fn choose<G>(
        &self,
        open_gpu: impl FnOnce() -> Result<G, Error>,
    ) -> Result<Choice<G>, Error> {
        let mut reasons = Vec::new();
        let on_gpu = match self.engine {
            Engine::Auto if self.gpu_named => Some((Engine::Gpu(None), Reason::GpuNamed)),
            Engine::Gpu(_) => Some((self.engine, Reason::Asked)),
            _ => None,
        };
        if let Some((asked, reason)) = on_gpu {
            match open_gpu() {
                Ok(gpu) => {
                    // The host's threads make the join's half-boards, a device's piece at a
                    // time each.
                    let mut choice = self.within_memory(
                        asked.tasks_engine(self.n),
                        vec![reason],
                        join::DEVICE_BATCH_BYTES,
                    )?;
                    choice.gpu = Some(gpu);
                    choice.piece = choice.piece.min(join::DEVICE_PIECE);
                    return Ok(choice);
                }
                Err(error) if self.engine == Engine::Auto => {
                    reasons.push(Reason::GpuUnavailable(error));
                }
                Err(error) => return Err(error),
            }
        }
        let engine = match self.engine {
            Engine::Join if !join::supports(self.n) => {
                return Err(Error::Engine(format!(
                    "the join engine counts boards of {} to {} (n = {})",
                    join::MIN_N,
                    join::MAX_N,
                    self.n
                )));
            }
            // A GPU asked for has returned above, opened or failed.
            Engine::Auto | Engine::Gpu(_) if join_by_size(self.n) => {
                reasons.push(Reason::JoinBySize);
                Engine::Join
            }
            Engine::Auto | Engine::Gpu(_) => {
                reasons.push(Reason::SearchBySize);
                Engine::SEARCH
            }
            asked => {
                reasons.push(Reason::Asked);
                asked
            }
        };
        self.within_memory(engine, reasons, 0)
    }

    /// [`Request::choose`]'s last step: the join engine's piece under the memory limit, or,
    /// for `Auto`, the search when not even the smallest fits.
    /// `reserve`: what else each thread holds (a GPU's batches), taken off the limit first
    /// with [`Request::thread_memory`] and added to the least an error names.
    fn within_memory<G>(
        &self,
        engine: Engine,
        mut reasons: Vec<Reason>,
        reserve: u64,
    ) -> Result<Choice<G>, Error> {
        let mut choice = Choice {
            engine,
            gpu: None,
            piece: join::DEFAULT_PIECE,
            reasons: Vec::new(),
        };
        if let (Engine::Join, Some(limit)) = (engine, self.max_memory) {
            let reserve = reserve
                .saturating_add(self.thread_memory)
                .saturating_mul(self.threads as u64);
            let fit = join::piece_for(self.n, limit.saturating_sub(reserve), self.threads);
            let fit = fit.map_err(|error| match error {
                Error::Memory { needed, table } => Error::Memory {
                    needed: needed.saturating_add(reserve),
                    table,
                },
                other => other,
            });
            match fit {
                Ok(piece) => choice.piece = piece,
                Err(Error::Memory { needed, table }) if self.engine == Engine::Auto => {
                    choice.engine = Engine::SEARCH;
                    reasons.push(Reason::JoinOverMemory { needed, table });
                }
                Err(error) => return Err(error),
            }
        }
        choice.reasons = reasons;
        Ok(choice)
    }

    /// What a count whose GPU failed with `error` while it ran does: the reason the CPU
    /// counts the tasks the GPU left, or the error that ends the count (a cancellation
    /// always; any error unless [`Request::choose`] falls back from a GPU that fails, which
    /// it asks). The engine is kept, not chosen again: the finished tasks are the engine's
    /// whose tasks the GPU counted (the search's or the join's), numbered and valued as its
    /// plan says, so only that engine can count the rest.
    pub fn after_gpu_failure(&self, error: Error) -> Result<Reason, Error> {
        if error == Error::Cancelled {
            return Err(error);
        }
        let failing = error.clone();
        // Only a request that falls back from a GPU that cannot count does so here: a search
        // or join request never had a GPU to lose, and its GPU error is the count's.
        match self.choose(|| Err::<(), _>(failing)) {
            Ok(choice)
                if choice
                    .reasons
                    .iter()
                    .any(|r| matches!(r, Reason::GpuUnavailable(_))) =>
            {
                Ok(Reason::GpuFailed(error))
            }
            _ => Err(error),
        }
    }
}

/// The numbered tasks of one count.
pub enum Plan {
    /// Prefixes of the first rows.
    Mirror(Vec<split::Task>),
    /// Canonical first-row cases, possibly split by further rows.
    Full(Vec<full::FullTask>),
    /// Sets of rows whose queens stand in the west half, grouped by their first rows.
    Join(join::Plan),
}

impl Plan {
    /// The most tasks a plan of the search holds: a split depth that would make more is
    /// lowered to the deepest that makes no more ([`Plan::effective_depth`]). Every task is
    /// held from the start, with its weight and its value (some 200 bytes a task in all, the
    /// full symmetry's rules shared); n = 16 split at 8 rows would make 5.8 million tasks and
    /// n = 32 billions. A million tasks is far more than any count's threads, shards or MPI
    /// ranks need.
    pub const MAX_TASKS: usize = 1 << 20;

    /// The tasks of the n x n board for a settled `engine` (see [`Engine::settle`]), split at
    /// `depth` rows, or as deep as the board and [`Plan::MAX_TASKS`] allow
    /// ([`Plan::effective_depth`]). The full-symmetry search splits boards below 8 x 8 by the
    /// mirror image. An error for a board size out of range, and for the join engine on a
    /// board it does not count.
    pub fn new(n: u32, engine: Engine, depth: u32) -> Result<Plan, Error> {
        let engine = engine.tasks_engine(n);
        let depth = Plan::effective_depth(n, engine, depth)?;
        Ok(match engine {
            Engine::Search(Symmetry::Full) if n >= full::MIN_N => Plan::Full(full::tasks(n, depth)),
            Engine::Join => Plan::Join(join::Plan::new(n, depth)),
            Engine::Auto | Engine::Search(_) | Engine::Gpu(_) => {
                Plan::Mirror(split::tasks(n, depth))
            }
        })
    }

    /// Whether `engine` makes plans of the n x n board: an error for a board size out of
    /// range, and for the join engine on a board it does not count.
    fn check(n: u32, engine: Engine) -> Result<(), Error> {
        Error::check_board_size(n)?;
        let engine = engine.tasks_engine(n);
        if engine == Engine::Join {
            engine.settle(n)?;
        }
        Ok(())
    }

    /// The split depth the board allows when `depth` is asked for, before the cap on the
    /// number of tasks: each engine clamps it to the rows it can place in advance.
    pub fn clamp_depth(n: u32, engine: Engine, depth: u32) -> Result<u32, Error> {
        Plan::check(n, engine)?;
        let engine = engine.tasks_engine(n);
        Ok(match engine {
            Engine::Search(Symmetry::Full) if n >= full::MIN_N => full::clamp_depth(n, depth),
            Engine::Join => join::clamp_depth(n, depth),
            Engine::Auto | Engine::Search(_) | Engine::Gpu(_) => split::clamp_depth(n, depth),
        })
    }

    /// The split depth a plan for the n x n board really uses when `depth` is asked for:
    /// clamped to what the board allows ([`Plan::clamp_depth`]), then, for the search, lowered
    /// while it would make more than [`Plan::MAX_TASKS`] tasks (counted without building
    /// them). It depends on n, the engine and `depth` alone, so a journal or a shard file
    /// that records it finds the same tasks again.
    pub fn effective_depth(n: u32, engine: Engine, depth: u32) -> Result<u32, Error> {
        Plan::depth_of_at_most(n, engine, depth, Plan::MAX_TASKS)
    }

    /// The split depth the board allows when `depth` is asked for ([`Plan::clamp_depth`]),
    /// lowered for the search while it would make more than `most` tasks (counted without
    /// building them). The join engine's depth is never lowered.
    fn depth_of_at_most(n: u32, engine: Engine, depth: u32, most: usize) -> Result<u32, Error> {
        let mut depth = Plan::clamp_depth(n, engine, depth)?;
        let engine = engine.tasks_engine(n);
        if engine == Engine::Join {
            return Ok(depth);
        }
        while depth > 1 && Plan::search_tasks_up_to(n, engine, depth, most + 1) > most {
            depth -= 1;
        }
        // Odd boards' mirror split needs two rows whatever was asked (and makes at most
        // 32 * 31 tasks there).
        Plan::clamp_depth(n, engine, depth)
    }

    /// How many tasks the search's plan of the n x n board split at `depth` rows has,
    /// counting no further than `cap` (n and the engine checked by the caller).
    fn search_tasks_up_to(n: u32, engine: Engine, depth: u32, cap: usize) -> usize {
        match engine {
            Engine::Search(Symmetry::Full) if n >= full::MIN_N => full::count_up_to(n, depth, cap),
            _ => split::Prefixes::new(n, split::clamp_depth(n, depth), true).count_up_to(cap),
        }
    }

    /// The most a search task takes while a count runs (the task, its weight and its value),
    /// rounded up: what [`Plan::memory_bytes`] counts for the search's plans.
    pub const SEARCH_TASK_BYTES: u64 = 256;

    /// The split depth of [`Plan::effective_depth`], lowered further for the search while its
    /// tasks would take more than `memory` bytes ([`Plan::SEARCH_TASK_BYTES`] each; counted
    /// without building them). The join engine's depth is not lowered: its memory is its
    /// table and pieces, which [`crate::Counter::max_memory`] bounds otherwise.
    pub fn depth_within(n: u32, engine: Engine, depth: u32, memory: u64) -> Result<u32, Error> {
        let fit = usize::try_from(memory / Plan::SEARCH_TASK_BYTES).unwrap_or(usize::MAX);
        Plan::depth_of_at_most(n, engine, depth, fit.min(Plan::MAX_TASKS))
    }

    /// The shallowest split that gives every one of `threads` threads many tasks.
    pub fn auto_depth(n: u32, engine: Engine, threads: usize) -> Result<u32, Error> {
        Plan::check(n, engine)?;
        let engine = engine.tasks_engine(n);
        if engine == Engine::Join {
            return Ok(join::auto_depth(n));
        }
        // Eight tasks per thread (and at least 64) keep the idle tail of a run short.
        let wanted = (threads.clamp(1, crate::limits::MAX_THREADS) * 8).max(64);
        let deepest = Plan::clamp_depth(n, engine, split::MAX_DEPTH)?;
        // The first depth with enough tasks has fewer than `wanted` times 32: far below
        // the cap. Counted without building them.
        Ok((1..=deepest)
            .find(|&depth| Plan::search_tasks_up_to(n, engine, depth, wanted) >= wanted)
            .unwrap_or(deepest))
    }

    /// Builds what the tasks share before they run, on `threads` threads: the join engine's
    /// quarter table. The search shares nothing.
    pub fn prepare(&self, threads: usize) {
        if let Plan::Join(plan) = self {
            plan.prepare(threads);
        }
    }

    /// How many tasks there are.
    pub fn len(&self) -> usize {
        match self {
            Plan::Mirror(tasks) => tasks.len(),
            Plan::Full(tasks) => tasks.len(),
            Plan::Join(plan) => plan.len(),
        }
    }

    /// Whether there are none (a board without solutions may have no task at all).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// An error unless `index` is a task of the plan.
    pub fn check_task(&self, index: usize) -> Result<(), Error> {
        match self.len() {
            0 => Err(Error::Task(format!("task {index}: this plan has no tasks"))),
            len if index >= len => Err(Error::Task(format!(
                "task {index} is out of range: this plan has {len} tasks, 0 to {}",
                len - 1
            ))),
            _ => Ok(()),
        }
    }

    /// An error unless `part` is a part of task `index` of the plan.
    pub(crate) fn check_part(&self, index: usize, part: usize) -> Result<(), Error> {
        self.check_task(index)?;
        let parts = self.task_parts(index);
        if part >= parts {
            return Err(Error::Task(format!(
                "part {part} of task {index} is out of range: the task has {parts} part{}",
                if parts == 1 { "" } else { "s" }
            )));
        }
        Ok(())
    }

    /// What one solution is worth in the values of [`Plan::run`]: the sum of all tasks'
    /// values divided by this is the number of solutions.
    pub fn units_per_solution(&self) -> u128 {
        match self {
            Plan::Mirror(_) | Plan::Join(_) => 1,
            Plan::Full(_) => full::UNITS_PER_SOLUTION,
        }
    }

    /// The value of task `index`: the solutions it stands for, in units of
    /// [`Plan::units_per_solution`]. An error for a task the plan does not have.
    pub fn run(&self, index: usize) -> Result<u128, Error> {
        self.check_task(index)?;
        Ok(self.task_value(index))
    }

    /// [`Plan::run`] for a task known to be the plan's.
    ///
    /// # Panics
    ///
    /// When `index` is not below [`Plan::len`].
    pub(crate) fn task_value(&self, index: usize) -> u128 {
        match self {
            Plan::Mirror(tasks) => {
                let task = &tasks[index];
                u128::from(kernel::count(task.board)) * u128::from(task.multiplicity)
            }
            Plan::Full(tasks) => {
                let task = &tasks[index];
                u128::from(kernel::count_with(task.board, &*task.rules))
            }
            Plan::Join(plan) => plan.run(index),
        }
    }

    /// The most memory the plan's engine holds on `threads` threads, besides the program:
    /// the join engine's quarter table and pieces; the search's tasks
    /// ([`Plan::SEARCH_TASK_BYTES`] each: next to nothing unless split deep).
    pub fn memory_bytes(&self, threads: usize) -> u64 {
        match self {
            Plan::Join(plan) => plan.memory_bytes(threads),
            Plan::Mirror(_) | Plan::Full(_) => self.len() as u64 * Plan::SEARCH_TASK_BYTES,
        }
    }

    /// How many parts task `index` can be run in, one at a time ([`Plan::run_part`]): the
    /// join engine's units; the search's tasks are one part each.
    pub fn parts(&self, index: usize) -> Result<usize, Error> {
        self.check_task(index)?;
        Ok(self.task_parts(index))
    }

    /// [`Plan::parts`] of a task known to be the plan's (panics otherwise).
    pub(crate) fn task_parts(&self, index: usize) -> usize {
        match self {
            Plan::Join(plan) => plan.parts(index),
            Plan::Mirror(_) | Plan::Full(_) => 1,
        }
    }

    /// The value of part `part` of task `index`: a task's value is the sum over its parts.
    pub fn run_part(&self, index: usize, part: usize) -> Result<u128, Error> {
        self.check_part(index, part)?;
        Ok(match self {
            Plan::Join(plan) => plan.run_part(index, part),
            Plan::Mirror(_) | Plan::Full(_) => self.task_value(index),
        })
    }

    /// An estimate of the time part `part` of task `index` takes, in `clock`'s time (the
    /// time of the calling thread so far, from any fixed start), drawn by `seed`: unbiased,
    /// and each call takes at most some milliseconds of the search, or one pair of pieces of
    /// the join engine. The join engine's units of many pieces time one pair of pieces,
    /// scaled ([`join::Plan::time_part`]); the search's tasks time one subtree small enough
    /// to count in milliseconds, reached by a random walk down the task's first rows and
    /// scaled by the choices on the way (Knuth's estimator), or the whole task when it is
    /// that small.
    pub fn time_part(
        &self,
        index: usize,
        part: usize,
        seed: u64,
        clock: &dyn Fn() -> Duration,
    ) -> Result<Duration, Error> {
        self.check_part(index, part)?;
        Ok(self.task_time_part(index, part, seed, clock))
    }

    /// Whether [`Plan::time_part`] times a part as a whole, so that a sample that has timed
    /// as many parts as the plan has is as good as a census: the join engine's units (all
    /// but those of many pieces). The search's tasks are timed by a random subtree, so
    /// drawing one again adds to what is known.
    pub(crate) fn parts_timed_whole(&self) -> bool {
        matches!(self, Plan::Join(_))
    }

    /// [`Plan::time_part`] of a part known to be the plan's (panics otherwise).
    pub(crate) fn task_time_part(
        &self,
        index: usize,
        part: usize,
        seed: u64,
        clock: &dyn Fn() -> Duration,
    ) -> Duration {
        match self {
            Plan::Join(plan) => plan.time_part(index, part, seed, clock),
            Plan::Mirror(tasks) => sample::time(tasks[index].board, &Unblocked, seed, clock),
            Plan::Full(tasks) => {
                sample::time(tasks[index].board, &*tasks[index].rules, seed, clock)
            }
        }
    }

    /// Readies the calling thread to time part `part` of task `index` with
    /// [`Plan::task_time_part`]: the join engine runs it once, untimed, where it times it
    /// whole, so that the thread's buffers have grown to it; the search holds none.
    pub(crate) fn warm_part(&self, index: usize, part: usize) {
        if let Plan::Join(plan) = self {
            plan.warm_part(index, part);
        }
    }

    /// The estimated size of part `part` of task `index`, in the units of [`Plan::weight`]:
    /// a task's weight is the sum over its parts.
    pub fn part_weight(&self, index: usize, part: usize) -> Result<u64, Error> {
        self.check_part(index, part)?;
        Ok(self.task_part_weight(index, part))
    }

    /// [`Plan::part_weight`] of a part known to be the plan's (panics otherwise).
    pub(crate) fn task_part_weight(&self, index: usize, part: usize) -> u64 {
        match self {
            Plan::Join(plan) => plan.part_weight(index, part),
            Plan::Mirror(_) | Plan::Full(_) => self.task_weight(index),
        }
    }

    /// The nodes (queens placed) the search of task `index` visits, for a benchmark's nodes
    /// per second; runs the task again with a counting build of the search. The join engine
    /// searches no tree: `None`. An error for a task the plan does not have.
    pub fn nodes(&self, index: usize) -> Result<Option<u64>, Error> {
        self.check_task(index)?;
        Ok(match self {
            Plan::Mirror(tasks) => Some(kernel::nodes_with(tasks[index].board, &Unblocked)),
            Plan::Full(tasks) => Some(kernel::nodes_with(tasks[index].board, &*tasks[index].rules)),
            Plan::Join(_) => None,
        })
    }

    /// An estimate of task `index`'s size (at least 1), from random probes of its search,
    /// seeded by the task number so that every machine computes the
    /// same weights (shards are balanced by them).
    /// The join engine estimates from the sizes of its half-boards' sources instead
    /// ([`join::Plan::weight`]). An error for a task the plan does not have.
    pub fn weight(&self, index: usize) -> Result<u64, Error> {
        self.check_task(index)?;
        Ok(self.task_weight(index))
    }

    /// [`Plan::weight`] of a task known to be the plan's (panics otherwise).
    pub(crate) fn task_weight(&self, index: usize) -> u64 {
        const PROBES: u32 = 64;
        let seed = 0x9e37_79b9_7f4a_7c15 ^ (index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
        let nodes = match self {
            Plan::Mirror(tasks) => kernel::estimate(tasks[index].board, &Unblocked, PROBES, seed),
            Plan::Full(tasks) => {
                let task = &tasks[index];
                kernel::estimate(task.board, &*task.rules, PROBES, seed)
            }
            Plan::Join(plan) => return plan.weight(index),
        };
        (nodes as u64).max(1)
    }
}
