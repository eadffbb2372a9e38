//! The sizes the page handles, one place for all: the endpoints in `api.rs` and `streams.rs`
//! check them, and `/api/sizes` tells the page of them. Kept apart from both files so that
//! each takes them from here, not from the other (they imported each other for these).

/// The largest board the page handles: the engines' limit.
pub const MAX_N: u32 = nqueens::MAX_N;
/// Boards up to this size have an [`Index`](nqueens::browse::Index): any k at once, and the
/// numbers of a solution's images.
pub const MAX_INDEX_N: u32 = 16;
/// From this size on the first solutions lie far apart (n = 32's first takes most of a
/// second of search): every look-up beyond the index is a heavy job.
pub const SPARSE_N: u32 = 28;
/// The largest board the page draws from the `find` construction.
pub const MAX_FIND_N: u32 = 1_000;
/// The largest board whose search the page animates.
pub const MAX_TRACE_N: u32 = 12;
/// The largest board the page counts live, with the engine `nqueens count` uses: n = 21
/// takes about seven minutes on two cores, n = 22 would take over an hour (2.3 core-hours).
pub const MAX_LIVE_N: u32 = 21;
/// A placement with at most this many rows without a queen is completed and counted at once
/// (on any board: an empty 14 x 14 board takes a tenth of a second); one with more is a heavy
/// job, and the page counts it only when asked.
pub const QUICK_FREE_ROWS: usize = 14;
/// Trace streams open at once, all clients together; one more is refused with a 503. The
/// trace is produced as it is read, and a reader that stops reading (the page's paused
/// animation, or a program that never reads) leaves hyper's write buffer full, about 400 KiB,
/// some 0.6 MB a stream in all: 400 such streams held 230 MB. 64 hold some 37 MB at most,
/// and a tab of the page reads one trace at a time. A stalled stream is not cut after a
/// while: the page stops reading for as long as its animation is paused, and a timeout
/// would end the search it shows.
pub const MAX_TRACE_STREAMS: usize = 64;
/// The seconds a client refused a trace stream is told to wait (`Retry-After`): a stream
/// ends when its reader leaves or reaches its end, which the server cannot foresee; a few
/// seconds let another reader go without a client asking many times a second.
pub const TRACE_RETRY_AFTER_S: u32 = 5;
