//! The walk of an index's groups and the runs of queries that can pair with them, in the
//! order that keeps what the hot loop reads within a core's caches: indexed buckets in blocks
//! whose tables fit the second-level cache, queries in tiles met block by block. The index
//! (`index.rs`) files the half-boards; what is done with each pairing is a [`Pairing`]'s
//! (the hot loop's count, a tally of the work, a model of the traffic, a device's list).

use super::hot::{GROUPS_AT_ONCE, Run};
use super::transpose::LongBits;
use std::ops::Range;

/// The soft cuts a bucket holds at most: query buckets that differ only in them share the
/// indexed bucket's groups, each group marked with the soft values its members have.
pub(in crate::join) const SOFT_CUTS: usize = 2;

/// The bytes of groups' tables a block of indexed buckets holds at most, on average
/// ([`Walk`]). With a tile of queries ([`TILE_BYTES`]) it is sized for the second-level
/// cache of a core: 1 MB on AMD's Zen 4 and 5, 2 MB on Intel's Sapphire and Granite Rapids.
/// Bytes a test from beyond the cache at n = 26 to 28 (`join_partition traffic`, 4 parts):
/// 5.3 to 6.6 untiled, 1.5 to 1.7 with these sizes against 2 MB, 1.7 to 2.1 against 1 MB;
/// blocks of 512 KB made 2.0 against either, blocks of 1 MB with tiles of 512 KB 1.5 against
/// 2 MB but 2.3 against 1 MB.
pub(in crate::join) const BLOCK_BYTES: usize = 768 << 10;

/// The bytes of row numbers a tile of queries takes at most, on average ([`Walk`]): beside
/// a block's tables, within the second-level cache.
pub(in crate::join) const TILE_BYTES: usize = 256 << 10;

/// What [`Walk::each_pairing`] does with each group and the run of queries that can pair
/// with its members. A trait, not a closure: a closure would not inherit the target features
/// of the build that inlines the pair loop (the hot loop ran 1.5 times slower in one).
pub(crate) trait Pairing {
    /// Group `group` against the prepared queries `first..last`.
    fn pair(&mut self, group: usize, first: usize, last: usize);

    /// Each of `groups` (one to [`GROUPS_AT_ONCE`], of one indexed bucket) against each run
    /// of prepared queries in `runs`: the hot loop reads each query once for all of them, in
    /// one call for all the runs.
    #[inline(always)]
    fn pair_runs(&mut self, groups: &[usize], runs: &[Run]) {
        for &[first, last] in runs {
            for &g in groups {
                self.pair(g, first as usize, last as usize);
            }
        }
    }

    /// The walk enters a block of indexed buckets, whose groups are `groups`: every pairing
    /// until the next block names groups of these (a count fills their tables here).
    #[inline(always)]
    fn enter_block(&mut self, _groups: Range<usize>) {}

    /// The pairings that follow, until the next call, count `weight` times (1 or 2) each
    /// (`transpose.rs`): a count multiplies by it, a tally of the work does not.
    #[inline(always)]
    fn weigh(&mut self, _weight: u64) {}
}

/// An index's buckets as the walk sees them, and how it tiles them.
///
/// Bucket numbers are a hard part (the hard cut diagonals a member holds, as bits) above a
/// soft part of `soft_count` bits; an indexed bucket pairs with the query buckets whose hard
/// part shares no bit with its own. The walk is tiled: a block of indexed buckets (those that
/// differ only in their low `block` bits) meets the queries a tile at a time (the query
/// buckets that share their high bits and the top `tile` of their low bits), and inside a
/// tile it goes bucket by bucket as an untiled walk does: a bucket's groups stay in the
/// first-level cache while the tile's query buckets that can pair with them stream past, from
/// the second-level cache once the block's first bucket has read them. Untiled (`block` 0),
/// a query's row numbers came from memory once for every indexed bucket it pairs with: 5.9 to
/// 8.1 bytes from beyond the second-level cache a test at n = 26 to 28, some 2 GB/s a core.
pub(crate) struct Walk<'a> {
    /// Hard bucket `b`'s groups are `starts[b]..starts[b + 1]`.
    pub(in crate::join) starts: &'a [u32],
    /// For each group, the soft values its members have, as bits.
    pub(in crate::join) softs: &'a [u32],
    /// Bucket `x`'s queries are `query_bounds[x]..query_bounds[x + 1]`.
    pub(in crate::join) query_bounds: &'a [u32],
    /// The hard cuts, and the soft ones.
    pub(in crate::join) hard: usize,
    pub(in crate::join) soft_count: usize,
    /// Where the long diagonals are among the hard bits, if pairs are weighed by the
    /// transposition: a pair of buckets that weighs 0 is not walked.
    pub(in crate::join) long: LongBits,
    /// The low bits of a hard bucket number that make a block, and the top ones of those
    /// that split a tile.
    pub(in crate::join) block: usize,
    pub(in crate::join) tile: usize,
}

/// The low bits of a hard bucket number that make a block, with `table_bytes` of tables in
/// all: as many as keep a block's tables, on average, within [`BLOCK_BYTES`].
pub(in crate::join) fn block_bits(hard: usize, table_bytes: usize) -> usize {
    let mut bits = 0;
    while bits < hard && (table_bytes >> (hard - bits - 1)) <= BLOCK_BYTES {
        bits += 1;
    }
    bits
}

/// The top bits of a block's low bits that split a tile of queries further, with
/// `row_bytes` of row numbers in all: as few as keep a tile's, on average, within
/// [`TILE_BYTES`].
pub(in crate::join) fn tile_bits(hard: usize, block: usize, row_bytes: usize) -> usize {
    let mut bits = 0;
    while bits < block && (row_bytes >> (hard - block + bits)) > TILE_BYTES {
        bits += 1;
    }
    bits
}

impl Walk<'_> {
    /// Calls `pairing.pair_runs(groups, runs)` for the groups and runs of queries whose
    /// pairs can share no diagonal: the groups of each indexed bucket with a member clear of
    /// the queries' soft cuts, against the query buckets clear of its hard cuts; each such
    /// pair of a group and a query once, in the tiled order ([`Walk`]), after
    /// `pairing.weigh(w)` with its weight `w` (those of weight 0 not at all).
    #[inline(always)]
    pub(crate) fn each_pairing<P: Pairing>(&self, pairing: &mut P) {
        let (block, tile) = (self.block, self.tile);
        // For each soft value of a query, the soft values of members clear of it, as bits.
        let mut clear_of = [0u32; 1 << SOFT_CUTS];
        for (soft, clear) in clear_of.iter_mut().enumerate().take(1 << self.soft_count) {
            *clear = (0..1usize << self.soft_count)
                .filter(|v| v & soft == 0)
                .fold(0, |m, v| m | 1 << v);
        }
        let mut runs = Runs::default();
        let low = (1usize << block) - 1;
        let high_all = (1usize << (self.hard - block)) - 1;
        // A tile's low bits: its top `tile` bits fixed, the rest free.
        let free_in_tile = low >> tile;
        for yh in 0..=high_all {
            let base = yh << block;
            let (first, last) = (self.starts[base], self.starts[base + low + 1]);
            if first == last {
                continue;
            }
            pairing.enter_block(first as usize..last as usize);
            // The tiles whose high bits hold none of the block's high cut diagonals.
            let free_high = high_all & !yh;
            let mut xh = free_high;
            loop {
                for top in 0..1usize << tile {
                    let top = top << (block - tile);
                    for yl in 0..=low {
                        let y = base | yl;
                        let groups = self.starts[y] as usize..self.starts[y + 1] as usize;
                        if groups.is_empty() || top & yl != 0 {
                            continue;
                        }
                        // The tile's query buckets that hold none of this bucket's low cuts:
                        // `xs | xl` for every subset `xl` of `free_low`.
                        let free_low = free_in_tile & !yl;
                        let xs = ((xh << block) | top, free_low);
                        self.pair_bucket(pairing, groups, y, xs, (&clear_of, &mut runs));
                    }
                }
                if xh == 0 {
                    break;
                }
                xh = (xh - 1) & free_high;
            }
        }
    }

    /// The `groups` of indexed bucket `y` against the query buckets of hard buckets
    /// `base | xl`, for every subset `xl` of `free_low`.
    ///
    /// The soft values of a query that pair with the same groups (`clear_of`) make a class,
    /// and a class's queries of one hard bucket lie end to end (soft buckets are the low bits
    /// of a bucket's number): one run. Every hard bucket's run of a class goes to the hot
    /// loop in one call, by weight. A call has a fixed cost (some 35 cycles, against some 4
    /// a test at n = 24), and calls of a few queries were many: one call per soft bucket
    /// and hard bucket averaged 157 tests a call at n = 24, and those of under 32 queries
    /// held 4 % of the tests but 6.7 % of the time.
    #[inline(always)]
    fn pair_bucket<P: Pairing>(
        &self,
        pairing: &mut P,
        groups: Range<usize>,
        y: usize,
        (base, free_low): (usize, usize),
        (clear_of, runs): (&[u32; 1 << SOFT_CUTS], &mut Runs),
    ) {
        let softs = 1usize << self.soft_count;
        let pairs_with = |g: usize, soft: usize| self.softs[g] & clear_of[soft] != 0;
        let mut from = 0;
        while from < softs {
            // The class: soft values `from..to`, each paired with the same groups.
            let mut to = from + 1;
            while to < softs
                && groups
                    .clone()
                    .all(|g| pairs_with(g, from) == pairs_with(g, to))
            {
                to += 1;
            }
            let class = Class {
                groups: groups.clone(),
                clear: clear_of[from],
            };
            let mut xl = free_low;
            loop {
                let x = base | xl;
                let weight = self.long.weight(x, y);
                let bucket = x << self.soft_count;
                let run = [
                    self.query_bounds[bucket + from],
                    self.query_bounds[bucket + to],
                ];
                if weight != 0 && run[0] < run[1] && runs.push(weight, run) {
                    self.pair_class(pairing, &class, weight, runs);
                }
                if xl == 0 {
                    break;
                }
                xl = (xl - 1) & free_low;
            }
            for weight in [1, 2] {
                if !runs.of(weight).is_empty() {
                    self.pair_class(pairing, &class, weight, runs);
                }
            }
            from = to;
        }
    }

    /// A class's groups (those with a member clear of its soft cuts, `GROUPS_AT_ONCE` at a
    /// time) against its runs of `weight`, which are then emptied.
    #[inline(always)]
    fn pair_class<P: Pairing>(&self, pairing: &mut P, class: &Class, weight: u64, runs: &mut Runs) {
        pairing.weigh(weight);
        let these = runs.of(weight);
        let mut batch = [0; GROUPS_AT_ONCE];
        let mut held = 0;
        for g in class.groups.clone() {
            if self.softs[g] & class.clear != 0 {
                batch[held] = g;
                held += 1;
                if held == GROUPS_AT_ONCE {
                    pairing.pair_runs(&batch, these);
                    held = 0;
                }
            }
        }
        if held > 0 {
            pairing.pair_runs(&batch[..held], these);
        }
        runs.clear(weight);
    }
}

/// An indexed bucket's groups, and the soft values of members clear of a class of queries.
struct Class {
    groups: Range<usize>,
    clear: u32,
}

/// The runs gathered for one call of the hot loop at most.
const RUNS: usize = 64;

/// Runs of queries gathered for the hot loop, by weight (1 and 2).
struct Runs {
    runs: [[Run; RUNS]; 2],
    held: [usize; 2],
}

impl Default for Runs {
    fn default() -> Self {
        Runs {
            runs: [[[0; 2]; RUNS]; 2],
            held: [0; 2],
        }
    }
}

impl Runs {
    /// Adds `run` of `weight`; whether the runs of that weight are now full.
    #[inline(always)]
    fn push(&mut self, weight: u64, run: Run) -> bool {
        let w = weight as usize - 1;
        self.runs[w][self.held[w]] = run;
        self.held[w] += 1;
        self.held[w] == RUNS
    }

    /// The runs of `weight` gathered.
    #[inline(always)]
    fn of(&self, weight: u64) -> &[Run] {
        let w = weight as usize - 1;
        &self.runs[w][..self.held[w]]
    }

    /// The runs of `weight` handed over: none held.
    #[inline(always)]
    fn clear(&mut self, weight: u64) {
        self.held[weight as usize - 1] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records the (group, query, weight) of every pair of a group and a query, and the
    /// blocks entered: each pairing's group is one of the block entered last.
    struct Seen(Vec<(usize, usize, u64)>, Vec<Range<usize>>, u64);

    impl Pairing for Seen {
        fn pair(&mut self, group: usize, first: usize, last: usize) {
            let block = self.1.last().expect("a block entered first");
            assert!(block.contains(&group), "group {group} outside {block:?}");
            // Query by query: the walk may hand a run over whole or in pieces.
            self.0.extend((first..last).map(|q| (group, q, self.2)));
        }

        fn enter_block(&mut self, groups: Range<usize>) {
            self.1.push(groups);
        }

        fn weigh(&mut self, weight: u64) {
            self.2 = weight;
        }
    }

    /// Whatever the block and the tile, the walk hands over each group once with each query
    /// it can pair with, and nothing else: the same pairs as a plain loop over every pair of
    /// buckets and soft values; and, with long diagonals among the hard bits, each with its
    /// weight, those of weight 0 left out.
    #[test]
    fn the_tiled_walk_pairs_what_a_plain_loop_over_buckets_pairs() {
        for long in [LongBits::NONE, LongBits::at(1, 4), LongBits::at(5, 0)] {
            tiled_walk_against_a_plain_loop(long);
        }
    }

    fn tiled_walk_against_a_plain_loop(long: LongBits) {
        let (hard, soft_count) = (6, 2);
        let buckets = 1usize << hard;
        // Bucket b holds b % 3 groups; query bucket x holds x % 5 queries (some empty).
        let mut starts = vec![0u32];
        for b in 0..buckets {
            starts.push(starts[b] + (b % 3) as u32);
        }
        let groups = *starts.last().unwrap() as usize;
        let softs: Vec<u32> = (0..groups).map(|g| 1 + (g as u32 * 7) % 15).collect();
        let mut query_bounds = vec![0u32];
        for x in 0..buckets << soft_count {
            query_bounds.push(query_bounds[x] + (x % 5) as u32);
        }
        let mut expected = Vec::new();
        for y in 0..buckets {
            for x in (0..buckets).filter(|x| x & y == 0 && long.weight(*x, y) != 0) {
                for soft in 0..1usize << soft_count {
                    let q = (x << soft_count) | soft;
                    let (first, last) = (query_bounds[q], query_bounds[q + 1]);
                    let clear: u32 = (0..4).filter(|v| v & soft == 0).map(|v| 1 << v).sum();
                    for g in starts[y]..starts[y + 1] {
                        if first < last && softs[g as usize] & clear != 0 {
                            let weight = long.weight(x, y);
                            let queries = first as usize..last as usize;
                            expected.extend(queries.map(|q| (g as usize, q, weight)));
                        }
                    }
                }
            }
        }
        expected.sort_unstable();
        assert!(expected.len() > 400, "{}", expected.len());
        if long != LongBits::NONE {
            assert!(expected.iter().any(|p| p.2 == 2), "pairings of weight 2");
        }
        for block in 0..=hard {
            for tile in 0..=block {
                let walk = Walk {
                    starts: &starts,
                    softs: &softs,
                    query_bounds: &query_bounds,
                    hard,
                    soft_count,
                    long,
                    block,
                    tile,
                };
                let mut seen = Seen(Vec::new(), Vec::new(), 0);
                walk.each_pairing(&mut seen);
                seen.0.sort_unstable();
                assert_eq!(seen.0, expected, "block {block}, tile {tile}");
                // Each block that holds a group entered once, in order: the groups of the
                // buckets that differ only in their low `block` bits.
                let blocks: Vec<Range<usize>> = (0..buckets >> block)
                    .map(|y| starts[y << block] as usize..starts[(y + 1) << block] as usize)
                    .filter(|groups| !groups.is_empty())
                    .collect();
                assert_eq!(seen.1, blocks, "block {block}, tile {tile}");
            }
        }
    }

    /// A block holds as many buckets as keep its tables within [`BLOCK_BYTES`], and a tile
    /// is split as far as keeps its row numbers within [`TILE_BYTES`], never past the block.
    #[test]
    fn blocks_and_tiles_are_sized_by_the_bytes_they_hold() {
        assert_eq!(block_bits(10, BLOCK_BYTES << 10), 0);
        assert_eq!(block_bits(10, BLOCK_BYTES << 7), 3);
        assert_eq!(block_bits(10, BLOCK_BYTES), 10);
        assert_eq!(tile_bits(10, 3, TILE_BYTES << 7), 0);
        assert_eq!(tile_bits(10, 3, TILE_BYTES << 8), 1);
        assert_eq!(tile_bits(10, 3, TILE_BYTES << 20), 3);
    }
}
