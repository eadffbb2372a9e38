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
    /// A queen shares a line with one above it, in a placement checked as it was read
    /// ([`Checker`]) past the rows whose columns it keeps, which is why the upper queen is
    /// not named.
    Taken {
        /// The lower queen's row.
        row: usize,
        /// Whether the line is a diagonal (else a column).
        diagonal: bool,
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
            Conflict::Taken { row, diagonal } => {
                let line = if diagonal { "diagonal" } else { "column" };
                write!(f, "row {row} shares a {line} with a row above it")
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

/// A placement checked row by row as it is read, for boards of any size (up to 2^32 - 1 rows,
/// the largest `construct` builds): the columns of its first [`Checker::KEEP`] rows are kept,
/// and checked by [`check_columns`] at the end, conflicts named by both rows; a larger board
/// is checked as it comes, in 5 bits a row (its columns and both diagonals as bit sets), and
/// a conflict there is named by its lower row ([`Conflict::Taken`]), a queen off the board
/// by its column.
///
/// ```
/// use nqueens::{Checker, Conflict};
/// let mut checker = Checker::new();
/// for column in [1, 3, 0, 2] {
///     checker.push(column).unwrap();
/// }
/// let placement = checker.finish();
/// assert_eq!((placement.rows(), placement.check()), (4, Ok(())));
/// assert_eq!(placement.columns(), Some(&[1, 3, 0, 2][..]));
/// ```
#[derive(Default)]
pub struct Checker {
    rows: usize,
    /// The columns, while there are at most [`Checker::KEEP`].
    kept: Vec<u32>,
    /// The bit sets, once there are more.
    bits: Option<Lines>,
    /// The first row (past the kept ones) that shares a line with one above it.
    conflict: Option<Conflict>,
    /// The largest column and its first row: off the board if it is not below the row count.
    widest: Option<(u32, usize)>,
}

/// The lines a streamed placement has taken: columns, and both diagonals (row + column, and
/// row - column folded onto the naturals).
#[derive(Default)]
struct Lines {
    columns: Bits,
    sums: Bits,
    differences: Bits,
}

/// A bit set in pages made when first touched: it grows without copying, and a far bit (a
/// column of four billion on a short board) costs one page, not the bits below it.
#[derive(Default)]
struct Bits(Vec<Option<Box<[u64]>>>);

/// Bits a page of [`Bits`] holds (64 KiB).
const PAGE_BITS: u64 = 1 << 19;

impl Bits {
    /// Sets bit `i`; whether it was set already.
    fn set(&mut self, i: u64) -> bool {
        let page = usize::try_from(i / PAGE_BITS).expect("a page of a 64-bit address space");
        if page >= self.0.len() {
            self.0.resize_with(page + 1, || None);
        }
        let words = self.0[page]
            .get_or_insert_with(|| vec![0; (PAGE_BITS / 64) as usize].into_boxed_slice());
        let bit = i % PAGE_BITS;
        let (word, mask) = ((bit / 64) as usize, 1 << (bit % 64));
        let was = words[word] & mask != 0;
        words[word] |= mask;
        was
    }
}

impl Lines {
    /// Takes the lines of the queen at (`row`, `column`): `None` if all were free, else
    /// whether the first taken one is a diagonal.
    fn take(&mut self, row: usize, column: u32) -> Option<bool> {
        let (row, column) = (row as u64, u64::from(column));
        let difference = if row >= column {
            2 * (row - column)
        } else {
            2 * (column - row) - 1
        };
        let column_taken = self.columns.set(column);
        let sum_taken = self.sums.set(row + column);
        let difference_taken = self.differences.set(difference);
        if column_taken {
            Some(false)
        } else if sum_taken || difference_taken {
            Some(true)
        } else {
            None
        }
    }
}

impl Checker {
    /// How many rows' columns are kept, and checked with both rows of a conflict named: past
    /// them a board is checked as it is read (a kept row costs 44 bytes in all, 2.9 MB here).
    pub const KEEP: usize = 1 << 16;
    /// The most rows a placement may have: the largest board with a column number for each.
    pub const MAX_ROWS: usize = u32::MAX as usize;

    /// An empty placement.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// The rows read so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The queen of the next row stands in `column`. A row past [`Checker::MAX_ROWS`] is
    /// refused: no board has that many.
    pub fn push(&mut self, column: u32) -> Result<(), String> {
        let row = self.rows;
        if row == Self::MAX_ROWS {
            return Err(format!(
                "a placement of more than {} rows: more than any board",
                Self::MAX_ROWS
            ));
        }
        self.rows += 1;
        if self.widest.is_none_or(|(widest, _)| column > widest) {
            self.widest = Some((column, row));
        }
        if self.conflict.is_some() {
            return Ok(());
        }
        match &mut self.bits {
            None if row < Self::KEEP => self.kept.push(column),
            None => {
                // Past the kept rows: their lines into the bit sets, and the rest as it comes.
                let mut lines = Lines::default();
                for (earlier, &c) in self.kept.iter().enumerate() {
                    if lines.take(earlier, c).is_some() {
                        self.conflict = Some(first_conflict(&self.kept[..=earlier]));
                        break;
                    }
                }
                self.kept = Vec::new();
                self.bits = Some(lines);
                return self.push_streamed(row, column);
            }
            Some(_) => return self.push_streamed(row, column),
        }
        Ok(())
    }

    fn push_streamed(&mut self, row: usize, column: u32) -> Result<(), String> {
        if let (None, Some(lines)) = (&self.conflict, &mut self.bits)
            && let Some(diagonal) = lines.take(row, column)
        {
            self.conflict = Some(Conflict::Taken { row, diagonal });
        }
        Ok(())
    }

    /// The placement read, checked as a board of as many rows.
    pub fn finish(self) -> Placement {
        if self.bits.is_none() {
            return Placement::new(self.kept);
        }
        let check = match (self.widest, self.conflict) {
            (Some((column, row)), _) if column as usize >= self.rows => {
                Err(Conflict::OutOfRange { row, column })
            }
            (_, Some(conflict)) => Err(conflict),
            _ => Ok(()),
        };
        Placement {
            rows: self.rows,
            columns: None,
            check,
        }
    }
}

/// The conflict of the last row of `columns` with a row above it (the rows above it share no
/// line), both rows named as [`check_columns`] names them: the row of the same column, else
/// the first row on a diagonal.
fn first_conflict(columns: &[u32]) -> Conflict {
    let second = columns.len() - 1;
    let above = &columns[..second];
    let c = i64::from(columns[second]);
    let r = second as i64;
    if let Some(first) = above.iter().position(|&column| i64::from(column) == c) {
        return Conflict::SameColumn { first, second };
    }
    let first = above
        .iter()
        .enumerate()
        .position(|(row, &column)| {
            let (row, column) = (row as i64, i64::from(column));
            row + column == r + c || row - column == r - c
        })
        .expect("the last row shares a line with a row above it");
    Conflict::SameDiagonal { first, second }
}

/// A placement read and checked: its size, its columns when they were kept, and the verdict
/// on it as a board of as many rows ([`check_columns`]'s, or [`Checker`]'s for large boards).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    rows: usize,
    columns: Option<Vec<u32>>,
    check: Result<(), Conflict>,
}

impl Placement {
    /// The placement of these columns (row 0 first), checked.
    pub fn new(columns: Vec<u32>) -> Placement {
        Placement {
            rows: columns.len(),
            check: check_columns(&columns),
            columns: Some(columns),
        }
    }

    /// The number of rows (of queens).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The columns, row 0 first, when they were kept (boards of at most [`Checker::KEEP`]
    /// rows); `None` for a larger board, checked as it was read.
    pub fn columns(&self) -> Option<&[u32]> {
        self.columns.as_deref()
    }

    /// Whether it is a solution of the board of [`Placement::rows`] rows, or why not.
    pub fn check(&self) -> Result<(), Conflict> {
        self.check
    }
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

    /// Every placement the checker reads agrees with `check_columns` on the whole list, in
    /// the kept rows and past them (where a conflict is named by its lower row alone).
    #[test]
    fn the_checker_agrees_with_check_columns_past_the_kept_rows() {
        let n = Checker::KEEP as u32 + 1000;
        let good = crate::construct::solution(n).unwrap();
        let mut cases = vec![good.clone()];
        for (at, with) in [(10, 20), (Checker::KEEP - 1, 5), (Checker::KEEP + 7, 3)] {
            let mut bad = good.clone();
            bad.swap(at, with);
            bad[at] = bad[with];
            cases.push(bad);
        }
        let mut diagonal = good.clone();
        diagonal.swap(Checker::KEEP + 100, Checker::KEEP + 101);
        cases.push(diagonal);
        let mut off = good.clone();
        off[Checker::KEEP + 5] = n;
        cases.push(off);
        for columns in cases {
            let mut checker = Checker::new();
            for &c in &columns {
                checker.push(c).unwrap();
            }
            let placement = checker.finish();
            assert_eq!(placement.rows(), columns.len());
            assert_eq!(placement.columns(), None);
            let whole = check_columns(&columns);
            match (whole, placement.check()) {
                (Ok(()), streamed) => assert_eq!(streamed, Ok(())),
                (
                    Err(Conflict::SameColumn { second, .. }),
                    Err(Conflict::Taken { row, diagonal }),
                ) => {
                    assert_eq!((row, diagonal), (second, false));
                }
                (
                    Err(Conflict::SameDiagonal { second, .. }),
                    Err(Conflict::Taken { row, diagonal }),
                ) => {
                    assert_eq!((row, diagonal), (second, true));
                }
                (whole, streamed) => assert_eq!(streamed, whole),
            }
        }
    }

    #[test]
    fn the_checker_keeps_small_boards_and_names_both_rows() {
        for columns in [
            vec![1, 3, 0, 2],
            vec![1, 3, 1, 2],
            vec![0, 2, 4, 3, 1],
            vec![],
        ] {
            let mut checker = Checker::new();
            for &c in &columns {
                checker.push(c).unwrap();
            }
            assert_eq!(checker.finish(), Placement::new(columns));
        }
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
