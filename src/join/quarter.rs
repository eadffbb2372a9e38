//! The quarter table: every placement of non-attacking queens in the north-west quarter of
//! the board, filed by the rows and columns it uses, and the views that read it as any of the
//! four quarters.

use super::{Diagonals, Shape};

/// Every placement of non-attacking queens in the north-west quarter, filed by the (rows,
/// columns) it uses. The other three quarters are its mirror images (`View`), so one table
/// serves all four. An entry is two words of `2h - 1` bits: the anti-diagonals `i + j` and the
/// main diagonals `i - j + h - 1` of its queens, in the quarter's own coordinates.
pub(super) struct Quarter {
    h: u32,
    /// `entries[offsets[key]..offsets[key + 1]]` for `key = rows << h | columns`.
    offsets: Vec<u32>,
    entries: Vec<[u32; 2]>,
    /// The most entries filed under one key.
    pub(super) longest: usize,
}

impl Quarter {
    pub(super) fn build(h: u32) -> Quarter {
        let keys = 1usize << (2 * h);
        let mut offsets = vec![0u32; keys + 1];
        walk_quarter(h, 0, 0, 0, [0, 0], &mut |key, _| offsets[key + 1] += 1);
        for k in 0..keys {
            offsets[k + 1] += offsets[k];
        }
        let mut next = offsets.clone();
        let mut entries = vec![[0, 0]; offsets[keys] as usize];
        walk_quarter(h, 0, 0, 0, [0, 0], &mut |key, d| {
            entries[next[key] as usize] = d;
            next[key] += 1;
        });
        let longest = offsets.windows(2).map(|w| (w[1] - w[0]) as usize).max();
        Quarter {
            h,
            offsets,
            entries,
            longest: longest.unwrap_or(0),
        }
    }
}

/// Places queens (or none) in the quarter's rows `i..`, calling `found` with every placement.
fn walk_quarter(
    h: u32,
    i: u32,
    rows: u32,
    columns: u32,
    d: [u32; 2],
    found: &mut dyn FnMut(usize, [u32; 2]),
) {
    if i == h {
        found(((rows << h) | columns) as usize, d);
        return;
    }
    walk_quarter(h, i + 1, rows, columns, d, found);
    for j in 0..h {
        let queen = [1 << (i + j), 1 << (i + h - 1 - j)];
        if columns & (1 << j) == 0 && (d[0] & queen[0]) | (d[1] & queen[1]) == 0 {
            let next = [d[0] | queen[0], d[1] | queen[1]];
            walk_quarter(h, i + 1, rows | 1 << i, columns | 1 << j, next, found);
        }
    }
}

/// One of the four quarters, seen through the north-west table: the left-right mirror swaps
/// the two diagonal directions, the up-down flip reverses them, and each reverses the
/// quarter's columns or rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum View {
    NorthWest,
    NorthEast,
    SouthWest,
    SouthEast,
}

impl View {
    /// The entries of this quarter that use `rows` and `columns` (in its own bit order: bit
    /// `i` is its `i`-th row or column from the top or the left).
    #[inline(always)]
    pub(super) fn get(self, q: &Quarter, rows: u32, columns: u32) -> &[[u32; 2]] {
        let reverse = |x: u32| x.reverse_bits() >> (32 - q.h);
        let (rows, columns) = match self {
            View::NorthWest => (rows, columns),
            View::NorthEast => (rows, reverse(columns)),
            View::SouthWest => (reverse(rows), columns),
            View::SouthEast => (reverse(rows), reverse(columns)),
        };
        let key = ((rows << q.h) | columns) as usize;
        &q.entries[q.offsets[key] as usize..q.offsets[key + 1] as usize]
    }

    /// An entry's diagonals in whole-board coordinates.
    #[inline(always)]
    pub(super) fn place(self, shape: Shape, entry: [u32; 2]) -> Diagonals {
        let far = shape.far;
        // Bit b of a quarter word becomes bit 2h - 2 - b.
        let reverse = |x: u32| u64::from(x.reverse_bits() >> (33 - 2 * shape.h));
        let [a, m] = entry.map(u64::from);
        match self {
            View::NorthWest => Diagonals {
                anti: a,
                main: m << far,
            },
            View::NorthEast => Diagonals {
                anti: m << far,
                main: a,
            },
            View::SouthWest => Diagonals {
                anti: reverse(entry[1]) << far,
                main: reverse(entry[0]) << (2 * far),
            },
            View::SouthEast => Diagonals {
                anti: reverse(entry[0]) << (2 * far),
                main: reverse(entry[1]) << far,
            },
        }
    }
}

/// How many entries the quarter table of an h x h quarter holds (every placement of
/// non-attacking queens in it, none included), for h = 0..=12 (n up to 25). Known without the
/// walk, which takes a minute at h = 12, so that a memory limit is checked at once; the test
/// below walks the small ones.
const QUARTER_ENTRIES: [u64; 13] = [
    1,
    2,
    5,
    18,
    87,
    462,
    2_635,
    16_870,
    118_969,
    915_442,
    7_535_369,
    66_807_234,
    633_443_407,
];

/// The memory the quarter table of the n x n board takes, in bytes, without building it.
pub fn table_bytes(n: u32) -> usize {
    let h = Shape::new(n).h;
    ((1usize << (2 * h)) + 1) * 4 + QUARTER_ENTRIES[h as usize] as usize * 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_entry_counts_are_those_of_the_walk() {
        for h in 0..=9 {
            let mut entries = 0u64;
            walk_quarter(h, 0, 0, 0, [0, 0], &mut |_, _| entries += 1);
            assert_eq!(entries, QUARTER_ENTRIES[h as usize], "h = {h}");
        }
    }
}
