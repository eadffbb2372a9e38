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
//! * **Half-boards from quarters.** One table holds every placement of non-attacking queens
//!   in the north-west quarter, filed by the rows and columns it uses (built once per count,
//!   `Tables`); the other three quarters are its mirror images (`View`). A west
//!   half-board is a north-west entry beside a south-west entry that uses the other west
//!   columns, when their diagonals do not meet: one AND of two words per candidate.
//! * **Counting pairs in bulk.** Only the diagonals that both halves can reach matter: `2n - 2`
//!   of them at most, one `u64` per half-board. One side's half-boards are filed in buckets by
//!   a few central diagonals (a half-board of the other side that holds one of those
//!   diagonals skips every bucket that holds it too), and each bucket is stored bit-sliced,
//!   64 half-boards to a word, with the AND of every combination of 6 to 8 diagonals
//!   precomputed (`Index`); a half-board then counts its partners in a bucket with a handful
//!   of table lookups, ANDs and popcounts, on vectors of 4 or 8 words. The unit count is
//!   built for AVX-512, for AVX2 and portably, and chosen at run time.
//! * **Symmetry.** On even boards, turning the board upside down maps `S` to its reverse and
//!   the left-right mirror maps it to its complement, so only the least of those (up to) four
//!   sets is counted, times the size of its orbit. On odd boards the queens of the middle row
//!   and the middle column are placed first, one placement per orbit of the eight symmetries
//!   (eight times each), and the rest of the board is joined as above; the centre queen keeps
//!   all symmetries and uses the even-board scheme. The placed queens count as part of the
//!   east half-board, so a set of west rows is one unit of work for all the placements.
//! * **Tasks and memory.** Each set of west rows is one unit of work; units are grouped into
//!   numbered tasks by the sides of the queens in the first rows, so the driver, progress,
//!   checkpoints, shards and MPI treat this engine like the others. A thread holds the
//!   half-boards of one unit at a time; under a memory limit it holds at most a given number
//!   of each side and joins them piece by piece ([`Plan::with_piece`], [`piece_for`]).

use std::cell::RefCell;
use std::sync::OnceLock;

/// The smallest board the join engine counts.
pub const MIN_N: u32 = 4;

/// The largest board the join engine counts. Its quarter table holds every placement of
/// queens in a quarter: some 6.4 * 10^8 of them (5.1 GB) for the 12 x 12 quarters of
/// `n = 24, 25`, ten times that for the next size, past what the table's 32-bit offsets and
/// most machines hold. (The count of `n = 24` itself would take years of one core.)
pub const MAX_N: u32 = 25;

/// From this size on, `Engine::Auto` picks the join engine: below it, both engines take
/// milliseconds and the search needs no table.
pub const AUTO_FROM: u32 = 14;

/// Whether the join engine counts the n x n board.
pub fn supports(n: u32) -> bool {
    (MIN_N..=MAX_N).contains(&n)
}

/// The deepest grouping of units into tasks (by the sides of the queens in the first rows).
pub const MAX_DEPTH: u32 = 8;

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

/// Every placement of non-attacking queens in the north-west quarter, filed by the (rows,
/// columns) it uses. The other three quarters are its mirror images (`View`), so one table
/// serves all four. An entry is two words of `2h - 1` bits: the anti-diagonals `i + j` and the
/// main diagonals `i - j + h - 1` of its queens, in the quarter's own coordinates.
struct Quarter {
    h: u32,
    /// `entries[offsets[key]..offsets[key + 1]]` for `key = rows << h | columns`.
    offsets: Vec<u32>,
    entries: Vec<[u32; 2]>,
    /// The most entries filed under one key.
    longest: usize,
}

impl Quarter {
    fn build(h: u32) -> Quarter {
        let keys = 1usize << (2 * h);
        let mut offsets = vec![0u32; keys + 1];
        walk_quarter(h, 0, 0, 0, [0, 0], &mut |key, _| offsets[key + 1] += 1);
        for k in 0..keys {
            offsets[k + 1] += offsets[k];
        }
        let mut next = offsets.clone();
        let mut entries = vec![[0, 0]; offsets[keys] as usize];
        walk_quarter(h, 0, 0, 0, [0, 0], &mut |key, d| {
            entries[next[key] as usize] = d;
            next[key] += 1;
        });
        let longest = offsets.windows(2).map(|w| (w[1] - w[0]) as usize).max();
        Quarter {
            h,
            offsets,
            entries,
            longest: longest.unwrap_or(0),
        }
    }
}

/// Places queens (or none) in the quarter's rows `i..`, calling `found` with every placement.
fn walk_quarter(
    h: u32,
    i: u32,
    rows: u32,
    columns: u32,
    d: [u32; 2],
    found: &mut dyn FnMut(usize, [u32; 2]),
) {
    if i == h {
        found(((rows << h) | columns) as usize, d);
        return;
    }
    walk_quarter(h, i + 1, rows, columns, d, found);
    for j in 0..h {
        let queen = [1 << (i + j), 1 << (i + h - 1 - j)];
        if columns & (1 << j) == 0 && (d[0] & queen[0]) | (d[1] & queen[1]) == 0 {
            let next = [d[0] | queen[0], d[1] | queen[1]];
            walk_quarter(h, i + 1, rows | 1 << i, columns | 1 << j, next, found);
        }
    }
}

/// One of the four quarters, seen through the north-west table: the left-right mirror swaps
/// the two diagonal directions, the up-down flip reverses them, and each reverses the
/// quarter's columns or rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    NorthWest,
    NorthEast,
    SouthWest,
    SouthEast,
}

impl View {
    /// The entries of this quarter that use `rows` and `columns` (in its own bit order: bit
    /// `i` is its `i`-th row or column from the top or the left).
    #[inline(always)]
    fn get(self, q: &Quarter, rows: u32, columns: u32) -> &[[u32; 2]] {
        let reverse = |x: u32| x.reverse_bits() >> (32 - q.h);
        let (rows, columns) = match self {
            View::NorthWest => (rows, columns),
            View::NorthEast => (rows, reverse(columns)),
            View::SouthWest => (reverse(rows), columns),
            View::SouthEast => (reverse(rows), reverse(columns)),
        };
        let key = ((rows << q.h) | columns) as usize;
        &q.entries[q.offsets[key] as usize..q.offsets[key + 1] as usize]
    }

    /// An entry's diagonals in whole-board coordinates.
    #[inline(always)]
    fn place(self, shape: Shape, entry: [u32; 2]) -> Diagonals {
        let far = shape.far;
        // Bit b of a quarter word becomes bit 2h - 2 - b.
        let reverse = |x: u32| u64::from(x.reverse_bits() >> (33 - 2 * shape.h));
        let [a, m] = entry.map(u64::from);
        match self {
            View::NorthWest => Diagonals {
                anti: a,
                main: m << far,
            },
            View::NorthEast => Diagonals {
                anti: m << far,
                main: a,
            },
            View::SouthWest => Diagonals {
                anti: reverse(entry[1]) << far,
                main: reverse(entry[0]) << (2 * far),
            },
            View::SouthEast => Diagonals {
                anti: reverse(entry[0]) << (2 * far),
                main: reverse(entry[1]) << far,
            },
        }
    }
}

/// The quarter table of one board size.
struct Tables {
    quarter: Quarter,
}

impl Tables {
    fn build(shape: Shape) -> Tables {
        Tables {
            quarter: Quarter::build(shape.h),
        }
    }
}

/// The memory the quarter table of the n x n board takes, in bytes, without building it: the
/// placements are counted by the same walk.
pub fn table_bytes(n: u32) -> usize {
    let h = Shape::new(n).h;
    let mut entries = 0usize;
    walk_quarter(h, 0, 0, 0, [0, 0], &mut |_, _| entries += 1);
    ((1usize << (2 * h)) + 1) * 4 + entries * 8
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
/// east) of the queens in the first `depth` rows.
pub struct Plan {
    shape: Shape,
    layouts: Vec<Layout>,
    units: Vec<Unit>,
    jobs: Vec<Job>,
    tasks: Vec<JoinTask>,
    piece: usize,
    tables: OnceLock<Tables>,
}

/// Half-boards a thread holds of each side by default: beyond this, a unit is joined in
/// pieces.
pub const DEFAULT_PIECE: usize = 1 << 20;

/// The smallest piece [`piece_for`] settles for: smaller ones would repeat the generation of
/// the other side too often to be worth running.
pub const MIN_PIECE: usize = 1 << 12;

/// The bytes a thread holds per half-board of a piece, at most: each side's buffer and sorted
/// copy (8 bytes each), and the index's tables (`chunks << bits` words per block of 64, twice
/// that for blocks part empty).
pub fn bytes_per_half_board(n: u32) -> usize {
    let (bits, chunks) = chunking(2 * Shape::new(n).shared());
    32 + 2 * ((chunks << bits) / 64) * 8
}

/// The least memory the join engine counts the n x n board in on `threads` threads: its
/// quarter table and pieces of [`MIN_PIECE`] half-boards.
pub fn least_bytes(n: u32, threads: usize) -> u64 {
    let per_piece = (threads.max(1) * bytes_per_half_board(n)) as u64;
    table_bytes(n) as u64 + MIN_PIECE as u64 * per_piece
}

/// The piece size that keeps the join engine's data for the n x n board on `threads` threads
/// within `limit` bytes: the quarter table, and one piece of each side per thread. An error
/// when even pieces of [`MIN_PIECE`] do not fit.
pub fn piece_for(n: u32, limit: u64, threads: usize) -> Result<usize, crate::Error> {
    let table = table_bytes(n) as u64;
    let per_piece = (threads.max(1) * bytes_per_half_board(n)) as u64;
    let piece = limit.saturating_sub(table) / per_piece;
    if piece < MIN_PIECE as u64 {
        let mib = |b: u64| b.div_ceil(1 << 20);
        return Err(crate::Error::Engine(format!(
            "the join engine needs at least {} MiB for n = {n} on {threads} thread(s), {} MiB \
             of it for its quarter table: raise the memory limit or use the search",
            mib(least_bytes(n, threads)),
            mib(table)
        )));
    }
    Ok(piece.min(DEFAULT_PIECE as u64) as usize)
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
        let prefix = (1u32 << depth) - 1;
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
            tables: OnceLock::new(),
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

    /// How many tasks there are.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// The quarter tables, built on first use.
    fn tables(&self) -> &Tables {
        self.tables.get_or_init(|| Tables::build(self.shape))
    }

    /// The number of solutions task `index` stands for.
    pub fn run(&self, index: usize) -> u128 {
        let tables = self.tables();
        SCRATCH.with(|scratch| {
            let scratch = &mut *scratch.borrow_mut();
            self.tasks[index]
                .units
                .clone()
                .map(|u| self.count_unit(tables, &self.units[u], scratch))
                .sum()
        })
    }

    /// An estimate of task `index`'s work (at least 1): the pairs of quarter entries its
    /// half-boards come from, times the half-boards they are counted against.
    pub fn weight(&self, index: usize) -> u64 {
        let tables = self.tables();
        let mut work = 0u64;
        for unit in &self.units[self.tasks[index].units.clone()] {
            let west = self.west(tables, unit).bound();
            for job in &self.jobs[unit.jobs.clone()] {
                let east = self.east(tables, unit, *job).bound();
                work = work.saturating_add(west.saturating_mul(east) / 64 + 1);
            }
        }
        work.max(1)
    }

    fn west<'t>(&self, tables: &'t Tables, unit: &Unit) -> Side<'t> {
        let h = self.shape.h;
        Side {
            shape: self.shape,
            quarter: &tables.quarter,
            north: View::NorthWest,
            south: View::SouthWest,
            first_column: 0,
            north_rows: unit.west_rows & ((1 << h) - 1),
            south_rows: unit.west_rows >> h,
            columns: (1 << h) - 1,
            blocked: Diagonals::default(),
        }
    }

    fn east<'t>(&self, tables: &'t Tables, unit: &Unit, job: Job) -> Side<'t> {
        let h = self.shape.h;
        let layout = self.layouts[job.layout as usize];
        let rows = layout.rows ^ unit.west_rows;
        Side {
            shape: self.shape,
            quarter: &tables.quarter,
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
    fn count_unit(&self, tables: &Tables, unit: &Unit, scratch: &mut Scratch) -> u128 {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512vpopcntdq")
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx2")
                && crate::kernel::has_bmi()
            {
                // SAFETY: the CPU has every feature the build enables (checked just above).
                return unsafe { self.count_unit_avx512(tables, unit, scratch) };
            }
            if std::is_x86_feature_detected!("avx2") && crate::kernel::has_bmi() {
                // SAFETY: as above.
                return unsafe { self.count_unit_avx2(tables, unit, scratch) };
            }
        }
        self.count_unit_with::<false>(tables, unit, scratch)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2,avx512f,avx512vpopcntdq")]
    unsafe fn count_unit_avx512(
        &self,
        tables: &Tables,
        unit: &Unit,
        scratch: &mut Scratch,
    ) -> u128 {
        self.count_unit_with::<true>(tables, unit, scratch)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    unsafe fn count_unit_avx2(&self, tables: &Tables, unit: &Unit, scratch: &mut Scratch) -> u128 {
        self.count_unit_with::<true>(tables, unit, scratch)
    }

    /// The body of [`Plan::count_unit`], built once with BMI2's bit gathers (`PEXT`) and once
    /// without.
    #[inline(always)]
    fn count_unit_with<const PEXT: bool>(
        &self,
        tables: &Tables,
        unit: &Unit,
        scratch: &mut Scratch,
    ) -> u128 {
        let west = self.west(tables, unit);
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
        let most = piece + tables.quarter.longest;
        west_buf.clear();
        west_buf.reserve_exact(most);
        east_buf.clear();
        east_buf.reserve_exact(most);
        let mut west_done = west.fill(west_buf, west_souths, piece, &mut west_at);
        // Without closures: they would not inherit the target features of this build.
        loop {
            index.build::<PEXT>(&cuts, west_buf);
            for &job in &self.jobs[unit.jobs.clone()] {
                let east = self.east(tables, unit, job);
                let mut east_at = Cursor::default();
                let mut pairs = 0u64;
                loop {
                    east_buf.clear();
                    let east_done = east.fill(east_buf, east_souths, piece, &mut east_at);
                    pairs += index.count::<PEXT>(east_buf);
                    if east_done {
                        break;
                    }
                }
                total += u128::from(pairs) * u128::from(job.multiplicity);
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

/// The subset of `set` after `subset` in increasing order, `None` after `set` itself: the
/// column sets a side's north quarter can take, walked by [`Side::fill`] and [`Side::bound`].
fn next_subset(subset: u32, set: u32) -> Option<u32> {
    (subset != set).then(|| subset.wrapping_sub(set) & set)
}

/// Where [`Side::fill`] goes on: the north columns and the north entry.
#[derive(Default)]
struct Cursor {
    north_cols: u32,
    north_at: usize,
}

/// One side of a unit: the quarters its half-boards come from, its rows and columns, and the
/// queens placed before the join (whose diagonals its patterns carry).
struct Side<'t> {
    shape: Shape,
    quarter: &'t Quarter,
    north: View,
    south: View,
    /// The side's first column on the board.
    first_column: u32,
    north_rows: u32,
    south_rows: u32,
    columns: u32,
    blocked: Diagonals,
}

impl Side<'_> {
    /// The diagonals where this side's north and south queens can meet, as one word: `h`
    /// anti-diagonals from the south quarter's first one, then `h` main diagonals likewise.
    #[inline(always)]
    fn key(&self, d: Diagonals) -> u64 {
        let Shape { h, far, .. } = self.shape;
        let window = (1u64 << h) - 1;
        let anti = (d.anti >> (far + self.first_column)) & window;
        let main = (d.main >> (2 * far - self.first_column)) & window;
        anti | main << h
    }

    /// Appends the patterns of this side's half-boards to `out`, from `cursor` on, until
    /// `out` holds `piece` or more; returns whether the side is done. `souths` is scratch.
    #[inline(always)]
    fn fill(
        &self,
        out: &mut Vec<u64>,
        souths: &mut Vec<[u64; 2]>,
        piece: usize,
        cursor: &mut Cursor,
    ) -> bool {
        let k = self.north_rows.count_ones();
        loop {
            let north_cols = cursor.north_cols;
            if north_cols.count_ones() == k {
                let south_cols = self.columns ^ north_cols;
                // The south entries clear of the placed queens, once per column split, as
                // (key, pattern): the key holds the diagonals a north entry could share.
                souths.clear();
                for &entry in self.south.get(self.quarter, self.south_rows, south_cols) {
                    let s = self.south.place(self.shape, entry);
                    if !s.meets(self.blocked) {
                        souths.push([self.key(s), self.shape.pattern(s)]);
                    }
                }
                let norths = self.north.get(self.quarter, self.north_rows, north_cols);
                if souths.is_empty() {
                    cursor.north_at = norths.len();
                }
                while cursor.north_at < norths.len() {
                    let n = self.north.place(self.shape, norths[cursor.north_at]);
                    cursor.north_at += 1;
                    if n.meets(self.blocked) {
                        continue;
                    }
                    let key = self.key(n);
                    let pattern = self.shape.pattern(n.join(self.blocked));
                    // Written without a branch on the data: every candidate is stored, and
                    // the end moves past it only when it fits.
                    out.reserve(souths.len());
                    let slots = &mut out.spare_capacity_mut()[..souths.len()];
                    let mut kept = 0;
                    for &[south_key, south_pattern] in souths.iter() {
                        slots[kept].write(pattern | south_pattern);
                        kept += usize::from(key & south_key == 0);
                    }
                    // SAFETY: the first `kept` spare slots were written just above (each
                    // candidate writes the slot at `kept` before `kept` moves past it), and
                    // `reserve` made room for all of them.
                    unsafe { out.set_len(out.len() + kept) };
                    if out.len() >= piece {
                        return false;
                    }
                }
            }
            cursor.north_at = 0;
            match next_subset(north_cols, self.columns) {
                Some(next) => cursor.north_cols = next,
                None => return true,
            }
        }
    }

    /// An upper bound of the half-boards of this side (pairs of quarter entries).
    fn bound(&self) -> u64 {
        let k = self.north_rows.count_ones();
        std::iter::successors(Some(0), |&cols| next_subset(cols, self.columns))
            .filter(|cols| cols.count_ones() == k)
            .map(|north_cols| {
                let south_cols = self.columns ^ north_cols;
                let norths = self.north.get(self.quarter, self.north_rows, north_cols);
                let souths = self.south.get(self.quarter, self.south_rows, south_cols);
                norths.len() as u64 * souths.len() as u64
            })
            .sum()
    }
}

/// How a rest of `width` bits is cut into chunks, each with a table of the ANDs of every
/// combination of its bits: (bits per chunk, chunks). A query costs one lookup per chunk, a
/// block's tables `chunks << bits` words to build: 6-bit chunks while 5 of them do, wider
/// ones (up to 8) to keep to 5 (measured at n = 18 and 20: 5 chunks of 7 bits beat 6 of 6,
/// 5 of 6 beat 5 of 7).
fn chunking(width: u32) -> (u32, usize) {
    let mut bits = 6;
    while bits < 8 && width.div_ceil(bits) > 5 {
        bits += 1;
    }
    (bits, width.div_ceil(bits).max(1) as usize)
}

/// Half-boards a bucket is filled to at most, about: fewer buckets prune less, smaller ones
/// leave the vectors of a region part empty.
const BUCKET_TARGET: usize = 512;

/// The most bucket bits (central diagonals) a piece is filed by.
const MAX_CUTS: usize = 12;

/// Which bits of the patterns file half-boards in buckets: the central diagonals, the ones
/// most half-boards hold, alternating anti and main, nearest the centre first.
struct CutPlan {
    /// Bit positions, best first: `order[..usable]` are distinct.
    order: [u32; MAX_CUTS],
    usable: usize,
    /// The pattern's width.
    width: u32,
}

impl CutPlan {
    fn new(shape: Shape) -> CutPlan {
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
struct Squeeze {
    /// Cut positions in decreasing order, and how many.
    cuts: [u32; MAX_CUTS],
    count: usize,
    /// The same as masks, for `PEXT`.
    cut_mask: u64,
    rest_mask: u64,
}

impl Squeeze {
    fn new(plan: &CutPlan, count: usize) -> Squeeze {
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
    /// together. Both builds number buckets alike within a run, which is all that matters.
    #[inline(always)]
    fn split<const PEXT: bool>(&self, pattern: u64) -> (usize, u64) {
        #[cfg(target_arch = "x86_64")]
        {
            if PEXT {
                // SAFETY: PEXT is only true in the builds with bmi2 enabled.
                unsafe {
                    use std::arch::x86_64::_pext_u64;
                    return (
                        _pext_u64(pattern, self.cut_mask) as usize,
                        _pext_u64(pattern, self.rest_mask),
                    );
                }
            }
        }
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
struct Index {
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
const LANES: u32 = 4;

impl Index {
    /// Sorts `patterns` by bucket into `sorted`, filling `bounds` (buckets + 1 entries).
    #[inline(always)]
    fn bucket<const PEXT: bool>(
        squeeze: &Squeeze,
        patterns: &[u64],
        sorted: &mut Vec<u64>,
        bounds: &mut Vec<u32>,
    ) {
        let buckets = 1usize << squeeze.count;
        bounds.clear();
        bounds.resize(buckets + 2, 0);
        for &p in patterns {
            bounds[squeeze.split::<PEXT>(p).0 + 2] += 1;
        }
        for b in 0..buckets {
            bounds[b + 2] += bounds[b + 1];
        }
        sorted.clear();
        sorted.reserve_exact(patterns.len());
        sorted.resize(patterns.len(), 0);
        // bounds[b + 1] is where bucket b's next member goes; afterwards it is its end.
        for &p in patterns {
            let (b, rest) = squeeze.split::<PEXT>(p);
            sorted[bounds[b + 1] as usize] = rest;
            bounds[b + 1] += 1;
        }
        bounds.pop();
    }

    #[inline(always)]
    fn build<const PEXT: bool>(&mut self, plan: &CutPlan, patterns: &[u64]) {
        let mut cuts = 0;
        while cuts < plan.usable && (patterns.len() >> cuts) > BUCKET_TARGET {
            cuts += 1;
        }
        let squeeze = Squeeze::new(plan, cuts);
        let rest_width = plan.width - cuts as u32;
        (self.bits, self.chunks) = chunking(rest_width);
        let mut sorted = std::mem::take(&mut self.sorted);
        let mut bounds = std::mem::take(&mut self.bounds);
        Self::bucket::<PEXT>(&squeeze, patterns, &mut sorted, &mut bounds);
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
    fn count<const PEXT: bool>(&mut self, patterns: &[u64]) -> u64 {
        let squeeze = self.squeeze.expect("index built");
        let mut queries = std::mem::take(&mut self.queries);
        let mut bounds = std::mem::take(&mut self.query_bounds);
        Self::bucket::<PEXT>(&squeeze, patterns, &mut queries, &mut bounds);
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
fn transpose(a: &mut [u64; 64]) {
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

    /// Every build of the unit count (portable, AVX2, AVX-512) that this processor runs gives
    /// the table's totals: the dispatch picks one only.
    #[test]
    fn every_instruction_set_build_counts_the_same() {
        type Build = fn(&Plan, &Tables, &Unit, &mut Scratch) -> u128;
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut builds: Vec<(&str, Build)> =
            vec![("portable", |p, t, u, s| p.count_unit_with::<false>(t, u, s))];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") && crate::kernel::has_bmi() {
                // SAFETY: the features were checked just above.
                builds.push(("avx2", |p, t, u, s| unsafe { p.count_unit_avx2(t, u, s) }));
            }
            if std::is_x86_feature_detected!("avx512vpopcntdq")
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx2")
                && crate::kernel::has_bmi()
            {
                // SAFETY: as above.
                builds.push(("avx512", |p, t, u, s| unsafe {
                    p.count_unit_avx512(t, u, s)
                }));
            }
        }
        for (name, build) in builds {
            for (n, piece) in [
                (11, DEFAULT_PIECE),
                (12, DEFAULT_PIECE),
                (14, 64),
                (15, DEFAULT_PIECE),
            ] {
                let plan = Plan::new(n, 3).with_piece(piece);
                let tables = plan.tables();
                let mut scratch = Scratch::default();
                let total: u128 = plan
                    .units
                    .iter()
                    .map(|unit| build(&plan, tables, unit, &mut scratch))
                    .sum();
                assert_eq!(Some(total), known::total(n), "{name} n = {n}");
            }
        }
    }

    #[test]
    fn small_pieces_give_the_same_counts() {
        for n in [8, 11, 12] {
            assert_eq!(Some(count(n, 1, 64)), known::total(n), "n = {n}");
        }
    }
}
