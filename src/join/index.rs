//! Counting pairs in bulk: one side's half-boards filed in buckets by a few central diagonals
//! and stored bit-sliced, and the hot loop that counts the other side's partners in them.

use super::Shape;
use super::simd::Gather;

/// How a rest of `width` bits is cut into chunks, each with a table of the ANDs of every
/// combination of its bits: (bits per chunk, chunks). A query costs one lookup per chunk, a
/// block's tables `chunks << bits` words to build: 6-bit chunks while 5 of them do, wider
/// ones (up to 8) to keep to 5 (measured at n = 18 and 20: 5 chunks of 7 bits beat 6 of 6,
/// 5 of 6 beat 5 of 7).
pub(super) fn chunking(width: u32) -> (u32, usize) {
    let mut bits = 6;
    while bits < 8 && width.div_ceil(bits) > 5 {
        bits += 1;
    }
    (bits, width.div_ceil(bits).max(1) as usize)
}

/// Half-boards a bucket is filled to at most, about: fewer buckets prune less, smaller ones
/// leave the vectors of a region part empty.
pub(super) const BUCKET_TARGET: usize = 512;

/// The most bucket bits (central diagonals) a piece is filed by.
pub(super) const MAX_CUTS: usize = 12;

/// Which bits of the patterns file half-boards in buckets: the central diagonals, the ones
/// most half-boards hold, alternating anti and main, nearest the centre first.
pub(super) struct CutPlan {
    /// Bit positions, best first: `order[..usable]` are distinct.
    order: [u32; MAX_CUTS],
    usable: usize,
    /// The pattern's width.
    width: u32,
}

impl CutPlan {
    pub(super) fn new(shape: Shape) -> CutPlan {
        let len = shape.shared();
        // The longest diagonals, r + c = n - 1 and r - c = 0, sit at bit n - 1 - far of each.
        let centre = i64::from(shape.n - 1 - shape.far);
        let mut order = [0u32; MAX_CUTS];
        let mut usable = 0;
        // Outward from the centre (0, +1, -1, +2, ...), an anti-diagonal then a main one,
        // while they lie within the shared diagonals.
        for step in 0..2 * i64::from(len) {
            let offset = if step % 2 == 0 {
                -step / 2
            } else {
                step / 2 + 1
            };
            let pos = centre + offset;
            if !(0..i64::from(len)).contains(&pos) {
                continue;
            }
            for half in [0, len] {
                if usable < MAX_CUTS {
                    order[usable] = pos as u32 + half;
                    usable += 1;
                }
            }
        }
        CutPlan {
            order,
            usable,
            width: 2 * len,
        }
    }
}

/// A split of patterns into a bucket number (the cut bits) and the rest, squeezed together.
#[derive(Clone, Copy)]
pub(super) struct Squeeze {
    /// Cut positions in decreasing order, and how many.
    cuts: [u32; MAX_CUTS],
    count: usize,
    /// The same as masks, for `PEXT`.
    pub(super) cut_mask: u64,
    pub(super) rest_mask: u64,
}

impl Squeeze {
    pub(super) fn new(plan: &CutPlan, count: usize) -> Squeeze {
        let mut cuts = [0u32; MAX_CUTS];
        cuts[..count].copy_from_slice(&plan.order[..count]);
        cuts[..count].sort_unstable_by(|a, b| b.cmp(a));
        let cut_mask = cuts[..count].iter().fold(0u64, |m, &b| m | 1 << b);
        let width_mask = if plan.width == 64 {
            !0
        } else {
            (1u64 << plan.width) - 1
        };
        Squeeze {
            cuts,
            count,
            cut_mask,
            rest_mask: width_mask & !cut_mask,
        }
    }

    /// (bucket, rest): the cut bits gathered into a bucket number and the other bits squeezed
    /// together, one bit at a time. `PEXT` gives the same ([`super::simd::Bmi2`]).
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

/// Half-boards of one piece, bucketed and bit-sliced for counting.
///
/// A bucket of `blocks` blocks of 64 half-boards is one region: for each chunk `c` of the
/// pattern's rest and each value `v` of its bits, `blocks` words side by side, bit `j` of word
/// `k` set when half-board `j` of block `k` exists and holds none of the diagonals of `v`. A
/// query reads one run of `blocks` words per chunk and ANDs the runs, which the compiler turns
/// into vector instructions.
#[derive(Default)]
pub(super) struct Index {
    squeeze: Option<Squeeze>,
    /// Bits per chunk of a rest, and chunks ([`chunking`]).
    bits: u32,
    chunks: usize,
    /// Bucket `b`: its blocks and where its region starts in `tables`.
    blocks: Vec<u32>,
    region: Vec<usize>,
    tables: Vec<u64>,
    /// Scratch: patterns' rests sorted by bucket, with bucket bounds.
    sorted: Vec<u64>,
    bounds: Vec<u32>,
    /// The other side's rests sorted by bucket.
    queries: Vec<u64>,
    query_bounds: Vec<u32>,
    /// Scratch of [`fill_region`].
    held: Vec<u64>,
}

/// Blocks of a region come in multiples of this, so that the ANDs run on whole vectors.
pub(super) const LANES: u32 = 4;

impl Index {
    /// Sorts `patterns` by bucket into `sorted`, filling `bounds` (buckets + 1 entries).
    #[inline(always)]
    fn bucket<G: Gather>(
        gather: G,
        squeeze: &Squeeze,
        patterns: &[u64],
        sorted: &mut Vec<u64>,
        bounds: &mut Vec<u32>,
    ) {
        let buckets = 1usize << squeeze.count;
        bounds.clear();
        bounds.resize(buckets + 2, 0);
        for &p in patterns {
            bounds[gather.split(squeeze, p).0 + 2] += 1;
        }
        for b in 0..buckets {
            bounds[b + 2] += bounds[b + 1];
        }
        sorted.clear();
        sorted.reserve_exact(patterns.len());
        sorted.resize(patterns.len(), 0);
        // bounds[b + 1] is where bucket b's next member goes; afterwards it is its end.
        for &p in patterns {
            let (b, rest) = gather.split(squeeze, p);
            sorted[bounds[b + 1] as usize] = rest;
            bounds[b + 1] += 1;
        }
        bounds.pop();
    }

    #[inline(always)]
    pub(super) fn build<G: Gather>(&mut self, gather: G, plan: &CutPlan, patterns: &[u64]) {
        let mut cuts = 0;
        while cuts < plan.usable && (patterns.len() >> cuts) > BUCKET_TARGET {
            cuts += 1;
        }
        let squeeze = Squeeze::new(plan, cuts);
        let rest_width = plan.width - cuts as u32;
        (self.bits, self.chunks) = chunking(rest_width);
        let mut sorted = std::mem::take(&mut self.sorted);
        let mut bounds = std::mem::take(&mut self.bounds);
        Self::bucket(gather, &squeeze, patterns, &mut sorted, &mut bounds);
        let buckets = 1usize << cuts;
        let per_value = self.chunks << self.bits;
        self.blocks.clear();
        self.region.clear();
        let mut size = 0usize;
        for b in 0..buckets {
            let members = bounds[b + 1] - bounds[b];
            let blocks = members.div_ceil(64).next_multiple_of(LANES);
            self.blocks.push(blocks);
            self.region.push(size);
            size += per_value * blocks as usize;
        }
        self.tables.clear();
        // Exact reservations here and below: a doubling vector could hold twice what a
        // memory limit allowed for.
        self.tables.reserve_exact(size);
        for b in 0..buckets {
            let members = &sorted[bounds[b] as usize..bounds[b + 1] as usize];
            fill_region(
                &mut self.tables,
                &mut self.held,
                members,
                self.blocks[b] as usize,
                (self.bits, self.chunks),
            );
        }
        self.sorted = sorted;
        self.bounds = bounds;
        self.squeeze = Some(squeeze);
    }

    /// The pairs of `patterns` and indexed patterns that share no diagonal.
    #[inline(always)]
    pub(super) fn count<G: Gather>(&mut self, gather: G, patterns: &[u64]) -> u64 {
        let squeeze = self.squeeze.expect("index built");
        let mut queries = std::mem::take(&mut self.queries);
        let mut bounds = std::mem::take(&mut self.query_bounds);
        Self::bucket(gather, &squeeze, patterns, &mut queries, &mut bounds);
        let buckets = 1usize << squeeze.count;
        let all = buckets - 1;
        let per_value = self.chunks << self.bits;
        let mut total = 0;
        for x in 0..buckets {
            let qs = &queries[bounds[x] as usize..bounds[x + 1] as usize];
            if qs.is_empty() {
                continue;
            }
            // Indexed buckets that hold none of the cut diagonals this bucket holds.
            let free = all & !x;
            let mut y = free;
            loop {
                let blocks = self.blocks[y] as usize;
                if blocks > 0 {
                    let region = &self.tables[self.region[y]..][..per_value * blocks];
                    total += count_region(region, blocks, (self.bits, self.chunks), qs);
                }
                if y == 0 {
                    break;
                }
                y = (y - 1) & free;
            }
        }
        self.queries = queries;
        self.query_bounds = bounds;
        total
    }
}

/// Appends the region of one bucket (`blocks` blocks, the last ones empty padding) to
/// `tables`, in the order the queries read it. `held` is scratch.
#[inline(always)]
fn fill_region(
    tables: &mut Vec<u64>,
    held: &mut Vec<u64>,
    members: &[u64],
    blocks: usize,
    (bits, chunks): (u32, usize),
) {
    if blocks == 0 {
        return;
    }
    let size = 1usize << bits;
    // held[bit * blocks + k]: the half-boards of block k that hold `bit`, by transposing the
    // block's bit matrix; the padding blocks hold nothing and have no half-boards.
    held.clear();
    held.resize(64 * blocks, 0);
    for (k, block) in members.chunks(64).enumerate() {
        let mut matrix = [0u64; 64];
        matrix[..block.len()].copy_from_slice(block);
        transpose(&mut matrix);
        for (bit, &word) in matrix.iter().enumerate() {
            held[bit * blocks + k] = word;
        }
    }
    // The half-boards block k has: all 64 but in the last one, none in the padding.
    let present = |k: usize| match members.len().saturating_sub(k * 64) {
        0 => 0,
        have if have >= 64 => !0,
        have => (1u64 << have) - 1,
    };
    let start = tables.len();
    tables.resize(start + chunks * size * blocks, 0);
    let region = &mut tables[start..];
    // Each value's words are those of the value without its lowest bit, less the half-boards
    // that hold that bit; value 0 holds no diagonal, so every half-board is free of it.
    for (c, table) in region.chunks_exact_mut(size * blocks).enumerate() {
        for (k, word) in table[..blocks].iter_mut().enumerate() {
            *word = present(k);
        }
        for v in 1..size {
            let (done, rest) = table.split_at_mut(v * blocks);
            let from = &done[(v & (v - 1)) * blocks..][..blocks];
            let bit = c * bits as usize + v.trailing_zeros() as usize;
            let holders = &held[bit * blocks..][..blocks];
            for ((word, &f), &h) in rest[..blocks].iter_mut().zip(from).zip(holders) {
                *word = f & !h;
            }
        }
    }
}

/// Transposes a 64 x 64 bit matrix in place: afterwards bit `i` of word `b` is what bit `b`
/// of word `i` was. Six rounds, each swapping the off-diagonal quarters of blocks half as
/// wide as the round before.
#[inline(always)]
pub(super) fn transpose(a: &mut [u64; 64]) {
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

/// The hot loop: for every query rest in `qs`, the half-boards of a region it shares no
/// diagonal with. No allocation, no branch on the data.
#[inline(always)]
fn count_region(region: &[u64], blocks: usize, (bits, chunks): (u32, usize), qs: &[u64]) -> u64 {
    // Constants for the compiler: a run-time chunk width made this loop half as fast again.
    macro_rules! dispatch {
        ($($c:literal),*) => {
            match (bits, chunks) {
                $((6, $c) => count_chunks::<$c, 6>(region, blocks, qs),
                  (7, $c) => count_chunks::<$c, 7>(region, blocks, qs),
                  (8, $c) => count_chunks::<$c, 8>(region, blocks, qs),)*
                _ => unreachable!("patterns are at most 64 bits wide"),
            }
        };
    }
    dispatch!(1, 2, 3, 4, 5, 6, 7, 8)
}

#[inline(always)]
fn count_chunks<const CHUNKS: usize, const BITS: u32>(
    region: &[u64],
    blocks: usize,
    qs: &[u64],
) -> u64 {
    let size = 1usize << BITS;
    let mask = (size - 1) as u64;
    // Counts per lane, summed across lanes once at the end.
    let mut lanes = [0u64; 2 * LANES as usize];
    for &q in qs {
        // One run of `blocks` words per chunk: the value of the query's bits in that chunk.
        let runs: [&[u64]; CHUNKS] = std::array::from_fn(|c| {
            let v = ((q >> (c as u32 * BITS)) & mask) as usize;
            &region[(c * size + v) * blocks..][..blocks]
        });
        // Whole vectors of 2 x LANES words, then of LANES: fixed widths the compiler maps
        // onto its registers (blocks are a multiple of LANES).
        let mut k = 0;
        while k + 2 * LANES as usize <= blocks {
            and_count::<CHUNKS, { 2 * LANES as usize }>(&runs, k, &mut lanes);
            k += 2 * LANES as usize;
        }
        if k < blocks {
            and_count::<CHUNKS, { LANES as usize }>(&runs, k, &mut lanes);
        }
    }
    let total: u64 = lanes.iter().sum();
    total
}

/// Adds the half-boards free of every run's words `k..k + WIDTH` to `lanes`.
#[inline(always)]
fn and_count<const CHUNKS: usize, const WIDTH: usize>(
    runs: &[&[u64]; CHUNKS],
    k: usize,
    lanes: &mut [u64; 2 * LANES as usize],
) {
    let mut free: [u64; WIDTH] = runs[0][k..k + WIDTH].try_into().unwrap();
    for run in &runs[1..] {
        for (f, &w) in free.iter_mut().zip(&run[k..k + WIDTH]) {
            *f &= w;
        }
    }
    for (l, f) in lanes.iter_mut().zip(free) {
        *l += u64::from(f.count_ones());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::{MAX_N, MIN_N};

    #[test]
    fn transpose_swaps_rows_and_columns() {
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut a = [0u64; 64];
        for row in a.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *row = x;
        }
        let original = a;
        transpose(&mut a);
        for (b, column) in a.iter().enumerate() {
            for (i, row) in original.iter().enumerate() {
                assert_eq!((column >> i) & 1, (row >> b) & 1, "bit {b} of row {i}");
            }
        }
    }

    #[test]
    fn cut_positions_are_distinct_and_central() {
        for n in MIN_N..=MAX_N {
            let shape = Shape::new(n);
            let plan = CutPlan::new(shape);
            let cuts = &plan.order[..plan.usable];
            assert_eq!(
                plan.usable,
                MAX_CUTS.min(2 * shape.shared() as usize),
                "n = {n}"
            );
            let mut sorted = cuts.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), cuts.len(), "n = {n}: {cuts:?}");
            assert!(cuts.iter().all(|&c| c < plan.width), "n = {n}: {cuts:?}");
            // The first two are the longest anti-diagonal and the longest main diagonal.
            let centre = n - 1 - shape.far;
            assert_eq!(cuts[..2], [centre, centre + shape.shared()], "n = {n}");
        }
    }
}
