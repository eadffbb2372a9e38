//! Gathering a pattern's cut bits into a bucket number and squeezing the rest together: the
//! split every half-board goes through when it is indexed or queried, one bit at a time here
//! (`Portable` in `bits.rs`) or with BMI2's `PEXT` (`Bmi2` in `simd.rs`, made only after
//! checking the processor).

/// The most bucket bits (central diagonals) a piece is filed by: enough for pieces of 2^28
/// half-boards at 256 a bucket. (At 12, pieces past 2^20 got no more cuts, and larger
/// pieces were no faster: 47.9, 40.9 and 56.6 s for the median unit of n = 26 in pieces of
/// 2^20, 2^22 and 2^24, against 46.6, 31.2 and 26.6 s at 20.)
pub(in crate::join) const MAX_CUTS: usize = 20;

/// A split of patterns into a bucket number (the cut bits) and the rest, squeezed together,
/// with the dropped bits in neither: the bits a partition fixes (`partition.rs`), which can
/// decide no pair of its half-boards, so that its rests are narrower and a query reads fewer
/// rows (`chunking.rs`).
#[derive(Clone, Copy)]
pub(crate) struct Squeeze {
    /// The cut and dropped positions in decreasing order, and how many: a split squeezes
    /// them all out of the rest.
    removed: [u32; MAX_CUTS],
    removed_count: usize,
    /// How many cuts (bucket bits).
    pub(in crate::join) count: usize,
    /// The cuts as a mask, and the rest's bits, for `PEXT`.
    pub(in crate::join) cut_mask: u64,
    pub(in crate::join) rest_mask: u64,
}

impl Squeeze {
    /// Cuts at `positions` (distinct, below `width`) of patterns `width` bits wide.
    pub(in crate::join) fn from_positions(positions: &[u32], width: u32) -> Squeeze {
        Squeeze::dropping(positions, 0, width)
    }

    /// Cuts at `positions`, and the bits of `dropped` (none of them a cut) in no part of the
    /// split, of patterns `width` bits wide; at most [`MAX_CUTS`] of them all (a partition's
    /// bits are the first cuts of its unit's plan, and its index's cuts the next ones).
    pub(in crate::join) fn dropping(positions: &[u32], dropped: u64, width: u32) -> Squeeze {
        let cut_mask = positions.iter().fold(0u64, |m, &b| m | 1 << b);
        assert_eq!(
            cut_mask.count_ones() as usize,
            positions.len(),
            "distinct cuts"
        );
        assert_eq!(cut_mask & dropped, 0, "a dropped bit is not a cut");
        let width_mask = if width == 64 { !0 } else { (1u64 << width) - 1 };
        let removed_mask = (cut_mask | dropped) & width_mask;
        let removed_count = removed_mask.count_ones() as usize;
        assert!(
            removed_count <= MAX_CUTS,
            "at most {MAX_CUTS} cuts and dropped bits"
        );
        let mut removed = [0u32; MAX_CUTS];
        let mut left = removed_mask;
        for place in removed[..removed_count].iter_mut().rev() {
            *place = left.trailing_zeros();
            left &= left - 1;
        }
        Squeeze {
            removed,
            removed_count,
            count: positions.len(),
            cut_mask,
            rest_mask: width_mask & !removed_mask,
        }
    }

    /// (bucket, rest): the cut bits gathered into a bucket number and the bits neither cut
    /// nor dropped squeezed together, one bit at a time. `PEXT` gives the same (`Bmi2` in
    /// `simd.rs`).
    #[inline(always)]
    pub(in crate::join) fn split_portable(&self, pattern: u64) -> (usize, u64) {
        let mut rest = pattern & self.rest_mask;
        let mut bucket = 0usize;
        // Highest first, so that the rest's bits below a position are where they were.
        for &b in &self.removed[..self.removed_count] {
            if self.cut_mask >> b & 1 == 1 {
                bucket = bucket << 1 | ((pattern >> b) & 1) as usize;
            }
            let low = rest & ((1u64 << b) - 1);
            // Two shifts: one of 64 would be a single one of 0 (bit 63 removed).
            rest = low | ((rest >> b >> 1) << b);
        }
        (bucket, rest)
    }

    /// How many bits a rest has.
    pub(in crate::join) fn rest_width(&self) -> u32 {
        self.rest_mask.count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a split gives, one bit at a time from the lowest: the cut bits gathered in
    /// order, the bits neither cut nor dropped likewise (what `PEXT` does with each mask).
    fn split_bit_by_bit(pattern: u64, cuts: u64, dropped: u64, width: u32) -> (usize, u64) {
        let (mut bucket, mut rest, mut cut_at, mut rest_at) = (0usize, 0u64, 0, 0);
        for b in 0..width {
            let bit = (pattern >> b) & 1;
            if cuts >> b & 1 == 1 {
                bucket |= (bit as usize) << cut_at;
                cut_at += 1;
            } else if dropped >> b & 1 == 0 {
                rest |= bit << rest_at;
                rest_at += 1;
            }
        }
        (bucket, rest)
    }

    /// Cuts and dropped bits anywhere in patterns of any width: the split gathers the cuts
    /// and squeezes out both, and the rest is as wide as it says.
    #[test]
    fn a_split_gathers_the_cuts_and_leaves_out_the_dropped_bits() {
        let mut next = crate::join::count::hot::test_words(0x5eed_0fc0);
        for round in 0..400 {
            let width = [20, 38, 54, 63, 64][round % 5];
            let width_mask = if width == 64 { !0 } else { (1u64 << width) - 1 };
            // Up to MAX_CUTS positions in all, some of them dropped.
            let mut chosen = next() & next() & width_mask;
            while chosen.count_ones() as usize > MAX_CUTS {
                chosen &= chosen - 1;
            }
            let dropped = if round % 3 == 0 { 0 } else { chosen & next() };
            let cuts = chosen & !dropped;
            let positions: Vec<u32> = (0..64).filter(|b| cuts >> b & 1 == 1).collect();
            let squeeze = Squeeze::dropping(&positions, dropped, width);
            assert_eq!(squeeze.count, positions.len());
            assert_eq!(
                squeeze.rest_width(),
                width - chosen.count_ones(),
                "round {round}"
            );
            for _ in 0..20 {
                let pattern = next() & width_mask;
                assert_eq!(
                    squeeze.split_portable(pattern),
                    split_bit_by_bit(pattern, cuts, dropped, width),
                    "round {round}: {pattern:#x}, cuts {cuts:#x}, dropped {dropped:#x}"
                );
            }
        }
    }
}
