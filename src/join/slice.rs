//! Quarter tables built on demand, for boards whose whole table no machine holds (25 GB at
//! n = 26 and 27, some 250 GB at 28): each thread builds the placements on the few row sets
//! its current unit reads, a few MB to some tens of MB each, and the weights of units come
//! from how many placements each row set has ([`row_totals`]), counted without storing them.

use super::quarter::{Rows, reverse};

/// The quarter size from which the join engine builds its quarter tables on demand (n = 26
/// on): the whole table at h = 12 (n = 24, 25) is 2.6 GB as stored, ten times that at 13.
pub(super) const ON_DEMAND_FROM: u32 = 13;

/// The largest quarter the join engine reads (n = 28, 29).
pub(super) const MAX_H: u32 = 14;

/// The most placements on one set of rows of an h x h quarter, for h = 0..=14: a slice's
/// size, known without the walk (which takes minutes at h = 14) so that a memory limit is
/// checked at once. The test below walks h <= 10; h = 11 to 14 were counted by the same walk
/// in a separate program (3 minutes of one core at h = 14), whose totals over all row sets
/// are the quarter tables' known sizes.
pub(super) const MOST_ON_ROWS: [u64; MAX_H as usize + 1] = [
    1, 1, 2, 4, 10, 26, 92, 296, 1_174, 5_366, 26_548, 143_140, 788_698, 4_684_690, 29_555_392,
];

/// The most placements on one set of rows and one set of columns of an h x h quarter, for
/// h = 0..=14: the longest run of south entries a side appends at once.
pub(super) const MOST_ON_KEY: [u64; MAX_H as usize + 1] = [
    1, 1, 1, 2, 2, 10, 10, 40, 92, 352, 946, 3_571, 15_003, 77_432, 392_804,
];

/// The placements on one set of rows of the north-west quarter, built when a unit reads it
/// and kept while the next units read the same rows.
#[derive(Default)]
pub(super) struct Slice {
    /// The quarter's size and the rows held, if any: a thread's slices serve every plan it
    /// counts for.
    held: Option<(u32, u32)>,
    /// The entries on columns `c` are `entries[offsets[c]..offsets[c + 1]]`.
    offsets: Vec<u32>,
    entries: Vec<[u32; 2]>,
}

impl Slice {
    /// The placements on the north-west quarter's `rows`, built unless they are held.
    pub(super) fn rows(&mut self, h: u32, rows: u32) -> Rows<'_> {
        if self.held != Some((h, rows)) {
            self.build(h, rows);
        }
        Rows {
            offsets: &self.offsets,
            entries: &self.entries,
            flipped: false,
        }
    }

    /// Walks the placements on `rows` twice: once to count them by columns, once to file
    /// them. Reuses the buffers, growing them only to the exact size a slice needs.
    fn build(&mut self, h: u32, rows: u32) {
        self.held = None;
        let keys = 1usize << h;
        self.offsets.clear();
        self.offsets.resize(keys + 1, 0);
        place_on_rows(h, rows, &mut |columns, _| {
            self.offsets[columns as usize + 1] += 1
        });
        for c in 0..keys {
            self.offsets[c + 1] += self.offsets[c];
        }
        let total = self.offsets[keys] as usize;
        self.entries.clear();
        self.entries.reserve_exact(total);
        self.entries.resize(total, [0, 0]);
        // offsets[c] is where the next entry on columns c goes; afterwards it is where the
        // entries on c + 1 start, and the offsets move up by one place.
        let (offsets, entries) = (&mut self.offsets, &mut self.entries);
        place_on_rows(h, rows, &mut |columns, d| {
            let slot = &mut offsets[columns as usize];
            entries[*slot as usize] = d;
            *slot += 1;
        });
        offsets.copy_within(0..keys, 1);
        offsets[0] = 0;
        self.held = Some((h, rows));
    }

    /// The bytes a slice of an h x h quarter holds at most.
    pub(super) fn most_bytes(h: u32) -> u64 {
        ((1u64 << h) + 1) * 4 + MOST_ON_ROWS[h as usize] * 8
    }
}

/// Calls `found(columns, diagonals)` for every placement of one queen on each of `rows` of
/// the h x h north-west quarter, none attacking another, in the table's encoding (anti
/// diagonals `i + j`, main diagonals `i - j + h - 1`).
fn place_on_rows(h: u32, rows: u32, found: &mut impl FnMut(u32, [u32; 2])) {
    fn walk(h: u32, rest: u32, columns: u32, d: [u32; 2], found: &mut impl FnMut(u32, [u32; 2])) {
        if rest == 0 {
            found(columns, d);
            return;
        }
        let i = rest.trailing_zeros();
        let all = (1u32 << h) - 1;
        // Column j meets anti-diagonal i + j and main diagonal i - j + h - 1.
        let taken = columns | ((d[0] >> i) & all) | reverse(h, (d[1] >> i) & all);
        let mut free = all & !taken;
        while free != 0 {
            let j = free.trailing_zeros();
            free &= free - 1;
            let queen = [1 << (i + j), 1 << (i + h - 1 - j)];
            let next = [d[0] | queen[0], d[1] | queen[1]];
            walk(h, rest & (rest - 1), columns | 1 << j, next, found);
        }
    }
    walk(h, rows, 0, [0, 0], found);
}

/// How many placements each set of rows of the h x h quarter has: entry `r` for rows `r`.
/// Counted by a walk row by row that counts the last three rows' choices at once
/// ([`last_three`]), in parallel on the current rayon pool. The walk places a first queen
/// left of the middle column only and counts what follows twice: the mirror image of a
/// placement (column `j` to `h - 1 - j`) is on the same rows, and its first queen is right
/// of the middle. n = 28's totals (h = 14) took 20.2 s on two cores with the last two rows
/// counted at once, 11.4 s with three.
pub(super) fn row_totals(h: u32) -> Vec<u64> {
    use rayon::prelude::*;
    if h == 0 {
        return vec![1];
    }
    // The walks below the first `split` rows run in parallel, each from one of their
    // placements.
    let split = h.min(4) - 1;
    let mut starts = Vec::new();
    tally(
        h,
        0,
        split,
        Walk::default(),
        &mut |walk| starts.push(walk),
        &mut [],
    );
    starts
        .into_par_iter()
        .fold(
            || vec![0u64; 1 << h],
            |mut totals, start| {
                tally_below(h, split, start, &mut totals);
                totals
            },
        )
        .reduce(
            || vec![0u64; 1 << h],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// A placement on the rows above row `i`, as the walk of [`tally`] carries it: the rows it
/// uses, its columns, the columns its anti and main diagonals reach in row `i`, and how many
/// placements it stands for (itself, or itself and its mirror image).
#[derive(Clone, Copy)]
struct Walk {
    rows: u32,
    columns: u32,
    anti: u32,
    main: u32,
    copies: u64,
}

impl Default for Walk {
    /// No queen yet: the empty placement, counted once.
    fn default() -> Walk {
        Walk {
            rows: 0,
            columns: 0,
            anti: 0,
            main: 0,
            copies: 1,
        }
    }
}

/// Defines the walk of [`tally`] under `$name` with the attributes given: written once,
/// built twice, plainly and with the `popcnt` instruction ([`tally_below`]).
macro_rules! walk {
    ($(#[$attr:meta])* fn $name:ident) => {
        $(#[$attr])*
        fn $name(
            h: u32,
            i: u32,
            stop: u32,
            w: Walk,
            at_stop: &mut impl FnMut(Walk),
            totals: &mut [u64],
        ) {
            let all = (1u32 << h) - 1;
            let mut free = all & !(w.columns | w.anti | w.main);
            let copies = w.copies;
            if stop == h && i == h - 1 {
                totals[w.rows as usize] += copies;
                totals[(w.rows | 1 << i) as usize] += copies * u64::from(free.count_ones());
                return;
            }
            if stop == h && i + 3 == h {
                // The last three rows at once: each set of them is counted from the three
                // rows' free columns with popcounts ([`last_three`]), which the walk reached
                // through a leaf per placement on the first of them.
                let counts = last_three(
                    free,
                    all & !(w.columns | w.anti >> 1 | ((w.main << 1) & all)),
                    all & !(w.columns | w.anti >> 2 | ((w.main << 2) & all)),
                );
                for (set, count) in counts.into_iter().enumerate() {
                    totals[(w.rows | (set as u32) << i) as usize] += copies * u64::from(count);
                }
                return;
            }
            if stop == h && i + 2 == h {
                // The last two rows at once (they held most of the walk's steps: n = 28's
                // totals took a minute on two cores). `last`: the last row's free columns
                // when this row stays empty. A queen on column j here takes j, j - 1 and
                // j + 1 from it, so the pairs are |free| |last| less the free columns whose
                // column, left or right neighbour is in `last`.
                let last = all & !(w.columns | w.anti >> 1 | ((w.main << 1) & all));
                let (here, below) = (1u32 << i, 1u32 << (i + 1));
                let pairs = free.count_ones() * last.count_ones()
                    - (free & last).count_ones()
                    - (free & (last << 1)).count_ones()
                    - (free & (last >> 1)).count_ones();
                totals[w.rows as usize] += copies;
                totals[(w.rows | below) as usize] += copies * u64::from(last.count_ones());
                totals[(w.rows | here) as usize] += copies * u64::from(free.count_ones());
                totals[(w.rows | here | below) as usize] += copies * u64::from(pairs);
                return;
            }
            if i == stop {
                at_stop(w);
                return;
            }
            // The row stays empty, or takes a queen on a free column.
            let skip = Walk {
                anti: w.anti >> 1,
                main: (w.main << 1) & all,
                ..w
            };
            $name(h, i + 1, stop, skip, at_stop, totals);
            if w.rows == 0 {
                // The first queen: left of the middle, or on it.
                free &= (1 << h.div_ceil(2)) - 1;
            }
            while free != 0 {
                let b = free & free.wrapping_neg();
                free ^= b;
                let mirrored = w.rows == 0 && b.trailing_zeros() < h / 2;
                let next = Walk {
                    rows: w.rows | 1 << i,
                    columns: w.columns | b,
                    anti: (w.anti | b) >> 1,
                    main: ((w.main | b) << 1) & all,
                    copies: if mirrored { 2 } else { copies },
                };
                $name(h, i + 1, stop, next, at_stop, totals);
            }
        }
    };
}

walk!(
    /// Walks rows `i..stop`: at `stop < h`, hands each placement to `at_stop`; at `stop = h`,
    /// adds each to `totals`, counting the last row's choices with one popcount. A first queen
    /// goes left of the middle column (its placements counted twice, for their mirror images)
    /// or on the middle one of an odd quarter (once), except in the last two rows, whose
    /// choices are counted whole.
    fn tally
);

#[cfg(target_arch = "x86_64")]
walk!(
    /// [`tally`] with the `popcnt` instruction, which the walk's leaves use a few times
    /// each: a baseline x86-64 build counts bits in a dozen instructions, and n = 28's plan
    /// took 39 s with it against 47.6 s without.
    #[target_feature(enable = "popcnt")]
    fn tally_popcnt
);

/// How many placements each set of three consecutive rows has, given each row's free
/// columns (`f0`, `f1`, `f2`, top down) as the queens above leave them: entry `s` is for the
/// rows whose bits are set in `s` (bit 0 the top row). Two of the rows' queens attack each
/// other when their columns are at most one apart on neighbouring rows, or 0 or 2 apart two
/// rows apart, so the pairs are the products less those attacks, and the triples follow by
/// inclusion and exclusion over the three pairs: no branch and no loop, where a walk would
/// take a leaf per placement on the top row.
#[inline(always)]
fn last_three(f0: u32, f1: u32, f2: u32) -> [u32; 8] {
    let count = |x: u32| x.count_ones() as i32;
    // For every column x: how many columns of `f` are at x - k, x and x + k, as two bit
    // planes (ones and twos).
    let near = |f: u32, k: u32| {
        let (a, b, c) = (f << k, f, f >> k);
        (a ^ b ^ c, (a & b) | (c & (a ^ b)))
    };
    // Over the columns x of `at`, the sum of the counts of `near` (one plane pair).
    let sum = |at: u32, (ones, twos): (u32, u32)| count(at & ones) + 2 * count(at & twos);
    // Over the columns x of `at`, the sum of the products of two counts.
    let product = |at: u32, (o, t): (u32, u32), (p, u): (u32, u32)| {
        count(at & o & p) + 2 * count(at & o & u) + 2 * count(at & t & p) + 4 * count(at & t & u)
    };
    let (n0, n1, n2) = (count(f0), count(f1), count(f2));
    let (near1_of_0, near1_of_1, near1_of_2) = (near(f0, 1), near(f1, 1), near(f2, 1));
    let (near2_of_0, near2_of_2) = (near(f0, 2), near(f2, 2));
    // Attacking pairs: rows 0 and 1, 1 and 2, 0 and 2.
    let a01 = sum(f0, near1_of_1);
    let a12 = sum(f2, near1_of_1);
    let a02 = sum(f0, near2_of_2);
    // Triples with two given pairs attacking, by the queen the two pairs share.
    let on_1 = product(f1, near1_of_0, near1_of_2);
    let on_0 = product(f0, near1_of_1, near2_of_2);
    let on_2 = product(f2, near1_of_1, near2_of_0);
    // Triples whose three pairs all attack: (column of row 1 less row 0's, row 2's less row
    // 1's) in (0, 0), (1, 1), (-1, -1), (1, -1), (-1, 1).
    let all_three = count(f0 & f1 & f2)
        + count(f0 & f1 >> 1 & f2 >> 2)
        + count(f0 & f1 << 1 & f2 << 2)
        + count(f0 & f1 >> 1 & f2)
        + count(f0 & f1 << 1 & f2);
    let triples =
        n0 * n1 * n2 - (a01 * n2 + a12 * n0 + a02 * n1) + (on_0 + on_1 + on_2) - all_three;
    [
        1,
        n0 as u32,
        n1 as u32,
        (n0 * n1 - a01) as u32,
        n2 as u32,
        (n0 * n2 - a02) as u32,
        (n1 * n2 - a12) as u32,
        triples as u32,
    ]
}

/// The walk of [`tally`] from `start` (a placement on the first `split` rows) to the last
/// row, adding to `totals`: with the `popcnt` instruction where the processor has it.
fn tally_below(h: u32, split: u32, start: Walk, totals: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has the one feature this build enables.
        return unsafe { tally_popcnt(h, split, h, start, &mut |_| {}, totals) };
    }
    tally(h, split, h, start, &mut |_| {}, totals);
}

#[cfg(test)]
mod tests {
    use super::super::quarter::Quarter;
    use super::*;

    /// A slice built on demand holds, column set by column set, the entries the whole table
    /// holds for its rows (in any order), and the row totals are the slices' sizes.
    #[test]
    fn slices_hold_what_the_whole_table_holds() {
        for h in [1, 2, 3, 4, 7, 9] {
            let whole = Quarter::build_with(h, false);
            let totals = row_totals(h);
            let mut slice = Slice::default();
            for rows in 0..1u32 << h {
                let on_demand = slice.rows(h, rows);
                let table = whole.rows(rows);
                let mut size = 0;
                for columns in 0..1u32 << h {
                    let mut a = on_demand.get(columns).0.to_vec();
                    let mut b = table.get(columns).0.to_vec();
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "h = {h}, rows {rows:b}, columns {columns:b}");
                    size += a.len() as u64;
                }
                assert_eq!(totals[rows as usize], size, "h = {h}, rows {rows:b}");
            }
        }
    }

    /// Regression: a thread's table was kept by its rows alone, so a count of a smaller
    /// board on the same thread read the table of a larger one for the same row bits (an
    /// index out of bounds at n = 4 after n = 15).
    #[test]
    fn a_thread_s_table_of_one_board_size_is_not_read_for_another() {
        let mut slice = Slice::default();
        let rows = 0b11;
        let large = slice.rows(7, rows).offsets.len();
        let small = slice.rows(2, rows);
        assert_eq!((large, small.offsets.len()), ((1 << 7) + 1, (1 << 2) + 1));
        // Two queens on the first two rows of a 2 x 2 quarter always attack.
        assert!((0..4).all(|columns| small.get(columns).0.is_empty()));
    }

    /// The known sizes are those of the walks.
    #[test]
    fn the_most_placements_known_are_those_of_the_walk() {
        for h in 0..=10 {
            let totals = row_totals(h);
            assert_eq!(
                totals.iter().max().copied(),
                Some(MOST_ON_ROWS[h as usize]),
                "h = {h}"
            );
            let mut longest = 0;
            let mut slice = Slice::default();
            for rows in 0..1u32 << h {
                let on_demand = slice.rows(h, rows);
                for columns in 0..1u32 << h {
                    longest = longest.max(on_demand.get(columns).0.len() as u64);
                }
            }
            assert_eq!(longest, MOST_ON_KEY[h as usize], "h = {h}");
        }
    }
}
