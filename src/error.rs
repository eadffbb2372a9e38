//! The errors the library reports, and the error from below (an I/O error, the thread
//! pool's) that caused one, kept as its [`source`](std::error::Error::source).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use thiserror::Error;

/// Everything that can go wrong in a call of the library.
///
/// An error caused by one from below (a file that cannot be written, threads that cannot be
/// started) says what failed and where ([`Failure`]), and keeps the cause as its
/// [`source`](std::error::Error::source) rather than in its message: print the chain
/// (`anyhow`'s `{:#}`, or a loop over `source()`) for the whole story.
///
/// New variants may come: a `match` needs a `_` arm.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
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
    /// The worker threads could not be started: the thread pool's error is the source.
    #[error(transparent)]
    ThreadPool(Failure),
    /// A checkpoint journal cannot be used: it is not one, it belongs to another run, it is
    /// damaged.
    #[error("checkpoint journal {0}")]
    Checkpoint(String),
    /// A checkpoint journal cannot be opened, locked, read, trimmed, written or synced: the
    /// failure names the journal ([`Failure::path`]) and keeps the I/O error as its source.
    #[error(transparent)]
    CheckpointIo(Failure),
    /// A journal or subtotals file read back (for an audit) cannot be read as one: it is
    /// neither, it is damaged or cut short, or it cannot be read at all. The message names
    /// the kind of file and its path.
    #[error("{0}")]
    Recorded(String),
    /// A file is in use by another run: it holds the file's lock (a checkpoint journal that
    /// another count is writing). Waiting for that run, or naming another file, is the remedy.
    #[error("{0}")]
    InUse(String),
    /// A task, or a part of one, that the count's plan does not have (a task number out of
    /// range, given to a counter, a checkpoint or a plan).
    #[error("{0}")]
    Task(String),
    /// Shard results cannot be merged: a shard missing or given twice, shards of two runs, a
    /// sum no board holds. Each file was read as a shard result; the set does not add up.
    #[error("{0}")]
    Shard(String),
    /// A file cannot be read as a shard result of this version: it is damaged or edited (its
    /// checksum, or a value no run of it can hold), of another format or version, or names a
    /// run no engine makes. The message names the file.
    #[error("{0}")]
    ShardFile(String),
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
    /// Writing the output failed: the I/O error is the source.
    #[error(transparent)]
    Output(Failure),
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

    /// Writing the output failed with `error`.
    pub(crate) fn output(error: std::io::Error) -> Error {
        Error::Output(Failure::new("cannot write the output", None, error))
    }

    /// The worker threads could not be started: rayon said `error`.
    pub(crate) fn thread_pool(error: rayon::ThreadPoolBuildError) -> Error {
        Error::ThreadPool(Failure::new("cannot start the worker threads", None, error))
    }

    /// The checkpoint journal at `path` failed with `error` while the run was `doing` (empty
    /// when opening it: the I/O error says enough).
    pub(crate) fn checkpoint_io(path: &Path, doing: &str, error: std::io::Error) -> Error {
        let context = if doing.is_empty() {
            format!("checkpoint journal {}", path.display())
        } else {
            format!("checkpoint journal {}: {doing}", path.display())
        };
        Error::CheckpointIo(Failure::new(context, Some(path), error))
    }
}

/// What failed, on which file (when there is one), and the error from below that made it
/// fail (an I/O error, the thread pool's), which is its
/// [`source`](std::error::Error::source): the cause is kept, not flattened into text.
///
/// Its message is what failed and where, without the cause's own words (those are the
/// source's: a chain printed whole says each once).
///
/// [`Error`](enum@Error) is `Clone`, `PartialEq` and `Eq`, and `std::io::Error` is none of
/// them: the cause is shared behind an `Arc` (a clone is the same error, its OS code and inner
/// error kept), and two failures are equal when they say the same on the same path and their
/// causes have the same I/O error kind (when they are I/O errors) and the same message. Two
/// errors from two calls are never the same object, and comparing what they say is what a
/// test of an error means.
#[derive(Clone, Debug)]
pub struct Failure {
    context: String,
    path: Option<PathBuf>,
    cause: Arc<dyn std::error::Error + Send + Sync>,
}

impl Failure {
    pub(crate) fn new(
        context: impl Into<String>,
        path: Option<&Path>,
        cause: impl std::error::Error + Send + Sync + 'static,
    ) -> Failure {
        Failure {
            context: context.into(),
            path: path.map(Path::to_path_buf),
            cause: Arc::new(cause),
        }
    }

    /// The file that could not be used, when the failure is one file's.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The cause, when it is an I/O error: its [`kind`](std::io::Error::kind) tells a full
    /// disk from a missing directory.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        self.cause.downcast_ref()
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.context)
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // The cause itself, not the Arc around it: `downcast_ref::<std::io::Error>()` on the
        // source finds it.
        Some(&*self.cause)
    }
}

impl PartialEq for Failure {
    fn eq(&self, other: &Failure) -> bool {
        let kind = |failure: &Failure| failure.io_error().map(std::io::Error::kind);
        self.context == other.context
            && self.path == other.path
            && kind(self) == kind(other)
            && self.cause.to_string() == other.cause.to_string()
    }
}

impl Eq for Failure {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn an_io_error_is_the_source_of_a_checkpoint_error_which_names_the_path() {
        let cause = std::io::Error::new(std::io::ErrorKind::StorageFull, "the disk is full");
        let error = Error::checkpoint_io(Path::new("/runs/j28"), "cannot write", cause);
        assert_eq!(
            error.to_string(),
            "checkpoint journal /runs/j28: cannot write"
        );
        let source = error.source().expect("the I/O error is kept");
        let io = source
            .downcast_ref::<std::io::Error>()
            .expect("an io::Error");
        assert_eq!(io.kind(), std::io::ErrorKind::StorageFull);
        assert_eq!(io.to_string(), "the disk is full");
        let Error::CheckpointIo(failure) = &error else {
            panic!("{error:?}")
        };
        assert_eq!(failure.path(), Some(Path::new("/runs/j28")));
        assert_eq!(
            failure.io_error().map(std::io::Error::kind),
            Some(io.kind())
        );
    }

    #[test]
    fn an_output_error_keeps_its_os_error_through_a_clone() {
        let error = Error::output(std::io::Error::from_raw_os_error(28));
        let clone = error.clone();
        assert_eq!(clone, error);
        let io = clone
            .source()
            .and_then(|s| s.downcast_ref::<std::io::Error>());
        assert_eq!(io.and_then(std::io::Error::raw_os_error), Some(28));
        assert_eq!(error.to_string(), "cannot write the output");
    }

    #[test]
    fn failures_with_other_causes_are_not_equal() {
        let full = Error::output(std::io::Error::from(std::io::ErrorKind::StorageFull));
        let gone = Error::output(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert_ne!(full, gone);
        let elsewhere = |path: &str| {
            let cause = std::io::Error::from(std::io::ErrorKind::StorageFull);
            Error::checkpoint_io(Path::new(path), "cannot sync", cause)
        };
        assert_ne!(elsewhere("a"), elsewhere("b"));
        assert_eq!(elsewhere("a"), elsewhere("a"));
    }
}
