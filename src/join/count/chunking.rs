//! How a pattern's rest is cut into chunks: a group's table has a row for every value of
//! each chunk, and a query reads one row per chunk (`index.rs`, and a device's shader).

/// How a rest of `width` bits is cut into chunks, each with a table row for every value of
/// its bits: a query reads one row per chunk and group, and a group's table holds the rows of
/// every chunk. The bits are spread evenly over the chunks (31 bits: 6, 5, 5, 5, 5, 5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::join) struct Chunking {
    /// Each chunk's bits, the low chunk first.
    widths: [u32; MAX_CHUNKS],
    count: usize,
}

/// The most chunks a rest is cut into.
const MAX_CHUNKS: usize = 8;

/// The widest chunk, in bits, while [`MAX_CHUNKS`] suffice: a query reads one row per chunk
/// and group, a group's table has `2^bits` rows per chunk, 64 bytes each. Chunks of 5 and 6
/// bits (a 14 KB table at n = 20, within the first-level cache) measured a little faster at
/// n = 18 and 20 than chunks of 6 and 7 (24 KB) and clearly faster than 8 (56 KB).
const WIDEST_CHUNK: u32 = 6;

impl Chunking {
    /// The chunking of a rest of `width` (at most 64) bits.
    pub(in crate::join) fn new(width: u32) -> Chunking {
        let widest = WIDEST_CHUNK.max(width.div_ceil(MAX_CHUNKS as u32));
        let count = width.div_ceil(widest).max(1);
        let mut widths = [0; MAX_CHUNKS];
        for (c, w) in widths[..count as usize].iter_mut().enumerate() {
            // The first `width % count` chunks take one bit more.
            *w = width / count + u32::from((c as u32) < width % count);
        }
        Chunking {
            widths,
            count: count as usize,
        }
    }

    /// The rows of a group's table: one per value of each chunk.
    pub(in crate::join) fn rows(&self) -> usize {
        self.widths[..self.count].iter().map(|w| 1usize << w).sum()
    }

    /// How many chunks.
    pub(in crate::join) fn count(&self) -> usize {
        self.count
    }

    /// Each chunk's bits, the low chunk first.
    pub(in crate::join) fn widths(&self) -> &[u32] {
        &self.widths[..self.count]
    }

    /// For each chunk: where its bits start in a rest, its mask, and its first row.
    pub(in crate::join) fn places<const CHUNKS: usize>(&self) -> [(u32, u64, u32); CHUNKS] {
        let mut shift = 0;
        let mut row = 0;
        std::array::from_fn(|c| {
            let w = self.widths[c];
            let place = (shift, (1u64 << w) - 1, row);
            shift += w;
            row += 1 << w;
            place
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunkings_cover_the_rest_evenly() {
        for width in 0..=64 {
            let c = Chunking::new(width);
            let widths = &c.widths[..c.count];
            assert!(c.count <= MAX_CHUNKS, "width {width}");
            assert_eq!(widths.iter().sum::<u32>(), width, "width {width}");
            let (least, most) = (widths.iter().min(), widths.iter().max());
            assert!(
                most.unwrap() - least.unwrap() <= 1,
                "width {width}: {widths:?}"
            );
            assert_eq!(c.rows(), widths.iter().map(|w| 1 << w).sum::<usize>());
            // A query's row numbers are kept in 16 bits (`index.rs`).
            assert!(c.rows() <= 2048, "width {width}: {} rows", c.rows());
        }
        assert_eq!(Chunking::new(31).widths[..6], [6, 5, 5, 5, 5, 5]);
    }
}
