//! Counting one unit: the west half-boards indexed a piece at a time, the east ones of every
//! layout counted against each piece; and timing a sample of a large unit's pieces, which
//! `count --estimate` uses where a unit takes minutes (n = 26 on).

use super::cuts::CutPlan;
use super::half::{Cursor, Part, Place, Side};
use super::index::Index;
use super::layout::{Job, jobs_of};
use super::memory::longest_run;
use super::partition::Partition;
use super::plan::{Plan, Table};
use super::simd::WithGather;
use super::slice::Slice;
use super::squeeze::Gather;
use std::cell::RefCell;
use std::time::Duration;

/// A thread's buffers, kept between units so that joining allocates only when a unit is
/// larger than any before it.
#[derive(Default)]
pub(super) struct Scratch {
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
/// the west piece's index, and the east side's buffers and quarter slices.
struct EastJoin<'s, P> {
    jobs: &'s [Job],
    index: &'s mut Index,
    halves: &'s mut Vec<u64>,
    souths: &'s mut Vec<[u64; 2]>,
    north: &'s mut Slice,
    south: &'s mut Slice,
    /// Where each east piece's pairs with the west piece go.
    pairs: &'s mut P,
}

/// Where a unit's count sends each east piece, with the index of the west piece it pairs
/// with: counted here ([`Here`]), or copied into a device's batch and counted there (the
/// GPU's join, `crate::gpu`). Returns the pairs counted now, times `multiplicity`.
pub(crate) trait Pairs {
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

/// The pairs counted here, in the hot loop ([`Index::count`]).
pub(super) struct Here;

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

/// What a count of a unit does besides counting, to time a sample of it: which pieces it
/// joins, and how long each step took. A count without one joins every piece.
pub(super) struct Sampler<'c> {
    /// The west piece whose index is built and queried (`None`: none, the pieces are only
    /// generated and counted), and the east piece (in the order they are counted) that is
    /// queried against it.
    pick: Option<(usize, usize)>,
    clock: &'c dyn Fn() -> Duration,
    /// How many pieces each side came in (the east side's for one west piece; a sampler
    /// that picks stops after its west piece, and counts only those up to it).
    pub(super) west_pieces: usize,
    pub(super) east_pieces: usize,
    /// The half-boards of each west piece, where the sampler only counts pieces (a picking
    /// sampler leaves them empty): what the west pick is drawn by.
    pub(super) west_sizes: Vec<u64>,
    /// Where the sampler makes the east pieces beside its west piece without querying any
    /// ([`Sampler::weigh`]): each east piece's work against that piece's index, the pairs
    /// of a group and a query that the count would test ([`Index::work`]).
    pub(super) east_work: Vec<u64>,
    /// Whether it weighs them.
    weighs: bool,
    /// Time generating the west side, all of it; building the picked piece's index; the
    /// east side's join beside the first west piece (a sampler that only counts pieces) or
    /// the picked one: generating every east piece, and querying the picked one.
    pub(super) west_generation: Duration,
    pub(super) build: Duration,
    pub(super) east_join: Duration,
}

impl<'c> Sampler<'c> {
    /// A sampler that only generates both sides and counts their pieces.
    pub(super) fn pieces(clock: &'c dyn Fn() -> Duration) -> Sampler<'c> {
        Sampler {
            pick: None,
            clock,
            west_pieces: 0,
            east_pieces: 0,
            west_sizes: Vec::new(),
            east_work: Vec::new(),
            weighs: false,
            west_generation: Duration::ZERO,
            build: Duration::ZERO,
            east_join: Duration::ZERO,
        }
    }

    /// A sampler that joins west piece `west` with east piece `east` alone (with none, an
    /// `east` past the last piece: the east pieces are only made).
    pub(super) fn pick(clock: &'c dyn Fn() -> Duration, west: usize, east: usize) -> Self {
        Sampler {
            pick: Some((west, east)),
            ..Sampler::pieces(clock)
        }
    }

    /// A sampler that indexes west piece `west` and makes the east pieces beside it, querying
    /// none, but working out what each would cost to query ([`Sampler::east_work`]); its
    /// times are not what a count takes.
    pub(super) fn weigh(clock: &'c dyn Fn() -> Duration, west: usize) -> Self {
        Sampler {
            weighs: true,
            ..Sampler::pick(clock, west, usize::MAX)
        }
    }

    /// Records the east side's join: `took` in all, in `pieces` pieces.
    fn joined_east(&mut self, took: Duration, pieces: usize) {
        (self.east_join, self.east_pieces) = (took, pieces);
    }

    /// Records west piece `k`: its half-boards, made in `took`. Returns whether it is
    /// indexed, and whether the east side is generated beside it.
    fn west_made(&mut self, k: usize, half_boards: usize, took: Duration) -> (bool, bool) {
        self.west_generation += took;
        if self.pick.is_none() {
            self.west_sizes.push(half_boards as u64);
        }
        match self.pick {
            None => (false, k == 0),
            Some((west, _)) => (k == west, k == west),
        }
    }

    fn queries(&self, east: usize) -> bool {
        self.pick.is_some_and(|(_, e)| e == east)
    }

    /// Whether the pieces after west piece `k` are wanted: all of them to count them, none
    /// past the picked one.
    fn goes_on_after(&self, k: usize) -> bool {
        self.pick.is_none_or(|(west, _)| k < west)
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
pub(super) struct UnitCount<'a, 's, 'c, P> {
    pub(super) plan: &'a Plan,
    pub(super) table: &'a Table,
    pub(super) west_rows: u32,
    pub(super) partition: Partition,
    pub(super) scratch: &'a mut Scratch,
    pub(super) sampler: Option<&'s mut Sampler<'c>>,
    pub(super) pairs: &'a mut P,
}

impl<P: Pairs> WithGather for UnitCount<'_, '_, '_, P> {
    #[inline(always)]
    fn run<G: Gather>(self, gather: G) -> u128 {
        let UnitCount {
            plan,
            table,
            west_rows,
            partition,
            scratch,
            sampler,
            pairs,
        } = self;
        let work = (west_rows, partition);
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
    pub(super) fn count_unit_with<G: Gather, P: Pairs>(
        &self,
        gather: G,
        table: &Table,
        work: (u32, Partition),
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
        (west_rows, partition): (u32, Partition),
        scratch: &mut Scratch,
        mut sampler: Option<&mut Sampler>,
        pairs: &mut P,
    ) -> u128 {
        let (h, piece) = (self.shape.h, self.piece);
        let (west_part, east_part, cuts) = partition.parts(&CutPlan::new(self.shape));
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
        let mut total = 0u128;
        let mut west_at = Cursor::default();
        // A side's buffer holds a piece and at most one run of south entries more.
        for buffer in [&mut *west_buf, &mut *east_buf] {
            buffer.clear();
            buffer.reserve_exact(piece + longest_run(h));
        }
        let clock = sampler.as_ref().map(|s| s.clock);
        let mut west_piece = 0;
        // Without closures: they would not inherit the target features of this build.
        loop {
            west_buf.clear();
            let start = now(clock);
            let west_done =
                west.fill::<PARTED>(west_buf, west_souths, piece, &mut west_at, west_part);
            let (indexed, east_generated) = match sampler.as_deref_mut() {
                None => (true, true),
                Some(s) => s.west_made(west_piece, west_buf.len(), since(clock, start)),
            };
            if indexed {
                let start = now(clock);
                index.build(gather, &cuts, west_buf);
                if let Some(s) = sampler.as_deref_mut() {
                    s.build = since(clock, start);
                }
            }
            if east_generated {
                let start = now(clock);
                let east = EastJoin {
                    jobs,
                    index,
                    halves: east_buf,
                    souths: east_souths,
                    north: east_north,
                    south: east_south,
                    pairs: &mut *pairs,
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

    /// The pairs of the west piece `east.index` holds with every east half-board of the
    /// unit's layouts that `east_part` keeps, times each layout's multiplicity; and the east
    /// pieces counted. With a sampler, only the east piece it picks is queried, or none,
    /// each piece's work weighed instead ([`Sampler::weigh`]) (timed by the caller: the
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
        let (h, piece) = (self.shape.h, self.piece);
        let EastJoin {
            jobs,
            index,
            halves,
            souths,
            north,
            south,
            pairs,
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
                let done = side.fill::<PARTED>(halves, souths, piece, &mut at, east_part);
                // A full piece, or the last layout of this multiplicity: count them.
                if !done || last_of_its_multiplicity {
                    // One call of the count for a plain count and a sampler's query alike:
                    // inlined twice, the sampler's copy ran a quarter slower than the
                    // count's, and the times it scaled up were a quarter too long.
                    let counted = match sampler.as_deref_mut() {
                        None => true,
                        Some(s) if s.queries(east_piece) => true,
                        Some(s) => {
                            if s.weighs {
                                s.east_work.push(index.work(gather, halves));
                            }
                            false
                        }
                    };
                    if counted {
                        total += pairs.count(gather, index, halves, job.multiplicity);
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
    pub(super) fn count_here(
        &self,
        table: &Table,
        west_rows: u32,
        partition: Partition,
        sampler: Option<&mut Sampler>,
    ) -> u128 {
        self.count_with(table, (west_rows, partition), sampler, &mut Here)
    }

    /// [`Plan::run_part`] with each east piece's pairs sent to `pairs` (a device's batch):
    /// returns what was counted here, none of it when `pairs` counts them all elsewhere.
    #[cfg(feature = "gpu")]
    pub(crate) fn run_part_with<P: Pairs>(&self, index: usize, part: usize, pairs: &mut P) -> u128 {
        let table = self.table();
        let (unit, partition) = self.work(index, part);
        self.count_with(table, (self.units[unit], partition), None, pairs)
    }

    /// [`Plan::count_here`], each east piece's pairs sent to `pairs`.
    pub(super) fn count_with<P: Pairs>(
        &self,
        table: &Table,
        (west_rows, partition): (u32, Partition),
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
                scratch,
                sampler,
                pairs,
            })
        })
    }

    /// An estimate of the time part `part` of task `index` takes, in `clock`'s time: the part
    /// timed whole where it is one piece a side (or a few on the east side), else from one
    /// pair of pieces drawn by `seed` and the time of generating the pieces. Each piece is
    /// drawn with odds mostly in proportion to what its time is expected to follow (`draw`),
    /// and its time divided by those odds (unbiased over the draw, as any odds above zero
    /// would be): a west piece by its half-boards, as a last piece is often a small part of a
    /// full one (drawing all pieces alike made a part's time 0.2 or 1.8 times its own by the
    /// luck of the draw); an east piece by its work against the west piece's index
    /// (`Index::work`), as east pieces of the same size took from 1.5 to 3.8 s (one
    /// partition of n = 27, eight pieces) by the cut diagonals their half-boards hold, which
    /// left a part's time 0.45 to 1.5 times its own (the pieces are weighed in a pass of
    /// their own, a tenth or less of a draw's time). The query's time is the east join
    /// beside the picked west piece less the same join with no piece queried, run just
    /// before it: both come right after the west piece's index is built, so that making the
    /// east pieces (which the odds multiply up) costs the same in both.
    pub fn time_part(
        &self,
        index: usize,
        part: usize,
        seed: u64,
        clock: &dyn Fn() -> Duration,
    ) -> Duration {
        let table = self.table();
        let (unit, partition) = self.work(index, part);
        let west_rows = self.units[unit];
        let run =
            |sampler: Option<&mut Sampler>| self.count_here(table, west_rows, partition, sampler);
        let mut pieces = Sampler::pieces(clock);
        run(Some(&mut pieces));
        let (wests, easts) = (pieces.west_pieces.max(1), pieces.east_pieces.max(1));
        if wests == 1 && easts <= 4 {
            let start = clock();
            std::hint::black_box(run(None));
            return clock().saturating_sub(start);
        }
        let (west, west_odds) = draw(&pieces.west_sizes, wests, splitmix(seed));
        let mut weighed = Sampler::weigh(clock, west);
        run(Some(&mut weighed));
        let (east, east_odds) = draw(&weighed.east_work, easts, splitmix(!seed));
        let mut made = Sampler::pick(clock, west, usize::MAX);
        run(Some(&mut made));
        let mut pick = Sampler::pick(clock, west, east);
        std::hint::black_box(run(Some(&mut pick)));
        // Signed: a difference that comes out below zero by chance counts as it is, so that
        // the noise of the two times averages out instead of adding up.
        let query = pick.east_join.as_secs_f64() - made.east_join.as_secs_f64();
        let seconds = pieces.west_generation.as_secs_f64()
            + pieces.east_join.as_secs_f64() * wests as f64
            + pick.build.as_secs_f64() / west_odds
            + query / (west_odds * east_odds);
        Duration::from_secs_f64(seconds.max(0.0))
    }
}

impl Plan {
    /// The work of part `part` of task `index`: the pairs of a group and a query its count
    /// would test ([`Sampler::weigh`]) over every pair of pieces, and its west pieces; for
    /// fitting weights to.
    #[doc(hidden)]
    pub fn part_work(&self, index: usize, part: usize) -> (u64, usize) {
        let table = self.table();
        let (unit, partition) = self.work(index, part);
        let west_rows = self.units[unit];
        let clock = || Duration::ZERO;
        let mut pieces = Sampler::pieces(&clock);
        self.count_here(table, west_rows, partition, Some(&mut pieces));
        let work = (0..pieces.west_pieces.max(1))
            .map(|west| {
                let mut weighed = Sampler::weigh(&clock, west);
                self.count_here(table, west_rows, partition, Some(&mut weighed));
                weighed.east_work.iter().sum::<u64>()
            })
            .sum();
        (work, pieces.west_pieces)
    }
}

/// The share of a piece's odds in [`draw`] that is the same for every piece: it keeps the
/// odds of a small or empty piece (whose time is not nothing: every east piece is still
/// queried against an empty west one) from reaching zero, and so the time divided by them
/// from growing without bound.
const EVEN_SHARE: f64 = 0.125;

/// A piece of `pieces` (at least 1) drawn by `random` (uniform over 64 bits), and its odds:
/// [`EVEN_SHARE`] of them alike for every piece, the rest in proportion to `sizes` (what
/// each piece's time is expected to follow: its half-boards, or its work; alike where they
/// are missing or all zero).
fn draw(sizes: &[u64], pieces: usize, random: u64) -> (usize, f64) {
    let total: u64 = sizes.iter().sum();
    let alike = 1.0 / pieces as f64;
    // 53 bits of `random`, as a number in [0, 1).
    let u = (random >> 11) as f64 / (1u64 << 53) as f64;
    if sizes.len() != pieces || total == 0 {
        return (((u * pieces as f64) as usize).min(pieces - 1), alike);
    }
    let odds = |size: u64| EVEN_SHARE * alike + (1.0 - EVEN_SHARE) * size as f64 / total as f64;
    let piece = if u < EVEN_SHARE {
        ((u / EVEN_SHARE * pieces as f64) as usize).min(pieces - 1)
    } else {
        let at = ((u - EVEN_SHARE) / (1.0 - EVEN_SHARE) * total as f64) as u64;
        let mut before = 0;
        sizes
            .iter()
            .position(|&size| {
                before += size;
                at < before
            })
            .unwrap_or(pieces - 1)
    };
    (piece, odds(sizes[piece]))
}

/// The next state of a SplitMix64 sequence: two draws of pieces from one seed here, and
/// every seeded draw of `--estimate` (the same on every machine).
pub(crate) fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// Pieces are drawn as often as their odds say, an empty one seldom, and alike when
    /// their sizes are not known; the odds add up to one.
    #[test]
    fn pieces_are_drawn_in_proportion_to_their_half_boards() {
        let sizes = [3, 0, 1];
        let draws = 1 << 16;
        let mut drawn = [0u32; 3];
        let mut odds = [0.0; 3];
        for k in 0..draws {
            let (piece, o) = draw(&sizes, 3, (k as u64) << 48);
            odds[piece] = o;
            drawn[piece] += 1;
        }
        assert!((odds.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{odds:?}");
        assert!(
            odds[1] > 0.0 && odds[1] < odds[2] && odds[2] < odds[0],
            "{odds:?}"
        );
        for (d, o) in drawn.iter().zip(odds) {
            assert!(
                (f64::from(*d) / f64::from(draws) - o).abs() < 1e-3,
                "{drawn:?} {odds:?}"
            );
        }
        assert_eq!(draw(&[], 4, u64::MAX), (3, 0.25));
        assert_eq!(draw(&[0, 0], 2, 0), (0, 0.5));
    }

    /// The pairs of pieces a sample draws from partition the unit: joined one pair at a time,
    /// every pair once, they count what the unit counts, on odd boards (many layouts) and
    /// even ones; and a unit of many pieces is timed from one pair.
    #[test]
    fn pairs_of_pieces_add_up_to_the_unit() {
        let ticks = Cell::new(0u64);
        let clock = || {
            ticks.set(ticks.get() + 1);
            Duration::from_nanos(ticks.get())
        };
        for n in [13, 14] {
            let plan = Plan::new(n, 8).with_piece(64);
            let table = plan.table();
            let mut many = 0;
            for index in (0..plan.len()).step_by(7) {
                let west_rows = plan.west_rows(index, 0);
                let run = |sampler: Option<&mut Sampler>| {
                    let scratch = &mut Scratch::default();
                    plan.build.run(UnitCount {
                        plan: &plan,
                        table,
                        west_rows,
                        partition: Partition::WHOLE,
                        scratch,
                        sampler,
                        pairs: &mut Here,
                    })
                };
                let mut pieces = Sampler::pieces(&clock);
                assert_eq!(
                    run(Some(&mut pieces)),
                    0,
                    "n = {n}: counted while counting pieces"
                );
                // Every piece's size is recorded, in the numbering a pick uses.
                assert_eq!(pieces.west_sizes.len(), pieces.west_pieces);
                // And every east piece's work beside a west piece, in the numbering a pick
                // uses.
                let mut weighed = Sampler::weigh(&clock, pieces.west_pieces - 1);
                assert_eq!(
                    run(Some(&mut weighed)),
                    0,
                    "n = {n}: counted while weighing"
                );
                assert_eq!(weighed.east_work.len(), pieces.east_pieces);
                let mut sum = 0;
                for west in 0..pieces.west_pieces {
                    for east in 0..pieces.east_pieces {
                        sum += run(Some(&mut Sampler::pick(&clock, west, east)));
                    }
                }
                assert_eq!(sum, run(None), "n = {n}, task {index}");
                if pieces.west_pieces > 1 {
                    many += 1;
                    assert!(plan.time_part(index, 0, 12345, &clock) > Duration::ZERO);
                }
            }
            assert!(many > 0, "n = {n}: no unit of many pieces");
        }
    }

    /// A part's work (`Plan::part_work`, what the weights are fitted to) is the tests of a
    /// group against a query over all its pairs of pieces: each solution is a west and an
    /// east half-board found by one test of the west one's group, which finds at most 512
    /// (each counted up to its layout's multiplicity, at most 8 orbits of 8), so a part's
    /// solutions bound its work from below.
    #[test]
    fn a_part_s_work_bounds_its_solutions() {
        for n in [13, 14] {
            let plan = Plan::new(n, 8).with_piece(64);
            let mut many = 0;
            for index in (0..plan.len()).step_by(5) {
                let solutions = plan.run_part(index, 0);
                let (work, west_pieces) = plan.part_work(index, 0);
                assert!(
                    solutions <= u128::from(work) * 512 * 64,
                    "n = {n}, task {index}: {solutions} solutions, work {work}"
                );
                assert!(solutions == 0 || work > 0, "n = {n}, task {index}");
                many += usize::from(west_pieces > 1);
            }
            assert!(many > 0, "n = {n}: no part of many west pieces");
        }
    }
}
