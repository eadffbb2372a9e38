//! What the server's request handlers share: the state (the job limits, the boards' indexes)
//! and who a request is from.

use super::jobs::Jobs;
use axum::http::HeaderMap;
use nqueens::browse::Index;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::OnceCell;

/// What every request handler shares.
pub struct ServerState {
    pub(super) jobs: Arc<Jobs>,
    /// The index of each board up to [`super::limits::MAX_INDEX_N`], built on first use.
    pub(super) indexes: Vec<OnceCell<Arc<Index>>>,
}

/// The shared state as handlers take it.
pub type Shared = Arc<ServerState>;

/// Who asked: the page's own id for its tab (the `x-client` header), else the peer's address.
/// A client has at most one heavy job at a time.
pub(super) fn client_id(headers: &HeaderMap, peer: SocketAddr) -> String {
    headers
        .get("x-client")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64)
        .map_or_else(|| format!("ip {}", peer.ip()), |v| format!("id {v}"))
}
