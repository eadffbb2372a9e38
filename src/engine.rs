//! The counting engines and their task lists: one place that knows how each engine splits a
//! board and counts one task, so that the driver, progress, shards and checkpoints can treat
//! every engine alike.

use crate::kernel::{self, Subboard};
use crate::{full, split};

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
}

impl Plan {
    /// The tasks of the n x n board for `symmetry`, split at `depth` rows.
    pub fn new(n: u32, symmetry: Symmetry, depth: u32) -> Plan {
        match symmetry {
            Symmetry::Full if n >= full::MIN_N => Plan::Full(full::tasks(n, depth)),
            _ => Plan::Mirror(split::tasks(n, depth)),
        }
    }

    /// The split depth a plan for the n x n board really uses when `depth` is asked for:
    /// each engine clamps it to what the board allows.
    pub fn effective_depth(n: u32, symmetry: Symmetry, depth: u32) -> u32 {
        match symmetry {
            Symmetry::Full if n >= full::MIN_N => full::clamp_depth(n, depth),
            _ => split::clamp_depth(n, depth),
        }
    }

    /// The shallowest split that gives every one of `threads` threads many tasks.
    pub fn auto_depth(n: u32, symmetry: Symmetry, threads: usize) -> u32 {
        // Eight tasks per thread (and at least 64) keep the idle tail of a run short.
        let wanted = (threads.max(1) * 8).max(64);
        let deepest = Plan::effective_depth(n, symmetry, split::MAX_DEPTH);
        (1..=deepest)
            .find(|&depth| Plan::new(n, symmetry, depth).len() >= wanted)
            .unwrap_or(deepest)
    }

    /// How many tasks there are.
    pub fn len(&self) -> usize {
        match self {
            Plan::Mirror(tasks) => tasks.len(),
            Plan::Full(tasks) => tasks.len(),
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
            Plan::Mirror(_) => 1,
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
        }
    }

    /// The nodes the search of task `index` visits (see [`kernel::nodes_with`]); runs the
    /// task again with a counting build of the search.
    pub fn nodes(&self, index: usize) -> u64 {
        match self {
            Plan::Mirror(tasks) => kernel::nodes_with(tasks[index].board, &kernel::Unblocked),
            Plan::Full(tasks) => kernel::nodes_with(tasks[index].board, &tasks[index].rules),
        }
    }

    /// An estimate of each task's size (at least 1), from random probes of its search
    /// ([`kernel::estimate`]), seeded by the task number so that every machine computes the
    /// same weights (shards are balanced by them).
    pub fn weights(&self) -> Vec<u64> {
        const PROBES: u32 = 64;
        (0..self.len())
            .map(|i| {
                let board = self.board(i);
                let seed = 0x9e37_79b9_7f4a_7c15 ^ (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
                let nodes = match self {
                    Plan::Mirror(_) => kernel::estimate(board, &kernel::Unblocked, PROBES, seed),
                    Plan::Full(tasks) => kernel::estimate(board, &tasks[i].rules, PROBES, seed),
                };
                (nodes as u64).max(1)
            })
            .collect()
    }

    /// The board a task starts from (for estimates of its size).
    pub fn board(&self, index: usize) -> Subboard {
        match self {
            Plan::Mirror(tasks) => tasks[index].board,
            Plan::Full(tasks) => tasks[index].board,
        }
    }
}
