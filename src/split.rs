//! Splitting a board into numbered tasks: the placements of its first rows.
//!
//! A task is a placement of the first `depth` rows (a prefix of column numbers) whose queens do
//! not attack one another, with a multiplicity. The mirror image of a solution (column c to
//! n-1-c) is again a solution, so only prefixes whose first queen is in the left half are
//! searched, and each counts twice. For odd n, a first queen on the middle column is its own
//! mirror; there the second queen (never on the middle column too) is taken in the left half
//! and counts twice, so such prefixes are at least two rows long.
//!
//! Tasks are numbered in lexicographic order of their prefixes. Progress, checkpoints, shards
//! and cluster ranks all speak of these numbers, so the order is part of the interface: for a
//! given n and depth it never changes.

use crate::kernel::Subboard;

/// The most rows a prefix may hold.
pub const MAX_DEPTH: u32 = 8;

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
/// `depth` is clamped to `1..=min(n, MAX_DEPTH)`; the middle-column prefixes of odd n are
/// always at least two rows long (one row for n = 1, which has nothing beside its middle).
pub fn tasks(n: u32, depth: u32) -> Vec<Task> {
    assert!((1..=32).contains(&n), "board size {n} out of range");
    let depth = clamp_depth(n, depth);
    let empty = Subboard::empty(n);
    let mut out = Vec::new();
    let mut prefix = Vec::with_capacity(depth as usize);
    for column in 0..n {
        let bit = 1u32 << column;
        prefix.push(column as u8);
        let board = empty.place(bit);
        if 2 * column + 1 < n {
            extend(board, depth - 1, u32::MAX, &mut prefix, 2, &mut out);
        } else if 2 * column + 1 == n {
            if n == 1 {
                out.push(Task {
                    prefix: prefix.clone(),
                    board,
                    multiplicity: 1,
                });
            } else {
                // The second queen in the left half only; it is never on the middle column.
                let left_half = (1u32 << (n / 2)) - 1;
                let rows = depth.max(2) - 1;
                extend(board, rows, left_half, &mut prefix, 2, &mut out);
            }
        }
        prefix.pop();
    }
    out
}

/// The split depth used when `depth` is asked for: 1 to the board size, at most `MAX_DEPTH`.
pub fn clamp_depth(n: u32, depth: u32) -> u32 {
    depth.clamp(1, n.min(MAX_DEPTH))
}

/// Appends every placement of `rows` more rows below `prefix`, the first of them restricted to
/// `first_row_columns`.
fn extend(
    board: Subboard,
    rows: u32,
    first_row_columns: u32,
    prefix: &mut Vec<u8>,
    multiplicity: u8,
    out: &mut Vec<Task>,
) {
    if rows == 0 {
        out.push(Task {
            prefix: prefix.clone(),
            board,
            multiplicity,
        });
        return;
    }
    let mut free = board.free() & first_row_columns;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        prefix.push(bit.trailing_zeros() as u8);
        extend(
            board.place(bit),
            rows - 1,
            u32::MAX,
            prefix,
            multiplicity,
            out,
        );
        prefix.pop();
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
