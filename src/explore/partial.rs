//! Completing a partial placement: queens given in any rows of a board of up to 32 rows, the
//! number of ways to fill the other rows, and the first such way in lexicographic order.
//!
//! A placement becomes a set of allowed squares per row: a given queen's row allows its square
//! alone, every other row loses the given queens' columns and diagonals. (The search goes
//! down the rows, so a queen given in a lower row must block the rows above it explicitly.)
//! The count reuses the counting kernel with those blocks (`kernel::RowBlocks`); its work is split
//! into the placements of the first rows, taken deep enough that a task has at most
//! [`FREE_ROWS_PER_TASK`] rows left to fill, so that a cancellation, checked between tasks,
//! is heard within milliseconds even on a 32-row board. The tasks are generated lazily and run
//! on rayon in chunks: a board whose count would take years holds a chunk, never the list.

use crate::error::Error;
use crate::search::kernel::{self, RowBlocks, Subboard};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most rows without a given queen that one task of a count leaves to the search.
pub const FREE_ROWS_PER_TASK: u32 = 16;
/// Tasks generated ahead and shared out among the threads at once.
const CHUNK: usize = 4096;
/// The first-completion search looks at the cancel flag once per this many nodes.
const NODES_PER_CHECK: u64 = 1 << 16;

/// A partial placement of queens on an n x n board: at most one queen per row, in any rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    n: u32,
    rows: Vec<Option<u32>>,
    /// The squares of each row the search may use.
    allowed: [u32; 32],
}

impl Partial {
    /// The placement whose row i holds a queen in column `rows[i]`, or none. The board has
    /// `rows.len()` rows (1 to 32); a column must be on the board.
    ///
    /// Queens that attack one another are allowed: the placement then has no completion.
    ///
    /// ```
    /// use nqueens::partial::Partial;
    /// use std::sync::atomic::AtomicBool;
    /// let partial = Partial::new(&[Some(1), None, None, None])?;
    /// assert_eq!(partial.count(Some(1), &AtomicBool::new(false))?, 1);
    /// assert_eq!(partial.first(&AtomicBool::new(false))?, Some(vec![1, 3, 0, 2]));
    /// # Ok::<(), nqueens::Error>(())
    /// ```
    pub fn new(rows: &[Option<u32>]) -> Result<Partial, Error> {
        let n = u32::try_from(rows.len()).unwrap_or(u32::MAX);
        Error::check_board_size(n)?;
        if let Some((row, column)) = rows
            .iter()
            .enumerate()
            .find_map(|(r, c)| c.filter(|&c| c >= n).map(|c| (r, c)))
        {
            return Err(Error::Placement(format!(
                "row {row}: column {column} is off the board (n = {n})"
            )));
        }
        Ok(Partial {
            n,
            rows: rows.to_vec(),
            allowed: allowed_squares(n, rows),
        })
    }

    /// The board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The given queens, row by row.
    pub fn rows(&self) -> &[Option<u32>] {
        &self.rows
    }

    /// The first pair of given queens (by upper row, then lower row) that attack each other.
    pub fn conflict(&self) -> Option<(usize, usize)> {
        let queens: Vec<(usize, u32)> = self
            .rows
            .iter()
            .enumerate()
            .filter_map(|(r, c)| c.map(|c| (r, c)))
            .collect();
        queens.iter().enumerate().find_map(|(i, &(r1, c1))| {
            queens[i + 1..].iter().find_map(|&(r2, c2)| {
                let attacks = c1 == c2 || c1.abs_diff(c2) as usize == r2 - r1;
                attacks.then_some((r1, r2))
            })
        })
    }

    /// The number of solutions that hold every given queen, on `threads` worker threads
    /// (`None`: one per core). `cancel` is read between tasks: once it is set the count stops
    /// within milliseconds and returns [`Error::Cancelled`].
    pub fn count(&self, threads: Option<usize>, cancel: &AtomicBool) -> Result<u128, Error> {
        count_allowed(self.n, &self.allowed, threads, cancel)
    }

    /// The first solution (in lexicographic order of the column lists) that holds every given
    /// queen, or `None` when there is none. `cancel` is read every few milliseconds of the
    /// search ([`Error::Cancelled`]).
    pub fn first(&self, cancel: &AtomicBool) -> Result<Option<Vec<u32>>, Error> {
        first_allowed(self.n, &self.allowed, cancel)
    }
}

/// The squares of each row that a solution holding the given queens may use.
fn allowed_squares(n: u32, rows: &[Option<u32>]) -> [u32; 32] {
    let full = u32::MAX >> (32 - n);
    let mut allowed = [0u32; 32];
    for (row, slot) in allowed.iter_mut().enumerate().take(n as usize) {
        let mut squares = full;
        for (other, column) in rows.iter().enumerate() {
            let Some(column) = *column else { continue };
            if other == row {
                squares &= 1 << column;
                continue;
            }
            // The given queen's column and the two squares of this row on its diagonals.
            let distance = row.abs_diff(other) as u32;
            squares &= !(1 << column);
            if column + distance < n {
                squares &= !(1 << (column + distance));
            }
            if let Some(c) = column.checked_sub(distance) {
                squares &= !(1 << c);
            }
        }
        *slot = squares;
    }
    allowed
}

/// The number of solutions of the n x n board using only `allowed[row]` in each row; see
/// [`Partial::count`].
pub(crate) fn count_allowed(
    n: u32,
    allowed: &[u32; 32],
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<u128, Error> {
    Error::check_board_size(n)?;
    count_split(n, allowed, threads, cancel, task_depth(n, allowed))
}

/// [`count_allowed`] with tasks that place the first `depth` rows.
fn count_split(
    n: u32,
    allowed: &[u32; 32],
    threads: Option<usize>,
    cancel: &AtomicBool,
    depth: usize,
) -> Result<u128, Error> {
    let threads = crate::run::driver::resolve_threads(threads)?;
    let full = u32::MAX >> (32 - n);
    let blocked: Vec<u32> = allowed[..n as usize].iter().map(|a| full & !a).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("nqueens-partial-{i}"))
        .build()
        .map_err(Error::thread_pool)?;
    // The rows below the prefix are the same for every task: their blocks are built once.
    let rules = RowBlocks::new(&blocked[depth..]);
    let mut tasks = Prefixes::new(n, allowed, depth);
    let mut total = 0u128;
    let mut chunk = Vec::with_capacity(CHUNK);
    loop {
        chunk.clear();
        chunk.extend(tasks.by_ref().take(CHUNK));
        if chunk.is_empty() {
            break;
        }
        total += pool.install(|| {
            chunk
                .par_iter()
                .with_max_len(1)
                .map(|&board| {
                    if cancel.load(Ordering::Relaxed) {
                        0
                    } else {
                        u128::from(kernel::count_with(board, &rules))
                    }
                })
                .sum::<u128>()
        });
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
    }
    Ok(total)
}

/// How many rows the tasks of a count place: enough that at most [`FREE_ROWS_PER_TASK`] rows
/// without a given queen are left below, and at least three (or n) so that there are tasks to
/// share out.
fn task_depth(n: u32, allowed: &[u32; 32]) -> usize {
    let n = n as usize;
    let mut depth = n.min(3);
    let free_below = |d: usize| allowed[d..n].iter().filter(|a| a.count_ones() != 1).count();
    while depth < n && free_below(depth) > FREE_ROWS_PER_TASK as usize {
        depth += 1;
    }
    depth
}

/// The placements of the first `depth` rows that use allowed squares and attack nothing, as
/// the boards after them, in lexicographic order, generated lazily.
struct Prefixes<'a> {
    allowed: &'a [u32; 32],
    depth: usize,
    /// For each placed row: the board before it and the columns still to try.
    stack: Vec<(Subboard, u32)>,
    started: bool,
    n: u32,
}

impl<'a> Prefixes<'a> {
    fn new(n: u32, allowed: &'a [u32; 32], depth: usize) -> Prefixes<'a> {
        Prefixes {
            allowed,
            depth,
            stack: Vec::with_capacity(depth),
            started: false,
            n,
        }
    }
}

impl Iterator for Prefixes<'_> {
    type Item = Subboard;

    fn next(&mut self) -> Option<Subboard> {
        if !self.started {
            self.started = true;
            let empty = Subboard::empty(self.n);
            if self.depth == 0 {
                return Some(empty);
            }
            self.stack.push((empty, empty.free() & self.allowed[0]));
        }
        while let Some(&mut (board, ref mut free)) = self.stack.last_mut() {
            if *free == 0 {
                self.stack.pop();
                continue;
            }
            let bit = *free & free.wrapping_neg();
            *free ^= bit;
            let next = board.place(bit);
            let row = self.stack.len();
            if row == self.depth {
                return Some(next);
            }
            self.stack.push((next, next.free() & self.allowed[row]));
        }
        None
    }
}

/// The first solution using only `allowed[row]` in each row; see [`Partial::first`].
pub(crate) fn first_allowed(
    n: u32,
    allowed: &[u32; 32],
    cancel: &AtomicBool,
) -> Result<Option<Vec<u32>>, Error> {
    Error::check_board_size(n)?;
    let n = n as usize;
    // For each row: the board before it and the columns still to try.
    let mut stack: Vec<(Subboard, u32)> = Vec::with_capacity(n);
    let mut columns = Vec::with_capacity(n);
    let empty = Subboard::empty(n as u32);
    stack.push((empty, empty.free() & allowed[0]));
    let mut nodes = 0u64;
    while let Some(&mut (board, ref mut free)) = stack.last_mut() {
        if *free == 0 {
            stack.pop();
            continue;
        }
        nodes += 1;
        if nodes.is_multiple_of(NODES_PER_CHECK) && cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        let bit = *free & free.wrapping_neg();
        *free ^= bit;
        let row = stack.len() - 1;
        columns.truncate(row);
        columns.push(bit.trailing_zeros());
        if row + 1 == n {
            return Ok(Some(columns));
        }
        let next = board.place(bit);
        stack.push((next, next.free() & allowed[row + 1]));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_placement_counts_every_solution() {
        let go = AtomicBool::new(false);
        for n in 1..=13 {
            let partial = Partial::new(&vec![None; n as usize]).unwrap();
            assert_eq!(
                Some(partial.count(None, &go).unwrap()),
                crate::known::total(n)
            );
        }
    }

    #[test]
    fn every_split_depth_gives_the_same_count() {
        let go = AtomicBool::new(false);
        for n in [6, 8, 9] {
            let mut rows = vec![None; n as usize];
            rows[n as usize - 1] = Some(2);
            let partial = Partial::new(&rows).unwrap();
            let expected = partial.count(Some(1), &go).unwrap();
            assert!(expected > 0);
            for depth in 0..=n as usize {
                let count = count_split(n, &partial.allowed, Some(2), &go, depth).unwrap();
                assert_eq!(count, expected, "n {n} depth {depth}");
            }
        }
        // Tasks leave at most FREE_ROWS_PER_TASK rows without a given queen below them.
        let mut rows = [None; 32];
        rows[31] = Some(0);
        let allowed = Partial::new(&rows).unwrap().allowed;
        assert_eq!(task_depth(32, &allowed), 31 - FREE_ROWS_PER_TASK as usize);
        assert_eq!(task_depth(8, &[0xff; 32]), 3);
    }

    #[test]
    fn cancelling_stops_a_count_that_would_take_years() {
        let partial = Partial::new(&[None; 32]).unwrap();
        let stopped = crate::explore::testing::stopped_after_200ms(5, |cancel| {
            partial.count(Some(2), cancel)
        });
        assert_eq!(stopped, Err(Error::Cancelled));
    }

    #[test]
    fn conflicts_and_bad_placements_are_reported() {
        assert_eq!(
            Partial::new(&[Some(0), Some(1), None, None])
                .unwrap()
                .conflict(),
            Some((0, 1))
        );
        assert_eq!(
            Partial::new(&[Some(0), None, Some(0), None])
                .unwrap()
                .conflict(),
            Some((0, 2))
        );
        assert_eq!(
            Partial::new(&[Some(1), None, None, None])
                .unwrap()
                .conflict(),
            None
        );
        assert!(matches!(
            Partial::new(&[Some(4), None, None, None]),
            Err(Error::Placement(_))
        ));
        assert_eq!(Partial::new(&[]), Err(Error::BoardSize(0)));
        assert_eq!(Partial::new(&[None; 33]), Err(Error::BoardSize(33)));
    }
}
