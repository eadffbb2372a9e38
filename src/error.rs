//! The errors the library reports.

use thiserror::Error;

/// Everything that can go wrong in a call of the library.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// The board size is outside 1..=32.
    #[error("board size {0} is out of range: n must be between 1 and 32")]
    BoardSize(u32),
    /// Zero threads were asked for.
    #[error("the thread count must be at least 1")]
    NoThreads,
    /// The split depth is outside 1..=MAX_DEPTH.
    #[error("split depth {0} is out of range: it must be between 1 and {max}", max = crate::split::MAX_DEPTH)]
    SplitDepth(u32),
    /// The worker threads could not be started.
    #[error("cannot start the worker threads: {0}")]
    ThreadPool(String),
    /// A checkpoint journal cannot be used.
    #[error("checkpoint {0}")]
    Checkpoint(String),
    /// Shard results cannot be merged.
    #[error("{0}")]
    Shard(String),
    /// The engine asked for cannot count this board, or not within the memory limit.
    #[error("{0}")]
    Engine(String),
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
        if (1..=32).contains(&n) {
            Ok(())
        } else {
            Err(Error::BoardSize(n))
        }
    }

    pub(crate) fn output(error: &std::io::Error) -> Error {
        Error::Output(error.to_string())
    }
}
