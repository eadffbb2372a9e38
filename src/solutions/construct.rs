//! One solution for any board size, by an explicit construction: no search, O(n) time and
//! O(1) memory per row ([`columns`] streams them), so boards of millions of rows take
//! milliseconds and boards of billions stream in bounded memory.
//!
//! The classical construction (Hoffman, Loessi and Moore, 1969; 1-based rows and columns):
//!
//! * n even, n mod 6 != 2: queens on (i, 2i) and (n/2 + i, 2i - 1) for i = 1..n/2;
//! * n even, n mod 6 == 2: queens on (i, 1 + (2i + n/2 - 3) mod n) and
//!   (n + 1 - i, n - (2i + n/2 - 3) mod n) for i = 1..n/2;
//! * n odd: the construction for n - 1, and a queen on the corner (n, n), whose diagonal the
//!   even constructions leave free.
//!
//! Boards of 2 and 3 rows have no solution.

/// A solution of the n x n board as its column list (row 0 first, 0-based), or `None` for
/// n = 2 and n = 3, which have none (and n = 0).
///
/// ```
/// let columns = nqueens::construct::solution(8).unwrap();
/// assert!(nqueens::check_columns(&columns).is_ok());
/// assert_eq!(nqueens::construct::solution(3), None);
/// ```
pub fn solution(n: u32) -> Option<Vec<u32>> {
    columns(n).map(Iterator::collect)
}

/// The same solution as [`solution`], one row at a time, in O(1) memory: each row's column
/// is a closed form of n and the row, so a board of four billion rows streams without being
/// held. `None` for n = 0, 2 and 3.
///
/// ```
/// let rows: Vec<u32> = nqueens::construct::columns(10).unwrap().collect();
/// assert_eq!(Some(rows), nqueens::construct::solution(10));
/// assert_eq!(nqueens::construct::columns(4_000_000_000).unwrap().len(), 4_000_000_000);
/// ```
pub fn columns(n: u32) -> Option<impl ExactSizeIterator<Item = u32>> {
    match n {
        0 | 2 | 3 => None,
        _ => Some((0..n as usize).map(move |row| column(n, row as u32))),
    }
}

/// The column of row `row` (0-based, below n) in the construction for n, for n = 1 and n >= 4.
fn column(n: u32, row: u32) -> u32 {
    if n % 2 == 1 {
        // The construction for n - 1 (empty for n = 1), and the corner.
        if row == n - 1 {
            return n - 1;
        }
        return even(n - 1, row);
    }
    even(n, row)
}

/// The column of row `row` in the construction for even n >= 4 (0-based; i is the formulas'
/// 1-based index: rows i - 1 and n/2 + i - 1, or i - 1 and n - i).
fn even(n: u32, row: u32) -> u32 {
    let (n, row) = (u64::from(n), u64::from(row));
    let half = n / 2;
    let column = if n % 6 != 2 {
        if row < half {
            2 * (row + 1) - 1
        } else {
            2 * (row - half + 1) - 2
        }
    } else {
        let shift = |i: u64| (2 * i + half - 3) % n;
        if row < half {
            shift(row + 1)
        } else {
            n - 1 - shift(n - row)
        }
    };
    column as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_columns;

    #[test]
    fn every_size_up_to_two_thousand_is_solved() {
        for n in 1..=2000 {
            match solution(n) {
                None => assert!(n == 2 || n == 3, "n = {n}"),
                Some(columns) => {
                    assert_eq!(columns.len(), n as usize);
                    assert_eq!(check_columns(&columns), Ok(()), "n = {n}");
                }
            }
        }
    }

    /// The construction as first written, building the whole vector: the closed form per row
    /// must give the same board (so `find`'s output never changes).
    fn whole(n: u32) -> Vec<u32> {
        let half = n / 2;
        let mut columns = vec![0u32; n as usize];
        for i in 1..=half {
            if n % 6 != 2 {
                columns[(i - 1) as usize] = 2 * i - 1;
                columns[(half + i - 1) as usize] = 2 * i - 2;
            } else {
                let shift = (2 * i + half - 3) % n;
                columns[(i - 1) as usize] = shift;
                columns[(n - i) as usize] = n - 1 - shift;
            }
        }
        columns
    }

    #[test]
    fn the_closed_form_per_row_is_the_vector_construction() {
        for n in (4..=600).step_by(2) {
            let mut odd = whole(n);
            assert_eq!(solution(n).unwrap(), odd, "n = {n}");
            odd.push(n);
            assert_eq!(solution(n + 1).unwrap(), odd, "n = {}", n + 1);
        }
    }

    #[test]
    fn the_largest_boards_have_columns_on_the_board_at_both_ends() {
        // The arithmetic reaches 2n: it must not wrap at n near 2^32.
        for n in [u32::MAX, u32::MAX - 1, u32::MAX - 4, u32::MAX - 5] {
            let even = n - n % 2;
            for row in [0, 1, 2, even / 2 - 1, even / 2, even - 2, even - 1, n - 1] {
                let c = column(n, row);
                assert!(c < n, "n = {n}, row {row}: column {c}");
            }
        }
    }

    #[test]
    fn large_boards_of_every_residue_are_solved() {
        for n in 1_000_000..1_000_012 {
            let columns = solution(n).unwrap();
            assert_eq!(check_columns(&columns), Ok(()), "n = {n}");
        }
    }
}
