//! Timing a part of one task of the search, for an estimate of a whole count
//! (`Plan::time_part`).
//!
//! A task of a large board takes hours (n = 29 split at a few rows: days), so a sample
//! cannot time whole tasks. Instead, from the task's board, rows are placed at random, one
//! queen drawn uniformly from each row's free squares, until the subtree below is small
//! enough to count in a few milliseconds; that subtree is counted and timed, and its time
//! multiplied by the product of the numbers of choices on the way down. This is Knuth's
//! estimator of a tree's size, with a subtree's time in place of a leaf: every subtree at the
//! frontier where the walk stops is reached with probability one over that product, so the
//! expected result is the sum of their times, the task's time (less the few nodes above the
//! frontier). The stopping rule depends on the node alone (its estimated size, from probes
//! seeded by the board), never on what lies below it, so the frontier is fixed and the
//! estimate unbiased. Its spread is large, and the estimator of the whole takes its error
//! bar from the spread of the timed parts' rates, so a wide part widens the bar (when the
//! sample stops is another matter: see `run::estimate`).

use crate::search::full::Weighted;
use crate::search::kernel::{self, Rules, Subboard, Unblocked};
use std::time::Duration;

/// The estimated size (nodes of a plain search, by [`kernel::estimate`]) at or below which a
/// subtree is counted whole. Measured on a 2-core virtual machine (Xeon), 300 draws at each
/// of n = 18, 22, 26, 30 and 32: a part then took a median of 1.0 to 1.5 ms, a tenth of
/// them over 7.5 to 9.4 ms, the longest 13 to 18 ms (the walk down included). At ten times
/// the size (and 16 probes): medians of 17 to 27 ms, the longest 0.2 to 0.7 s; at a quarter,
/// medians of 0.3 to 0.6 ms, where the clock's own cost begins to count.
pub const SMALL_ENOUGH: f64 = 2e6;

/// The probes of [`kernel::estimate`] that size a subtree: 16 let one subtree in 300 run
/// three times longer than with 64, which cost some 50 microseconds a part (not timed).
const PROBES: u32 = 64;

/// Rules that can follow a search down a row: those of the same search started one row
/// later.
pub trait Descend: Rules + Clone {
    /// These rules for the search below this row.
    fn below(&self) -> Self;
}

impl Descend for Unblocked {
    fn below(&self) -> Self {
        Unblocked
    }
}

impl Descend for Weighted {
    fn below(&self) -> Self {
        crate::search::full::deeper(self, 1)
    }
}

/// An estimate of the time `kernel::count_with(board, rules)` takes, in `clock`'s time: the
/// whole count timed when it is small, else one subtree drawn by `seed`, timed and scaled
/// (see the module's documentation). A subtree takes milliseconds at any board size.
pub fn time<R: Descend>(
    board: Subboard,
    rules: &R,
    seed: u64,
    clock: &dyn Fn() -> Duration,
) -> Duration {
    let Some((board, rules, scale)) = walk(board, rules, seed, SMALL_ENOUGH) else {
        // A dead end above the frontier: the search spends next to nothing there.
        return Duration::ZERO;
    };
    let start = clock();
    std::hint::black_box(kernel::count_with(board, &rules));
    let seconds = clock().saturating_sub(start).as_secs_f64() * scale;
    Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
}

/// The random walk of [`time`] from `board` down to a subtree estimated at no more than
/// `small` nodes: the subtree's board, its rules, and the product of the choices on the way
/// (one over the chance of reaching it); `None` where the walk meets a row without a free
/// square first.
fn walk<R: Descend>(
    mut board: Subboard,
    rules: &R,
    seed: u64,
    small: f64,
) -> Option<(Subboard, R, f64)> {
    let mut state = seed | 1;
    let mut rules = rules.clone();
    let mut scale = 1.0f64;
    while kernel::estimate(board, &rules, PROBES, node_seed(board)) > small {
        let free = board.free() & !rules.blocked(0);
        let choices = free.count_ones();
        if choices == 0 {
            return None;
        }
        scale *= f64::from(choices);
        state = xorshift(state);
        let mut rest = free;
        for _ in 0..state % u64::from(choices) {
            rest &= rest - 1;
        }
        board = board.place(rest & rest.wrapping_neg());
        rules = rules.below();
    }
    Some((board, rules, scale))
}

/// The seed of a node's size estimate: a function of the board alone, so that whether the
/// walk stops at a node does not depend on the walk's own draws.
fn node_seed(board: Subboard) -> u64 {
    let mut z = u64::from(board.open)
        ^ u64::from(board.left).rotate_left(21)
        ^ u64::from(board.right).rotate_left(42);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The next state of an xorshift64 sequence (never zero from a nonzero start).
fn xorshift(mut state: u64) -> u64 {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::full;

    /// The walk's subtrees, scaled, add up to the whole in expectation: checked on the
    /// count (a subtree's value for its time), for the full symmetry's rules, which must
    /// follow the walk down, and for the plain search.
    #[test]
    fn scaled_subtrees_estimate_the_whole_without_bias() {
        let n = 13;
        let tasks = full::tasks(n, 2);
        let mut sum = 0.0;
        let mut truth = 0.0;
        let mut draws = 0;
        for (i, task) in tasks.iter().enumerate() {
            let whole = kernel::count_with(task.board, &*task.rules) as f64;
            truth += whole;
            for d in 0..400u64 {
                let seed = (i as u64 * 1000 + d).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                // A small frontier, so that the walk goes several rows down.
                if let Some((board, rules, scale)) = walk(task.board, &*task.rules, seed, 50.0) {
                    sum += kernel::count_with(board, &rules) as f64 * scale / 400.0;
                }
                draws += 1;
            }
        }
        assert!(draws > 10_000);
        assert!((sum / truth - 1.0).abs() < 0.03, "{sum} against {truth}");
        let plain = Subboard::empty(n).place(1 << 3);
        let truth = kernel::count(plain) as f64;
        let mean = (0..4000u64)
            .filter_map(|d| walk(plain, &Unblocked, d * 7 + 1, 50.0))
            .map(|(board, rules, scale)| kernel::count_with(board, &rules) as f64 * scale)
            .sum::<f64>()
            / 4000.0;
        assert!((mean / truth - 1.0).abs() < 0.05, "{mean} against {truth}");
    }

    /// A subtree at the frontier is small: the walk goes down until it is.
    #[test]
    fn the_walk_stops_at_a_subtree_of_the_size_asked() {
        let board = Subboard::empty(24).place(1 << 5);
        for seed in 1..20 {
            if let Some((below, rules, scale)) = walk(board, &Unblocked, seed, SMALL_ENOUGH) {
                assert!(below.rows_left() < 23 && scale >= 2.0);
                assert!(kernel::estimate(below, &rules, PROBES, node_seed(below)) <= SMALL_ENOUGH);
            }
        }
    }
}
