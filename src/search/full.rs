//! The full-symmetry split: one board searched for (nearly) every class of eight.
//!
//! Every solution has a queen in each border line (top and bottom row, left and right column).
//! Measure each border queen's distance from the two corners of its line: eight *flags* (a
//! corner and one of its two lines), each with a distance. Call `B` the least of the eight.
//! The eight symmetries of the square act on the flags simply transitively, so every class of
//! equivalent solutions has members whose least flag is (top row, top-left corner): boards
//! whose top queen stands in column `B` and whose other border queens are all at least `B`
//! from every corner. Those are the only boards searched.
//!
//! A class may have several such members. If a solution's least distance is reached by `m`
//! flags, exactly `m` of the group's elements map it to a searched board, and counting each
//! searched board `8 / m` times gives every class its exact size (the classes of 2 and 4
//! included, without comparing rotated boards at the leaves). Weights of `8 / 3` occur, so the
//! engine counts in units of a third: a completion is worth `24 / m`.
//!
//! * **Corner** (`B = 0`, a queen on the top-left corner): two flags, and no other corner can
//!   hold a queen, so `m = 2`. A solution and its transpose both keep the corner queen; only
//!   the one whose row-1 queen's column is below its column-1 queen's row is searched, by
//!   blocking column 1 in rows 2..=that column, and counts `8` (24 units).
//! * **Side** (`1 <= B < n-1-B`): the side columns are blocked in the rows nearer than `B` to a
//!   corner, the bottom row in the columns nearer than `B`. `m` is one plus the number of other
//!   border queens exactly `B` from a corner: the side queens in rows `B` and `n-1-B`, the
//!   bottom queen in columns `B` and `n-1-B`. Row `B` is near the top, where the search tree
//!   is narrow, so each task fixes what stands there (no side queen, the left one, or the
//!   right one) with blocks. The bottom row, and row `n-1-B` when it is among the last five
//!   rows, are in the closed form, which splits its completions by those ties at no search
//!   cost. When row `n-1-B` is higher, tasks fix it like row `B`.
//!
//! Tasks are numbered in this order: corner tasks by the column of the row-1 queen, then side
//! tasks by `B`, the tie at row `B` (none, left, right) and the tie at row `n-1-B`; split
//! deeper, each by the columns of the next rows in increasing order.

use crate::search::finish::{ClosedForm, FINISH_ROWS};
use crate::search::kernel::{RowBlocks, Rules, Subboard};
use std::sync::Arc;

/// The full-symmetry engine needs the first rows of the search clear of the closed form.
pub const MIN_N: u32 = 8;

/// A task's value is in thirds of a solution.
pub const UNITS_PER_SOLUTION: u128 = 3;

/// What a side task fixes in one of the rows `B` and `n-1-B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SideQueen {
    /// Neither side column holds the row's queen.
    Neither,
    /// The left column does.
    Left,
    /// The right column does.
    Right,
    /// The row is left to the closed form, which tells the cases apart.
    Open,
}

/// Which canonical boards a task covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Case {
    /// A queen on the top-left corner, the row-1 queen in column `second`.
    Corner {
        /// The column of the queen of row 1.
        second: u8,
    },
    /// The top queen in column `top` = B, with what rows B and n-1-B hold fixed.
    Side {
        /// The column of the top queen, B.
        top: u8,
        /// Row B.
        near: SideQueen,
        /// Row n-1-B.
        far: SideQueen,
    },
}

/// One task of the full-symmetry engine.
#[derive(Clone, Debug)]
pub struct FullTask {
    /// The boards it covers.
    pub case: Case,
    /// The columns of the queens of the first rows (row 0 first) placed before the search.
    pub prefix: Vec<u8>,
    /// The board after the prefix.
    pub board: Subboard,
    /// The blocks and the weights of the search, shared by the tasks of one case.
    pub rules: Arc<Weighted>,
}

/// The rules of one full-symmetry search: its blocked squares, and what a completion is worth
/// given the ties that the closed form decides.
#[derive(Clone, Debug)]
pub struct Weighted {
    blocks: RowBlocks,
    /// Units per completion with 0, 1 or 2 more ties found in the closed form.
    units: [u64; 3],
    /// The columns whose bottom-row queen is a tie (`n` = none, for the corner case).
    bottom_ties: [u32; 2],
    /// The row among the last five whose side queen is a tie, if the closed form decides it.
    side_row: Option<u32>,
    /// The side columns.
    sides: [u32; 2],
}

impl Rules for Weighted {
    #[inline(always)]
    fn blocked(&self, row: usize) -> u32 {
        self.blocks.blocked(row)
    }

    #[inline(always)]
    fn finish(&self, open: u32, left: u32, right: u32) -> u64 {
        let found = self.blocks.survivors(open, left, right);
        let all = found.permutations;
        // Nine in ten of these calls find no completion at all: skip the tie bookkeeping.
        if all == 0 {
            return 0;
        }
        let bottom = found.placing(4, self.bottom_ties[0]) | found.placing(4, self.bottom_ties[1]);
        let side = match self.side_row {
            Some(row) => found.placing(row, self.sides[0]) | found.placing(row, self.sides[1]),
            None => 0,
        };
        let with_bottom = u64::from((all & bottom).count_ones());
        let with_side = u64::from((all & side).count_ones());
        let with_both = u64::from((all & bottom & side).count_ones());
        let none = u64::from(all.count_ones()) - with_bottom - with_side + with_both;
        let one = with_bottom + with_side - 2 * with_both;
        none * self.units[0] + one * self.units[1] + with_both * self.units[2]
    }

    fn closed_form(&self) -> ClosedForm {
        let columns = |list: [u32; 2]| list.iter().fold(0u32, |mask, &c| mask | bit(c));
        let sides = columns(self.sides);
        ClosedForm {
            units: self.units.map(|units| units as u32),
            last_row_ties: columns(self.bottom_ties),
            side_ties: self.side_row.map(|row| (row, sides)),
            ..self.blocks.closed_form()
        }
    }
}

/// Column `c`'s bit, none for a column past 31 (the "no such column" of a rule).
fn bit(c: u32) -> u32 {
    1u32.checked_shl(c).unwrap_or(0)
}

/// What a completion is worth under a [`Weighted`] rule, for a search that places every row
/// itself instead of leaving the last five to the closed form (the GPU engine's).
#[cfg_attr(not(feature = "gpu"), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ties {
    /// Units per completion with 0, 1 or 2 ties.
    pub units: [u64; 3],
    /// The columns where a bottom-row queen is a tie.
    pub bottom_columns: u32,
    /// The board row whose side queen is a tie, if the closed form decided it.
    pub side_row: Option<u32>,
    /// The side columns.
    pub side_columns: u32,
}

impl Weighted {
    /// The weights of this rule on the n x n board, as [`Ties`].
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    pub(crate) fn ties(&self, n: u32) -> Ties {
        let columns = |list: [u32; 2]| {
            list.iter()
                .filter(|&&c| c < n)
                .fold(0u32, |mask, &c| mask | 1 << c)
        };
        Ties {
            units: self.units,
            bottom_columns: columns(self.bottom_ties),
            side_row: self.side_row.map(|row| n - FINISH_ROWS + row),
            side_columns: columns(self.sides),
        }
    }
}

/// Every task of the n x n board (`MIN_N <= n <= 32`) split at `depth` rows (1 or 2: the
/// cases alone; more: each split by the placements of further rows), in task-number order.
///
/// Their number grows some fivefold a row (n = 16 at 8 rows: 5.8 million):
/// [`count_up_to`] counts them without building them, so that a caller can choose a depth
/// whose tasks fit in memory first.
pub fn tasks(n: u32, depth: u32) -> Vec<FullTask> {
    assert!(
        (MIN_N..=crate::limits::MAX_N).contains(&n),
        "the full-symmetry split needs {MIN_N} <= n <= 32"
    );
    let depth = clamp_depth(n, depth);
    let mut out = Vec::new();
    for task in cases(n) {
        // Every task of a case at this depth obeys the same rules: one copy, shared (a
        // copy per task made the tasks of n = 16 at 8 rows take 3 GB).
        let rules = Arc::new(deeper(
            &task.rules,
            (depth as usize).saturating_sub(task.prefix.len()),
        ));
        walk(&task, depth, &mut |prefix, board| {
            out.push(FullTask {
                case: task.case,
                prefix: prefix.to_vec(),
                board,
                rules: rules.clone(),
            });
            true
        });
    }
    out
}

/// How many tasks [`tasks`] makes for the n x n board split at `depth` rows, counting no
/// further than `cap`: the placements are walked, nothing is built.
pub fn count_up_to(n: u32, depth: u32, cap: usize) -> usize {
    let depth = clamp_depth(n, depth);
    let mut count = 0;
    for task in cases(n) {
        if count >= cap {
            break;
        }
        walk(&task, depth, &mut |_, _| {
            count += 1;
            count < cap
        });
    }
    count.min(cap)
}

/// The split depth used when `depth` is asked for: the closed form keeps its five rows and
/// the stack search at least one more.
pub fn clamp_depth(n: u32, depth: u32) -> u32 {
    depth.clamp(1, n - FINISH_ROWS - 1)
}

/// The rules of a search started `rows` rows further down.
pub(crate) fn deeper(rules: &Weighted, rows: usize) -> Weighted {
    let mut blocks = rules.blocks.clone();
    for _ in 0..rows {
        blocks = blocks.without_first_row();
    }
    Weighted {
        blocks,
        ..rules.clone()
    }
}

/// Calls `visit` with the prefix and the board of every split of `task` until its prefix
/// holds `depth` rows, in task-number order, while `visit` returns true; returns whether it
/// went through them all.
fn walk(task: &FullTask, depth: u32, visit: &mut dyn FnMut(&[u8], Subboard) -> bool) -> bool {
    let mut prefix = task.prefix.clone();
    walk_from(
        task.board,
        &task.rules,
        0,
        &mut prefix,
        depth as usize,
        visit,
    )
}

/// [`walk`] from `board`, `row` rows below the case's own prefix.
fn walk_from(
    board: Subboard,
    rules: &Weighted,
    row: usize,
    prefix: &mut Vec<u8>,
    depth: usize,
    visit: &mut dyn FnMut(&[u8], Subboard) -> bool,
) -> bool {
    if prefix.len() >= depth {
        return visit(prefix, board);
    }
    let mut free = board.free() & !rules.blocked(row);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        prefix.push(bit.trailing_zeros() as u8);
        let go_on = walk_from(board.place(bit), rules, row + 1, prefix, depth, visit);
        prefix.pop();
        if !go_on {
            return false;
        }
    }
    true
}

/// One task per case, before any deeper split: the corner tasks, then the side tasks. Set-up
/// code, run once per plan, never inside a search.
fn cases(n: u32) -> Vec<FullTask> {
    let mut out = corner_cases(n);
    out.extend(side_cases(n));
    out
}

/// The corner tasks (`B = 0`): the queen of row 1 in column `second`, the column-1 queen
/// below row `second`.
fn corner_cases(n: u32) -> Vec<FullTask> {
    let last = n - 1;
    let mut out = Vec::new();
    let corner = Subboard::empty(n).place(1);
    for second in 2..last {
        let bit = 1u32 << second;
        if corner.free() & bit == 0 {
            continue;
        }
        let rows: Vec<u32> = (2..n)
            .map(|row| if row <= second { 0b10 } else { 0 })
            .collect();
        out.push(FullTask {
            case: Case::Corner {
                second: second as u8,
            },
            prefix: vec![0, second as u8],
            board: corner.place(bit),
            rules: Arc::new(Weighted {
                blocks: RowBlocks::new(&rows),
                units: [24, 24, 24],
                bottom_ties: [n, n],
                side_row: None,
                sides: [n, n],
            }),
        });
    }
    out
}

/// The side tasks (`1 <= B < n-1-B`): the top queen in column b, every other border queen at
/// least b from a corner; by `B`, then what row `B` and row `n-1-B` hold.
fn side_cases(n: u32) -> Vec<FullTask> {
    let last = n - 1;
    let mut out = Vec::new();
    for b in 1..=(n - 2) / 2 {
        let far_row = last - b;
        let far_in_closed_form = far_row + FINISH_ROWS > last;
        let choices = [SideQueen::Neither, SideQueen::Left, SideQueen::Right];
        let fars: &[SideQueen] = if far_in_closed_form {
            &[SideQueen::Open]
        } else {
            &choices
        };
        for near in choices {
            for &far in fars {
                if near != SideQueen::Neither && near == far {
                    continue; // one queen per column
                }
                let fixed_ties = [near, far]
                    .iter()
                    .filter(|&&s| s == SideQueen::Left || s == SideQueen::Right)
                    .count() as u64;
                let m = 1 + fixed_ties;
                out.push(FullTask {
                    case: Case::Side {
                        top: b as u8,
                        near,
                        far,
                    },
                    prefix: vec![b as u8],
                    board: Subboard::empty(n).place(1 << b),
                    rules: Arc::new(Weighted {
                        blocks: RowBlocks::new(&side_blocks(n, b, near, far)),
                        units: [24 / m, 24 / (m + 1), 24 / (m + 2).min(4)],
                        bottom_ties: [b, far_row],
                        side_row: far_in_closed_form.then(|| far_row - (last - (FINISH_ROWS - 1))),
                        sides: [0, last],
                    }),
                });
            }
        }
    }
    out
}

/// The blocked columns of rows 1 to n-1 of the side task with top queen in column `b`: rows
/// `b` and `n-1-b` as `near` and `far` fix them, the side columns in the rows nearer than `b`
/// to a corner, the bottom row's columns nearer than `b` to a corner.
fn side_blocks(n: u32, b: u32, near: SideQueen, far: SideQueen) -> Vec<u32> {
    let last = n - 1;
    let far_row = last - b;
    let all = u32::MAX >> (32 - n);
    let (left_side, right_side) = (1u32, 1u32 << last);
    let only = |side: SideQueen| match side {
        SideQueen::Neither => left_side | right_side,
        SideQueen::Left => all & !left_side,
        SideQueen::Right => all & !right_side,
        SideQueen::Open => 0,
    };
    (1..n)
        .map(|row| {
            if row == b {
                only(near)
            } else if row == far_row {
                only(far)
            } else if row == last {
                // The bottom queen at least b from both corners.
                let near_corners = (1u32 << b) - 1;
                near_corners | (near_corners << (last - b + 1))
            } else if row < b || row > far_row {
                left_side | right_side
            } else {
                0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;
    use crate::search::kernel;

    fn total(n: u32, depth: u32) -> u128 {
        let units: u128 = tasks(n, depth)
            .iter()
            .map(|t| u128::from(kernel::count_with(t.board, &*t.rules)))
            .sum();
        assert_eq!(units % UNITS_PER_SOLUTION, 0, "n {n}: {units} units");
        units / UNITS_PER_SOLUTION
    }

    #[test]
    fn weighted_counts_give_the_known_totals() {
        for n in MIN_N..=13 {
            for depth in 1..=4 {
                assert_eq!(
                    total(n, depth),
                    known::total(n).unwrap(),
                    "n {n} depth {depth}"
                );
            }
        }
    }

    #[test]
    fn tasks_are_counted_without_building_them_up_to_a_cap() {
        for n in [8, 11, 14] {
            for depth in 1..=5 {
                let len = tasks(n, depth).len();
                assert_eq!(
                    count_up_to(n, depth, usize::MAX),
                    len,
                    "n {n} depth {depth}"
                );
                assert_eq!(
                    count_up_to(n, depth, len / 2),
                    len / 2,
                    "n {n} depth {depth}"
                );
            }
        }
    }

    #[test]
    fn tasks_are_in_documented_order() {
        let all = tasks(12, 3);
        for pair in all.windows(2) {
            assert!((pair[0].case, &pair[0].prefix) < (pair[1].case, &pair[1].prefix));
        }
    }
}
