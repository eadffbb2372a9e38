//! The benchmark's two yardsticks, fixed code timed on one thread before the engines and
//! after them: the textbook counter (recursive bitmask backtracking, `nqueens::textbook`),
//! which runs in registers and follows the processor's pace; and a walk of a table the size
//! of a second-level cache (1 MiB), two random rows ANDed and popcounted a step, as the join
//! engine's hot loop reads its tables, which follows the caches a machine's neighbours share.
//! Figures divided by them hold between days and machines better than seconds do.

use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The walks timed for the cache yardstick, of which the quickest counts.
const WALKS: usize = 3;

/// The walk's table: 2^17 words, 1 MiB.
const TABLE_WORDS: usize = 1 << 17;

/// The two yardsticks, timed once.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Yardsticks {
    /// The textbook counter's seconds for the workload's board.
    pub textbook_seconds: f64,
    /// The walk's nanoseconds a step.
    pub cache_ns_per_step: f64,
}

/// Times both yardsticks on this thread: the textbook counter on board `n` (its count checked
/// against the known value), and the quickest of [`WALKS`] walks of `steps` steps, whose sum
/// is returned and checked against `expected` when given (the sum of the timing before the
/// rows, which the one after must match). An error for a wrong count or sum.
pub fn time(n: u32, steps: u64, expected: Option<u64>) -> Result<(Yardsticks, u64), String> {
    let started = Instant::now();
    let count = nqueens::textbook::count(n).map(u128::from);
    let textbook_seconds = started.elapsed().as_secs_f64();
    if count != nqueens::known::total(n) {
        return Err(format!(
            "the textbook counter counted {count:?} at n = {n}, not the known {:?}",
            nqueens::known::total(n)
        ));
    }
    let table = table();
    // The least of a few walks: a walk is short, and one that a neighbour's burst or the
    // table's first touches slowed would move the yardstick more than the machine moved.
    let mut least = f64::INFINITY;
    let mut sum = 0;
    for _ in 0..WALKS {
        let started = Instant::now();
        sum = walk(&table, steps);
        least = least.min(started.elapsed().as_secs_f64());
    }
    let cache_ns_per_step = least * 1e9 / steps as f64;
    if expected.is_some_and(|expected| expected != sum) {
        return Err(format!(
            "the cache yardstick's walk summed {sum}, not the {expected:?} it summed before"
        ));
    }
    let yardsticks = Yardsticks {
        textbook_seconds,
        cache_ns_per_step,
    };
    Ok((yardsticks, sum))
}

/// The walk's table: the same pseudo-random words on every machine.
fn table() -> Vec<u64> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    (0..TABLE_WORDS)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

/// `steps` steps of the walk: two rows picked by a linear congruential generator, ANDed and
/// popcounted, summed. The rows' addresses do not wait on the sum, so the loop is bound by
/// the cache's throughput, as the join's queries are.
fn walk(table: &[u64], steps: u64) -> u64 {
    let mask = table.len() as u64 - 1;
    let mut x = 1u64;
    let mut sum = 0u64;
    for _ in 0..steps {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let a = table[((x >> 40) & mask) as usize];
        let b = table[((x >> 17) & mask) as usize];
        sum += u64::from((a & b).count_ones());
    }
    std::hint::black_box(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_is_the_same_every_time_and_a_wrong_sum_is_refused() {
        let (_, sum) = time(8, 1000, None).unwrap();
        assert_eq!(time(8, 1000, Some(sum)).unwrap().1, sum);
        assert!(time(8, 1000, Some(sum + 1)).is_err());
        // A quarter of a word's 64 bits, 16, are set in the AND of two random words.
        assert!((sum as f64 / 1000.0 - 16.0).abs() < 2.0, "{sum}");
    }
}
