//! Partitioned joins against whole ones, unit by unit, on one thread: how much a unit gains
//! from being joined as `2^K` partitions (what the join engine does from n = 26 on), and
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

use nqueens::join::Plan;
use std::time::Instant;

fn usage() -> ! {
    eprintln!(
        "usage: join_partition check N K... | time N UNITS REPS K... | parts N UNITS | plan N | fit N UNITS | sample N PARTS SEED | draws N PARTS SEED DRAWS WHOLE | estimate N SECONDS THREADS | largest N TASKS | sizes N [1] | queries N | ways N PARTS SEED SEARCH | traffic N PARTS SEED CACHE_KB TIMED"
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
        _ => usage(),
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
    let plan = Plan::new(n, 14);
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
