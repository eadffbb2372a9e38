//! The counting engines and their task lists: one place that knows how each engine splits a
//! board and counts one task, so that the driver, progress, shards and checkpoints can treat
//! every engine alike.

use crate::error::Error;
use crate::kernel;
use crate::{full, join, split};

/// Which engine counts: the backtracking search or the join of half-boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Engine {
    /// The join engine where it is faster and supported ([`join::AUTO_FROM`] to
    /// [`join::MAX_N`], within the memory limit), else the search. The default.
    #[default]
    Auto,
    /// The bitmask backtracking search, with the [`Symmetry`] asked for.
    Dfs,
    /// The join of half-boards ([`crate::join`]).
    Join,
    /// The search's tasks, with the [`Symmetry`] asked for, counted on a GPU (`crate::gpu`,
    /// built with the `gpu` feature; without it, counting with this engine is an error).
    Gpu,
}

impl Engine {
    /// The engine's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Auto => "auto",
            Engine::Dfs => "dfs",
            Engine::Join => "join",
            Engine::Gpu => "gpu",
        }
    }
}

/// What [`Engine::Gpu`] says in a build without the `gpu` feature.
pub const NO_GPU_SUPPORT: &str =
    "this build has no GPU support; build one with `cargo build --release --features gpu`";

/// What counts the tasks of one board: an engine settled for one `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// The search, first row halved by the mirror image.
    Mirror,
    /// The search, one board per class of eight.
    Full,
    /// The join of half-boards.
    Join,
}

impl Method {
    /// The method of `engine` (and `symmetry`, for the search) on the n x n board; an error
    /// when the join engine is asked for a size it does not count.
    pub fn choose(n: u32, engine: Engine, symmetry: Symmetry) -> Result<Method, Error> {
        let search = match symmetry {
            Symmetry::Full => Method::Full,
            Symmetry::Mirror => Method::Mirror,
        };
        match engine {
            Engine::Dfs | Engine::Gpu => Ok(search),
            Engine::Join if join::supports(n) => Ok(Method::Join),
            Engine::Join => Err(Error::Engine(format!(
                "the join engine counts boards of {} to {} (n = {n}): use --engine dfs",
                join::MIN_N,
                join::MAX_N
            ))),
            Engine::Auto if (join::AUTO_FROM..=join::MAX_N).contains(&n) => Ok(Method::Join),
            Engine::Auto => Ok(search),
        }
    }

    /// The name run identities and reports use: `join`, `full` or `mirror`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Mirror => "mirror",
            Method::Full => "full",
            Method::Join => "join",
        }
    }

    /// The engine this method belongs to.
    pub fn engine(self) -> Engine {
        match self {
            Method::Join => Engine::Join,
            Method::Mirror | Method::Full => Engine::Dfs,
        }
    }
}

/// Which symmetry the counting search exploits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// The first row halved by the mirror image: the textbook method, kept as a second,
    /// independent engine.
    Mirror,
    /// All eight symmetries of the square: about one board per class of eight is searched
    /// ([`crate::full`]). The default; boards below 8 x 8 use the mirror split.
    #[default]
    Full,
}

impl Symmetry {
    /// The engine's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Mirror => "mirror",
            Symmetry::Full => "full",
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
    /// The tasks of the n x n board for `method`, split at `depth` rows.
    ///
    /// # Panics
    ///
    /// For [`Method::Join`] on a board the join engine does not count: [`Method::choose`]
    /// never gives it one.
    pub fn new(n: u32, method: Method, depth: u32) -> Plan {
        match method {
            Method::Full if n >= full::MIN_N => Plan::Full(full::tasks(n, depth)),
            Method::Join => Plan::Join(join::Plan::new(n, depth)),
            _ => Plan::Mirror(split::tasks(n, depth)),
        }
    }

    /// The split depth a plan for the n x n board really uses when `depth` is asked for:
    /// each engine clamps it to what the board allows.
    pub fn effective_depth(n: u32, method: Method, depth: u32) -> u32 {
        match method {
            Method::Full if n >= full::MIN_N => full::clamp_depth(n, depth),
            Method::Join => join::clamp_depth(n, depth),
            _ => split::clamp_depth(n, depth),
        }
    }

    /// The shallowest split that gives every one of `threads` threads many tasks.
    pub fn auto_depth(n: u32, method: Method, threads: usize) -> u32 {
        // Eight tasks per thread (and at least 64) keep the idle tail of a run short.
        let wanted = (threads.max(1) * 8).max(64);
        let deepest = Plan::effective_depth(n, method, split::MAX_DEPTH);
        if method == Method::Join {
            // Its units differ in size more than prefixes do: as many tasks as it allows.
            return deepest;
        }
        (1..=deepest)
            .find(|&depth| Plan::new(n, method, depth).len() >= wanted)
            .unwrap_or(deepest)
    }

    /// The method that counts this plan's tasks.
    pub fn method(&self) -> Method {
        match self {
            Plan::Mirror(_) => Method::Mirror,
            Plan::Full(_) => Method::Full,
            Plan::Join(_) => Method::Join,
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

    /// The nodes the search of task `index` visits (see [`kernel::nodes_with`]); runs the
    /// task again with a counting build of the search. The join engine searches no tree:
    /// `None`.
    pub fn nodes(&self, index: usize) -> Option<u64> {
        match self {
            Plan::Mirror(tasks) => Some(kernel::nodes_with(tasks[index].board, &kernel::Unblocked)),
            Plan::Full(tasks) => Some(kernel::nodes_with(tasks[index].board, &tasks[index].rules)),
            Plan::Join(_) => None,
        }
    }

    /// An estimate of task `index`'s size (at least 1), from random probes of its search
    /// ([`kernel::estimate`]), seeded by the task number so that every machine computes the
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
