//! The `Solution` type: a placement of one queen per row, given by the column of each, with
//! the check that says whether (and why not) it solves the puzzle.

use std::fmt;

/// A placement of one queen in each row of an n x n board: `columns()[i]` is the column of
/// the queen of row i. It need not be a solution; [`Solution::check`] says.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Solution {
    columns: Vec<u32>,
}

/// Why a placement is not a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// The board has no rows.
    Empty,
    /// A queen stands outside the board.
    OutOfRange {
        /// Its row.
        row: usize,
        /// Its column.
        column: u32,
    },
    /// Two queens share a column.
    SameColumn {
        /// The upper queen's row.
        first: usize,
        /// The lower queen's row.
        second: usize,
    },
    /// Two queens share a diagonal.
    SameDiagonal {
        /// The upper queen's row.
        first: usize,
        /// The lower queen's row.
        second: usize,
    },
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Conflict::Empty => write!(f, "no queens"),
            Conflict::OutOfRange { row, column } => {
                write!(f, "row {row}: column {column} is off the board")
            }
            Conflict::SameColumn { first, second } => {
                write!(f, "rows {first} and {second} share a column")
            }
            Conflict::SameDiagonal { first, second } => {
                write!(f, "rows {first} and {second} share a diagonal")
            }
        }
    }
}

impl Solution {
    /// The placement with these columns, row 0 first.
    pub fn new(columns: Vec<u32>) -> Solution {
        Solution { columns }
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.columns.len()
    }

    /// The column of the queen of each row, row 0 first.
    pub fn columns(&self) -> &[u32] {
        &self.columns
    }

    /// Whether this is a solution: one queen per row (by construction), per column and per
    /// diagonal. Takes O(n) time and memory, so it checks boards of millions of rows.
    ///
    /// ```
    /// use nqueens::Solution;
    /// assert!(Solution::new(vec![1, 3, 0, 2]).check().is_ok());
    /// let error = Solution::new(vec![0, 2, 1, 3]).check().unwrap_err();
    /// assert_eq!(error.to_string(), "rows 1 and 2 share a diagonal");
    /// ```
    pub fn check(&self) -> Result<(), Conflict> {
        check_columns(&self.columns)
    }
}

/// [`Solution::check`] on a plain column list. Reports the conflict of the smallest pair of
/// rows (by lower row, then by upper row).
pub fn check_columns(columns: &[u32]) -> Result<(), Conflict> {
    let n = columns.len();
    if n == 0 {
        return Err(Conflict::Empty);
    }
    // For each column and each diagonal, the first row that uses it.
    let mut column_owner = vec![usize::MAX; n];
    let mut sum_owner = vec![usize::MAX; 2 * n - 1];
    let mut difference_owner = vec![usize::MAX; 2 * n - 1];
    for (row, &column) in columns.iter().enumerate() {
        let c = column as usize;
        if c >= n {
            return Err(Conflict::OutOfRange { row, column });
        }
        let (sum, difference) = (row + c, row + n - 1 - c);
        let conflict = if column_owner[c] != usize::MAX {
            Some(Conflict::SameColumn {
                first: column_owner[c],
                second: row,
            })
        } else {
            let owner = sum_owner[sum].min(difference_owner[difference]);
            (owner != usize::MAX).then_some(Conflict::SameDiagonal {
                first: owner,
                second: row,
            })
        };
        if let Some(conflict) = conflict {
            return Err(conflict);
        }
        column_owner[c] = row;
        sum_owner[sum] = row;
        difference_owner[difference] = row;
    }
    Ok(())
}

impl fmt::Display for Solution {
    /// The `perm` format: the columns separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.columns.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Solution {
    type Err = String;

    /// Parses the `perm` format: whole numbers separated by spaces.
    fn from_str(text: &str) -> Result<Solution, String> {
        let columns = text
            .split_whitespace()
            .map(|w| {
                w.parse::<u32>()
                    .map_err(|_| format!("'{w}' is not a column number"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if columns.is_empty() {
            return Err("no columns".into());
        }
        Ok(Solution::new(columns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conflicts_are_named() {
        let check = |c: &[u32]| check_columns(c).map_err(|e| e.to_string());
        assert_eq!(check(&[1, 3, 0, 2]), Ok(()));
        assert_eq!(check(&[0]), Ok(()));
        assert_eq!(check(&[]), Err("no queens".into()));
        assert_eq!(
            check(&[1, 3, 1, 2]),
            Err("rows 0 and 2 share a column".into())
        );
        assert_eq!(check(&[0, 1]), Err("rows 0 and 1 share a diagonal".into()));
        assert_eq!(
            check(&[0, 2, 4, 3, 1]),
            Err("rows 0 and 3 share a diagonal".into())
        );
        assert_eq!(
            check(&[1, 3, 0, 4]),
            Err("row 3: column 4 is off the board".into())
        );
    }

    #[test]
    fn perm_text_round_trips() {
        let s: Solution = "1 3 0 2".parse().unwrap();
        assert_eq!(s.columns(), &[1, 3, 0, 2]);
        assert_eq!(s.to_string(), "1 3 0 2");
        assert!("1 x 2".parse::<Solution>().is_err());
        assert!("".parse::<Solution>().is_err());
    }
}
