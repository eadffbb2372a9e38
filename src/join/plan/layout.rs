//! The units of the join engine: which queens odd boards place before the join (layouts),
//! which sets of west rows are counted under which layouts and what each pair is worth
//! (symmetry), one word per unit.

use crate::join::shape::{Diagonals, Shape};

/// The queens placed before the join (the middle row and column of odd boards) and what they
/// leave: rows are `h` north bits then `h` south bits, columns `h` bits of each half. The
/// placed queens count as part of the east half-board, so the west half-boards of a set of
/// rows are the same under every layout and are built once for all of them.
#[derive(Clone, Copy, Debug)]
pub(in crate::join) struct Layout {
    pub(in crate::join) blocked: Diagonals,
    pub(in crate::join) rows: u32,
    pub(in crate::join) east: u32,
    /// How many boards of the whole each counted one stands for (8 for a placement of
    /// middle queens that the symmetries move to eight others).
    pub(in crate::join) weight: u32,
    /// Whether the rest of the board keeps the up-down and left-right symmetries.
    pub(in crate::join) symmetric: bool,
}

/// The layouts of a board: nothing placed on even boards; on odd ones the centre queen,
/// and one placement of the middle row's and column's queens per orbit of the symmetries.
pub(in crate::join) fn layouts(shape: Shape) -> Vec<Layout> {
    let Shape { n, h, .. } = shape;
    let all = (1u32 << h) - 1;
    let full = Layout {
        blocked: Diagonals::default(),
        rows: (1u32 << (2 * h)) - 1,
        east: all,
        weight: 1,
        symmetric: true,
    };
    if n % 2 == 0 {
        return vec![full];
    }
    let queen = |r: u32, c: u32| Diagonals {
        anti: 1 << (r + c),
        main: 1 << (r + n - 1 - c),
    };
    // The centre queen.
    let mut list = vec![Layout {
        blocked: queen(h, h),
        ..full
    }];
    // The middle column's queen `a` rows below the centre, the middle row's `b` columns right
    // of it: the eight symmetries act on (a, b) as signed swaps, and |a| = |b| would attack.
    for a in 1..=h {
        for b in a + 1..=h {
            list.push(Layout {
                blocked: queen(h + a, h).join(queen(h, h + b)),
                rows: full.rows & !(1 << (h + a - 1)),
                east: all & !(1 << (b - 1)),
                weight: 8,
                symmetric: false,
            });
        }
    }
    list
}

/// The east side of a unit under one layout, and what each of its pairs is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::join) struct Job {
    pub(in crate::join) layout: u32,
    /// The size of the orbit of the unit's rows under the symmetries the layout keeps, times
    /// the layout's weight.
    pub(in crate::join) multiplicity: u32,
}

/// Reverses the `2h` row bits: row `r` becomes row `n - 1 - r`.
pub(in crate::join) fn reverse_rows(rows: u32, h: u32) -> u32 {
    rows.reverse_bits() >> (32 - 2 * h)
}

/// How many times the east rows `east` of a symmetric layout are counted: 0 unless they are
/// the least of their images under the up-down flip and the left-right mirror, else the
/// number of distinct images.
pub(in crate::join) fn orbit_multiplicity(east: u32, rows: u32, h: u32) -> u32 {
    let flip = reverse_rows(east, h);
    let mirror = rows ^ east;
    let orbit = [east, flip, mirror, reverse_rows(mirror, h)];
    if orbit.iter().any(|&t| t < east) {
        return 0;
    }
    let mut distinct = orbit;
    distinct.sort_unstable();
    1 + distinct.windows(2).filter(|w| w[0] != w[1]).count() as u32
}

/// The layouts the west rows `west` are joined under, with what each of their pairs is worth,
/// in `out` (emptied first) in the order of the layouts.
pub(in crate::join) fn jobs_of(shape: Shape, layouts: &[Layout], west: u32, out: &mut Vec<Job>) {
    out.clear();
    for (index, layout) in layouts.iter().enumerate() {
        if west & !layout.rows != 0 {
            continue;
        }
        let east = layout.rows ^ west;
        let multiplicity = if layout.symmetric {
            orbit_multiplicity(east, layout.rows, shape.h)
        } else {
            1
        };
        if multiplicity > 0 {
            out.push(Job {
                layout: index as u32,
                multiplicity: multiplicity * layout.weight,
            });
        }
    }
}

/// The columns each board row's queen may take in the pairs the west rows `west` make under
/// `layout` (bit `c` for column `c`, row by row): a west row's queen in the west half, an
/// east row's in the layout's east columns, and the queens an odd board places first in
/// their one square each (the middle row's, the middle column's). The placements that keep
/// to them are exactly the pairs of half-boards the join counts there, so a search kept to
/// them counts the same work another way (`search::restricted`).
pub(in crate::join) fn allowed_columns(shape: Shape, layout: &Layout, west: u32) -> Vec<u32> {
    let Shape { n, h, far } = shape;
    let all = (1u32 << h) - 1;
    let west_columns = all;
    let east_columns = layout.east << far;
    // Board row of each of the 2h row bits: the north ones first, the south ones past the
    // middle row.
    let board_row = |bit: u32| if bit < h { bit } else { far + bit - h };
    let mut allowed = vec![0u32; n as usize];
    for bit in 0..2 * h {
        if layout.rows >> bit & 1 == 1 {
            allowed[board_row(bit) as usize] = if west >> bit & 1 == 1 {
                west_columns
            } else {
                east_columns
            };
        }
    }
    if n % 2 == 1 {
        // The middle row's queen: the centre, or the east column the layout leaves out.
        let taken = all & !layout.east;
        allowed[h as usize] = if taken == 0 { 1 << h } else { taken << far };
        // The middle column's queen, in the south row the layout leaves out (if any).
        let removed = ((1u32 << (2 * h)) - 1) & !layout.rows;
        if removed != 0 {
            allowed[board_row(removed.trailing_zeros()) as usize] = 1 << h;
        }
    }
    allowed
}

/// The units: every set of `h` west rows joined under some layout, in increasing order. Their
/// layouts are worked out again where a unit is counted ([`jobs_of`]), so that a plan holds
/// one word per unit (some 10^7 units at n = 27, 28, each under up to 79 layouts at 27).
pub(in crate::join) fn units(shape: Shape, layouts: &[Layout]) -> Vec<u32> {
    let h = shape.h;
    let all = (1u32 << (2 * h)) - 1;
    let mut units = Vec::new();
    let mut jobs = Vec::new();
    let mut west = (1u32 << h) - 1;
    while west <= all {
        jobs.clear();
        jobs_of(shape, layouts, west, &mut jobs);
        if !jobs.is_empty() {
            units.push(west);
        }
        // The next set with as many members: the lowest run of ones moves up by one place
        // and the rest of that run drops to the bottom.
        let low = west & west.wrapping_neg();
        let moved = west + low;
        west = moved | (((west ^ moved) >> 2) / low);
    }
    units
}
