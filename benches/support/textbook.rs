//! The textbook counter: recursive bitmask backtracking, first row halved by mirror symmetry,
//! one thread.
//!
//! Benchmarks divide the engines' times by its time, measured in the same run on the same
//! machine, because absolute times on shared machines drift while ratios hold. It is not part
//! of the library: `benches/count.rs` and `examples/textbook.rs` (the program `scripts/bench.sh`
//! times) both include this file.

/// The number of solutions of the n x n board (1 <= n <= 32), counted the textbook way.
///
pub fn count(n: u32) -> u64 {
    assert!((1..=32).contains(&n), "board size {n} out of range");
    let all = u32::MAX >> (32 - n);
    let mut total = 0;
    for column in 0..n / 2 {
        let bit = 1 << column;
        total += 2 * place(all, bit, bit << 1, bit >> 1);
    }
    if n % 2 == 1 {
        let bit = 1 << (n / 2);
        total += place(all, bit, bit << 1, bit >> 1);
    }
    total
}

fn place(all: u32, columns: u32, left: u32, right: u32) -> u64 {
    if columns == all {
        return 1;
    }
    let mut free = all & !(columns | left | right);
    let mut total = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        total += place(all, columns | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    total
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_known_counts() {
        for n in 1..=12 {
            assert_eq!(
                u128::from(super::count(n)),
                crate::known::total(n).unwrap(),
                "n = {n}"
            );
        }
    }
}
