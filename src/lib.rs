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

// The crate's base, below everything: no module here imports a folder.
mod cpu;
mod error;
pub mod known;
mod limits;
pub mod symmetry;
// The engines: each uses the base alone.
pub mod join;
mod search;
// The engine vocabulary and every engine's numbered tasks (`Plan`), above the engines.
mod engine;
// The GPU engine counts the search's or the join's tasks of a `Plan`.
#[cfg(feature = "gpu")]
pub mod gpu;
// Running a count: threads, journals, shards, MPI.
mod run;
// Solution sets and what the page explores.
mod explore;
mod solutions;

pub use cpu::{InstructionSets, cap_instruction_sets};
pub use engine::{Choice, Engine, NO_GPU_SUPPORT, Plan, Reason, Request, Symmetry};
pub use error::{Error, Failure};
pub use explore::{browse, partial, trace};
pub use limits::{MAX_N, MAX_SPLIT_DEPTH, MAX_THREADS};
#[cfg(feature = "mpi")]
pub use run::cluster;
pub use run::counter::{Count, Counter};
pub use run::driver::default_threads;
pub use run::estimate::{Estimate, SYSTEMATIC_ERROR, TARGET_ERROR, TimedPart};
pub use run::job::{Job, Progress};
pub use run::{checkpoint, claim, recount, shard};
pub use search::kernel::instruction_set as search_instruction_set;
pub use search::textbook;
pub use solutions::iter::{Solutions, for_each_solution, solutions};
pub use solutions::solution::{Checker, Conflict, Placement, Solution, check_columns};
pub use solutions::{construct, format, parse, stream};

/// The README's Rust examples, compiled and run as doc tests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

/// The number of solutions of the n x n board (1 <= n <= 32), on every available core.
pub fn count(n: u32) -> Result<u128, Error> {
    Counter::new().count(n).map(|c| c.solutions)
}
