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

use super::cuts::CutPlan;
use crate::join::count::half::Part;
use crate::join::count::index::BUCKET_TARGET;
use crate::join::count::squeeze::MAX_CUTS;
use crate::join::count::walk::SOFT_CUTS;

/// One in the fixed point of odds and factors, which are in 2^-32 (`odds.rs`, `holds.rs`,
/// [`UnitParts::factors`]).
pub(in crate::join) const ONE: u64 = 1 << 32;

/// `a` times odds `b` (in 2^-32), rounded down.
pub(in crate::join) fn times(a: u64, b: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) >> 32) as u64
}

/// The most partition bits a unit is split by: `2^12` partitions, enough to bring the
/// largest units of n = 28 to tasks of minutes.
pub const MAX_BITS: u8 = 12;

/// Which part of a unit a count joins: the west half-boards whose first `bits` cut
/// diagonals hold `value`'s bits (bit `i` of `value` for cut `i`), with the east half-boards
/// clear of them. Zero bits: the whole unit, joined as it always was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::join) struct Partition {
    pub(in crate::join) bits: u8,
    pub(in crate::join) value: u16,
}

impl Partition {
    /// The whole unit.
    pub(in crate::join) const WHOLE: Partition = Partition { bits: 0, value: 0 };

    /// What the west side keeps, what the east side keeps, and the cuts left to index the
    /// west partition on, from the unit's cut plan `cuts`.
    pub(in crate::join) fn parts(self, cuts: &CutPlan) -> (Part, Part, CutPlan) {
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
    /// more partitions (up to [`MAX_BITS`]) while its largest one exceeds it, unless reading
    /// its quarter entries is most of that one's weight.
    pub task_cap: u64,
}

/// The core-time a task is held to where it can, in nanoseconds: three minutes, so that with
/// the weights' errors (a part's time per unit of weight varied 3.1, 6.8 and 2.8 times
/// between the least and the most of the parts `--estimate` timed at n = 26, 27 and 28,
/// the middle 90 % within 1.9 to 2.0 times) no task takes much more than ten.
pub const TASK_NANOS: u64 = 180_000_000_000;

/// Picoseconds of one core per unit of the weight at n = 24 to 28 (partitions' weights,
/// [`UnitParts`]): the core-seconds `count N --estimate -j 1` predicted, over the plan's
/// total weight, on an Intel Xeon of 2020 (AVX-512), for the weights before 0.8.0, scaled
/// at each change of the weights since (0.8.0, 0.9.0) by the ratio of the plans' total
/// weights before and after (the same time for the whole count); n = 24 and 25 (0.12.0):
/// the core-seconds `count N --estimate -j 2` reported on a 2-core Xeon VM (AVX-512) over
/// the plan's total weight (2.03-2.28e5 over 3.06e15 at n = 24 in four estimates, 1.73e6
/// over 2.53e16 at n = 25 in one), where a task (a unit) takes a second or two, far below
/// the cap. Only the task cap depends on it; estimates and shards use weights relative to each
/// other.
const PICOS_PER_WEIGHT: [(u32, u64); 5] = [(24, 69), (25, 69), (26, 129), (27, 108), (28, 101)];

impl Policy {
    /// A policy scaled down to small boards, so that most of their units are partitioned:
    /// the tests' (here and `count/unit.rs`).
    #[cfg(test)]
    pub(in crate::join) const SMALL: Policy = Policy {
        partition_pairs: 32,
        task_cap: 200_000,
    };

    /// The policy of the n x n board, from n = 24 on (none below, where no unit's west side
    /// reaches the size a partition is cut to): a west partition of about 2^22 pairs of
    /// quarter entries (some 2^18 half-boards; the median unit of n = 26 was as fast in 8 to
    /// 128 partitions; at n = 24, 16 units picked by weight took 0.94 of their whole time in
    /// 2 partitions, 0.90 in 4 and 8), and tasks of at most about [`TASK_NANOS`].
    ///
    /// Finer partitions at n = 24 did not pay: each partition makes and indexes its east
    /// side again. Units drawn by weight at the bits of 2^21 pairs took 0.95 and 0.99 of
    /// their time at this rule's (two draws of 30, `join_partition drawn`), and
    /// `count 24 --estimate -j 2` saw no gain (0.67-0.77 of 0.10.0's core-seconds in three
    /// rounds); at 2^18 (32 to 64 partitions a unit) it took 1.40 times 0.12.0's.
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

    /// The partition bits of a unit ([`UnitParts`]): until a west partition holds about
    /// [`Policy::partition_pairs`] pairs of quarter entries, and further while its heaviest
    /// partition weighs more than the cap, by the quick estimate of the cuts taken apart
    /// ([`UnitParts::heaviest`]: a partition heavier by its whole pattern may still pass
    /// the cap, and makes a task alone) (`None`: more bits than the unit's cuts worked out,
    /// [`UnitParts::cuts`]).
    pub(in crate::join) fn bits_for(&self, unit: &UnitParts) -> Option<u8> {
        let mut bits = 0u8;
        // Past the cap, split while the heaviest partition's join outweighs its fixed part:
        // beyond that, more partitions mostly read the same quarter entries again.
        let over_cap = |bits: u8| {
            let heaviest = unit.heaviest(bits);
            heaviest > self.task_cap && heaviest - unit.fixed > unit.fixed
        };
        while bits < MAX_BITS && (unit.west_pairs >> bits > self.partition_pairs || over_cap(bits))
        {
            if bits == unit.cuts {
                return None;
            }
            bits += 1;
        }
        Some(bits)
    }

    /// How many cuts' factors a unit whose west side has `west_pairs` pairs of quarter
    /// entries needs worked out: the bits its size asks for and two more, for the cap (a
    /// unit that needs more is worked out again).
    pub(in crate::join) fn cuts_for(&self, west_pairs: u64) -> u8 {
        let mut bits = 0u8;
        while bits < MAX_BITS && west_pairs >> bits > self.partition_pairs {
            bits += 1;
        }
        (bits + 2).min(MAX_BITS)
    }
}

/// What the weights of a unit's partitions are made from ([`super::weight`]'s
/// `Plan::unit_parts`): a partition's work is its join, the pairs of a group of its index
/// and a query that it tests, and a fixed part, reading its sides' quarter entries (each
/// partition reads them all). Its join grows with its east half-boards, with its west
/// ones to the power 3/4, and falls with what the cuts its index is built on prune
/// ([`Pruning`]): more west half-boards get more cuts.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::join) struct UnitParts {
    /// The pairs of quarter entries of the unit's west side.
    pub(in crate::join) west_pairs: u64,
    /// The whole unit's join before its index's cuts: its east half-boards times its west
    /// ones to the power 3/4 (estimated), in weight units.
    pub(in crate::join) join: u64,
    /// The work every partition does, in weight units.
    pub(in crate::join) fixed: u64,
    /// How many cuts' factors were worked out: the first `cuts` of `factors`.
    pub(in crate::join) cuts: u8,
    /// Per cut, in the order partitions take them: what a partition's join is multiplied
    /// by when the cut is clear and when it is set, in 2^-32, were the cuts held apart from
    /// each other. Clear: the west half-boards' odds of not holding it to the power 3/4.
    /// Set: their odds of holding it to the power 3/4, times the east half-boards' odds of
    /// not holding it. Quick, for choosing a unit's bits ([`UnitParts::heaviest`]); its
    /// partitions' weights take the west odds of their patterns whole
    /// ([`Shares`](super::shares::Shares)).
    pub(in crate::join) factors: [[u64; 2]; MAX_BITS as usize],
    /// The unit's west half-boards (estimated).
    pub(in crate::join) west: u64,
    /// Per cut: the odds that the west half-boards hold it, and the east ones (their sides'
    /// odds averaged by their estimated half-boards), in 2^-32 (none past the usable cuts).
    pub(in crate::join) held: [[u64; MAX_CUTS]; 2],
}

impl UnitParts {
    /// Sets the odds that the unit's west half-boards hold cut `cut` and that its east ones
    /// do (in 2^-32), and the cut's factors from them if they are worked out.
    pub(in crate::join) fn set_odds(&mut self, cut: usize, west: u64, east: u64) {
        self.held[0][cut] = west;
        self.held[1][cut] = east;
        if cut < usize::from(self.cuts) {
            let set = times(three_quarters(west), ONE - east);
            self.factors[cut] = [three_quarters(ONE - west), set];
        }
    }

    /// The weight of the heaviest of the unit's partitions by its first `bits` cuts, with
    /// the cuts taken apart from each other.
    pub(in crate::join) fn heaviest(&self, bits: u8) -> u64 {
        let join = self.factors[..usize::from(bits)]
            .iter()
            .fold(self.mean_pruning(bits), |join, f| {
                (join * u128::from(f[0].max(f[1]))) >> 32
            });
        u64::try_from(join)
            .unwrap_or(u64::MAX)
            .saturating_add(self.fixed)
    }
}

impl UnitParts {
    /// The join times what the index of a partition of the average size prunes (quick:
    /// for choosing the bits, where a partition's own is a few per cent off).
    fn mean_pruning(&self, bits: u8) -> u128 {
        let kept = Pruning::one(self, bits, (self.west >> bits) as f32);
        (self.join as f64 * f64::from(kept)) as u128
    }

    /// The share of the pairs of a west and an east half-board that the `hard`-th hard cut
    /// of a partition's index by `bits` cuts leaves to test: those that do not both hold
    /// it (a cut past the unit's leaves them all).
    fn pass_of_hard_cut(&self, bits: u8, hard: usize) -> u64 {
        let cut = usize::from(bits) + hard;
        // By index, not by `self.held.map`, which copies both sides' odds: this runs many
        // times a unit (`Policy::bits_for`'s quick estimate).
        let [west, east] = [0, 1].map(|side| self.held[side].get(cut).copied().unwrap_or(0));
        ONE - times(west, east)
    }
}

#[cfg(test)]
impl UnitParts {
    /// A unit whose every cut is held by its west and east half-boards with the odds given
    /// (even cuts the first pair, odd ones the second), for the weights' tests; its west
    /// side is too small for its indexes to prune anything.
    pub(in crate::join) fn with_odds(join: u64, fixed: u64, odds: [[u64; 2]; 2]) -> UnitParts {
        let mut unit = UnitParts {
            west_pairs: 1000,
            join,
            fixed,
            cuts: MAX_BITS,
            ..UnitParts::default()
        };
        for cut in 0..MAX_CUTS {
            let [west, east] = odds[cut % 2];
            unit.set_odds(cut, west, east);
        }
        unit
    }
}

/// What the index of a partition by `bits` cuts leaves of its join, by its west
/// half-boards: `index.rs` cuts a piece of `w` of them on about `log2(w / BUCKET_TARGET)`
/// cuts, the cuts after the partition's bits, the last [`SOFT_CUTS`] of them soft (left
/// out here), and each hard cut leaves its share of the pairs (`UnitParts::pass_of_hard_cut`).
/// Between whole numbers of cuts, the share is interpolated. To the power 3/4: fitted with
/// the west side's power to the work of 161 partitions of n = 27 (the pairs of a group
/// and a query they tested, `Index::work`, which left their time 1.5 times between the
/// least and the most with the entries they read), from the plan's estimates: the time
/// per weight's log then varied with a standard deviation of 0.16 (2.3 times from the
/// least to the most), against 0.25 (6.4 times) for `E sqrt(W)` and the cuts' factors
/// alone.
pub(in crate::join) struct Pruning {
    /// `kept[k]`: what an index of `k` cuts leaves, to the power 3/4.
    kept: [f32; MAX_CUTS + 1],
}

impl Pruning {
    pub(in crate::join) fn new(unit: &UnitParts, bits: u8) -> Pruning {
        let mut kept = [1.0; MAX_CUTS + 1];
        let mut product = ONE;
        for (k, kept) in kept.iter_mut().enumerate().skip(SOFT_CUTS + 1) {
            product = times(product, unit.pass_of_hard_cut(bits, k - SOFT_CUTS - 1));
            *kept = odds_f32(three_quarters(product));
        }
        Pruning { kept }
    }

    /// What an index of `west` half-boards leaves.
    #[inline(always)]
    pub(in crate::join) fn at(&self, west: f32) -> f32 {
        interpolate(west, |k| self.kept[k])
    }

    /// What an index of `west` half-boards leaves of a partition of `unit` by `bits` cuts,
    /// worked out for it alone (quicker than the table for one partition).
    fn one(unit: &UnitParts, bits: u8, west: f32) -> f32 {
        let kept = |k: usize| {
            let hard = k.saturating_sub(SOFT_CUTS);
            let product = (0..hard).fold(ONE, |p, cut| times(p, unit.pass_of_hard_cut(bits, cut)));
            odds_f32(three_quarters(product))
        };
        interpolate(west, kept)
    }
}

/// What an index of `west` half-boards keeps, from `kept(k)`, what one of `k` cuts keeps:
/// `index.rs` gives it `k` cuts where it has `2^k` buckets of [`BUCKET_TARGET`] to
/// `2^(k + 1)`, and in between the share is interpolated (`kept` never grows with `k`).
/// From the bits of the float: `k` its exponent, how far past `2^k` its mantissa (exact).
/// Without a branch, for the vectors of `shares.rs`: below two buckets (or not a number)
/// `k` is 0, and what one cut keeps is what none does (the first cuts are soft); past
/// every cut, `k` is the last and so is `k + 1`: there how far past moves nothing.
#[inline(always)]
fn interpolate(west: f32, kept: impl Fn(usize) -> f32) -> f32 {
    const _: () = assert!(SOFT_CUTS >= 1);
    let buckets = west / BUCKET_TARGET as f32;
    let bits = buckets.to_bits();
    let below = buckets.is_nan() || buckets < 2.0;
    let k = ((bits >> 23).wrapping_sub(127).min(MAX_CUTS as u32) as usize) * usize::from(!below);
    let past = f32::from_bits(bits & 0x007f_ffff | 0x3f80_0000) - 1.0;
    let (low, high) = (kept(k), kept((k + 1).min(MAX_CUTS)));
    low - (low - high) * past
}

/// Odds in 2^-32 as a float.
pub(in crate::join) fn odds_f32(odds: u64) -> f32 {
    (odds as f64 / ONE as f64) as f32
}

/// Odds in 2^-32 to the power 3/4, in floating point: exact to the rounding IEEE 754 fixes
/// for square roots, so every machine deals the same shards.
pub(in crate::join) fn three_quarters(odds: u64) -> u64 {
    let root = (odds as f64 / ONE as f64).sqrt();
    (root * root.sqrt() * ONE as f64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::count::simd::Build;
    use crate::join::plan::slice::row_totals;
    use crate::join::plan::tasks::Table;
    use crate::join::{DEFAULT_PIECE, Plan};
    use crate::known;

    const SMALL: Policy = Policy::SMALL;

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

    /// What an index keeps, worked out without a branch (for vectors), is bit for bit what
    /// the plain rule with branches makes of the same table, from the table
    /// (`Pruning::at`) and for one partition alone (`Pruning::one`): at and between powers
    /// of two, below two buckets, past every cut, at zero, below it and not a number.
    #[test]
    fn what_an_index_keeps_is_interpolated_alike_without_branches() {
        let with_branches = |west: f32, kept: &[f32]| {
            let buckets = west / BUCKET_TARGET as f32;
            if buckets.is_nan() || buckets < 2.0 {
                return kept[0];
            }
            let bits = buckets.to_bits();
            let k = ((bits >> 23) - 127) as usize;
            if k >= MAX_CUTS {
                return kept[MAX_CUTS];
            }
            let past = f32::from_bits(bits & 0x007f_ffff | 0x3f80_0000) - 1.0;
            kept[k] - (kept[k] - kept[k + 1]) * past
        };
        let mut unit =
            UnitParts::with_odds(1 << 40, 5, [[ONE / 3, ONE / 2], [ONE / 5, ONE * 4 / 5]]);
        unit.held[0][7] = ONE * 9 / 10;
        let bucket = BUCKET_TARGET as f32;
        let mut wests = vec![0.0, -0.0, -1.0, f32::NAN, f32::INFINITY, f32::MAX, 1e-30];
        for k in 0..=MAX_CUTS as i32 + 2 {
            let at = bucket * 2f32.powi(k);
            wests.extend([at, at * 0.999_99, at * 1.000_01, at * 1.3, at * 1.75]);
        }
        for bits in [0, 3, 12] {
            let pruning = Pruning::new(&unit, bits);
            for &west in &wests {
                let plain = with_branches(west, &pruning.kept).to_bits();
                assert_eq!(pruning.at(west).to_bits(), plain, "{bits} {west}");
                assert_eq!(
                    Pruning::one(&unit, bits, west).to_bits(),
                    plain,
                    "{bits} {west}"
                );
            }
        }
    }

    /// Regression: a whole unit heavier than the cap (not split: its fixed part outweighs its
    /// join) lost its weight from its task, as the plan's quick path for units over the cap
    /// was taken for whole units too. Every task weighs the sum of its parts.
    #[test]
    fn a_whole_unit_over_the_cap_keeps_its_weight() {
        let policy = Policy {
            partition_pairs: u64::MAX,
            task_cap: 1,
        };
        let plan = Plan::with_policy(12, 3, Some(policy));
        let mut whole = 0;
        for i in 0..plan.len() {
            let parts: u64 = (0..plan.parts(i)).map(|p| plan.part_weight(i, p)).sum();
            assert_eq!(plan.weight(i), parts.max(1), "task {i}");
            whole += usize::from(plan.tasks[i].bits == 0);
        }
        assert!(whole > 0);
    }

    /// A policy exists exactly from n = 24 on, so for every board whose quarter tables are
    /// built on demand (the largest, whose units need partitions most), and its cap is the
    /// task time in that board's weights.
    #[test]
    fn boards_from_24_on_have_a_policy() {
        for n in crate::join::MIN_N..=crate::join::MAX_N {
            assert_eq!(Policy::for_board(n).is_some(), n >= 24, "n = {n}");
            let on_demand =
                crate::join::shape::Shape::new(n).h >= crate::join::plan::slice::ON_DEMAND_FROM;
            assert!(!on_demand || n >= 24, "n = {n}");
        }
        for (n, picos) in PICOS_PER_WEIGHT {
            let policy = Policy::for_board(n).unwrap();
            assert_eq!(policy.task_cap, TASK_NANOS * 1000 / picos, "n = {n}");
        }
    }
}
