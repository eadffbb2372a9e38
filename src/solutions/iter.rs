//! The solutions of a board for library users: an iterator in lexicographic order, and a
//! parallel visitor.

use crate::error::Error;
use crate::run::driver;
use crate::search::kernel::{self, Subboard};
use crate::search::split::Prefixes;
use crate::solutions::solution::Solution;
use std::collections::VecDeque;

/// The solutions of an n x n board in lexicographic order of their column lists; see
/// [`solutions`].
pub struct Solutions {
    prefixes: Prefixes,
    buffered: VecDeque<Solution>,
}

/// Every solution of the n x n board (1 <= n <= 32), in lexicographic order, one thread. It
/// holds the solutions of one placement of the first two rows at a time.
///
/// ```
/// let first: Vec<String> = nqueens::solutions(6)?.map(|s| s.to_string()).collect();
/// assert_eq!(first, ["1 3 5 0 2 4", "2 5 1 4 0 3", "3 0 4 1 5 2", "4 2 0 5 3 1"]);
/// # Ok::<(), nqueens::Error>(())
/// ```
pub fn solutions(n: u32) -> Result<Solutions, Error> {
    Error::check_board_size(n)?;
    Ok(Solutions {
        prefixes: Prefixes::new(n, 2, false),
        buffered: VecDeque::new(),
    })
}

impl Iterator for Solutions {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        while self.buffered.is_empty() {
            let (prefix, board) = self.prefixes.next()?;
            let buffered = &mut self.buffered;
            kernel::visit(board, &prefix, &mut |columns| {
                buffered.push_back(Solution::new(
                    columns.iter().map(|&c| u32::from(c)).collect(),
                ));
                true
            });
        }
        self.buffered.pop_front()
    }
}

/// Calls `visit` with the column list of every solution of the n x n board (the same `u32`
/// columns as [`Solution::columns`]), from `threads` worker threads (`None`: one per core),
/// in no particular order.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// let seen = AtomicU64::new(0);
/// nqueens::for_each_solution(8, Some(2), |columns| {
///     assert!(nqueens::check_columns(columns).is_ok());
///     seen.fetch_add(1, Ordering::Relaxed);
/// })?;
/// assert_eq!(seen.into_inner(), 92);
/// # Ok::<(), nqueens::Error>(())
/// ```
pub fn for_each_solution(
    n: u32,
    threads: Option<usize>,
    visit: impl Fn(&[u32]) + Sync,
) -> Result<(), Error> {
    Error::check_board_size(n)?;
    let threads = driver::resolve_threads(threads)?;
    let tasks: Vec<(Vec<u8>, Subboard)> = Prefixes::new(n, 3, false).collect();
    driver::run(
        threads,
        tasks.len(),
        |i| {
            let (prefix, board) = &tasks[i];
            // The search's columns are bytes; each solution is widened on the stack.
            let mut wide = [0u32; crate::limits::MAX_N as usize];
            kernel::visit(*board, prefix, &mut |columns| {
                for (w, &c) in wide.iter_mut().zip(columns) {
                    *w = u32::from(c);
                }
                visit(&wide[..columns.len()]);
                true
            });
            0
        },
        |_, _| {},
    )?;
    Ok(())
}
