//! A unit's weight: the pairs of quarter entries its sides come from (exact bounds from the
//! whole table, or estimates from the row totals from n = 26 on), and the formula that makes
//! them an estimate of its time.

use super::holds::board_rows;
use super::layout::jobs_of;
use super::odds::{Odds, SideOdds};
use super::partition::{MAX_BITS, ONE, Policy, UnitParts, times};
use super::patterns::west_patterns;
use super::shares::Shares;
use super::tasks::{Plan, Table};
use crate::join::binomial::binomial;
use crate::join::count::bits::Portable;
use crate::join::count::half::{Cursor, Part, Place, Side};
use crate::join::count::squeeze::MAX_CUTS;
use crate::join::shape::{Diagonals, Shape};

impl Plan {
    /// The pairs of quarter entries of the west side of the unit on `west_rows`, and the
    /// unit's weight: about a nanosecond of one core each (at least 1), from the half-boards
    /// its sides are estimated to have ([`SideOdds::halves`]), `H_W` on the west side
    /// and `H_E` on the east sides of all its layouts: `3.6 sqrt(H_W) H_E^(3/4)`. The pairs a
    /// unit tests grow with the product of its sides, and a little slower, as the index
    /// keeps its buckets at a fixed size with more cuts for more half-boards. Fitted to 776
    /// whole units of n = 20 each timed three times, and 1,755 of n = 18: the time per
    /// weight's log varied with a standard deviation of 0.10 at n = 20 (3.0x from the least
    /// to the most) and 0.21 at n = 18, where the previous weights, `(16 W + 5 E)^(7/8)`
    /// from the sides' pairs of quarter entries, left 0.26 (5.3x) and 0.22 (7.4x): how many
    /// of a side's pairs make half-boards varies from 5 % to 95 %. Integer arithmetic only:
    /// every machine deals the same shards.
    pub(in crate::join) fn unit_size(&self, table: &Table, west_rows: u32) -> (u64, u64) {
        let sides = self.unit_sides(table, west_rows);
        // sqrt(H_W) H_E^(3/4) = sqrt(H_W) sqrt(H_E) sqrt(sqrt(H_E)), in 128 bits.
        let [hw, he] = sides.halves.map(u128::from);
        let root = he.isqrt();
        let x = hw.isqrt() * root * root.isqrt();
        let weight = x * 18 / 5;
        (
            sides.pairs[0],
            u64::try_from(weight).unwrap_or(u64::MAX).max(1),
        )
    }

    /// The pairs of quarter entries of the unit on `west_rows` and the half-boards estimated
    /// from them, on its west side and on the east sides of all its layouts.
    fn unit_sides(&self, table: &Table, west_rows: u32) -> Sides {
        let mut sides = Sides::default();
        self.each_side(west_rows, |place, odds, east| {
            let pairs = self.side_pairs(table, place);
            let at = usize::from(east);
            sides.pairs[at] = sides.pairs[at].saturating_add(pairs);
            sides.halves[at] = sides.halves[at].saturating_add(odds.halves(place, pairs));
        });
        sides
    }

    /// Calls `side(place, odds, east)` for each side of the unit on `west_rows`: its west
    /// side, then the east side of each of its layouts, with the odds of its columns.
    pub(in crate::join) fn each_side(
        &self,
        west_rows: u32,
        mut side: impl FnMut(Place, &SideOdds, bool),
    ) {
        let mut jobs = Vec::new();
        jobs_of(self.shape, &self.layouts, west_rows, &mut jobs);
        let odds = self.odds();
        side(self.west(west_rows), &odds.west, false);
        for job in jobs {
            side(
                self.east(west_rows, job),
                &odds.east[job.layout as usize],
                true,
            );
        }
    }

    /// The odds of the west side and of each layout's east side, worked out once.
    pub(in crate::join) fn odds(&self) -> &Odds {
        self.odds.get_or_init(|| {
            let Shape { h, far, .. } = self.shape;
            let cuts = self.cut_plan();
            Box::new(Odds {
                west: SideOdds::new((self.shape, &cuts), (1 << h) - 1, 0, Diagonals::default()),
                east: self
                    .layouts
                    .iter()
                    .map(|layout| {
                        SideOdds::new((self.shape, &cuts), layout.east, far, layout.blocked)
                    })
                    .collect(),
            })
        })
    }

    /// What the weights of the partitions of the unit on `west_rows` are made from, for
    /// plans that partition units (from n = 24): its estimated half-boards (`H_W` west,
    /// `H_E` east, [`SideOdds::halves`]) make its join `H_E H_W^(3/4) / 4`, each cut's odds
    /// of being held ([`super::holds`]) the east factors of a partition's share of it and
    /// what its index prunes ([`super::partition::Pruning`]), and the quarter entries its
    /// sides read, [`ENTRY_WEIGHT`] each, the work every partition does; the west share of
    /// a partition is its pattern's ([`Plan::shares`]). With a `policy`, the factors of only
    /// the cuts it may need ([`Policy::cuts_for`]); without, all.
    pub(in crate::join) fn unit_parts(
        &self,
        table: &Table,
        west_rows: u32,
        policy: Option<&Policy>,
    ) -> UnitParts {
        let mut unit = UnitParts::default();
        let (mut east, mut entries) = (0u64, 0u64);
        let mut west_held = [0u64; MAX_CUTS];
        // Per cut: the east sides' half-boards times their odds of holding it.
        let mut east_held = [0u128; MAX_CUTS];
        self.each_side(west_rows, |place, odds, is_east| {
            let pairs = self.side_pairs(table, place);
            let halves = times(odds.halves(place, pairs), odds.ramp(place));
            let rows = board_rows(self.shape, place);
            entries = entries.saturating_add(table.entries_on(self.shape.h, place));
            let holds = odds.cuts.holds(rows);
            if is_east {
                east = east.saturating_add(halves);
                for (sum, held) in east_held.iter_mut().zip(holds) {
                    *sum += u128::from(halves) * u128::from(held);
                }
            } else {
                (unit.west_pairs, unit.west) = (pairs, halves);
                unit.cuts = policy.map_or(MAX_BITS, |policy| policy.cuts_for(pairs));
                west_held = holds;
            }
        });
        for cut in 0..MAX_CUTS {
            let west = west_held[cut];
            // The east odds averaged over the layouts, weighted by their half-boards.
            let held = (east_held[cut] / u128::from(east.max(1))).min(u128::from(ONE)) as u64;
            unit.set_odds(cut, west, held);
        }
        let west = unit.west as f64;
        let join = east as f64 * (west.sqrt() * west.sqrt().sqrt()) / 4.0;
        unit.join = join as u64;
        unit.fixed = entries.saturating_mul(ENTRY_WEIGHT);
        unit
    }

    /// The weights of the partitions of the unit on `west_rows` by `bits` cuts, from what
    /// they are made of (`unit`, [`Plan::unit_parts`]).
    pub(in crate::join) fn shares(&self, unit: &UnitParts, west_rows: u32, bits: u8) -> Shares {
        let bits = bits.min(unit.cuts);
        Shares::new(unit, bits, self.west_patterns(west_rows, bits))
    }

    /// The odds of the west half-boards of the unit on `west_rows` holding each pattern of
    /// the first `bits` cuts ([`west_patterns`]).
    fn west_patterns(&self, west_rows: u32, bits: u8) -> Vec<f32> {
        let rows = board_rows(self.shape, self.west(west_rows));
        west_patterns(&self.odds().west.cuts, rows, bits)
    }

    /// Part `part` of task `index` measured, for fitting weights to ([`PartSizes`]); with
    /// `whole_sides`, the sides' half-boards whole (every partition's) too.
    #[doc(hidden)]
    pub fn part_sizes(&self, index: usize, part: usize, whole_sides: bool) -> PartSizes {
        let (unit, partition) = self.work(index, part);
        let west_rows = self.units[unit];
        let (west_part, east_part, _) = partition.parts(&self.cut_plan());
        let bits = usize::from(partition.bits);
        let (table, h) = (self.table(), self.shape.h);
        let patterns = self.west_patterns(west_rows, partition.bits);
        let mut sizes = PartSizes::default();
        let (mut north, mut south) = Default::default();
        self.each_side(west_rows, |place, odds, east| {
            let side = self.side(
                place,
                table.rows(&mut north, h, place.north, place.north_rows),
                table.rows(&mut south, h, place.south, place.south_rows),
            );
            let pairs = self.side_pairs(table, place);
            let estimate = times(odds.halves(place, pairs), odds.ramp(place));
            let rows = board_rows(self.shape, place);
            let holds = odds.cuts.holds(rows);
            let share = (0..bits).fold(ONE, |share, cut| {
                let held = holds[cut];
                match (east, partition.value >> cut & 1 == 1) {
                    (false, true) => times(share, held),
                    (false, false) | (true, true) => times(share, ONE - held),
                    (true, false) => share,
                }
            });
            let made = side_halves(&side, if east { east_part } else { west_part });
            let plain = times(odds.halves(place, pairs), share);
            sizes.without_ramp[usize::from(east)] += plain;
            if whole_sides {
                sizes.whole[usize::from(east)] += side_halves(&side, Part::Whole);
                sizes.whole_estimate[usize::from(east)] += estimate;
            }
            if east {
                sizes.east += made;
                sizes.east_estimate += times(estimate, share);
            } else {
                let odds = patterns[usize::from(partition.value)];
                (sizes.west, sizes.west_estimate) = (made, (estimate as f32 * odds) as u64);
                sizes.west_apart = times(estimate, share);
            }
            sizes.entries += table.entries_on(h, place);
        });
        sizes
    }

    /// The odds that the west half-boards of the unit of part `part` of task `index` hold
    /// each cut, and its east ones (their sides' odds averaged by their estimated
    /// half-boards), in 2^-32: what its weight used ([`Plan::unit_parts`]), for fitting
    /// weights to.
    #[doc(hidden)]
    pub fn part_odds(&self, index: usize, part: usize) -> [Vec<u64>; 2] {
        let unit = self.unit_parts(self.table(), self.west_rows(index, part), None);
        let usable = self.cut_plan().first(MAX_CUTS).len();
        unit.held.map(|side| side[..usable].to_vec())
    }

    /// The pairs of quarter entries of a side: the exact bound from the whole table, an
    /// estimate from row totals.
    pub(in crate::join) fn side_pairs(&self, table: &Table, place: Place) -> u64 {
        match table {
            Table::Whole(quarter) => {
                let h = self.shape.h;
                let north = quarter.rows(place.north.table_rows(h, place.north_rows));
                let south = quarter.rows(place.south.table_rows(h, place.south_rows));
                self.side(place, north, south).bound()
            }
            Table::OnDemand { row_totals } => self.pairs_estimate(place, row_totals),
        }
    }

    /// The pairs of quarter entries of the west side and of the east sides of the unit of
    /// part `part` of task `index`, for measurements.
    #[doc(hidden)]
    pub fn pairs(&self, index: usize, part: usize) -> (u64, u64) {
        let [west, east] = self
            .unit_sides(self.table(), self.west_rows(index, part))
            .pairs;
        (west, east)
    }

    /// The half-boards estimated on the west side and on the east sides of the unit of part
    /// `part` of task `index` ([`SideOdds::halves`]), for measurements.
    #[doc(hidden)]
    pub fn halves(&self, index: usize, part: usize) -> (u64, u64) {
        let [west, east] = self
            .unit_sides(self.table(), self.west_rows(index, part))
            .halves;
        (west, east)
    }

    /// The pairs of quarter entries of a side, estimated from the placements on its
    /// quarters' rows (`row_totals`): as if a quarter's placements were spread evenly over
    /// the sets of columns of their size, `T_N T_S C(c, k) / (C(h, k) C(h, c - k))` for `c`
    /// columns, `k` of them north.
    pub(in crate::join) fn pairs_estimate(&self, place: Place, row_totals: &[u64]) -> u64 {
        let h = self.shape.h;
        let north = row_totals[place.north.table_rows(h, place.north_rows) as usize];
        let south = row_totals[place.south.table_rows(h, place.south_rows) as usize];
        let (c, k) = (place.columns.count_ones(), place.north_rows.count_ones());
        let spread = binomial(h, k) * binomial(h, c - k);
        let pairs = u128::from(north) * u128::from(south) * binomial(c, k) / spread.max(1);
        u64::try_from(pairs).unwrap_or(u64::MAX)
    }
}

/// The weight of reading one quarter entry, in the units of a partition's join
/// ([`Plan::unit_parts`]): fitted with it (the least squares of time per weight over 161
/// partitions of n = 27 put it at 19; each entry is placed, checked against the placed
/// queens and filtered by the partition's bits).
pub(in crate::join) const ENTRY_WEIGHT: u64 = 19;

/// One partition's sizes, made and estimated ([`Plan::part_sizes`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PartSizes {
    /// The west partition's half-boards, made and counted.
    pub west: u64,
    /// The east half-boards of the unit's layouts clear of the partition's bits, likewise.
    pub east: u64,
    /// The west ones estimated: the side's estimated half-boards (with the ramp of
    /// [`SideOdds::ramp`]) times the odds of its pattern of the partition bits
    /// ([`west_patterns`]), as the weights take them.
    pub west_estimate: u64,
    /// Likewise with the odds of each partition bit held (set) or not (clear) multiplied,
    /// as the weights took them before 0.9.0.
    pub west_apart: u64,
    /// The east ones estimated: each layout's east side's estimated half-boards (likewise)
    /// times the odds of not holding each set bit, summed.
    pub east_estimate: u64,
    /// The two estimates above without the ramp, west and east: what it changed.
    pub without_ramp: [u64; 2],
    /// The quarter entries the partition's sides read (placements on their quarters' rows,
    /// north and south, west and east).
    pub entries: u64,
    /// The unit's half-boards, west side and east sides, made whole and counted (when
    /// asked for; 0 otherwise).
    pub whole: [u64; 2],
    /// Their estimates with the ramp, before the partition's shares (likewise).
    pub whole_estimate: [u64; 2],
}

/// The half-boards of `side` that `part` keeps, made a piece at a time and counted.
pub(in crate::join) fn side_halves(side: &Side, part: Part) -> u64 {
    let (mut out, mut souths, mut cursor) = (Vec::new(), Vec::new(), Cursor::default());
    let mut total = 0;
    loop {
        out.clear();
        let done =
            side.fill::<_, true>(Portable, &mut out, &mut souths, 1 << 20, &mut cursor, part);
        total += out.len() as u64;
        if done {
            return total;
        }
    }
}

/// A unit's pairs of quarter entries and estimated half-boards: its west side's, and its
/// layouts' east sides' summed.
#[derive(Default)]
struct Sides {
    pairs: [u64; 2],
    halves: [u64; 2],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::count::half::Part;
    use crate::join::count::quarter::Quarter;
    use crate::join::plan::slice::row_totals;

    /// The pairs estimated from row totals (the weights from n = 26 on) follow the pairs
    /// the whole table bounds: summed over all units within a tenth, unit by unit within a
    /// factor of a few for most.
    #[test]
    fn estimated_pairs_follow_the_bounds() {
        for n in [15, 16, 17] {
            let plan = Plan::new(n, 8);
            let h = plan.shape.h;
            let whole = Quarter::build_with(h, false);
            let totals = row_totals(h);
            let (mut bounds, mut estimates, mut far) = (0u128, 0u128, 0);
            for &west in &plan.units {
                plan.each_side(west, |place, _, _| {
                    let north = whole.rows(place.north.table_rows(h, place.north_rows));
                    let south = whole.rows(place.south.table_rows(h, place.south_rows));
                    let bound = plan.side(place, north, south).bound();
                    let estimate = plan.pairs_estimate(place, &totals);
                    bounds += u128::from(bound);
                    estimates += u128::from(estimate);
                    far += usize::from(estimate > 4 * bound + 16 || bound > 4 * estimate + 16);
                });
            }
            let ratio = estimates as f64 / bounds as f64;
            assert!((0.9..1.1).contains(&ratio), "n = {n}: {ratio}");
            assert!(far * 20 < plan.units.len(), "n = {n}: {far} far off");
        }
    }

    /// One side of a unit, made and counted beside its estimates.
    struct RealSide {
        east: bool,
        /// Its pairs of quarter entries (the whole table's bound), its half-boards, their
        /// estimate from the odds, and the ramp's factor (2^-32).
        pairs: u64,
        halves: u64,
        estimate: u64,
        ramp: u64,
    }

    /// Every side of every unit of the n x n board, made and counted.
    fn real_sides(n: u32) -> Vec<RealSide> {
        let plan = Plan::new(n, 8);
        let h = plan.shape.h;
        let whole = Quarter::build_with(h, false);
        let mut sides = Vec::new();
        for &west in &plan.units {
            plan.each_side(west, |place, odds, east| {
                let north = whole.rows(place.north.table_rows(h, place.north_rows));
                let south = whole.rows(place.south.table_rows(h, place.south_rows));
                let side = plan.side(place, north, south);
                let pairs = side.bound();
                sides.push(RealSide {
                    east,
                    pairs,
                    halves: side_halves(&side, Part::Whole),
                    estimate: odds.halves(place, pairs),
                    ramp: odds.ramp(place),
                });
            });
        }
        sides
    }

    /// The standard deviation of `logs`.
    fn log_spread(logs: &[f64]) -> f64 {
        let mean = logs.iter().sum::<f64>() / logs.len() as f64;
        (logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / logs.len() as f64).sqrt()
    }

    fn ln(x: u64) -> f64 {
        (x.max(1) as f64).ln()
    }

    /// The half-boards estimated from a side's pairs of quarter entries (the weights) follow
    /// its real half-boards: summed over every side within a fifth, and side by side far
    /// closer than the pairs alone, whose share of real half-boards varies many times over.
    #[test]
    fn estimated_half_boards_follow_the_real_ones() {
        for n in [14, 15, 16, 17] {
            let sides = real_sides(n);
            let real: u128 = sides.iter().map(|s| u128::from(s.halves)).sum();
            let estimated: u128 = sides.iter().map(|s| u128::from(s.estimate)).sum();
            // The logs of estimate / real and of pairs / real, for sides of some size.
            let sized = || sides.iter().filter(|s| s.halves >= 100);
            let by_estimate: Vec<f64> = sized().map(|s| ln(s.estimate) - ln(s.halves)).collect();
            let by_pairs: Vec<f64> = sized().map(|s| ln(s.pairs) - ln(s.halves)).collect();
            let ratio = estimated as f64 / real as f64;
            assert!((0.8..1.25).contains(&ratio), "n = {n}: {ratio}");
            let (estimate_sd, pairs_sd) = (log_spread(&by_estimate), log_spread(&by_pairs));
            assert!(
                by_estimate.len() > 50,
                "n = {n}: {} sides",
                by_estimate.len()
            );
            assert!(estimate_sd < 0.25, "n = {n}: {estimate_sd}");
            assert!(
                estimate_sd * 2.0 < pairs_sd,
                "n = {n}: {estimate_sd} vs {pairs_sd}"
            );
        }
    }

    /// The ramp by the rows' distance from the middle ([`SideOdds::ramp`]) brings each
    /// side's estimated half-boards closer to its real ones: the log of estimate / real
    /// varies less with it, by a quarter or more, on both sides of an even board and on
    /// the west sides of an odd one (the east sides of odd boards gain less: their placed
    /// queens' odds are further off), and the sum stays within a third.
    #[test]
    fn the_ramp_brings_estimated_half_boards_closer_to_the_real_ones() {
        for n in [16, 17] {
            let sides = real_sides(n);
            let ramped = |s: &RealSide| times(s.estimate, s.ramp);
            let real: u128 = sides.iter().map(|s| u128::from(s.halves)).sum();
            let estimated: u128 = sides.iter().map(|s| u128::from(ramped(s))).sum();
            let kept = || {
                sides
                    .iter()
                    .filter(|s| s.halves >= 100 && (n % 2 == 0 || !s.east))
            };
            let plain: Vec<f64> = kept().map(|s| ln(s.estimate) - ln(s.halves)).collect();
            let with_ramp: Vec<f64> = kept().map(|s| ln(ramped(s)) - ln(s.halves)).collect();
            let (before, after) = (log_spread(&plain), log_spread(&with_ramp));
            assert!(plain.len() > 1000, "n = {n}: {} sides", plain.len());
            assert!(after < 0.75 * before, "n = {n}: {after} vs {before}");
            let ratio = estimated as f64 / real as f64;
            assert!((0.8..1.3).contains(&ratio), "n = {n}: {ratio}");
        }
    }
}
