//! Binomial coefficients from a table built at compile time: the partitions' shares and the
//! pairs estimated from row totals both take them, tens of millions of times at n = 28.

/// The binomial coefficient `C(n, k)` (0 when `k > n`), for `n <= 32`: from a table, since
/// the weights of n = 28's ten million units take six each (computed with 128-bit divisions,
/// they were most of the plan's minute).
pub(super) fn binomial(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    u128::from(BINOMIALS[n as usize][k as usize])
}

/// Pascal's triangle to row 32.
const BINOMIALS: [[u64; 33]; 33] = {
    let mut table = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of binomials holds Pascal's triangle: each row sums to `2^n`, and its middle
    /// values are the known ones.
    #[test]
    fn binomials_are_pascal_s_triangle() {
        for n in 0..=32u32 {
            let row: u128 = (0..=n + 1).map(|k| binomial(n, k)).sum();
            assert_eq!(row, 1u128 << n, "row {n}");
        }
        assert_eq!(binomial(28, 14), 40_116_600);
        assert_eq!(binomial(32, 16), 601_080_390);
        assert_eq!(binomial(5, 7), 0);
    }
}
