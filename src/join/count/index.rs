//! Counting pairs in bulk: one side's half-boards filed in buckets by a few central diagonals
//! and stored bit-sliced, and the walk of the groups and runs of the other side's half-boards
//! that can pair, which the hot loop (`hot.rs`) counts.

use super::bits::{Gather, Queries};
use super::blocks::{BlockCount, Groups};
use super::chunking::Chunking;
use super::hot::{GROUP, Row};
use super::keys::Keys;
use super::traffic::{Model, Traffic};
use super::walk::{Pairing, SOFT_CUTS, Walk, block_bits, tile_bits};
use crate::join::plan::cuts::{CutPlan, Way};
#[cfg(test)]
use crate::join::shape::Shape;

/// Calls `receiver.method::<C>()` for `C` the number of chunks `count` says: a constant for
/// the compiler, so that the loops over a query's chunks are unrolled.
macro_rules! with_chunks {
    ($count:expr, $receiver:ident . $method:ident ($($arg:expr),*)) => {
        with_chunks!(@arms $count, $receiver, $method, ($($arg),*), 1, 2, 3, 4, 5, 6, 7, 8)
    };
    (@arms $count:expr, $receiver:ident, $method:ident, $args:tt, $($c:literal),*) => {
        match $count {
            $($c => $receiver.$method::<$c> $args,)*
            _ => unreachable!("patterns are at most 64 bits wide, in at most 8 chunks"),
        }
    };
}

/// Half-boards a bucket is filled to at most, about, counting hard and soft cuts ([`Keys`]):
/// fewer cuts prune less, more cost a pass over more query buckets. Measured at n = 18 and
/// 20 with groups of 512: 512 with no soft cuts left groups 56 % full; 256 with the last two
/// cuts soft was 10 % faster.
pub(in crate::join) const BUCKET_TARGET: usize = 256;

/// The half-boards a group holds.
const GROUP_MEMBERS: usize = 64 * GROUP;

/// Half-boards of one piece, bucketed and bit-sliced for counting.
///
/// A bucket's half-boards are cut into groups of up to 512. A group's table has one row for
/// each chunk of the pattern's rest and each value `v` of its bits (the chunk's first row plus
/// `v`, [`Chunking`]): the members that hold none of the diagonals of `v`. A query counts its partners in a group by
/// ANDing one row per chunk and counting the bits. The rows a query reads have the same
/// numbers in every group, so they are worked out once per query ([`Index::count`]), not
/// once per group visited. A count makes the tables a block of buckets at a time, as its
/// walk reaches them (`blocks.rs`); a device takes them whole (`Index::tables`).
#[derive(Default)]
pub(crate) struct Index {
    keys: Option<Keys>,
    /// How a rest is cut into chunks.
    chunking: Chunking,
    /// Hard bucket `b`'s groups are `starts[b]..starts[b + 1]`.
    starts: Vec<u32>,
    /// For each group, the soft cut values its members have, as bits.
    softs: Vec<u32>,
    /// Group `g`'s members are `sorted[group_first[g]..group_first[g + 1]]`.
    group_first: Vec<u32>,
    /// The tables of the block a count filled last, `rows = chunking.rows()` a group; or
    /// every group's (`tables[g * rows..][..rows]`) where `whole` names this build.
    tables: Vec<Row>,
    whole: Option<u64>,
    /// A vector lane stuck at zero in every table made (`blocks::Groups::stuck`).
    #[cfg(test)]
    stuck: Option<usize>,
    /// Scratch: patterns' rests sorted by bucket, with bucket bounds.
    sorted: Vec<u64>,
    bounds: Vec<u32>,
    /// The other side's rests sorted by bucket.
    queries: Vec<u64>,
    query_bounds: Vec<u32>,
    /// The row numbers each query reads, `chunks` to a query, in the order of `queries`:
    /// 16 bits, as a group has at most 2,048 rows, so that they stream past the groups'
    /// tables in half the bytes (`hot.rs`).
    rows: Vec<u16>,
    /// Every number in `rows` is below this: the rows of the chunking they were made for
    /// (`Index::query_rows_with`, which alone writes them, checks it).
    rows_below: usize,
    /// How many times it was built (`Index::builds`, for a device's copy).
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    builds: u64,
}

impl Index {
    /// Sorts `patterns` by bucket into `sorted`, filling `bounds` (buckets + 1 entries).
    /// With `reverse` (the second way's index), each bucket's members in reverse order.
    #[inline(always)]
    fn bucket<G: Gather>(
        gather: G,
        keys: &Keys,
        patterns: &[u64],
        sorted: &mut Vec<u64>,
        bounds: &mut Vec<u32>,
        reverse: bool,
    ) {
        let buckets = keys.buckets();
        bounds.clear();
        bounds.resize(buckets + 2, 0);
        for &p in patterns {
            bounds[keys.split(gather, p).0 + 2] += 1;
        }
        for b in 0..buckets {
            bounds[b + 2] += bounds[b + 1];
        }
        sorted.clear();
        sorted.reserve_exact(patterns.len());
        sorted.resize(patterns.len(), 0);
        // bounds[b + 1] is where bucket b's next member goes; afterwards it is its end.
        for &p in patterns {
            let (b, rest) = keys.split(gather, p);
            sorted[bounds[b + 1] as usize] = rest;
            bounds[b + 1] += 1;
        }
        bounds.pop();
        if reverse {
            for b in 0..buckets {
                sorted[bounds[b] as usize..bounds[b + 1] as usize].reverse();
            }
        }
    }

    #[inline(always)]
    pub(in crate::join) fn build<G: Gather>(
        &mut self,
        gather: G,
        plan: &CutPlan,
        patterns: &[u64],
    ) {
        // The second way takes one cut more: buckets of half the size, other buckets.
        let target = match plan.way {
            Way::First => BUCKET_TARGET,
            Way::Second => BUCKET_TARGET / 2,
        };
        let mut cuts = 0;
        while cuts < plan.usable && (patterns.len() >> cuts) > target {
            cuts += 1;
        }
        let soft = SOFT_CUTS.min(cuts);
        // Pairs weighed by the transposition: the long diagonals are hard cuts of every
        // index, however few its half-boards (`transpose.rs`).
        let hard = if plan.transposed {
            (cuts - soft).max(2)
        } else {
            cuts - soft
        };
        let keys = Keys::new(plan, hard, soft);
        self.chunking = Chunking::new(keys.hard.rest_width());
        let mut sorted = std::mem::take(&mut self.sorted);
        let mut bounds = std::mem::take(&mut self.bounds);
        let reverse = plan.way == Way::Second;
        Self::bucket(gather, &keys, patterns, &mut sorted, &mut bounds, reverse);
        let softs = 1usize << soft;
        self.starts.clear();
        self.starts.push(0);
        self.softs.clear();
        self.group_first.clear();
        for b in 0..1usize << hard {
            // The bounds of the hard bucket's soft buckets, in member order.
            let soft_bounds = &bounds[b * softs..=(b + 1) * softs];
            let (start, end) = (soft_bounds[0], soft_bounds[softs]);
            for first in (start..end).step_by(GROUP_MEMBERS) {
                let last = end.min(first + GROUP_MEMBERS as u32);
                // The soft values of the group's members, first..last.
                let present = soft_bounds
                    .windows(2)
                    .enumerate()
                    .filter(|(_, w)| w[0] < w[1] && w[0] < last && w[1] > first)
                    .fold(0u32, |m, (v, _)| m | 1 << v);
                self.softs.push(present);
                self.group_first.push(first);
            }
            self.starts.push(self.softs.len() as u32);
        }
        // Buckets lie end to end in `sorted`, and so do their groups.
        self.group_first.push(sorted.len() as u32);
        self.whole = None;
        self.sorted = sorted;
        self.bounds = bounds;
        self.keys = Some(keys);
        self.builds += 1;
    }

    /// The pairs of `patterns` and indexed patterns that share no diagonal.
    #[inline(always)]
    pub(in crate::join) fn count<G: Gather>(&mut self, gather: G, patterns: &[u64]) -> u64 {
        self.prepare_queries(gather, patterns);
        self.count_queries(gather)
    }

    /// The index's groups, as their tables are made from them.
    fn groups(&self) -> Groups<'_> {
        Groups {
            members: &self.sorted,
            first: &self.group_first,
            chunking: &self.chunking,
            #[cfg(test)]
            stuck: self.stuck,
        }
    }

    /// [`Index::count`] after its queries are prepared, for a count that times the steps
    /// apart (`unit::Costed`).
    #[inline(always)]
    pub(in crate::join) fn count_queries<G: Gather>(&mut self, gather: G) -> u64 {
        with_chunks!(self.chunking.count(), gather.count_prepared(self))
    }

    /// The tests (a query against a group) a count of the prepared queries makes: the walk
    /// alone, without the hot loop, as a count walks it (`unit::Costed` times it).
    #[inline(always)]
    pub(in crate::join) fn tests(&self) -> u64 {
        let mut tally = Tally(0);
        self.each_pairing(&mut tally);
        tally.0
    }

    /// The pairs of half-boards a count of the prepared queries tests: for each test, its
    /// group's members (512, fewer in a bucket's last group), all of them tested whether or
    /// not their soft cuts are clear of the query's.
    pub(in crate::join) fn pairs_tested(&self) -> u64 {
        let members = self.group_first.windows(2);
        let members = members.map(|w| u64::from(w[1] - w[0])).collect();
        let mut tested = Tested(members, 0);
        self.each_pairing(&mut tested);
        tested.1
    }

    /// Files `patterns` as queries by bucket and works out the row numbers each reads,
    /// `chunks` to a query: what a count reads.
    #[inline(always)]
    pub(crate) fn prepare_queries<G: Gather>(&mut self, gather: G, patterns: &[u64]) {
        self.prepare_query_rests(gather, patterns);
        with_chunks!(self.chunking.count(), self.query_rows_with())
    }

    /// Files `patterns` as queries by bucket, their rests in the order of the runs
    /// [`Index::each_pairing`] names ([`Index::query_rests`]); a device works out the row
    /// numbers from them.
    #[inline(always)]
    pub(crate) fn prepare_query_rests<G: Gather>(&mut self, gather: G, patterns: &[u64]) {
        let keys = self.keys.expect("index built");
        Self::bucket(
            gather,
            &keys,
            patterns,
            &mut self.queries,
            &mut self.query_bounds,
            false,
        );
    }

    /// The row numbers of the queries, `CHUNKS` to a query.
    #[inline(always)]
    fn query_rows_with<const CHUNKS: usize>(&mut self) {
        let places = self.chunking.places::<CHUNKS>();
        let rows = self.chunking.rows();
        // Every row number fits the 16 bits it is kept in (a group has at most 2,048 rows):
        // checked once, as a number cut short would still be a row, the wrong one. And
        // every one is below the table's rows, as a chunk's numbers run from its first row
        // to its first row plus its mask: checked per chunk here, not per number, as the
        // hot loop reads them unchecked (`CountHere::trusting`).
        assert!(rows <= 1 << 16, "row numbers past 16 bits");
        assert!(
            places
                .iter()
                .all(|&(_, mask, first)| u64::from(first) + mask < rows as u64),
            "a chunk's rows past its group's table"
        );
        self.rows_below = rows;
        self.rows.clear();
        self.rows.resize(self.queries.len() * CHUNKS, 0);
        // Into place, `CHUNKS` to a query: without a push's check of the capacity per
        // number, the loop is unrolled whole.
        for (&q, out) in self
            .queries
            .iter()
            .zip(self.rows.chunks_exact_mut(CHUNKS.max(1)))
        {
            for (row, (shift, mask, first)) in out.iter_mut().zip(places) {
                *row = (first + ((q >> shift) & mask) as u32) as u16;
            }
        }
    }

    /// The walk of this index's groups against the prepared queries ([`Walk`]), tiled for
    /// the size of its tables and of the queries' row numbers.
    fn walk(&self) -> Walk<'_> {
        let keys = self.keys.expect("index built");
        let hard = keys.hard.count;
        let tables = self.softs.len() * self.chunking.rows() * std::mem::size_of::<Row>();
        let block = block_bits(hard, tables);
        // What `query_rows_with` makes of the prepared queries (a tally reads only their rests).
        let row_bytes = self.queries.len() * self.chunking.count() * std::mem::size_of::<u16>();
        Walk {
            starts: &self.starts,
            softs: &self.softs,
            query_bounds: &self.query_bounds,
            hard,
            soft_count: keys.soft_count,
            long: keys.long,
            block,
            tile: tile_bits(hard, block, row_bytes),
        }
    }

    /// Calls `pairing.pair_runs(groups, runs)` for every batch of groups and the runs of
    /// prepared queries (each `[first, last)`, in the order of [`Index::query_rests`]) whose
    /// pairs can share no diagonal, in the tiled order of [`Walk::each_pairing`].
    #[inline(always)]
    pub(crate) fn each_pairing<P: Pairing>(&self, pairing: &mut P) {
        self.walk().each_pairing(pairing);
    }

    /// The work a count of `patterns` against this index would do, without doing it: the
    /// pairs of a group and a query it would test, each a few loads and popcounts
    /// ([`super::hot`]), which make most of its time. For `--estimate`'s draw of the piece
    /// of a large unit to time (`sampler.rs`): pieces of the same size differ in it by the cut
    /// diagonals their half-boards hold. Leaves the queries prepared as a count would.
    #[inline(always)]
    pub(in crate::join) fn work<G: Gather>(&mut self, gather: G, patterns: &[u64]) -> u64 {
        self.prepare_query_rests(gather, patterns);
        let mut tally = Tally(0);
        self.each_pairing(&mut tally);
        tally.0
    }

    /// What a count of `patterns` against this index would read, and how much of it from
    /// beyond a cache of `cache` bytes ([`super::traffic`]), without counting.
    pub(in crate::join) fn traffic<G: Gather>(
        &mut self,
        gather: G,
        patterns: &[u64],
        cache: u64,
    ) -> Traffic {
        self.prepare_query_rests(gather, patterns);
        let mut model = Model::new(cache, self.chunking.count(), self.chunking.rows());
        self.each_pairing(&mut model);
        model.traffic
    }

    /// The prepared queries' rests: the row query `q` reads of chunk `c` (the chunks of
    /// [`Index::rest_width`] bits, cut as evenly as they go, the first ones a bit wider,
    /// lowest bits first) is the chunk's first row plus the value of its bits in `rests[q]`;
    /// each chunk's first row follows the rows of the chunks before it, one per value.
    #[cfg(feature = "gpu")]
    pub(crate) fn query_rests(&self) -> &[u64] {
        &self.queries
    }

    /// The bits of a rest, and how many chunks they are cut into.
    #[cfg(feature = "gpu")]
    pub(crate) fn rest_width(&self) -> (u32, usize) {
        (self.chunking.widths().iter().sum(), self.chunking.count())
    }

    /// The rows of each group's table.
    #[cfg(feature = "gpu")]
    pub(crate) fn rows_per_group(&self) -> usize {
        self.chunking.rows()
    }

    /// How many half-boards group `group` holds (512 in all groups but the last of each
    /// bucket): the bits of its rows past them are clear.
    #[cfg(feature = "gpu")]
    pub(crate) fn group_members(&self, group: usize) -> usize {
        (self.group_first[group + 1] - self.group_first[group]) as usize
    }

    /// Every group's table, [`Index::rows_per_group`] rows a group, each row 512 bits: made
    /// whole once a build, for a device, which takes them all in its batch.
    #[cfg(feature = "gpu")]
    pub(crate) fn tables(&mut self, gather: impl Gather) -> &[Row] {
        let len = self.softs.len() * self.chunking.rows();
        if self.whole != Some(self.builds) {
            let mut tables = std::mem::take(&mut self.tables);
            self.groups().fill(gather, &mut tables, 0..self.softs.len());
            self.tables = tables;
            self.whole = Some(self.builds);
        }
        &self.tables[..len]
    }

    /// Clears bit `bit` of the first row of every group's table from now on, as a lane of
    /// a vector unit stuck at zero would: for the tests of the checks that catch such a
    /// fault.
    #[cfg(test)]
    pub(in crate::join) fn clear_table_bit_for_test(&mut self, bit: usize) {
        self.stuck = Some(bit);
    }

    /// How many times this index has been built: a device that holds a copy of its tables
    /// knows by it whether the copy is current.
    #[cfg(feature = "gpu")]
    pub(crate) fn builds(&self) -> u64 {
        self.builds
    }
}

impl Queries for Index {
    /// The pairs of the prepared queries ([`Index::prepare_queries`]), indexed bucket by
    /// indexed bucket ([`Index::each_pairing`]), each block's tables made as the walk
    /// reaches it; `N` row numbers a query. [`Gather::count_prepared`] compiles it per build.
    #[inline(always)]
    fn count_prepared<const N: usize>(&mut self, gather: impl Gather) -> u64 {
        let per_group = self.chunking.rows();
        // The rows were made for this chunking (or one with no more rows): `count_queries`
        // after a build without `prepare_queries` would be a bug, refused here.
        assert!(
            self.rows_below <= per_group,
            "queries prepared for another index"
        );
        let mut tables = std::mem::take(&mut self.tables);
        // SAFETY: every row number is below `rows_below` (`query_rows_with`), so below the
        // rows of every group's table.
        let mut count =
            unsafe { BlockCount::<_, N>::trusting(gather, self.groups(), &mut tables, &self.rows) };
        self.each_pairing(&mut count);
        let total = count.total;
        self.tables = tables;
        self.whole = None;
        total
    }
}

impl Index {
    /// The half-boards it was built from (for tests).
    #[cfg(test)]
    pub(in crate::join) fn len(&self) -> usize {
        self.sorted.len()
    }
}

/// Random patterns of n = 20's width, some 30 % of the bits set: the index's tests' and a
/// device's.
#[cfg(test)]
pub(crate) fn test_patterns(count: usize, seed: u64) -> Vec<u64> {
    let mut next = super::hot::test_words(seed);
    (0..count)
        .map(|_| next() & next() & (next() | next()) & ((1 << 38) - 1))
        .collect()
}

/// Adds up the queries of each pairing ([`Index::work`]).
struct Tally(u64);

impl Pairing for Tally {
    fn pair(&mut self, _: usize, first: usize, last: usize) {
        self.0 += (last - first) as u64;
    }
}

/// Adds up the pairs of half-boards each pairing tests, from each group's members
/// ([`Index::pairs_tested`]).
struct Tested(Vec<u64>, u64);

impl Pairing for Tested {
    fn pair(&mut self, group: usize, first: usize, last: usize) {
        self.1 += self.0[group] * (last - first) as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::count::bits::Portable;
    use crate::join::count::hot::{GROUPS_AT_ONCE, Run};

    /// The hot loop reads the queries' row numbers unchecked, bounded by the chunking they
    /// were made for: counting them against an index rebuilt with fewer rows since is
    /// refused, not read past its tables.
    #[test]
    #[should_panic(expected = "queries prepared for another index")]
    fn queries_prepared_for_a_wider_index_are_refused() {
        let mut index = Index::default();
        let wide = CutPlan::new(Shape::new(20));
        index.build(Portable, &wide, &test_patterns(3000, 7));
        let before = index.chunking.rows();
        index.prepare_queries(Portable, &test_patterns(100, 11));
        index.build(Portable, &CutPlan::new(Shape::new(8)), &[0b1, 0b10, 0b100]);
        assert!(index.chunking.rows() < before, "{before}");
        index.count_queries(Portable);
    }

    /// The work of a query ([`Index::work`], what `--estimate` draws east pieces by) is the
    /// groups it is tested against: every group for a query that holds no diagonal, no
    /// more for one that holds more diagonals, and a batch's work is its queries' work.
    #[test]
    fn a_query_is_tested_against_fewer_groups_the_more_diagonals_it_holds() {
        let plan = CutPlan::new(Shape::new(20));
        let mut index = Index::default();
        index.build(Portable, &plan, &test_patterns(30000, 7));
        let groups = index.softs.len() as u64;
        assert!(groups > 16, "{groups}");
        assert_eq!(index.work(Portable, &[0, 0, 0]), 3 * groups);
        let queries = test_patterns(400, 11);
        let mut fewer = 0;
        let mut each = 0;
        for (k, &q) in queries.iter().enumerate() {
            let work = index.work(Portable, &[q]);
            each += work;
            // One diagonal more, drawn from the query's other patterns.
            let more = q | queries[(k + 1) % queries.len()];
            let less = index.work(Portable, &[more]);
            assert!(less <= work, "{q:#x}: {less} > {work}");
            fewer += usize::from(less < work);
        }
        assert_eq!(index.work(Portable, &queries), each);
        assert!(fewer > queries.len() / 4, "{fewer}");
    }

    /// A bucket's groups that pair with a run of queries are handed over together, up to
    /// [`GROUPS_AT_ONCE`] at a time, each group once, and the same pairs as one at a time.
    #[test]
    fn a_bucket_s_groups_are_paired_with_a_run_of_queries_together() {
        struct Batches(Vec<(Vec<usize>, Vec<Run>)>);
        impl Pairing for Batches {
            fn pair(&mut self, _: usize, _: usize, _: usize) {
                unreachable!("every pairing comes in a batch")
            }
            fn pair_runs(&mut self, groups: &[usize], runs: &[Run]) {
                self.0.push((groups.to_vec(), runs.to_vec()));
            }
        }
        let plan = CutPlan::new(Shape::new(20));
        let mut index = Index::default();
        index.build(Portable, &plan, &test_patterns(30000, 5));
        index.prepare_query_rests(Portable, &test_patterns(3000, 6));
        let mut batches = Batches(Vec::new());
        index.each_pairing(&mut batches);
        let (mut together, mut runs) = (0, 0);
        for (groups, these) in &batches.0 {
            assert!((1..=GROUPS_AT_ONCE).contains(&groups.len()), "{groups:?}");
            assert!(groups.windows(2).all(|w| w[0] < w[1]), "{groups:?}");
            assert!(these.iter().all(|r| r[0] < r[1]), "{these:?}");
            together += usize::from(groups.len() > 1);
            runs += these.len();
        }
        assert!(together > batches.0.len() / 4, "{together}");
        // Several runs of queries a call, each of one hard bucket's queries.
        assert!(
            runs > 2 * batches.0.len(),
            "{runs} runs in {} calls",
            batches.0.len()
        );
        let mut tally = Tally(0);
        index.each_pairing(&mut tally);
        let queries = |these: &[Run]| these.iter().map(|r| (r[1] - r[0]) as usize).sum::<usize>();
        let pairs: usize = batches.0.iter().map(|(g, r)| g.len() * queries(r)).sum();
        assert_eq!(pairs as u64, tally.0);
    }

    /// Regression: the groups' tables started wherever the allocator put them (16 bytes past
    /// a cache line for glibc's large blocks), so every row the hot loop read touched two
    /// lines and a test took 1.5 to 1.8 times as long (`join_partition cost`, which runs on
    /// the system's allocator). Every row now starts on a line, whatever the allocator.
    #[test]
    fn every_row_of_the_groups_tables_starts_on_a_cache_line() {
        assert_eq!(std::mem::align_of::<Row>(), 64);
        assert_eq!(std::mem::size_of::<Row>(), 64);
        let plan = CutPlan::new(Shape::new(20));
        let mut index = Index::default();
        // From a few groups to a few hundred (tables of megabytes: the allocator's large
        // blocks), rebuilt in place.
        for members in [600, 30000, 200000, 5000] {
            let patterns = test_patterns(members, members as u64);
            index.build(Portable, &plan, &patterns);
            index.count(Portable, &patterns);
            let start = index.tables.as_ptr() as usize;
            assert!(
                index.tables.len() > 100,
                "{members}: {}",
                index.tables.len()
            );
            assert_eq!(start % 64, 0, "{members} half-boards: tables at {start:#x}");
        }
    }

    /// The index (hard and soft cuts, groups, chunk rows, the hot loop) counts what a plain
    /// loop over every pair counts, from one bucket to thousands of half-boards a side, and
    /// to tables made in several blocks.
    #[test]
    fn the_index_counts_the_pairs_a_plain_loop_counts() {
        let plan = CutPlan::new(Shape::new(20));
        let mut index = Index::default();
        for (indexed, queried) in [
            (0, 5),
            (1, 1),
            (300, 40),
            (700, 900),
            (5000, 3000),
            (30000, 500),
            (200_000, 300),
        ] {
            let w = test_patterns(indexed, 0x9e37_79b9_7f4a_7c15 + indexed as u64);
            let e = test_patterns(queried, 0x2545_f491_4f6c_dd1d + queried as u64);
            let expected = w
                .iter()
                .map(|a| e.iter().filter(|&&b| a & b == 0).count() as u64)
                .sum::<u64>();
            index.build(Portable, &plan, &w);
            assert_eq!(index.count(Portable, &e), expected, "{indexed} x {queried}");
            // Each test tests its group's members: every pair, where nothing is cut.
            let (tests, pairs) = (index.tests(), index.pairs_tested());
            assert!(
                expected <= pairs && pairs <= 512 * tests,
                "{pairs}, {tests}"
            );
            if indexed <= BUCKET_TARGET {
                assert_eq!(pairs, (indexed * queried) as u64);
            }
            // The largest makes its tables a block at a time, in several blocks.
            let walk = index.walk();
            assert!(indexed < 200_000 || walk.block < walk.hard, "{indexed}");
            assert!(
                expected > 0 || indexed * queried < 100,
                "{indexed} x {queried}"
            );
        }
    }

    /// A partition's index (its first cuts fixed, `CutPlan::skipping`) leaves the fixed bits
    /// out of its rests and counts what a plain loop counts:
    /// west half-boards holding exactly the partition's bits, east ones clear of those set.
    #[test]
    fn a_partition_s_index_leaves_out_its_bits_and_counts_what_a_plain_loop_counts() {
        let whole = CutPlan::new(Shape::new(20));
        let mut next = crate::join::count::hot::test_words(0xfeed_beef);
        for (bits, indexed, queried) in [(1, 3000, 800), (3, 20000, 500), (6, 9000, 2000)] {
            let fixed = whole.first(bits).iter().fold(0u64, |m, &b| m | 1 << b);
            let value = next() & fixed;
            let (mut w, mut e) = (test_patterns(indexed, 3), test_patterns(queried, 5));
            w.iter_mut().for_each(|p| *p = (*p & !fixed) | value);
            e.iter_mut().for_each(|p| *p &= !value);
            let expected = w
                .iter()
                .map(|a| e.iter().filter(|&&b| a & b == 0).count() as u64)
                .sum::<u64>();
            let plan = whole.skipping(bits);
            let mut index = Index::default();
            index.build(Portable, &plan, &w);
            let keys = index.keys.expect("built");
            let rest: u32 = index.chunking.widths().iter().sum();
            assert_eq!(rest, whole.width - keys.hard.count as u32 - bits as u32);
            // The soft cuts are found in the rest where they were in the pattern.
            let mut soft = plan.order[keys.hard.count..][..keys.soft_count].to_vec();
            soft.sort_unstable();
            for &p in w.iter().chain(&e) {
                let held = soft
                    .iter()
                    .enumerate()
                    .fold(0, |m, (i, &b)| m | ((p >> b) as usize & 1) << i);
                let (bucket, _) = keys.split(Portable, p);
                assert_eq!(bucket & ((1 << keys.soft_count) - 1), held, "{p:#x}");
            }
            assert_eq!(index.count(Portable, &e), expected, "{bits} bits");
            assert!(expected > 0);
        }
    }

    /// Every group holds what `group_members` says: the groups hold every indexed
    /// half-board once, and every bit of a row past a group's members is clear (a device
    /// reads no further).
    #[cfg(feature = "gpu")]
    #[test]
    fn groups_hold_what_group_members_says() {
        let plan = CutPlan::new(Shape::new(20));
        let mut index = Index::default();
        for indexed in [1, 300, 700, 5000, 30000] {
            index.build(
                Portable,
                &plan,
                &test_patterns(indexed, 0x51 + indexed as u64),
            );
            let rows = index.rows_per_group();
            let groups = index.tables(Portable).len() / rows;
            let mut total = 0;
            for g in 0..groups {
                let members = index.group_members(g);
                assert!(
                    (1..=GROUP_MEMBERS).contains(&members),
                    "{indexed}: group {g}"
                );
                total += members;
                // Member m is bit m % 64 of word m / 64.
                let allowed = |w: usize| match members.saturating_sub(w * 64) {
                    0 => 0,
                    held if held >= 64 => u64::MAX,
                    held => (1u64 << held) - 1,
                };
                for row in &index.tables(Portable)[g * rows..][..rows] {
                    for (w, &word) in row.0.iter().enumerate() {
                        assert_eq!(word & !allowed(w), 0, "{indexed}: group {g}, {members}");
                    }
                }
            }
            assert_eq!(total, indexed, "{indexed}");
        }
    }
}
