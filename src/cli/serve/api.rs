//! The JSON endpoints that answer at once: the sizes and their known counts, solution k,
//! the step to the next or previous solution, the `find` construction, the server's status.
//! (The long-running ones, which stream, are in `streams.rs`.)

use super::jobs::CancelOnDrop;
use super::params::{ApiError, Params, count_json, parse_k, parse_solution};
use super::{MAX_N, Shared};
use axum::Json;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use nqueens::browse::{self, Class, Direction, Index};
use nqueens::known;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Boards up to this size have an [`Index`]: any k at once.
pub const MAX_INDEX_N: u32 = 16;
/// Beyond [`MAX_INDEX_N`], solution k is reached by stepping from the first: k up to this.
pub const MAX_STEP_K: u128 = 10_000;
/// The largest board the page draws from the `find` construction.
pub const MAX_FIND_N: u32 = 1_000;
/// The largest board whose search the page animates.
pub const MAX_TRACE_N: u32 = 12;
/// The largest board the page counts live (about a quarter of an hour on two cores): beyond,
/// the count takes hours to days, and its tasks grow too long to stop on demand.
pub const MAX_LIVE_N: u32 = 20;

/// The query parameters, or a JSON error when they cannot be read.
pub type QueryResult =
    Result<Query<HashMap<String, String>>, axum::extract::rejection::QueryRejection>;

/// The parameters of a request, or a 400.
pub fn params(query: QueryResult) -> Result<Params, ApiError> {
    query
        .map(|Query(map)| Params(map))
        .map_err(|e| ApiError::bad(format!("unreadable query: {e}")))
}

/// `GET /api/sizes`: every size the page offers, with the known counts and the server's
/// limits.
pub async fn sizes() -> Json<Value> {
    let sizes: Vec<Value> = (1..=MAX_N)
        .map(|n| {
            json!({
                "n": n,
                "total": known::total(n).map(count_json),
                "unique": known::unique(n).map(count_json),
            })
        })
        .collect();
    Json(json!({
        "max_n": MAX_N,
        "known_up_to": known::MAX_KNOWN_N,
        "limits": {
            "index": MAX_INDEX_N,
            "step_k": MAX_STEP_K.to_string(),
            "live_count": MAX_LIVE_N,
            "trace": MAX_TRACE_N,
            "find": MAX_FIND_N,
        },
        "sizes": sizes,
    }))
}

/// The index of the n x n board (n <= [`MAX_INDEX_N`]), built once per size on first use.
async fn index(state: &Shared, n: u32) -> Result<Arc<Index>, ApiError> {
    let cell = &state.indexes[n as usize - 1];
    cell.get_or_try_init(|| async move {
        tokio::task::spawn_blocking(move || Index::new(n, None).map(Arc::new))
            .await
            .map_err(|e| ApiError(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
            .map_err(ApiError::from)
    })
    .await
    .cloned()
}

/// A solution as the page shows it: its columns, its number k (when known), and its class.
async fn describe(
    state: &Shared,
    n: u32,
    columns: Vec<u32>,
    k: Option<u128>,
) -> Result<Value, ApiError> {
    let class = Class::of(&columns);
    let index = if n <= MAX_INDEX_N {
        Some(index(state, n).await?)
    } else {
        None
    };
    let position = |c: &[u32]| index.as_ref().and_then(|i| i.position(c));
    let k = position(&columns).or(k);
    let images: Vec<Value> = class
        .images
        .iter()
        .map(|image| json!({ "columns": image, "k": position(image).map(count_json) }))
        .collect();
    Ok(json!({
        "n": n,
        "k": k.map(count_json),
        "total": known::total(n).map(count_json),
        "columns": columns,
        "class": {
            "size": class.images.len(),
            "is_representative": class.representative == columns,
            "representative": class.representative,
            "images": images,
        },
    }))
}

/// Runs `work` on a blocking thread with a cancel flag that is set if the request is dropped.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce(&AtomicBool) -> Result<T, nqueens::Error> + Send + 'static,
) -> Result<T, ApiError> {
    let flag = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(flag.clone());
    tokio::task::spawn_blocking(move || work(&flag))
        .await
        .map_err(|e| ApiError(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(ApiError::from)
}

/// `GET /api/solution?n=N&k=K`: solution k of n in lexicographic order.
pub async fn solution(
    State(state): State<Shared>,
    query: QueryResult,
) -> Result<Json<Value>, ApiError> {
    let params = params(query)?;
    let n = params.n(MAX_N)?;
    let k = parse_k(params.required("k")?)?;
    let columns = if n <= MAX_INDEX_N {
        let index = index(&state, n).await?;
        let total = index.total();
        if total == 0 {
            return Err(ApiError::bad(format!("n = {n} has no solutions")));
        }
        index.solution(k).ok_or_else(|| {
            ApiError::bad(format!(
                "k = {k} is out of range: n = {n} has {total} solutions (k from 0 to {})",
                total - 1
            ))
        })?
    } else {
        if k > MAX_STEP_K {
            return Err(ApiError::bad(format!(
                "k = {k} is out of reach: above n = {MAX_INDEX_N}, solution k is found by stepping from the first, k up to {MAX_STEP_K}"
            )));
        }
        blocking(move |cancel| browse::nth_by_stepping(n, k, cancel))
            .await?
            .ok_or_else(|| ApiError::bad(format!("n = {n} has no solution {k}")))?
    };
    Ok(Json(describe(&state, n, columns, Some(k)).await?))
}

/// `GET /api/step?n=N&from=COLUMNS&direction=next|previous[&unique=1][&k=K]`: the next or
/// previous solution (with `unique`, the next or previous class representative);
/// `"columns": null` when there is none. `k`, the number of `from`, gives the answer's number
/// on boards too large for an index.
pub async fn step(
    State(state): State<Shared>,
    query: QueryResult,
) -> Result<Json<Value>, ApiError> {
    let params = params(query)?;
    let n = params.n(MAX_N)?;
    let from = parse_solution(params.required("from")?, n)?;
    let direction = match params.required("direction")? {
        "next" => Direction::Next,
        "previous" | "prev" => Direction::Previous,
        other => {
            return Err(ApiError::bad(format!(
                "direction must be 'next' or 'previous', not '{other}'"
            )));
        }
    };
    let unique = params.flag("unique")?;
    let k = params.get("k").map(parse_k).transpose()?;
    let found = blocking(move |cancel| browse::step(&from, direction, unique, cancel)).await?;
    let Some(found) = found else {
        return Ok(Json(json!({ "n": n, "columns": null })));
    };
    let k = k.and_then(|k| match direction {
        Direction::Next => k.checked_add(found.moved),
        Direction::Previous => k.checked_sub(found.moved),
    });
    Ok(Json(describe(&state, n, found.columns, k).await?))
}

/// `GET /api/find?n=N`: the `find` construction's solution (n up to [`MAX_FIND_N`]) and its
/// check.
pub async fn find(query: QueryResult) -> Result<Json<Value>, ApiError> {
    let n = params(query)?.n(MAX_FIND_N)?;
    Ok(Json(match nqueens::construct::solution(n) {
        Some(columns) => {
            let check = nqueens::check_columns(&columns);
            json!({
                "n": n,
                "valid": check.is_ok(),
                "check": match check {
                    Ok(()) => format!("valid: {n} queens, one in each row, column and diagonal"),
                    Err(e) => format!("invalid: {e}"),
                },
                "columns": columns,
            })
        }
        None => json!({
            "n": n,
            "valid": false,
            "check": format!("no solution exists for n = {n}"),
            "columns": null,
        }),
    }))
}

/// `GET /api/status`: how many heavy jobs run, of how many allowed.
pub async fn status(State(state): State<Shared>) -> Json<Value> {
    Json(json!({
        "jobs": state.jobs.running(),
        "max_jobs": super::jobs::MAX_JOBS,
    }))
}

/// `POST /api/cancel`: stops the calling client's heavy job.
pub async fn cancel(
    State(state): State<Shared>,
    headers: HeaderMap,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
) -> Json<Value> {
    let client = super::client_id(&headers, peer);
    Json(json!({ "cancelled": state.jobs.cancel(&client) }))
}
