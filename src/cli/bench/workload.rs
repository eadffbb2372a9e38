//! What `nqueens bench` runs: fixed boards and yardsticks, the same on every machine, so that
//! two machines' (or two versions') figures compare.
//!
//! Each row of the scaling table runs T counts at once, one a thread, each of the same board
//! on one thread: the work grows with the threads, so every row takes about as long as one
//! count (a second or so) whether the machine has 2 cores or 256, and the rows grow with the
//! logarithm of the cores (15 s on 2, a minute or two on 256; the yardstick at n = 16 is half
//! of that on 2). Every count is checked
//! against the known value: a benchmark that can count wrong is a stress test too.

use nqueens::Engine;
use serde::{Deserialize, Serialize};

/// The workload: which boards, which yardsticks, how many rounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Workload {
    /// The short one (`--quick`): smaller boards, one round.
    pub quick: bool,
    /// The board each thread counts with the join engine.
    pub join_n: u32,
    /// The board each thread counts with the search (full symmetry).
    pub search_n: u32,
    /// The board of the textbook yardstick.
    pub textbook_n: u32,
    /// The steps of each of the cache yardstick's walks.
    pub cache_steps: u64,
}

/// The engines the rows time, in their order, by the names the rows give them.
pub const ENGINES: [(&str, Engine); 2] = [("join", Engine::Join), ("search", Engine::SEARCH)];

impl Workload {
    /// The board each thread counts with `engine`.
    pub fn board(&self, engine: Engine) -> u32 {
        if engine == Engine::Join {
            self.join_n
        } else {
            self.search_n
        }
    }

    /// The full workload, or the quick one: what two runs must share to be compared.
    pub fn new(quick: bool) -> Workload {
        if quick {
            Workload {
                quick,
                join_n: 16,
                search_n: 15,
                textbook_n: 14,
                cache_steps: 1 << 23,
            }
        } else {
            Workload {
                quick,
                join_n: 17,
                search_n: 16,
                // The yardstick of every figure the project publishes (the frontier tables
                // divide by it too): the textbook counter on one thread at n = 16.
                textbook_n: 16,
                cache_steps: 1 << 26,
            }
        }
    }
}

/// The thread counts of the scaling table when none are given: 1, 2, 4, ... and every logical
/// CPU (`cpus`) last.
pub fn default_threads(cpus: usize) -> Vec<usize> {
    let mut threads: Vec<usize> = std::iter::successors(Some(1usize), |&t| t.checked_mul(2))
        .take_while(|&t| t < cpus)
        .collect();
    threads.push(cpus.max(1));
    threads
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_threads_double_up_to_every_cpu() {
        assert_eq!(default_threads(1), [1]);
        assert_eq!(default_threads(2), [1, 2]);
        assert_eq!(default_threads(6), [1, 2, 4, 6]);
        assert_eq!(default_threads(16), [1, 2, 4, 8, 16]);
    }
}
