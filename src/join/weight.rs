//! A unit's weight: the pairs of quarter entries its sides come from (exact bounds from the
//! whole table, or estimates from the row totals from n = 26 on), and the formula that makes
//! them an estimate of its time.

use super::binomial::binomial;
use super::half::Place;
use super::layout::jobs_of;
use super::plan::{Plan, Table};

impl Plan {
    /// The pairs of quarter entries of the west side of the unit on `west_rows`, and the
    /// unit's weight: about a nanosecond of one core each (at least 1), from the pairs of
    /// quarter entries its half-boards come from, `x = 16 W + 5 E` (W the west side's pairs,
    /// E the east sides' of all its layouts) to the power 7/8. A unit's time grows about
    /// linearly with its half-boards, as the index keeps its buckets at a fixed size with
    /// more cuts for more half-boards, and a little slower than linearly in the largest
    /// units, whose cuts prune more (fitted to every task's time at n = 18 to 21; the
    /// product `W E` that bounds the pairs over-weighted the largest units several times
    /// over, and an ETA that follows it ran 15 to 28 % short at 5 % of the work). With tables
    /// built on demand, the pairs are estimated from the placements on each quarter's rows
    /// (`Plan::pairs_estimate`). Integer arithmetic only: every machine deals the same
    /// shards.
    pub(super) fn unit_size(&self, table: &Table, west_rows: u32) -> (u64, u64) {
        let (west, east) = self.unit_pairs(table, west_rows);
        let x = u128::from(west) * 16 + u128::from(east) * 5;
        // x^(7/8) = sqrt(x * x^(1/2) * x^(1/4)).
        let root = x.isqrt();
        let weight = (x * root * root.isqrt()).isqrt();
        (west, u64::try_from(weight).unwrap_or(u64::MAX).max(1))
    }

    /// The pairs of quarter entries of the west side of the unit on `west_rows`, and of the
    /// east sides of all its layouts: exact bounds from the whole table, estimates from row
    /// totals.
    pub(super) fn unit_pairs(&self, table: &Table, west_rows: u32) -> (u64, u64) {
        let mut jobs = Vec::new();
        jobs_of(self.shape, &self.layouts, west_rows, &mut jobs);
        let pairs = |place: Place| match table {
            Table::Whole(quarter) => {
                let h = self.shape.h;
                let north = quarter.rows(place.north.table_rows(h, place.north_rows));
                let south = quarter.rows(place.south.table_rows(h, place.south_rows));
                self.side(place, north, south).bound()
            }
            Table::OnDemand { row_totals } => self.pairs_estimate(place, row_totals),
        };
        let west = pairs(self.west(west_rows));
        let east = jobs
            .iter()
            .map(|&job| pairs(self.east(west_rows, job)))
            .fold(0u64, u64::saturating_add);
        (west, east)
    }

    /// [`Plan::unit_pairs`] of the unit of part `part` of task `index`, for measurements.
    #[doc(hidden)]
    pub fn pairs(&self, index: usize, part: usize) -> (u64, u64) {
        self.unit_pairs(self.table(), self.west_rows(index, part))
    }

    /// The pairs of quarter entries of a side, estimated from the placements on its
    /// quarters' rows (`row_totals`): as if a quarter's placements were spread evenly over
    /// the sets of columns of their size, `T_N T_S C(c, k) / (C(h, k) C(h, c - k))` for `c`
    /// columns, `k` of them north.
    pub(super) fn pairs_estimate(&self, place: Place, row_totals: &[u64]) -> u64 {
        let h = self.shape.h;
        let north = row_totals[place.north.table_rows(h, place.north_rows) as usize];
        let south = row_totals[place.south.table_rows(h, place.south_rows) as usize];
        let (c, k) = (place.columns.count_ones(), place.north_rows.count_ones());
        let spread = binomial(h, k) * binomial(h, c - k);
        let pairs = u128::from(north) * u128::from(south) * binomial(c, k) / spread.max(1);
        u64::try_from(pairs).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::quarter::Quarter;
    use crate::join::slice::row_totals;

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
            let mut jobs = Vec::new();
            for &west in &plan.units {
                jobs.clear();
                jobs_of(plan.shape, &plan.layouts, west, &mut jobs);
                let places = std::iter::once(plan.west(west))
                    .chain(jobs.iter().map(|&job| plan.east(west, job)));
                for place in places {
                    let north = whole.rows(place.north.table_rows(h, place.north_rows));
                    let south = whole.rows(place.south.table_rows(h, place.south_rows));
                    let bound = plan.side(place, north, south).bound();
                    let estimate = plan.pairs_estimate(place, &totals);
                    bounds += u128::from(bound);
                    estimates += u128::from(estimate);
                    far += usize::from(estimate > 4 * bound + 16 || bound > 4 * estimate + 16);
                }
            }
            let ratio = estimates as f64 / bounds as f64;
            assert!((0.9..1.1).contains(&ratio), "n = {n}: {ratio}");
            assert!(far * 20 < plan.units.len(), "n = {n}: {far} far off");
        }
    }
}
