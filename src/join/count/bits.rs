//! A build's bit moves, behind one trait ([`Gather`]): a pattern's cut bits gathered into a
//! bucket number and a rest (`squeeze.rs`), a block of 64 patterns turned into the members
//! that hold each bit (`group.rs`), and half-boards written out where their quarters fit
//! (`half.rs`); and the portable build's way of each, which runs on every processor
//! (`simd.rs` holds the builds that need a check of the processor first).

use super::squeeze::Squeeze;

/// How a build moves bits: a pattern's gathered into a bucket number and a rest, a block of
/// 64 patterns turned into the members that hold each bit (`group.rs`), and half-boards
/// written out where their quarters fit (`half.rs`).
pub(crate) trait Gather: Copy {
    /// (bucket, rest) of `pattern`: see [`Squeeze::split_portable`].
    fn split(self, squeeze: &Squeeze, pattern: u64) -> (usize, u64);

    /// Transposes a 64 x 64 bit matrix in place ([`transpose`]).
    #[inline(always)]
    fn transpose(self, block: &mut [u64; 64]) {
        transpose(block);
    }

    /// Appends a north entry's half-boards beside the south entries it fits to `out`
    /// ([`append_clear`]).
    #[inline(always)]
    fn append_clear(self, key: u64, pattern: u64, souths: &[[u64; 2]], out: &mut Vec<u64>) {
        append_clear(key, pattern, souths, out);
    }

    /// The pairs of an index's prepared queries, `CHUNKS` row numbers a query
    /// (`Index::count_prepared`): the hot loop, in a function of its own for each build and
    /// each `CHUNKS`. Inlined into the unit's count, the eight chunkings' hot loops and walks
    /// made one function of some 80,000 lines of LLVM IR per build, which took three minutes
    /// to compile in one codegen unit and left the code a dependent gets to how its build
    /// cut the crate into units. The builds that need a processor check (`simd.rs`) compile
    /// theirs with their instruction sets.
    #[inline(never)]
    fn count_prepared<const CHUNKS: usize>(self, queries: &mut impl Queries) -> u64 {
        queries.count_prepared::<CHUNKS>(self)
    }
}

/// Prepared queries that a build counts ([`Gather::count_prepared`]): an index's (`index.rs`),
/// named here so that this file needs nothing of it.
pub(crate) trait Queries {
    /// The pairs of the prepared queries, `CHUNKS` row numbers a query, with `gather`.
    fn count_prepared<const CHUNKS: usize>(&mut self, gather: impl Gather) -> u64;
}

/// Gathers one bit at a time: runs on every processor.
#[derive(Clone, Copy, Debug)]
pub(in crate::join) struct Portable;

impl Gather for Portable {
    #[inline(always)]
    fn split(self, squeeze: &Squeeze, pattern: u64) -> (usize, u64) {
        squeeze.split_portable(pattern)
    }
}

/// Transposes a 64 x 64 bit matrix in place: afterwards bit `i` of word `b` is what bit `b`
/// of word `i` was. Six rounds, each swapping the off-diagonal quarters of blocks half as
/// wide as the round before.
#[inline(always)]
pub(in crate::join) fn transpose(a: &mut [u64; 64]) {
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

/// Appends `pattern | s[1]` to `out` for each `s` of `souths` whose key `s[0]` is clear of
/// `key`, in order: a north entry's half-boards beside the south entries it fits (the
/// portable build's [`Gather::append_clear`]).
#[inline(always)]
pub(in crate::join) fn append_clear(
    key: u64,
    pattern: u64,
    souths: &[[u64; 2]],
    out: &mut Vec<u64>,
) {
    // Written without a branch on the data: every candidate is stored, and the end moves
    // past it only when it fits.
    out.reserve(souths.len());
    let slots = &mut out.spare_capacity_mut()[..souths.len()];
    let mut kept = 0;
    for &[south_key, south_pattern] in souths.iter() {
        slots[kept].write(pattern | south_pattern);
        kept += usize::from(key & south_key == 0);
    }
    // SAFETY: the first `kept` spare slots were written just above (each candidate writes
    // the slot at `kept` before `kept` moves past it), and `reserve` made room for all of
    // them.
    unsafe { out.set_len(out.len() + kept) };
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
