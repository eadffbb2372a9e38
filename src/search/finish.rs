//! The last five rows of a search, counted in closed form instead of searched.
//!
//! Two thirds of the nodes of a plain n-queens search lie in its last few rows, and every one
//! of them costs a mispredicted branch. Once five rows are left, exactly five columns are open,
//! and whether an assignment of those columns to the rows is a completion depends on two things
//! only:
//!
//! * which of the 25 (row, open column) squares are attacked by the queens already placed, and
//! * the gaps between the open columns (two queens of the last rows attack each other when their
//!   column distance equals their row distance, and only gaps below 5 can do that).
//!
//! So the 120 permutations are numbered, and two kinds of tables hold, as bits of a `u128`, the
//! permutations that survive: one per (column slot, 5-bit pattern of attacked rows), one per
//! pattern of gaps. The count of completions is the population count of the AND of six table
//! entries: no branch, no loop. The tables are built at compile time (about 12 KiB).

/// How many rows the closed form finishes.
pub const FINISH_ROWS: u32 = 5;

const PERMUTATIONS: usize = 120;
pub const GAP_CLASSES: usize = 5; // a gap of 1, 2, 3, 4, or 5 and more
pub const GAP_PATTERNS: usize = GAP_CLASSES * GAP_CLASSES * GAP_CLASSES * GAP_CLASSES;

/// The survivor tables; see the module documentation.
pub struct FinishTables {
    /// `by_slot[s][p]`: the permutations that put no queen of column slot `s` on a row in `p`.
    by_slot: [[u128; 32]; 5],
    /// `by_gaps[g]`: the permutations whose five queens do not attack one another, for the
    /// gap pattern `g` (base-5 digits, gap class of slots 0-1 lowest).
    by_gaps: [u128; GAP_PATTERNS],
}

/// Row -> column slot for each permutation, for turning completions into columns.
static ROW_SLOTS: [[u32; 5]; PERMUTATIONS] = permutations();

/// The tables, computed by the compiler.
#[allow(long_running_const_eval)] // about a million steps of compile-time work
pub static TABLES: FinishTables = build_tables();

/// All permutations of 0..5, in lexicographic order. Permutation k sends row i of the five
/// to column slot `permutations()[k][i]`: so the completions of a board, taken in the order
/// of their bits, come in lexicographic order of their column lists.
const fn permutations() -> [[u32; 5]; PERMUTATIONS] {
    let mut out = [[0u32; 5]; PERMUTATIONS];
    let mut found = 0;
    let mut code = 0;
    while code < 3125 {
        let digits = [
            code % 5,
            code / 5 % 5,
            code / 25 % 5,
            code / 125 % 5,
            code / 625,
        ];
        let mut seen = 0u32;
        let mut i = 0;
        while i < 5 {
            seen |= 1 << digits[i];
            i += 1;
        }
        if seen == 0b11111 {
            out[found] = [
                digits[4] as u32,
                digits[3] as u32,
                digits[2] as u32,
                digits[1] as u32,
                digits[0] as u32,
            ];
            found += 1;
        }
        code += 1;
    }
    out
}

const fn build_tables() -> FinishTables {
    let perms = permutations();
    let mut by_slot = [[0u128; 32]; 5];
    let mut by_gaps = [0u128; GAP_PATTERNS];
    let mut k = 0;
    while k < PERMUTATIONS {
        // slot -> row, the inverse of the permutation's row -> slot.
        let mut rows = [0u32; 5];
        let mut row = 0;
        while row < 5 {
            rows[perms[k][row] as usize] = row as u32;
            row += 1;
        }
        let mut slot = 0;
        while slot < 5 {
            let mut pattern = 0;
            while pattern < 32 {
                if pattern & (1 << rows[slot]) == 0 {
                    by_slot[slot][pattern] |= 1 << k;
                }
                pattern += 1;
            }
            slot += 1;
        }
        let mut g = 0;
        while g < GAP_PATTERNS {
            let gaps = [g % 5 + 1, g / 5 % 5 + 1, g / 25 % 5 + 1, g / 125 % 5 + 1];
            let position = [
                0,
                gaps[0],
                gaps[0] + gaps[1],
                gaps[0] + gaps[1] + gaps[2],
                gaps[0] + gaps[1] + gaps[2] + gaps[3],
            ];
            let mut peaceful = true;
            let mut a = 0;
            while a < 5 {
                let mut b = a + 1;
                while b < 5 {
                    let row_distance = rows[a].abs_diff(rows[b]) as usize;
                    if position[b] - position[a] == row_distance {
                        peaceful = false;
                    }
                    b += 1;
                }
                a += 1;
            }
            if peaceful {
                by_gaps[g] |= 1 << k;
            }
            g += 1;
        }
        k += 1;
    }
    FinishTables { by_slot, by_gaps }
}

/// What a search's rules ask of the closed form, as plain data: for the vector build, which
/// counts sixteen boards' last rows at once (`lanes.rs`), where [`Rules::finish`]'s code
/// runs one board at a time.
///
/// [`Rules::finish`]: crate::search::kernel::Rules::finish
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClosedForm {
    /// For each column, its blocked rows among the five (bit i = the i-th).
    pub blocked_rows: [u32; 32],
    /// What a completion is worth with no tie, one, or two (see `full.rs`).
    pub units: [u32; 3],
    /// The columns where the last row's queen is a tie.
    pub last_row_ties: u32,
    /// A row of the five whose queen is a tie in some columns: (row, columns).
    pub side_ties: Option<(u32, u32)>,
}

impl ClosedForm {
    /// No blocked square, every completion worth one.
    pub const PLAIN: ClosedForm = ClosedForm {
        blocked_rows: [0; 32],
        units: [1; 3],
        last_row_ties: 0,
        side_ties: None,
    };
}

/// The permutations that put the queen of `row` (of the five) in column slot `slot`, as
/// the four 32-bit words of a `u128`, lowest first.
pub fn placing_words(slot: usize, row: u32) -> [u32; 4] {
    let others = 0b11111 & !(1 << row);
    words(TABLES.by_slot[slot][others as usize])
}

/// The four 32-bit words of `x`, lowest first.
const fn words(x: u128) -> [u32; 4] {
    [
        x as u32,
        (x >> 32) as u32,
        (x >> 64) as u32,
        (x >> 96) as u32,
    ]
}

/// The survivor tables by word, for a vector build's lookups: `slot_words[s][w][p]` is
/// word `w` of `by_slot[s][p]`, and `gap_words[g]` the words of `by_gaps[g]`.
pub struct TableWords {
    /// Word `w` of each slot's 32 entries, side by side.
    pub slot_words: [[[u32; 32]; 4]; 5],
    /// The words of each gap pattern's entry.
    pub gap_words: [[u32; 4]; GAP_PATTERNS],
}

/// [`TABLES`] by word.
pub static TABLE_WORDS: TableWords = table_words(&TABLES);

const fn table_words(tables: &FinishTables) -> TableWords {
    let mut slot_words = [[[0u32; 32]; 4]; 5];
    let mut gap_words = [[0u32; 4]; GAP_PATTERNS];
    let mut s = 0;
    while s < 5 {
        let mut p = 0;
        while p < 32 {
            let w = words(tables.by_slot[s][p]);
            let mut k = 0;
            while k < 4 {
                slot_words[s][k][p] = w[k];
                k += 1;
            }
            p += 1;
        }
        s += 1;
    }
    let mut g = 0;
    while g < GAP_PATTERNS {
        gap_words[g] = words(tables.by_gaps[g]);
        g += 1;
    }
    TableWords {
        slot_words,
        gap_words,
    }
}

/// The completions of a board with exactly five rows left, as a set of permutations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Survivors {
    /// The open columns, lowest first: permutation k puts the queen of row i in the column
    /// of the slot it maps to row i.
    pub columns: [u32; 5],
    /// Bit k is set when permutation k is a completion.
    pub permutations: u128,
}

impl Survivors {
    /// How many completions there are.
    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.permutations.count_ones()
    }

    /// Calls `visit` with the columns of rows 0..5 of each completion, in lexicographic order.
    pub fn for_each(&self, mut visit: impl FnMut([u32; 5])) {
        let mut rest = self.permutations;
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let slots = &ROW_SLOTS[k];
            visit([
                self.columns[slots[0] as usize],
                self.columns[slots[1] as usize],
                self.columns[slots[2] as usize],
                self.columns[slots[3] as usize],
                self.columns[slots[4] as usize],
            ]);
        }
    }

    /// The permutations that put a queen on (row, `column`) of the five rows: none where
    /// `column` is not open.
    #[inline(always)]
    pub fn placing(&self, row: u32, column: u32) -> u128 {
        let others = 0b11111 & !(1 << row);
        let mut placing = 0;
        for (slot, &c) in self.columns.iter().enumerate() {
            // All-ones where the slot holds `column`, else zero: no branch.
            let select = u128::from(c == column).wrapping_neg();
            placing |= TABLES.by_slot[slot][others as usize] & select;
        }
        placing
    }
}

/// The completions of a board that has exactly five rows (and so five columns) left.
///
/// `open` has exactly five bits set, the open columns; `left` and `right` are the squares of the
/// first of those rows attacked along the two diagonal directions (`left` moves one column up
/// per row, `right` one column down), as in the kernel. `blocked_rows(column)` gives, for one
/// open column, the extra rows (bit i = the i-th of the five) where it may not be used; the
/// plain search passes `|_| 0`.
#[inline(always)]
pub fn survivors(open: u32, left: u32, right: u32, blocked_rows: impl Fn(u32) -> u32) -> Survivors {
    let mut rest = open;
    let p0 = rest.trailing_zeros();
    rest &= rest - 1;
    let p1 = rest.trailing_zeros();
    rest &= rest - 1;
    let p2 = rest.trailing_zeros();
    rest &= rest - 1;
    let p3 = rest.trailing_zeros();
    rest &= rest - 1;
    let p4 = rest.trailing_zeros();

    // Row i of the five is attacked at column p along the left diagonals when `left` has bit
    // p - i, and along the right diagonals when `right` has bit p + i. With `left` bit-reversed,
    // both become a shift right by a per-column amount, giving the 5-bit pattern of attacked
    // rows for each column in three operations.
    let left_reversed = left.reverse_bits();
    let attacked_rows = |p: u32| {
        ((((left_reversed >> (31 - p)) | (right >> p)) & 0b11111) | blocked_rows(p)) as usize
    };
    let gap_class = |gap: u32| (gap.min(GAP_CLASSES as u32) - 1) as usize;
    let gaps = gap_class(p1 - p0)
        + 5 * gap_class(p2 - p1)
        + 25 * gap_class(p3 - p2)
        + 125 * gap_class(p4 - p3);

    let t = &TABLES;
    let permutations = t.by_slot[0][attacked_rows(p0)]
        & t.by_slot[1][attacked_rows(p1)]
        & t.by_slot[2][attacked_rows(p2)]
        & t.by_slot[3][attacked_rows(p3)]
        & t.by_slot[4][attacked_rows(p4)]
        & t.by_gaps[gaps];
    Survivors {
        columns: [p0, p1, p2, p3, p4],
        permutations,
    }
}

/// The number of completions of a board with five rows left; see [`survivors`].
#[inline(always)]
pub fn completions(open: u32, left: u32, right: u32, blocked_rows: impl Fn(u32) -> u32) -> u32 {
    survivors(open, left, right, blocked_rows).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::kernel::test_words;

    /// Completions of the last rows by plain search, the reference for the closed form.
    fn search(open: u32, left: u32, right: u32, blocked: &[u32]) -> u32 {
        if open == 0 {
            return 1;
        }
        let mut free = open & !(left | right | blocked[0]);
        let mut count = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            count += search(
                open ^ bit,
                (left | bit) << 1,
                (right | bit) >> 1,
                &blocked[1..],
            );
        }
        count
    }

    #[test]
    fn permutations_are_distinct_and_complete() {
        let perms = permutations();
        for (i, p) in perms.iter().enumerate() {
            let mut sorted = *p;
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2, 3, 4]);
            if i > 0 {
                assert!(perms[i - 1] < *p);
            }
        }
    }

    #[test]
    fn closed_form_matches_search_on_pseudo_random_states() {
        let mut next = test_words(0x9e37_79b9_7f4a_7c15_u64);
        let mut nonzero = 0;
        for _ in 0..200_000 {
            let width = 5 + (next() % 28) as u32;
            let mut open = 0u32;
            while open.count_ones() < 5 {
                open |= 1 << (next() % u64::from(width));
            }
            // Sparse attack masks, so that completions are common enough to matter.
            let left = (next() & next() & next()) as u32;
            let right = (next() & next() & next()) as u32;
            let blocked: Vec<u32> = (0..5)
                .map(|_| (next() & next() & next() & next()) as u32)
                .collect();
            let by_column =
                |p: u32| (0..5).fold(0, |rows, i| rows | (((blocked[i] >> p) & 1) << i));
            let expected = search(open, left, right, &blocked);
            assert_eq!(
                completions(open, left, right, by_column),
                expected,
                "open {open:#b} left {left:#b} right {right:#b} blocked {blocked:?}"
            );
            nonzero += u32::from(expected > 0);
            // The completions come out valid and in lexicographic order.
            let mut seen: Vec<[u32; 5]> = Vec::new();
            survivors(open, left, right, by_column).for_each(|columns| seen.push(columns));
            assert_eq!(seen.len() as u32, expected);
            assert!(seen.windows(2).all(|w| w[0] < w[1]));
            for columns in &seen {
                let (mut l, mut r) = (left, right);
                for (i, &c) in columns.iter().enumerate() {
                    let bit = 1 << c;
                    assert_eq!((l | r | blocked[i]) & bit, 0);
                    assert_ne!(open & bit, 0);
                    l = (l | bit) << 1;
                    r = (r | bit) >> 1;
                }
            }
            // Each survivor puts exactly one queen in each row.
            let found = survivors(open, left, right, by_column);
            for row in 0..5 {
                let total: u32 = found
                    .columns
                    .iter()
                    .map(|&c| (found.permutations & found.placing(row, c)).count_ones())
                    .sum();
                assert_eq!(total, expected);
            }
        }
        assert!(nonzero > 1000, "too few states with completions: {nonzero}");
    }
}
