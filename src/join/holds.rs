//! How often a side's half-boards hold each cut diagonal, estimated without making them,
//! and a partition's sizes measured against that estimate. Were every queen of a side on a
//! column drawn at random from the side's free squares in its row, the queen of row `r`
//! stands on a diagonal with odds `1 / free(r)` if the diagonal crosses a free square of
//! the side's columns in row `r`, and never otherwise; the placed queens of odd boards
//! count as part of the east half-board, so it always holds their diagonals. Partitions
//! are cut on these diagonals: a partition's west half-boards are about the side's times
//! the odds of its cut bits held or not, its east ones the sides' times the odds of its set
//! bits not held. Measured (`examples/join_partition.rs sizes`), these follow the real
//! sizes far better than taking every cut as held by half the half-boards; the weights do
//! not use them yet.

use super::half::{Cursor, Part, Place, Side};
use super::index::CutPlan;
use super::plan::{Plan, Table};
use super::shape::Shape;
use super::slice::row_totals;
use std::borrow::Cow;

/// One in fixed point: the odds below are in 2^-32.
pub(super) const ONE: u64 = 1 << 32;

/// The odds that a half-board of the side at `place` holds the diagonal of pattern bit `bit`
/// ([`Shape::pattern`]: anti-diagonals in the low `shared` bits, main diagonals above them),
/// in 2^-32: the side's rows whose square on that diagonal lies on one of its columns, over
/// its columns (at most one).
pub(super) fn hold_odds(shape: Shape, place: Place, bit: u32) -> u64 {
    let Shape { n, h, far } = shape;
    let len = shape.shared();
    // A square is free when no queen placed before the join (odd boards' middle row and
    // column) holds its diagonals: a row's queen stands on one of its free squares.
    let free = |r: u32, column: u32| {
        let main = r + n - 1 - column;
        place.blocked.anti >> (r + column) & 1 == 0 && place.blocked.main >> main & 1 == 0
    };
    // The placed queens count as part of the east half-board: it holds their diagonals.
    let (anti, main) = (place.blocked.anti >> far, place.blocked.main >> far);
    let placed = if bit < len {
        anti >> bit
    } else {
        main >> (bit - len)
    };
    if placed & 1 == 1 {
        return ONE;
    }
    let rows = u64::from(place.north_rows) | u64::from(place.south_rows) << far;
    let mut odds = 0u64;
    let mut left = rows;
    while left != 0 {
        let r = left.trailing_zeros();
        left &= left - 1;
        // The board column where row `r` meets the diagonal.
        let column = if bit < len {
            i64::from(bit + far) - i64::from(r)
        } else {
            i64::from(r + n - 1) - i64::from(bit - len + far)
        };
        let c = column - i64::from(place.first_column);
        if !(0..i64::from(h)).contains(&c) || place.columns >> c & 1 == 0 {
            continue;
        }
        let column = column as u32;
        let squares = (0..h)
            .filter(|&c| place.columns >> c & 1 == 1 && free(r, place.first_column + c))
            .count() as u64;
        if free(r, column) && squares > 0 {
            odds += ONE / squares;
        }
    }
    odds.min(ONE)
}

/// One partition's sizes, made and estimated ([`Plan::part_sizes`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PartSizes {
    /// The west partition's half-boards, made and counted.
    pub west: u64,
    /// The east half-boards of the unit's layouts clear of the partition's bits, likewise.
    pub east: u64,
    /// The west ones estimated: the side's estimated half-boards times the odds of each
    /// partition bit held (set) or not (clear).
    pub west_estimate: u64,
    /// The east ones estimated: each layout's east side's estimated half-boards times the
    /// odds of not holding each set bit, summed.
    pub east_estimate: u64,
    /// The same with each cut's odds averaged over the layouts (weighted by their sides'
    /// estimated half-boards) before the product: cheaper, coarser at odd n.
    pub east_averaged: u64,
    /// The quarter entries the partition's sides read (placements on their quarters'
    /// rows, north and south, west and east): work done once per partition.
    pub entries: u64,
}

impl Plan {
    /// Part `part` of task `index` measured, for fitting weights to ([`PartSizes`]).
    #[doc(hidden)]
    pub fn part_sizes(&self, index: usize, part: usize) -> PartSizes {
        let (unit, partition) = self.work(index, part);
        let west_rows = self.units[unit];
        let cuts = CutPlan::new(self.shape);
        let (west_part, east_part, _) = partition.parts(&cuts);
        let positions = cuts.first(usize::from(partition.bits));
        let (table, h) = (self.table(), self.shape.h);
        let totals = match table {
            Table::OnDemand { row_totals } => Cow::Borrowed(row_totals),
            Table::Whole(_) => Cow::Owned(row_totals(h)),
        };
        let times = |a: u64, b: u64| ((u128::from(a) * u128::from(b)) >> 32) as u64;
        let mut sizes = PartSizes::default();
        // Per cut, the east sides' estimated half-boards times their odds of not holding it.
        let (mut east_sum, mut clear_sum) = (0u64, [0u64; 16]);
        let (mut north, mut south) = Default::default();
        self.each_side(west_rows, |place, odds, east| {
            let side = self.side(
                place,
                table.rows(&mut north, h, place.north, place.north_rows),
                table.rows(&mut south, h, place.south, place.south_rows),
            );
            let estimate = odds.halves(place, self.side_pairs(table, place));
            let mut share = ONE;
            for (i, &bit) in positions.iter().enumerate() {
                let held = hold_odds(self.shape, place, bit);
                let set = partition.value >> i & 1 == 1;
                if east {
                    clear_sum[i] += times(estimate, ONE - held);
                }
                share = match (east, set) {
                    (false, true) => times(share, held),
                    (false, false) | (true, true) => times(share, ONE - held),
                    (true, false) => share,
                };
            }
            let made = side_halves(&side, if east { east_part } else { west_part });
            if east {
                (sizes.east, sizes.east_estimate) = (
                    sizes.east + made,
                    sizes.east_estimate + times(estimate, share),
                );
                east_sum += estimate;
            } else {
                (sizes.west, sizes.west_estimate) = (made, times(estimate, share));
            }
            sizes.entries += totals[place.north.table_rows(h, place.north_rows) as usize]
                + totals[place.south.table_rows(h, place.south_rows) as usize];
        });
        sizes.east_averaged = east_sum;
        for (i, &clear) in clear_sum.iter().enumerate().take(positions.len()) {
            if partition.value >> i & 1 == 1 {
                let averaged = u128::from(sizes.east_averaged) * u128::from(clear);
                sizes.east_averaged = (averaged / u128::from(east_sum.max(1))) as u64;
            }
        }
        sizes
    }
}

/// The half-boards of `side` that `part` keeps, made a piece at a time and counted.
pub(super) fn side_halves(side: &Side, part: Part) -> u64 {
    let (mut out, mut souths, mut cursor) = (Vec::new(), Vec::new(), Cursor::default());
    let mut total = 0;
    loop {
        out.clear();
        let done = side.fill::<true>(&mut out, &mut souths, 1 << 20, &mut cursor, part);
        total += out.len() as u64;
        if done {
            return total;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::quarter::Quarter;

    /// The odds of holding each of the first eight cuts follow the share of a side's real
    /// half-boards that hold it (n = 16 and 17, every side of some size): their log's error
    /// has a standard deviation under 0.25 and a mean under 0.15 for each cut, and is less
    /// than half that of taking every cut as held by half of them. (Without the placed
    /// queens' diagonals counted as held, odd n's east sides were off by 0.3-0.6 on average.)
    #[test]
    fn hold_odds_follow_the_real_half_boards() {
        for n in [16u32, 17] {
            let plan = Plan::new(n, 8);
            let h = plan.shape.h;
            let whole = Quarter::build_with(h, false);
            let positions = CutPlan::new(plan.shape).first(8).to_vec();
            // Per cut and side (west, east): sides; sums of the error and its square; the
            // sum of the squared error of one half.
            let mut stats = [[0f64; 4]; 16];
            for &west in &plan.units {
                plan.each_side(west, |place, _, east| {
                    let north = whole.rows(place.north.table_rows(h, place.north_rows));
                    let south = whole.rows(place.south.table_rows(h, place.south_rows));
                    let side = plan.side(place, north, south);
                    let (mut out, mut souths, mut at) = (Vec::new(), Vec::new(), Cursor::default());
                    while !side.fill::<false>(&mut out, &mut souths, 1 << 30, &mut at, Part::Whole)
                    {
                    }
                    if out.len() < 200 {
                        return;
                    }
                    for (i, &bit) in positions.iter().enumerate() {
                        let holding = out.iter().filter(|&&p| p >> bit & 1 == 1).count();
                        let real = (holding as f64 / out.len() as f64).max(0.01);
                        let estimate =
                            (hold_odds(plan.shape, place, bit) as f64 / ONE as f64).max(0.01);
                        let error = (estimate / real).ln();
                        let s = &mut stats[i + 8 * usize::from(east)];
                        s[0] += 1.0;
                        s[1] += error;
                        s[2] += error * error;
                        s[3] += (0.5 / real).ln().powi(2);
                    }
                });
            }
            let (mut squared, mut halves) = (0.0, 0.0);
            for (k, s) in stats.iter().enumerate() {
                assert!(s[0] > 100.0, "n = {n}, cut {k}: {} sides", s[0]);
                let mean = s[1] / s[0];
                let sd = (s[2] / s[0] - mean * mean).sqrt();
                assert!(
                    mean.abs() < 0.15 && sd < 0.25,
                    "n = {n}, cut {k}: {mean} {sd}"
                );
                squared += s[2];
                halves += s[3];
            }
            assert!(squared * 4.0 < halves, "n = {n}: {squared} vs {halves}");
        }
    }
}
