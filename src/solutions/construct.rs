//! One solution for any board size, by an explicit construction: no search, O(n) time and
//! memory, so boards of millions of rows take milliseconds.
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
    match n {
        0 | 2 | 3 => None,
        1 => Some(vec![0]),
        _ if n % 2 == 1 => {
            let mut columns = even(n - 1);
            columns.push(n - 1);
            Some(columns)
        }
        _ => Some(even(n)),
    }
}

/// The construction for even n >= 4, 0-based.
fn even(n: u32) -> Vec<u32> {
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

    #[test]
    fn large_boards_of_every_residue_are_solved() {
        for n in 1_000_000..1_000_012 {
            let columns = solution(n).unwrap();
            assert_eq!(check_columns(&columns), Ok(()), "n = {n}");
        }
    }
}
