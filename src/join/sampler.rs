//! Timing a sample of a large unit for `count --estimate` (n = 26 on, where a part takes
//! minutes): the [`Sampler`] a unit's count (`unit.rs`) takes, which pieces it joins and
//! how long each step took; one pair of pieces drawn (a west piece by its half-boards, an
//! east one by what its query is expected to cost) and its time scaled to the part's
//! ([`Plan::time_part`]); and the measurements the weights and the draws are fitted to.

use super::count::bits::Gather;
use super::count::index::Index;
use super::count::traffic::Traffic;
use super::plan::tasks::{Plan, Table};
use std::time::Duration;

/// What a count of a unit does besides counting, to time a sample of it: which pieces it
/// joins, and how long each step took. A count without one joins every piece.
pub(super) struct Sampler<'c> {
    /// The west piece whose index is built and queried (`None`: none, the pieces are only
    /// generated and counted), and the east piece (in the order they are counted) that is
    /// queried against it.
    pick: Option<(usize, usize)>,
    pub(super) clock: &'c dyn Fn() -> Duration,
    /// How many pieces each side came in (the east side's for one west piece; a sampler
    /// that picks stops after its west piece, and counts only those up to it).
    pub(super) west_pieces: usize,
    pub(super) east_pieces: usize,
    /// The half-boards of each west piece, where the sampler only counts pieces (a picking
    /// sampler leaves them empty): what the west pick is drawn by.
    pub(super) west_sizes: Vec<u64>,
    /// Where the sampler makes the east pieces beside its west piece without querying any
    /// ([`Sampler::weigh`]): each east piece's work against that piece's index, the pairs
    /// of a group and a query that the count would test
    /// ([`Index::work`](super::count::index::Index::work)).
    pub(super) east_work: Vec<u64>,
    /// Likewise, each east piece's queries (its half-boards, or the west piece's where the
    /// east piece is indexed in its place), and the half-boards its own index was built from
    /// (0 where it is queried against the west piece's).
    pub(super) east_halves: Vec<u64>,
    pub(super) east_indexed: Vec<u64>,
    /// Whether it weighs them.
    pub(super) weighs: bool,
    /// Where it weighs them with a model of a cache of this many bytes: what each east
    /// piece's count would read, and how much from beyond the cache ([`super::count::traffic`]).
    pub(super) traffic_cache: Option<u64>,
    pub(super) east_traffic: Vec<Traffic>,
    /// Time generating the west side, all of it; building the picked west piece's index
    /// (each time an east piece needs it: [`Sampler::west_builds`] times); the
    /// east side's join beside the first west piece (a sampler that only counts pieces) or
    /// the picked one: generating every east piece, and querying the picked one.
    pub(super) west_generation: Duration,
    pub(super) build: Duration,
    pub(super) east_join: Duration,
    pub(super) west_builds: usize,
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
            east_halves: Vec::new(),
            east_indexed: Vec::new(),
            weighs: false,
            traffic_cache: None,
            east_traffic: Vec::new(),
            west_generation: Duration::ZERO,
            build: Duration::ZERO,
            east_join: Duration::ZERO,
            west_builds: 0,
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

    /// A sampler that makes the east pieces beside west piece `west`, joining none, but
    /// working out what each join would cost ([`Sampler::east_work`]): it builds the indexes
    /// a count would (the west piece's as often, timed), and its other times are not what a
    /// count takes.
    pub(super) fn weigh(clock: &'c dyn Fn() -> Duration, west: usize) -> Self {
        Sampler {
            weighs: true,
            ..Sampler::pick(clock, west, usize::MAX)
        }
    }

    /// Records the east side's join: `took` in all, in `pieces` pieces.
    pub(super) fn joined_east(&mut self, took: Duration, pieces: usize) {
        (self.east_join, self.east_pieces) = (took, pieces);
    }

    /// Records west piece `k`: its half-boards, made in `took`. Returns whether the east
    /// side is generated beside it.
    pub(super) fn west_made(&mut self, k: usize, half_boards: usize, took: Duration) -> bool {
        self.west_generation += took;
        if self.pick.is_none() {
            self.west_sizes.push(half_boards as u64);
        }
        match self.pick {
            None => k == 0,
            Some((west, _)) => k == west,
        }
    }

    /// Weighs an east piece instead of querying it: the work of `queries` against `index`
    /// (built from `built` half-boards for this piece alone, or the west piece's), and what
    /// it would read.
    #[inline(always)]
    pub(super) fn weigh_piece<G: Gather>(
        &mut self,
        gather: G,
        index: &mut Index,
        queries: &[u64],
        built: usize,
    ) {
        self.east_work.push(index.work(gather, queries));
        self.east_halves.push(queries.len() as u64);
        self.east_indexed.push(built as u64);
        if let Some(cache) = self.traffic_cache {
            self.east_traffic
                .push(index.traffic(gather, queries, cache));
        }
    }

    pub(super) fn queries(&self, east: usize) -> bool {
        self.pick.is_some_and(|(_, e)| e == east)
    }

    /// Whether the pieces after west piece `k` are wanted: all of them to count them, none
    /// past the picked one.
    pub(super) fn goes_on_after(&self, k: usize) -> bool {
        self.pick.is_none_or(|(west, _)| k < west)
    }
}

impl Plan {
    /// An estimate of the time part `part` of task `index` takes, in `clock`'s time: the part
    /// timed whole where it is one piece a side (or a few on the east side), else from one pair
    /// of pieces drawn by `seed` and the time of generating the pieces. Each piece is drawn
    /// with odds mostly in proportion to what its time is expected to follow (`draw`), and its
    /// time divided by those odds (unbiased over the draw, as any odds above zero would be; an
    /// empty east piece, never drawn, is taken to cost nothing): a west piece by its
    /// half-boards, as a last piece is often a small part of a full one (drawing all pieces
    /// alike made a part's time 0.2 or 1.8 times its own by the luck of the draw); an east
    /// piece by the work of its join with the west piece (`Index::work`), its queries and
    /// what it indexes (`draw_east`), as east pieces of the same size took from 1.5 to 3.8 s
    /// (one partition of n = 27, eight pieces) by the cut diagonals their half-boards hold,
    /// which left a part's time 0.45 to 1.5 times its own (the pieces are weighed in a pass
    /// of their own, a tenth or less of a draw's time). The join's time is the east join
    /// beside the picked west piece less the same join with no piece joined, run just before
    /// it, so that making the east pieces (which the odds multiply up) costs the same in
    /// both; the west piece's index is counted apart, as often as the weighing pass built it
    /// (`unit::index_east`).
    pub fn time_part(
        &self,
        index: usize,
        part: usize,
        seed: u64,
        clock: &dyn Fn() -> Duration,
    ) -> Duration {
        let run = self.part_count(index, part);
        if self.one_piece_a_side(index, part) {
            // Timed as a count runs it: right after the part before it in its task, whose
            // units share its first rows (timed after themselves, the same half-boards and
            // branches met warm caches and a trained predictor: n = 15's parts took 0.67 and
            // n = 17's 0.83 of their time in a count; after a random part, 1.10 and 1.04).
            if part > 0 {
                std::hint::black_box(self.run_part(index, part - 1));
            }
            return time_whole(&run, clock);
        }
        let mut pieces = Sampler::pieces(clock);
        run(Some(&mut pieces));
        let (wests, easts) = (pieces.west_pieces.max(1), pieces.east_pieces.max(1));
        if wests == 1 && easts <= 4 {
            return time_whole(&run, clock);
        }
        let (west, west_odds) = draw(&pieces.west_sizes, wests, EVEN_SHARE, splitmix(seed));
        let mut weighed = Sampler::weigh(clock, west);
        run(Some(&mut weighed));
        let weights = (
            &weighed.east_work[..],
            &weighed.east_halves[..],
            &weighed.east_indexed[..],
        );
        let (east, east_odds) = draw_east(weights, easts, splitmix(!seed));
        let query = time_query(&run, clock, west, east);
        // The west piece's index, built as often as the east pieces needed it in the weighing
        // pass (which took the same turns as a count: `unit::index_east`).
        let seconds = pieces.west_generation.as_secs_f64()
            + pieces.east_join.as_secs_f64() * wests as f64
            + weighed.build.as_secs_f64() / west_odds
            + query / (west_odds * east_odds);
        Duration::from_secs_f64(seconds.max(0.0))
    }

    /// Each east piece of part `part` of task `index` beside its first west piece: its work
    /// ([`Index::work`](super::count::index::Index::work)), its half-boards, and the seconds of
    /// querying it in `clock`'s time, as [`Plan::time_part`] times a drawn piece (signed: a
    /// small piece's time, a difference of two runs, may come out below zero); for fitting
    /// what pieces are drawn by ([`EAST_TESTS_PER_HALF_BOARD`]).
    #[doc(hidden)]
    pub fn east_piece_times(
        &self,
        index: usize,
        part: usize,
        clock: &dyn Fn() -> Duration,
    ) -> Vec<(u64, u64, f64)> {
        let run = self.part_count(index, part);
        let mut weighed = Sampler::weigh(clock, 0);
        run(Some(&mut weighed));
        (0..weighed.east_work.len())
            .map(|east| {
                let query = time_query(&run, clock, 0, east);
                (weighed.east_work[east], weighed.east_halves[east], query)
            })
            .collect()
    }

    /// Each east piece of part `part` of task `index` beside its west piece `west`: what its
    /// count would read, and how much of it from beyond a cache of `cache` bytes
    /// ([`Traffic`]); for the measurements of memory traffic.
    #[doc(hidden)]
    pub fn east_piece_traffic(
        &self,
        index: usize,
        part: usize,
        west: usize,
        cache: u64,
    ) -> Vec<Traffic> {
        let run = self.part_count(index, part);
        let clock = || Duration::ZERO;
        let mut weighed = Sampler::weigh(&clock, west);
        weighed.traffic_cache = Some(cache);
        run(Some(&mut weighed));
        weighed.east_traffic
    }

    /// The seconds of querying east piece `east` of part `part` of task `index` against its
    /// west piece `west`, in `clock`'s time, as [`Plan::time_part`] times a drawn piece.
    #[doc(hidden)]
    pub fn east_piece_seconds(
        &self,
        index: usize,
        part: usize,
        west: usize,
        east: usize,
        clock: &dyn Fn() -> Duration,
    ) -> f64 {
        time_query(&self.part_count(index, part), clock, west, east)
    }

    /// The work of part `part` of task `index`: the pairs of a group and a query its count
    /// would test ([`Sampler::weigh`]) over every pair of pieces, and its west pieces; for
    /// fitting weights to.
    #[doc(hidden)]
    pub fn part_work(&self, index: usize, part: usize) -> (u64, usize) {
        let run = self.part_count(index, part);
        let clock = || Duration::ZERO;
        let mut pieces = Sampler::pieces(&clock);
        run(Some(&mut pieces));
        let work = (0..pieces.west_pieces.max(1))
            .map(|west| {
                let mut weighed = Sampler::weigh(&clock, west);
                run(Some(&mut weighed));
                weighed.east_work.iter().sum::<u64>()
            })
            .sum();
        (work, pieces.west_pieces)
    }

    /// Whether part `part` of task `index` is joined in one piece a side, known from the
    /// whole quarter table's bounds (to n = 25) without making a half-board: such a part is
    /// small enough to time whole, on its first run ([`Plan::time_part`]).
    fn one_piece_a_side(&self, index: usize, part: usize) -> bool {
        let Table::Whole(_) = self.table() else {
            return false;
        };
        let (west, east) = self.pairs(index, part);
        let piece = self.piece as u64;
        west <= piece && east <= piece
    }

    /// Runs part `part` of task `index` once, untimed, where [`Plan::time_part`] would time
    /// it whole (one piece a side), so that this thread's buffers have grown to it, and
    /// their pages been touched, before it is timed: with transparent huge pages the first
    /// touch of a page took 5 to 10 ms (compaction), where a part at n = 16 takes 0.1 ms. A
    /// count pays that a few times a thread over thousands of tasks; charged to the one part
    /// a sample drew, it made that part 100 times its weight's time and n = 16's estimate up
    /// to 9 times its count. A larger part is left alone: running it would cost as much as
    /// timing it, and a page touched first costs it a small share of its seconds.
    pub(crate) fn warm_part(&self, index: usize, part: usize) {
        if self.one_piece_a_side(index, part) {
            std::hint::black_box(self.run_part(index, part));
        }
    }

    /// The count of part `part` of task `index` with a sampler or without, on this thread's
    /// buffers.
    fn part_count(&self, index: usize, part: usize) -> impl Fn(Option<&mut Sampler>) -> u128 {
        let table = self.table();
        let (unit, partition) = self.work(index, part);
        let west_rows = self.units[unit];
        move |sampler| self.count_here(table, west_rows, partition, sampler)
    }
}

/// The time of a whole count `run`, in `clock`'s time.
fn time_whole(
    run: &impl Fn(Option<&mut Sampler>) -> u128,
    clock: &dyn Fn() -> Duration,
) -> Duration {
    let start = clock();
    std::hint::black_box(run(None));
    clock().saturating_sub(start)
}

/// The seconds of joining east piece `east` with west piece `west` in a count `run`
/// ([`Plan::time_part`]): the east join with that piece joined less the same join with none,
/// run just before it, and less the west piece's index where the piece needed it built
/// (counted apart: [`Sampler::build`]); an east piece indexed in the west piece's place
/// counts its own index. Signed: a difference that comes out below zero by chance counts
/// as it is, so that the noise of the two times averages out instead of adding up.
fn time_query(
    run: &impl Fn(Option<&mut Sampler>) -> u128,
    clock: &dyn Fn() -> Duration,
    west: usize,
    east: usize,
) -> f64 {
    let mut made = Sampler::pick(clock, west, usize::MAX);
    run(Some(&mut made));
    let mut pick = Sampler::pick(clock, west, east);
    std::hint::black_box(run(Some(&mut pick)));
    let joined = pick.east_join.saturating_sub(pick.build);
    joined.as_secs_f64() - made.east_join.as_secs_f64()
}

/// The share of a west piece's odds in [`draw`] that is the same for every piece: it keeps
/// the odds of a small or empty piece (whose time is not nothing: every east piece is still
/// queried against an empty west one) from reaching zero, and so the time divided by them
/// from growing without bound. East pieces are drawn by what their query costs
/// ([`draw_east`]) alone.
const EVEN_SHARE: f64 = 0.125;

/// What querying an east half-board costs beyond its tests, in tests: its rest squeezed,
/// its rows worked out, its bucket walked. Each east piece of the 12 parts of n = 27 that
/// an estimate timed from a draw, queried alone beside its work and half-boards
/// (`join_partition queries`): 2.25 ns a test and 28 ns a half-board by least squares (12.5
/// tests). Drawn by `work + 8 half-boards`, every draw of 11 of the 12 parts put the part
/// at 0.98 to 1.04 times the sum of its pieces' times (by work alone 0.96 to 1.15; with 4,
/// 12 and 16 half-boards 0.97-1.06, 0.94-1.04 and 0.89-1.05); the twelfth's smallest piece,
/// drawn 1 time in 500, at 0.3 (6 ms, timed as the difference of two runs). By work with
/// [`EVEN_SHARE`] (as before), three of the 12 had an empty piece, drawn 1 time in 40 to
/// 50, which put the part at nothing, and task 3535629's part 2 its small last piece
/// (odds 0.027), at 0.27 of its time: the least time per weight of every estimate of
/// n = 27, whose `rate_spread` it made 7.
const EAST_TESTS_PER_HALF_BOARD: u64 = 8;

/// What building an index costs, in tests a half-board indexed: for an east piece indexed
/// in its west piece's place ([`draw_east`]). An index of 2^22 random patterns of
/// n = 28's width took 24-27 ns a half-board to build (`PEXT`; 46 ms filing them by bucket,
/// 33 ms filling the tables of 320 rows a group), against 2.25 ns a test.
const BUILD_TESTS_PER_HALF_BOARD: u64 = 11;

/// An east piece of `pieces` drawn by `random` from those a sampler weighed, and its odds:
/// in proportion to what its join is expected to cost, in tests: its work, its queries
/// ([`EAST_TESTS_PER_HALF_BOARD`]) and the half-boards indexed for it alone
/// ([`BUILD_TESTS_PER_HALF_BOARD`]), with no even share (an empty piece is never drawn,
/// unless every piece is empty or the sizes are missing: then all alike).
fn draw_east(
    (work, halves, indexed): (&[u64], &[u64], &[u64]),
    pieces: usize,
    random: u64,
) -> (usize, f64) {
    let costs: Vec<u64> = (work.iter().zip(halves).zip(indexed))
        .map(|((&work, &halves), &indexed)| {
            work.saturating_add(halves.saturating_mul(EAST_TESTS_PER_HALF_BOARD))
                .saturating_add(indexed.saturating_mul(BUILD_TESTS_PER_HALF_BOARD))
        })
        .collect();
    draw(&costs, pieces, 0.0, random)
}

/// A piece of `pieces` (at least 1) drawn by `random` (uniform over 64 bits), and its odds:
/// `even` of them alike for every piece, the rest in proportion to `sizes` (what each
/// piece's time is expected to follow; alike where they are missing or all zero). With no
/// even share, a piece of size 0 is never drawn (unless all are).
fn draw(sizes: &[u64], pieces: usize, even: f64, random: u64) -> (usize, f64) {
    let total = sizes
        .iter()
        .fold(0u64, |total, &size| total.saturating_add(size));
    let alike = 1.0 / pieces as f64;
    // 53 bits of `random`, as a number in [0, 1).
    let u = (random >> 11) as f64 / (1u64 << 53) as f64;
    if sizes.len() != pieces || total == 0 {
        return (((u * pieces as f64) as usize).min(pieces - 1), alike);
    }
    let odds = |size: u64| even * alike + (1.0 - even) * size as f64 / total as f64;
    let piece = if u < even {
        ((u / even * pieces as f64) as usize).min(pieces - 1)
    } else {
        let at = ((u - even) / (1.0 - even) * total as f64) as u64;
        let mut before = 0;
        sizes
            .iter()
            .position(|&size| {
                before += size;
                at < before
            })
            // Past the end by rounding: the last piece with a size, never one of odds 0.
            .or_else(|| sizes.iter().rposition(|&size| size > 0))
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
    use crate::join::count::unit::{Here, Scratch, UnitCount};
    use crate::join::plan::cuts::Way;
    use crate::join::plan::partition::Partition;
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
            let (piece, o) = draw(&sizes, 3, EVEN_SHARE, (k as u64) << 48);
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
        assert_eq!(draw(&[], 4, EVEN_SHARE, u64::MAX), (3, 0.25));
        assert_eq!(draw(&[0, 0], 2, 0.0, 0), (0, 0.5));
        // With no even share, an empty piece is never drawn, even at the end of the line.
        for random in [0, 1 << 63, u64::MAX] {
            let (piece, odds) = draw(&[0, 5, 0, 3, 0], 5, 0.0, random);
            assert!(piece == 1 || piece == 3, "{random}: piece {piece}");
            assert!(odds > 0.0, "{random}: odds {odds}");
        }
    }

    /// Regression: `--estimate` put task 3535629's part 2 of n = 27 at 0.27 of its time
    /// whenever it drew the part's small last east piece (the east pieces were drawn by
    /// their work with an even share, which gave that piece odds four times its share of
    /// the time), and a part at nothing when it drew an empty piece. Pieces whose query
    /// time follows their tests and half-boards (as measured, [`EAST_TESTS_PER_HALF_BOARD`])
    /// are now scaled back to the part's time whichever is drawn. The pieces here are like
    /// those measured (five full ones, a small last one, an empty first one), their times
    /// made from the costs fitted, 2.25 ns a test and 28 ns a half-board; the old draw
    /// scales this small last piece to a tenth of the part, the empty one to nothing.
    #[test]
    fn a_small_or_empty_east_piece_drawn_scales_back_to_the_part_s_time() {
        let pieces: [(u64, u64); 7] = [
            (0, 0),
            (1_061_000_000, 4_194_304),
            (1_173_000_000, 4_194_304),
            (1_035_000_000, 4_194_304),
            (967_000_000, 4_194_304),
            (1_164_000_000, 4_194_304),
            (10_200_000, 142_871),
        ];
        let time = |(work, halves): (u64, u64)| 2.25e-9 * work as f64 + 28e-9 * halves as f64;
        let total: f64 = pieces.iter().map(|&p| time(p)).sum();
        let (work, halves): (Vec<u64>, Vec<u64>) = pieces.iter().copied().unzip();
        for k in 0..1024u64 {
            let weights = (&work[..], &halves[..], &[0; 7][..]);
            let (piece, odds) = draw_east(weights, pieces.len(), k << 54);
            let scaled = time(pieces[piece]) / odds;
            assert!(
                (scaled / total - 1.0).abs() < 0.1,
                "piece {piece}: {scaled} s for {total} s"
            );
        }
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
            let (mut many, mut swapped) = (0, 0);
            for index in (0..plan.len()).step_by(7) {
                let west_rows = plan.west_rows(index, 0);
                let run = |sampler: Option<&mut Sampler>| {
                    let scratch = &mut Scratch::default();
                    plan.build.run(UnitCount {
                        plan: &plan,
                        table,
                        west_rows,
                        partition: Partition::WHOLE,
                        way: Way::First,
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
                assert_eq!(weighed.east_halves.len(), pieces.east_pieces);
                // The west piece's index is built once for each run of east pieces queried
                // against it (between pieces indexed in its place), as a count builds it.
                let indexed = &weighed.east_indexed;
                let runs = (0..indexed.len())
                    .filter(|&k| indexed[k] == 0 && (k == 0 || indexed[k - 1] > 0))
                    .count();
                assert_eq!(weighed.west_builds, runs, "n = {n}, task {index}");
                swapped += indexed.iter().filter(|&&i| i > 0).count();
                let mut sum = 0;
                for west in 0..pieces.west_pieces {
                    for (east, &built) in indexed.iter().enumerate() {
                        let mut pick = Sampler::pick(&clock, west, east);
                        sum += run(Some(&mut pick));
                        // A pick builds the west piece's index only for a piece queried
                        // against it: a piece indexed in its place is timed with its own.
                        if west == pieces.west_pieces - 1 {
                            let own = usize::from(built == 0);
                            assert_eq!((pick.west_builds, pick.build.is_zero()), (own, own == 0));
                        }
                    }
                }
                assert_eq!(sum, run(None), "n = {n}, task {index}");
                if pieces.west_pieces > 1 {
                    many += 1;
                    assert!(plan.time_part(index, 0, 12345, &clock) > Duration::ZERO);
                }
            }
            assert!(many > 0, "n = {n}: no unit of many pieces");
            assert!(swapped > 0, "n = {n}: no east piece indexed");
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
