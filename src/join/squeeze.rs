//! Gathering a pattern's cut bits into a bucket number and squeezing the rest together: the
//! split every half-board goes through when it is indexed or queried, one bit at a time here
//! ([`Portable`]) or with BMI2's `PEXT` (`Bmi2` in `simd.rs`, made only after checking the
//! processor).

/// The most bucket bits (central diagonals) a piece is filed by: enough for pieces of 2^28
/// half-boards at 256 a bucket. (At 12, pieces past 2^20 got no more cuts, and larger
/// pieces were no faster: 47.9, 40.9 and 56.6 s for the median unit of n = 26 in pieces of
/// 2^20, 2^22 and 2^24, against 46.6, 31.2 and 26.6 s at 20.)
pub(super) const MAX_CUTS: usize = 20;

/// A split of patterns into a bucket number (the cut bits) and the rest, squeezed together.
#[derive(Clone, Copy)]
pub(crate) struct Squeeze {
    /// Cut positions in decreasing order, and how many.
    cuts: [u32; MAX_CUTS],
    pub(super) count: usize,
    /// The same as masks, for `PEXT`.
    pub(super) cut_mask: u64,
    pub(super) rest_mask: u64,
}

impl Squeeze {
    /// Cuts at `positions` (distinct, below `width`) of patterns `width` bits wide.
    pub(super) fn from_positions(positions: &[u32], width: u32) -> Squeeze {
        let count = positions.len();
        let mut cuts = [0u32; MAX_CUTS];
        cuts[..count].copy_from_slice(positions);
        cuts[..count].sort_unstable_by(|a, b| b.cmp(a));
        let cut_mask = cuts[..count].iter().fold(0u64, |m, &b| m | 1 << b);
        let width_mask = if width == 64 { !0 } else { (1u64 << width) - 1 };
        Squeeze {
            cuts,
            count,
            cut_mask,
            rest_mask: width_mask & !cut_mask,
        }
    }

    /// (bucket, rest): the cut bits gathered into a bucket number and the other bits squeezed
    /// together, one bit at a time. `PEXT` gives the same (`Bmi2` in `simd.rs`).
    #[inline(always)]
    pub(super) fn split_portable(&self, pattern: u64) -> (usize, u64) {
        let mut pattern = pattern;
        let mut bucket = 0usize;
        for (i, &b) in self.cuts[..self.count].iter().enumerate() {
            bucket |= (((pattern >> b) & 1) as usize) << (self.count - 1 - i);
            let low = pattern & ((1u64 << b) - 1);
            pattern = low | ((pattern >> (b + 1)) << b);
        }
        (bucket, pattern)
    }
}

/// How a pattern's bits are gathered into a bucket number and a rest.
pub(crate) trait Gather: Copy {
    /// (bucket, rest) of `pattern`: see [`Squeeze::split_portable`].
    fn split(self, squeeze: &Squeeze, pattern: u64) -> (usize, u64);
}

/// Gathers one bit at a time: runs on every processor.
#[derive(Clone, Copy, Debug)]
pub(super) struct Portable;

impl Gather for Portable {
    #[inline(always)]
    fn split(self, squeeze: &Squeeze, pattern: u64) -> (usize, u64) {
        squeeze.split_portable(pattern)
    }
}
