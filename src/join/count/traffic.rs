//! What the join's walk of groups and queries (`index.rs`) reads, and how much of it comes
//! from beyond a core's own caches: a model run over the walk without counting, for the
//! measurements of memory traffic (`join_partition traffic`). The hot loop itself carries no
//! counter.
//!
//! The model is a cache of `cache` bytes kept in least-recently-used order, with the distance
//! since a thing's last use taken as the bytes brought in since: a run of queries, or a
//! group's table, is read from beyond the cache when more than `cache` bytes were brought in
//! since it was last read. Reads that hit do not count towards the distance, which makes the
//! model a little kind to reads of data that other hits kept warm. A count makes a block's
//! tables as its walk enters the block (`blocks.rs`): they are then brought into the cache
//! from the members they are made of, 8 bytes each, which come from beyond it.

use super::hot::{GROUP, Run};
use super::walk::Pairing;
use std::collections::HashMap;
use std::ops::Range;

/// What a walk read: the tests (a query against a group), the bytes of the queries' row
/// numbers and of the groups' tables, and how many of each came from beyond the cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// The pairs of a group and a query tested.
    pub tests: u64,
    /// The bytes of row numbers read, from anywhere.
    pub query_bytes: u64,
    /// Of those, the bytes read from beyond the cache.
    pub query_bytes_beyond: u64,
    /// The bytes of groups' tables read from beyond the cache (a run of `q` queries touches
    /// at most `q` rows a chunk of a table, 64 bytes each), and of the members they are
    /// made from (512 of 8 bytes a group, at most).
    pub table_bytes_beyond: u64,
}

impl Traffic {
    /// Bytes from beyond the cache, per test.
    pub fn beyond_per_test(&self) -> f64 {
        (self.query_bytes_beyond + self.table_bytes_beyond) as f64 / self.tests.max(1) as f64
    }
}

impl std::ops::AddAssign for Traffic {
    fn add_assign(&mut self, other: Traffic) {
        self.tests += other.tests;
        self.query_bytes += other.query_bytes;
        self.query_bytes_beyond += other.query_bytes_beyond;
        self.table_bytes_beyond += other.table_bytes_beyond;
    }
}

/// The model, as a [`Pairing`] the walk calls: the totals, and when each run of queries
/// (by its first query) and each group was last read, in bytes brought in.
pub(in crate::join) struct Model {
    cache: u64,
    /// The bytes of a query's row numbers, and of a group's table.
    query_size: u64,
    table_size: u64,
    /// A row's bytes times the chunks: what a query reads of a group's table.
    rows_per_query: u64,
    /// Bytes brought in so far: the model's clock.
    brought: u64,
    runs: HashMap<usize, u64>,
    groups: HashMap<usize, u64>,
    pub(in crate::join) traffic: Traffic,
}

impl Model {
    /// A model of a cache of `cache` bytes, for queries of `chunks` row numbers of 2 bytes
    /// and groups' tables of `rows` rows of 64 bytes.
    pub(in crate::join) fn new(cache: u64, chunks: usize, rows: usize) -> Model {
        Model {
            cache,
            query_size: 2 * chunks as u64,
            table_size: 64 * rows as u64,
            rows_per_query: 64 * chunks as u64,
            brought: 0,
            runs: HashMap::new(),
            groups: HashMap::new(),
            traffic: Traffic::default(),
        }
    }

    /// Reads `bytes` of the thing last read at `last`: whether they come from beyond the
    /// cache (then they are brought in); the thing is now the most recently used.
    fn read(cache: u64, brought: &mut u64, last: &mut Option<u64>, bytes: u64) -> bool {
        let beyond = last.is_none_or(|at| *brought - at > cache);
        if beyond {
            *brought += bytes;
        }
        *last = Some(*brought);
        beyond
    }

    /// `groups` against the queries `first..last`: the queries' bytes, and the tables' rows
    /// they touch, each read from beyond the cache unless read within its last `cache` bytes.
    fn pair_run(&mut self, groups: &[usize], first: usize, last: usize) {
        let queries = (last - first) as u64;
        let bytes = queries * self.query_size;
        let t = &mut self.traffic;
        t.tests += queries * groups.len() as u64;
        t.query_bytes += bytes;
        let mut at = self.runs.get(&first).copied();
        if Self::read(self.cache, &mut self.brought, &mut at, bytes) {
            t.query_bytes_beyond += bytes;
        }
        self.runs.insert(first, at.unwrap_or_default());
        let touched = self.table_size.min(queries * self.rows_per_query);
        for &g in groups {
            let mut at = self.groups.get(&g).copied();
            if Self::read(self.cache, &mut self.brought, &mut at, touched) {
                t.table_bytes_beyond += touched;
            }
            self.groups.insert(g, at.unwrap_or_default());
        }
    }
}

impl Pairing for Model {
    fn pair(&mut self, group: usize, first: usize, last: usize) {
        self.pair_run(&[group], first, last);
    }

    fn pair_runs(&mut self, groups: &[usize], runs: &[Run]) {
        for &[first, last] in runs {
            self.pair_run(groups, first as usize, last as usize);
        }
    }

    /// The block's tables made: their members read from beyond the cache, and each table
    /// brought into it whole.
    fn enter_block(&mut self, groups: Range<usize>) {
        for g in groups {
            self.traffic.table_bytes_beyond += (64 * GROUP * 8) as u64;
            self.brought += self.table_size;
            self.groups.insert(g, self.brought);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run read again after less than the cache was brought in is a hit; after more, it
    /// comes from beyond again; a group's table likewise, a run's touch of it at most.
    #[test]
    fn a_run_read_again_within_the_cache_is_a_hit_and_past_it_a_miss() {
        // Queries of 2 chunks (4 bytes), tables of 10 rows (640 bytes), a cache of 1,000.
        let mut model = Model::new(1000, 2, 10);
        model.pair_run(&[0], 0, 100); // 400 bytes in, table 640 in
        model.pair_run(&[0], 0, 100); // both hits
        let t = model.traffic;
        assert_eq!((t.tests, t.query_bytes), (200, 800));
        assert_eq!((t.query_bytes_beyond, t.table_bytes_beyond), (400, 640));
        model.pair_run(&[1, 2], 100, 400); // 1,200 bytes and two tables in
        model.pair_run(&[0], 0, 100); // 2,480 brought in since: misses
        let t = model.traffic;
        assert_eq!(t.tests, 200 + 600 + 100);
        assert_eq!(t.query_bytes_beyond, 400 + 1200 + 400);
        assert_eq!(t.table_bytes_beyond, 640 * 4);
        // One query touches a table's rows of its two chunks, not all ten.
        model.pair_run(&[7], 500, 501);
        assert_eq!(model.traffic.table_bytes_beyond, 640 * 4 + 128);
        assert!((model.traffic.beyond_per_test() - (2004.0 + 2688.0) / 901.0).abs() < 1e-9);
        // A block's tables made where the walk enters it: their members come from beyond
        // (4 KB a group), and the tables are then in the cache.
        model.enter_block(8..10);
        model.pair_run(&[8, 9], 500, 501);
        assert_eq!(model.traffic.table_bytes_beyond, 640 * 4 + 128 + 2 * 4096);
        // Made again, whatever was read since.
        model.enter_block(8..9);
        assert_eq!(model.traffic.table_bytes_beyond, 640 * 4 + 128 + 3 * 4096);
    }
}
