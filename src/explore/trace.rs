//! The backtracking search, step by step: a lazy iterator over what the search does (place a
//! queen, meet an attacked square, take a queen back, find a solution), for pictures and
//! teaching rather than speed.
//!
//! The search is the textbook one in the order `solve` writes the solutions: rows from the
//! top, each row's columns from the left, every column of a row looked at. Its solutions come
//! out in lexicographic order, the same list as [`crate::solutions`]. The iterator holds one
//! column per row and nothing else, so a trace of any length is produced as it is read,
//! never held whole.

/// One step of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A queen is put on a square that nothing attacks.
    Place {
        /// Its row.
        row: u32,
        /// Its column.
        column: u32,
    },
    /// A square of the current row is attacked by a queen above it: skipped.
    Conflict {
        /// The square's row.
        row: u32,
        /// The square's column.
        column: u32,
    },
    /// A queen is taken back: every way on below it has been tried.
    Backtrack {
        /// Its row.
        row: u32,
        /// Its column.
        column: u32,
    },
    /// Every row holds a queen: a solution, as its column list.
    Solution(Vec<u32>),
}

/// The steps of the search of the n x n board, in order; see the module documentation.
///
/// ```
/// use nqueens::trace::{Event, Trace};
/// let mut trace = Trace::new(4)?;
/// assert_eq!(trace.next(), Some(Event::Place { row: 0, column: 0 }));
/// assert_eq!(trace.next(), Some(Event::Conflict { row: 1, column: 0 }));
/// let first = Trace::new(4)?.find_map(|e| match e {
///     Event::Solution(columns) => Some(columns),
///     _ => None,
/// });
/// assert_eq!(first, Some(vec![1, 3, 0, 2]));
/// # Ok::<(), nqueens::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Trace {
    n: u32,
    /// The row the search is in (n: a solution is on the board).
    row: u32,
    /// The queen of each row above `row`.
    columns: Vec<u32>,
    /// The next column to look at in the current row.
    next_column: u32,
    /// Columns and diagonals held by the queens on the board.
    taken_columns: u32,
    taken_sums: u64,
    taken_differences: u64,
    /// Whether the solution on the board has been reported.
    reported: bool,
    done: bool,
}

impl Trace {
    /// The search of the n x n board (1 <= n <= 32), before its first step.
    pub fn new(n: u32) -> Result<Trace, crate::error::Error> {
        crate::error::Error::check_board_size(n)?;
        Ok(Trace {
            n,
            row: 0,
            columns: Vec::with_capacity(n as usize),
            next_column: 0,
            taken_columns: 0,
            taken_sums: 0,
            taken_differences: 0,
            reported: false,
            done: false,
        })
    }

    /// The board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The queens on the board now, row 0 first.
    pub fn columns(&self) -> &[u32] {
        &self.columns
    }

    /// The bits of square (row, column) in the column and diagonal masks.
    fn masks(&self, row: u32, column: u32) -> (u32, u64, u64) {
        (
            1 << column,
            1 << (row + column),
            1 << (row + self.n - 1 - column),
        )
    }

    fn toggle(&mut self, row: u32, column: u32) {
        let (c, s, d) = self.masks(row, column);
        self.taken_columns ^= c;
        self.taken_sums ^= s;
        self.taken_differences ^= d;
    }
}

impl Iterator for Trace {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        if self.done {
            return None;
        }
        let (n, row) = (self.n, self.row);
        if row == n && !self.reported {
            self.reported = true;
            return Some(Event::Solution(self.columns.clone()));
        }
        if row < n && self.next_column < n {
            let column = self.next_column;
            let (c, s, d) = self.masks(row, column);
            if self.taken_columns & c != 0
                || self.taken_sums & s != 0
                || self.taken_differences & d != 0
            {
                self.next_column += 1;
                return Some(Event::Conflict { row, column });
            }
            self.toggle(row, column);
            self.columns.push(column);
            self.row += 1;
            self.next_column = 0;
            self.reported = false;
            return Some(Event::Place { row, column });
        }
        // The row is exhausted, or its solution reported: take the queen above back.
        let Some(column) = self.columns.pop() else {
            self.done = true;
            return None;
        };
        self.row -= 1;
        self.toggle(self.row, column);
        self.next_column = column + 1;
        Some(Event::Backtrack {
            row: self.row,
            column,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solutions_come_in_the_order_of_solve() {
        for n in 1..=9 {
            let traced: Vec<Vec<u32>> = Trace::new(n)
                .unwrap()
                .filter_map(|e| match e {
                    Event::Solution(columns) => Some(columns),
                    _ => None,
                })
                .collect();
            let listed: Vec<Vec<u32>> = crate::solutions(n)
                .unwrap()
                .map(|s| s.columns().to_vec())
                .collect();
            assert_eq!(traced, listed, "n {n}");
            assert_eq!(Some(traced.len() as u128), crate::known::total(n));
        }
    }

    #[test]
    fn every_place_is_taken_back_and_every_square_is_looked_at() {
        for n in 1..=8 {
            let mut board: Vec<Option<u32>> = vec![None; n as usize];
            let (mut places, mut backtracks, mut looks, mut entered) = (0u64, 0u64, 0u64, 0u64);
            for event in Trace::new(n).unwrap() {
                match event {
                    Event::Place { row, column } => {
                        // Rows are filled from the top: every row above holds a queen.
                        assert!(board[..row as usize].iter().all(Option::is_some));
                        assert_eq!(board[row as usize], None);
                        board[row as usize] = Some(column);
                        places += 1;
                        looks += 1;
                        entered += u64::from(row + 1 < n);
                    }
                    Event::Conflict { row, column } => {
                        let attacked = board[..row as usize].iter().enumerate().any(|(r, q)| {
                            let q = q.unwrap();
                            q == column || q.abs_diff(column) == row - r as u32
                        });
                        assert!(attacked, "n {n}: ({row}, {column}) is not attacked");
                        looks += 1;
                    }
                    Event::Backtrack { row, column } => {
                        assert_eq!(board[row as usize], Some(column));
                        assert!(board[row as usize + 1..].iter().all(Option::is_none));
                        board[row as usize] = None;
                        backtracks += 1;
                    }
                    Event::Solution(columns) => {
                        let on_board: Vec<u32> = board.iter().map(|q| q.unwrap()).collect();
                        assert_eq!(columns, on_board);
                    }
                }
            }
            assert_eq!(places, backtracks, "n {n}");
            assert!(board.iter().all(Option::is_none));
            // The search enters row 0, and the next row after each queen placed above the
            // last row; it looks at each of that row's n squares once.
            assert_eq!(looks, u64::from(n) * (1 + entered), "n {n}");
        }
    }

    #[test]
    fn a_trace_of_thirty_two_rows_starts_at_once() {
        let first = Trace::new(32).unwrap().take(1000).count();
        assert_eq!(first, 1000);
        assert!(Trace::new(0).is_err());
        assert!(Trace::new(33).is_err());
    }
}
