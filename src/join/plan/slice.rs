//! Quarter tables built on demand, for boards whose whole table no machine holds (25 GB at
//! n = 26 and 27, some 250 GB at 28): each thread builds the placements on the few row sets
//! its current unit reads, a few MB to some tens of MB each, and the weights of units come
//! from how many placements each row set has ([`row_totals`]), counted without storing them.

use crate::join::count::quarter::{Rows, reverse};

/// The quarter size from which the join engine builds its quarter tables on demand (n = 26
/// on): the whole table at h = 12 (n = 24, 25) is 2.6 GB as stored, ten times that at 13.
pub(in crate::join) const ON_DEMAND_FROM: u32 = 13;

/// The largest quarter the join engine reads (n = 28, 29).
pub(in crate::join) const MAX_H: u32 = 14;

/// The most placements on one set of rows of an h x h quarter, for h = 0..=14: a slice's
/// size, known without the walk (which takes minutes at h = 14) so that a memory limit is
/// checked at once. The test below walks h <= 10; h = 11 to 14 were counted by the same walk
/// in a separate program (3 minutes of one core at h = 14), whose totals over all row sets
/// are the quarter tables' known sizes.
pub(in crate::join) const MOST_ON_ROWS: [u64; MAX_H as usize + 1] = [
    1, 1, 2, 4, 10, 26, 92, 296, 1_174, 5_366, 26_548, 143_140, 788_698, 4_684_690, 29_555_392,
];

/// The most placements on one set of rows and one set of columns of an h x h quarter, for
/// h = 0..=14: the longest run of south entries a side appends at once.
pub(in crate::join) const MOST_ON_KEY: [u64; MAX_H as usize + 1] = [
    1, 1, 1, 2, 2, 10, 10, 40, 92, 352, 946, 3_571, 15_003, 77_432, 392_804,
];

/// The placements on one set of rows of the north-west quarter, built when a unit reads it
/// and kept while the next units read the same rows.
#[derive(Default)]
pub(in crate::join) struct Slice {
    /// The quarter's size and the rows held, if any: a thread's slices serve every plan it
    /// counts for.
    held: Option<(u32, u32)>,
    /// The entries on columns `c` are `entries[offsets[c]..offsets[c + 1]]`.
    offsets: Vec<u32>,
    entries: Vec<[u32; 2]>,
}

impl Slice {
    /// The placements on the north-west quarter's `rows`, built unless they are held.
    pub(in crate::join) fn rows(&mut self, h: u32, rows: u32) -> Rows<'_> {
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
    pub(in crate::join) fn most_bytes(h: u32) -> u64 {
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

/// Calls `$walk::<H>(...)` with the quarter size `$h` (3 to [`MAX_H`]) as the constant `H`:
/// the walk's shifts and masks are then known when compiled (n = 28's totals took 11.4 s
/// with `h` a variable, 8.6 s with a constant).
macro_rules! for_each_quarter {
    ($h:expr, $walk:ident($($arg:expr),*)) => {
        match $h {
            3 => $walk::<3>($($arg),*),
            4 => $walk::<4>($($arg),*),
            5 => $walk::<5>($($arg),*),
            6 => $walk::<6>($($arg),*),
            7 => $walk::<7>($($arg),*),
            8 => $walk::<8>($($arg),*),
            9 => $walk::<9>($($arg),*),
            10 => $walk::<10>($($arg),*),
            11 => $walk::<11>($($arg),*),
            12 => $walk::<12>($($arg),*),
            13 => $walk::<13>($($arg),*),
            14 => $walk::<14>($($arg),*),
            h => unreachable!("quarter of {h} rows"),
        }
    };
}

/// How many placements each set of rows of the h x h quarter has: entry `r` for rows `r`.
/// Counted by a walk over the rows from the middle out, a row and its reflection `h - 1 - i`
/// one after the other, that counts the choices of the last three it reaches (rows `0`,
/// `h - 2` and `h - 1`) at once ([`last_three`]), in parallel on the current rayon pool.
/// Two symmetries halve it twice over:
/// - left and right: the walk places its first queen left of the middle column only, and
///   counts what follows twice (the mirror image, column `j` to `h - 1 - j`, is on the same
///   rows with its first queen right of the middle);
/// - up and down: row `i` to `h - 1 - i` gives the reversed set of rows as many
///   placements, so the walk counts one of the two ([`inner_first`]), leaves a pair of rows
///   as soon as it breaks that, and copies the others' totals from their reversals.
///
/// n = 28's totals (h = 14) took 13.3 to 15.6 s on two cores walking the rows in order,
/// with the last three counted at once and the left-right symmetry alone; 5.9 to 6.2 s so
/// (back to back).
pub(in crate::join) fn row_totals(h: u32) -> Vec<u64> {
    use rayon::prelude::*;
    if h < 3 {
        // No three middle rows: each set of rows counted by a walk of its placements.
        return (0..1u32 << h)
            .map(|rows| {
                let mut count = 0;
                place_on_rows(h, rows, &mut |_, _| count += 1);
                count
            })
            .collect();
    }
    // The walks below the first `split` rows visited run in parallel, each from one of
    // their placements; the last three are counted at once.
    assert!(h <= MAX_H, "quarter of {h} rows");
    let split = (h - 3).min(3);
    let mut starts = Vec::new();
    for_each_quarter!(
        h,
        tally(
            0,
            split,
            Walk::default(),
            &mut |walk| starts.push(walk),
            &mut []
        )
    );
    let mut totals = starts
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
        );
    for rows in 0..1u32 << h {
        let reversed = reverse(h, rows);
        if !inner_first(h, rows, reversed) {
            totals[rows as usize] = totals[reversed as usize];
        }
    }
    totals
}

/// Whether the set of rows `rows` (its reversal `reversed`, row `i` to `h - 1 - i`, of the
/// h x h quarter) is one the walk of [`row_totals`] counts: the same as its reversal, or
/// holding the upper row of the innermost pair (`i`, `h - 1 - i`) where the two differ.
/// Of a set and its reversal, exactly one is counted unless they are equal; and a walk
/// that has visited the inner pairs, and no outer row, knows already from those whether
/// its sets are.
#[inline(always)]
fn inner_first(h: u32, rows: u32, reversed: u32) -> bool {
    // The upper rows of the pairs that differ.
    let upper = (rows ^ reversed) & ((1 << (h / 2)) - 1);
    upper == 0 || rows >> (31 - upper.leading_zeros()) & 1 == 1
}

/// The row that the walk of [`row_totals`] visits `at`-th: from the middle out, the upper
/// row of each pair (`i`, `h - 1 - i`) before the lower, the middle row of an odd quarter
/// first; so it ends on rows 1, h - 2, 0 and h - 1.
#[inline(always)]
fn row_at(h: u32, at: u32) -> u32 {
    let middle = h / 2;
    if !h.is_multiple_of(2) {
        let pair = at.div_ceil(2);
        if at.is_multiple_of(2) {
            middle + pair
        } else {
            middle - pair
        }
    } else {
        let pair = at / 2;
        if at.is_multiple_of(2) {
            middle - 1 - pair
        } else {
            middle + pair
        }
    }
}

/// A placement on the rows the walk of [`tally`] has visited: the rows it uses and their
/// reversal (row `i` to `h - 1 - i`), its columns, its queens' anti diagonals (bit `i + j`)
/// and main diagonals (bit `j - i + h - 1`), and how many placements it stands for (itself,
/// or itself and its mirror image).
#[derive(Clone, Copy)]
struct Walk {
    rows: u32,
    reversed: u32,
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
            reversed: 0,
            columns: 0,
            anti: 0,
            main: 0,
            copies: 1,
        }
    }
}

impl Walk {
    /// The columns free on row `i` of the h x h quarter: off this placement's columns and
    /// diagonals.
    #[inline(always)]
    fn free(&self, h: u32, i: u32) -> u32 {
        let all = (1u32 << h) - 1;
        all & !(self.columns | self.anti >> i | self.main >> (h - 1 - i))
    }
}

/// Defines the walk of [`tally`] under `$name` with the attributes given: written once,
/// built twice, plainly and with the `popcnt` instruction ([`tally_below`]).
macro_rules! walk {
    ($(#[$attr:meta])* fn $name:ident) => {
        $(#[$attr])*
        fn $name<const H: u32>(
            at: u32,
            stop: u32,
            w: Walk,
            at_stop: &mut impl FnMut(Walk),
            totals: &mut [u64],
        ) {
            let h = H;
            if stop == h && at + 3 == h {
                // Rows 0, h - 2 and h - 1 at once: each set of them is counted from their
                // free columns with popcounts ([`last_three`]), where a walk would take a
                // leaf per placement on the first of them.
                let counts = last_three(
                    w.free(h, 0),
                    w.free(h, h - 2),
                    w.free(h, h - 1),
                    h - 2,
                );
                // Where the walked pairs inside row 1's differ, they decided: all eight sets
                // are counted.
                let inner = ((1u32 << (h / 2)) - 1) & !0b11;
                let decided = (w.rows ^ w.reversed) & inner != 0;
                for (set, count) in counts.into_iter().enumerate() {
                    let set = set as u32;
                    let rows = w.rows | (set & 1) | (set >> 1) << (h - 2);
                    // The same rows upside down: 0 to h - 1, h - 2 to 1, h - 1 to 0.
                    let flipped = (set & 1) << (h - 1) | (set & 2) | set >> 2;
                    if decided || inner_first(h, rows, w.reversed | flipped) {
                        totals[rows as usize] += w.copies * u64::from(count);
                    }
                }
                return;
            }
            if at == stop {
                at_stop(w);
                return;
            }
            let i = row_at(h, at);
            // The row stays empty, or takes a queen on a free column.
            $name::<H>(at + 1, stop, w, at_stop, totals);
            let (rows, reversed) = (w.rows | 1 << i, w.reversed | 1 << (h - 1 - i));
            if !inner_first(h, rows, reversed) {
                // A queen here, on the lower row of a pair whose upper row is empty, with
                // the pairs outside it alike: these sets are counted by their reversals.
                return;
            }
            let mut free = w.free(h, i);
            if w.rows == 0 {
                // The first queen: left of the middle, or on it.
                free &= (1 << h.div_ceil(2)) - 1;
            }
            while free != 0 {
                let b = free & free.wrapping_neg();
                free ^= b;
                let mirrored = w.rows == 0 && b.trailing_zeros() < h / 2;
                let next = Walk {
                    rows,
                    reversed,
                    columns: w.columns | b,
                    anti: w.anti | b << i,
                    main: w.main | b << (h - 1 - i),
                    copies: if mirrored { 2 } else { w.copies },
                };
                $name::<H>(at + 1, stop, next, at_stop, totals);
            }
        }
    };
}

walk!(
    /// Walks the rows visited `at..stop`-th ([`row_at`]): at `stop < h`, hands each
    /// placement to `at_stop`; at `stop = h`, adds each to `totals` with the choices of the
    /// last three rows (h >= 3). A first queen goes left of the middle column (its
    /// placements counted twice, for their mirror images) or on the middle one of an odd
    /// quarter (once), except in the last three rows, whose choices are counted whole; sets
    /// of rows that are not [`inner_first`] are left out.
    fn tally
);

#[cfg(target_arch = "x86_64")]
walk!(
    /// [`tally`] with the `popcnt` instruction, which the walk's leaves use a few dozen
    /// times each: a baseline x86-64 build counts bits in a dozen instructions, and n = 28's
    /// plan took 39 s with it against 47.6 s without.
    #[target_feature(enable = "popcnt")]
    fn tally_popcnt
);

/// How many placements each set of three rows has, given each row's free columns (`f0`,
/// `f1`, `f2`, top down) as the other queens leave them, the second row `gap` rows below
/// the first and the third just below the second: entry `s` is for the rows whose bits are
/// set in `s` (bit 0 the top row). Two queens `d` rows apart attack each other when their
/// columns are 0 or `d` apart, so the pairs are the products less those attacks, and the
/// triples follow by inclusion and exclusion over the three pairs: no branch and no loop,
/// where a walk would take a leaf per placement on the top row.
#[inline(always)]
fn last_three(f0: u32, f1: u32, f2: u32, gap: u32) -> [u32; 8] {
    let count = |x: u32| x.count_ones() as i32;
    // For every column x: how many columns of `f` are at x - d, x and x + d, as two bit
    // planes (ones and twos).
    let near = |f: u32, d: u32| {
        let (a, b, c) = (f << d, f, f >> d);
        (a ^ b ^ c, (a & b) | (c & (a ^ b)))
    };
    // Over the columns x of `at`, the sum of the counts of `near` (one plane pair).
    let sum = |at: u32, (ones, twos): (u32, u32)| count(at & ones) + 2 * count(at & twos);
    // Over the columns x of `at`, the sum of the products of two counts.
    let product = |at: u32, (o, t): (u32, u32), (p, u): (u32, u32)| {
        count(at & o & p) + 2 * count(at & o & u) + 2 * count(at & t & p) + 4 * count(at & t & u)
    };
    let (n0, n1, n2) = (count(f0), count(f1), count(f2));
    // Rows 0 and 1 are `gap` apart, 1 and 2 one, 0 and 2 `gap + 1`.
    let (near01_of_0, near01_of_1) = (near(f0, gap), near(f1, gap));
    let (near12_of_1, near12_of_2) = (near(f1, 1), near(f2, 1));
    let (near02_of_0, near02_of_2) = (near(f0, gap + 1), near(f2, gap + 1));
    // Attacking pairs: rows 0 and 1, 1 and 2, 0 and 2.
    let a01 = sum(f0, near01_of_1);
    let a12 = sum(f2, near12_of_1);
    let a02 = sum(f0, near02_of_2);
    // Triples with two given pairs attacking, by the queen the two pairs share.
    let on_1 = product(f1, near01_of_0, near12_of_2);
    let on_0 = product(f0, near01_of_1, near02_of_2);
    let on_2 = product(f2, near12_of_1, near02_of_0);
    // Triples whose three pairs all attack: (column of row 1 less row 0's, row 2's less row
    // 1's) in (0, 0), (gap, 1), (-gap, -1), and where gap is 1 also (1, -1) and (-1, 1):
    // the other steps leave rows 0 and 2 neither 0 nor gap + 1 columns apart.
    let mut all_three = count(f0 & f1 & f2)
        + count(f0 & f1 >> gap & f2 >> (gap + 1))
        + count(f0 & f1 << gap & f2 << (gap + 1));
    if gap == 1 {
        all_three += count(f0 & f1 >> 1 & f2) + count(f0 & f1 << 1 & f2);
    }
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
    if crate::cpu::has_popcnt() {
        // SAFETY: the processor has the one feature this build enables.
        return unsafe { for_each_quarter!(h, tally_popcnt(split, h, start, &mut |_| {}, totals)) };
    }
    for_each_quarter!(h, tally(split, h, start, &mut |_| {}, totals));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::count::quarter::Quarter;

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

    /// The three rows' counts are those of a walk over their columns, for every gap the
    /// walk meets (h - 2 for h = 3 to 14) and free columns of every kind: a formula that
    /// missed an attack at some distance would count it here.
    #[test]
    fn three_rows_at_any_gap_are_counted_as_a_walk_counts_them() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut draw = |h: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 20) as u32 & ((1 << h) - 1)
        };
        for gap in 1..=12 {
            let h = gap + 2;
            for _ in 0..300 {
                let free = [draw(h), draw(h), draw(h)];
                let at = [0, gap, gap + 1];
                let attacks = |a: usize, b: usize, ca: u32, cb: u32| {
                    ca == cb || ca.abs_diff(cb) == at[b] - at[a]
                };
                let mut walked = [0u32; 8];
                for (set, walked) in walked.iter_mut().enumerate() {
                    let rows: Vec<usize> = (0..3).filter(|r| set >> r & 1 == 1).collect();
                    let choices = |r: usize| (0..h).filter(move |c| free[r] >> c & 1 == 1);
                    *walked = match rows[..] {
                        [] => 1,
                        [a] => choices(a).count() as u32,
                        [a, b] => choices(a)
                            .flat_map(|ca| choices(b).map(move |cb| (ca, cb)))
                            .filter(|&(ca, cb)| !attacks(a, b, ca, cb))
                            .count() as u32,
                        _ => choices(0)
                            .flat_map(|c0| choices(1).map(move |c1| (c0, c1)))
                            .flat_map(|(c0, c1)| choices(2).map(move |c2| (c0, c1, c2)))
                            .filter(|&(c0, c1, c2)| {
                                !attacks(0, 1, c0, c1)
                                    && !attacks(1, 2, c1, c2)
                                    && !attacks(0, 2, c0, c2)
                            })
                            .count() as u32,
                    };
                }
                let [f0, f1, f2] = free;
                assert_eq!(
                    last_three(f0, f1, f2, gap),
                    walked,
                    "gap {gap}, free {free:?}"
                );
            }
        }
    }

    /// Every set's total is the number of placements a walk of that set finds, for quarters
    /// of every parity: the sets counted by their reversals too.
    #[test]
    fn each_set_s_total_is_what_a_walk_of_its_rows_places() {
        for h in 0..=10 {
            let totals = row_totals(h);
            for rows in 0..1u32 << h {
                let mut placed = 0;
                place_on_rows(h, rows, &mut |_, _| placed += 1);
                assert_eq!(totals[rows as usize], placed, "h = {h}, rows {rows:b}");
            }
        }
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
