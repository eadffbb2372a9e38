//! The errors the library reports.

use thiserror::Error;

/// Everything that can go wrong in a call of the library.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// The board size is outside 1..=32.
    #[error("board size {0} is out of range: n must be between 1 and {max}", max = crate::limits::MAX_N)]
    BoardSize(u32),
    /// Zero threads were asked for.
    #[error("the thread count must be at least 1")]
    NoThreads,
    /// More threads were asked for than [`crate::limits::MAX_THREADS`].
    #[error("{0} threads is too many: at most {max}", max = crate::limits::MAX_THREADS)]
    TooManyThreads(usize),
    /// The split depth is outside 1..=MAX_DEPTH.
    #[error("split depth {0} is out of range: it must be between 1 and {max}", max = crate::limits::MAX_SPLIT_DEPTH)]
    SplitDepth(u32),
    /// The worker threads could not be started.
    #[error("cannot start the worker threads: {0}")]
    ThreadPool(String),
    /// A checkpoint journal cannot be used.
    #[error("checkpoint {0}")]
    Checkpoint(String),
    /// A file is in use by another run: it holds the file's lock (a checkpoint journal that
    /// another count is writing). Waiting for that run, or naming another file, is the remedy.
    #[error("{0}")]
    InUse(String),
    /// A task, or a part of one, that the count's plan does not have (a task number out of
    /// range, given to a counter, a checkpoint or a plan).
    #[error("{0}")]
    Task(String),
    /// Shard results cannot be merged.
    #[error("{0}")]
    Shard(String),
    /// The engine asked for cannot count this board, or not within the memory limit.
    #[error("{0}")]
    Engine(String),
    /// A placement of queens is not one of the board it claims (a column off the board).
    #[error("{0}")]
    Placement(String),
    /// The caller's cancel flag stopped the work.
    #[error("cancelled")]
    Cancelled,
    /// The join engine does not fit in the memory limit ([`crate::Counter::max_memory`]).
    #[error(
        "the join engine needs at least {} MiB here ({} MiB for its quarter table), more than the memory limit",
        needed.div_ceil(1 << 20),
        table.div_ceil(1 << 20)
    )]
    Memory {
        /// The least memory it could count in, in bytes: its quarter table and the smallest
        /// pieces of half-boards on every thread.
        needed: u64,
        /// The quarter table's share of it, in bytes.
        table: u64,
    },
    /// The GPU engine failed: no adapter, a device lost, a shader that does not compile, a
    /// search the driver stopped early; or this build has no GPU support.
    #[error("GPU: {0}")]
    Gpu(String),
    /// Writing the output failed.
    #[error("cannot write the output: {0}")]
    Output(String),
}

impl Error {
    /// Checks that `n` is a board size the engines handle (1 to 32).
    pub(crate) fn check_board_size(n: u32) -> Result<(), Error> {
        if (1..=crate::limits::MAX_N).contains(&n) {
            Ok(())
        } else {
            Err(Error::BoardSize(n))
        }
    }

    pub(crate) fn output(error: &std::io::Error) -> Error {
        Error::Output(error.to_string())
    }
}
