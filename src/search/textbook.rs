//! The textbook counter: recursive bitmask backtracking, the first row halved by mirror
//! symmetry, one thread. It is the yardstick, not an engine: benchmarks divide the engines'
//! times by its time, measured in the same run on the same machine, because absolute times
//! on shared machines drift while ratios hold (`nqueens bench`, `benches/count.rs`,
//! `examples/textbook.rs`, which `scripts/` time). Its code is the classic one on purpose and
//! stays as it is: a faster yardstick would make every ratio measured against it before
//! untrue.

/// The number of solutions of the n x n board, counted the textbook way; `None` for a board
/// outside 1..=32 (a row's columns are one `u32`).
///
/// ```
/// assert_eq!(nqueens::textbook::count(8), Some(92));
/// ```
pub fn count(n: u32) -> Option<u64> {
    if !(1..=32).contains(&n) {
        return None;
    }
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
    Some(total)
}

/// The completions of a board whose rows so far hold `columns`, with the diagonals `left`
/// and `right` attacked in the next row.
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
                super::count(n).map(u128::from),
                crate::known::total(n),
                "n = {n}"
            );
        }
        assert_eq!(super::count(0), None);
        assert_eq!(super::count(33), None);
    }
}
