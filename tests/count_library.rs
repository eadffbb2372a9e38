//! The library's counts against the known table, and their independence of how the work is
//! split and run.

use nqueens::{Counter, Error, Plan, Symmetry, known};
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

const ENGINES: [Symmetry; 2] = [Symmetry::Full, Symmetry::Mirror];

#[test]
fn both_engines_count_one_to_fifteen_with_unique_solutions() {
    for symmetry in ENGINES {
        for n in 1..=15 {
            let count = Counter::new()
                .symmetry(symmetry)
                .unique(true)
                .count(n)
                .unwrap();
            assert_eq!(Some(count.solutions), known::total(n), "{symmetry:?} n {n}");
            let classes = count.classes.unwrap();
            assert_eq!(
                Some(classes.unique()),
                known::unique(n),
                "{symmetry:?} n {n}"
            );
            assert_eq!(classes.total(), count.solutions);
            assert_eq!(count.symmetry, symmetry);
        }
    }
}

#[test]
fn the_two_engines_agree_beyond_the_quick_sizes() {
    let full = Counter::new().symmetry(Symmetry::Full).count(16).unwrap();
    let mirror = Counter::new().symmetry(Symmetry::Mirror).count(16).unwrap();
    assert_eq!(full.solutions, mirror.solutions);
    assert_eq!(Some(full.solutions), known::total(16));
}

#[test]
fn totals_do_not_depend_on_split_depth_or_threads() {
    for symmetry in ENGINES {
        for n in 1..=13 {
            let expected = known::total(n).unwrap();
            for depth in 1..=8 {
                for threads in [1, 2, 3] {
                    let count = Counter::new()
                        .symmetry(symmetry)
                        .threads(threads)
                        .split_depth(depth)
                        .count(n)
                        .unwrap();
                    let case = format!("{symmetry:?} n {n} depth {depth} threads {threads}");
                    assert_eq!(count.solutions, expected, "{case}");
                    assert_eq!(count.threads, threads);
                    let effective = Plan::effective_depth(n, symmetry, depth);
                    assert_eq!(count.split_depth, effective, "{case}");
                    assert_eq!(count.tasks, Plan::new(n, symmetry, depth).len(), "{case}");
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

#[test]
fn engine_class_sizes_match_canonical_forms_of_brute_force_solutions() {
    use nqueens::symmetry::{canonical, class_size};
    for n in 1..=9 {
        let solutions = brute_force(n);
        let mut by_size = [0u128; 9];
        for s in solutions.iter().filter(|s| canonical(s) == **s) {
            by_size[class_size(s)] += 1;
        }
        for symmetry in ENGINES {
            let count = Counter::new()
                .symmetry(symmetry)
                .unique(true)
                .count(n)
                .unwrap();
            let classes = count.classes.unwrap();
            assert_eq!(
                count.solutions,
                solutions.len() as u128,
                "{symmetry:?} n {n}"
            );
            let engine = [classes.of_1, classes.of_2, classes.of_4, classes.of_8];
            let brute = [by_size[1], by_size[2], by_size[4], by_size[8]];
            assert_eq!(engine, brute, "{symmetry:?} n {n}");
        }
    }
}
