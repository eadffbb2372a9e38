//! Splitting a board into numbered tasks: the placements of its first rows.
//!
//! A task is a placement of the first `depth` rows (a prefix of column numbers) whose queens do
//! not attack one another, with a multiplicity. The mirror image of a solution (column c to
//! n-1-c) is again a solution, so only prefixes whose first queen is in the left half are
//! searched, and each counts twice. For odd n, a first queen on the middle column is its own
//! mirror; there the second queen (never on the middle column too) is taken in the left half
//! and counts twice, so the prefixes of odd boards are at least two rows long.
//!
//! The prefixes are generated lazily by [`Prefixes`], which the solution streams share (they
//! need all prefixes, in order, without holding them all).
//!
//! Tasks are numbered in lexicographic order of their prefixes. Progress, checkpoints, shards
//! and cluster ranks all speak of these numbers, so the order is part of the interface: for a
//! given n and depth it never changes.

use crate::search::kernel::Subboard;

/// The most rows a prefix may hold.
pub const MAX_DEPTH: u32 = crate::limits::MAX_SPLIT_DEPTH;

/// One unit of work: the boards whose first rows are `prefix`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The column of the queen in each of the first rows, row 0 first.
    pub prefix: Vec<u8>,
    /// The board after the prefix is placed.
    pub board: Subboard,
    /// How many solutions each completion stands for: 2 where the mirror prefix is skipped.
    pub multiplicity: u8,
}

/// All tasks of an n x n board split at `depth` rows, in task-number order.
///
/// `depth` is clamped by [`clamp_depth`]: 1 to `min(n, MAX_DEPTH)`, and at least 2 on odd
/// boards (whose middle-column prefixes need a second row).
pub fn tasks(n: u32, depth: u32) -> Vec<Task> {
    assert!(
        (1..=crate::limits::MAX_N).contains(&n),
        "board size {n} out of range"
    );
    // The one-queen board is its own mirror image.
    let multiplicity = if n == 1 { 1 } else { 2 };
    Prefixes::new(n, clamp_depth(n, depth), true)
        .map(|(prefix, board)| Task {
            prefix,
            board,
            multiplicity,
        })
        .collect()
}

/// The split depth used when `depth` is asked for: 1 to the board size, at most `MAX_DEPTH`,
/// and at least 2 on odd boards larger than 1.
pub fn clamp_depth(n: u32, depth: u32) -> u32 {
    let least = if n % 2 == 1 && n > 1 { 2 } else { 1 };
    depth.clamp(least, n.min(MAX_DEPTH).max(least))
}

/// The prefixes of `depth` rows in lexicographic order, generated lazily (as pairs of the
/// prefix and the board after it): all of them, or (mirrored) those whose mirror image comes
/// later, the first row's left half and, on odd
/// boards, the middle column with a second row in the left half. Depth is at least 2 for
/// mirrored odd boards (at most n).
pub struct Prefixes {
    n: u32,
    depth: usize,
    mirrored: bool,
    /// For each placed row: the board before it and the columns still to try.
    stack: Vec<(Subboard, u32)>,
    prefix: Vec<u8>,
    started: bool,
}

impl Prefixes {
    /// The prefixes of `depth` rows of the n x n board (depth clamped to what the board
    /// allows), all of them or (`mirrored`) only those whose mirror image comes later.
    pub fn new(n: u32, depth: u32, mirrored: bool) -> Prefixes {
        let min = if mirrored && n % 2 == 1 && n > 1 {
            2
        } else {
            1
        };
        Prefixes {
            n,
            depth: depth.clamp(min, n) as usize,
            mirrored,
            stack: Vec::new(),
            prefix: Vec::new(),
            started: false,
        }
    }

    /// The columns allowed in the next row, given the prefix so far.
    fn allowed(&self, board: Subboard) -> u32 {
        let n = self.n;
        let mut free = board.free();
        if self.mirrored && n > 1 {
            let left_half = (1u32 << (n / 2)) - 1;
            match self.prefix.len() {
                0 => free &= left_half | if n % 2 == 1 { 1 << (n / 2) } else { 0 },
                1 if u32::from(self.prefix[0]) * 2 + 1 == n => free &= left_half,
                _ => {}
            }
        }
        free
    }
}

impl Prefixes {
    /// Moves to the next prefix; returns the board after it, or `None` at the end.
    fn advance(&mut self) -> Option<Subboard> {
        if !self.started {
            self.started = true;
            let empty = Subboard::empty(self.n);
            let allowed = self.allowed(empty);
            self.stack.push((empty, allowed));
        }
        while let Some(&mut (board, ref mut free)) = self.stack.last_mut() {
            if *free == 0 {
                self.stack.pop();
                continue;
            }
            let bit = *free & free.wrapping_neg();
            *free ^= bit;
            // Replace this row's column in the prefix.
            self.prefix.truncate(self.stack.len() - 1);
            self.prefix.push(bit.trailing_zeros() as u8);
            let next = board.place(bit);
            if self.prefix.len() == self.depth {
                return Some(next);
            }
            let allowed = self.allowed(next);
            self.stack.push((next, allowed));
        }
        None
    }

    /// How many prefixes there are, counting no further than `cap`.
    pub fn count_up_to(mut self, cap: usize) -> usize {
        let mut count = 0;
        while count < cap && self.advance().is_some() {
            count += 1;
        }
        count
    }
}

impl Iterator for Prefixes {
    type Item = (Vec<u8>, Subboard);

    fn next(&mut self) -> Option<Self::Item> {
        self.advance().map(|board| (self.prefix.clone(), board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_lexicographic_and_left_half() {
        for n in 1..=12 {
            for depth in 1..=4 {
                let all = tasks(n, depth);
                assert!(!all.is_empty() || n == 2 || n == 3, "n {n} depth {depth}");
                for pair in all.windows(2) {
                    assert!(pair[0].prefix < pair[1].prefix);
                }
                for task in &all {
                    assert!(2 * u32::from(task.prefix[0]) < n);
                }
            }
        }
    }

    #[test]
    fn all_prefixes_are_lexicographic_and_cover_every_solution() {
        for n in 1..=10 {
            for depth in 1..=4 {
                let all: Vec<(Vec<u8>, Subboard)> = Prefixes::new(n, depth, false).collect();
                assert!(all.windows(2).all(|w| w[0].0 < w[1].0));
                let total: u128 = all
                    .iter()
                    .map(|(_, b)| u128::from(crate::search::kernel::count(*b)))
                    .sum();
                assert_eq!(Some(total), crate::known::total(n), "n {n} depth {depth}");
                assert_eq!(
                    Prefixes::new(n, depth, false).count_up_to(usize::MAX),
                    all.len()
                );
            }
        }
    }

    #[test]
    fn middle_column_tasks_of_odd_boards_go_two_rows_deep() {
        let all = tasks(9, 1);
        let middle: Vec<_> = all.iter().filter(|t| t.prefix[0] == 4).collect();
        assert!(!middle.is_empty());
        for task in middle {
            assert_eq!(task.prefix.len(), 2);
            assert!(task.prefix[1] < 4);
            assert_eq!(task.multiplicity, 2);
        }
    }

    #[test]
    fn board_after_prefix_matches_placing_the_prefix() {
        for task in tasks(10, 3) {
            let mut board = Subboard::empty(10);
            for &column in &task.prefix {
                assert_ne!(board.free() & (1 << column), 0);
                board = board.place(1 << column);
            }
            assert_eq!(board, task.board);
        }
    }
}
