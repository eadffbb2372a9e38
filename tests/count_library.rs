//! The library's counts against the known table, and their independence of how the work is
//! split and run.

use nqueens::{Counter, Engine, Error, Plan, Symmetry, known};
use std::sync::Mutex;

#[test]
fn counts_of_one_to_fifteen_match_oeis() {
    for n in 1..=15 {
        assert_eq!(
            nqueens::count(n).unwrap(),
            known::total(n).unwrap(),
            "n = {n}"
        );
    }
}

/// Every way of counting: the search with each symmetry, and the join engine.
const ENGINES: [Engine; 3] = [
    Engine::Search(Symmetry::Full),
    Engine::Search(Symmetry::Mirror),
    Engine::Join,
];

/// The engine that counts the n x n board when `engine` is asked for in these tests (the
/// join engine starts at 4: below, the search).
fn engine_for(engine: Engine, n: u32) -> Engine {
    match engine {
        Engine::Join if !nqueens::join::supports(n) => Engine::SEARCH,
        e => e,
    }
}

/// A counter of one of the [`ENGINES`], for a board it supports.
fn counter(engine: Engine, n: u32) -> Counter<'static> {
    Counter::new().engine(engine_for(engine, n))
}

#[test]
fn both_engines_count_one_to_fifteen_with_unique_solutions() {
    for engine in ENGINES {
        for n in 1..=15 {
            let count = counter(engine, n).unique(true).count(n).unwrap();
            assert_eq!(Some(count.solutions), known::total(n), "{engine:?} n {n}");
            let classes = count.classes.unwrap();
            assert_eq!(Some(classes.unique()), known::unique(n), "{engine:?} n {n}");
            assert_eq!(classes.total(), count.solutions);
            assert_eq!(count.engine, engine_for(engine, n), "n {n}");
        }
    }
}

#[test]
fn the_engines_agree_beyond_the_quick_sizes() {
    let counts: Vec<u128> = ENGINES
        .iter()
        .map(|&engine| counter(engine, 16).count(16).unwrap().solutions)
        .collect();
    assert_eq!(counts, [known::total(16).unwrap(); 3]);
}

#[test]
fn auto_takes_the_join_engine_from_its_first_size() {
    let first = nqueens::join::AUTO_FROM;
    let engine = |n| Counter::new().count(n).unwrap().engine;
    assert_eq!(engine(first - 1), Engine::Search(Symmetry::Full));
    assert_eq!(engine(first), Engine::Join);
}

#[test]
fn the_join_engine_refuses_sizes_it_does_not_count() {
    for n in [1, 3, nqueens::join::MAX_N + 1] {
        let result = Counter::new().engine(Engine::Join).count(n);
        assert!(matches!(result, Err(Error::Engine(_))), "n {n}: {result:?}");
    }
    // Auto counts them with the search.
    assert_eq!(nqueens::count(3), Ok(0));
}

#[test]
fn a_tight_memory_limit_gives_the_same_count_in_pieces_or_falls_back() {
    let n = 14;
    let table = nqueens::join::table_bytes(n, 1);
    let per_board = nqueens::join::bytes_per_half_board(n) as u64;
    let least = table + nqueens::join::MIN_PIECE as u64 * per_board;
    // Just enough for the smallest pieces: the join engine runs, in pieces.
    let tight = Counter::new()
        .engine(Engine::Join)
        .threads(1)
        .max_memory(least)
        .count(n)
        .unwrap();
    assert_eq!((tight.solutions, tight.engine), (365_596, Engine::Join));
    // Less than that: the join engine refuses, auto falls back to the search.
    let join = Counter::new()
        .engine(Engine::Join)
        .threads(1)
        .max_memory(least - 1)
        .count(n);
    assert_eq!(
        join,
        Err(Error::Memory {
            needed: least,
            table
        })
    );
    let auto = Counter::new()
        .threads(1)
        .max_memory(least - 1)
        .count(n)
        .unwrap();
    assert_eq!((auto.solutions, auto.engine), (365_596, Engine::SEARCH));
}

#[test]
fn totals_do_not_depend_on_split_depth_or_threads() {
    for engine in ENGINES {
        for n in 1..=13 {
            let expected = known::total(n).unwrap();
            for depth in 1..=8 {
                for threads in [1, 2, 3] {
                    let count = counter(engine, n)
                        .threads(threads)
                        .split_depth(depth)
                        .count(n)
                        .unwrap();
                    let case = format!("{engine:?} n {n} depth {depth} threads {threads}");
                    assert_eq!(count.solutions, expected, "{case}");
                    // Never more workers than tasks.
                    assert_eq!(count.threads, threads.min(count.tasks.max(1)), "{case}");
                    let effective = Plan::effective_depth(n, count.engine, depth).unwrap();
                    assert_eq!(count.split_depth, effective, "{case}");
                    let tasks = Plan::new(n, count.engine, depth).unwrap().len();
                    assert_eq!(count.tasks, tasks, "{case}");
                }
            }
        }
    }
}

#[test]
fn progress_reports_every_task_once() {
    let seen = Mutex::new(Vec::new());
    let record = |p: nqueens::Progress| seen.lock().unwrap().push(p);
    let count = Counter::new()
        .threads(2)
        .split_depth(3)
        .on_progress(&record)
        .count(12)
        .unwrap();
    let mut seen = seen.into_inner().unwrap();
    assert_eq!(seen.len(), count.tasks);
    seen.sort_by_key(|p| p.done);
    for (i, p) in seen.iter().enumerate() {
        assert_eq!(p.done, i + 1);
        assert_eq!(p.total, count.tasks);
    }
}

#[test]
fn bad_arguments_are_errors_not_panics() {
    assert_eq!(nqueens::count(0), Err(Error::BoardSize(0)));
    assert_eq!(nqueens::count(33), Err(Error::BoardSize(33)));
    assert_eq!(Counter::new().threads(0).count(8), Err(Error::NoThreads));
    assert_eq!(
        Counter::new().split_depth(0).count(8),
        Err(Error::SplitDepth(0))
    );
    assert_eq!(
        Counter::new().split_depth(9).count(8),
        Err(Error::SplitDepth(9))
    );
}

#[test]
fn boards_of_two_and_three_have_no_solution() {
    assert_eq!(nqueens::count(2), Ok(0));
    assert_eq!(nqueens::count(3), Ok(0));
}

/// Every solution of a small board by plain recursion over permutations, independent of the
/// engine.
fn brute_force(n: u32) -> Vec<Vec<u8>> {
    fn go(n: u32, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        let row = prefix.len();
        if row == n as usize {
            out.push(prefix.clone());
            return;
        }
        for c in 0..n as u8 {
            let safe = prefix
                .iter()
                .enumerate()
                .all(|(r, &q)| q != c && q.abs_diff(c) as usize != row - r);
            if safe {
                prefix.push(c);
                go(n, prefix, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(n, &mut Vec::new(), &mut out);
    out
}

/// A deterministic stream of pseudo-random numbers below a bound (xorshift).
fn rng(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut state = seed | 1;
    move |bound| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % u64::from(bound)) as u32
    }
}

/// `nqueens::partial`: the completions of a few queens in random rows (attacked or not),
/// counted and the first one found, against the brute-force solutions that hold them.
#[test]
fn partial_counts_and_first_completions_match_brute_force() {
    use nqueens::partial::Partial;
    use std::sync::atomic::AtomicBool;
    let go = AtomicBool::new(false);
    let mut random = rng(7);
    for n in 1..=9 {
        let all = brute_force(n);
        for trial in 0..40 {
            // Up to three queens in random rows, in random (possibly attacked) columns.
            let mut rows = vec![None; n as usize];
            for _ in 0..(trial % 4) {
                rows[random(n) as usize] = Some(random(n));
            }
            let partial = Partial::new(&rows).unwrap();
            let holding: Vec<Vec<u32>> = all
                .iter()
                .filter(|s| {
                    rows.iter()
                        .zip(s.iter())
                        .all(|(r, &c)| r.is_none_or(|r| r == u32::from(c)))
                })
                .map(|s| s.iter().map(|&c| u32::from(c)).collect())
                .collect();
            let count = partial.count(Some(2), &go).unwrap();
            assert_eq!(count, holding.len() as u128, "n {n} rows {rows:?}");
            assert_eq!(
                partial.first(&go).unwrap(),
                holding.first().cloned(),
                "n {n} rows {rows:?}"
            );
            if partial.conflict().is_some() {
                assert_eq!(count, 0);
            }
        }
    }
}

/// The classes the engines report (by Burnside's lemma, from the total and the
/// rotation-fixed solutions) against those found another way: every solution enumerated by
/// brute force, grouped by its canonical form. Up to n = 12 (regression: up to 9 only; past
/// it the classes were checked against the formula they come from).
#[test]
fn engine_class_sizes_match_canonical_forms_of_brute_force_solutions() {
    use nqueens::symmetry::{canonical, class_size};
    for n in 1..=12 {
        let solutions = brute_force(n);
        let mut by_size = [0u128; 9];
        for s in solutions.iter().filter(|s| canonical(s) == **s) {
            by_size[class_size(s)] += 1;
        }
        let brute = [by_size[1], by_size[2], by_size[4], by_size[8]];
        assert_eq!(
            brute.iter().sum::<u128>(),
            known::unique(n).unwrap(),
            "n {n}"
        );
        for engine in ENGINES {
            if n > 10 && engine == Engine::Search(Symmetry::Mirror) {
                continue; // the slowest engine adds nothing new at these sizes
            }
            let count = counter(engine, n).unique(true).count(n).unwrap();
            let classes = count.classes.unwrap();
            assert_eq!(count.solutions, solutions.len() as u128, "{engine:?} n {n}");
            let sizes = [classes.of_1, classes.of_2, classes.of_4, classes.of_8];
            assert_eq!(sizes, brute, "{engine:?} n {n}");
            assert_eq!(
                classes.unique(),
                known::unique(n).unwrap(),
                "{engine:?} n {n}"
            );
        }
    }
}

/// Placements of non-attacking queens (any number, none included) in rows `row..` of an
/// h x h board whose rows above hold the queens of `columns` and the diagonals `left` and
/// `right` (as the classic bitmask search shifts them); the last row in closed form. With
/// `mirror`, only the placements whose set of rows with a queen is its own reversal: a row
/// in the lower half holds a queen exactly when its mirror row above did (`used`).
fn placements(h: u32, row: u32, columns: u32, left: u32, right: u32, mirror: Option<u32>) -> u64 {
    let full = (1u32 << h) - 1;
    let free = !(columns | left | right) & full;
    let mirror_row = h - 1 - row;
    // Whether this row may be left empty, and whether it may hold a queen.
    let (empty, queen) = match mirror {
        Some(used) if row > mirror_row => {
            let held = used >> mirror_row & 1 == 1;
            (!held, held)
        }
        _ => (true, true),
    };
    if row == h - 1 {
        return u64::from(empty)
            + if queen {
                u64::from(free.count_ones())
            } else {
                0
            };
    }
    // The rows of the upper half that hold a queen, once this one is decided.
    let record = |placed: bool| {
        mirror.map(|used| {
            if placed && row <= mirror_row {
                used | 1 << row
            } else {
                used
            }
        })
    };
    let mut total = 0;
    if empty {
        total += placements(
            h,
            row + 1,
            columns,
            (left << 1) & full,
            right >> 1,
            record(false),
        );
    }
    if queen {
        let mut rest = free;
        while rest != 0 {
            let q = rest & rest.wrapping_neg();
            rest ^= q;
            let (left, right) = (((left | q) << 1) & full, (right | q) >> 1);
            total += placements(h, row + 1, columns | q, left, right, record(true));
        }
    }
    total
}

/// Regression: the join engine's quarter table sizes (its entries for h = 10..12, the
/// constants `--max-memory` is checked against without building the table, which takes a
/// minute at h = 12) were never checked. They are counted here another way, in a second:
/// every placement by a bitmask search (the last row in closed form), and those whose rows
/// form a palindrome; from h = 11 on the table keeps the row sets no greater than their
/// reversal, (all + palindromes) / 2 of them.
#[test]
fn quarter_table_sizes_match_an_independent_count() {
    use rayon::prelude::*;
    let counts: Vec<(u32, u64, u64)> = (1..=12u32)
        .into_par_iter()
        .map(|h| {
            (
                h,
                placements(h, 0, 0, 0, 0, None),
                placements(h, 0, 0, 0, 0, Some(0)),
            )
        })
        .collect();
    // h = 2: the empty board, four single queens; h = 3: and 8 pairs (a knight's move apart).
    assert_eq!((counts[1].1, counts[2].1), (5, 18));
    for (h, all, palindromes) in counts {
        let entries = if h >= 11 {
            (all + palindromes) / 2
        } else {
            all
        };
        for n in [2 * h, 2 * h + 1]
            .into_iter()
            .filter(|&n| nqueens::join::supports(n))
        {
            let index = ((1u64 << (2 * h)) + 1) * 4;
            let bytes = nqueens::join::table_bytes(n, 1);
            assert_eq!(
                bytes,
                index + entries * 8,
                "n = {n}, h = {h}: {all} placements"
            );
        }
    }
}

#[test]
fn the_join_engine_and_the_search_agree_on_every_size_to_fourteen() {
    for n in nqueens::join::MIN_N..=14 {
        let search = Counter::new().engine(Engine::SEARCH).count(n).unwrap();
        let join = Counter::new().engine(Engine::Join).count(n).unwrap();
        assert_eq!(join.engine, Engine::Join);
        assert_eq!(join.solutions, search.solutions, "n {n}");
        assert_eq!(Some(join.solutions), known::total(n), "n {n}");
    }
}

/// Regression: `count 29 --estimate` (the search) printed nothing after ten minutes. Its
/// sample timed whole tasks, and a task of n = 29 takes days; the budget was looked at only
/// between them. Each part is now timed from one subtree of milliseconds, scaled, so the
/// estimate keeps to its budget at any size.
#[test]
fn an_estimate_of_the_search_at_n_29_keeps_to_its_budget() {
    let budget = std::time::Duration::from_secs(2);
    let (sender, receiver) = std::sync::mpsc::channel();
    // On a thread of its own: a sample that overruns fails the test instead of hanging it.
    std::thread::spawn(move || {
        let mut job = Counter::new()
            .engine(Engine::SEARCH)
            .threads(1)
            .prepare(29)
            .unwrap();
        let _ = sender.send(job.estimate(budget).unwrap());
    });
    let estimate = receiver
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the estimate of n = 29 ran past 30 s on a budget of 2 s");
    assert!(estimate.sample_seconds < 3.0, "{estimate:?}");
    assert!(estimate.sampled >= 32, "{estimate:?}");
    // Some 10^12 core-seconds: finite, and far beyond n = 18's minute.
    assert!(
        estimate.core_seconds > 1e9 && estimate.core_seconds.is_finite(),
        "{estimate:?}"
    );
}

/// Regression: `count 16 --engine search --split-depth 8` built 5.8 million tasks (3.2 GB),
/// and `count 32 --split-depth 8` aborted on an 8 GiB allocation. A depth that would make
/// more than `Plan::MAX_TASKS` tasks is lowered to the deepest that does not, counted without
/// building the tasks.
#[test]
fn a_split_depth_that_would_make_too_many_tasks_is_lowered_to_the_deepest_within_the_cap() {
    assert_eq!(Plan::effective_depth(16, Engine::SEARCH, 8), Ok(6));
    for engine in [Engine::SEARCH, Engine::Search(Symmetry::Mirror)] {
        for n in [16, 20, 24, 28, 32] {
            let depth = Plan::effective_depth(n, engine, 8).unwrap();
            let board = Plan::clamp_depth(n, engine, 8).unwrap();
            assert!(depth < board, "{engine:?} n {n}: depth {depth}");
            if n == 16 || n == 32 {
                // Built: at most the cap, and one row deeper would pass it.
                let tasks = Plan::new(n, engine, 8).unwrap().len();
                assert!(tasks <= Plan::MAX_TASKS, "{engine:?} n {n}: {tasks}");
                let deeper = Plan::new(n, engine, depth + 1).unwrap();
                assert_eq!(deeper.len(), tasks, "{engine:?} n {n}: capped the same");
            }
        }
    }
    // What the cap leaves alone: shallow splits, and boards whose every depth fits.
    assert_eq!(Plan::effective_depth(32, Engine::SEARCH, 2), Ok(2));
    assert_eq!(Plan::effective_depth(12, Engine::SEARCH, 8), Ok(6));
    let count = Counter::new()
        .engine(Engine::SEARCH)
        .split_depth(8)
        .count(16)
        .unwrap();
    assert_eq!((count.solutions, count.split_depth), (14_772_512, 6));
}

/// Fails unless `result` is the error of a task number out of range.
fn task_error<T>(result: Result<T, Error>) {
    match result {
        Err(Error::Task(message)) => assert!(message.contains("out of range"), "{message}"),
        other => panic!("{:?}", other.map(|_| ())),
    }
}

/// Regression: `Counter::run` and `Checkpoint::run` with a task number out of range
/// panicked (index out of bounds), and `Checkpoint::open` accepted shard 9 of 2. Every
/// public call that takes a task or shard number checks it and returns an error.
#[test]
fn task_and_shard_numbers_out_of_range_are_errors_not_panics() {
    let counter = Counter::new().engine(Engine::SEARCH).threads(2);
    let job = counter.prepare(10).unwrap();
    let tasks = job.plan.len();
    task_error(counter.run(&job, &[0, tasks], &|_, _| {}));
    task_error(counter.run(&job, &[usize::MAX], &|_, _| {}));
    task_error(job.plan.run(tasks));
    task_error(job.plan.weight(tasks));
    task_error(job.plan.parts(tasks));
    task_error(job.plan.part_weight(tasks, 0));
    task_error(job.plan.part_weight(0, 1));
    task_error(job.plan.run_part(0, 1));
    task_error(job.plan.nodes(tasks));
    let clock = std::time::Duration::default;
    task_error(job.plan.time_part(tasks, 0, 1, &clock));
    assert!(job.plan.run(tasks - 1).is_ok());

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.journal");
    let open = |shard, ids: &[usize]| {
        nqueens::checkpoint::Checkpoint::open(&path, &job, shard, ids, "test")
    };
    for shard in [(9, 2), (0, 0), (0, tasks + 1)] {
        match open(Some(shard), &[0]) {
            Err(Error::Shard(message)) => assert!(message.contains("shard"), "{message}"),
            other => panic!("{shard:?}: {:?}", other.map(|_| ())),
        }
    }
    task_error(open(None, &[tasks]));
    task_error(open(None, &[usize::MAX]));
    // Refused before the file is touched.
    assert!(!path.exists());
    let all: Vec<usize> = (0..tasks).collect();
    let checkpoint = open(None, &all).unwrap();
    task_error(checkpoint.run(&counter, &job, &[tasks]));
    let values = checkpoint.run(&counter, &job, &all).unwrap();
    assert_eq!(
        values.values().sum::<u128>(),
        724 * job.plan.units_per_solution()
    );
}

/// A plan's constructors check their board size and engine like the counter does, instead
/// of panicking on a board they do not split.
#[test]
fn plans_of_boards_out_of_range_are_errors_not_panics() {
    assert_eq!(
        Plan::new(33, Engine::SEARCH, 2).err(),
        Some(Error::BoardSize(33))
    );
    assert_eq!(
        Plan::new(0, Engine::SEARCH, 2).err(),
        Some(Error::BoardSize(0))
    );
    assert!(matches!(
        Plan::new(2, Engine::Join, 1),
        Err(Error::Engine(_))
    ));
    assert!(matches!(
        Plan::effective_depth(1, Engine::Join, 3),
        Err(Error::Engine(_))
    ));
    assert_eq!(
        Plan::auto_depth(40, Engine::SEARCH, 2),
        Err(Error::BoardSize(40))
    );
    assert_eq!(
        Plan::clamp_depth(0, Engine::SEARCH, 2),
        Err(Error::BoardSize(0))
    );
}

/// Regression: `shard::partition` asserted on a shard number not below the shard count, and
/// made a heap entry for each shard however many were asked for (2^40: a panic or terabytes).
#[test]
fn a_partition_into_bad_shards_is_an_error_not_a_panic() {
    use nqueens::shard::partition;
    let weights = [5, 1, 3, 2];
    for (index, shards) in [(4, 4), (0, 0), (0, 5), (0, 1 << 40)] {
        assert!(
            matches!(
                partition(&weights, index, shards),
                Err(nqueens::Error::Shard(_))
            ),
            "{index}/{shards}"
        );
    }
    let mut all: Vec<usize> = (0..4)
        .flat_map(|s| partition(&weights, s, 4).unwrap())
        .collect();
    all.sort_unstable();
    assert_eq!(all, [0, 1, 2, 3]);
}

/// Regression: `join::clamp_depth` of a board of one row panicked (its bounds crossed).
#[test]
fn the_join_depth_of_any_board_size_is_clamped_not_a_panic() {
    for n in 0..=40 {
        for depth in [0, 1, 5, 100] {
            let clamped = nqueens::join::clamp_depth(n, depth);
            assert!(clamped >= 1, "n {n} depth {depth}");
        }
    }
}

/// Regression: `Checkpoint::record` wrote a task the run does not have, and the journal was
/// refused when read again. It is not written; `close` says so; the journal stays readable.
#[test]
fn a_record_of_a_task_the_run_lacks_is_refused_and_the_journal_kept() {
    use nqueens::checkpoint::Checkpoint;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j");
    let counter = nqueens::Counter::new();
    let job = counter.prepare(10).unwrap();
    let all: Vec<usize> = (0..job.plan.len()).collect();
    let checkpoint = Checkpoint::open(&path, &job, None, &all, "test").unwrap();
    checkpoint.record(0, 4);
    checkpoint.record(job.plan.len(), 1);
    assert!(matches!(checkpoint.close(), Err(nqueens::Error::Task(_))));
    drop(checkpoint);
    let reopened = Checkpoint::open(&path, &job, None, &all, "test").unwrap();
    assert_eq!(reopened.done().len(), 1);
}
