//! What the server's request handlers share: the state (the job limits, the boards' indexes,
//! the trace streams' permits) and who a request is from.

use super::jobs::Jobs;
use axum::http::HeaderMap;
use nqueens::browse::Index;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::{OnceCell, Semaphore};

/// What every request handler shares.
pub struct ServerState {
    pub(super) jobs: Arc<Jobs>,
    /// The index of each board up to [`super::limits::MAX_INDEX_N`], built on first use.
    pub(super) indexes: Vec<OnceCell<Arc<Index>>>,
    /// One permit per open trace stream, [`super::limits::MAX_TRACE_STREAMS`] in all.
    pub(super) trace_streams: Arc<Semaphore>,
}

/// The shared state as handlers take it.
pub type Shared = Arc<ServerState>;

/// Who asked: the id the request names in its `x-client` header (the page sends one per tab),
/// else a client of its own, met once. A client has at most one heavy job of each kind, and
/// its next one of a kind cancels the previous one.
///
/// Why not the peer's address, as before: every program on this machine comes from
/// 127.0.0.1, so all that named no client were one, and each request cancelled the one
/// before it (99 of 100 concurrent heavy requests got 409). The peer's port (one connection)
/// tells them apart, but a connection carries one request at a time, so a client per request
/// says the same more simply. What is given up: a program without `x-client` has nothing for
/// `/api/cancel` to stop (closing its connection stops its work). `x-client` is a label, not
/// a proof: any program here may name another's id and cancel its jobs, as it may stop the
/// server itself; a page of another origin cannot send it (the origin checks refuse it), and
/// the page's ids are random.
pub(super) fn client_id(headers: &HeaderMap) -> String {
    static UNNAMED: AtomicU64 = AtomicU64::new(0);
    headers
        .get("x-client")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64)
        .map_or_else(
            || format!("unnamed {}", UNNAMED.fetch_add(1, Ordering::Relaxed)),
            |v| format!("id {v}"),
        )
}
