//! Browsing the solutions of a board in the order `solve` writes them (lexicographic order of
//! the column lists): solution k, the position of a solution, the next and previous one, and
//! a solution's class of equivalent boards.
//!
//! Solution k is found through an [`Index`]: the placements of the first rows that the
//! solution stream splits the board into (`split::Prefixes`), each with its number of
//! completions. Those counts say which placement holds solution k, and only that placement's
//! completions are then listed. The mirror image (column c to n-1-c) reverses the order of
//! the placements, so only the first half is counted. On 16 rows the index takes a second or
//! two of CPU time; beyond, [`nth`] counts the placements in order only until it passes k
//! (on a known board from whichever end is nearer), and [`step`] walks from a solution to
//! the next by the search itself, on any board up to 32 rows.

use crate::error::Error;
use crate::explore::partial;
use crate::known;
use crate::run::driver;
use crate::search::kernel::{self, Subboard};
use crate::search::split::Prefixes;
use crate::solutions::solution::check_columns;
use crate::symmetry::Transform;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many rows the placements of an index hold: on 16 rows about 20,000 placements of a
/// few hundred completions each, so listing one is instant.
const INDEX_DEPTH: u32 = 4;
/// The most rows [`nth`] leaves to one search between two looks at its cancel flag: a few
/// milliseconds.
const SEEK_FREE_ROWS: u32 = 13;
/// The most placements [`nth`] counts in one batch.
const SEEK_BATCH: usize = 4096;

/// The per-placement counts of the solutions of one board, for finding solution k at once.
///
/// ```
/// let index = nqueens::browse::Index::new(8, None)?;
/// assert_eq!(index.total(), 92);
/// assert_eq!(index.solution(0), Some(vec![0, 4, 7, 5, 2, 6, 1, 3]));
/// assert_eq!(index.position(&[0, 4, 7, 5, 2, 6, 1, 3]), Some(0));
/// # Ok::<(), nqueens::Error>(())
/// ```
pub struct Index {
    n: u32,
    depth: u32,
    /// The placements of the first `depth` rows in lexicographic order, with the board after
    /// each.
    prefixes: Vec<(Vec<u8>, Subboard)>,
    /// For each placement, the number of solutions up to and including its own.
    ends: Vec<u128>,
}

impl Index {
    /// Counts the completions of each placement of the n x n board's first rows, on
    /// `threads` worker threads (`None`: one per core).
    pub fn new(n: u32, threads: Option<usize>) -> Result<Index, Error> {
        Index::build(n, threads, &AtomicBool::new(false))
    }

    /// [`Index::new`], stopped with [`Error::Cancelled`] when `cancel` is set (it is read
    /// between placements, each a few milliseconds of search).
    pub fn build(n: u32, threads: Option<usize>, cancel: &AtomicBool) -> Result<Index, Error> {
        Error::check_board_size(n)?;
        let threads = driver::resolve_threads(threads)?;
        let depth = n.min(INDEX_DEPTH);
        let prefixes: Vec<(Vec<u8>, Subboard)> = Prefixes::new(n, depth, false).collect();
        let len = prefixes.len();
        // Placement len-1-i is the mirror image of placement i, with as many completions.
        let half = len.div_ceil(2);
        let counts = count_placements(threads, &prefixes[..half], cancel)?;
        let mut ends = Vec::with_capacity(len);
        let mut sum = 0;
        for i in 0..len {
            sum += counts[i.min(len - 1 - i)];
            ends.push(sum);
        }
        Ok(Index {
            n,
            depth,
            prefixes,
            ends,
        })
    }

    /// The board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The number of solutions.
    pub fn total(&self) -> u128 {
        self.ends.last().copied().unwrap_or(0)
    }

    /// Solution k (from 0) in lexicographic order, or `None` when there are k or fewer.
    pub fn solution(&self, k: u128) -> Option<Vec<u32>> {
        if k >= self.total() {
            return None;
        }
        let task = self.ends.partition_point(|&end| end <= k);
        let before = task.checked_sub(1).map_or(0, |t| self.ends[t]);
        let (prefix, board) = &self.prefixes[task];
        completion(prefix, *board, k - before)
    }

    /// The position of a solution of this board in lexicographic order, or `None` when
    /// `columns` is not one.
    pub fn position(&self, columns: &[u32]) -> Option<u128> {
        if columns.len() != self.n as usize || check_columns(columns).is_err() {
            return None;
        }
        let prefix: Vec<u8> = columns[..self.depth as usize]
            .iter()
            .map(|&c| c as u8)
            .collect();
        let task = self
            .prefixes
            .binary_search_by(|(p, _)| p.as_slice().cmp(&prefix))
            .ok()?;
        let mut position = task.checked_sub(1).map_or(0, |t| self.ends[t]);
        let (prefix, board) = &self.prefixes[task];
        let mut found = false;
        kernel::visit(*board, prefix, &mut |solution| {
            found = solution
                .iter()
                .zip(columns)
                .all(|(&s, &c)| u32::from(s) == c);
            if !found {
                position += 1;
            }
            !found
        });
        found.then_some(position)
    }
}

/// The completions of each placement, in their order, on `threads` threads; `cancel` is read
/// before each.
fn count_placements(
    threads: usize,
    placements: &[(Vec<u8>, Subboard)],
    cancel: &AtomicBool,
) -> Result<Vec<u128>, Error> {
    let cancelled = || cancel.load(Ordering::Relaxed);
    let counts = driver::run(
        threads,
        placements.len(),
        |i| {
            if cancelled() {
                0
            } else {
                u128::from(kernel::count(placements[i].1))
            }
        },
        |_, _| {},
    )?;
    if cancelled() {
        return Err(Error::Cancelled);
    }
    Ok(counts)
}

/// Completion `skip` (from 0, in lexicographic order) of the placement `prefix`, whose board
/// is `board`.
fn completion(prefix: &[u8], board: Subboard, mut skip: u128) -> Option<Vec<u32>> {
    let mut found = None;
    kernel::visit(board, prefix, &mut |columns| {
        if skip == 0 {
            found = Some(columns.iter().map(|&c| u32::from(c)).collect());
            return false;
        }
        skip -= 1;
        true
    });
    found
}

/// The mirror image of a board: column c becomes n-1-c. It reverses the lexicographic order.
fn mirror(columns: &[u32]) -> Vec<u32> {
    let n = columns.len() as u32;
    columns.iter().map(|&c| n - 1 - c).collect()
}

/// Solution k (from 0) of the n x n board in lexicographic order, without an [`Index`]: the
/// placements of the first rows are counted in order, on `threads` threads (`None`: one per
/// core), only until they pass k, and the completions of the one that holds k are then
/// listed. Where the total is known (n up to 27) and k lies in the second half, solution k is
/// the mirror image of solution total-1-k, so at most half the board is searched. `None` when
/// there are k or fewer solutions. `cancel` is read between placements, every few
/// milliseconds of search however far apart the solutions lie ([`Error::Cancelled`]).
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// let go = AtomicBool::new(false);
/// let seventh = nqueens::browse::nth(8, 7, None, &go)?;
/// assert_eq!(seventh, Some(vec![1, 5, 0, 6, 3, 7, 2, 4]));
/// assert_eq!(nqueens::browse::nth(8, 92, None, &go)?, None);
/// # Ok::<(), nqueens::Error>(())
/// ```
pub fn nth(
    n: u32,
    k: u128,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<Option<Vec<u32>>, Error> {
    Error::check_board_size(n)?;
    let threads = driver::resolve_threads(threads)?;
    if let Some(total) = known::total(n) {
        if k >= total {
            return Ok(None);
        }
        let from_end = total - 1 - k;
        if from_end < k {
            return Ok(nth(n, from_end, Some(threads), cancel)?.map(|c| mirror(&c)));
        }
    }
    // Placements deep enough that the search below one takes milliseconds: the flag is read
    // between them, and a search that finds no solution for a long while still hears it.
    let depth = n.saturating_sub(SEEK_FREE_ROWS).max(n.min(INDEX_DEPTH));
    let mut placements = Prefixes::new(n, depth, false);
    let mut before = 0u128;
    // A few placements per thread first, then twice as many each time: a small k costs a
    // few searches, a large one batches that keep every thread busy.
    let mut batch = 2 * threads;
    loop {
        let chunk: Vec<(Vec<u8>, Subboard)> = placements.by_ref().take(batch).collect();
        if chunk.is_empty() {
            return Ok(None);
        }
        let counts = count_placements(threads, &chunk, cancel)?;
        for ((prefix, board), count) in chunk.iter().zip(counts) {
            if k - before < count {
                return Ok(completion(prefix, *board, k - before));
            }
            before += count;
        }
        batch = (batch * 2).min(SEEK_BATCH);
    }
}

/// Which way to step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// To the next solution in lexicographic order.
    Next,
    /// To the previous one.
    Previous,
}

/// Where a step landed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The solution reached.
    pub columns: Vec<u32>,
    /// How many solutions forward or back it lies (1, or more when stepping over boards that
    /// are not their class's representative).
    pub moved: u128,
}

/// The first solution of the n x n board in lexicographic order (`None` for n = 2 and 3).
pub fn first(n: u32) -> Result<Option<Vec<u32>>, Error> {
    let full = u32::MAX >> (32 - n.clamp(1, 32));
    partial::first_allowed(n, &[full; 32], &AtomicBool::new(false))
}

/// The solution after (or before) the placement `columns` in lexicographic order, or `None`
/// when there is none; with `unique`, the next (or previous) one that is its class's
/// representative ([`Class::representative`]). `columns` need not be a solution, only a
/// column list of a board of 1 to 32 rows. `cancel` is read every few milliseconds.
///
/// ```
/// use nqueens::browse::{Direction, step};
/// use std::sync::atomic::AtomicBool;
/// let go = AtomicBool::new(false);
/// let next = step(&[0, 4, 7, 5, 2, 6, 1, 3], Direction::Next, false, &go)?.unwrap();
/// assert_eq!(next.columns, [0, 5, 7, 2, 6, 3, 1, 4]);
/// assert!(step(&[0, 4, 7, 5, 2, 6, 1, 3], Direction::Previous, false, &go)?.is_none());
/// # Ok::<(), nqueens::Error>(())
/// ```
pub fn step(
    columns: &[u32],
    direction: Direction,
    unique: bool,
    cancel: &AtomicBool,
) -> Result<Option<Step>, Error> {
    let n = u32::try_from(columns.len()).unwrap_or(u32::MAX);
    Error::check_board_size(n)?;
    if let Some((row, &column)) = columns.iter().enumerate().find(|&(_, &c)| c >= n) {
        return Err(Error::Placement(format!(
            "row {row}: column {column} is off the board (n = {n})"
        )));
    }
    // The mirror image reverses the order: the previous solution is the mirror image of the
    // next one after the mirror image.
    let mut at = match direction {
        Direction::Next => columns.to_vec(),
        Direction::Previous => mirror(columns),
    };
    let mut moved = 0;
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        let Some(next) = next_after(&at, cancel)? else {
            return Ok(None);
        };
        moved += 1;
        let found = match direction {
            Direction::Next => next.clone(),
            Direction::Previous => mirror(&next),
        };
        if !unique || Class::of(&found).representative == found {
            return Ok(Some(Step {
                columns: found,
                moved,
            }));
        }
        at = next;
    }
}

/// The first solution greater than `columns` in lexicographic order: the first completion
/// that keeps the first r rows and moves row r right, for the lowest row r that has one.
fn next_after(columns: &[u32], cancel: &AtomicBool) -> Result<Option<Vec<u32>>, Error> {
    let n = columns.len() as u32;
    let full = u32::MAX >> (32 - n);
    for row in (0..columns.len()).rev() {
        let mut allowed = [full; 32];
        for (slot, &column) in allowed.iter_mut().zip(&columns[..row]) {
            *slot = 1 << column;
        }
        // The columns right of this row's queen.
        allowed[row] = full & !((2u32 << columns[row]) - 1);
        if let Some(found) = partial::first_allowed(n, &allowed, cancel)? {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// A solution's class: the distinct boards the eight symmetries of the square make of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    /// The distinct images (1, 2, 4 or 8 of them), in lexicographic order.
    pub images: Vec<Vec<u32>>,
    /// The least of them: the board that stands for the class (the one that `solve` meets
    /// first, and the one [`crate::symmetry::canonical`] gives).
    pub representative: Vec<u32>,
}

impl Class {
    /// The class of the placement `columns` (a column list with every column on the board).
    ///
    /// ```
    /// let class = nqueens::browse::Class::of(&[1, 3, 0, 2]);
    /// assert_eq!(class.images, [vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
    /// assert_eq!(class.representative, [1, 3, 0, 2]);
    /// ```
    pub fn of(columns: &[u32]) -> Class {
        let n = columns.len() as u32;
        let mut images: Vec<Vec<u32>> = Transform::ALL
            .iter()
            .map(|t| {
                let mut image = vec![0; columns.len()];
                for (row, &column) in columns.iter().enumerate() {
                    let (r, c) = t.apply(n, (row as u32, column));
                    image[r as usize] = c;
                }
                image
            })
            .collect();
        images.sort();
        images.dedup();
        Class {
            representative: images[0].clone(),
            images,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    fn all(n: u32) -> Vec<Vec<u32>> {
        crate::solutions(n)
            .unwrap()
            .map(|s| s.columns().to_vec())
            .collect()
    }

    #[test]
    fn index_gives_every_solution_at_its_position() {
        for n in 1..=10 {
            let index = Index::new(n, Some(2)).unwrap();
            let listed = all(n);
            assert_eq!(Some(index.total()), known::total(n));
            for (k, solution) in listed.iter().enumerate() {
                assert_eq!(
                    index.solution(k as u128).as_ref(),
                    Some(solution),
                    "n {n} k {k}"
                );
                assert_eq!(index.position(solution), Some(k as u128));
            }
            assert_eq!(index.solution(listed.len() as u128), None);
        }
    }

    #[test]
    fn index_of_sixteen_rows_matches_the_table_and_the_stream_at_its_ends() {
        let started = std::time::Instant::now();
        let index = Index::new(16, None).unwrap();
        assert_eq!(Some(index.total()), known::total(16));
        let first = index.solution(0).unwrap();
        assert_eq!(Some(first.clone()), first_of(16));
        let last = index.solution(index.total() - 1).unwrap();
        // The last solution is the mirror image of the first.
        assert_eq!(last, first.iter().map(|c| 15 - c).collect::<Vec<_>>());
        let middle = index.solution(7_000_000).unwrap();
        assert_eq!(index.position(&middle), Some(7_000_000));
        eprintln!(
            "index of n = 16 and three look-ups: {:?}",
            started.elapsed()
        );
    }

    fn first_of(n: u32) -> Option<Vec<u32>> {
        first(n).unwrap()
    }

    #[test]
    fn nth_gives_every_solution_of_small_boards_in_order() {
        let go = AtomicBool::new(false);
        for n in 1..=9 {
            let listed = all(n);
            for (k, solution) in listed.iter().enumerate() {
                assert_eq!(
                    nth(n, k as u128, Some(2), &go).unwrap().as_ref(),
                    Some(solution)
                );
            }
            assert_eq!(nth(n, listed.len() as u128, Some(2), &go).unwrap(), None);
        }
        // A set flag stops it before any work.
        let stop = AtomicBool::new(true);
        assert_eq!(nth(20, 1_000_000, Some(2), &stop), Err(Error::Cancelled));
        assert_eq!(
            Index::build(12, Some(2), &stop).err(),
            Some(Error::Cancelled)
        );
    }

    #[test]
    fn nth_hears_its_flag_where_solutions_are_far_apart() {
        // The first solutions of 32 rows lie seconds of search apart: the flag is still read
        // every few milliseconds.
        let stopped = crate::explore::testing::stopped_after_200ms(3, |cancel| {
            nth(32, 1_000_000, Some(2), cancel)
        });
        assert_eq!(stopped, Err(Error::Cancelled));
    }

    #[test]
    fn positions_of_non_solutions_are_none() {
        let index = Index::new(6, None).unwrap();
        assert_eq!(index.position(&[0, 1, 2, 3, 4, 5]), None);
        assert_eq!(index.position(&[1, 3, 5, 0, 2]), None);
        assert_eq!(index.position(&[1, 3, 5, 0, 2, 4]), Some(0));
    }

    #[test]
    fn stepping_walks_the_list_both_ways() {
        let go = AtomicBool::new(false);
        for n in 1..=9 {
            let listed = all(n);
            assert_eq!(first_of(n), listed.first().cloned(), "n {n}");
            for (k, solution) in listed.iter().enumerate() {
                let next = step(solution, Direction::Next, false, &go).unwrap();
                assert_eq!(next.map(|s| s.columns), listed.get(k + 1).cloned());
                let previous = step(solution, Direction::Previous, false, &go).unwrap();
                let expected = k.checked_sub(1).map(|p| listed[p].clone());
                assert_eq!(previous.map(|s| s.columns), expected, "n {n} k {k}");
            }
        }
    }

    #[test]
    fn unique_stepping_visits_one_board_per_class() {
        let go = AtomicBool::new(false);
        for n in 4..=10 {
            let listed = all(n);
            let representatives: Vec<&Vec<u32>> = listed
                .iter()
                .filter(|s| {
                    crate::symmetry::canonical(&s.iter().map(|&c| c as u8).collect::<Vec<_>>())
                        == s.iter().map(|&c| c as u8).collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(Some(representatives.len() as u128), known::unique(n));
            let mut at = listed[0].clone();
            let mut seen = vec![at.clone()];
            while let Some(next) = step(&at, Direction::Next, true, &go).unwrap() {
                let k = listed.iter().position(|s| *s == next.columns).unwrap();
                let from = listed.iter().position(|s| *s == at).unwrap();
                assert_eq!(next.moved, (k - from) as u128);
                at = next.columns;
                seen.push(at.clone());
            }
            assert_eq!(seen.iter().collect::<Vec<_>>(), representatives, "n {n}");
            let back = step(&at, Direction::Previous, true, &go).unwrap();
            assert_eq!(back.map(|s| s.columns), seen.iter().rev().nth(1).cloned());
        }
    }

    #[test]
    fn stepping_far_boards_and_the_nth_solution() {
        let go = AtomicBool::new(false);
        let index = Index::new(12, None).unwrap();
        for k in [0, 1, 17, 250, 7_099, 7_100, 14_199] {
            assert_eq!(nth(12, k, Some(2), &go).unwrap(), index.solution(k));
        }
        assert_eq!(nth(12, 14_200, Some(2), &go).unwrap(), None);
        assert_eq!(nth(3, 0, Some(2), &go).unwrap(), None);
        assert_eq!(nth(4, 2, Some(2), &go).unwrap(), None);
        // 32 rows: the first solutions, in order, each a solution, the same by stepping and
        // by counting.
        let mut at = first_of(32).unwrap();
        for _ in 0..5 {
            let next = step(&at, Direction::Next, false, &go).unwrap().unwrap();
            assert!(next.columns > at);
            assert_eq!(check_columns(&next.columns), Ok(()));
            at = next.columns;
        }
        assert_eq!(nth(32, 5, Some(2), &go).unwrap(), Some(at));
        assert!(matches!(
            step(&[0, 4], Direction::Next, false, &go),
            Err(Error::Placement(_))
        ));
    }

    #[test]
    fn classes_hold_the_images_of_the_symmetries() {
        for n in 1..=9 {
            for solution in all(n) {
                let class = Class::of(&solution);
                let bytes: Vec<u8> = solution.iter().map(|&c| c as u8).collect();
                assert_eq!(class.images.len(), crate::symmetry::class_size(&bytes));
                let canonical: Vec<u32> = crate::symmetry::canonical(&bytes)
                    .iter()
                    .map(|&c| u32::from(c))
                    .collect();
                assert_eq!(class.representative, canonical);
                assert!(class.images.contains(&solution));
                assert!(class.images.iter().all(|i| check_columns(i).is_ok()));
            }
        }
    }
}
