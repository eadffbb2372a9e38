//! How many of a side's pairs of quarter entries make half-boards, estimated without making
//! them: the odds that a north and a south queen, or a queen and one placed before the join,
//! meet on a diagonal, were every queen on a column drawn at random from the side's. The
//! weights ([`super::weight`]) are made from these estimates.

use super::half::Place;
use super::holds::{CutOdds, free_squares};
use super::partition::{ONE, times};
use super::shape::{Diagonals, Shape};

/// What the half-board estimate of the west side, and of each layout's east side, needs.
pub(super) struct Odds {
    pub(super) west: SideOdds,
    /// Indexed by layout.
    pub(super) east: Vec<SideOdds>,
}

/// The odds that make a side's pairs of quarter entries into half-boards, if every queen
/// stood on a column drawn at random from the side's ([`SideOdds::halves`]).
pub(super) struct SideOdds {
    /// For a north and a south queen `d` rows apart (`d < h`): the share of pairs of the
    /// side's `m` columns, drawn at random, that are not `d` apart, `1 - q(d) / (m (m - 1))`
    /// (`q(d)` the ordered pairs of its columns `d` apart). Queens `h` or more rows apart
    /// never meet.
    clear: [u64; 32],
    /// For each board row: the share of the side's columns whose square there is clear of
    /// the queens placed before the join (odd boards' middle row and column); all one
    /// where none are placed.
    free: [u64; 32],
    shape: Shape,
    /// The odds of holding each cut, for the partitions' weights.
    pub(super) cuts: CutOdds,
}

impl SideOdds {
    /// The odds of a side on `columns` (bit `c` its column `first_column + c` of the board)
    /// beside the queens placed before the join on `blocked`.
    pub(super) fn new(
        shape: Shape,
        columns: u32,
        first_column: u32,
        blocked: Diagonals,
    ) -> SideOdds {
        let Shape { n, h, .. } = shape;
        let m = u64::from(columns.count_ones()).max(1);
        let mut clear = [ONE; 32];
        if m > 1 {
            let all = m * (m - 1);
            for (d, clear) in clear.iter_mut().enumerate().take(h as usize).skip(1) {
                let apart = 2 * u64::from((columns & (columns >> d)).count_ones());
                *clear = ((all - apart.min(all)) << 32) / all;
            }
        }
        let mut free = [ONE; 32];
        for (row, free) in free.iter_mut().enumerate().take(n as usize) {
            let row = row as u32;
            let clear_squares = free_squares(shape, columns, first_column, blocked, row);
            *free = (clear_squares << 32) / m;
        }
        SideOdds {
            clear,
            free,
            shape,
            cuts: CutOdds::new(shape, columns, first_column, blocked),
        }
    }

    /// The half-boards of a side with `pairs` pairs of quarter entries, estimated: the pairs
    /// times the share whose queens meet neither each other nor a queen placed before the
    /// join, were every queen on a column drawn at random from the side's: the product of
    /// [`SideOdds::clear`] over every north and south queen fewer than `h` rows apart, and
    /// of [`SideOdds::free`] over every queen. Measured against every side's real
    /// half-boards at n = 14 to 17 (a unit test) and 18 and 20, the estimate's log varied
    /// with a standard deviation of 0.09 to 0.15, where the share of pairs that make
    /// half-boards was anywhere from 0.05 to 0.95. Integer arithmetic only.
    pub(super) fn halves(&self, place: Place, pairs: u64) -> u64 {
        let Shape { h, far, .. } = self.shape;
        let mut share = ONE;
        let mut north = place.north_rows;
        while north != 0 {
            let r = north.trailing_zeros();
            north &= north - 1;
            share = times(share, self.free[r as usize]);
            // South rows `s` with far + s - r < h: those below r - (far - h).
            let near = r.saturating_sub(far - h);
            let mut south = place.south_rows & ((1u32 << near) - 1);
            while south != 0 {
                let s = south.trailing_zeros();
                south &= south - 1;
                share = times(share, self.clear[(far + s - r) as usize]);
            }
        }
        let mut south = place.south_rows;
        while south != 0 {
            let s = south.trailing_zeros();
            south &= south - 1;
            share = times(share, self.free[(far + s) as usize]);
        }
        u64::try_from((u128::from(pairs) * u128::from(share)) >> 32).unwrap_or(u64::MAX)
    }
}
