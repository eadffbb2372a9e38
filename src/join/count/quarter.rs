//! The quarter table: every placement of non-attacking queens in the north-west quarter of
//! the board, filed by the rows and columns it uses, and the views that read it as any of the
//! four quarters.

use crate::join::shape::{Diagonals, Shape};

/// Every placement of non-attacking queens in the north-west quarter, filed by the (rows,
/// columns) it uses. The other three quarters are its mirror images (`View`), so one table
/// serves all four. An entry is two words of `2h - 1` bits: the anti-diagonals `i + j` and the
/// main diagonals `i - j + h - 1` of its queens, in the quarter's own coordinates.
///
/// From [`HALVED_FROM`] on, only row sets no greater than their reversal are stored (a little
/// over half the placements): the others are the up-down flips of stored ones, read through
/// [`Quarter::rows`] with a flag that [`View::place`] undoes.
pub(in crate::join) struct Quarter {
    h: u32,
    /// Whether only some row sets are stored ([`stored`]).
    halved: bool,
    /// `entries[offsets[key]..offsets[key + 1]]` for `key = rows << h | columns`, empty
    /// unless `rows` is stored ([`stored`]).
    offsets: Vec<u32>,
    entries: Vec<[u32; 2]>,
}

/// The quarter size from which the table keeps only the row sets no greater than their
/// reversal: half the memory (5.1 GB becomes 2.6 GB at n = 24), for a few per cent more
/// instructions per half-board (measured at n = 16), so only where the table is large.
pub(in crate::join) const HALVED_FROM: u32 = 11;

/// The quarter's last rows whose use splits the table into groups built in parallel: each
/// group is one run of keys (`rows` is the high half of a key), so groups fill disjoint runs
/// of `offsets` and `entries`. Only the walk through the first `h - GROUP_ROWS` rows is
/// repeated per group, a small share of the whole.
const GROUP_ROWS: u32 = 8;

impl Quarter {
    /// The table of the `h x h` quarter, built on the current rayon pool. The same table,
    /// entry for entry, whatever the pool: each group's entries come in the order of its walk.
    pub(in crate::join) fn build(h: u32) -> Quarter {
        Quarter::build_with(h, h >= HALVED_FROM)
    }

    /// [`Quarter::build`], halved or not.
    pub(in crate::join) fn build_with(h: u32, halved: bool) -> Quarter {
        use rayon::prelude::*;
        let stored = |rows: u32| !halved || stored(h, rows);
        let t = GROUP_ROWS.min(h);
        let free = h - t;
        // Keys per group: every column set for each pattern of the rows before the last `t`.
        let per_group = 1usize << (free + h);
        let groups = 1usize << t;
        let walk = |group: usize, found: &mut dyn FnMut(usize, [u32; 2])| {
            walk_quarter(h, free, group as u32, 0, 0, 0, [0, 0], found);
        };
        let mut offsets = vec![0u32; groups * per_group + 1];
        offsets[1..]
            .par_chunks_mut(per_group)
            .enumerate()
            .for_each(|(group, counts)| {
                let base = group * per_group;
                walk(group, &mut |key, _| {
                    counts[key - base] += u32::from(stored((key >> h) as u32));
                });
            });
        for k in 0..groups * per_group {
            offsets[k + 1] += offsets[k];
        }
        let mut entries = vec![[0u32, 0]; offsets[groups * per_group] as usize];
        let mut runs = Vec::with_capacity(groups);
        let mut rest = &mut entries[..];
        for group in 0..groups {
            let len = offsets[(group + 1) * per_group] - offsets[group * per_group];
            let (run, tail) = rest.split_at_mut(len as usize);
            runs.push(run);
            rest = tail;
        }
        runs.into_par_iter().enumerate().for_each(|(group, run)| {
            let base = group * per_group;
            let start = offsets[base];
            let mut next: Vec<u32> = offsets[base..base + per_group]
                .iter()
                .map(|&o| o - start)
                .collect();
            walk(group, &mut |key, d| {
                if !stored((key >> h) as u32) {
                    return;
                }
                let slot = &mut next[key - base];
                run[*slot as usize] = d;
                *slot += 1;
            });
        });
        Quarter {
            h,
            halved,
            offsets,
            entries,
        }
    }
}

impl Quarter {
    /// The entries on the north-west table's `rows`, filed by their columns.
    #[inline(always)]
    pub(in crate::join) fn rows(&self, rows: u32) -> Rows<'_> {
        let flipped = self.halved && !stored(self.h, rows);
        let rows = if flipped { reverse(self.h, rows) } else { rows };
        let first = (rows as usize) << self.h;
        Rows {
            offsets: &self.offsets[first..=first + (1 << self.h)],
            entries: &self.entries,
            flipped,
        }
    }
}

/// The placements of queens on one set of rows of the north-west quarter, filed by the
/// columns they use: a run of the whole table ([`Quarter::rows`]) or a table of those rows
/// alone, built when a unit needs it (`slice`).
#[derive(Clone, Copy)]
pub(in crate::join) struct Rows<'t> {
    /// The entries on columns `c` are `entries[offsets[c]..offsets[c + 1]]`.
    pub(in crate::join) offsets: &'t [u32],
    pub(in crate::join) entries: &'t [[u32; 2]],
    /// Whether the entries are those of the rows' up-down flip (to be undone by
    /// [`View::place`]).
    pub(in crate::join) flipped: bool,
}

impl<'t> Rows<'t> {
    /// The entries on the north-west table's `columns`, and whether they are stored upside
    /// down.
    #[inline(always)]
    pub(in crate::join) fn get(&self, columns: u32) -> (&'t [[u32; 2]], bool) {
        let c = columns as usize;
        let range = self.offsets[c] as usize..self.offsets[c + 1] as usize;
        (&self.entries[range], self.flipped)
    }
}

/// Reverses the `h` low bits of `x`: row (or column) `i` becomes `h - 1 - i`.
#[inline(always)]
pub(in crate::join) fn reverse(h: u32, x: u32) -> u32 {
    x.reverse_bits() >> (32 - h)
}

/// Whether the table stores the placements on `rows`: those no greater than their reversal
/// (row `i` becomes row `h - 1 - i`).
fn stored(h: u32, rows: u32) -> bool {
    rows <= reverse(h, rows)
}

/// Places queens (or none) in the quarter's rows `i..`, calling `found` with every placement.
/// From row `fixed_from` on, the rows that hold a queen are fixed: bit `r - fixed_from` of
/// `fixed` for row `r`.
#[allow(clippy::too_many_arguments)]
fn walk_quarter(
    h: u32,
    fixed_from: u32,
    fixed: u32,
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
    let (skip, place) = if i < fixed_from {
        (true, true)
    } else {
        let queen = fixed >> (i - fixed_from) & 1 == 1;
        (!queen, queen)
    };
    if skip {
        walk_quarter(h, fixed_from, fixed, i + 1, rows, columns, d, found);
    }
    if !place {
        return;
    }
    for j in 0..h {
        let queen = [1 << (i + j), 1 << (i + h - 1 - j)];
        if columns & (1 << j) == 0 && (d[0] & queen[0]) | (d[1] & queen[1]) == 0 {
            let next = [d[0] | queen[0], d[1] | queen[1]];
            let (rows, columns) = (rows | 1 << i, columns | 1 << j);
            walk_quarter(h, fixed_from, fixed, i + 1, rows, columns, next, found);
        }
    }
}

/// One of the four quarters, seen through the north-west table: the left-right mirror swaps
/// the two diagonal directions, the up-down flip reverses them, and each reverses the
/// quarter's columns or rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::join) enum View {
    NorthWest,
    NorthEast,
    SouthWest,
    SouthEast,
}

impl View {
    /// The north-west table's rows for this quarter's `rows` (in its own bit order: bit `i`
    /// is its `i`-th row from the top).
    #[inline(always)]
    pub(in crate::join) fn table_rows(self, h: u32, rows: u32) -> u32 {
        match self {
            View::NorthWest | View::NorthEast => rows,
            View::SouthWest | View::SouthEast => reverse(h, rows),
        }
    }

    /// The north-west table's columns for this quarter's `columns` (bit `j` its `j`-th
    /// column from the left).
    #[inline(always)]
    pub(in crate::join) fn table_columns(self, h: u32, columns: u32) -> u32 {
        match self {
            View::NorthWest | View::SouthWest => columns,
            View::NorthEast | View::SouthEast => reverse(h, columns),
        }
    }

    /// An entry's diagonals in whole-board coordinates; `FLIPPED` as [`View::get`] said.
    #[inline(always)]
    pub(in crate::join) fn place<const FLIPPED: bool>(
        self,
        shape: Shape,
        entry: [u32; 2],
    ) -> Diagonals {
        let far = shape.far;
        // Bit b of a quarter word becomes bit 2h - 2 - b.
        let flip = |x: u32| x.reverse_bits() >> (33 - 2 * shape.h);
        let reverse = |x: u32| u64::from(flip(x));
        // Upside down, a queen's anti-diagonal is its main one reversed and the other way round.
        let entry = if FLIPPED {
            [flip(entry[1]), flip(entry[0])]
        } else {
            entry
        };
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

/// How many of them the table stores from [`HALVED_FROM`] on (those on row sets no greater
/// than their reversal), for h = 0..=12; the test below walks the small ones.
const STORED_ENTRIES: [u64; 13] = [
    1,
    2,
    3,
    13,
    53,
    286,
    1_471,
    9_429,
    63_053,
    486_298,
    3_886_603,
    34_543_071,
    322_269_833,
];

/// The memory the whole quarter table of an h x h quarter (h at most 12) takes, in bytes,
/// without building it.
pub(in crate::join) fn whole_bytes(h: u32) -> u64 {
    let entries = if h >= HALVED_FROM {
        STORED_ENTRIES[h as usize]
    } else {
        QUARTER_ENTRIES[h as usize]
    };
    ((1u64 << (2 * h)) + 1) * 4 + entries * 8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quarter table is the same whatever the pool that builds it, and a halved table
    /// holds the stored row sets' entries of the whole one, in the same order.
    #[test]
    fn quarter_tables_agree() {
        let h = 7;
        let whole = Quarter::build_with(h, false);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let halved = pool.install(|| Quarter::build_with(h, true));
        let serial = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let again = serial.install(|| Quarter::build_with(h, false));
        assert_eq!(whole.entries, again.entries);
        assert_eq!(whole.offsets, again.offsets);
        let mut kept = 0;
        for rows in 0..1u32 << h {
            for columns in 0..1u32 << h {
                let (all, _) = whole.rows(rows).get(columns);
                let (some, flipped) = halved.rows(rows).get(columns);
                assert_eq!(all.len(), some.len());
                if !flipped {
                    assert_eq!(all, some);
                    kept += all.len();
                }
            }
        }
        assert_eq!(kept, halved.entries.len());
        assert!(halved.entries.len() < whole.entries.len() * 6 / 10);
    }

    #[test]
    fn the_known_entry_counts_are_those_of_the_walk() {
        for h in 0..=9 {
            let (mut entries, mut stored_entries) = (0u64, 0u64);
            walk_quarter(h, h, 0, 0, 0, 0, [0, 0], &mut |key, _| {
                entries += 1;
                stored_entries += u64::from(stored(h, (key >> h) as u32));
            });
            assert_eq!(entries, QUARTER_ENTRIES[h as usize], "h = {h}");
            assert_eq!(stored_entries, STORED_ENTRIES[h as usize], "h = {h}");
        }
    }
}
