//! The join engine: counts solutions without searching whole boards, by joining half-boards.
//!
//! Every row holds one queen, in the west half of the columns or in the east half. Fix the
//! set `S` of rows whose queen is in the east: a solution is then a *west half-board* (one
//! queen in each west column, in the rows outside `S`, no two attacking) beside an *east
//! half-board* (one queen in each east column, in the rows of `S`) whose diagonals do not meet
//! those of the west one. Rows and columns cannot clash across the halves, so the count for
//! `S` is the number of pairs of half-boards whose diagonal sets are disjoint, and the total is
//! the sum over all `S`. No search runs over a whole board.
//!
//! * **Half-boards from quarters** (`quarter`, `half`). One table holds every placement of
//!   non-attacking queens in the north-west quarter, filed by the rows and columns it uses
//!   (built once per count, on first use); the other three quarters are its mirror images,
//!   read through the same table (`View`). A west half-board is a north-west entry beside a
//!   south-west entry that uses the other west columns, when their diagonals do not meet: one
//!   AND of two words per candidate.
//! * **Counting pairs in bulk** (`index`, `simd`). Only the diagonals that both halves can
//!   reach matter: `2n - 2` of them at most, one `u64` per half-board. One side's half-boards
//!   are filed in buckets by a few central diagonals (a half-board of the other side that
//!   holds one of those diagonals skips every bucket that holds it too; the last two cuts
//!   only order a bucket, so that its groups are filled whole) and stored bit-sliced in
//!   groups of 512, with the AND of every combination of 5 or 6 diagonals precomputed
//!   (`Index`); a half-board then counts its partners in a group with one vector AND per
//!   chunk of its diagonals and a popcount. The unit count is built for AVX-512, for AVX2 and
//!   portably, and chosen once, when the plan is made.
//! * **Symmetry.** On even boards, turning the board upside down maps `S` to its reverse and
//!   the left-right mirror maps it to its complement, so only the least of those (up to) four
//!   sets is counted, times the size of its orbit. On odd boards the queens of the middle row
//!   and the middle column are placed first, one placement per orbit of the eight symmetries
//!   (eight times each), and the rest of the board is joined as above; the centre queen keeps
//!   all symmetries and uses the even-board scheme. The placed queens count as part of the
//!   east half-board, so a set of west rows is one unit of work for all the placements.
//! * **Tasks and memory** (this file, `memory`). Each set of west rows is one unit of work; units are grouped into
//!   numbered tasks by the sides of the queens in the first rows, so the driver, progress,
//!   checkpoints, shards and MPI treat this engine like the others. A thread holds the
//!   half-boards of one unit at a time; under a memory limit it holds at most a given number
//!   of each side and joins them piece by piece ([`Plan::with_piece`], [`piece_for`]).

mod half;
mod index;
mod memory;
mod quarter;
mod simd;
mod squeeze;

pub use memory::{DEFAULT_PIECE, MIN_PIECE, bytes_per_half_board, least_bytes, piece_for};
pub use quarter::table_bytes;

use half::{Cursor, Side};
use index::CutPlan;
use index::Index;
use quarter::{Quarter, View};
use simd::Build;
use squeeze::Gather;
use std::cell::RefCell;
use std::sync::OnceLock;

/// The smallest board the join engine counts.
pub const MIN_N: u32 = 4;

/// The largest board the join engine counts. Its quarter table holds the placements of
/// queens in a quarter: some 6.4 * 10^8 of them for the 12 x 12 quarters of `n = 24, 25`,
/// 2.6 GB as stored (half of them, see `quarter`), ten times that for the next size, past
/// what most machines hold. (Counting `n = 24` would take some 50 core-hours, extrapolated.)
pub const MAX_N: u32 = 25;

/// From this size on, `Engine::Auto` picks the join engine: below it, both engines take
/// milliseconds and the search needs no table.
pub const AUTO_FROM: u32 = 14;

/// Whether the join engine counts the n x n board.
pub fn supports(n: u32) -> bool {
    (MIN_N..=MAX_N).contains(&n)
}

/// The deepest grouping of units into tasks: depth `d` groups them by the sides of the
/// queens in the first `2d` rows.
pub const MAX_DEPTH: u32 = 8;

/// Tasks per worker thread that [`auto_depth`] provides for, for up to [`MOST_THREADS`]
/// threads: units differ in size by orders of magnitude, and many tasks keep the idle tail
/// short.
pub const TASKS_PER_THREAD: usize = 16;

/// The most threads [`auto_depth`] provides tasks for.
pub const MOST_THREADS: usize = 256;

/// The diagonals a set of queens occupies: bit `r + c` of `anti`, bit `r - c + n - 1` of
/// `main`, in whole-board coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Diagonals {
    anti: u64,
    main: u64,
}

impl Diagonals {
    fn meets(self, other: Diagonals) -> bool {
        (self.anti & other.anti) | (self.main & other.main) != 0
    }

    fn join(self, other: Diagonals) -> Diagonals {
        Diagonals {
            anti: self.anti | other.anti,
            main: self.main | other.main,
        }
    }
}

/// The shape of the split: quarters of `h` rows and columns, the south and east ones starting
/// at `far` (`h` on even boards; `h + 1` on odd ones, past the middle row and column).
#[derive(Clone, Copy, Debug)]
struct Shape {
    n: u32,
    h: u32,
    far: u32,
}

impl Shape {
    fn new(n: u32) -> Shape {
        let h = n / 2;
        Shape { n, h, far: n - h }
    }

    /// The number of diagonals of each direction that both halves can reach.
    fn shared(self) -> u32 {
        self.n + self.h - 1 - self.far
    }

    /// The diagonals of a half-board that the other half can reach, as one word: the
    /// anti-diagonals `far..` in the low bits, the main diagonals `far..` above them.
    fn pattern(self, d: Diagonals) -> u64 {
        let len = self.shared();
        let mask = (1u64 << len) - 1;
        ((d.anti >> self.far) & mask) | (((d.main >> self.far) & mask) << len)
    }
}

/// The queens placed before the join (the middle row and column of odd boards) and what they
/// leave: rows are `h` north bits then `h` south bits, columns `h` bits of each half. The
/// placed queens count as part of the east half-board, so the west half-boards of a set of
/// rows are the same under every layout and are built once for all of them.
#[derive(Clone, Copy, Debug)]
struct Layout {
    blocked: Diagonals,
    rows: u32,
    east: u32,
    /// How many boards of the whole each counted one stands for (8 for a placement of
    /// middle queens that the symmetries move to eight others).
    weight: u32,
    /// Whether the rest of the board keeps the up-down and left-right symmetries.
    symmetric: bool,
}

fn layouts(shape: Shape) -> Vec<Layout> {
    let Shape { n, h, .. } = shape;
    let all = (1u32 << h) - 1;
    let full = Layout {
        blocked: Diagonals::default(),
        rows: (1u32 << (2 * h)) - 1,
        east: all,
        weight: 1,
        symmetric: true,
    };
    if n % 2 == 0 {
        return vec![full];
    }
    let queen = |r: u32, c: u32| Diagonals {
        anti: 1 << (r + c),
        main: 1 << (r + n - 1 - c),
    };
    // The centre queen.
    let mut list = vec![Layout {
        blocked: queen(h, h),
        ..full
    }];
    // The middle column's queen `a` rows below the centre, the middle row's `b` columns right
    // of it: the eight symmetries act on (a, b) as signed swaps, and |a| = |b| would attack.
    for a in 1..=h {
        for b in a + 1..=h {
            list.push(Layout {
                blocked: queen(h + a, h).join(queen(h, h + b)),
                rows: full.rows & !(1 << (h + a - 1)),
                east: all & !(1 << (b - 1)),
                weight: 8,
                symmetric: false,
            });
        }
    }
    list
}

/// The east side of a unit under one layout, and what each of its pairs is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Job {
    layout: u32,
    /// The size of the orbit of the unit's rows under the symmetries the layout keeps, times
    /// the layout's weight.
    multiplicity: u32,
}

/// One unit of work: the west rows `west_rows` and the layouts they are joined under.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Unit {
    west_rows: u32,
    jobs: std::ops::Range<usize>,
}

/// A numbered task of the join engine: a run of units whose first rows have the same sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinTask {
    units: std::ops::Range<usize>,
}

/// Reverses the `2h` row bits: row `r` becomes row `n - 1 - r`.
fn reverse_rows(rows: u32, h: u32) -> u32 {
    rows.reverse_bits() >> (32 - 2 * h)
}

/// How many times the east rows `east` of a symmetric layout are counted: 0 unless they are
/// the least of their images under the up-down flip and the left-right mirror, else the
/// number of distinct images.
fn orbit_multiplicity(east: u32, rows: u32, h: u32) -> u32 {
    let flip = reverse_rows(east, h);
    let mirror = rows ^ east;
    let orbit = [east, flip, mirror, reverse_rows(mirror, h)];
    if orbit.iter().any(|&t| t < east) {
        return 0;
    }
    let mut distinct = orbit;
    distinct.sort_unstable();
    1 + distinct.windows(2).filter(|w| w[0] != w[1]).count() as u32
}

/// Every west row set with the layouts it is joined under, in increasing order of the set.
fn units(shape: Shape, layouts: &[Layout]) -> (Vec<Unit>, Vec<Job>) {
    let h = shape.h;
    let all = (1u32 << (2 * h)) - 1;
    let mut units = Vec::new();
    let mut jobs = Vec::new();
    let mut west = 0u32;
    loop {
        if west.count_ones() == h {
            let first = jobs.len();
            for (index, layout) in layouts.iter().enumerate() {
                if west & !layout.rows != 0 {
                    continue;
                }
                let east = layout.rows ^ west;
                let multiplicity = if layout.symmetric {
                    orbit_multiplicity(east, layout.rows, h)
                } else {
                    1
                };
                if multiplicity > 0 {
                    jobs.push(Job {
                        layout: index as u32,
                        multiplicity: multiplicity * layout.weight,
                    });
                }
            }
            if jobs.len() > first {
                units.push(Unit {
                    west_rows: west,
                    jobs: first..jobs.len(),
                });
            }
        }
        if west == all {
            break;
        }
        west += 1;
    }
    (units, jobs)
}

/// The tasks of the join engine for the n x n board: the units grouped by the sides (west or
/// east) of the queens in the first `2 depth` rows (all rows from `depth = n / 2` on).
pub struct Plan {
    shape: Shape,
    layouts: Vec<Layout>,
    units: Vec<Unit>,
    jobs: Vec<Job>,
    tasks: Vec<JoinTask>,
    piece: usize,
    /// The unit count's instruction-set build, chosen when the plan is made.
    build: Build,
    quarter: OnceLock<Quarter>,
}

impl Plan {
    /// The plan for the n x n board (`MIN_N <= n <= MAX_N`), tasks split at `depth` rows.
    ///
    /// # Panics
    ///
    /// When the engine does not count the n x n board ([`supports`]); `Counter` checks first.
    pub fn new(n: u32, depth: u32) -> Plan {
        assert!(supports(n), "join engine: n = {n}");
        let shape = Shape::new(n);
        let depth = clamp_depth(n, depth);
        let layouts = layouts(shape);
        let (mut units, jobs) = units(shape, &layouts);
        let prefix = prefix_mask(shape, depth);
        units.sort_by_key(|u| (u.west_rows & prefix, u.west_rows));
        let mut tasks = Vec::new();
        let mut start = 0;
        for i in 1..=units.len() {
            if i == units.len() || units[i].west_rows & prefix != units[start].west_rows & prefix {
                tasks.push(JoinTask { units: start..i });
                start = i;
            }
        }
        Plan {
            shape,
            layouts,
            units,
            jobs,
            tasks,
            piece: DEFAULT_PIECE,
            build: Build::best(),
            quarter: OnceLock::new(),
        }
    }

    /// Holds at most about `piece` half-boards of each side at a time (at least 64).
    pub fn with_piece(mut self, piece: usize) -> Plan {
        self.set_piece(piece);
        self
    }

    /// As [`Plan::with_piece`], in place.
    pub fn set_piece(&mut self, piece: usize) {
        self.piece = piece.max(64);
    }

    /// The most this plan holds on `threads` threads: its quarter table and one piece of
    /// half-boards of each side per thread ([`bytes_per_half_board`]).
    pub fn memory_bytes(&self, threads: usize) -> u64 {
        let per_thread = (self.piece * bytes_per_half_board(self.shape.n)) as u64;
        table_bytes(self.shape.n) as u64 + threads.max(1) as u64 * per_thread
    }

    /// How many tasks there are.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// The quarter table, built on first use (on the current thread's rayon pool).
    fn quarter(&self) -> &Quarter {
        self.quarter.get_or_init(|| Quarter::build(self.shape.h))
    }

    /// Builds the quarter table now on `threads` threads, unless it is built: the tasks
    /// share it, and the first of them would otherwise build it alone while the others wait.
    pub fn prepare(&self, threads: usize) {
        if self.quarter.get().is_some() {
            return;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build();
        // Without a pool, the first task builds it.
        if let Ok(pool) = pool {
            pool.install(|| self.quarter());
        }
    }

    /// The number of solutions task `index` stands for.
    pub fn run(&self, index: usize) -> u128 {
        (0..self.parts(index))
            .map(|part| self.run_part(index, part))
            .sum()
    }

    /// How many parts task `index` is made of: its units (sets of west rows), each counted
    /// alone. A sample of a large task can time a part of it ([`Plan::run_part`]).
    pub fn parts(&self, index: usize) -> usize {
        self.tasks[index].units.len()
    }

    /// The number of solutions part `part` of task `index` stands for: the task's value is
    /// the sum over its parts.
    pub fn run_part(&self, index: usize, part: usize) -> u128 {
        let quarter = self.quarter();
        let unit = &self.units[self.tasks[index].units.start + part];
        SCRATCH.with(|scratch| {
            self.build
                .count_unit(self, quarter, unit, &mut scratch.borrow_mut())
        })
    }

    /// An estimate of task `index`'s work (at least 1): the sum of its parts' weights
    /// ([`Plan::part_weight`]).
    pub fn weight(&self, index: usize) -> u64 {
        (0..self.parts(index))
            .map(|part| self.part_weight(index, part))
            .fold(0u64, u64::saturating_add)
            .max(1)
    }

    /// An estimate of the work of part `part` of task `index`, in about a nanosecond of one
    /// core each (at least 1), from the pairs of quarter entries its half-boards come from:
    /// `x = 16 W + 5 E` (W the west side's pairs, E the east sides' of all its layouts) to
    /// the power 7/8. A unit's time grows about linearly with its half-boards, as the index
    /// keeps its buckets at a fixed size with more cuts for more half-boards, and a little
    /// slower than linearly in the largest units, whose cuts prune more (fitted to every
    /// task's time at n = 18 to 21; the product `W E` that bounds the pairs over-weighted
    /// the largest units several times over, and an ETA that follows it ran 15 to 28 % short
    /// at 5 % of the work). Integer arithmetic only: every machine deals the same shards.
    pub fn part_weight(&self, index: usize, part: usize) -> u64 {
        let quarter = self.quarter();
        let unit = &self.units[self.tasks[index].units.start + part];
        let west = self.west(quarter, unit).bound();
        let east = self.jobs[unit.jobs.clone()]
            .iter()
            .map(|job| self.east(quarter, unit, *job).bound())
            .fold(0u64, u64::saturating_add);
        let x = u128::from(west) * 16 + u128::from(east) * 5;
        // x^(7/8) = sqrt(x * x^(1/2) * x^(1/4)).
        let root = x.isqrt();
        let weight = (x * root * root.isqrt()).isqrt();
        u64::try_from(weight).unwrap_or(u64::MAX).max(1)
    }

    fn west<'q>(&self, quarter: &'q Quarter, unit: &Unit) -> Side<'q> {
        let h = self.shape.h;
        Side {
            shape: self.shape,
            quarter,
            north: View::NorthWest,
            south: View::SouthWest,
            first_column: 0,
            north_rows: unit.west_rows & ((1 << h) - 1),
            south_rows: unit.west_rows >> h,
            columns: (1 << h) - 1,
            blocked: Diagonals::default(),
        }
    }

    fn east<'q>(&self, quarter: &'q Quarter, unit: &Unit, job: Job) -> Side<'q> {
        let h = self.shape.h;
        let layout = self.layouts[job.layout as usize];
        let rows = layout.rows ^ unit.west_rows;
        Side {
            shape: self.shape,
            quarter,
            north: View::NorthEast,
            south: View::SouthEast,
            first_column: self.shape.far,
            north_rows: rows & ((1 << h) - 1),
            south_rows: rows >> h,
            columns: layout.east,
            blocked: layout.blocked,
        }
    }

    /// The solutions of one unit: pairs of compatible half-boards under each of its layouts.
    /// Inlined into each instruction-set build ([`Build::count_unit`]), with the bit gather
    /// of that build.
    #[inline(always)]
    fn count_unit_with<G: Gather>(
        &self,
        gather: G,
        quarter: &Quarter,
        unit: &Unit,
        scratch: &mut Scratch,
    ) -> u128 {
        let west = self.west(quarter, unit);
        let piece = self.piece;
        let cuts = CutPlan::new(self.shape);
        let Scratch {
            east: east_buf,
            west: west_buf,
            west_souths,
            east_souths,
            index,
        } = scratch;
        let mut total = 0u128;
        let mut west_at = Cursor::default();
        // A side's buffer holds a piece and at most one run of south entries more.
        let most = piece + quarter.longest;
        west_buf.clear();
        west_buf.reserve_exact(most);
        east_buf.clear();
        east_buf.reserve_exact(most);
        let mut west_done = west.fill(west_buf, west_souths, piece, &mut west_at);
        // Without closures: they would not inherit the target features of this build.
        loop {
            index.build(gather, &cuts, west_buf);
            // The east half-boards of consecutive layouts of one multiplicity (all but the
            // centre queen's on odd boards) are counted together, a piece at a time: a
            // layout's alone are few, and a count has a cost per bucket and group besides
            // its cost per half-board.
            let jobs = &self.jobs[unit.jobs.clone()];
            east_buf.clear();
            for (i, &job) in jobs.iter().enumerate() {
                let east = self.east(quarter, unit, job);
                let mut east_at = Cursor::default();
                let last_of_its_multiplicity = jobs
                    .get(i + 1)
                    .is_none_or(|next| next.multiplicity != job.multiplicity);
                loop {
                    let done = east.fill(east_buf, east_souths, piece, &mut east_at);
                    // A full piece, or the last layout of this multiplicity: count them.
                    if !done || last_of_its_multiplicity {
                        let pairs = index.count(gather, east_buf);
                        total += u128::from(pairs) * u128::from(job.multiplicity);
                        east_buf.clear();
                    }
                    if done {
                        break;
                    }
                }
            }
            if west_done {
                break;
            }
            west_buf.clear();
            west_done = west.fill(west_buf, west_souths, piece, &mut west_at);
        }
        total
    }
}

/// The grouping depth a join plan uses when `depth` is asked for.
pub fn clamp_depth(n: u32, depth: u32) -> u32 {
    depth.clamp(1, MAX_DEPTH.min(n / 2))
}

/// The row bits (of a unit's `2h`) whose sides group units into tasks at `depth`.
fn prefix_mask(shape: Shape, depth: u32) -> u32 {
    let bits = (2 * depth).min(2 * shape.h);
    ((1u64 << bits) - 1) as u32
}

/// The shallowest grouping that gives [`MOST_THREADS`] threads [`TASKS_PER_THREAD`] tasks
/// each, or the deepest when none does. It depends on `n` alone, not on the threads, so
/// machines with different core counts (shards, MPI ranks, a resumed checkpoint) make the
/// same tasks; more tasks cost nothing, since a task's work is its units either way.
pub fn auto_depth(n: u32) -> u32 {
    let wanted = MOST_THREADS * TASKS_PER_THREAD;
    let shape = Shape::new(n);
    let (units, _) = units(shape, &layouts(shape));
    let deepest = clamp_depth(n, MAX_DEPTH);
    (1..=deepest)
        .find(|&depth| {
            let prefix = prefix_mask(shape, depth);
            let mut prefixes: Vec<u32> = units.iter().map(|u| u.west_rows & prefix).collect();
            prefixes.sort_unstable();
            prefixes.dedup();
            prefixes.len() >= wanted
        })
        .unwrap_or(deepest)
}

/// A thread's buffers, kept between units so that joining allocates only when a unit is
/// larger than any before it.
#[derive(Default)]
struct Scratch {
    east: Vec<u64>,
    west: Vec<u64>,
    west_souths: Vec<[u64; 2]>,
    east_souths: Vec<[u64; 2]>,
    index: Index,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    fn count(n: u32, depth: u32, piece: usize) -> u128 {
        let plan = Plan::new(n, depth).with_piece(piece);
        (0..plan.len()).map(|i| plan.run(i)).sum()
    }

    #[test]
    fn counts_match_the_table() {
        for n in MIN_N..=12 {
            assert_eq!(Some(count(n, 2, DEFAULT_PIECE)), known::total(n), "n = {n}");
        }
    }

    /// Every build of the unit count (portable, AVX2, AVX-512) that this processor runs gives
    /// the table's totals, whole and in pieces, from a whole quarter table and a halved one.
    #[test]
    fn every_instruction_set_build_counts_the_same() {
        for build in Build::all() {
            for (n, piece, halved) in [
                (11, DEFAULT_PIECE, true),
                (12, DEFAULT_PIECE, false),
                (13, 64, true),
                (14, 64, false),
                (15, DEFAULT_PIECE, true),
                (16, DEFAULT_PIECE, false),
            ] {
                let mut plan = Plan::new(n, 3).with_piece(piece);
                plan.build = build;
                let quarter = Quarter::build_with(plan.shape.h, halved);
                assert!(plan.quarter.set(quarter).is_ok());
                let total: u128 = (0..plan.len()).map(|i| plan.run(i)).sum();
                let name = build.name();
                assert_eq!(
                    Some(total),
                    known::total(n),
                    "{name} n = {n} halved {halved}"
                );
            }
        }
    }

    /// The automatic grouping gives [`MOST_THREADS`] threads [`TASKS_PER_THREAD`] tasks each
    /// where the board has units enough (n = 18 has over 12,000), every unit its own task
    /// where it has not, and the same depth gives the same tasks.
    #[test]
    fn every_thread_gets_many_tasks() {
        let depth = auto_depth(18);
        let plan = Plan::new(18, depth);
        assert!(
            plan.len() >= MOST_THREADS * TASKS_PER_THREAD,
            "{}",
            plan.len()
        );
        assert_eq!(plan.tasks, Plan::new(18, depth).tasks);
        assert_eq!(auto_depth(16), MAX_DEPTH);
        // Deeper groupings split tasks, never merge them: depth 8 is one unit per task here.
        let lens: Vec<usize> = (1..=MAX_DEPTH).map(|d| Plan::new(16, d).len()).collect();
        assert!(lens.windows(2).all(|w| w[0] <= w[1]), "{lens:?}");
        assert_eq!(lens[7], Plan::new(16, 8).units.len());
    }

    #[test]
    fn small_pieces_give_the_same_counts() {
        for n in [8, 11, 12] {
            assert_eq!(Some(count(n, 1, 64)), known::total(n), "n = {n}");
        }
    }
}
