//! How many of a side's pairs of quarter entries make half-boards, estimated without making
//! them: the odds that a north and a south queen, or a queen and one placed before the join,
//! meet on a diagonal, were every queen on a column drawn at random from the side's. The
//! weights ([`super::weight`]) are made from these estimates.

use super::cuts::CutPlan;
use super::holds::{CutOdds, board_rows, free_squares};
use super::partition::{ONE, times};
use crate::join::count::half::Place;
use crate::join::shape::{Diagonals, Shape};

/// What the half-board estimate of the west side, and of each layout's east side, needs.
pub(in crate::join) struct Odds {
    pub(in crate::join) west: SideOdds,
    /// Indexed by layout.
    pub(in crate::join) east: Vec<SideOdds>,
}

/// [`SideOdds::ramp`]'s slope `A` for a quarter of `h` rows, in thousandths: fitted by
/// least squares to every side of n = 16 to 21 and a fifth of the units of n = 22, both
/// sides pooled (h = 8 to 11: 147, 169, 188, 200, growing less with each row); for larger
/// quarters, whose sides' half-boards cannot all be made to fit it, carried on along
/// `A = 0.2 + 0.166 ln(h / 11)` (0.228 at h = 13, 0.240 at h = 14). Below h = 8 (no
/// partitions there) the slope at 8.
const RAMP_SLOPE: [i128; 15] = [
    147, 147, 147, 147, 147, 147, 147, 147, 147, 169, 188, 200, 214, 228, 240,
];

/// For each board row, `exp(A (u - 1/2))` in 2^-32 (see [`SideOdds::ramp`]); one on the
/// middle row of odd boards, which no side's queen stands on. Integer arithmetic only (the
/// weights must be the same on every machine): `exp(y)` as `1 + y + y^2 / 2`, which for
/// `|y| < 0.2` is within 0.2 % of it.
fn ramp_by_row(shape: Shape) -> [u64; 32] {
    let Shape { n, h, far } = shape;
    let mut ramp = [ONE; 32];
    if h < 2 {
        return ramp;
    }
    let span = i128::from(h - 1);
    for (row, factor) in ramp.iter_mut().enumerate().take(n as usize) {
        let row = row as u32;
        // Rows from the middle: 1 beside it, h at the board's edge.
        let distance = match row {
            r if r < h => h - r,
            r if r >= far => r - far + 1,
            _ => continue,
        };
        // y = A ((distance - 1) / (h - 1) - 1/2), in 2^-32.
        let twice = 2 * i128::from(distance - 1) - span;
        let slope = RAMP_SLOPE[(h as usize).min(RAMP_SLOPE.len() - 1)];
        let y = ((slope * twice) << 32) / (2000 * span);
        let exp = (1i128 << 32) + y + ((y * y) >> 33);
        *factor = exp as u64;
    }
    ramp
}

/// The odds that make a side's pairs of quarter entries into half-boards, if every queen
/// stood on a column drawn at random from the side's ([`SideOdds::halves`]).
pub(in crate::join) struct SideOdds {
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
    pub(in crate::join) cuts: CutOdds,
    /// For each board row: the factor its queen's distance from the middle row makes of a
    /// side's estimate ([`SideOdds::ramp`]), in 2^-32.
    ramp: [u64; 32],
}

impl SideOdds {
    /// The odds of a side on `columns` (bit `c` its column `first_column + c` of the board)
    /// beside the queens placed before the join on `blocked`.
    pub(in crate::join) fn new(
        (shape, cuts): (Shape, &CutPlan),
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
            cuts: CutOdds::new((shape, cuts), columns, first_column, blocked),
            ramp: ramp_by_row(shape),
        }
    }

    /// The factor that brings [`SideOdds::halves`] of a side on `place` closer to its real
    /// half-boards, in 2^-32: the product over its rows of `exp(A (u - 1/2))`, `u` the row's
    /// distance from the middle row as a share of the farthest (0 beside the middle, 1 at
    /// the board's edge). Against every side's real half-boards at n = 16 to 21 and a fifth
    /// of n = 22's, the log of `halves` / real fell with the side's rows' distances from
    /// the middle, with a slope ([`RAMP_SLOPE`]) that grows with the quarter; that one term
    /// took its standard deviation from 0.13-0.16 to 0.06-0.08 on even boards (0.10-0.12 to
    /// 0.05-0.06 on odd boards' west sides, 0.15-0.20 to 0.13-0.14 on their east sides,
    /// which the placed queens' odds leave further off). On 40 partitions drawn by weight
    /// at each of n = 27 and 28, made and counted: the east sides' estimates from 0.17 and
    /// 0.20 to 0.09 and 0.13, the west partitions' from 0.26 and 0.37 to 0.20 and 0.31.
    /// Used by the partitions' weights (n = 24 on); the whole units' formula (n <= 23) was
    /// fitted to `halves` alone.
    pub(in crate::join) fn ramp(&self, place: Place) -> u64 {
        let mut rows = board_rows(self.shape, place);
        let mut factor = ONE;
        while rows != 0 {
            let row = rows.trailing_zeros();
            rows &= rows - 1;
            factor = times(factor, self.ramp[row as usize]);
        }
        factor
    }

    /// The half-boards of a side with `pairs` pairs of quarter entries, estimated: the pairs
    /// times the share whose queens meet neither each other nor a queen placed before the
    /// join, were every queen on a column drawn at random from the side's: the product of
    /// [`SideOdds::clear`] over every north and south queen fewer than `h` rows apart, and
    /// of [`SideOdds::free`] over every queen. Measured against every side's real
    /// half-boards at n = 14 to 17 (a unit test) and 18 and 20, the estimate's log varied
    /// with a standard deviation of 0.09 to 0.15, where the share of pairs that make
    /// half-boards was anywhere from 0.05 to 0.95. Integer arithmetic only.
    pub(in crate::join) fn halves(&self, place: Place, pairs: u64) -> u64 {
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
