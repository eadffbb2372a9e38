//! A group's table: up to 512 half-boards bit-sliced, a row per value of each chunk of their
//! patterns' rests, the members that hold none of that value's diagonals (what `index.rs`
//! builds and the hot loop, `hot.rs`, reads).

use super::chunking::Chunking;
use super::hot::{GROUP, Row};

/// Writes the table of one group of `members` (at most 512) into `table`.
#[inline(always)]
pub(in crate::join) fn fill_group(table: &mut [Row], members: &[u64], chunking: &Chunking) {
    // held[bit]: the members that hold `bit`, by transposing each block's bit matrix.
    let mut held = [[0u64; GROUP]; 64];
    let mut present = [0u64; GROUP];
    for (k, block) in members.chunks(64).enumerate() {
        let mut matrix = [0u64; 64];
        matrix[..block.len()].copy_from_slice(block);
        transpose(&mut matrix);
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

/// Transposes a 64 x 64 bit matrix in place: afterwards bit `i` of word `b` is what bit `b`
/// of word `i` was. Six rounds, each swapping the off-diagonal quarters of blocks half as
/// wide as the round before.
#[inline(always)]
fn transpose(a: &mut [u64; 64]) {
    let mut width = 32usize;
    let mut mask: u64 = 0x0000_0000_ffff_ffff;
    while width != 0 {
        let mut k = 0usize;
        while k < 64 {
            let t = ((a[k] >> width) ^ a[k + width]) & mask;
            a[k] ^= t << width;
            a[k + width] ^= t;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_swaps_rows_and_columns() {
        let mut next = crate::join::count::hot::test_words(0x1234_5678_9abc_def1);
        let mut a: [u64; 64] = std::array::from_fn(|_| next());
        let original = a;
        transpose(&mut a);
        for (b, column) in a.iter().enumerate() {
            for (i, row) in original.iter().enumerate() {
                assert_eq!((column >> i) & 1, (row >> b) & 1, "bit {b} of row {i}");
            }
        }
    }
}
