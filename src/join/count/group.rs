//! A group's table: up to 512 half-boards bit-sliced, a row per value of each chunk of their
//! patterns' rests, the members that hold none of that value's diagonals (what `index.rs`
//! builds and the hot loop, `hot.rs`, reads).

use super::bits::Gather;
use super::chunking::Chunking;
use super::hot::{GROUP, Row};

/// Writes the table of one group of `members` (at most 512) into `table`.
#[inline(always)]
pub(in crate::join) fn fill_group<G: Gather>(
    gather: G,
    table: &mut [Row],
    members: &[u64],
    chunking: &Chunking,
) {
    // held[bit]: the members that hold `bit`, by transposing each block's bit matrix.
    let mut held = [[0u64; GROUP]; 64];
    let mut present = [0u64; GROUP];
    for (k, block) in members.chunks(64).enumerate() {
        let mut matrix = [0u64; 64];
        matrix[..block.len()].copy_from_slice(block);
        gather.transpose(&mut matrix);
        for (bit, &word) in matrix.iter().enumerate() {
            held[bit][k] = word;
        }
        present[k] = if block.len() == 64 {
            !0
        } else {
            (1u64 << block.len()) - 1
        };
    }
    // Each value's row is that of the value without its lowest bit, less the members that
    // hold that bit; value 0 holds no diagonal, so every member is free of it.
    let mut table = table;
    let mut shift = 0;
    for &bits in chunking.widths() {
        let (rows, rest) = table.split_at_mut(1 << bits);
        table = rest;
        rows[0] = Row(present);
        for v in 1..rows.len() {
            let from = rows[v & (v - 1)].0;
            let holders = &held[shift + v.trailing_zeros() as usize];
            for ((word, f), h) in rows[v].0.iter_mut().zip(from).zip(holders) {
                *word = f & !h;
            }
        }
        shift += bits as usize;
    }
}

/// [`transpose`](super::bits::transpose) with AVX-512 (F and BW), some 130 instructions against some 1,300: the
/// words' bytes are regrouped so that one vector holds byte `j` of all 64 words, and a
/// byte-wise test of each of its 8 bits gives 64 bits of one row of the transpose at once.
/// (The scalar rounds were 2/3 of a group's table built in the first-level cache, and some
/// 6 % of a count of n = 20.)
///
/// # Safety
///
/// The processor has AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(in crate::join) unsafe fn transpose_avx512(a: &mut [u64; 64]) {
    use std::arch::x86_64::*;
    let vector = |words: &[i64; 8]| {
        // SAFETY: eight words, 64 bytes, read unaligned.
        unsafe { _mm512_loadu_si512(words.as_ptr().cast()) }
    };
    // Within each 128-bit lane (two words), byte `j` of both side by side: 16-bit element
    // `j` of the lane. Then 64-bit element `j` of the vector gathers element `j` of the four
    // lanes: byte `j` of the vector's eight words, in their order.
    let pair_bytes = _mm512_broadcast_i32x4(_mm_setr_epi8(
        0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15,
    ));
    let by_lane: [i16; 32] = std::array::from_fn(|e| (8 * (e % 4) + e / 4) as i16);
    // SAFETY: 32 16-bit elements, 64 bytes, read unaligned.
    let by_lane = unsafe { _mm512_loadu_si512(by_lane.as_ptr().cast()) };
    let mut v: [__m512i; 8] = std::array::from_fn(|i| {
        // SAFETY: words 8 i to 8 i + 7 of the 64, read unaligned.
        let words = unsafe { _mm512_loadu_si512(a.as_ptr().add(8 * i).cast()) };
        _mm512_permutexvar_epi16(by_lane, _mm512_shuffle_epi8(words, pair_bytes))
    });
    // Now element `j` of v[i] is byte `j` of words 8 i to 8 i + 7. Transposed as an 8 x 8
    // matrix of 64-bit elements (the off-diagonal blocks of 1, 2 and 4 swapped), v[j] holds
    // byte `j` of every word, word `m` at byte `m`.
    for step in [1usize, 2, 4] {
        let first: [i64; 8] =
            std::array::from_fn(|j| if j & step == 0 { j } else { 8 + (j ^ step) } as i64);
        let second: [i64; 8] =
            std::array::from_fn(|j| if j & step == 0 { j ^ step } else { 8 + j } as i64);
        let (first, second) = (vector(&first), vector(&second));
        for r in (0..8).filter(|r| r & step == 0) {
            let (x, y) = (v[r], v[r + step]);
            v[r] = _mm512_permutex2var_epi64(x, first, y);
            v[r + step] = _mm512_permutex2var_epi64(x, second, y);
        }
    }
    for (j, bytes) in v.iter().enumerate() {
        for b in 0..8 {
            a[8 * j + b] = _mm512_test_epi8_mask(*bytes, _mm512_set1_epi8((1u8 << b) as i8));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::count::bits::transpose;

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx512_transpose_transposes_as_the_rounds_do() {
        if !(is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw")) {
            eprintln!("no AVX-512 BW here: the AVX-512 transpose is not run");
            return;
        }
        let mut next = crate::join::count::hot::test_words(0x5eed_1234_abcd_0077);
        for round in 0..200 {
            // Random words, and sparse ones and blocks with words left zero, as a group's
            // last block has.
            let mut a: [u64; 64] = std::array::from_fn(|_| match round % 3 {
                0 => next(),
                1 => next() & next() & next(),
                _ => 0,
            });
            if round % 3 == 2 {
                for word in a.iter_mut().take(round % 64) {
                    *word = next();
                }
            }
            let mut rounds = a;
            transpose(&mut rounds);
            // SAFETY: AVX-512 F and BW were detected above.
            unsafe { transpose_avx512(&mut a) };
            assert_eq!(a, rounds, "round {round}");
        }
    }
}
