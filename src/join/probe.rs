//! A measurement probe for issue 26, used by no count: one unit joined as a partitioned
//! ("Grace") join. Both sides are generated whole once; their half-boards are filed by the
//! first `k` cut diagonals' bits; each west partition `p` is indexed (a piece at a time if it
//! is larger than a piece) on the cuts that remain, and queried by the east half-boards whose
//! first `k` cut bits are clear of `p`. A west partition has its `k` bits fixed, so a side of
//! any size gets `k` more cuts than a piece of it affords. Each step is timed, so that the
//! lever can be weighed before it is built (`examples/join_partition.rs`).

use super::half::Cursor;
use super::index::{CutPlan, Index};
use super::layout::{Job, jobs_of};
use super::slice::Slice;
use super::squeeze::Gather;
use super::{Plan, Table};
use std::time::{Duration, Instant};

/// A probing thread's buffers: its tables built on demand are kept between calls on one unit.
#[doc(hidden)]
#[derive(Default)]
pub struct ProbeScratch {
    slices: [Slice; 4],
    index: Index,
    souths: Vec<[u64; 2]>,
    jobs: Vec<Job>,
}

/// What one partitioned join of a unit counted and what its steps took.
#[doc(hidden)]
#[derive(Clone, Debug, Default)]
pub struct Probe {
    /// The unit's solutions (exact: the sum over partitions).
    pub count: u128,
    /// Half-boards of the west side, and of the east sides of all layouts.
    pub west: usize,
    pub east: usize,
    /// The largest west partition.
    pub largest_partition: usize,
    /// Indexes built (partitions times their pieces).
    pub builds: usize,
    /// East half-boards queried over all builds.
    pub queried: u64,
    /// Generating both sides once; filing them by partition and gathering each partition's
    /// queries; building the indexes; querying them.
    pub generate: Duration,
    pub partition: Duration,
    pub build: Duration,
    pub query: Duration,
}

/// The partition of `pattern`: its bits at `positions`, the first one lowest.
#[inline(always)]
fn partition_of(positions: &[u32], pattern: u64) -> usize {
    positions
        .iter()
        .enumerate()
        .fold(0, |p, (i, &b)| p | (((pattern >> b) & 1) as usize) << i)
}

/// `patterns` sorted by partition (a counting sort) into `sorted`, with the partitions'
/// bounds (`parts + 1` of them).
fn file(positions: &[u32], patterns: &[u64], sorted: &mut Vec<u64>) -> Vec<usize> {
    let parts = 1usize << positions.len();
    let mut bounds = vec![0usize; parts + 1];
    for &w in patterns {
        bounds[partition_of(positions, w) + 1] += 1;
    }
    for p in 0..parts {
        bounds[p + 1] += bounds[p];
    }
    let mut next = bounds.clone();
    sorted.clear();
    sorted.resize(patterns.len(), 0);
    for &w in patterns {
        let p = partition_of(positions, w);
        sorted[next[p]] = w;
        next[p] += 1;
    }
    bounds
}

impl Plan {
    /// Part `part` of task `index` joined with `k` partition bits, each west partition indexed
    /// in pieces of at most `piece` half-boards ([`Probe`]).
    #[doc(hidden)]
    pub fn probe_partitioned(
        &self,
        index: usize,
        part: usize,
        k: u32,
        piece: usize,
        scratch: &mut ProbeScratch,
    ) -> Probe {
        let table = self.table();
        let west_rows = self.unit(index, part);
        self.build
            .probe_unit(self, table, west_rows, k, piece.max(64), scratch)
    }

    /// [`Plan::probe_partitioned`] with one build's gather, inlined into that build.
    #[inline(always)]
    pub(super) fn probe_unit_with<G: Gather>(
        &self,
        gather: G,
        table: &Table,
        west_rows: u32,
        k: u32,
        piece: usize,
        scratch: &mut ProbeScratch,
    ) -> Probe {
        let h = self.shape.h;
        let cuts = CutPlan::new(self.shape);
        let positions = cuts.first(k as usize).to_vec();
        let rest = cuts.skipping(k as usize);
        let ProbeScratch {
            slices: [west_north, west_south, east_north, east_south],
            index,
            souths,
            jobs,
        } = scratch;
        let mut probe = Probe::default();

        // Both sides, whole: the west one, and the east ones by multiplicity.
        let start = Instant::now();
        let place = self.west(west_rows);
        let side = self.side(
            place,
            table.rows(west_north, h, place.north, place.north_rows),
            table.rows(west_south, h, place.south, place.south_rows),
        );
        let mut west = Vec::new();
        side.fill(&mut west, souths, usize::MAX, &mut Cursor::default());
        jobs.clear();
        jobs_of(self.shape, &self.layouts, west_rows, jobs);
        let mut easts: Vec<(u32, Vec<u64>)> = Vec::new();
        for &job in jobs.iter() {
            let place = self.east(west_rows, job);
            let side = self.side(
                place,
                table.rows(east_north, h, place.north, place.north_rows),
                table.rows(east_south, h, place.south, place.south_rows),
            );
            let at = match easts.iter().position(|(m, _)| *m == job.multiplicity) {
                Some(at) => at,
                None => {
                    easts.push((job.multiplicity, Vec::new()));
                    easts.len() - 1
                }
            };
            side.fill(&mut easts[at].1, souths, usize::MAX, &mut Cursor::default());
        }
        probe.generate = start.elapsed();
        probe.west = west.len();
        probe.east = easts.iter().map(|(_, e)| e.len()).sum();

        // Both sides filed by partition.
        let start = Instant::now();
        let mut west_sorted = Vec::new();
        let west_bounds = file(&positions, &west, &mut west_sorted);
        drop(west);
        let easts: Vec<(u32, Vec<u64>, Vec<usize>)> = easts
            .into_iter()
            .map(|(m, e)| {
                let mut sorted = Vec::new();
                let bounds = file(&positions, &e, &mut sorted);
                (m, sorted, bounds)
            })
            .collect();
        probe.partition = start.elapsed();

        let parts = 1usize << k;
        let mut queries: Vec<Vec<u64>> = vec![Vec::new(); easts.len()];
        for p in 0..parts {
            let members = &west_sorted[west_bounds[p]..west_bounds[p + 1]];
            probe.largest_partition = probe.largest_partition.max(members.len());
            if members.is_empty() {
                continue;
            }
            // The east partitions clear of p, gathered.
            let start = Instant::now();
            for ((_, sorted, bounds), q) in easts.iter().zip(queries.iter_mut()) {
                q.clear();
                for other in (0..parts).filter(|&o| o & p == 0) {
                    q.extend_from_slice(&sorted[bounds[other]..bounds[other + 1]]);
                }
            }
            probe.partition += start.elapsed();
            for chunk in members.chunks(piece) {
                let start = Instant::now();
                index.build(gather, &rest, chunk);
                probe.build += start.elapsed();
                probe.builds += 1;
                let start = Instant::now();
                for ((multiplicity, _, _), q) in easts.iter().zip(&queries) {
                    for east in q.chunks(piece) {
                        let pairs = index.count(gather, east);
                        probe.count += u128::from(pairs) * u128::from(*multiplicity);
                        probe.queried += east.len() as u64;
                    }
                }
                probe.query += start.elapsed();
            }
        }
        probe
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    /// Partitioned on 0 to 4 bits, in whole sides and in small pieces, the units add up to
    /// the table's totals on odd and even boards.
    #[test]
    fn partitioned_joins_count_what_the_units_count() {
        for (n, piece) in [(11, 64), (12, 1 << 22), (13, 200)] {
            let plan = Plan::new(n, 8);
            let mut scratch = ProbeScratch::default();
            for k in 0..=4 {
                let total: u128 = (0..plan.len())
                    .flat_map(|i| (0..plan.parts(i)).map(move |j| (i, j)))
                    .map(|(i, j)| plan.probe_partitioned(i, j, k, piece, &mut scratch).count)
                    .sum();
                assert_eq!(Some(total), known::total(n), "n = {n}, k = {k}");
            }
        }
    }
}
