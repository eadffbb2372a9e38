//! Counting and enumerating the solutions of the n-queens puzzle, fast.
//!
//! ```
//! assert_eq!(nqueens::count(8)?, 92);
//! assert_eq!(nqueens::count(12)?, 14_200);
//! assert!(nqueens::count(33).is_err());
//! # Ok::<(), nqueens::Error>(())
//! ```
//!
//! Two engines count ([`Engine`]). The search splits the work into numbered tasks
//! (placements of the first rows, the first row halved by mirror symmetry, or one board per
//! class of eight), and counts each by a bitmask search whose last five rows are counted in
//! closed form. The join engine ([`join`]) counts pairs of compatible half-boards instead, in
//! tasks of its own. A rayon pool runs either's tasks ([`Counter`]); a count can keep a
//! journal and resume ([`checkpoint`]), or be dealt to machines ([`shard`]). The library
//! prints nothing and knows nothing of the command line. `ARCHITECTURE.md` in the
//! repository maps the code.

#![deny(missing_docs)]

pub mod browse;
pub mod checkpoint;
#[cfg(feature = "mpi")]
pub mod cluster;
pub mod construct;
mod counter;
pub(crate) mod driver;
mod engine;
mod error;
pub(crate) mod finish;
pub mod format;
pub(crate) mod full;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod join;
pub(crate) mod kernel;
pub mod known;
pub mod parse;
pub mod partial;
pub mod shard;
mod solution;
mod solutions;
pub(crate) mod split;
pub mod stream;
pub mod symmetry;
pub mod trace;

pub use counter::{Count, Counter, Job, Progress};
pub use driver::{MAX_THREADS, default_threads};
pub use engine::{Engine, NO_GPU_SUPPORT, Plan, Symmetry};
pub use error::Error;
pub use solution::{Conflict, Solution, check_columns};
pub use solutions::{Solutions, for_each_solution, solutions};

/// The README's Rust examples, compiled and run as doc tests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

/// The largest board the engines count, and `solve` enumerates: n = 32, so that a row's
/// columns fit one `u32` bitmask.
pub const MAX_N: u32 = 32;

/// The deepest split of a count into tasks: the first rows placed per task.
pub const MAX_SPLIT_DEPTH: u32 = split::MAX_DEPTH;

/// The number of solutions of the n x n board (1 <= n <= 32), on every available core.
pub fn count(n: u32) -> Result<u128, Error> {
    Counter::new().count(n).map(|c| c.solutions)
}
