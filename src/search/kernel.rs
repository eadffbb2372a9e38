//! The hot loop: counting the completions of a partial placement by depth-first search.
//!
//! A board state is three bitmasks over the columns: the columns still open, and the squares
//! of the next row attacked along each diagonal direction. Placing a queen on bit `b` moves to
//! the next row with `open ^ b`, `(left | b) << 1`, `(right | b) >> 1`. The search keeps its
//! stack in a fixed array (no recursion, no allocation), takes the lowest free square with
//! `x & x.wrapping_neg()`, and
//!
//! * does not descend into a square after which the next row, or the row after it, has no free
//!   square (a two-row look-ahead that prunes a quarter of the nodes for one `or` and a test);
//! * never searches the last five rows: they are counted in closed form by [`crate::search::finish`],
//!   which removes about two thirds of the nodes of a plain search.
//!
//! On x86-64 the same code is compiled twice, once for the baseline instruction set and once
//! with `popcnt`, `bmi1`, `bmi2` and `lzcnt`, and the second is chosen at run time where the
//! processor has them (nearly every x86-64 processor since 2013).

use crate::search::finish::{self, ClosedForm, FINISH_ROWS};
#[cfg(target_arch = "x86_64")]
use crate::search::lanes;

/// The build of the hot loop this processor counts with: `avx512` (the vector build,
/// `lanes.rs`), `bmi2` (the second build) or `portable` (what `nqueens bench` reports
/// beside its figures). Listing solutions (`visit`) runs `bmi2` or `portable`.
pub fn instruction_set() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if lanes_available() {
            return "avx512";
        }
        if crate::cpu::has_bmi() {
            return "bmi2";
        }
    }
    "portable"
}

/// A partial placement to complete: what the next row sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Subboard {
    /// The columns that still need a queen. Its population count is the number of rows left.
    pub open: u32,
    /// Squares of the next row attacked along the diagonals that move one column up per row.
    pub left: u32,
    /// Squares of the next row attacked along the diagonals that move one column down per row.
    pub right: u32,
}

impl Subboard {
    /// The empty board of size `n` (1 <= n <= 32).
    pub fn empty(n: u32) -> Subboard {
        debug_assert!((1..=crate::limits::MAX_N).contains(&n));
        Subboard {
            open: u32::MAX >> (32 - n),
            left: 0,
            right: 0,
        }
    }

    /// How many rows are left to fill.
    pub fn rows_left(self) -> u32 {
        self.open.count_ones()
    }

    /// The squares of the next row where a queen can go.
    pub fn free(self) -> u32 {
        self.open & !(self.left | self.right)
    }

    /// The state after a queen is placed on `bit` (one set bit, a free square) of the next row.
    #[inline(always)]
    pub fn place(self, bit: u32) -> Subboard {
        Subboard {
            open: self.open ^ bit,
            left: (self.left | bit) << 1,
            right: (self.right | bit) >> 1,
        }
    }
}

/// What a search must obey beyond the board's own masks, and what a completion is worth.
///
/// The plain search needs neither ([`Unblocked`]). The full-symmetry engine blocks squares
/// in particular rows (the border constraints that make a placement canonical) and weighs
/// each completion by the number of its equivalent boards.
pub trait Rules {
    /// The blocked squares of the `row`-th row of the search (0 = the board's next row).
    fn blocked(&self, row: usize) -> u32;
    /// The value of the completions of the last five rows, given the open columns and the
    /// attacks on the first of them (see [`finish::survivors`]).
    fn finish(&self, open: u32, left: u32, right: u32) -> u64;
    /// What [`Rules::finish`] asks of the closed form, as data (for the vector build).
    fn closed_form(&self) -> ClosedForm;
}

/// No squares blocked and every completion worth one: the plain search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unblocked;

impl Rules for Unblocked {
    #[inline(always)]
    fn blocked(&self, _: usize) -> u32 {
        0
    }
    #[inline(always)]
    fn finish(&self, open: u32, left: u32, right: u32) -> u64 {
        u64::from(finish::completions(open, left, right, |_| 0))
    }
    fn closed_form(&self) -> ClosedForm {
        ClosedForm::PLAIN
    }
}

/// Blocked squares given row by row for the rows of one search; every completion worth one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowBlocks {
    rows: [u32; 32],
    /// How many rows the search has.
    len: usize,
    /// For each column, its blocked rows among the last five (bit i = the i-th).
    by_column: [u8; 32],
}

impl RowBlocks {
    /// Blocks `rows[i]` in the i-th row of a search of `rows.len()` rows (at most 32).
    pub fn new(rows: &[u32]) -> RowBlocks {
        assert!(rows.len() <= 32, "a search has at most 32 rows");
        let mut all = [0u32; 32];
        all[..rows.len()].copy_from_slice(rows);
        let mut by_column = [0u8; 32];
        let first_of_last = rows.len().saturating_sub(FINISH_ROWS as usize);
        for (i, &blocked) in rows[first_of_last..].iter().enumerate() {
            for (column, pattern) in by_column.iter_mut().enumerate() {
                *pattern |= (((blocked >> column) & 1) as u8) << i;
            }
        }
        RowBlocks {
            rows: all,
            len: rows.len(),
            by_column,
        }
    }

    /// The blocks of the same search started one row later.
    pub fn without_first_row(&self) -> RowBlocks {
        RowBlocks::new(&self.rows[1.min(self.len)..self.len])
    }

    /// The blocked rows of `column` among the last five of the search.
    #[inline(always)]
    pub fn last_rows(&self, column: u32) -> u32 {
        u32::from(self.by_column[(column & 31) as usize])
    }

    /// The completions of the last five rows, as a set of permutations.
    #[inline(always)]
    pub fn survivors(&self, open: u32, left: u32, right: u32) -> finish::Survivors {
        finish::survivors(open, left, right, |column| self.last_rows(column))
    }
}

impl Rules for RowBlocks {
    #[inline(always)]
    fn blocked(&self, row: usize) -> u32 {
        self.rows[row & 31]
    }
    #[inline(always)]
    fn finish(&self, open: u32, left: u32, right: u32) -> u64 {
        u64::from(self.survivors(open, left, right).count())
    }
    fn closed_form(&self) -> ClosedForm {
        ClosedForm {
            blocked_rows: self.by_column.map(u32::from),
            ..ClosedForm::PLAIN
        }
    }
}

/// The number of ways to complete `board` into a full solution.
pub fn count(board: Subboard) -> u64 {
    count_with(board, &Unblocked)
}

/// The summed value of the completions of `board` under `rules`.
pub fn count_with<R: Rules>(board: Subboard, rules: &R) -> u64 {
    dispatch::<R, false>(board, rules).0
}

/// The number of nodes the search of `board` visits: every queen it places before the last
/// five rows, those of the last row placed before the closed form included. The closed
/// form's rows are not nodes. This runs a second build of the search that counts; the
/// counting one is not used for anything else.
pub fn nodes_with<R: Rules>(board: Subboard, rules: &R) -> u64 {
    dispatch::<R, true>(board, rules).1
}

/// Picks the instruction-set variant of the search.
fn dispatch<R: Rules, const NODES: bool>(board: Subboard, rules: &R) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        if !NODES && lanes_available() && lanes::suits(board.open) {
            let blocked = std::array::from_fn(|row| rules.blocked(row));
            let board = [board.open, board.left, board.right];
            // SAFETY: the processor has the features (checked), and the board suits.
            return (
                unsafe { lanes::count(board, &blocked, &rules.closed_form()) },
                0,
            );
        }
        if crate::cpu::has_bmi() {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { search_x86_bmi::<R, NODES>(board, rules) };
        }
    }
    search_portable::<R, NODES>(board, rules)
}

/// Whether the vector build runs here, checked once.
#[cfg(target_arch = "x86_64")]
fn lanes_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(lanes::available)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
unsafe fn search_x86_bmi<R: Rules, const NODES: bool>(board: Subboard, rules: &R) -> (u64, u64) {
    search::<R, NODES>(board, rules)
}

/// Random words for the search's tests, a xorshift from `seed` (not zero): the tests need
/// variety, not quality.
#[cfg(test)]
pub(crate) fn test_words(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// The scalar search alone, for the vector build's tests.
#[cfg(test)]
pub(crate) fn search_portable_for_tests<R: Rules>(board: Subboard, rules: &R) -> u64 {
    search_portable::<R, false>(board, rules).0
}

fn search_portable<R: Rules, const NODES: bool>(board: Subboard, rules: &R) -> (u64, u64) {
    search::<R, NODES>(board, rules)
}

/// Plain recursion down to the closed form (or to the end, on boards of fewer than five
/// rows): for boards too small for the explicit stack to pay. Returns (value, nodes).
fn count_small<R: Rules>(board: Subboard, rules: &R, row: usize) -> (u64, u64) {
    if board.rows_left() == FINISH_ROWS {
        return (rules.finish(board.open, board.left, board.right), 0);
    }
    if board.open == 0 {
        return (1, 0);
    }
    let mut free = board.free() & !rules.blocked(row);
    let (mut total, mut nodes) = (0, 0);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let (value, below) = count_small(board.place(bit), rules, row + 1);
        total += value;
        nodes += below + 1;
    }
    (total, nodes)
}

/// The search proper, inlined into each instruction-set variant; counts its nodes only
/// when `NODES` is set (the plain build carries no counter). Returns (value, nodes).
#[inline(always)]
fn search<R: Rules, const NODES: bool>(board: Subboard, rules: &R) -> (u64, u64) {
    let rows = board.rows_left();
    // Below this the set-up costs more than the search.
    if rows <= FINISH_ROWS + 1 {
        return count_small(board, rules, 0);
    }
    // The search works on the complement of the open columns ("taken", with every bit
    // outside the board set) so that the free squares are one `not` of an `or`.
    let mut taken = !board.open;
    let mut left = board.left;
    let mut right = board.right;
    let mut free = !(taken | left | right | rules.blocked(0));

    // The depth at which each free square leads straight to the closed form.
    let last = (rows - FINISH_ROWS - 1) as usize;
    let mut stack = [(0u32, 0u32, 0u32, 0u32); 32];
    let mut depth = 0usize;
    let mut total = 0u64;
    let mut nodes = 0u64;
    loop {
        if depth == last {
            // Every free square here leaves exactly five rows: count them in closed form.
            if NODES {
                nodes += u64::from(free.count_ones());
            }
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                let open = !(taken | bit);
                total += rules.finish(open, (left | bit) << 1, (right | bit) >> 1);
            }
        }
        if free == 0 {
            if depth == 0 {
                break;
            }
            depth -= 1;
            // `depth < last < 32`, and every slot below `depth` was written on the way down.
            (taken, left, right, free) = stack[depth & 31];
            continue;
        }
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let next_taken = taken | bit;
        let next_left = (left | bit) << 1;
        let next_right = (right | bit) >> 1;
        let next_free = !(next_taken | next_left | next_right | rules.blocked(depth + 1));
        // The row after next, ignoring the queen of the next row: if it is already full,
        // nothing below this square can succeed.
        let after_next =
            !(next_taken | (next_left << 1) | (next_right >> 1) | rules.blocked(depth + 2));
        if NODES {
            nodes += 1;
        }
        if next_free != 0 && after_next != 0 {
            stack[depth & 31] = (taken, left, right, free);
            depth += 1;
            (taken, left, right, free) = (next_taken, next_left, next_right, next_free);
        }
    }
    (total, nodes)
}

/// An estimate of the number of nodes of the search of `board` under `rules`, by Knuth's
/// method: `probes` random walks from the board down to a dead end, each multiplying the
/// numbers of choices it meets. Deterministic for a given `seed`; cheap (a few hundred steps
/// a probe), and unlike a shallow count it sees the constraints of the deep rows.
pub fn estimate<R: Rules>(board: Subboard, rules: &R, probes: u32, seed: u64) -> f64 {
    let mut state = seed | 1;
    let mut total = 0.0;
    for _ in 0..probes {
        let (mut board, mut row, mut paths, mut nodes) = (board, 0usize, 1.0f64, 0.0f64);
        loop {
            let free = board.free() & !rules.blocked(row);
            let choices = free.count_ones();
            if choices == 0 {
                break;
            }
            paths *= f64::from(choices);
            nodes += paths;
            // xorshift64: a fixed, portable sequence.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut pick = (state % u64::from(choices)) as u32;
            let mut rest = free;
            while pick > 0 {
                rest &= rest - 1;
                pick -= 1;
            }
            board = board.place(rest & rest.wrapping_neg());
            row += 1;
        }
        total += nodes;
    }
    total / f64::from(probes.max(1))
}

/// Calls `visit` with the column list (row 0 first) of every completion of `board`, whose
/// first rows hold the queens of `prefix`, in lexicographic order. `visit` returns whether to
/// go on; so does this function (false: stopped early).
///
/// The same search as [`count`], with the columns of the rows kept: the last five rows come
/// from the closed form's completions in their lexicographic order.
pub fn visit(board: Subboard, prefix: &[u8], visit: &mut impl FnMut(&[u8]) -> bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::cpu::has_bmi() {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { visit_x86_bmi(board, prefix, visit) };
        }
    }
    visit_search(board, prefix, visit)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
unsafe fn visit_x86_bmi(
    board: Subboard,
    prefix: &[u8],
    visit: &mut impl FnMut(&[u8]) -> bool,
) -> bool {
    visit_search(board, prefix, visit)
}

/// The search of [`visit`]; inlined into each instruction-set variant. It repeats the walk
/// of [`search`] with the columns kept: sharing one generic walk between the two (tried,
/// with a closure for the last five rows) made the counting search 5 to 14% slower.
#[inline(always)]
fn visit_search(board: Subboard, prefix: &[u8], visit: &mut impl FnMut(&[u8]) -> bool) -> bool {
    let rows = board.rows_left() as usize;
    let n = prefix.len() + rows;
    assert!(n <= 32, "at most 32 rows");
    let mut columns = [0u8; 32];
    columns[..prefix.len()].copy_from_slice(prefix);
    if rows <= FINISH_ROWS as usize + 1 {
        return visit_small(board, &mut columns[..n], prefix.len(), visit);
    }
    let first = prefix.len();
    let mut taken = !board.open;
    let mut left = board.left;
    let mut right = board.right;
    let mut free = !(taken | left | right);
    let last = rows - FINISH_ROWS as usize - 1;
    let mut stack = [(0u32, 0u32, 0u32, 0u32); 32];
    let mut depth = 0usize;
    loop {
        if depth == last {
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                columns[first + depth] = bit.trailing_zeros() as u8;
                let open = !(taken | bit);
                let found = finish::survivors(open, (left | bit) << 1, (right | bit) >> 1, |_| 0);
                let mut going = true;
                found.for_each(|tail| {
                    if going {
                        for (slot, &c) in columns[n - 5..n].iter_mut().zip(&tail) {
                            *slot = c as u8;
                        }
                        going = visit(&columns[..n]);
                    }
                });
                if !going {
                    return false;
                }
            }
        }
        if free == 0 {
            if depth == 0 {
                return true;
            }
            depth -= 1;
            (taken, left, right, free) = stack[depth & 31];
            continue;
        }
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let next_taken = taken | bit;
        let next_left = (left | bit) << 1;
        let next_right = (right | bit) >> 1;
        let next_free = !(next_taken | next_left | next_right);
        let after_next = !(next_taken | (next_left << 1) | (next_right >> 1));
        if next_free != 0 && after_next != 0 {
            columns[first + depth] = bit.trailing_zeros() as u8;
            stack[depth & 31] = (taken, left, right, free);
            depth += 1;
            (taken, left, right, free) = (next_taken, next_left, next_right, next_free);
        }
    }
}

/// [`visit`] by plain recursion, for small boards; `row` is the row to fill next.
fn visit_small(
    board: Subboard,
    columns: &mut [u8],
    row: usize,
    visit: &mut impl FnMut(&[u8]) -> bool,
) -> bool {
    if board.open == 0 {
        return visit(columns);
    }
    let mut free = board.free();
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        columns[row] = bit.trailing_zeros() as u8;
        if !visit_small(board.place(bit), columns, row + 1, visit) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    /// Plain recursion without the closed form: the reference for blocked searches.
    fn count_small_plain(board: Subboard, rows: &[u32]) -> u64 {
        if board.open == 0 {
            return 1;
        }
        let mut free = board.free() & !rows[0];
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += count_small_plain(board.place(bit), &rows[1..]);
        }
        total
    }

    #[test]
    fn full_boards_match_the_known_counts() {
        for n in 1..=12 {
            let expected = known::total(n).unwrap();
            assert_eq!(u128::from(count(Subboard::empty(n))), expected, "n = {n}");
            assert_eq!(
                u128::from(search_portable::<_, false>(Subboard::empty(n), &Unblocked).0),
                expected
            );
            assert_eq!(
                u128::from(count_small(Subboard::empty(n), &Unblocked, 0).0),
                expected
            );
        }
    }

    /// The BMI2 build, which the vector build stands in for where the processor has
    /// AVX-512, still counts right where it runs.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_bmi2_build_matches_the_known_counts() {
        if !crate::cpu::has_bmi() {
            eprintln!("no BMI2 here: its build is not tested");
            return;
        }
        for n in 1..=12 {
            // SAFETY: checked above.
            let (total, _) = unsafe { search_x86_bmi::<_, false>(Subboard::empty(n), &Unblocked) };
            assert_eq!(u128::from(total), known::total(n).unwrap(), "n = {n}");
        }
    }

    #[test]
    fn a_full_board_has_one_completion() {
        let board = Subboard {
            open: 0,
            left: 0b1010,
            right: 0b0101,
        };
        assert_eq!(count(board), 1);
    }

    #[test]
    fn every_first_row_square_of_n11_agrees_with_plain_recursion() {
        let empty = Subboard::empty(11);
        let mut free = empty.free();
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let board = empty.place(bit);
            assert_eq!(count(board), count_small_plain(board, &[0; 32]));
        }
    }

    #[test]
    fn blocked_search_agrees_with_blocked_recursion() {
        // Pseudo-random blocked squares on boards of 7 to 12 rows.
        let mut next = test_words(0x2545_f491_4f6c_dd1d_u64);
        for _ in 0..300 {
            let n = 7 + (next() % 6) as u32;
            let rows: Vec<u32> = (0..n).map(|_| (next() & next() & next()) as u32).collect();
            let blocks = RowBlocks::new(&rows);
            let board = Subboard::empty(n);
            assert_eq!(
                count_with(board, &blocks),
                count_small_plain(board, &blocks.rows[..n as usize]),
                "n {n} rows {rows:?}"
            );
            assert_eq!(
                search_portable::<_, false>(board, &blocks).0,
                count_small_plain(board, &blocks.rows[..n as usize])
            );
        }
    }

    #[test]
    fn counting_nodes_does_not_change_the_count() {
        for n in [4, 7, 9, 12] {
            let board = Subboard::empty(n);
            let (total, nodes) = search_portable::<_, true>(board, &Unblocked);
            assert_eq!(total, count(board));
            assert!(nodes > 0);
            assert_eq!(nodes, nodes_with(board, &Unblocked));
        }
    }

    #[test]
    fn visit_finds_every_solution_in_lexicographic_order() {
        for n in 1..=11 {
            let mut all: Vec<Vec<u8>> = Vec::new();
            visit(Subboard::empty(n), &[], &mut |s| {
                all.push(s.to_vec());
                true
            });
            assert_eq!(all.len() as u128, known::total(n).unwrap(), "n = {n}");
            assert!(all.windows(2).all(|w| w[0] < w[1]), "n = {n}");
            for s in &all {
                let mut board = Subboard::empty(n);
                for &c in s {
                    assert_ne!(board.free() & (1 << c), 0, "{s:?}");
                    board = board.place(1 << c);
                }
            }
        }
    }

    #[test]
    fn visit_stops_when_asked() {
        let mut seen = 0;
        let finished = visit(Subboard::empty(10), &[], &mut |_| {
            seen += 1;
            seen < 5
        });
        assert!(!finished);
        assert_eq!(seen, 5);
    }

    #[test]
    fn thirty_two_columns_use_every_bit() {
        let board = Subboard::empty(32);
        assert_eq!(board.open, u32::MAX);
        assert_eq!(board.rows_left(), 32);
    }
}
