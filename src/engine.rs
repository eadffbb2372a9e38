//! The counting engines and their task lists: one place that knows how each engine splits a
//! board and counts one task, so that the driver, progress, shards and checkpoints can treat
//! every engine alike.

use crate::error::Error;
use crate::join;
use crate::search::kernel;
use crate::search::{full, split};

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
    /// The search's own tasks, with the [`Symmetry`] it exploits, counted on a GPU
    /// (`crate::gpu`, in builds with the `gpu` feature; without it, an error). Its tasks and
    /// their values are the search's, so a count it makes names [`Engine::Search`] (and
    /// `Count::adapter` the GPU), and its journals and shards are the search's.
    Gpu(Symmetry),
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
            Engine::Search(symmetry) | Engine::Gpu(symmetry) => Some(symmetry),
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
            ("gpu", Some(symmetry)) => Symmetry::from_name(symmetry).map(Engine::Gpu),
            _ => None,
        }
    }

    /// The engine that counts the n x n board when `self` is asked for: `Auto` settled by the
    /// board size; an error when the join engine is asked for a size it does not count.
    pub fn settle(self, n: u32) -> Result<Engine, Error> {
        match self {
            Engine::Join if !join::supports(n) => Err(Error::Engine(format!(
                "the join engine counts boards of {} to {} (n = {n})",
                join::MIN_N,
                join::MAX_N
            ))),
            Engine::Auto if (join::AUTO_FROM..=join::MAX_N).contains(&n) => Ok(Engine::Join),
            Engine::Auto => Ok(Engine::SEARCH),
            settled => Ok(settled),
        }
    }
}

impl std::fmt::Display for Engine {
    /// `search (full symmetry)`, `join`, `auto`: how messages name an engine.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Engine::Search(symmetry) => write!(f, "search ({} symmetry)", symmetry.name()),
            Engine::Gpu(symmetry) => write!(f, "gpu ({} symmetry)", symmetry.name()),
            other => f.write_str(other.name()),
        }
    }
}

/// Which symmetry the counting search exploits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// The first row halved by the mirror image: the textbook method, kept as a second,
    /// independent search.
    Mirror,
    /// All eight symmetries of the square: about one board per class of eight is searched
    /// (`src/search/full.rs`). The default; boards below 8 x 8 use the mirror split.
    #[default]
    Full,
}

impl Symmetry {
    /// The symmetry's name: `full` or `mirror`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Mirror => "mirror",
            Symmetry::Full => "full",
        }
    }

    /// The symmetry of a name as [`Symmetry::name`] spells it.
    pub fn from_name(name: &str) -> Option<Symmetry> {
        [Symmetry::Full, Symmetry::Mirror]
            .into_iter()
            .find(|s| s.name() == name)
    }
}

/// What [`Engine::Gpu`] says in a build without the `gpu` feature.
pub const NO_GPU_SUPPORT: &str =
    "this build has no GPU support; build one with `cargo build --release --features gpu`";

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
    /// The tasks of the n x n board for a settled `engine` (see [`Engine::settle`]), split at
    /// `depth` rows. The full-symmetry search splits boards below 8 x 8 by the
    /// mirror image.
    ///
    /// # Panics
    ///
    /// For [`Engine::Join`] on a board the join engine does not count: [`Engine::settle`]
    /// never gives it one.
    pub fn new(n: u32, engine: Engine, depth: u32) -> Plan {
        match engine {
            Engine::Search(Symmetry::Full) | Engine::Gpu(Symmetry::Full) if n >= full::MIN_N => {
                Plan::Full(full::tasks(n, depth))
            }
            Engine::Join => Plan::Join(join::Plan::new(n, depth)),
            Engine::Auto | Engine::Search(_) | Engine::Gpu(_) => {
                Plan::Mirror(split::tasks(n, depth))
            }
        }
    }

    /// The split depth a plan for the n x n board really uses when `depth` is asked for:
    /// each engine clamps it to what the board allows.
    pub fn effective_depth(n: u32, engine: Engine, depth: u32) -> u32 {
        match engine {
            Engine::Search(Symmetry::Full) | Engine::Gpu(Symmetry::Full) if n >= full::MIN_N => {
                full::clamp_depth(n, depth)
            }
            Engine::Join => join::clamp_depth(n, depth),
            Engine::Auto | Engine::Search(_) | Engine::Gpu(_) => split::clamp_depth(n, depth),
        }
    }

    /// The shallowest split that gives every one of `threads` threads many tasks.
    pub fn auto_depth(n: u32, engine: Engine, threads: usize) -> u32 {
        // Eight tasks per thread (and at least 64) keep the idle tail of a run short.
        let wanted = (threads.max(1) * 8).max(64);
        let deepest = Plan::effective_depth(n, engine, split::MAX_DEPTH);
        if engine == Engine::Join {
            return join::auto_depth(n);
        }
        (1..=deepest)
            .find(|&depth| Plan::new(n, engine, depth).len() >= wanted)
            .unwrap_or(deepest)
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

    /// What one solution is worth in the values of [`Plan::run`]: the sum of all tasks'
    /// values divided by this is the number of solutions.
    pub fn units_per_solution(&self) -> u128 {
        match self {
            Plan::Mirror(_) | Plan::Join(_) => 1,
            Plan::Full(_) => full::UNITS_PER_SOLUTION,
        }
    }

    /// The value of task `index`: the solutions it stands for, in units of
    /// [`Plan::units_per_solution`].
    pub fn run(&self, index: usize) -> u128 {
        match self {
            Plan::Mirror(tasks) => {
                let task = &tasks[index];
                u128::from(kernel::count(task.board)) * u128::from(task.multiplicity)
            }
            Plan::Full(tasks) => {
                let task = &tasks[index];
                u128::from(kernel::count_with(task.board, &task.rules))
            }
            Plan::Join(plan) => plan.run(index),
        }
    }

    /// The most memory the plan's engine holds on `threads` threads, besides the program:
    /// the join engine's quarter table and pieces; the search holds next to nothing (0).
    pub fn memory_bytes(&self, threads: usize) -> u64 {
        match self {
            Plan::Join(plan) => plan.memory_bytes(threads),
            Plan::Mirror(_) | Plan::Full(_) => 0,
        }
    }

    /// How many parts task `index` can be run in, one at a time ([`Plan::run_part`]): the
    /// join engine's units; the search's tasks are one part each.
    pub fn parts(&self, index: usize) -> usize {
        match self {
            Plan::Join(plan) => plan.parts(index),
            Plan::Mirror(_) | Plan::Full(_) => 1,
        }
    }

    /// The value of part `part` of task `index`: a task's value is the sum over its parts.
    pub fn run_part(&self, index: usize, part: usize) -> u128 {
        match self {
            Plan::Join(plan) => plan.run_part(index, part),
            Plan::Mirror(_) | Plan::Full(_) => self.run(index),
        }
    }

    /// An estimate of the time part `part` of task `index` takes, in `clock`'s time (the
    /// time of the calling thread so far, from any fixed start): the part timed as it runs,
    /// or, for the join engine's units of many pieces, one pair of pieces drawn by `seed`,
    /// scaled ([`join::Plan::time_part`]).
    pub fn time_part(
        &self,
        index: usize,
        part: usize,
        seed: u64,
        clock: &dyn Fn() -> std::time::Duration,
    ) -> std::time::Duration {
        if let Plan::Join(plan) = self {
            return plan.time_part(index, part, seed, clock);
        }
        let start = clock();
        std::hint::black_box(self.run_part(index, part));
        clock().saturating_sub(start)
    }

    /// The estimated size of part `part` of task `index`, in the units of [`Plan::weight`]:
    /// a task's weight is the sum over its parts.
    pub fn part_weight(&self, index: usize, part: usize) -> u64 {
        match self {
            Plan::Join(plan) => plan.part_weight(index, part),
            Plan::Mirror(_) | Plan::Full(_) => self.weight(index),
        }
    }

    /// The nodes (queens placed) the search of task `index` visits, for a benchmark's nodes
    /// per second; runs the task again with a counting build of the search. The join engine
    /// searches no tree: `None`.
    pub fn nodes(&self, index: usize) -> Option<u64> {
        match self {
            Plan::Mirror(tasks) => Some(kernel::nodes_with(tasks[index].board, &kernel::Unblocked)),
            Plan::Full(tasks) => Some(kernel::nodes_with(tasks[index].board, &tasks[index].rules)),
            Plan::Join(_) => None,
        }
    }

    /// An estimate of task `index`'s size (at least 1), from random probes of its search,
    /// seeded by the task number so that every machine computes the
    /// same weights (shards are balanced by them).
    /// The join engine estimates from the sizes of its half-boards' sources instead
    /// ([`join::Plan::weight`]).
    pub fn weight(&self, index: usize) -> u64 {
        const PROBES: u32 = 64;
        let seed = 0x9e37_79b9_7f4a_7c15 ^ (index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
        let nodes = match self {
            Plan::Mirror(tasks) => {
                kernel::estimate(tasks[index].board, &kernel::Unblocked, PROBES, seed)
            }
            Plan::Full(tasks) => {
                let task = &tasks[index];
                kernel::estimate(task.board, &task.rules, PROBES, seed)
            }
            Plan::Join(plan) => return plan.weight(index),
        };
        (nodes as u64).max(1)
    }
}
