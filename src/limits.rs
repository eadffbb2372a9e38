//! The bounds the library's arguments are checked against: the board size, the split depth
//! and the thread count.
//!
//! They are the public API's contract rather than one engine's: the counter checks them, the
//! error messages name them, and every engine, stream and the command line is bounded by the
//! same numbers. They live here, below everything, so that each of those can read them
//! without reaching up into `lib.rs` or into a module that uses it back. The engines' own
//! limits (the join engine's sizes, the full-symmetry split's least board) live in their
//! folders.

/// The largest board the engines count, and `solve` enumerates: n = 32, so that a row's
/// columns fit one `u32` bitmask.
pub const MAX_N: u32 = 32;

/// The deepest split of a count into tasks: the first rows placed per task.
pub const MAX_SPLIT_DEPTH: u32 = 8;

/// The most worker threads a count may ask for.
pub const MAX_THREADS: usize = 1024;
