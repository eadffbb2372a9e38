//! The library's solution iterator and visitor against an independent brute force.

use nqueens::{check_columns, for_each_solution, known, solutions};
use std::sync::Mutex;

/// Every permutation of 0..n that is a solution, in lexicographic order: a brute force that
/// shares nothing with the engine.
fn brute_force(n: u32) -> Vec<Vec<u32>> {
    fn permute(prefix: &mut Vec<u32>, left: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if left.is_empty() {
            if check_columns(prefix).is_ok() {
                out.push(prefix.clone());
            }
            return;
        }
        for i in 0..left.len() {
            let c = left.remove(i);
            prefix.push(c);
            permute(prefix, left, out);
            prefix.pop();
            left.insert(i, c);
        }
    }
    let mut out = Vec::new();
    permute(&mut Vec::new(), &mut (0..n).collect(), &mut out);
    out
}

#[test]
fn iterator_gives_the_brute_force_set_in_lexicographic_order() {
    for n in 1..=10 {
        let expected = brute_force(n);
        let got: Vec<Vec<u32>> = solutions(n)
            .unwrap()
            .map(|s| s.columns().to_vec())
            .collect();
        assert_eq!(got, expected, "n = {n}");
        assert_eq!(got.len() as u128, known::total(n).unwrap());
    }
}

#[test]
fn parallel_visitor_sees_the_same_set() {
    for n in 1..=10 {
        let seen = Mutex::new(Vec::new());
        for_each_solution(n, Some(2), |columns| {
            seen.lock().unwrap().push(columns.to_vec());
        })
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        let expected: Vec<Vec<u32>> = solutions(n)
            .unwrap()
            .map(|s| s.columns().to_vec())
            .collect();
        assert_eq!(seen, expected, "n = {n}");
    }
}

#[test]
fn bad_sizes_are_errors() {
    assert!(solutions(0).is_err());
    assert!(solutions(33).is_err());
    assert!(for_each_solution(40, None, |_| {}).is_err());
    assert!(for_each_solution(8, Some(0), |_| {}).is_err());
}
