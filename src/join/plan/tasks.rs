//! The join engine's plan: its size limits, its numbered tasks (runs of units, or of a
//! unit's partitions), where the units read the quarter's placements ([`Table`]), and the
//! [`Plan`] that makes the tasks and answers for them; the counting itself is `unit.rs`'s,
//! the weights `weight.rs`'s.

use super::cuts::CutPlan;
use super::layout::{Job, Layout, layouts, units};
use super::memory::{DEFAULT_PIECE, bytes_per_half_board, table_bytes};
use super::odds::Odds;
use super::partition::{MAX_BITS, Partition, Policy, UnitParts};
use super::slice::{ON_DEMAND_FROM, Slice, row_totals};
use crate::join::count::half::{Place, Side};
use crate::join::count::quarter::{Quarter, Rows, View};
use crate::join::count::simd::Build;
use crate::join::shape::{Diagonals, Shape};
use std::sync::OnceLock;

/// The smallest board the join engine counts.
pub const MIN_N: u32 = 4;

/// The largest board the join engine counts. Its quarter tables hold the placements of
/// queens in a quarter: some 6.4 * 10^8 of them for the 12 x 12 quarters of `n = 24, 25`,
/// 2.6 GB as stored (half of them, see `quarter`), ten times that for the next size, past
/// what most machines hold; from `n = 26` on, each thread builds the placements on the rows
/// its unit reads (`slice`), at most 4.7 * 10^6 a row set at `n = 26, 27` and 3.0 * 10^7
/// at 28. The patterns of half-boards would fit in their words to `n = 32`; 28 is the
/// size still within reach of a cluster.
pub const MAX_N: u32 = 28;

/// From this size on, `Engine::Auto` picks the join engine: below it, both engines take
/// milliseconds and the search needs no table.
pub const AUTO_FROM: u32 = 14;

/// Whether the join engine counts the n x n board.
pub fn supports(n: u32) -> bool {
    (MIN_N..=MAX_N).contains(&n)
}

/// The deepest grouping of units into tasks: depth `d` groups them by the sides of the
/// queens in the first `2d` rows, and from `d = n / 2` on every unit is a task of its own.
pub const MAX_DEPTH: u32 = 14;

/// The board size past which [`auto_depth`] wants more tasks, eight times more each size (as
/// the work grows about eightfold): at n = 22 the 4,096 tasks take some 3 core-seconds each,
/// at n = 26 its 2.6 million units (each a task) about 100.
pub const MORE_TASKS_FROM: u32 = 22;

/// Tasks per worker thread that [`auto_depth`] provides for, for up to [`MOST_THREADS`]
/// threads: units differ in size by orders of magnitude, and many tasks keep the idle tail
/// short.
pub const TASKS_PER_THREAD: usize = 16;

/// The most threads [`auto_depth`] provides tasks for.
pub const MOST_THREADS: usize = 256;

/// A numbered task of the join engine: a run of whole units whose first rows have the same
/// sides, or a run of the partitions of one unit ([`Policy`]). Sixteen bytes: n = 28 has
/// tens of millions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinTask {
    /// The first unit (an index into the plan's units) and how many.
    pub(in crate::join) first: u32,
    pub(in crate::join) units: u32,
    /// The partition bits (0: whole units) and the run of partitions.
    pub(in crate::join) bits: u8,
    pub(in crate::join) from: u16,
    pub(in crate::join) to: u16,
}

impl JoinTask {
    /// How many parts the task has: its units, or its partitions.
    pub(in crate::join) fn parts(&self) -> usize {
        if self.bits == 0 {
            self.units as usize
        } else {
            usize::from(self.to - self.from)
        }
    }
}

/// Where the sides of units read the quarter's placements: one table of them all, built
/// before the first task, or, from [`ON_DEMAND_FROM`] on, tables of the few rows each unit
/// reads, built by the thread that counts it, and how many placements every row set has.
pub(in crate::join) enum Table {
    Whole(Quarter),
    OnDemand { row_totals: Vec<u64> },
}

impl Table {
    /// The table's placements on the rows `rows` of quarter `view`, from the whole table or
    /// from `slot`, rebuilt for those rows unless it holds them.
    #[inline(always)]
    /// The quarter entries (placements) on a side's north and south rows.
    pub(in crate::join) fn entries_on(&self, h: u32, place: Place) -> u64 {
        let on = |view: View, rows: u32| {
            let rows = view.table_rows(h, rows);
            match self {
                Table::Whole(quarter) => {
                    let offsets = quarter.rows(rows).offsets;
                    u64::from(offsets[offsets.len() - 1] - offsets[0])
                }
                Table::OnDemand { row_totals } => row_totals[rows as usize],
            }
        };
        on(place.north, place.north_rows) + on(place.south, place.south_rows)
    }

    pub(in crate::join) fn rows<'a>(
        &'a self,
        slot: &'a mut Slice,
        h: u32,
        view: View,
        rows: u32,
    ) -> Rows<'a> {
        let rows = view.table_rows(h, rows);
        match self {
            Table::Whole(quarter) => quarter.rows(rows),
            Table::OnDemand { .. } => slot.rows(h, rows),
        }
    }
}

/// The tasks of the join engine for the n x n board: the units grouped by the sides (west or
/// east) of the queens in the first `2 depth` rows (all rows from `depth = n / 2` on).
///
/// # Panics
///
/// Its methods that take a task number (and a part number) panic when it is not one of the
/// plan's, as a slice's index does: this is the engine's own plan, which the crate's
/// [`Plan`](crate::Plan) checks numbers for (it returns [`Error::Task`](crate::Error::Task)).
pub struct Plan {
    pub(in crate::join) shape: Shape,
    pub(in crate::join) layouts: Vec<Layout>,
    /// The units' west rows, grouped into tasks.
    pub(in crate::join) units: Vec<u32>,
    pub(in crate::join) tasks: Vec<JoinTask>,
    /// Each task's weight, kept where a partitioning policy made the tasks (from n = 24:
    /// worked out with them, and dear to work out again); otherwise worked out when asked
    /// for.
    pub(in crate::join) weights: Vec<u64>,
    pub(in crate::join) piece: usize,
    /// The unit count's instruction-set build, chosen when the plan is made.
    pub(in crate::join) build: Build,
    pub(in crate::join) table: OnceLock<Table>,
    /// What the weights' estimate of each side's half-boards needs, worked out once (boxed:
    /// some 600 bytes).
    pub(in crate::join) odds: OnceLock<Box<Odds>>,
}

/// A unit as the plan weighs it: its west rows, partition bits, weight, and the runs of its
/// partitions when they make more than one task ([`Shares::runs`](super::shares::Shares::runs)).
type Weighed = (u32, u8, u64, Option<Box<[(std::ops::Range<u32>, u64)]>>);

impl Plan {
    /// The plan for the n x n board (`MIN_N <= n <= MAX_N`), tasks split at `depth` rows;
    /// from n = 24 on, large units are partitioned ([`Policy::for_board`]), which weighs
    /// every unit now (from the quarter table, or its row totals from n = 26 on, where tables
    /// are built on demand; some 40 core-seconds at n = 28, on the current thread's rayon
    /// pool).
    ///
    /// # Panics
    ///
    /// When the engine does not count the n x n board ([`supports`]); `Counter` checks first.
    pub fn new(n: u32, depth: u32) -> Plan {
        Plan::with_policy(n, depth, Policy::for_board(n))
    }

    /// As [`Plan::new`], with units partitioned by `policy` (none: every unit joined whole,
    /// as below n = 24). For tests and measurements: the tasks are numbered otherwise.
    #[doc(hidden)]
    pub fn with_policy(n: u32, depth: u32, policy: Option<Policy>) -> Plan {
        let mut plan = Plan::without_tasks(n);
        plan.make_tasks(depth, policy);
        plan
    }

    /// The plan's units, in no order, and no tasks yet.
    pub(in crate::join) fn without_tasks(n: u32) -> Plan {
        assert!(supports(n), "join engine: n = {n}");
        let shape = Shape::new(n);
        let layouts = layouts(shape);
        Plan {
            shape,
            units: units(shape, &layouts),
            layouts,
            tasks: Vec::new(),
            weights: Vec::new(),
            piece: DEFAULT_PIECE,
            build: Build::best(),
            table: OnceLock::new(),
            odds: OnceLock::new(),
        }
    }

    /// The cut diagonals of this board's units, in the order indexes and partitions take
    /// them (the long diagonals first and kept by every index, on even boards:
    /// [`CutPlan::transposing`]).
    pub(in crate::join) fn cut_plan(&self) -> CutPlan {
        CutPlan::new(self.shape).transposing(self.transposed())
    }

    /// Whether pairs are weighed by the transposition (`count/transpose.rs`): on every even
    /// board.
    pub(in crate::join) fn transposed(&self) -> bool {
        self.shape.n.is_multiple_of(2)
    }

    /// Orders the units and makes the tasks: units grouped at `depth`, those that `policy`
    /// partitions split into runs of their partitions.
    pub(in crate::join) fn make_tasks(&mut self, depth: u32, policy: Option<Policy>) {
        use rayon::prelude::*;
        let plan = &*self;
        // Each unit's west rows, partition bits and weight (zero without a policy), and the
        // runs of its partitions when they make more than one task: worked out once, in
        // parallel (the cuts' odds of the units split into runs were once worked out again
        // for their runs: 8.4 million of n = 28's 10 million units).
        let mut units: Vec<Weighed> = match policy {
            None => plan.units.iter().map(|&west| (west, 0, 0, None)).collect(),
            Some(policy) => {
                let table = plan.table();
                plan.units
                    .par_iter()
                    .map(|&west| {
                        let (unit, bits) = plan.unit_and_bits(table, west, &policy);
                        let shares = plan.shares(&unit, west, bits);
                        if bits == 0 {
                            return (west, bits, shares.of(0), None);
                        }
                        // Runs within the cap: one run holds every partition, the unit's
                        // weight, unless their sum passes the cap.
                        let runs = shares.runs(policy.task_cap);
                        match &runs[..] {
                            [(_, weight)] => (west, bits, *weight, None),
                            _ => (west, bits, 0, Some(runs.into_boxed_slice())),
                        }
                    })
                    .collect()
            }
        };
        // Grouped by the first rows' sides, the whole units of a group before its
        // partitioned ones.
        let prefix = prefix_mask(self.shape, clamp_depth(self.shape.n, depth));
        units.sort_unstable_by_key(|&(west, bits, ..)| (west & prefix, bits > 0, west));
        self.units = units.iter().map(|&(west, ..)| west).collect();
        // A task per group of whole units, or per run of a partitioned unit's partitions,
        // with its weight: each unit's tasks worked out on their own.
        let tasks_of = |start: usize| -> Vec<(JoinTask, u64)> {
            let (west, bits, weight, ref runs) = units[start];
            let same = |u: &Weighed| u.0 & prefix == west & prefix && u.1 == 0;
            let task = |units: usize, run: std::ops::Range<u32>| JoinTask {
                first: start as u32,
                units: units as u32,
                bits,
                from: run.start as u16,
                to: run.end as u16,
            };
            match (bits, runs) {
                (_, Some(runs)) => runs
                    .iter()
                    .map(|(run, weight)| (task(1, run.clone()), *weight))
                    .collect(),
                (1.., None) => vec![(task(1, 0..1 << bits), weight)],
                // Whole units: a task for each group, made by its first unit.
                _ if start > 0 && same(&units[start - 1]) => Vec::new(),
                _ => {
                    let group = units[start..].iter().take_while(|u| same(u));
                    let (count, weight) = group.fold((0, 0u64), |(count, sum), u| {
                        (count + 1, sum.saturating_add(u.2))
                    });
                    vec![(task(count, 0..1), weight)]
                }
            }
        };
        let (tasks, weights): (Vec<JoinTask>, Vec<u64>) = (0..units.len())
            .into_par_iter()
            .flat_map_iter(tasks_of)
            .unzip();
        self.tasks = tasks;
        self.weights = if policy.is_some() {
            weights
        } else {
            Vec::new()
        };
    }

    /// What the weights of the unit on `west_rows` are made of, and its partition bits under
    /// `policy`: the cuts `policy` may need worked out, all of them where it needs more.
    fn unit_and_bits(&self, table: &Table, west: u32, policy: &Policy) -> (UnitParts, u8) {
        let unit = self.unit_parts(table, west, Some(policy));
        match policy.bits_for(&unit) {
            Some(bits) => (unit, bits),
            None => {
                let unit = self.unit_parts(table, west, None);
                let bits = policy.bits_for(&unit).unwrap_or(MAX_BITS);
                (unit, bits)
            }
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

    /// The most this plan holds on `threads` threads: its quarter tables, one piece of
    /// half-boards of each side per thread ([`bytes_per_half_board`]), and its own units and
    /// tasks (some 400 MB at n = 28).
    pub fn memory_bytes(&self, threads: usize) -> u64 {
        let per_thread = (self.piece * bytes_per_half_board(self.shape.n)) as u64;
        let own = self.tasks.len() * size_of::<JoinTask>()
            + self.units.len() * size_of::<u32>()
            + self.weights.len() * size_of::<u64>();
        table_bytes(self.shape.n, threads) + threads.max(1) as u64 * per_thread + own as u64
    }

    /// How many tasks there are.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// The quarter table, or the row totals of tables built on demand: built on first use
    /// (on the current thread's rayon pool).
    pub(in crate::join) fn table(&self) -> &Table {
        self.table.get_or_init(|| {
            let h = self.shape.h;
            if h >= ON_DEMAND_FROM {
                Table::OnDemand {
                    row_totals: row_totals(h),
                }
            } else {
                Table::Whole(Quarter::build(h))
            }
        })
    }

    /// Builds what the tasks share now, on `threads` threads, unless it is built: the
    /// quarter table (or the row totals), which the first task would otherwise build alone
    /// while the others wait.
    pub fn prepare(&self, threads: usize) {
        if self.table.get().is_some() {
            return;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build();
        // Without a pool, the first task builds it.
        if let Ok(pool) = pool {
            pool.install(|| self.table());
        }
    }

    /// The number of solutions task `index` stands for.
    pub fn run(&self, index: usize) -> u128 {
        (0..self.parts(index))
            .map(|part| self.run_part(index, part))
            .sum()
    }

    /// How many parts task `index` is made of: its units (sets of west rows), each counted
    /// alone, or its partitions of one unit. A sample of a large task can time a part of it
    /// ([`Plan::run_part`]).
    pub fn parts(&self, index: usize) -> usize {
        self.tasks[index].parts()
    }

    /// The unit (its index in `units`) and the partition of part `part` of task `index`.
    pub(in crate::join) fn work(&self, index: usize, part: usize) -> (usize, Partition) {
        let task = &self.tasks[index];
        assert!(part < task.parts(), "task {index} has no part {part}");
        if task.bits == 0 {
            (task.first as usize + part, Partition::WHOLE)
        } else {
            let value = task.from + part as u16;
            (
                task.first as usize,
                Partition {
                    bits: task.bits,
                    value,
                },
            )
        }
    }

    /// The west rows of the unit of part `part` of task `index`.
    #[doc(hidden)]
    pub fn west_rows(&self, index: usize, part: usize) -> u32 {
        self.units[self.work(index, part).0]
    }

    /// The number of solutions part `part` of task `index` stands for: the task's value is
    /// the sum over its parts.
    pub fn run_part(&self, index: usize, part: usize) -> u128 {
        let table = self.table();
        let (unit, partition) = self.work(index, part);
        let west_rows = self.units[unit];
        self.count_here(table, west_rows, partition, None)
    }

    /// The solutions of part `part` of task `index` counted as `bits` partitions of its unit,
    /// one after the other (0: the unit whole, however the plan partitions it). For
    /// measurements (`examples/join_partition.rs`): the same unit joined both ways.
    #[doc(hidden)]
    pub fn run_unit_partitioned(&self, index: usize, part: usize, bits: u8) -> u128 {
        let table = self.table();
        let west_rows = self.west_rows(index, part);
        let bits = bits.min(MAX_BITS);
        (0..1u16 << bits)
            .map(|value| self.count_here(table, west_rows, Partition { bits, value }, None))
            .sum()
    }

    /// The partition of part `part` of task `index` (0 for whole units), for measurements.
    #[doc(hidden)]
    pub fn partition_value(&self, index: usize, part: usize) -> u32 {
        u32::from(self.work(index, part).1.value)
    }

    /// The partition bits of the unit of task `index` (0: whole units).
    #[doc(hidden)]
    pub fn partition_bits(&self, index: usize) -> u8 {
        self.tasks[index].bits
    }

    /// An estimate of task `index`'s work (at least 1): the sum of its parts' weights
    /// ([`Plan::part_weight`]).
    pub fn weight(&self, index: usize) -> u64 {
        let weight = match self.weights.get(index) {
            Some(&weight) => weight,
            None => (0..self.parts(index))
                .map(|part| self.part_weight(index, part))
                .fold(0u64, u64::saturating_add),
        };
        weight.max(1)
    }

    /// An estimate of the work of part `part` of task `index` (at least 1): up to n = 23,
    /// its unit's weight (`Plan::unit_size`, about a nanosecond of one core each); where a
    /// policy partitions units (from n = 24), its partition's share of its unit's
    /// (`Plan::unit_parts`, about a quarter of a nanosecond each, which
    /// [`Policy::for_board`] allows for).
    pub fn part_weight(&self, index: usize, part: usize) -> u64 {
        let (unit, partition) = self.work(index, part);
        let west = self.units[unit];
        if self.weights.is_empty() {
            return self.unit_size(self.table(), west).1;
        }
        let parts = self.unit_parts(self.table(), west, None);
        self.shares(&parts, west, partition.bits)
            .of(u32::from(partition.value))
    }

    /// The west side of the unit on `west_rows`.
    pub(in crate::join) fn west(&self, west_rows: u32) -> Place {
        let h = self.shape.h;
        Place {
            north: View::NorthWest,
            south: View::SouthWest,
            first_column: 0,
            north_rows: west_rows & ((1 << h) - 1),
            south_rows: west_rows >> h,
            columns: (1 << h) - 1,
            blocked: Diagonals::default(),
        }
    }

    /// The east side of the unit on `west_rows` under `job`'s layout.
    pub(in crate::join) fn east(&self, west_rows: u32, job: Job) -> Place {
        let h = self.shape.h;
        let layout = self.layouts[job.layout as usize];
        let rows = layout.rows ^ west_rows;
        Place {
            north: View::NorthEast,
            south: View::SouthEast,
            first_column: self.shape.far,
            north_rows: rows & ((1 << h) - 1),
            south_rows: rows >> h,
            columns: layout.east,
            blocked: layout.blocked,
        }
    }

    pub(in crate::join) fn side<'t>(
        &self,
        place: Place,
        north_table: Rows<'t>,
        south_table: Rows<'t>,
    ) -> Side<'t> {
        Side {
            shape: self.shape,
            place,
            north_table,
            south_table,
        }
    }
}

/// The grouping depth a join plan uses when `depth` is asked for (1 for boards too small for
/// the join engine, which it refuses elsewhere: `clamp` panicked there, its bounds crossed).
pub fn clamp_depth(n: u32, depth: u32) -> u32 {
    depth.clamp(1, MAX_DEPTH.min(n / 2).max(1))
}

/// The row bits (of a unit's `2h`) whose sides group units into tasks at `depth`.
fn prefix_mask(shape: Shape, depth: u32) -> u32 {
    let bits = (2 * depth).min(2 * shape.h);
    ((1u64 << bits) - 1) as u32
}

/// The shallowest grouping that gives [`MOST_THREADS`] threads [`TASKS_PER_THREAD`] tasks
/// each (eight times as many for each size past [`MORE_TASKS_FROM`], so that tasks stay small
/// enough for a checkpoint, a sample and a cluster of thousands of ranks), or the deepest
/// when none does. It depends on `n` alone, not on the threads, so machines with different
/// core counts (shards, MPI ranks, a resumed checkpoint) make the same tasks; more tasks
/// cost nothing, since a task's work is its units either way.
pub fn auto_depth(n: u32) -> u32 {
    use rayon::prelude::*;
    let more = 8usize.saturating_pow(n.saturating_sub(MORE_TASKS_FROM));
    let wanted = (MOST_THREADS * TASKS_PER_THREAD).saturating_mul(more);
    let shape = Shape::new(n);
    // The units sorted once by their bits reversed: those that share the first rows' sides
    // (the low bits of [`prefix_mask`]) are then neighbours at every depth. Sorting the
    // prefixes anew for each depth took 3.4 s of n = 28's start.
    let mut reversed: Vec<u32> = units(shape, &layouts(shape))
        .iter()
        .map(|west| west.reverse_bits())
        .collect();
    reversed.par_sort_unstable();
    let deepest = clamp_depth(n, MAX_DEPTH);
    (1..=deepest)
        .find(|&depth| {
            let prefix = prefix_mask(shape, depth).reverse_bits();
            let groups = 1 + reversed
                .windows(2)
                .filter(|pair| (pair[0] ^ pair[1]) & prefix != 0)
                .count();
            groups >= wanted
        })
        .unwrap_or(deepest)
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
                assert!(plan.table.set(Table::Whole(quarter)).is_ok());
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

    /// Tables built on demand (row set by row set, as from n = 26 on) give the table's
    /// totals with every build, whole and in small pieces, on boards small enough to check.
    #[test]
    fn tables_built_on_demand_count_the_same() {
        for build in Build::all() {
            for (n, piece) in [(4, 64), (9, 64), (12, DEFAULT_PIECE), (15, 64), (16, 4096)] {
                let mut plan = Plan::new(n, 3).with_piece(piece);
                plan.build = build;
                let row_totals = row_totals(plan.shape.h);
                assert!(plan.table.set(Table::OnDemand { row_totals }).is_ok());
                let total: u128 = (0..plan.len()).map(|i| plan.run(i)).sum();
                let name = build.name();
                assert_eq!(Some(total), known::total(n), "{name} n = {n}");
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
        assert_eq!(auto_depth(16), 8);
        // Deeper groupings split tasks, never merge them: depth 8 is one unit per task here.
        let lens: Vec<usize> = (1..=8).map(|d| Plan::new(16, d).len()).collect();
        assert!(lens.windows(2).all(|w| w[0] <= w[1]), "{lens:?}");
        assert_eq!(lens[7], Plan::new(16, 8).units.len());
    }

    /// The depth chosen from the units sorted once is the first whose plan has the tasks
    /// wanted (a task per group of whole units, grouped by the plan itself), or the deepest.
    #[test]
    fn the_automatic_depth_is_the_first_with_tasks_enough() {
        for n in [MIN_N, 12, 16, 19, 21] {
            let wanted = MOST_THREADS * TASKS_PER_THREAD;
            let deepest = clamp_depth(n, MAX_DEPTH);
            let first = (1..=deepest)
                .find(|&depth| Plan::with_policy(n, depth, None).len() >= wanted)
                .unwrap_or(deepest);
            assert_eq!(auto_depth(n), first, "n = {n}");
        }
    }

    #[test]
    fn small_pieces_give_the_same_counts() {
        for n in [8, 11, 12] {
            assert_eq!(Some(count(n, 1, 64)), known::total(n), "n = {n}");
        }
    }
}
