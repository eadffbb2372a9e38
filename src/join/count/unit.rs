//! Counting one unit: the west half-boards a piece at a time, each piece joined with every
//! east piece of every layout, the larger of the two indexed and the other queried; with a
//! [`Sampler`] (`sampler.rs`, for `count --estimate`), only the pieces it picks, timed.

use super::bits::Gather;
use super::half::{Cursor, Part, Place, Side};
use super::index::Index;
use super::simd::WithGather;
use crate::join::plan::cuts::{CutPlan, Way};
use crate::join::plan::layout::{Job, jobs_of};
use crate::join::plan::memory::longest_run;
use crate::join::plan::partition::Partition;
use crate::join::plan::slice::Slice;
use crate::join::plan::tasks::{Plan, Table};
use crate::join::sampler::Sampler;
use std::cell::RefCell;
use std::time::Duration;

/// A thread's buffers, kept between units so that joining allocates only when a unit is
/// larger than any before it.
#[derive(Default)]
pub(in crate::join) struct Scratch {
    east: Vec<u64>,
    west: Vec<u64>,
    west_souths: Vec<[u64; 2]>,
    east_souths: Vec<[u64; 2]>,
    index: Index,
    /// The unit's layouts.
    jobs: Vec<Job>,
    /// The quarter tables built on demand: the west side's north and south rows, the east
    /// side's.
    slices: [Slice; 4],
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// What the east side of a unit's join borrows of a thread's [`Scratch`]: the unit's layouts,
/// the west piece, the index, and the east side's buffers and quarter slices.
struct EastJoin<'s, P> {
    jobs: &'s [Job],
    /// The west piece, not yet indexed.
    west: WestPiece<'s>,
    index: &'s mut Index,
    halves: &'s mut Vec<u64>,
    souths: &'s mut Vec<[u64; 2]>,
    north: &'s mut Slice,
    south: &'s mut Slice,
    /// Where each east piece's pairs with the west piece go.
    pairs: &'s mut P,
    /// The half-boards a piece holds.
    piece: usize,
}

/// Where a unit's count sends each east piece, with the index of the west piece it pairs
/// with: counted here ([`Here`]), or copied into a device's batch and counted there (the
/// GPU's join, `crate::gpu`). Returns the pairs counted now, times `multiplicity`.
pub(crate) trait Pairs {
    /// Whether an east piece larger than its west piece is indexed in its place
    /// ([`index_east`]): where the pairs are counted here; a device that takes each index's
    /// tables in its batch keeps one index a west piece.
    const SWAPS: bool = true;

    /// The pairs of the half-boards `east` with those `index` holds, each `multiplicity`
    /// times: counted, or sent to be counted elsewhere (then 0 here).
    fn count<G: Gather>(
        &mut self,
        gather: G,
        index: &mut Index,
        east: &[u64],
        multiplicity: u32,
    ) -> u128;
}

/// Whether an east piece of `east` half-boards is indexed and the west piece of `west`
/// queried against it, rather than the other way round: where it is the larger. An index
/// cuts its half-boards into buckets of about the same size whatever their number, so the
/// larger side indexed is cut by more diagonals, and each query of the smaller one meets a
/// smaller share of it. From n = 26, where a west partition of 0.2 to 0.9 million
/// half-boards meets east pieces of up to 4 million: 0.70 of the tests at n = 26 and 0.62 at
/// n = 28, the index's builds included 1.20 and 1.29 times fewer core-ns a solution
/// (`join_partition cost`, docs/how-it-works.md).
#[inline(always)]
fn index_east(west: usize, east: usize) -> bool {
    east > west
}

/// A west piece as its join with the east pieces holds it: its half-boards, and whether the
/// thread's index holds them (built when an east piece first needs them, and again after an
/// east piece took the index's place).
struct WestPiece<'s> {
    halves: &'s [u64],
    cuts: &'s CutPlan,
    indexed: bool,
}

impl<'s> WestPiece<'s> {
    /// The west piece `halves`, an index of either side built on `cuts`: not indexed yet.
    fn new(halves: &'s [u64], cuts: &'s CutPlan) -> Self {
        WestPiece {
            halves,
            cuts,
            indexed: false,
        }
    }

    /// The queries of the join of this piece with `east`, `index` built for it: the larger
    /// of the two is indexed (where `swaps`: [`index_east`]), and the other is returned; and
    /// the half-boards indexed for `east` alone (0 for the west piece's index). A sampler
    /// times the builds of the west piece's index, and counts them.
    #[inline(always)]
    fn index_for<'q, G: Gather>(
        &mut self,
        gather: G,
        index: &mut Index,
        east: &'q [u64],
        swaps: bool,
        sampler: Option<&mut Sampler>,
    ) -> (&'q [u64], usize)
    where
        's: 'q,
    {
        if swaps && index_east(self.halves.len(), east.len()) {
            index.build(gather, self.cuts, east);
            self.indexed = false;
            return (self.halves, east.len());
        }
        if !self.indexed {
            let clock = sampler.as_ref().map(|s| s.clock);
            let start = now(clock);
            index.build(gather, self.cuts, self.halves);
            self.indexed = true;
            if let Some(s) = sampler {
                s.build += since(clock, start);
                s.west_builds += 1;
            }
        }
        (east, 0)
    }
}

/// The pairs counted here, in the hot loop ([`Index::count`]).
pub(in crate::join) struct Here;

impl Pairs for Here {
    #[inline(always)]
    fn count<G: Gather>(
        &mut self,
        gather: G,
        index: &mut Index,
        east: &[u64],
        multiplicity: u32,
    ) -> u128 {
        u128::from(index.count(gather, east)) * u128::from(multiplicity)
    }
}

/// What a count of a part cost and where its time went, in seconds of the clock it was
/// timed by ([`Plan::part_cost`], for `join_partition cost`): a measurement, kept out of
/// the engine's own counts.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Cost {
    /// The solutions counted (each pair times its layout's multiplicity).
    pub solutions: u128,
    /// The hot loop's tests: a query against a group of up to 512 half-boards.
    pub tests: u64,
    /// The pairs of half-boards those tests tested: each test's group's members.
    pub pairs_tested: u64,
    /// The count's whole time, less the passes that only measure it.
    pub seconds: f64,
    /// Making both sides' half-boards (timed in a count that only makes them).
    pub generation: f64,
    /// Building the quarter slices the part reads (n = 26 on; timed as the difference of a
    /// count that built them and one that found them held): not in `seconds`.
    pub slices: f64,
    /// Filing the queries by bucket and working out their row numbers.
    pub queries: f64,
    /// The walk of groups and runs of queries, timed alone (without the hot loop).
    pub walk: f64,
    /// The hot loop: the walk with the hot loop, less the walk alone.
    pub hot: f64,
}

/// The pairs counted here, as [`Here`] counts them, with the tests they took and the time
/// of each step of the east pieces' counts ([`Cost`]); what only measures (a walk that tallies
/// members) is timed too, for the caller to take off.
pub(in crate::join) struct Costed<'c> {
    clock: &'c dyn Fn() -> Duration,
    pub(in crate::join) cost: Cost,
    /// The time of the passes a count would not make.
    pub(in crate::join) untimed: Duration,
}

impl<'c> Costed<'c> {
    /// Nothing counted yet, timed by `clock`.
    pub(in crate::join) fn new(clock: &'c dyn Fn() -> Duration) -> Self {
        Costed {
            clock,
            cost: Cost::default(),
            untimed: Duration::ZERO,
        }
    }
}

impl Pairs for Costed<'_> {
    #[inline(always)]
    fn count<G: Gather>(
        &mut self,
        gather: G,
        index: &mut Index,
        east: &[u64],
        multiplicity: u32,
    ) -> u128 {
        let clock = self.clock;
        let start = clock();
        index.prepare_queries(gather, east);
        let prepared = clock();
        let counted = index.count_queries(gather);
        let hot_done = clock();
        self.cost.tests += index.tests();
        let walked = clock();
        self.cost.pairs_tested += index.pairs_tested();
        let tallied = clock();
        let walk = walked.saturating_sub(hot_done);
        self.cost.queries += prepared.saturating_sub(start).as_secs_f64();
        self.cost.walk += walk.as_secs_f64();
        self.cost.hot += (hot_done.saturating_sub(prepared).as_secs_f64()) - walk.as_secs_f64();
        self.untimed += tallied.saturating_sub(hot_done);
        u128::from(counted) * u128::from(multiplicity)
    }
}

/// A sampler's clock read now, if there is one: `None` costs nothing in a plain count.
fn now(clock: Option<&dyn Fn() -> Duration>) -> Option<Duration> {
    clock.map(|clock| clock())
}

/// The time since `start` (zero without a clock).
fn since(clock: Option<&dyn Fn() -> Duration>, start: Option<Duration>) -> Duration {
    match (now(clock), start) {
        (Some(end), Some(start)) => end.saturating_sub(start),
        _ => Duration::ZERO,
    }
}

/// One unit's count (or one partition's), as a build runs it ([`super::simd::Build::run`]).
pub(in crate::join) struct UnitCount<'a, 's, 'c, P> {
    pub(in crate::join) plan: &'a Plan,
    pub(in crate::join) table: &'a Table,
    pub(in crate::join) west_rows: u32,
    pub(in crate::join) partition: Partition,
    /// The engine's way of counting it, or the second ([`Way`]).
    pub(in crate::join) way: Way,
    pub(in crate::join) scratch: &'a mut Scratch,
    pub(in crate::join) sampler: Option<&'s mut Sampler<'c>>,
    pub(in crate::join) pairs: &'a mut P,
}

impl<P: Pairs> WithGather for UnitCount<'_, '_, '_, P> {
    #[inline(always)]
    fn run<G: Gather>(self, gather: G) -> u128 {
        let UnitCount {
            plan,
            table,
            west_rows,
            partition,
            way,
            scratch,
            sampler,
            pairs,
        } = self;
        let work = (west_rows, partition, way);
        plan.count_unit_with(gather, table, work, scratch, sampler, pairs)
    }
}

impl Plan {
    /// The solutions of one unit, or of one partition of it: pairs of compatible half-boards
    /// under each of its layouts.
    /// Inlined into each instruction-set build ([`super::simd::Build::run`]), with the
    /// bit gather of that build. With a sampler, joins only the pieces it picks and times the
    /// steps (the count is then partial).
    #[inline(always)]
    pub(in crate::join) fn count_unit_with<G: Gather, P: Pairs>(
        &self,
        gather: G,
        table: &Table,
        work: (u32, Partition, Way),
        scratch: &mut Scratch,
        sampler: Option<&mut Sampler>,
        pairs: &mut P,
    ) -> u128 {
        // Whole units apart: their build has none of the partitions' tests (`Side::fill`),
        // and their index drops no bits (`CutPlan::dropped`: only bits the sides are
        // filtered by can be dropped).
        if work.1 == Partition::WHOLE {
            self.count_unit_parted::<G, P, false>(gather, table, work, scratch, sampler, pairs)
        } else {
            self.count_unit_parted::<G, P, true>(gather, table, work, scratch, sampler, pairs)
        }
    }

    /// [`Plan::count_unit_with`], with partitions (`PARTED`) or without.
    #[inline(always)]
    fn count_unit_parted<G: Gather, P: Pairs, const PARTED: bool>(
        &self,
        gather: G,
        table: &Table,
        (west_rows, partition, way): (u32, Partition, Way),
        scratch: &mut Scratch,
        mut sampler: Option<&mut Sampler>,
        pairs: &mut P,
    ) -> u128 {
        let (west_part, east_part, cuts) = partition.parts(&self.cut_plan());
        let (h, piece, cuts) = (self.shape.h, way.piece(self.piece), cuts.for_way(way));
        let Scratch {
            east: east_buf,
            west: west_buf,
            west_souths,
            east_souths,
            index,
            jobs,
            slices: [west_north, west_south, east_north, east_south],
        } = scratch;
        jobs_of(self.shape, &self.layouts, west_rows, jobs);
        let west = self.side_on(self.west(west_rows), table, h, [west_north, west_south]);
        let (mut total, mut west_at) = (0u128, Cursor::default());
        // A side's buffer holds a piece and at most one run of south entries more.
        for buffer in [&mut *west_buf, &mut *east_buf] {
            buffer.clear();
            buffer.reserve_exact(piece + longest_run(h));
        }
        let (clock, mut west_piece) = (sampler.as_ref().map(|s| s.clock), 0);
        // Without closures: they would not inherit the target features of this build.
        loop {
            west_buf.clear();
            let start = now(clock);
            let west_done = west.fill::<G, PARTED>(
                gather,
                west_buf,
                west_souths,
                piece,
                &mut west_at,
                west_part,
            );
            let east_generated = match sampler.as_deref_mut() {
                None => true,
                Some(s) => s.west_made(west_piece, west_buf.len(), since(clock, start)),
            };
            if east_generated {
                let start = now(clock);
                let east = EastJoin {
                    jobs,
                    west: WestPiece::new(west_buf, &cuts),
                    index,
                    halves: east_buf,
                    souths: east_souths,
                    north: east_north,
                    south: east_south,
                    pairs: &mut *pairs,
                    piece,
                };
                let (work, s) = ((west_rows, east_part), sampler.as_deref_mut());
                let (counted, pieces) =
                    self.join_east::<G, P, PARTED>(gather, table, work, east, s);
                total += counted;
                if let Some(s) = sampler.as_deref_mut() {
                    s.joined_east(since(clock, start), pieces);
                }
            }
            // A sampler that has joined its pair needs no more west pieces generated.
            let goes_on = sampler.as_ref().is_none_or(|s| s.goes_on_after(west_piece));
            west_piece += 1;
            if west_done || !goes_on {
                break;
            }
        }
        if let Some(s) = sampler {
            s.west_pieces = west_piece;
        }
        total
    }

    /// The side at `place`, its north and south quarters' placements read from `table`
    /// (or built on demand into `slices`, north then south).
    #[inline(always)]
    fn side_on<'t>(
        &self,
        place: Place,
        table: &'t Table,
        h: u32,
        [north, south]: [&'t mut Slice; 2],
    ) -> Side<'t> {
        self.side(
            place,
            table.rows(north, h, place.north, place.north_rows),
            table.rows(south, h, place.south, place.south_rows),
        )
    }

    /// The pairs of the west piece `east.west` with every east half-board of the unit's
    /// layouts that `east_part` keeps, times each layout's multiplicity; and the east pieces
    /// counted. Each east piece is queried against the west piece's index, or, where it is
    /// the larger ([`index_east`]), indexed and queried with the west piece. With a sampler,
    /// only the east piece it picks is joined, or none, each piece's work weighed instead
    /// ([`Sampler::weigh`]) (timed by the caller: the
    /// east join's time less that of making the pieces, as a clock read beside the count
    /// made the hot loop inlined there a few per cent slower). The east
    /// half-boards of consecutive layouts of one multiplicity (all but the centre queen's on
    /// odd boards) are counted together, a piece at a time: a layout's alone are few, and a
    /// count has a cost per bucket and group besides its cost per half-board. Inlined, as
    /// its caller is, into each build.
    #[inline(always)]
    fn join_east<G: Gather, P: Pairs, const PARTED: bool>(
        &self,
        gather: G,
        table: &Table,
        (west_rows, east_part): (u32, Part),
        east: EastJoin<'_, P>,
        mut sampler: Option<&mut Sampler>,
    ) -> (u128, usize) {
        let h = self.shape.h;
        let EastJoin {
            jobs,
            mut west,
            index,
            halves,
            souths,
            north,
            south,
            pairs,
            piece,
        } = east;
        let (mut total, mut east_piece) = (0u128, 0);
        halves.clear();
        for (i, &job) in jobs.iter().enumerate() {
            let side = self.side_on(self.east(west_rows, job), table, h, [north, south]);
            let mut at = Cursor::default();
            let last_of_its_multiplicity = jobs
                .get(i + 1)
                .is_none_or(|next| next.multiplicity != job.multiplicity);
            loop {
                let done =
                    side.fill::<G, PARTED>(gather, halves, souths, piece, &mut at, east_part);
                // A full piece, or the last layout of this multiplicity: count them.
                if !done || last_of_its_multiplicity {
                    // One call of the count for a plain count and a sampler's query alike:
                    // inlined twice, the sampler's copy ran a quarter slower than the
                    // count's, and the times it scaled up were a quarter too long.
                    let (counted, weighed) = match sampler.as_deref() {
                        None => (true, false),
                        Some(s) => (s.queries(east_piece), s.weighs),
                    };
                    if counted || weighed {
                        let swaps = P::SWAPS;
                        let s = sampler.as_deref_mut();
                        let (queries, built) = west.index_for(gather, index, halves, swaps, s);
                        if counted {
                            total += pairs.count(gather, index, queries, job.multiplicity);
                        } else if let Some(s) = sampler.as_deref_mut() {
                            s.weigh_piece(gather, index, queries, built);
                        }
                    }
                    east_piece += 1;
                    halves.clear();
                }
                if done {
                    break;
                }
            }
        }
        (total, east_piece)
    }

    /// The solutions of `partition` of the unit on `west_rows` ([`Plan::count_unit_with`]),
    /// with this thread's buffers and the plan's build.
    pub(in crate::join) fn count_here(
        &self,
        table: &Table,
        west_rows: u32,
        partition: Partition,
        sampler: Option<&mut Sampler>,
    ) -> u128 {
        self.count_with(
            table,
            (west_rows, partition, Way::First),
            sampler,
            &mut Here,
        )
    }

    /// [`Plan::run_part`] with each east piece's pairs sent to `pairs` (a device's batch):
    /// returns what was counted here, none of it when `pairs` counts them all elsewhere.
    #[cfg(feature = "gpu")]
    pub(crate) fn run_part_with<P: Pairs>(&self, index: usize, part: usize, pairs: &mut P) -> u128 {
        let table = self.table();
        let (unit, partition) = self.work(index, part);
        self.count_with(
            table,
            (self.units[unit], partition, Way::First),
            None,
            pairs,
        )
    }

    /// [`Plan::count_here`], each east piece's pairs sent to `pairs`.
    pub(in crate::join) fn count_with<P: Pairs>(
        &self,
        table: &Table,
        (west_rows, partition, way): (u32, Partition, Way),
        sampler: Option<&mut Sampler>,
        pairs: &mut P,
    ) -> u128 {
        SCRATCH.with(|scratch| {
            let scratch = &mut scratch.borrow_mut();
            self.build.run(UnitCount {
                plan: self,
                table,
                west_rows,
                partition,
                way,
                scratch,
                sampler,
                pairs,
            })
        })
    }

    /// What part `part` of task `index` costs, counted whole on this thread in `clock`'s
    /// time ([`Cost`]): its solutions, the hot loop's tests and the pairs they test, and its
    /// time by step. Making the half-boards is timed as `--estimate` times it
    /// (`Plan::time_part`), by a count that only makes them (run twice: the first builds
    /// the part's quarter slices, whose time is the difference); the index and the rest
    /// are what the count's time leaves.
    #[doc(hidden)]
    pub fn part_cost(&self, index: usize, part: usize, clock: &dyn Fn() -> Duration) -> Cost {
        let table = self.table();
        let (unit, partition) = self.work(index, part);
        let west_rows = self.units[unit];
        let made = || {
            let mut pieces = Sampler::pieces(clock);
            let start = clock();
            self.count_here(table, west_rows, partition, Some(&mut pieces));
            let took = clock().saturating_sub(start).as_secs_f64();
            // Each west piece's east side is made again beside it.
            let wests = pieces.west_pieces.max(1) as f64;
            let generation =
                pieces.west_generation.as_secs_f64() + pieces.east_join.as_secs_f64() * wests;
            (took, generation)
        };
        let (cold, _) = made();
        let (warm, generation) = made();
        let mut costed = Costed::new(clock);
        let start = clock();
        let work = (west_rows, partition, Way::First);
        let solutions = self.count_with(table, work, None, &mut costed);
        let took = clock().saturating_sub(start).saturating_sub(costed.untimed);
        Cost {
            solutions,
            seconds: took.as_secs_f64(),
            generation,
            slices: (cold - warm).max(0.0),
            ..costed.cost
        }
    }
}

/// For the device's tests: indexes `west` [`super::index::test_patterns`] and sends its
/// pairs with `east` others to `pairs`; returns what the index counts here, and the width
/// of its rests.
#[cfg(all(test, feature = "gpu"))]
pub(crate) fn pairs_of_patterns(west: usize, east: usize, pairs: &mut impl Pairs) -> (u64, u32) {
    let gather = super::bits::Portable;
    let (west, east) = (
        super::index::test_patterns(west, 0x9e37_79b9_7f4a_7c15 + west as u64),
        super::index::test_patterns(east, 0x2545_f491_4f6c_dd1d + east as u64),
    );
    let mut index = Index::default();
    index.build(
        gather,
        &CutPlan::new(crate::join::shape::Shape::new(20)),
        &west,
    );
    let width = index.rest_width().0;
    pairs.count(gather, &mut index, &east, 1);
    (index.count(gather, &east), width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::plan::partition::Policy;

    /// The pairs counted here, and the sizes of each index and its queries; with `SWAPS`
    /// false, every index is a west piece's.
    struct Sizes<const SWAPS: bool>(Vec<(usize, usize)>);

    impl<const S: bool> Pairs for Sizes<S> {
        const SWAPS: bool = S;
        fn count<G: Gather>(&mut self, gather: G, index: &mut Index, east: &[u64], m: u32) -> u128 {
            self.0.push((index.len(), east.len()));
            Here.count(gather, index, east, m)
        }
    }

    /// Whichever side of a piece pair is larger is indexed, and the other queried: each
    /// count's index holds at least as many half-boards as its queries, where with the west
    /// piece always indexed some held fewer; and both count every part the same, whole
    /// units and partitioned ones, in pieces of a full board's size and of 64.
    #[test]
    fn the_larger_of_two_pieces_is_indexed_and_counts_the_same() {
        let small = Policy::SMALL;
        let mut smaller_indexed = 0;
        for (n, policy) in [
            (8, None),
            (10, None),
            (12, None),
            (12, Some(small)),
            (13, Some(small)),
        ] {
            for piece in [crate::join::DEFAULT_PIECE, 64] {
                let plan = Plan::with_policy(n, 3, policy).with_piece(piece);
                let table = plan.table();
                for index in 0..plan.len() {
                    for part in 0..plan.parts(index) {
                        let (unit, partition) = plan.work(index, part);
                        let work = (plan.units[unit], partition, Way::First);
                        let (mut swapped, mut west) =
                            (Sizes::<true>(vec![]), Sizes::<false>(vec![]));
                        let counted = plan.count_with(table, work, None, &mut swapped);
                        assert_eq!(counted, plan.count_with(table, work, None, &mut west));
                        assert_eq!(
                            counted,
                            plan.run_part(index, part),
                            "n = {n} {index}/{part}"
                        );
                        assert!(swapped.0.iter().all(|&(i, q)| i >= q), "{:?}", swapped.0);
                        smaller_indexed += west.0.iter().filter(|&&(i, q)| i < q).count();
                    }
                }
            }
        }
        assert!(smaller_indexed > 100, "{smaller_indexed}");
    }

    /// A part's cost (`Plan::part_cost`, for `join_partition cost`) counts what the part
    /// counts, makes the tests its work says, and tests between one and 512 pairs a test.
    #[test]
    fn a_part_s_cost_counts_the_part_and_tallies_its_work() {
        let clock = || Duration::from_nanos(1);
        for n in [13, 14] {
            let plan = Plan::new(n, 8).with_piece(64);
            for index in (0..plan.len()).step_by(9) {
                let cost = plan.part_cost(index, 0, &clock);
                assert_eq!(cost.solutions, plan.run_part(index, 0), "n = {n}, {index}");
                assert_eq!(cost.tests, plan.part_work(index, 0).0, "n = {n}, {index}");
                let pairs = cost.pairs_tested;
                assert!(cost.tests <= pairs && pairs <= 512 * cost.tests, "{pairs}");
            }
        }
    }
}
