//! How often a side's half-boards hold each cut diagonal, estimated without making them.
//! Were every queen of a side on a square drawn at random from the free squares of its row
//! on the side's columns, the queen of row `r` would stand on a diagonal with odds
//! `1 / free(r)` if the diagonal crosses one of those squares, and never otherwise (a row's
//! queen is on one diagonal of each direction, so the odds of its rows add up); the queens
//! placed before the join on odd boards count as part of the east half-board, so it always
//! holds their diagonals. Partitions are cut on these diagonals: a partition's east
//! half-boards are about the sides' times the odds of its set bits not held, its west ones
//! the side's times the odds of its whole pattern of bits, which [`super::patterns`] works
//! out from each row's squares on the cuts ([`CutOdds::squares`]) and brings to these odds,
//! and the partitions' weights ([`super::weight`]) are made from them.

use super::cuts::CutPlan;
use super::partition::{MAX_BITS, ONE};
use crate::join::count::half::Place;
use crate::join::count::squeeze::MAX_CUTS;
use crate::join::shape::{Diagonals, Shape};

/// The odds that a side's half-boards hold each cut (in the order partitions and then the
/// index take them: a partition's index is cut on the cuts after its bits), for the side's
/// columns and placed queens, whatever its rows: worked out once per layout
/// ([`super::odds::SideOdds`]), then read for each side by adding up its rows' odds
/// ([`CutOdds::holds`]).
pub(in crate::join) struct CutOdds {
    /// Per board row: the odds that its queen stands on each cut, in 2^-32 (zero where the
    /// cut crosses none of its free squares). Added up row by row, all cuts at once: the
    /// weights of n = 27 read every cut of every side of ten million units, and one cut
    /// at a time, by a popcount per class of rows of equal odds, took most of the plan's
    /// time.
    rows: Vec<[u64; MAX_CUTS]>,
    /// Per board row: the side's column (from 0) where it meets each of the partitions'
    /// cuts on a free square ([`NO_SQUARE`] elsewhere), for the odds of their patterns
    /// ([`super::patterns`]).
    columns: Vec<[u8; MAX_BITS as usize]>,
    /// The cuts the placed queens hold (bit `i` for cut `i`): always held.
    pub(in crate::join) placed: u32,
}

/// A row that meets a cut on none of its free squares.
const NO_SQUARE: u8 = u8::MAX;

/// The squares of a board row on the first cuts, for [`super::patterns`]: the cuts each
/// stands on (bit `i` for cut `i`: one or two, a diagonal of each direction), and the odds
/// of the row's queen standing on any one of its free squares, in 2^-32.
pub(in crate::join) struct RowSquares {
    pub(in crate::join) cuts: [u32; MAX_BITS as usize],
    pub(in crate::join) len: usize,
    pub(in crate::join) odds: u64,
}

impl CutOdds {
    /// The odds of a side on `columns` (bit `c` its column `first_column + c` of the board)
    /// beside the queens placed before the join on `blocked`.
    pub(in crate::join) fn new(
        (shape, cut_plan): (Shape, &CutPlan),
        columns: u32,
        first_column: u32,
        blocked: Diagonals,
    ) -> CutOdds {
        let Shape { n, h, far } = shape;
        let len = shape.shared();
        let mut odds = CutOdds {
            rows: vec![[0; MAX_CUTS]; n as usize],
            columns: vec![[NO_SQUARE; MAX_BITS as usize]; n as usize],
            placed: 0,
        };
        // The placed queens count as part of the east half-board: it holds their diagonals.
        let (anti, main) = (blocked.anti >> far, blocked.main >> far);
        for (i, &bit) in cut_plan.first(MAX_CUTS).iter().enumerate() {
            let placed = if bit < len {
                anti >> bit
            } else {
                main >> (bit - len)
            };
            if placed & 1 == 1 {
                odds.placed |= 1 << i;
                continue;
            }
            for r in 0..n {
                // The board column where row `r` meets the diagonal.
                let column = if bit < len {
                    i64::from(bit + far) - i64::from(r)
                } else {
                    i64::from(r + n - 1) - i64::from(bit - len + far)
                };
                let c = column - i64::from(first_column);
                if !(0..i64::from(h)).contains(&c)
                    || columns >> c & 1 == 0
                    || blocked.meets(queen_at(n, r, column as u32))
                {
                    continue;
                }
                let squares = free_squares(shape, columns, first_column, blocked, r);
                odds.rows[r as usize][i] = ONE / squares;
                if let Some(at) = odds.columns[r as usize].get_mut(i) {
                    *at = c as u8;
                }
            }
        }
        odds
    }

    /// The squares of board row `row` on the first `bits` cuts (at most [`MAX_BITS`]).
    pub(in crate::join) fn squares(&self, row: usize, bits: u8) -> RowSquares {
        let mut squares = RowSquares {
            cuts: [0; MAX_BITS as usize],
            len: 0,
            odds: 0,
        };
        // Columns already listed, and where.
        let mut at = [NO_SQUARE; 32];
        let columns = &self.columns[row][..usize::from(bits.min(MAX_BITS))];
        for (cut, &column) in columns.iter().enumerate() {
            if column == NO_SQUARE {
                continue;
            }
            let slot = &mut at[usize::from(column)];
            if *slot == NO_SQUARE {
                *slot = squares.len as u8;
                squares.len += 1;
            }
            squares.cuts[usize::from(*slot)] |= 1 << cut;
            squares.odds = self.rows[row][cut];
        }
        squares
    }

    /// The odds that a half-board of the side on board rows `rows` (north rows, then south
    /// ones from row `far`: [`board_rows`]) holds each cut, in 2^-32 (at most one): a row's
    /// queen stands on one diagonal of each direction, so its rows' odds add up.
    pub(in crate::join) fn holds(&self, rows: u64) -> [u64; MAX_CUTS] {
        let mut held = [0u64; MAX_CUTS];
        let mut rest = rows;
        while rest != 0 {
            let row = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some(odds) = self.rows.get(row) {
                for (held, odds) in held.iter_mut().zip(odds) {
                    *held += odds;
                }
            }
        }
        for (cut, held) in held.iter_mut().enumerate() {
            *held = if self.placed >> cut & 1 == 1 {
                ONE
            } else {
                (*held).min(ONE)
            };
        }
        held
    }
}

/// The board rows of the side at `place`: its north rows, then its south ones from `far`.
pub(in crate::join) fn board_rows(shape: Shape, place: Place) -> u64 {
    u64::from(place.north_rows) | u64::from(place.south_rows) << shape.far
}

/// The squares of board row `row` on a side's `columns` (bit `c` its column
/// `first_column + c`) that the queens placed before the join on `blocked` leave free: where
/// the row's queen can stand.
pub(in crate::join) fn free_squares(
    shape: Shape,
    columns: u32,
    first_column: u32,
    blocked: Diagonals,
    row: u32,
) -> u64 {
    (0..shape.h)
        .filter(|&c| columns >> c & 1 == 1)
        .filter(|&c| !blocked.meets(queen_at(shape.n, row, first_column + c)))
        .count() as u64
}

/// The diagonals of a queen on row `r`, column `c` of the n x n board.
fn queen_at(n: u32, r: u32, c: u32) -> Diagonals {
    Diagonals {
        anti: 1 << (r + c),
        main: 1 << (r + n - 1 - c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::count::quarter::Quarter;
    use crate::join::plan::tasks::Plan;

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
            let positions = plan.cut_plan().first(8).to_vec();
            // Per cut and side (west, east): sides; sums of the error and its square; the
            // sum of the squared error of one half.
            let mut stats = [[0f64; 4]; 16];
            for &west in &plan.units {
                plan.each_side(west, |place, side_odds, east| {
                    let north = whole.rows(place.north.table_rows(h, place.north_rows));
                    let south = whole.rows(place.south.table_rows(h, place.south_rows));
                    let side = plan.side(place, north, south);
                    let out = side.all_patterns();
                    if out.len() < 200 {
                        return;
                    }
                    for (i, &bit) in positions.iter().enumerate() {
                        let holding = out.iter().filter(|&&p| p >> bit & 1 == 1).count();
                        let real = (holding as f64 / out.len() as f64).max(0.01);
                        let held = side_odds.cuts.holds(board_rows(plan.shape, place))[i];
                        let estimate = (held as f64 / ONE as f64).max(0.01);
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
