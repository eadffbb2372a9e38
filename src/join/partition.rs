//! Partitioned joins: a unit whose sides outgrow what one index prunes well is joined one
//! partition at a time, the database's partitioned ("Grace") hash join. Its west half-boards
//! are split by their bits at the first `k` cut diagonals into `2^k` partitions; partition
//! `p` is indexed on the cuts that remain and joined only with the east half-boards clear of
//! `p`'s bits. A partition has its `k` bits fixed, so a side of any size gets the cuts its
//! whole size affords, where an index of a piece of it affords only the piece's; and each
//! partition is generated on its own (`Part` in `half.rs`), so memory stays one piece a side.
//!
//! The partitions of a unit are also work of their own: a large unit becomes several tasks,
//! each a run of its partitions, no larger than [`Policy::task_cap`] by weight where it can.
//! Measured before this was built (one unit of n = 26 alternated with the plain join, pieces
//! of 2^22, one thread): 34.3 s joined in pieces, 17.7 s in 8 partitions.

use super::binomial::binomial;
use super::half::Part;
use super::index::CutPlan;

/// The most partition bits a unit is split by: `2^12` partitions, enough to bring the
/// largest units of n = 28 to tasks of minutes.
pub const MAX_BITS: u8 = 12;

/// Which part of a unit a count joins: the west half-boards whose first `bits` cut
/// diagonals hold `value`'s bits (bit `i` of `value` for cut `i`), with the east half-boards
/// clear of them. Zero bits: the whole unit, joined as it always was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Partition {
    pub(super) bits: u8,
    pub(super) value: u16,
}

impl Partition {
    /// The whole unit.
    pub(super) const WHOLE: Partition = Partition { bits: 0, value: 0 };

    /// What the west side keeps, what the east side keeps, and the cuts left to index the
    /// west partition on, from the unit's cut plan `cuts`.
    pub(super) fn parts(self, cuts: &CutPlan) -> (Part, Part, CutPlan) {
        if self.bits == 0 {
            return (Part::Whole, Part::Whole, cuts.skipping(0));
        }
        let positions = cuts.first(usize::from(self.bits));
        let mask = positions.iter().fold(0u64, |m, &b| m | 1 << b);
        let bits = positions
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.value >> i & 1 == 1)
            .fold(0u64, |m, (_, &b)| m | 1 << b);
        (
            Part::Exactly { mask, bits },
            Part::Clear { bits },
            cuts.skipping(usize::from(self.bits)),
        )
    }
}

/// When units are partitioned, into how many partitions, and how partitions are grouped into
/// tasks. Integer arithmetic only, from the units' estimates: every machine makes the same
/// tasks (shards, MPI ranks, a resumed journal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// A unit is split until a west partition holds about this many pairs of quarter
    /// entries (about a quarter of them make half-boards).
    pub partition_pairs: u64,
    /// The weight a task holds at most where it can:
    /// partitions are added to a task while it stays within this, and a unit is split into
    /// more partitions (up to [`MAX_BITS`]) while its largest one exceeds it.
    pub task_cap: u64,
}

/// The core-time a task is held to where it can, in nanoseconds: three minutes, so that with
/// the weights' errors (a part's time per unit of weight varied 3.5 to 6 times between the
/// least and the most of samples of 40 to 80 drawn by weight at n = 26 to 28, the middle
/// 90 % within 2.1 to 3.3 times) no task takes much more than ten.
pub const TASK_NANOS: u64 = 180_000_000_000;

/// Picoseconds of one core per unit of the weight at n = 26, 27 and 28 (a weight is about
/// 3.6 ns at n = 18 and 20, and grows a little with the board): the core-seconds
/// `count N --estimate` predicted, over the plan's total weight, on an Intel Xeon of 2020
/// (AVX-512). Only the task cap depends on it; estimates and shards use weights relative to
/// each other.
const PICOS_PER_WEIGHT: [(u32, u64); 3] = [(26, 4720), (27, 4940), (28, 9440)];

impl Policy {
    /// The policy of the n x n board, from n = 26 on (tables built on demand; none below):
    /// a west partition of about 2^22 pairs of quarter entries (some 2^18 half-boards; the
    /// median unit of n = 26 was as fast in 8 to 128 partitions), and tasks of at most about
    /// [`TASK_NANOS`].
    pub fn for_board(n: u32) -> Option<Policy> {
        let picos = PICOS_PER_WEIGHT
            .iter()
            .find(|&&(size, _)| size == n)
            .map(|&(_, picos)| picos)?;
        Some(Policy {
            partition_pairs: 1 << 22,
            task_cap: TASK_NANOS * 1000 / picos,
        })
    }

    /// The partition bits of a unit whose west side has `west_pairs` pairs of quarter
    /// entries and whose weight is `weight`.
    pub(super) fn bits_for(&self, west_pairs: u64, weight: u64) -> u8 {
        let mut bits = 0u8;
        while bits < MAX_BITS
            && (west_pairs >> bits > self.partition_pairs || share(weight, bits, 0) > self.task_cap)
        {
            bits += 1;
        }
        bits
    }

    /// The runs of a unit's `2^bits` partitions that make its tasks, in order: a run grows
    /// while its weight stays within the cap (a partition over the cap is a run alone).
    pub(super) fn runs(&self, weight: u64, bits: u8) -> Vec<std::ops::Range<u32>> {
        let shares = Shares::new(weight, bits);
        if shares.total() <= self.task_cap {
            return std::iter::once(0..1 << bits).collect();
        }
        let mut runs = Vec::new();
        let (mut start, mut held) = (0u32, 0u64);
        for value in 0..1u32 << bits {
            let w = shares.of(value);
            if value > start && held.saturating_add(w) > self.task_cap {
                runs.push(start..value);
                (start, held) = (value, 0);
            }
            held = held.saturating_add(w);
        }
        runs.push(start..1 << bits);
        runs
    }
}

/// The weights of a unit's partitions, which depend on the bits a partition has set alone:
/// worked out once per unit, not once per partition (n = 28 has 2.4 billion partitions).
pub(super) struct Shares {
    by_ones: [u64; MAX_BITS as usize + 1],
    bits: u8,
}

impl Shares {
    /// The partitions' weights of a unit of weight `weight` split by `bits` cuts.
    pub(super) fn new(weight: u64, bits: u8) -> Shares {
        Shares {
            // floor(floor(x) / 2^j) = floor(x / 2^j): one division for all of them (a plan of
            // n = 28 weighs 36 million tasks).
            by_ones: {
                let bits = bits.min(MAX_BITS);
                let most = (u128::from(weight) << bits) / 3u128.pow(u32::from(bits));
                std::array::from_fn(|ones| {
                    let ones = (ones as u32).min(u32::from(bits));
                    u64::try_from(most >> ones).unwrap_or(u64::MAX).max(1)
                })
            },
            bits,
        }
    }

    /// The weight of partition `value`.
    pub(super) fn of(&self, value: u32) -> u64 {
        self.by_ones[value.count_ones() as usize]
    }

    /// The weights of partitions `values` summed.
    pub(super) fn sum(&self, values: std::ops::Range<u32>) -> u64 {
        if values == (0..1 << self.bits) {
            return self.total();
        }
        values
            .map(|value| self.of(value))
            .fold(0u64, u64::saturating_add)
    }

    /// The weights of all partitions summed: `C(bits, j)` partitions have `j` bits set.
    pub(super) fn total(&self) -> u64 {
        let bits = u32::from(self.bits);
        (0..=bits)
            .map(|ones| self.by_ones[ones as usize].saturating_mul(binomial(bits, ones) as u64))
            .fold(0u64, u64::saturating_add)
    }
}

/// The weight of partition `value` of a unit of weight `weight` split by `bits` cuts: each
/// cut diagonal is held by about half of each side's half-boards (each cut keeps about 0.76
/// of the pairs, 1 - 1/2 x 1/2), so every west partition is about as large, and the east
/// half-boards clear of partition `p` are `2^-|p|` of them: `p`'s share of the unit's work is
/// `2^-|p| / 1.5^bits`, that is `weight 2^(bits - |p|) / 3^bits` (at least 1). Fitted to
/// partitions timed at n = 26 and 27, each bit set multiplied the time by 0.49.
pub(super) fn share(weight: u64, bits: u8, value: u32) -> u64 {
    let ones = value.count_ones();
    let bits = u32::from(bits);
    let scaled = u128::from(weight) << (bits - ones);
    u64::try_from(scaled / 3u128.pow(bits))
        .unwrap_or(u64::MAX)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::plan::Table;
    use crate::join::simd::Build;
    use crate::join::slice::row_totals;
    use crate::join::{DEFAULT_PIECE, Plan};
    use crate::known;

    /// A policy scaled down to small boards, so that most of their units are partitioned.
    const SMALL: Policy = Policy {
        partition_pairs: 32,
        task_cap: 20_000,
    };

    /// Plans that partition units count the table's totals with every build, whole and in
    /// small pieces, from the whole table and from tables built on demand; their tasks hold
    /// every partition of a unit once, and none of them more than the cap unless alone.
    #[test]
    fn partitioned_plans_count_the_same() {
        for build in Build::all() {
            for (n, piece, on_demand) in [
                (10, 64, false),
                (12, DEFAULT_PIECE, true),
                (13, 64, false),
                (14, 4096, true),
                (15, DEFAULT_PIECE, false),
            ] {
                let mut plan = Plan::without_tasks(n).with_piece(piece);
                plan.build = build;
                if on_demand {
                    let row_totals = row_totals(plan.shape.h);
                    assert!(plan.table.set(Table::OnDemand { row_totals }).is_ok());
                }
                plan.make_tasks(3, Some(SMALL));
                let name = build.name();
                let most = plan.tasks.iter().map(|t| t.bits).max();
                assert!(most > Some(if n < 12 { 0 } else { 2 }), "{name} n = {n}");
                for (i, task) in plan.tasks.iter().enumerate() {
                    assert!(plan.weight(i) <= SMALL.task_cap || task.to - task.from == 1);
                }
                let total: u128 = (0..plan.len()).map(|i| plan.run(i)).sum();
                assert_eq!(Some(total), known::total(n), "{name} n = {n}");
            }
        }
    }

    /// The same policy makes the same tasks (journals and shards rely on it), and the tasks
    /// of one unit are consecutive, their runs of partitions covering `0..2^bits` in order.
    #[test]
    fn partitioned_tasks_are_the_same_every_time() {
        let a = Plan::with_policy(16, 8, Some(SMALL));
        let b = Plan::with_policy(16, 8, Some(SMALL));
        assert_eq!(a.tasks, b.tasks);
        assert_eq!(a.units, b.units);
        let mut next = 0u32;
        for pair in a.tasks.windows(2) {
            let (t, u) = (&pair[0], &pair[1]);
            if t.bits > 0 && u.first == t.first {
                assert_eq!(u.from, t.to);
            } else {
                assert_eq!(u.first, t.first + t.units);
                assert!(t.bits == 0 || t.to == 1 << t.bits);
                assert!(u.from == 0);
            }
            next = next.max(u.first + u.units);
        }
        assert_eq!(next as usize, a.units.len());
    }

    /// The shares of a unit's partitions add up to its weight (within rounding), and a
    /// partition with fewer bits set weighs more.
    #[test]
    fn shares_add_up_to_the_unit() {
        for bits in 0..=MAX_BITS {
            let weight = 3u64.pow(u32::from(bits)) * 1000;
            let sum: u64 = (0..1u32 << bits).map(|v| share(weight, bits, v)).sum();
            assert_eq!(sum, weight, "bits {bits}");
        }
        assert!(share(1 << 40, 4, 0) > share(1 << 40, 4, 1));
        assert_eq!(share(1 << 40, 4, 0b0110), share(1 << 40, 4, 0b1001));
    }

    /// The shares worked out once per unit are those of each partition, and their sums
    /// those of the partitions one by one.
    #[test]
    fn shares_by_bits_set_are_the_partitions_shares() {
        for (weight, bits) in [(1u64 << 40, 9u8), (12_345, 4), (7, 3), (1 << 50, MAX_BITS)] {
            let shares = Shares::new(weight, bits);
            for value in 0..1u32 << bits {
                assert_eq!(shares.of(value), share(weight, bits, value));
            }
            let each: u64 = (0..1u32 << bits).map(|v| share(weight, bits, v)).sum();
            assert_eq!(shares.total(), each);
            assert_eq!(shares.sum(0..1 << bits), each);
            let some: u64 = (3..1u32 << bits).map(|v| share(weight, bits, v)).sum();
            assert_eq!(shares.sum(3..1 << bits), some);
        }
    }

    /// A policy exists exactly for the boards whose quarter tables are built on demand, and
    /// its cap is the task time in that board's weights.
    #[test]
    fn boards_with_tables_built_on_demand_have_a_policy() {
        for n in crate::join::MIN_N..=crate::join::MAX_N {
            let on_demand =
                crate::join::shape::Shape::new(n).h >= crate::join::slice::ON_DEMAND_FROM;
            assert_eq!(Policy::for_board(n).is_some(), on_demand, "n = {n}");
        }
        let policy = Policy::for_board(28).unwrap();
        assert_eq!(policy.task_cap, TASK_NANOS * 1000 / PICOS_PER_WEIGHT[2].1);
    }

    /// Runs cover every partition once, in order, and stay within the cap unless a run is one
    /// partition; a unit under the cap whose sides are small is not split.
    #[test]
    fn runs_cover_the_partitions_within_the_cap() {
        let policy = Policy {
            partition_pairs: 1000,
            task_cap: 5_000,
        };
        for (west_pairs, weight) in [(10, 100), (4000, 3_000), (1 << 20, 80_000), (9, 1 << 40)] {
            let bits = policy.bits_for(west_pairs, weight);
            assert!(west_pairs >> bits <= 1000 || bits == MAX_BITS);
            assert!(share(weight, bits, 0) <= 5_000 || bits == MAX_BITS);
            let runs = policy.runs(weight, bits);
            assert_eq!(runs[0].start, 0);
            assert_eq!(runs.last().unwrap().end, 1 << bits);
            for pair in runs.windows(2) {
                assert_eq!(pair[0].end, pair[1].start);
            }
            for run in &runs {
                let held: u64 = run.clone().map(|v| share(weight, bits, v)).sum();
                assert!(held <= 5_000 || run.len() == 1, "{run:?}: {held}");
            }
        }
        assert_eq!(policy.bits_for(10, 100), 0);
        assert_eq!(policy.runs(100, 0).first(), Some(&(0..1)));
        assert_eq!(policy.runs(100, 0).len(), 1);
    }
}
