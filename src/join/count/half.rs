//! Half-board generation: the half-boards of one side of a unit, each a north quarter entry
//! beside a south one on the other columns, written out as the patterns of diagonals the
//! other side can reach.

use super::bits::{Gather, append_clear};
use super::quarter::{Rows, View};
use crate::join::shape::{Diagonals, Shape};

/// [`append_clear`] with AVX-512 F, eight south entries a step: their keys tested at once,
/// the fitting ones' patterns compressed to the front of a vector and stored whole (the
/// lanes past them are overwritten by the next step, or left past the end).
///
/// # Safety
///
/// The processor has AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
pub(in crate::join) unsafe fn append_clear_avx512(
    key: u64,
    pattern: u64,
    souths: &[[u64; 2]],
    out: &mut Vec<u64>,
) {
    use std::arch::x86_64::*;
    let steps = souths.chunks_exact(8);
    let tail = steps.remainder();
    // Room for every candidate, as the portable loop asks: no more, as a side's buffer is
    // reserved for a piece and one run of candidates exactly (more would double it). A
    // step's whole vector stays within it (below).
    out.reserve(souths.len());
    let start = out.len();
    let base = out.as_mut_ptr();
    let (keys_of, patterns_of) = (
        _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14),
        _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15),
    );
    let (every_key, every_pattern) = (
        _mm512_set1_epi64(key as i64),
        _mm512_set1_epi64(pattern as i64),
    );
    let mut kept = start;
    for step in steps {
        // SAFETY: eight entries of two words, 128 bytes, read unaligned as two vectors.
        let (low, high) = unsafe {
            let at = step.as_ptr().cast::<u64>();
            (
                _mm512_loadu_si512(at.cast()),
                _mm512_loadu_si512(at.add(8).cast()),
            )
        };
        let keys = _mm512_permutex2var_epi64(low, keys_of, high);
        let patterns = _mm512_permutex2var_epi64(low, patterns_of, high);
        let clear = _mm512_testn_epi64_mask(keys, every_key);
        let fitting = _mm512_maskz_compress_epi64(clear, _mm512_or_si512(patterns, every_pattern));
        // SAFETY: `kept` is at most `start` plus the entries seen before this step, so the
        // eight words from it end at most at `start` plus the entries seen after it, within
        // the room reserved above (a step is eight whole entries).
        unsafe { _mm512_storeu_si512(base.add(kept).cast(), fitting) };
        kept += clear.count_ones() as usize;
    }
    // SAFETY: the words up to `kept` were written above, each a fitting candidate.
    unsafe { out.set_len(kept) };
    append_clear(key, pattern, tail, out);
}

/// The `k` lowest members of `set` (all of them when it has fewer): the first subset of
/// `set` with `k` members in increasing order.
pub(in crate::join) fn lowest_members(set: u32, k: u32) -> u32 {
    let mut rest = set;
    let mut subset = 0;
    for _ in 0..k {
        let low = rest & rest.wrapping_neg();
        subset |= low;
        rest ^= low;
    }
    subset
}

/// The subset of `set` after `subset` with as many members, in increasing order; `None` after
/// the last. The column sets a side's north quarter can take, walked by [`Side::fill`] and
/// [`Side::bound`]: only those of the north rows' size (126 of the 512 subsets of 9 columns
/// for 4 rows), where walking every subset cost a fifth of generating odd boards' half-boards.
pub(in crate::join) fn next_subset(subset: u32, set: u32) -> Option<u32> {
    // The lowest member that can move up to the next place of `set` moves there; the
    // members below it (which could not) drop to the lowest places of `set`.
    let mut below = 0;
    let mut members = subset;
    while members != 0 {
        let member = members & members.wrapping_neg();
        members ^= member;
        let above = set & !(member | (member - 1));
        let next = above & above.wrapping_neg();
        if next == 0 {
            return None;
        }
        if subset & next == 0 {
            let higher = subset & !(next | (next - 1));
            return Some(higher | next | lowest_members(set, below));
        }
        below += 1;
    }
    None
}

/// Which of a side's half-boards [`Side::fill`] writes: all of them, or those of one
/// partition of a partitioned join (`partition.rs`), chosen by their bits at the partition's
/// cut diagonals. A north and a south entry never share a diagonal, so a half-board's bits
/// there are the north entry's and the south entry's, disjoint: each entry is filtered alone,
/// and a west partition's half-boards are made from exactly the pairs that give its bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::join) enum Part {
    /// Every half-board.
    Whole,
    /// Those whose bits under `mask` are `bits`: a west partition.
    Exactly { mask: u64, bits: u64 },
    /// Those that hold none of `bits`: the east half-boards a west partition can pair with.
    Clear { bits: u64 },
}

/// Where [`Side::fill`] goes on: the north columns and the north entry.
#[derive(Default)]
pub(in crate::join) struct Cursor {
    north_cols: u32,
    north_at: usize,
}

/// Which quarters one side of a unit takes its half-boards from, on which rows and columns,
/// beside which queens placed before the join (whose diagonals its patterns carry).
#[derive(Clone, Copy, Debug)]
pub(in crate::join) struct Place {
    pub(in crate::join) north: View,
    pub(in crate::join) south: View,
    /// The side's first column on the board.
    pub(in crate::join) first_column: u32,
    /// The north quarter's rows and the south's, each in its own bit order (bit `i` its
    /// `i`-th row from the top).
    pub(in crate::join) north_rows: u32,
    pub(in crate::join) south_rows: u32,
    pub(in crate::join) columns: u32,
    pub(in crate::join) blocked: Diagonals,
}

/// One side of a unit: its place, and the table's placements on its quarters' rows.
pub(in crate::join) struct Side<'t> {
    pub(in crate::join) shape: Shape,
    pub(in crate::join) place: Place,
    /// The north-west table's placements on the north quarter's rows, and on the south's.
    pub(in crate::join) north_table: Rows<'t>,
    pub(in crate::join) south_table: Rows<'t>,
}

impl Side<'_> {
    /// The diagonals where this side's north and south queens can meet, as one word: `h`
    /// anti-diagonals from the south quarter's first one, then `h` main diagonals likewise.
    #[inline(always)]
    fn key(&self, d: Diagonals) -> u64 {
        let Shape { h, far, .. } = self.shape;
        let window = (1u64 << h) - 1;
        let anti = (d.anti >> (far + self.place.first_column)) & window;
        let main = (d.main >> (2 * far - self.place.first_column)) & window;
        anti | main << h
    }

    /// Appends the patterns of this side's half-boards of `part` to `out`, from `cursor` on,
    /// until `out` holds `piece` or more; returns whether the side is done. `souths` is
    /// scratch. `PARTED` false: `part` is [`Part::Whole`], and the loops are those of the
    /// join before partitions (a count of whole units, every one up to n = 25, measured
    /// 4 % slower at n = 20 with the partitions' tests in its build).
    #[inline(always)]
    pub(in crate::join) fn fill<G: Gather, const PARTED: bool>(
        &self,
        gather: G,
        out: &mut Vec<u64>,
        souths: &mut Vec<[u64; 2]>,
        piece: usize,
        cursor: &mut Cursor,
        part: Part,
    ) -> bool {
        let k = self.place.north_rows.count_ones();
        if cursor.north_cols.count_ones() != k {
            // A new cursor: the first column set of the north rows' size.
            cursor.north_cols = lowest_members(self.place.columns, k);
        }
        loop {
            let north_cols = cursor.north_cols;
            let south_cols = self.place.columns ^ north_cols;
            // The south entries clear of the placed queens, once per column split, as
            // (key, pattern): the key holds the diagonals a north entry could share.
            souths.clear();
            let (entries, flipped) = self.south_entries(south_cols);
            // Whether entries are stored upside down is known per run of them: a
            // constant in each loop, so that a table stored whole pays nothing for it.
            if flipped {
                self.place_souths::<true>(entries, souths);
            } else {
                self.place_souths::<false>(entries, souths);
            }
            match part {
                _ if !PARTED => {}
                Part::Whole => {}
                Part::Clear { bits } => souths.retain(|s| s[1] & bits == 0),
                // A south entry with a bit the partition lacks pairs with no north entry;
                // the rest are sorted by their bits, which a north entry's bits then pick.
                Part::Exactly { mask, bits } => {
                    souths.retain(|s| s[1] & mask & !bits == 0);
                    souths.sort_unstable_by_key(|s| s[1] & mask);
                }
            }
            let (norths, flipped) = self.north_entries(north_cols);
            if souths.is_empty() {
                cursor.north_at = norths.len();
            }
            let full = if flipped {
                self.join_norths::<G, true, PARTED>(
                    gather, norths, souths, out, piece, cursor, part,
                )
            } else {
                self.join_norths::<G, false, PARTED>(
                    gather, norths, souths, out, piece, cursor, part,
                )
            };
            if full {
                return false;
            }
            cursor.north_at = 0;
            match next_subset(north_cols, self.place.columns) {
                Some(next) => cursor.north_cols = next,
                None => return true,
            }
        }
    }

    /// The north quarter's entries on its `columns`, and whether they are stored upside down.
    #[inline(always)]
    fn north_entries(&self, columns: u32) -> (&[[u32; 2]], bool) {
        let h = self.shape.h;
        self.north_table
            .get(self.place.north.table_columns(h, columns))
    }

    /// The south quarter's likewise.
    #[inline(always)]
    fn south_entries(&self, columns: u32) -> (&[[u32; 2]], bool) {
        let h = self.shape.h;
        self.south_table
            .get(self.place.south.table_columns(h, columns))
    }

    /// Appends the south `entries` clear of the placed queens to `souths`, as (key,
    /// pattern): the key holds the diagonals a north entry could share.
    #[inline(always)]
    fn place_souths<const FLIPPED: bool>(&self, entries: &[[u32; 2]], souths: &mut Vec<[u64; 2]>) {
        for &entry in entries {
            let s = self.place.south.place::<FLIPPED>(self.shape, entry);
            if !s.meets(self.place.blocked) {
                souths.push([self.key(s), self.shape.pattern(s)]);
            }
        }
    }

    /// Appends the half-boards of `part` of the north entries from `cursor` on beside
    /// `souths` (filtered for `part` by [`Side::fill`]) to `out`; returns whether `out` holds a
    /// piece before the entries run out.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn join_norths<G: Gather, const FLIPPED: bool, const PARTED: bool>(
        &self,
        gather: G,
        norths: &[[u32; 2]],
        souths: &[[u64; 2]],
        out: &mut Vec<u64>,
        piece: usize,
        cursor: &mut Cursor,
        part: Part,
    ) -> bool {
        while cursor.north_at < norths.len() {
            let n = self
                .place
                .north
                .place::<FLIPPED>(self.shape, norths[cursor.north_at]);
            cursor.north_at += 1;
            if n.meets(self.place.blocked) {
                continue;
            }
            let key = self.key(n);
            let pattern = self.shape.pattern(n.join(self.place.blocked));
            // Once per north entry, not per candidate: the south entries it can pair with.
            let souths = match part {
                _ if !PARTED => souths,
                Part::Whole => souths,
                Part::Clear { bits } if pattern & bits != 0 => continue,
                Part::Clear { .. } => souths,
                Part::Exactly { mask, bits } => {
                    let own = pattern & mask;
                    if own & !bits != 0 {
                        continue;
                    }
                    // The south entries that hold the rest of the partition's bits.
                    let wanted = bits & !own;
                    let first = souths.partition_point(|s| s[1] & mask < wanted);
                    let run = souths[first..].partition_point(|s| s[1] & mask == wanted);
                    &souths[first..first + run]
                }
            };
            gather.append_clear(key, pattern, souths, out);
            if out.len() >= piece {
                return true;
            }
        }
        false
    }

    /// Every half-board of this side, made in one piece (for the plan's tests).
    #[cfg(test)]
    pub(in crate::join) fn all_patterns(&self) -> Vec<u64> {
        let (mut out, mut souths, mut at) = (Vec::new(), Vec::new(), Cursor::default());
        let portable = super::bits::Portable;
        self.fill::<_, false>(
            portable,
            &mut out,
            &mut souths,
            usize::MAX,
            &mut at,
            Part::Whole,
        );
        out
    }

    /// An upper bound of the half-boards of this side (pairs of quarter entries).
    pub(in crate::join) fn bound(&self) -> u64 {
        let k = self.place.north_rows.count_ones();
        let first = lowest_members(self.place.columns, k);
        std::iter::successors(Some(first), |&cols| next_subset(cols, self.place.columns))
            .map(|north_cols| {
                let south_cols = self.place.columns ^ north_cols;
                let (norths, _) = self.north_entries(north_cols);
                let (souths, _) = self.south_entries(south_cols);
                norths.len() as u64 * souths.len() as u64
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether this processor runs the AVX-512 write-out; where it does not, says so on
    /// stderr (its tests then check nothing).
    #[cfg(target_arch = "x86_64")]
    fn avx512_here() -> bool {
        let here = is_x86_feature_detected!("avx512f");
        if !here {
            eprintln!("no AVX-512 here: its half-board loop is not run");
        }
        here
    }

    /// The bug: the AVX-512 write-out reserved 8 words more than its candidates, which grew
    /// a side's buffer (reserved exactly for a piece and one run of candidates) to twice its
    /// size, past what `--max-memory` counted. With room for exactly its candidates, no run
    /// of any length grows the buffer.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx512_write_out_grew_a_piece_s_buffer_past_its_reserve() {
        if !avx512_here() {
            return;
        }
        let mut next = crate::join::count::hot::test_words(0x5ca1_ab1e_0bad_f00d);
        for len in 0..40 {
            let souths: Vec<[u64; 2]> = (0..len).map(|_| [next() & next(), next()]).collect();
            let held: Vec<u64> = (0..len % 5).map(|_| next()).collect();
            let mut out = Vec::with_capacity(held.len() + souths.len());
            out.extend_from_slice(&held);
            let room = out.capacity();
            // SAFETY: AVX-512 F was detected above.
            unsafe { append_clear_avx512(next(), next(), &souths, &mut out) };
            assert_eq!(out.capacity(), room, "{len} entries: the buffer grew");
        }
    }

    /// The AVX-512 build writes out the same half-boards as the portable loop, in the same
    /// order, after what `out` held: for runs of south entries of every length up to past
    /// three vectors' worth (so with and without a scalar tail), keys that fit most of
    /// them, few, none or all.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx512_build_writes_out_what_the_portable_loop_does() {
        if !avx512_here() {
            return;
        }
        let mut next = crate::join::count::hot::test_words(0x0ddb_a11c_affe_1234);
        for len in 0..40 {
            for sparse in [0u64, 1, 2, 3] {
                let souths: Vec<[u64; 2]> = (0..len)
                    .map(|_| {
                        let key = match sparse {
                            0 => 0,
                            1 => next() & next() & next(),
                            _ => next() & next(),
                        };
                        [key, next()]
                    })
                    .collect();
                let key = if sparse == 3 { !0 } else { next() & next() };
                let pattern = next();
                let held: Vec<u64> = (0..len % 5).map(|_| next()).collect();
                let mut portable = held.clone();
                append_clear(key, pattern, &souths, &mut portable);
                let mut vector = held.clone();
                // SAFETY: AVX-512 F was detected above.
                unsafe { append_clear_avx512(key, pattern, &souths, &mut vector) };
                assert_eq!(vector, portable, "{len} entries, keys {sparse}");
                let fitting = souths.iter().filter(|s| s[0] & key == 0).count();
                assert_eq!(portable.len(), held.len() + fitting);
            }
        }
    }

    /// The walk gives the subsets of each size in increasing order, as a filter over all
    /// subsets does, for sets with and without gaps.
    #[test]
    fn the_subset_walk_gives_every_subset_of_its_size_in_order() {
        for set in [
            0b0u32,
            0b1,
            0b1011,
            0b1_1111_1111,
            0b1101_1110_1111,
            0b1010_0101_1001,
        ] {
            for k in 0..=set.count_ones() {
                let expected: Vec<u32> = (0..=set)
                    .filter(|s| s & !set == 0 && s.count_ones() == k)
                    .collect();
                let walked: Vec<u32> =
                    std::iter::successors(Some(lowest_members(set, k)), |&s| next_subset(s, set))
                        .collect();
                assert_eq!(walked, expected, "set {set:b}, k {k}");
            }
        }
    }
}
