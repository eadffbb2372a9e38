//! The closed form of the last five rows (`finish.rs`) for sixteen boards at once, one in
//! each 32-bit lane of an AVX-512 register: the vector build's leaves (`lanes.rs`).
//!
//! The scalar closed form ANDs six 128-bit table entries, one per open column (picked by
//! the column's attacked rows) and one for the gaps between the columns. Here the 128 bits
//! are four 32-bit words; a column's entry is looked up word by word with a two-register
//! permute (its 32 entries fit in two registers), the gaps' entry (625 of them) with a
//! gather. A search with ties (`full.rs`) weighs each completion by the ties it holds, as
//! [`crate::search::full::Weighted`]'s `finish` does.

use crate::search::finish::{ClosedForm, GAP_CLASSES, TABLE_WORDS, placing_words};
use std::arch::x86_64::*;

/// Whether this processor runs the vector closed form: AVX-512 F, CD, BW and VPOPCNTDQ,
/// and GFNI (a lane's bit reversal in two instructions).
pub(crate) fn available() -> bool {
    crate::cpu::allows_avx512()
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512cd")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vpopcntdq")
        && std::is_x86_feature_detected!("gfni")
}

/// A search's [`ClosedForm`], ready for the lanes: the words of the permutations that put
/// a tie's queen in each column slot.
pub(crate) struct Form {
    blocked_rows: [u32; 32],
    units: [u32; 3],
    last_row_ties: u32,
    /// Per slot, the words of the permutations whose last row's queen is in that slot.
    last_row_words: [[u32; 4]; 5],
    side_ties: u32,
    side_words: [[u32; 4]; 5],
    /// Whether any completion is worth other than the first of `units` (no tie bookkeeping
    /// otherwise).
    weighted: bool,
}

impl Form {
    /// The lanes' form of `form`.
    pub(crate) fn new(form: &ClosedForm) -> Form {
        let (side_row, side_ties) = form.side_ties.unwrap_or((0, 0));
        Form {
            blocked_rows: form.blocked_rows,
            units: form.units,
            last_row_ties: form.last_row_ties,
            last_row_words: std::array::from_fn(|slot| placing_words(slot, 4)),
            side_ties,
            side_words: std::array::from_fn(|slot| placing_words(slot, side_row)),
            weighted: form.last_row_ties != 0 || side_ties != 0,
        }
    }

    /// The value of the completions of the boards in the lanes of `lanes`, each with five
    /// rows left: `open` its five open columns, `left` and `right` the squares of the first
    /// of the five rows attacked along the two diagonals (as [`crate::search::finish::survivors`]
    /// takes them). Lanes outside `lanes` are worth 0.
    #[inline]
    #[target_feature(enable = "avx512f,avx512cd,avx512bw,avx512vpopcntdq,gfni")]
    pub(crate) fn values(
        &self,
        lanes: u16,
        open: __m512i,
        left: __m512i,
        right: __m512i,
    ) -> __m512i {
        let zero = _mm512_setzero_si512();
        let (columns, found) = self.survivors(lanes, open, left, right);
        let count = |mask: &dyn Fn(usize) -> __m512i| {
            let mut sum = zero;
            for (word, &all) in found.iter().enumerate() {
                let bits = _mm512_and_si512(all, mask(word));
                sum = _mm512_add_epi32(sum, _mm512_popcnt_epi32(bits));
            }
            _mm512_maskz_mov_epi32(lanes, sum)
        };
        let ones = _mm512_set1_epi32(-1);
        let all = count(&|_| ones);
        if !self.weighted {
            return _mm512_mullo_epi32(all, _mm512_set1_epi32(self.units[0] as i32));
        }
        let last_row = self.placing(&columns, self.last_row_ties, &self.last_row_words);
        let side = self.placing(&columns, self.side_ties, &self.side_words);
        let with_last = count(&|w| last_row[w]);
        let with_side = count(&|w| side[w]);
        let with_both = count(&|w| _mm512_and_si512(last_row[w], side[w]));
        // none = all - last - side + both; one = last + side - 2 both.
        let either = _mm512_add_epi32(with_last, with_side);
        let none = _mm512_add_epi32(_mm512_sub_epi32(all, either), with_both);
        let one_tie = _mm512_sub_epi32(either, _mm512_add_epi32(with_both, with_both));
        let units = |k: usize| _mm512_set1_epi32(self.units[k] as i32);
        _mm512_add_epi32(
            _mm512_add_epi32(
                _mm512_mullo_epi32(none, units(0)),
                _mm512_mullo_epi32(one_tie, units(1)),
            ),
            _mm512_mullo_epi32(with_both, units(2)),
        )
    }

    /// The open columns of each lane, lowest first, and the completions as a set of
    /// permutations, in four words: [`crate::search::finish::survivors`], lane by lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512cd,avx512bw,avx512vpopcntdq,gfni")]
    fn survivors(
        &self,
        lanes: u16,
        open: __m512i,
        left: __m512i,
        right: __m512i,
    ) -> ([__m512i; 5], [__m512i; 4]) {
        let zero = _mm512_setzero_si512();
        let (blocked_low, blocked_high) = two_halves(&self.blocked_rows);
        // The open columns, lowest first.
        let mut rest = open;
        let columns: [__m512i; 5] = std::array::from_fn(|_| {
            let low = _mm512_and_si512(rest, _mm512_sub_epi32(zero, rest));
            rest = _mm512_xor_si512(rest, low);
            _mm512_sub_epi32(_mm512_set1_epi32(31), _mm512_lzcnt_epi32(low))
        });
        // Row i of the five is attacked at column p along the diagonals moving up when
        // `left` has bit p - i: with `left` reversed, bit 31 - p + i, a shift right by
        // 31 - p; along those moving down when `right` has bit p + i, a shift right by p.
        let reversed = reverse_bits(left);
        let thirty_one = _mm512_set1_epi32(31);
        let attacked: [__m512i; 5] = std::array::from_fn(|slot| {
            let p = columns[slot];
            let up = _mm512_srlv_epi32(reversed, _mm512_sub_epi32(thirty_one, p));
            let down = _mm512_srlv_epi32(right, p);
            // 0xA8: (a or b) and c.
            let rows = _mm512_ternarylogic_epi32::<0xA8>(up, down, thirty_one);
            _mm512_or_si512(
                rows,
                _mm512_permutex2var_epi32(blocked_low, p, blocked_high),
            )
        });
        // The gap pattern, base five, the gap between slots 0 and 1 lowest.
        let classes = _mm512_set1_epi32(GAP_CLASSES as i32);
        let one = _mm512_set1_epi32(1);
        let mut gaps = zero;
        for slot in (0..4).rev() {
            let gap = _mm512_sub_epi32(columns[slot + 1], columns[slot]);
            let class = _mm512_sub_epi32(_mm512_min_epu32(gap, classes), one);
            gaps = _mm512_add_epi32(_mm512_add_epi32(_mm512_slli_epi32::<2>(gaps), gaps), class);
        }
        let gap_index = _mm512_slli_epi32::<2>(gaps);
        let found: [__m512i; 4] = std::array::from_fn(|word| {
            // SAFETY: every gap pattern is below 625 (each class is 0 to 4; so are the
            // classes of lanes without five open columns, whose gaps wrap high), and the
            // gather reads word `word` of that entry.
            let mut all = unsafe {
                _mm512_mask_i32gather_epi32::<4>(
                    zero,
                    lanes,
                    _mm512_add_epi32(gap_index, _mm512_set1_epi32(word as i32)),
                    TABLE_WORDS.gap_words.as_ptr().cast(),
                )
            };
            for (slot, rows) in attacked.iter().enumerate() {
                let (low, high) = two_halves(&TABLE_WORDS.slot_words[slot][word]);
                all = _mm512_and_si512(all, _mm512_permutex2var_epi32(low, *rows, high));
            }
            all
        });
        (columns, found)
    }

    /// The permutations, word by word, that put a tie's queen on one of `ties`' columns:
    /// for each slot whose column is a tie, those that put the tie's row in that slot.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn placing(&self, columns: &[__m512i; 5], ties: u32, words: &[[u32; 4]; 5]) -> [__m512i; 4] {
        let mut placing = [_mm512_setzero_si512(); 4];
        let ties = _mm512_set1_epi32(ties as i32);
        for (slot, &p) in columns.iter().enumerate() {
            let tie = _mm512_test_epi32_mask(_mm512_sllv_epi32(_mm512_set1_epi32(1), p), ties);
            for (word, placed) in placing.iter_mut().enumerate() {
                *placed = _mm512_mask_or_epi32(
                    *placed,
                    tie,
                    *placed,
                    _mm512_set1_epi32(words[slot][word] as i32),
                );
            }
        }
        placing
    }
}

/// A table of 32 words as the two registers of a permute.
#[inline]
#[target_feature(enable = "avx512f")]
fn two_halves(table: &[u32; 32]) -> (__m512i, __m512i) {
    // SAFETY: two loads of 16 words each, within the table.
    unsafe {
        (
            _mm512_loadu_si512(table.as_ptr().cast()),
            _mm512_loadu_si512(table[16..].as_ptr().cast()),
        )
    }
}

/// Each lane's bits in reverse order: GFNI reverses each byte's bits, a shuffle the bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,gfni")]
fn reverse_bits(x: __m512i) -> __m512i {
    // The affine map whose matrix sends bit i of a byte to bit 7 - i.
    let in_bytes =
        _mm512_gf2p8affine_epi64_epi8::<0>(x, _mm512_set1_epi64(0x8040_2010_0804_0201_u64 as i64));
    let order = _mm512_set_epi8(
        12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5,
        6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8,
        9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
    );
    _mm512_shuffle_epi8(in_bytes, order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::finish;
    use crate::search::kernel::test_words;

    /// Sixteen boards at once are worth what the scalar closed form gives each, plain and
    /// with blocked rows and ties, lanes left out worth 0.
    #[test]
    fn sixteen_boards_at_once_are_worth_what_each_is_alone() {
        if !available() {
            eprintln!("no AVX-512 with GFNI here: the vector closed form is not tested");
            return;
        }
        let mut next = test_words(0x2545_f491_4f6c_dd1d_u64);
        let mut nonzero = 0;
        for round in 0..3000 {
            let mut form = ClosedForm::PLAIN;
            if round % 3 > 0 {
                form.blocked_rows = std::array::from_fn(|_| (next() & next() & 31) as u32);
            }
            if round % 3 == 2 {
                form.units = [24, 12, 8];
                form.last_row_ties = (next() & next()) as u32 & 0x03ff_ffff;
                form.side_ties = Some(((next() % 4) as u32, (next() & next()) as u32));
            }
            let lanes = (next() | next()) as u16;
            let mut boards = [[0u32; 3]; 16];
            for board in &mut boards {
                let width = 5 + (next() % 22) as u32;
                while board[0].count_ones() < 5 {
                    board[0] |= 1 << (next() % u64::from(width));
                }
                board[1] = (next() & next() & next()) as u32;
                board[2] = (next() & next() & next()) as u32;
            }
            let load = |k: usize| {
                let lane: [u32; 16] = std::array::from_fn(|i| boards[i][k]);
                // SAFETY: 16 words.
                unsafe { _mm512_loadu_si512(lane.as_ptr().cast()) }
            };
            let mut got = [0u32; 16];
            // SAFETY: checked above; 16 words stored.
            unsafe {
                let values = Form::new(&form).values(lanes, load(0), load(1), load(2));
                _mm512_storeu_si512(got.as_mut_ptr().cast(), values);
            }
            for (i, &[open, left, right]) in boards.iter().enumerate() {
                let expected = if lanes >> i & 1 == 0 {
                    0
                } else {
                    scalar(&form, open, left, right)
                };
                assert_eq!(u64::from(got[i]), expected, "round {round} lane {i}");
                nonzero += u32::from(expected > 0);
            }
        }
        assert!(nonzero > 1000, "too few boards with completions: {nonzero}");
    }

    /// The scalar closed form's value under `form`, as `Weighted::finish` weighs it.
    fn scalar(form: &ClosedForm, open: u32, left: u32, right: u32) -> u64 {
        let found = finish::survivors(open, left, right, |c| form.blocked_rows[c as usize]);
        let ties = |row: u32, columns: u32| {
            found
                .columns
                .iter()
                .filter(|&&c| columns >> c & 1 == 1)
                .fold(0u128, |mask, &c| mask | found.placing(row, c))
        };
        let last = ties(4, form.last_row_ties);
        let side = form
            .side_ties
            .map_or(0, |(row, columns)| ties(row, columns));
        let all = found.permutations;
        let count = |mask: u128| u64::from((all & mask).count_ones());
        let (with_last, with_side, both) = (count(last), count(side), count(last & side));
        let none = count(!0) - with_last - with_side + both;
        let one = with_last + with_side - 2 * both;
        let units = form.units.map(u64::from);
        none * units[0] + one * units[1] + both * units[2]
    }
}
