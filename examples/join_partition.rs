//! Partitioned joins against whole ones, unit by unit, on one thread: how much a unit gains
//! from being joined as `2^K` partitions (what the join engine does from n = 24 on), and
//! whether the partition weights follow the time.
//!
//! `join_partition check N K...`: every unit of the n x n board joined as `2^K` partitions,
//! the total checked against the known count.
//!
//! `join_partition time N UNITS REPS K...`: `UNITS` units picked at fixed quantiles of the
//! weight (the units holding the 1/(UNITS+1), 2/(UNITS+1) ... of all weight, the way
//! `--estimate` draws them), each timed `REPS` times, alternating: joined whole (pieces of
//! 2^22, the engine before partitions), then as `2^K` partitions for each `K`. The least time
//! of each is printed, with the counts checked equal.
//!
//! `join_partition plan N`: the engine's plan of the n x n board: how long it takes to make,
//! its tasks, how many units each number of partition bits, the largest task's weight.
//!
//! `join_partition fit N UNITS`: units picked as `time` picks them, each joined as the
//! engine partitions it, with its sides' pairs of quarter entries (west, east), its time and
//! its weight: the data a weight formula is fitted to.
//!
//! `join_partition sample N PARTS SEED`: `PARTS` parts of the engine's tasks drawn with
//! chances in proportion to their weights (as `--estimate` draws them), each run whole and
//! timed by its thread's processor time: its unit's pairs of quarter entries, its partition
//! bits and the bits set, its weight and seconds.
//!
//! `join_partition drawn N PARTS SEED K...`: parts drawn as `sample` draws them, and the
//! whole unit of each (its task's, where the task is a partitioned unit) counted as `2^K`
//! partitions for each `K` in turn, timed by its thread's processor time; then each `K`'s
//! sum of time over weight, relative to the first `K`'s: how many partitions the units the
//! weight lies in want (n = 24 and 25, where a partitioned unit is one task: from n = 26 a
//! task may be a run of a unit's partitions, and its weight not the unit's). Time it in
//! the release build: in a build whose hot loop was left to how rustc cut the crate into
//! codegen units (before 0.13.0, without LTO), units of n = 24 took six to ten times as long,
//! and the most partitions looked best.
//!
//! `join_partition draws N PARTS SEED DRAWS WHOLE`: parts drawn as `sample` draws them (0
//! parts: those named on standard input, as `sizes` reads them), each
//! timed as `--estimate` times it, from `DRAWS` random pairs of pieces, and (`WHOLE` = 1)
//! run whole: how far one draw's time is from the part's.
//!
//! `join_partition estimate N SECONDS THREADS`: the engine's `--estimate`, and every part it
//! timed in increasing time per weight: which parts make its `rate_spread`.
//!
//! `join_partition largest N TASKS`: the engine's `TASKS` heaviest tasks, each run whole
//! and timed by its thread's processor time, against the time its weight is capped at
//! ([`nqueens::join::TASK_NANOS`]): whether the weights keep tasks within minutes.
//!
//! `join_partition sizes N`: for each "TASK PART" line read (the second and third
//! columns of `sample`'s lines), its partition's half-boards west and east made and counted, their
//! estimates from the odds of holding each cut (with the ramp by rows, and without), the
//! quarter entries its sides read, its work (the pairs of a group and a query its count
//! tests, over all its pieces) and west pieces, and each cut's odds of being held by its
//! west and its east half-boards (comma-separated, in the order the cuts are taken): what
//! the weights' formula is fitted to. `sizes N 1`: also each side of its unit made whole
//! and counted, west and east, beside their estimates (slow: every partition's half-boards).
//!
//! `join_partition queries N`: for each "TASK PART" line read, each east piece of the part
//! beside its first west piece, twice: its work and half-boards, and the time of querying it
//! alone, as `--estimate` times a drawn piece: what east pieces are drawn by.
//!
//! `join_partition parts N UNITS`: the same units joined the engine's way (its partition
//! bits), each partition timed against its weight: time / weight per partition.
//!
//! `join_partition ways N PARTS SEED SEARCH`: parts drawn as `sample` draws them, each
//! counted the engine's way and the second way (`--double-check`, `audit`), alternately,
//! and (`SEARCH` = 1, whole units only) by the search kept to the rows' columns; the
//! values checked equal, and each way's thread time: what a check costs against the count.
//!
//! `join_partition traffic N PARTS SEED CACHE_KB TIMED`: parts drawn as `sample` draws them,
//! each part's first west piece beside every east piece: the tests its count makes, the
//! bytes of row numbers it reads, and how many bytes come from beyond a cache of `CACHE_KB`
//! (a model of it: `nqueens::join::Traffic`); with `TIMED` = 1, the heaviest east piece's
//! query timed as `--estimate` times a drawn piece (thread time), its nanoseconds per test
//! and the bandwidth beyond the cache that asks of one core.
//!
//! `join_partition cost N PARTS SEED [PLAIN]`: what a solution costs and where the time goes.
//! `PARTS` parts drawn as `sample` draws them (0: every part of every task, a whole count),
//! each counted whole on one thread, timed by its processor time (`Plan::part_cost`): its
//! solutions, the hot loop's 512-lane tests (a query against a group) and the pairs of
//! half-boards they test (each test's group's members, 512 or fewer), and its seconds by
//! step: making the half-boards, the index and the rest, filing the queries, the walk of
//! groups and queries (timed alone), the hot loop (the walk with it less the walk alone); and
//! the quarter slices it built (n = 26 on, as if no part before had built them; not in its
//! seconds). `PLAIN` = 1: each part also counted plainly (`run_part`), before or after by
//! turns, its value checked equal and its seconds printed. Then a Markdown row: per solution
//! and per test, each drawn part's figures divided by its odds of being drawn (its weight),
//! so that their sums estimate the whole count's.
//!
//! `join_partition diagonals N...`: for even `N`, every west half-board of every set of rows
//! enumerated (a search of its own, not the engine's), by whether it holds a queen on the
//! north-west quarter's cells of the long diagonal r = c and on the south-west quarter's of
//! r + c = n - 1 (an east half-board is the mirror image of a west one: the same odds for the
//! north-east quarter's r + c = n - 1 and the south-east's r = c); and the pairs of half-boards
//! (all sets of rows) the four-fold symmetry of today (reversal and complement of the rows)
//! and the eight-fold one through the long diagonals (the north-south flip of the rows; east
//! half-boards kept only with both long diagonals empty; west ones with both empty skipped
//! where the mirror factor is 0) would test, before any cut, and among the pairs whose long
//! diagonals do not meet (the index's first two cuts are those diagonals). A Markdown row
//! per `N`.

use nqueens::join::Plan;
use std::time::Instant;

fn usage() -> ! {
    eprintln!(
        "usage: join_partition check N K... | time N UNITS REPS K... | parts N UNITS | plan N | fit N UNITS | sample N PARTS SEED | drawn N PARTS SEED K... | draws N PARTS SEED DRAWS WHOLE | estimate N SECONDS THREADS | largest N TASKS | sizes N [1] | queries N | ways N PARTS SEED SEARCH | traffic N PARTS SEED CACHE_KB TIMED | cost N PARTS SEED [PLAIN] | diagonals N..."
    );
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nums: Vec<usize> = args.iter().skip(1).filter_map(|a| a.parse().ok()).collect();
    match (args.first().map(String::as_str), nums.as_slice()) {
        (Some("check"), [n, ks @ ..]) => check(*n as u32, ks),
        (Some("time"), [n, units, reps, ks @ ..]) => time(*n as u32, *units, *reps, ks),
        (Some("parts"), [n, units]) => parts(*n as u32, *units),
        (Some("plan"), [n]) => plan(*n as u32),
        (Some("fit"), [n, units]) => fit(*n as u32, *units),
        (Some("sample"), [n, parts, seed]) => sample(*n as u32, *parts, *seed as u64),
        (Some("drawn"), [n, parts, seed, ks @ ..]) if !ks.is_empty() => {
            drawn(*n as u32, *parts, *seed as u64, ks)
        }
        (Some("largest"), [n, tasks]) => largest(*n as u32, *tasks),
        (Some("sizes"), [n]) => sizes(*n as u32, false),
        (Some("sizes"), [n, whole]) => sizes(*n as u32, *whole == 1),
        (Some("estimate"), [n, seconds, threads]) => estimate(*n as u32, *seconds as u64, *threads),
        (Some("draws"), [n, parts, seed, d, whole]) => {
            draws(*n as u32, *parts, *seed as u64, *d, *whole == 1)
        }
        (Some("queries"), [n]) => queries(*n as u32),
        (Some("ways"), [n, parts, seed, search]) => {
            ways(*n as u32, *parts, *seed as u64, *search == 1)
        }
        (Some("traffic"), [n, parts, seed, cache_kb, timed]) => traffic(
            *n as u32,
            *parts,
            *seed as u64,
            *cache_kb as u64,
            *timed == 1,
        ),
        (Some("cost"), [n, parts, seed]) => cost(*n as u32, *parts, *seed as u64, false),
        (Some("cost"), [n, parts, seed, plain]) => {
            cost(*n as u32, *parts, *seed as u64, *plain == 1)
        }
        (Some("diagonals"), ns) if !ns.is_empty() => diagonals(ns),
        _ => usage(),
    }
}

/// `cost N PARTS SEED [PLAIN]` (see the file's head).
fn cost(n: u32, parts: usize, seed: u64, plain: bool) {
    let start = Instant::now();
    let plan = Plan::new(n, 14);
    let clock = || std::time::Duration::from_secs_f64(thread_seconds());
    let picked: Vec<(usize, usize)> = if parts == 0 {
        (0..plan.len())
            .flat_map(|i| (0..plan.parts(i)).map(move |p| (i, p)))
            .collect()
    } else {
        drawn_parts(&plan, parts, seed)
    };
    let all: u128 = (0..plan.len()).map(|i| u128::from(plan.weight(i))).sum();
    println!(
        "# n = {n}: plan {:.1} s, {} tasks, {} parts counted",
        start.elapsed().as_secs_f64(),
        plan.len(),
        picked.len()
    );
    let head = "n\ttask\tpart\tweight\tsolutions\ttests\tpairs_tested\tseconds\tgeneration\tindex_rest\tqueries\twalk\thot\tslices\tplain";
    if parts > 0 {
        println!("{head}");
    }
    // Sums of each figure times the part's scale: 1 in a whole count, else its odds' inverse
    // (the weight of all over the part's, over the parts drawn).
    let mut sum = Sums::default();
    for (k, &(i, part)) in picked.iter().enumerate() {
        let timed_plain = || {
            let start = thread_seconds();
            let value = std::hint::black_box(plan.run_part(i, part));
            (value, thread_seconds() - start)
        };
        let (mut plain_value, mut plain_s) = (None, f64::NAN);
        if plain && k % 2 == 0 {
            (plain_value, plain_s) = timed_plain().map_first(Some);
        }
        let c = plan.part_cost(i, part, &clock);
        if plain && k % 2 == 1 {
            (plain_value, plain_s) = timed_plain().map_first(Some);
        }
        if let Some(v) = plain_value {
            assert_eq!(v, c.solutions, "task {i} part {part}");
        }
        let weight = plan.part_weight(i, part);
        let scale = if parts == 0 {
            1.0
        } else {
            all as f64 / weight.max(1) as f64 / picked.len() as f64
        };
        sum.add(&c, scale, plain_s);
        if parts > 0 {
            println!(
                "{n}\t{i}\t{part}\t{weight}\t{}\t{}\t{}\t{:.4}\t{:.4}\t{:.4}\t{:.4}\t{:.4}\t{:.4}\t{:.4}\t{plain_s:.4}",
                c.solutions,
                c.tests,
                c.pairs_tested,
                c.seconds,
                c.generation,
                c.seconds - c.generation - c.queries - c.walk - c.hot,
                c.queries,
                c.walk,
                c.hot,
                c.slices,
            );
        }
    }
    sum.print(n, picked.len(), parts == 0, start.elapsed().as_secs_f64());
}

/// `(a, b)` with `f` applied to `a`.
trait MapFirst<A, B> {
    fn map_first<C>(self, f: impl FnOnce(A) -> C) -> (C, B);
}

impl<A, B> MapFirst<A, B> for (A, B) {
    fn map_first<C>(self, f: impl FnOnce(A) -> C) -> (C, B) {
        (f(self.0), self.1)
    }
}

/// `cost`'s sums, each part's figures times its scale.
#[derive(Default)]
struct Sums {
    solutions: f64,
    tests: f64,
    pairs: f64,
    seconds: f64,
    generation: f64,
    queries: f64,
    walk: f64,
    hot: f64,
    slices: f64,
    plain: f64,
    exact: u128,
}

impl Sums {
    fn add(&mut self, c: &nqueens::join::Cost, scale: f64, plain: f64) {
        self.solutions += c.solutions as f64 * scale;
        self.exact += c.solutions;
        self.tests += c.tests as f64 * scale;
        self.pairs += c.pairs_tested as f64 * scale;
        self.seconds += c.seconds * scale;
        self.generation += c.generation * scale;
        self.queries += c.queries * scale;
        self.walk += c.walk * scale;
        self.hot += c.hot * scale;
        self.slices += c.slices * scale;
        self.plain += plain * scale;
    }

    /// The Markdown table's header and this count's row.
    fn print(&self, n: u32, parts: usize, whole: bool, wall: f64) {
        let known = nqueens::known::total(n);
        let check = match (whole, known) {
            (true, Some(q)) if q == self.exact => "exact".to_string(),
            (true, Some(_)) => "WRONG".to_string(),
            (false, Some(q)) => format!("{:.3} of Q(n)", self.solutions / q as f64),
            _ => "Q(n) unknown".to_string(),
        };
        let sol = self.solutions;
        let rest = self.seconds - self.generation - self.queries - self.walk - self.hot;
        let share = |x: f64| format!("{:.1} %", 100.0 * x / self.seconds);
        let plain = if self.plain.is_nan() {
            "-".to_string()
        } else {
            format!("{:.3}", self.plain / self.seconds)
        };
        println!(
            "# n = {n}: {parts} parts, {wall:.0} s; solutions {sol:.4e} ({check}); seconds {:.4e}, plain counts / measured {plain}",
            self.seconds
        );
        println!(
            "| n | parts | pairs tested / solution | 512-lane tests / solution | pairs / test | ns / test, hot loop | ns / test, walk + queries + hot | core-ns / solution | outside the hot loop | half-boards | index, rest | queries | walk | slices (not in time) |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        println!(
            "| {n} | {parts}{} | {:.1} | {:.3} | {:.1} | {:.3} | {:.3} | {:.3} | {} | {} | {} | {} | {} | {} |",
            if whole { " (all)" } else { "" },
            self.pairs / sol,
            self.tests / sol,
            self.pairs / self.tests,
            self.hot * 1e9 / self.tests,
            (self.hot + self.walk + self.queries) * 1e9 / self.tests,
            self.seconds * 1e9 / sol,
            share(self.seconds - self.hot),
            share(self.generation),
            share(rest),
            share(self.queries),
            share(self.walk),
            share(self.slices),
        );
    }
}

/// `diagonals N...` (see the file's head): a Markdown row per even `N`.
fn diagonals(ns: &[usize]) {
    println!(
        "| n | west half-boards | p: NW holds r = c | p: SW holds r + c = n - 1 | both | neither | pairs with east both empty | 2 (1 - p)^2 | eight-fold / four-fold pairs | the same, long diagonals clear | seconds |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for &n in ns {
        assert!(n % 2 == 0 && (4..=24).contains(&n), "even n from 4 to 24");
        let start = Instant::now();
        let counts = long_diagonal_census(n as u32);
        let d = Diagonal::tally(n as u32, &counts);
        let h: u64 = counts.iter().flatten().sum();
        let share = |k: &[usize]| k.iter().map(|&f| d.held[f]).sum::<u64>() as f64 / h as f64;
        let p = share(&[1, 3]);
        println!(
            "| {n} | {h} | {p:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.1} |",
            share(&[2, 3]),
            share(&[3]),
            share(&[0]),
            d.east_empty as f64 / d.pairs as f64,
            2.0 * (1.0 - p) * (1.0 - p),
            d.eight as f64 / d.four as f64,
            d.eight as f64 / d.four_clear as f64,
            start.elapsed().as_secs_f64()
        );
    }
}

/// For each set of rows `t` (bit `r` for row `r`) of an n x n board, its west half-boards
/// (one queen in each of the west `n / 2` columns, in the rows of `t`, none attacking
/// another) by flags: 1 when one holds the cell of r = c in the north-west quarter, 2 when
/// one holds that of r + c = n - 1 in the south-west quarter.
fn long_diagonal_census(n: u32) -> Vec<[u64; 4]> {
    let mut counts = vec![[0u64; 4]; 1 << n];
    let mut census = Census {
        n,
        h: n / 2,
        counts: &mut counts,
    };
    census.walk(0, 0, n / 2, [0, 0, 0], 0);
    counts
}

/// The search of [`long_diagonal_census`].
struct Census<'a> {
    n: u32,
    h: u32,
    counts: &'a mut [[u64; 4]],
}

impl Census<'_> {
    /// The flag of a queen at `row`, `col`.
    fn flag(&self, row: u32, col: u32) -> usize {
        usize::from(row < self.h && col == row)
            | usize::from(row >= self.h && col + row == self.n - 1) << 1
    }

    /// Rows `row..` of the placements of `left` more queens, on `rows` so far, with the
    /// columns `[used, main, anti]` taken in this row (a main diagonal's moves one column up
    /// a row, an anti's one down) and the `flags` so far.
    fn walk(&mut self, row: u32, rows: u32, left: u32, [cols, main, anti]: [u64; 3], flags: usize) {
        let full = (1u64 << self.h) - 1;
        if left == 1 {
            // The last queen, in any row from here on: its columns counted at once.
            for r in row..self.n {
                let k = r - row;
                let free = !(cols | main << k | anti >> k) & full;
                // The one cell of the row on a long diagonal, in the west half.
                let on = if r < self.h { r } else { self.n - 1 - r };
                let hit = free >> on & 1;
                let flag = self.flag(r, on);
                let count = &mut self.counts[(rows | 1 << r) as usize];
                count[flags | flag] += hit;
                count[flags] += u64::from(free.count_ones()) - hit;
            }
            return;
        }
        if self.n - row > left {
            self.walk(
                row + 1,
                rows,
                left,
                [cols, (main << 1) & full, anti >> 1],
                flags,
            );
        }
        let mut free = !(cols | main | anti) & full;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let flags = flags | self.flag(row, bit.trailing_zeros());
            let next = [cols | bit, ((main | bit) << 1) & full, (anti | bit) >> 1];
            self.walk(row + 1, rows | 1 << row, left - 1, next, flags);
        }
    }
}

/// `diagonals`' sums over the sets of rows `s` of the east half (the west half on the
/// others): the half-boards by flags, and the pairs of half-boards of each kind.
#[derive(Default)]
struct Diagonal {
    /// West half-boards by flags ([`long_diagonal_census`]).
    held: [u64; 4],
    /// All pairs, and those whose east half-board holds neither long diagonal.
    pairs: u128,
    east_empty: u128,
    /// The pairs the four-fold symmetry tests (one set of each orbit of reversal and
    /// complement), and those of them whose long diagonals do not meet.
    four: u128,
    four_clear: u128,
    /// The pairs the eight-fold symmetry tests (sets no greater than their reversal; east
    /// half-boards with both long diagonals empty; west ones with both empty skipped where
    /// the mirror factor is 0).
    eight: u128,
}

impl Diagonal {
    fn tally(n: u32, counts: &[[u64; 4]]) -> Diagonal {
        let all = (1u32 << n) - 1;
        let reverse = |s: u32| s.reverse_bits() >> (32 - n);
        let mut d = Diagonal::default();
        for (t, c) in counts.iter().enumerate() {
            (0..4).for_each(|f| d.held[f] += c[f]);
            let s = t as u32;
            if s.count_ones() != n / 2 {
                continue;
            }
            // The east half-boards on `s` are the mirror images of the west ones on `s`:
            // flag 1 (north-west, r = c) becomes the north-east's r + c = n - 1, flag 2 the
            // south-east's r = c.
            let (w, e) = (counts[(all & !s) as usize], c);
            let (wt, et) = (w.iter().sum::<u64>() as u128, e.iter().sum::<u64>() as u128);
            d.pairs += wt * et;
            d.east_empty += wt * e[0] as u128;
            let r = reverse(s);
            if s == s.min(r).min(all & !s).min(all & !r) {
                d.four += wt * et;
                for (wf, &wc) in w.iter().enumerate() {
                    for (ef, &ec) in e.iter().enumerate() {
                        // West r = c (1) meets east r = c (2); west r + c (2), east r + c (1).
                        if wf & 1 & (ef >> 1) == 0 && (wf >> 1) & ef & 1 == 0 {
                            d.four_clear += wc as u128 * ec as u128;
                        }
                    }
                }
            }
            if s <= r {
                let agree = !(s ^ r) & all;
                let skipped = agree != 0 && s >> agree.trailing_zeros() & 1 == 0;
                let west = wt - if skipped { w[0] as u128 } else { 0 };
                d.eight += e[0] as u128 * west;
            }
        }
        d
    }
}

/// `traffic N PARTS SEED CACHE_KB TIMED` (see the file's head).
fn traffic(n: u32, parts: usize, seed: u64, cache_kb: u64, timed: bool) {
    let plan = Plan::new(n, 14);
    let clock = || std::time::Duration::from_secs_f64(thread_seconds());
    println!(
        "n\ttask\tpart\teast_pieces\ttests\tquery_B_per_test\tbeyond_query_B_per_test\tbeyond_table_B_per_test\ttimed_tests\ttimed_beyond_B_per_test\tns_per_test\tGB_per_s"
    );
    let mut all = nqueens::join::Traffic::default();
    let (mut timed_all, mut seconds_all) = (nqueens::join::Traffic::default(), 0.0);
    for (i, part) in drawn_parts(&plan, parts, seed) {
        let pieces = plan.east_piece_traffic(i, part, 0, cache_kb << 10);
        let mut sum = nqueens::join::Traffic::default();
        pieces.iter().for_each(|&t| sum += t);
        all += sum;
        let per = |bytes: u64, t: &nqueens::join::Traffic| bytes as f64 / t.tests.max(1) as f64;
        let (heaviest, piece) = pieces
            .iter()
            .enumerate()
            .max_by_key(|(_, t)| t.tests)
            .map(|(k, t)| (k, *t))
            .unwrap_or_default();
        let (ns, gbs) = if timed && piece.tests > 0 {
            let secs = plan.east_piece_seconds(i, part, 0, heaviest, &clock);
            timed_all += piece;
            seconds_all += secs;
            let ns = secs * 1e9 / piece.tests as f64;
            (ns, piece.beyond_per_test() / ns)
        } else {
            (f64::NAN, f64::NAN)
        };
        println!(
            "{n}\t{i}\t{part}\t{}\t{}\t{:.3}\t{:.3}\t{:.3}\t{}\t{:.3}\t{ns:.3}\t{gbs:.3}",
            pieces.len(),
            sum.tests,
            per(sum.query_bytes, &sum),
            per(sum.query_bytes_beyond, &sum),
            per(sum.table_bytes_beyond, &sum),
            piece.tests,
            piece.beyond_per_test(),
        );
    }
    let per = |bytes: u64| bytes as f64 / all.tests.max(1) as f64;
    print!(
        "# n = {n}: {parts} parts, {} tests; per test {:.3} bytes of row numbers, {:.3} from beyond {cache_kb} KB ({:.3} of them tables)",
        all.tests,
        per(all.query_bytes),
        all.beyond_per_test(),
        per(all.table_bytes_beyond),
    );
    if timed_all.tests > 0 {
        let ns = seconds_all * 1e9 / timed_all.tests as f64;
        print!(
            "; timed pieces {ns:.3} ns a test, {:.3} bytes beyond a test: {:.3} GB/s a core",
            timed_all.beyond_per_test(),
            timed_all.beyond_per_test() / ns
        );
    }
    println!();
}

fn check(n: u32, ks: &[usize]) {
    let plan = Plan::with_policy(n, 14, None);
    for &k in ks {
        let start = Instant::now();
        let total: u128 = (0..plan.len())
            .map(|i| plan.run_unit_partitioned(i, 0, k as u8))
            .sum();
        let known = nqueens::known::total(n);
        let verdict = if Some(total) == known {
            "exact"
        } else {
            "WRONG"
        };
        let secs = start.elapsed().as_secs_f64();
        println!("n = {n} k = {k}: {total} ({verdict}) {secs:.2} s");
    }
}

/// Units (tasks of a plan of one unit each, unpartitioned) at quantiles of the weight.
fn pick(plan: &Plan, units: usize) -> Vec<usize> {
    let start = Instant::now();
    let weights: Vec<u64> = (0..plan.len()).map(|i| plan.part_weight(i, 0)).collect();
    let mut order: Vec<usize> = (0..plan.len()).collect();
    order.sort_by_key(|&i| weights[i]);
    let all: u128 = weights.iter().map(|&w| u128::from(w)).sum();
    let mut picked = Vec::new();
    let (mut sum, mut q) = (0u128, 0);
    for &i in &order {
        sum += u128::from(weights[i]);
        while q < units && sum * (units as u128 + 1) >= all * (q as u128 + 1) {
            picked.push(i);
            q += 1;
        }
    }
    println!(
        "{} units, total weight {all}, weights {:.1} s; picked {picked:?} weighing {:?}",
        plan.len(),
        start.elapsed().as_secs_f64(),
        picked.iter().map(|&i| weights[i]).collect::<Vec<_>>()
    );
    picked
}

fn time(n: u32, units: usize, reps: usize, ks: &[usize]) {
    let plan = Plan::with_policy(n, 14, None);
    for i in pick(&plan, units) {
        let mut best = vec![f64::INFINITY; ks.len() + 1];
        let mut whole = 0;
        for _ in 0..reps {
            let start = Instant::now();
            whole = plan.run_unit_partitioned(i, 0, 0);
            best[0] = best[0].min(start.elapsed().as_secs_f64());
            for (j, &k) in ks.iter().enumerate() {
                let start = Instant::now();
                let count = plan.run_unit_partitioned(i, 0, k as u8);
                best[j + 1] = best[j + 1].min(start.elapsed().as_secs_f64());
                assert_eq!(count, whole, "unit {i}, k = {k}");
            }
        }
        let ks: Vec<String> = ks
            .iter()
            .zip(&best[1..])
            .map(|(k, t)| format!("k = {k}: {t:.2} s"))
            .collect();
        println!(
            "unit {i} count {whole}: whole {:.2} s; {}",
            best[0],
            ks.join(", ")
        );
    }
}

/// The engine's plan, and the tasks of each unit `pick` picks (from a plan of whole units,
/// one a task), with its west rows.
fn picked_tasks(n: u32, units: usize) -> (Plan, Vec<(u32, Vec<usize>)>) {
    let whole = Plan::with_policy(n, 14, None);
    let picked: Vec<u32> = pick(&whole, units)
        .into_iter()
        .map(|i| whole.west_rows(i, 0))
        .collect();
    let plan = Plan::new(n, 14);
    let tasks = picked
        .into_iter()
        .map(|west| {
            let tasks = (0..plan.len())
                .filter(|&i| plan.west_rows(i, 0) == west)
                .collect();
            (west, tasks)
        })
        .collect();
    (plan, tasks)
}

fn parts(n: u32, units: usize) {
    let (plan, picked) = picked_tasks(n, units);
    println!("{} tasks", plan.len());
    for (west, tasks) in picked {
        let (mut secs, mut weight, mut ratios) = (0.0, 0u64, Vec::new());
        for &i in &tasks {
            for part in 0..plan.parts(i) {
                let start = Instant::now();
                std::hint::black_box(plan.run_part(i, part));
                let t = start.elapsed().as_secs_f64();
                let w = plan.part_weight(i, part);
                ratios.push(t * 1e9 / w as f64);
                secs += t;
                weight += w;
            }
        }
        ratios.sort_by(f64::total_cmp);
        let bits = plan.partition_bits(tasks[0]);
        println!(
            "unit {west:#x}: {} tasks, {bits} bits, {secs:.2} s, weight {weight} ({:.2} ns/weight); \
             partitions' ns/weight min {:.2} median {:.2} max {:.2}",
            tasks.len(),
            secs * 1e9 / weight as f64,
            ratios[0],
            ratios[ratios.len() / 2],
            ratios[ratios.len() - 1]
        );
    }
}

fn plan(n: u32) {
    let start = Instant::now();
    let plan = Plan::new(n, 14);
    let made = start.elapsed().as_secs_f64();
    let mut units = [0usize; nqueens::join::MAX_BITS as usize + 1];
    let (mut largest, mut total) = (0u64, 0u128);
    // FNV-1a over every task's weight, units and first partition: equal digests, equal
    // task numberings (for checking that a faster plan makes the same tasks).
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    for i in 0..plan.len() {
        let bits = u64::from(plan.partition_bits(i));
        let task = [
            plan.weight(i),
            plan.parts(i) as u64,
            bits,
            u64::from(plan.partition_value(i, 0)),
        ];
        for byte in task.iter().flat_map(|x| x.to_le_bytes()) {
            digest = (digest ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A unit's first run of partitions counts it; a task of whole units counts them all.
        let bits = plan.partition_bits(i);
        if bits == 0 {
            units[0] += plan.parts(i);
        } else if plan.partition_value(i, 0) == 0 {
            units[bits as usize] += 1;
        }
        let w = plan.weight(i);
        largest = largest.max(w);
        total += u128::from(w);
    }
    println!(
        "n = {n}: plan {made:.1} s, {} tasks, weight {total} (largest task {largest}); \
         units by partition bits {units:?}; digest {digest:016x}",
        plan.len()
    );
}

fn fit(n: u32, units: usize) {
    let (plan, picked) = picked_tasks(n, units);
    println!("n\tunit\tbits\twest_pairs\teast_pairs\tweight\tseconds");
    for (west, tasks) in picked {
        let (w, e) = plan.pairs(tasks[0], 0);
        let start = Instant::now();
        for &i in &tasks {
            std::hint::black_box(plan.run(i));
        }
        let secs = start.elapsed().as_secs_f64();
        let weight: u64 = tasks.iter().map(|&i| plan.weight(i)).sum();
        let bits = plan.partition_bits(tasks[0]);
        println!("{n}\t{west:#x}\t{bits}\t{w}\t{e}\t{weight}\t{secs:.3}");
    }
}

/// The processor time of the calling thread.
fn thread_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write into; the clock exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// `parts` parts of the plan's tasks, drawn with chances in proportion to their weights from
/// `seed`: points drawn uniformly along the tasks' weights end to end, then the part within
/// the task likewise.
fn drawn_parts(plan: &Plan, parts: usize, seed: u64) -> Vec<(usize, usize)> {
    let mut line = Vec::with_capacity(plan.len());
    let mut total = 0u128;
    for i in 0..plan.len() {
        total += u128::from(plan.weight(i));
        line.push(total);
    }
    // Spread over all 64 bits first: from a small seed, xorshift's first outputs are small
    // too, and the first part drawn was always one of the first tasks.
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..parts)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let point = (u128::from(x) * total) >> 64;
            let i = line.partition_point(|&end| end <= point);
            let mut within = point - if i == 0 { 0 } else { line[i - 1] };
            let mut part = 0;
            while part + 1 < plan.parts(i) && within >= u128::from(plan.part_weight(i, part)) {
                within -= u128::from(plan.part_weight(i, part));
                part += 1;
            }
            (i, part)
        })
        .collect()
}

/// `drawn N PARTS SEED K...`: each drawn part's unit timed in `2^K` partitions for each `K`,
/// and the sums of time over weight (a unit is drawn in proportion to its weight) relative
/// to the first `K`'s.
fn drawn(n: u32, parts: usize, seed: u64, ks: &[usize]) {
    let plan = Plan::new(n, 14);
    let mut sums = vec![0f64; ks.len()];
    for (i, part) in drawn_parts(&plan, parts, seed) {
        let (at, weight) = if plan.partition_bits(i) > 0 {
            (0, plan.weight(i))
        } else {
            (part, plan.part_weight(i, part))
        };
        let mut line = format!(
            "task {i} part {at} bits {} weight {weight}:",
            plan.partition_bits(i)
        );
        for (j, &k) in ks.iter().enumerate() {
            let start = thread_seconds();
            std::hint::black_box(plan.run_unit_partitioned(i, at, k as u8));
            let secs = thread_seconds() - start;
            sums[j] += secs / weight as f64;
            line += &format!(" k={k} {secs:.3}");
        }
        println!("{line}");
    }
    let first = sums[0];
    let rel: Vec<String> = sums.iter().map(|s| format!("{:.3}", s / first)).collect();
    println!(
        "time / weight summed, relative to k = {}: {}",
        ks[0],
        rel.join(" ")
    );
}

fn sample(n: u32, parts: usize, seed: u64) {
    let plan = Plan::new(n, 14);
    println!(
        "n\ttask\tpart\tbits\tones\twest_pairs\teast_pairs\twest_halves\teast_halves\tweight\tseconds"
    );
    for (i, part) in drawn_parts(&plan, parts, seed) {
        let (w, e) = plan.pairs(i, part);
        let (hw, he) = plan.halves(i, part);
        let start = thread_seconds();
        std::hint::black_box(plan.run_part(i, part));
        let secs = thread_seconds() - start;
        let bits = plan.partition_bits(i);
        let ones = plan.partition_value(i, part).count_ones();
        let weight = plan.part_weight(i, part);
        println!("{n}\t{i}\t{part}\t{bits}\t{ones}\t{w}\t{e}\t{hw}\t{he}\t{weight}\t{secs:.4}");
    }
}

/// `ways N PARTS SEED SEARCH`: drawn parts counted the engine's way, the second way, and
/// (`search`) the search kept to their rows' columns, their thread times and the totals'
/// ratios.
fn ways(n: u32, parts: usize, seed: u64, search: bool) {
    let plan = Plan::new(n, 14);
    let timed = |f: &dyn Fn() -> u128| {
        let start = thread_seconds();
        let value = std::hint::black_box(f());
        (value, thread_seconds() - start)
    };
    println!("n\ttask\tpart\tfirst_s\tsecond_s\tsearch_s");
    let (mut first_sum, mut second_sum, mut search_sum) = (0.0, 0.0, 0.0);
    for (k, (i, part)) in drawn_parts(&plan, parts, seed).into_iter().enumerate() {
        // Alternated: the first way first in even rows, the second in odd ones.
        let first = || plan.run_part(i, part);
        let second = || plan.run_part_second_way(i, part);
        let ((a, ta), (b, tb)) = if k % 2 == 0 {
            let a = timed(&first);
            (a, timed(&second))
        } else {
            let b = timed(&second);
            (timed(&first), b)
        };
        assert_eq!(a, b, "task {i} part {part}");
        let ts = if search && plan.partition_bits(i) == 0 {
            let start = thread_seconds();
            let value = plan.run_part_restricted(i, part);
            assert_eq!(value, a, "task {i} part {part}: the search");
            thread_seconds() - start
        } else {
            0.0
        };
        first_sum += ta;
        second_sum += tb;
        search_sum += ts;
        println!("{n}\t{i}\t{part}\t{ta:.4}\t{tb:.4}\t{ts:.4}");
    }
    println!(
        "# n = {n}: {parts} parts, the first way {first_sum:.2} s, the second {second_sum:.2} s \
         ({:.3} times), the search {search_sum:.2} s ({:.1} times)",
        second_sum / first_sum,
        search_sum / first_sum
    );
}

/// `draws N PARTS SEED DRAWS WHOLE`: parts drawn as `sample` draws them (`PARTS` = 0: the
/// parts named on standard input, as `sizes` reads them), each timed the way
/// `--estimate` times it (`Plan::time_part`) with `DRAWS` seeds, and (when `WHOLE` is 1) run
/// whole: how far one draw's time is from the part's.
fn draws(n: u32, parts: usize, seed: u64, draws: usize, whole: bool) {
    let plan = Plan::new(n, 14);
    let clock = || std::time::Duration::from_secs_f64(thread_seconds());
    println!("n\ttask\tpart\tweight\twhole\tdraws");
    let picked = if parts == 0 {
        stdin_parts()
    } else {
        drawn_parts(&plan, parts, seed)
    };
    for (i, part) in picked {
        let times: Vec<String> = (0..draws as u64)
            .map(|d| {
                // One seed a draw: `time_part` spreads it over its bits itself.
                let draw = seed.wrapping_add(d);
                format!("{:.4}", plan.time_part(i, part, draw, &clock).as_secs_f64())
            })
            .collect();
        let secs = if whole {
            let start = thread_seconds();
            std::hint::black_box(plan.run_part(i, part));
            thread_seconds() - start
        } else {
            0.0
        };
        let weight = plan.part_weight(i, part);
        println!("{n}\t{i}\t{part}\t{weight}\t{secs:.4}\t{}", times.join(","));
    }
}

/// `estimate N SECONDS THREADS`: the engine's own `--estimate` (a budget of `SECONDS`, each
/// part timed by its thread's processor time), and every part it timed, in increasing time
/// per weight: which parts make its `rate_spread`.
fn estimate(n: u32, seconds: u64, threads: usize) {
    let mut job = nqueens::Counter::new()
        .engine(nqueens::Engine::Join)
        .threads(threads)
        .prepare(n)
        .unwrap();
    let clock = || std::time::Duration::from_secs_f64(thread_seconds());
    let estimate = job
        .estimate_with_clock(std::time::Duration::from_secs(seconds), &clock)
        .unwrap();
    // The estimate's task numbers are its job's plan's (at the count's split depth, 10 at
    // n = 24), not those of a plan at the depth 14 the other tools take.
    let nqueens::Plan::Join(plan) = &job.plan else {
        unreachable!("a job prepared for the join engine holds a join plan")
    };
    let mut timed = estimate.timed.clone();
    timed.sort_by(|a, b| (a.seconds / a.weight as f64).total_cmp(&(b.seconds / b.weight as f64)));
    println!(
        "# n = {n}: {:.4e} core-s, error {:.3}, {} parts timed, rate_spread {:.2}",
        estimate.core_seconds,
        estimate.error,
        estimate.sampled,
        estimate.rate_spread.unwrap_or(1.0)
    );
    println!("n\ttask\tpart\tbits\tparts\tweight\tseconds\tps_per_weight");
    for t in timed {
        let (bits, parts) = (plan.partition_bits(t.task), plan.parts(t.task));
        let rate = t.seconds / t.weight as f64 * 1e12;
        println!(
            "{n}\t{}\t{}\t{bits}\t{parts}\t{}\t{:.4}\t{rate:.1}",
            t.task, t.part, t.weight, t.seconds
        );
    }
}

fn largest(n: u32, tasks: usize) {
    let start = Instant::now();
    let plan = Plan::new(n, 14);
    let cap = nqueens::join::Policy::for_board(n).map_or(u64::MAX, |p| p.task_cap);
    let mut order: Vec<usize> = (0..plan.len()).collect();
    order.sort_by_cached_key(|&i| std::cmp::Reverse(plan.weight(i)));
    println!(
        "n = {n}: {} tasks, plan {:.1} s; cap {cap} ({} s)",
        plan.len(),
        start.elapsed().as_secs_f64(),
        nqueens::join::TASK_NANOS / 1_000_000_000
    );
    println!("n\ttask\tbits\tparts\tweight\tcapped_seconds\tseconds");
    let cap_seconds = nqueens::join::TASK_NANOS as f64 * 1e-9;
    for &i in order.iter().take(tasks) {
        let weight = plan.weight(i);
        let start = thread_seconds();
        std::hint::black_box(plan.run(i));
        let secs = thread_seconds() - start;
        let capped = weight as f64 / cap as f64 * cap_seconds;
        let (bits, parts) = (plan.partition_bits(i), plan.parts(i));
        println!("{n}\t{i}\t{bits}\t{parts}\t{weight}\t{capped:.1}\t{secs:.1}");
    }
}

/// The parts named by the lines of standard input: the first two numbers of each line, the
/// task and the part (`sample` and `estimate` print `n` before them: `cut -f2,3` their
/// lines).
fn stdin_parts() -> Vec<(usize, usize)> {
    use std::io::BufRead;
    std::io::stdin()
        .lock()
        .lines()
        .filter_map(|line| {
            let line = line.expect("stdin");
            let mut it = line
                .split_whitespace()
                .filter_map(|x| x.parse::<usize>().ok());
            Some((it.next()?, it.next()?))
        })
        .collect()
}

/// `queries N`: each east piece of each part named on standard input, beside the part's
/// first west piece, timed twice.
fn queries(n: u32) {
    let plan = Plan::new(n, 14);
    let clock = || std::time::Duration::from_secs_f64(thread_seconds());
    println!("task\tpart\tround\tpiece\twork\thalf_boards\tseconds");
    for (i, part) in stdin_parts() {
        for round in 0..2 {
            let pieces = plan.east_piece_times(i, part, &clock);
            for (piece, (work, halves, secs)) in pieces.into_iter().enumerate() {
                println!("{i}\t{part}\t{round}\t{piece}\t{work}\t{halves}\t{secs:.5}");
            }
        }
    }
}

fn sizes(n: u32, whole: bool) {
    let plan = Plan::new(n, 14);
    println!(
        "task\tpart\tvalue\twest\teast\twest_est\teast_est\tentries\twest_plain\teast_plain\twork\twest_pieces\twest_odds\teast_odds\twest_apart\twest_side\teast_sides\twest_side_est\teast_sides_est"
    );
    for (i, part) in stdin_parts() {
        let s = plan.part_sizes(i, part, whole);
        let value = plan.partition_value(i, part);
        let (work, west_pieces) = plan.part_work(i, part);
        let odds = plan.part_odds(i, part).map(|side| {
            side.iter()
                .map(|o| (*o as f64 / 2f64.powi(32)).to_string())
                .collect::<Vec<_>>()
                .join(",")
        });
        println!(
            "{i}\t{part}\t{value}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{work}\t{west_pieces}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            s.west,
            s.east,
            s.west_estimate,
            s.east_estimate,
            s.entries,
            s.without_ramp[0],
            s.without_ramp[1],
            odds[0],
            odds[1],
            s.west_apart,
            s.whole[0],
            s.whole[1],
            s.whole_estimate[0],
            s.whole_estimate[1],
        );
    }
}
