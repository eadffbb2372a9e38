//! The full-symmetry split: tasks are the placements of the border queens, one per class.
//!
//! Every solution has exactly one queen in each of the four border lines: the top row, the
//! bottom row, the left column and the right column (a corner queen serves two lines). The
//! eight symmetries of the square map border placements to border placements, and a solution
//! with border `b` to a solution with border `g(b)`. So the solutions with border `g(b)` are as
//! many as those with border `b`, and
//!
//! ```text
//! total = sum over canonical borders b of |orbit(b)| * completions(b)
//! ```
//!
//! where a border is canonical when it is the least of its images. That searches about an
//! eighth of the solutions, and the border queens, fixed first, prune the inner search from
//! its first row on (the plain search learns of the bottom row only at the end).
//!
//! A task is one canonical border. Its inner search fills rows 1..n-2 with the kernel, every
//! square attacked by a border queen blocked, the left and right columns allowed only in the
//! rows of their border queens. Tasks are numbered in lexicographic order of their borders
//! (top column, bottom column, left row, right row).

use crate::kernel::{Blocks, RowBlocks, Subboard};
use crate::symmetry::Transform;

/// The four border queens of a board: the column of the queen in the top and bottom rows, the
/// row of the queen in the left and right columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Border {
    /// Column of the queen in row 0.
    pub top: u8,
    /// Column of the queen in row n-1.
    pub bottom: u8,
    /// Row of the queen in column 0.
    pub left: u8,
    /// Row of the queen in column n-1.
    pub right: u8,
}

impl Border {
    /// The squares of the border queens (a corner queen once).
    fn queens(self, n: u32) -> Vec<(u32, u32)> {
        let last = n - 1;
        let mut queens = vec![
            (0, u32::from(self.top)),
            (last, u32::from(self.bottom)),
            (u32::from(self.left), 0),
            (u32::from(self.right), last),
        ];
        queens.sort_unstable();
        queens.dedup();
        queens
    }

    /// The border of a set of queens that holds one queen in each border line.
    fn of_queens(n: u32, queens: &[(u32, u32)]) -> Border {
        let last = n - 1;
        let find = |pick: &dyn Fn(&(u32, u32)) -> Option<u32>| {
            queens.iter().find_map(pick).expect("a queen in every border line") as u8
        };
        Border {
            top: find(&|&(r, c)| (r == 0).then_some(c)),
            bottom: find(&|&(r, c)| (r == last).then_some(c)),
            left: find(&|&(r, c)| (c == 0).then_some(r)),
            right: find(&|&(r, c)| (c == last).then_some(r)),
        }
    }

    /// Whether the border queens are placed consistently (a corner queen is in both of its
    /// lines) and attack no one.
    fn is_valid(self, n: u32) -> bool {
        let last = n - 1;
        let (top, bottom, left, right) = (
            u32::from(self.top),
            u32::from(self.bottom),
            u32::from(self.left),
            u32::from(self.right),
        );
        let corners_agree = (top == 0) == (left == 0)
            && (top == last) == (right == 0)
            && (bottom == 0) == (left == last)
            && (bottom == last) == (right == last);
        if !corners_agree {
            return false;
        }
        let queens = self.queens(n);
        queens.iter().enumerate().all(|(i, &(r1, c1))| {
            queens[i + 1..]
                .iter()
                .all(|&(r2, c2)| r1 != r2 && c1 != c2 && r1.abs_diff(r2) != c1.abs_diff(c2))
        })
    }

    /// The distinct images of this border under the eight symmetries.
    fn orbit(self, n: u32) -> Vec<Border> {
        let queens = self.queens(n);
        let mut images: Vec<Border> = Transform::ALL
            .iter()
            .map(|t| {
                let moved: Vec<_> = queens.iter().map(|&q| t.apply(n, q)).collect();
                Border::of_queens(n, &moved)
            })
            .collect();
        images.sort_unstable();
        images.dedup();
        images
    }
}

/// One task of the full-symmetry engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BorderTask {
    /// The canonical border placement.
    pub border: Border,
    /// The columns of the queens placed below the top row before the task starts (the task's
    /// share of a border split deeper than the border alone).
    pub prefix: Vec<u8>,
    /// How many borders its class holds (1, 2, 4 or 8): each completion counts this often.
    pub weight: u8,
    /// The inner board still to fill: rows 1 + prefix length ..= n-2.
    pub board: Subboard,
    /// The squares of those rows that the border forbids.
    pub blocks: RowBlocks,
}

/// Every task of the n x n board (n >= 4; smaller boards are left to the mirror split) split
/// at `depth` rows (1: the border alone; each more row splits every border by the placements
/// of one more inner row), in task-number order: by border, then by prefix.
pub fn tasks(n: u32, depth: u32) -> Vec<BorderTask> {
    let inner_rows = depth.clamp(1, n - 1) - 1;
    let mut out = Vec::new();
    for task in borders(n) {
        split_deeper(task, inner_rows.min(n - 2), &mut out);
    }
    out
}

/// Appends the tasks of `task` split by the placements of `rows` more inner rows.
fn split_deeper(task: BorderTask, rows: u32, out: &mut Vec<BorderTask>) {
    if rows == 0 {
        out.push(task);
        return;
    }
    let mut free = task.board.free() & !task.blocks.row(0);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let mut prefix = task.prefix.clone();
        prefix.push(bit.trailing_zeros() as u8);
        let next = BorderTask {
            border: task.border,
            prefix,
            weight: task.weight,
            board: task.board.place(bit),
            blocks: task.blocks.without_first_row(),
        };
        split_deeper(next, rows - 1, out);
    }
}

/// One task per canonical border, in border order.
fn borders(n: u32) -> Vec<BorderTask> {
    assert!((4..=32).contains(&n), "the border split needs 4 <= n <= 32, not {n}");
    let mut out = Vec::new();
    for top in 0..n as u8 {
        for bottom in 0..n as u8 {
            for left in 0..n as u8 {
                for right in 0..n as u8 {
                    let border = Border {
                        top,
                        bottom,
                        left,
                        right,
                    };
                    if !border.is_valid(n) {
                        continue;
                    }
                    let orbit = border.orbit(n);
                    if orbit[0] != border {
                        continue;
                    }
                    out.push(task(n, border, orbit.len() as u8));
                }
            }
        }
    }
    out
}

fn task(n: u32, border: Border, weight: u8) -> BorderTask {
    let last = n - 1;
    let queens = border.queens(n);
    let side_columns = 1 | (1 << last);
    let blocked: Vec<u32> = (1..last)
        .map(|row| {
            // The row of a side queen holds that queen and nothing else.
            if row == u32::from(border.left) {
                return !1;
            }
            if row == u32::from(border.right) {
                return !(1 << last);
            }
            // Elsewhere the side columns are taken, and so is every square a border queen
            // attacks along a diagonal.
            let mut blocked = side_columns;
            for &(r, c) in &queens {
                let distance = row.abs_diff(r);
                if c >= distance {
                    blocked |= 1 << (c - distance);
                }
                if c + distance <= last {
                    blocked |= 1 << (c + distance);
                }
            }
            blocked
        })
        .collect();
    let open = (u32::MAX >> (32 - n)) & !(1 << border.top) & !(1 << border.bottom);
    BorderTask {
        border,
        prefix: Vec::new(),
        weight,
        board: Subboard {
            open,
            left: 0,
            right: 0,
        },
        blocks: RowBlocks::new(&blocked),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{kernel, known};

    #[test]
    fn weighted_border_counts_give_the_known_totals() {
        for n in 4..=12 {
            for depth in 1..=4 {
            let total: u128 = tasks(n, depth)
                .iter()
                .map(|t| u128::from(t.weight) * u128::from(kernel::count_blocked(t.board, &t.blocks)))
                .sum();
            assert_eq!(total, known::total(n).unwrap(), "n = {n} depth {depth}");
            }
        }
    }

    #[test]
    fn orbits_partition_the_valid_borders() {
        let n = 8;
        let mut covered = 0;
        for task in tasks(n, 1) {
            covered += task.border.orbit(n).len();
            assert_eq!(task.border.orbit(n).len(), usize::from(task.weight));
        }
        let mut valid = 0;
        for code in 0..n.pow(4) {
            let digit = |k: u32| (code / n.pow(k) % n) as u8;
            let border = Border {
                top: digit(0),
                bottom: digit(1),
                left: digit(2),
                right: digit(3),
            };
            valid += usize::from(border.is_valid(n));
        }
        assert_eq!(covered, valid);
    }

    #[test]
    fn tasks_are_in_border_order() {
        let all = tasks(10, 3);
        assert!(all.windows(2).all(|w| (w[0].border, &w[0].prefix) < (w[1].border, &w[1].prefix)));
    }
}
