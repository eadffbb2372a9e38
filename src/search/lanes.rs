//! The search's vector build: sixteen subtrees of one task searched at once, one in each
//! 32-bit lane of an AVX-512 register.
//!
//! One depth-first search is a chain of dependent bit operations and a branch that
//! mispredicts on every other node; a core could run many such chains side by side. Here a
//! scalar walk ([`Feeder`]) places the task's first rows and hands out the boards it reaches
//! `k` rows down; each lane searches one of them down to the row above the closed form's,
//! and takes the next when it is done. Every step moves every lane by one node, with masks instead of
//! branches: a lane with a square left tries it (and goes down when the two-row look-ahead
//! lets it), a lane without one goes back up a row.
//!
//! No lane keeps a stack of boards. Going down from a row adds the chosen square to the
//! columns and shifts the two diagonal masks; going back up undoes that exactly on every
//! square that matters (see [`Lanes::back_up`]), so a lane keeps only the column of each
//! row's queen, five bits a row packed into one word, and recomputes the row's untried
//! squares as its free squares to the right of that queen. So each lane's subtree spans at
//! most [`LANE_ROWS`] rows, and boards with open columns past [`LANE_COLUMNS`] (26) are
//! left to the scalar search.
//!
//! A lane on the row above the closed form's tries its squares one a step like any other,
//! and writes out each board of five rows left; a buffer of those is counted sixteen at a
//! time by the vector closed form (`finish_lanes.rs`), with the rules' blocked squares and
//! ties (`Rules::closed_form`). The scalar search (`kernel.rs`) calls it with its board and
//! its rules as plain data: the rows' blocked squares and the closed form's.
//!
//! The kernel counts exactly what the scalar search counts, with the same look-ahead and
//! the same blocked squares, tested against it on random boards and rules.

use crate::search::finish::{ClosedForm, FINISH_ROWS};
use crate::search::finish_lanes::{self, Form};
use std::arch::x86_64::*;

/// Whether this processor runs the vector build: AVX-512 F with CD (a lane's leading
/// zeros), and what the vector closed form needs.
pub(crate) fn available() -> bool {
    finish_lanes::available() && crate::cpu::has_bmi()
}

/// The most rows one lane goes down from the row it is handed: a lane packs the columns of
/// its rows' queens five bits a row in one 32-bit word, six rows.
const LANE_ROWS: usize = 6;

/// Lanes of one register.
const LANES: usize = 16;

/// Boards of five rows held before the closed form counts them: at most [`LANES`] come in a
/// step.
const LEAVES: usize = 256;

/// How far up a lane holds the diagonal moving down: each row it goes down shifts that
/// mask right, and going back up shifts it left, so without a margin every row would lose
/// its bit 0 for good. A lane goes back up at most [`LANE_ROWS`] - 1 rows.
const MARGIN: u32 = LANE_ROWS as u32;

/// The columns a lane can search: going back up loses the top bits of the diagonal moving
/// up, one a row, and the margin pushes the diagonal moving down's top bits out; those
/// columns must be off the board or taken.
const LANE_COLUMNS: u32 = 32 - MARGIN;

/// Whether a board with the open columns `open` suits the vector build: a search with more
/// rows than the closed form and two more (fewer are not worth the set-up), and no open
/// column past [`LANE_COLUMNS`].
pub(crate) fn suits(open: u32) -> bool {
    open.count_ones() >= FINISH_ROWS + 3 && open >> LANE_COLUMNS == 0
}

/// The summed value of the completions of the board `[open, left, right]` (the columns
/// still open, and the squares of the next row attacked along the two diagonals, as the
/// scalar search's `Subboard`), with `blocked[i]` blocked in the i-th row and the last five
/// rows counted as `form` says: what the scalar search counts under those rules.
///
/// # Safety
///
/// The processor has what [`available`] checks, and `open` [`suits`] the vector build.
#[target_feature(enable = "avx512f,avx512cd,avx512bw,avx512vpopcntdq,gfni,popcnt,bmi1,bmi2,lzcnt")]
pub(crate) unsafe fn count(board: [u32; 3], blocked: &[u32; 32], form: &ClosedForm) -> u64 {
    let rows = board[0].count_ones() as usize;
    // The depth of the leaves: each of their free squares leaves exactly five rows.
    let last = rows - FINISH_ROWS as usize - 1;
    // The row the lanes start from: as deep as a lane's packed columns reach from it.
    let start = last.saturating_sub(LANE_ROWS).max(1);
    let mut feeder = Feeder::new(board, blocked, start);
    let mut lanes = Lanes::new(blocked, start, last);
    let form = Form::new(form);
    let mut leaves = Leaves::new();
    let mut total = 0u64;
    let mut idle: u16 = u16::MAX;
    let mut feeding = true;
    loop {
        if idle != 0 && feeding {
            idle = lanes.refill(idle, &mut feeder);
            feeding = idle == 0;
        }
        if idle == u16::MAX {
            break;
        }
        idle |= lanes.step(!idle, &mut leaves);
        if leaves.len > LEAVES - LANES {
            total += leaves.count(&form);
        }
    }
    total + leaves.count(&form)
}

/// The scalar walk that places a task's first rows: it hands out, in search order, every
/// board `depth` rows down that the search would go into.
struct Feeder<'a> {
    blocked: &'a [u32; 32],
    depth: usize,
    /// The rows above the current one: taken columns, the two diagonals, untried squares.
    stack: [[u32; 4]; 32],
    /// How many rows down the current board is.
    row: usize,
    /// The current board and its untried squares.
    board: [u32; 4],
}

impl<'a> Feeder<'a> {
    fn new([open, left, right]: [u32; 3], blocked: &'a [u32; 32], depth: usize) -> Self {
        let taken = !open;
        let free = !(taken | left | right | blocked[0]);
        Feeder {
            blocked,
            depth,
            stack: [[0; 4]; 32],
            row: 0,
            board: [taken, left, right, free],
        }
    }

    /// The next board `depth` rows down: taken columns, the two diagonals, free squares.
    #[inline(always)]
    fn next(&mut self) -> Option<[u32; 4]> {
        loop {
            let [taken, left, right, free] = self.board;
            if free == 0 {
                if self.row == 0 {
                    return None;
                }
                self.row -= 1;
                self.board = self.stack[self.row & 31];
                continue;
            }
            let bit = free & free.wrapping_neg();
            self.board[3] = free ^ bit;
            let next = [taken | bit, (left | bit) << 1, (right | bit) >> 1];
            let next_free = !(next[0] | next[1] | next[2] | self.blocked[(self.row + 1) & 31]);
            let after_next =
                !(next[0] | (next[1] << 1) | (next[2] >> 1) | self.blocked[(self.row + 2) & 31]);
            if next_free == 0 || after_next == 0 {
                continue;
            }
            let board = [next[0], next[1], next[2], next_free];
            if self.row + 1 == self.depth {
                return Some(board);
            }
            self.stack[self.row & 31] = self.board;
            self.row += 1;
            self.board = board;
        }
    }
}

/// The boards of five rows the lanes reach, waiting for the closed form: their open
/// columns, and the first row's squares attacked along the two diagonals.
struct Leaves {
    open: [u32; LEAVES],
    left: [u32; LEAVES],
    right: [u32; LEAVES],
    len: usize,
}

impl Leaves {
    fn new() -> Self {
        Leaves {
            open: [0; LEAVES],
            left: [0; LEAVES],
            right: [0; LEAVES],
            len: 0,
        }
    }

    /// The value of every board held, by the vector closed form; empties the buffer.
    #[inline]
    #[target_feature(enable = "avx512f,avx512cd,avx512bw,avx512vpopcntdq,gfni")]
    fn count(&mut self, form: &Form) -> u64 {
        let mut total = 0u64;
        for at in (0..self.len).step_by(LANES) {
            let lanes = (u32::MAX >> (32 - (self.len - at).min(LANES))) as u16;
            // SAFETY: `at + LANES <= LEAVES` (`len` stays below `LEAVES - LANES` + LANES):
            // three loads of 16 words within the buffers.
            let (open, left, right) = unsafe {
                (
                    _mm512_loadu_si512(self.open[at..].as_ptr().cast()),
                    _mm512_loadu_si512(self.left[at..].as_ptr().cast()),
                    _mm512_loadu_si512(self.right[at..].as_ptr().cast()),
                )
            };
            let values = form.values(lanes, open, left, right);
            // At most 16 x 120 completions x 24 units a vector: far within 32 bits.
            total += u64::from(_mm512_reduce_add_epi32(values) as u32);
        }
        self.len = 0;
        total
    }
}

/// Sixteen searches, lane by lane: the board each is at, its untried squares, its depth and
/// the packed columns of its rows' queens.
struct Lanes {
    taken: __m512i,
    left: __m512i,
    /// The diagonal moving down, [`MARGIN`] bits up.
    right_wide: __m512i,
    free: __m512i,
    depth: __m512i,
    columns: __m512i,
    /// The blocked squares by depth: depths 0-15, and 16-31.
    blocked: [__m512i; 2],
    start: __m512i,
    last: __m512i,
}

impl Lanes {
    #[inline]
    #[target_feature(enable = "avx512f,avx512cd")]
    fn new(blocked: &[u32; 32], start: usize, last: usize) -> Self {
        // SAFETY: each half of `blocked` is 16 words, one unaligned 64-byte load.
        let (low, high) = unsafe {
            (
                _mm512_loadu_si512(blocked.as_ptr().cast()),
                _mm512_loadu_si512(blocked[16..].as_ptr().cast()),
            )
        };
        Lanes {
            taken: _mm512_set1_epi32(-1),
            left: _mm512_setzero_si512(),
            right_wide: _mm512_setzero_si512(),
            free: _mm512_setzero_si512(),
            depth: _mm512_set1_epi32(start as i32),
            columns: _mm512_setzero_si512(),
            blocked: [low, high],
            start: _mm512_set1_epi32(start as i32),
            last: _mm512_set1_epi32(last as i32),
        }
    }

    /// Hands the idle lanes (bits of `idle`) the feeder's next boards: the lanes still idle
    /// after (the feeder ran out).
    #[inline]
    #[target_feature(enable = "avx512f,avx512cd,popcnt,bmi1,bmi2,lzcnt")]
    fn refill(&mut self, mut idle: u16, feeder: &mut Feeder) -> u16 {
        while idle != 0 {
            let Some([taken, left, right, free]) = feeder.next() else {
                return idle;
            };
            let lane = idle & idle.wrapping_neg();
            idle ^= lane;
            self.taken = _mm512_mask_set1_epi32(self.taken, lane, taken as i32);
            self.left = _mm512_mask_set1_epi32(self.left, lane, left as i32);
            self.right_wide =
                _mm512_mask_set1_epi32(self.right_wide, lane, (right << MARGIN) as i32);
            self.free = _mm512_mask_set1_epi32(self.free, lane, free as i32);
            self.depth = _mm512_mask_mov_epi32(self.depth, lane, self.start);
        }
        0
    }

    /// The blocked squares at each lane's `depth` (below 32).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn blocked_at(&self, depth: __m512i) -> __m512i {
        _mm512_permutex2var_epi32(self.blocked[0], depth, self.blocked[1])
    }

    /// One node for every lane of `busy`: a lane with an untried square tries it, and goes
    /// down or writes a leaf; a lane without one goes back up. Returns the lanes that went
    /// back up past their first row (done).
    #[inline]
    #[target_feature(enable = "avx512f,avx512cd,popcnt,bmi1,bmi2,lzcnt")]
    fn step(&mut self, busy: u16, leaves: &mut Leaves) -> u16 {
        let one = _mm512_set1_epi32(1);
        let zero = _mm512_setzero_si512();
        let trying = _mm512_mask_test_epi32_mask(busy, self.free, self.free);
        // The lowest untried square (none in a lane without one).
        let bit = _mm512_and_si512(self.free, _mm512_sub_epi32(zero, self.free));
        self.free = _mm512_xor_si512(self.free, bit);
        let taken = _mm512_or_si512(self.taken, bit);
        let left = _mm512_slli_epi32::<1>(_mm512_or_si512(self.left, bit));
        let right_wide = _mm512_srli_epi32::<1>(_mm512_or_si512(
            self.right_wide,
            _mm512_slli_epi32::<MARGIN>(bit),
        ));
        let right = _mm512_srli_epi32::<MARGIN>(right_wide);
        let below = _mm512_add_epi32(self.depth, one);
        let blocked_next = self.blocked_at(below);
        let blocked_after = self.blocked_at(_mm512_add_epi32(below, one));
        // 0x01: not (a or b or c); the next row's free squares, then the row after's with
        // the next row's queen left out (the look-ahead of the scalar search).
        let free = _mm512_andnot_si512(
            blocked_next,
            _mm512_ternarylogic_epi32::<0x01>(taken, left, right),
        );
        let after = _mm512_andnot_si512(
            blocked_after,
            _mm512_ternarylogic_epi32::<0x01>(
                taken,
                _mm512_slli_epi32::<1>(left),
                _mm512_srli_epi32::<1>(right),
            ),
        );
        // A lane at the last row searched tries its squares one a step: each leaves five
        // rows, for the closed form.
        let leaf = _mm512_mask_cmpeq_epi32_mask(trying, self.depth, self.last);
        if leaf != 0 {
            leaves.push(
                leaf,
                _mm512_andnot_si512(taken, _mm512_set1_epi32(-1)),
                left,
                right,
            );
        }
        let down = _mm512_mask_test_epi32_mask(
            _mm512_mask_test_epi32_mask(trying & !leaf, free, free),
            after,
            after,
        );
        // Going down from a row keeps its queen's column, five bits at (depth - start) * 5.
        let shift = self.column_shift(self.depth);
        let column = _mm512_sub_epi32(_mm512_set1_epi32(31), _mm512_lzcnt_epi32(bit));
        self.columns =
            _mm512_mask_mov_epi32(self.columns, down, keep_column(self.columns, shift, column));
        self.taken = _mm512_mask_mov_epi32(self.taken, down, taken);
        self.left = _mm512_mask_mov_epi32(self.left, down, left);
        self.right_wide = _mm512_mask_mov_epi32(self.right_wide, down, right_wide);
        self.free = _mm512_mask_mov_epi32(self.free, down, free);
        self.depth = _mm512_mask_mov_epi32(self.depth, down, below);
        // The lanes without an untried square: done at their first row, else back up.
        let out = busy & !trying;
        let done = _mm512_mask_cmpeq_epi32_mask(out, self.depth, self.start);
        self.back_up(out & !done);
        done
    }

    /// The shift of the queen's column of row `depth` in a lane's packed columns.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn column_shift(&self, depth: __m512i) -> __m512i {
        let rows = _mm512_sub_epi32(depth, self.start);
        _mm512_add_epi32(_mm512_slli_epi32::<2>(rows), rows)
    }

    /// The lanes of `up` go back up a row: the queen of the row above is taken off, and
    /// its untried squares are the free squares to the right of it.
    ///
    /// Taking the queen off is exact on every square that matters: the columns lose her
    /// bit; the diagonal moving up shifted its bit 31 out when she was placed (a bit lost
    /// for each row gone back up, all past [`LANE_COLUMNS`]: off the board or taken, see
    /// [`suits`]); the diagonal moving down shifted out a bit of its margin.
    #[inline]
    #[target_feature(enable = "avx512f,avx512cd")]
    fn back_up(&mut self, up: u16) {
        let depth = _mm512_sub_epi32(self.depth, _mm512_set1_epi32(1));
        let shift = self.column_shift(depth);
        let column = _mm512_and_si512(
            _mm512_srlv_epi32(self.columns, shift),
            _mm512_set1_epi32(31),
        );
        let bit = _mm512_sllv_epi32(_mm512_set1_epi32(1), column);
        let taken = _mm512_xor_si512(self.taken, bit);
        let left = _mm512_andnot_si512(bit, _mm512_srli_epi32::<1>(self.left));
        let right_wide = _mm512_andnot_si512(
            _mm512_slli_epi32::<MARGIN>(bit),
            _mm512_slli_epi32::<1>(self.right_wide),
        );
        let right = _mm512_srli_epi32::<MARGIN>(right_wide);
        let free = _mm512_andnot_si512(
            self.blocked_at(depth),
            _mm512_ternarylogic_epi32::<0x01>(taken, left, right),
        );
        // Above `bit`: the squares not yet tried in that row.
        let above = _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_add_epi32(bit, bit));
        self.taken = _mm512_mask_mov_epi32(self.taken, up, taken);
        self.left = _mm512_mask_mov_epi32(self.left, up, left);
        self.right_wide = _mm512_mask_mov_epi32(self.right_wide, up, right_wide);
        self.free = _mm512_mask_mov_epi32(self.free, up, _mm512_and_si512(free, above));
        self.depth = _mm512_mask_mov_epi32(self.depth, up, depth);
    }
}

/// `columns` with its five bits at `shift` replaced by `column`.
#[inline]
#[target_feature(enable = "avx512f")]
fn keep_column(columns: __m512i, shift: __m512i, column: __m512i) -> __m512i {
    let mask = _mm512_sllv_epi32(_mm512_set1_epi32(31), shift);
    let placed = _mm512_sllv_epi32(column, shift);
    // 0xBA: (a and not b) or c, over (a, b, c) = (columns, mask, placed).
    _mm512_ternarylogic_epi32::<0xBA>(columns, mask, placed)
}

impl Leaves {
    /// Writes out the boards of the lanes of `lanes`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn push(&mut self, lanes: u16, open: __m512i, left: __m512i, right: __m512i) {
        assert!(self.len + LANES <= LEAVES, "no room for a vector of boards");
        // SAFETY: the buffers have room for a whole vector past `len` (checked; the caller
        // empties them once fewer than `LANES` are left).
        unsafe {
            let at = self.len;
            for (buffer, board) in [
                (&mut self.open, open),
                (&mut self.left, left),
                (&mut self.right, right),
            ] {
                _mm512_storeu_si512(
                    buffer[at..].as_mut_ptr().cast(),
                    _mm512_maskz_compress_epi32(lanes, board),
                );
            }
        }
        self.len += lanes.count_ones() as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::kernel::{self, RowBlocks, Rules, Subboard, Unblocked};

    /// The vector build's count of `board` under `rules`, as the scalar search calls it.
    fn vector(board: Subboard, rules: &impl Rules) -> u64 {
        let blocked = std::array::from_fn(|row| rules.blocked(row));
        // SAFETY: the callers check `available` and `suits`.
        unsafe {
            count(
                [board.open, board.left, board.right],
                &blocked,
                &rules.closed_form(),
            )
        }
    }

    /// Every full-symmetry task of n = 8 to 14 (blocked squares and ties) is worth what the
    /// scalar search makes it, split at one to three rows.
    #[test]
    fn the_vector_build_weighs_every_full_symmetry_task_as_the_scalar_search_does() {
        if !available() {
            eprintln!("no AVX-512 here: the vector build is not tested");
            return;
        }
        let mut vector_tasks = 0;
        for n in 8..=14 {
            for depth in 1..=3 {
                for task in crate::search::full::tasks(n, depth) {
                    let scalar = kernel::search_portable_for_tests(task.board, &*task.rules);
                    if suits(task.board.open) {
                        let vector = vector(task.board, &*task.rules);
                        assert_eq!(vector, scalar, "n {n} depth {depth} {:?}", task.case);
                        vector_tasks += 1;
                    }
                }
            }
        }
        assert!(
            vector_tasks > 500,
            "{vector_tasks} tasks counted by the vector build"
        );
    }

    /// The vector build counts what the scalar search counts, with blocked squares and
    /// without, on boards of 8 to 13 rows with queens placed in their first rows.
    #[test]
    fn the_vector_build_counts_what_the_scalar_search_counts() {
        if !available() {
            eprintln!("no AVX-512 here: the vector build is not tested");
            return;
        }
        let mut next = kernel::test_words(0x9e37_79b9_7f4a_7c15);
        for round in 0..300 {
            let n = 8 + (next() % 6) as u32;
            let mut board = Subboard::empty(n);
            for _ in 0..next() % 3 {
                let free = board.free();
                if free == 0 {
                    break;
                }
                board = board.place(1 << free.trailing_zeros());
            }
            if !suits(board.open) {
                continue;
            }
            let rows: Vec<u32> = (0..board.rows_left())
                .map(|_| {
                    if round % 2 == 0 {
                        0
                    } else {
                        (next() & next() & next()) as u32
                    }
                })
                .collect();
            let blocks = RowBlocks::new(&rows);
            let scalar = kernel::search_portable_for_tests(board, &blocks);
            let vector = vector(board, &blocks);
            assert_eq!(vector, scalar, "n {n} board {board:?} rows {rows:?}");
            if round % 2 == 0 {
                assert_eq!(super::tests::vector(board, &Unblocked), scalar);
            }
        }
    }
}
