//! The JSON endpoints that answer in one piece: the sizes and their known counts, solution k,
//! the step to the next or previous solution, the `find` construction, the server's status.
//! (The ones that stream are in `streams.rs`.)
//!
//! Each look-up runs on a blocking thread with a flag that a closed connection sets. The
//! heavy ones, those that can take seconds (an index built on a board's first look-up,
//! solution k far into a board, any look-up where the solutions lie far apart), are jobs
//! ([`Jobs`](super::jobs::Jobs)): they count against the limits, `/api/status` lists them,
//! and `/api/cancel` stops them.

use super::jobs::{CancelOnDrop, Flag, Kind};
use super::limits::{
    MAX_FIND_N, MAX_INDEX_N, MAX_LIVE_N, MAX_N, MAX_TRACE_N, QUICK_FREE_ROWS, SPARSE_N,
};
use super::params::{ApiError, Params, QueryResult, count_json, parse_k, parse_solution, plural};
use super::state::{Shared, client_id};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use nqueens::browse::{self, Class, Direction, Index};
use nqueens::known;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// From this size on, building the index takes seconds: it is a heavy job.
const HEAVY_INDEX_N: u32 = 15;
/// Below [`SPARSE_N`], solution k within this many of an end of the list takes milliseconds.
const LIGHT_SEEK: u128 = 1_000;

/// `GET /api/sizes`: every size the page offers, with the known counts and the server's
/// limits.
pub async fn sizes(query: QueryResult) -> Result<Json<Value>, ApiError> {
    Params::read(query, &[])?;
    let sizes: Vec<Value> = (1..=MAX_N)
        .map(|n| {
            json!({
                "n": n,
                "total": known::total(n).map(count_json),
                "unique": known::unique(n).map(count_json),
            })
        })
        .collect();
    Ok(Json(json!({
        "max_n": MAX_N,
        "known_up_to": known::MAX_KNOWN_N,
        "limits": {
            "index": MAX_INDEX_N,
            "sparse": SPARSE_N,
            "live_count": MAX_LIVE_N,
            "quick_completions": QUICK_FREE_ROWS,
            "trace": MAX_TRACE_N,
            "find": MAX_FIND_N,
        },
        "sizes": sizes,
    })))
}

/// Runs `work` on a blocking thread for `client`: as a heavy job of `kind`, or light work
/// without one. A dropped request sets the work's flag; a stopped job is a 409 that says why.
pub async fn run_blocking<T: Send + 'static>(
    state: &Shared,
    client: &str,
    kind: Option<Kind>,
    work: impl FnOnce(&AtomicBool) -> Result<T, nqueens::Error> + Send + 'static,
) -> Result<T, ApiError> {
    let work_to_do = state.jobs.begin(client, kind).await?;
    let flag = work_to_do.flag.clone();
    let _guard = CancelOnDrop(flag.clone());
    // The job (and its slot) goes with the thread: it is freed when the work really stops.
    tokio::task::spawn_blocking(move || {
        let held = work_to_do;
        work(&held.flag.stop)
    })
    .await
    .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    .map_err(|e| match e {
        nqueens::Error::Cancelled => stopped(&flag),
        e => ApiError::from(e),
    })
}

/// The answer to a request whose work was stopped.
fn stopped(flag: &Flag) -> ApiError {
    ApiError(
        StatusCode::CONFLICT,
        format!("stopped before the end: {}", flag.explain()),
    )
}

/// The index of the n x n board (n <= [`MAX_INDEX_N`]), built once per size on first use.
async fn index(state: &Shared, client: &str, n: u32) -> Result<Arc<Index>, ApiError> {
    let cell = &state.indexes[n as usize - 1];
    let kind = (n >= HEAVY_INDEX_N).then_some(Kind::Index);
    cell.get_or_try_init(|| async move {
        run_blocking(state, client, kind, move |cancel| {
            Index::build(n, None, cancel).map(Arc::new)
        })
        .await
    })
    .await
    .cloned()
}

/// Solution k is out of range for a board of `total` solutions.
fn out_of_range(n: u32, k: u128, total: u128) -> ApiError {
    if total == 0 {
        return ApiError::bad(format!("n = {n} has no solutions"));
    }
    ApiError::bad(format!(
        "k = {k} is out of range: n = {n} has {}, numbered 0 to {}",
        plural(total, "solution"),
        total - 1
    ))
}

/// A solution as the page shows it: its columns, its number k (when known), and its class.
async fn describe(
    state: &Shared,
    client: &str,
    n: u32,
    columns: Vec<u32>,
    k: Option<u128>,
) -> Result<Value, ApiError> {
    let class = Class::of(&columns);
    let index = if n <= MAX_INDEX_N {
        Some(index(state, client, n).await?)
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

/// Whether finding solution k of n (above the index) is a heavy job: where the solutions lie
/// far apart, or k is far from both ends of the list.
fn seek_is_heavy(n: u32, k: u128) -> bool {
    let from_an_end = known::total(n).map_or(k, |total| k.min(total.saturating_sub(k + 1)));
    n >= SPARSE_N || from_an_end > LIGHT_SEEK
}

/// `GET /api/solution?n=N&k=K`: solution k of n in lexicographic order.
pub async fn solution(
    State(state): State<Shared>,
    headers: HeaderMap,
    query: QueryResult,
) -> Result<Json<Value>, ApiError> {
    let params = Params::read(query, &["n", "k"])?;
    let n = params.n(MAX_N)?;
    let k = parse_k(params.required("k")?)?;
    let client = client_id(&headers);
    let columns = if n <= MAX_INDEX_N {
        let index = index(&state, &client, n).await?;
        index
            .solution(k)
            .ok_or_else(|| out_of_range(n, k, index.total()))?
    } else {
        let kind = seek_is_heavy(n, k).then_some(Kind::Solution);
        run_blocking(&state, &client, kind, move |cancel| {
            browse::nth(n, k, None, cancel)
        })
        .await?
        .ok_or_else(|| match known::total(n) {
            Some(total) => out_of_range(n, k, total),
            None => ApiError::bad(format!("n = {n} has no solution {k}")),
        })?
    };
    Ok(Json(describe(&state, &client, n, columns, Some(k)).await?))
}

/// `GET /api/step?n=N&from=COLUMNS&direction=next|previous[&unique=1][&k=K]`: the next or
/// previous solution (with `unique`, the next or previous class representative);
/// `"columns": null` when there is none. `k`, the number of `from`, gives the answer's number
/// on boards too large for an index.
pub async fn step(
    State(state): State<Shared>,
    headers: HeaderMap,
    query: QueryResult,
) -> Result<Json<Value>, ApiError> {
    let params = Params::read(query, &["n", "from", "direction", "unique", "k"])?;
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
    let client = client_id(&headers);
    let kind = (n >= SPARSE_N).then_some(Kind::Solution);
    let found = run_blocking(&state, &client, kind, move |cancel| {
        browse::step(&from, direction, unique, cancel)
    })
    .await?;
    let Some(found) = found else {
        return Ok(Json(json!({ "n": n, "columns": null })));
    };
    let k = k.and_then(|k| match direction {
        Direction::Next => k.checked_add(found.moved),
        Direction::Previous => k.checked_sub(found.moved),
    });
    Ok(Json(describe(&state, &client, n, found.columns, k).await?))
}

/// `GET /api/find?n=N`: the `find` construction's solution (n up to [`MAX_FIND_N`]) and its
/// check.
pub async fn find(query: QueryResult) -> Result<Json<Value>, ApiError> {
    let n = Params::read(query, &["n"])?.n(MAX_FIND_N)?;
    Ok(Json(match nqueens::construct::solution(n) {
        Some(columns) => {
            let check = nqueens::check_columns(&columns);
            json!({
                "n": n,
                "valid": check.is_ok(),
                "check": match check {
                    Ok(()) => format!(
                        "valid: {}, one in each row, column and diagonal",
                        plural(n.into(), "queen")
                    ),
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

/// `GET /api/status`: the heavy jobs running (their kinds and seconds), of how many allowed.
pub async fn status(
    State(state): State<Shared>,
    query: QueryResult,
) -> Result<Json<Value>, ApiError> {
    Params::read(query, &[])?;
    let running: Vec<Value> = state
        .jobs
        .running()
        .into_iter()
        .map(|(kind, time)| json!({ "kind": kind.name(), "seconds": time.as_secs_f64() }))
        .collect();
    Ok(Json(json!({
        "jobs": running.len(),
        "max_jobs": super::jobs::MAX_JOBS,
        "running": running,
    })))
}

/// `POST /api/cancel[?kind=KIND]`: stops the calling client's heavy job of that kind, or all
/// of them.
pub async fn cancel(
    State(state): State<Shared>,
    headers: HeaderMap,
    query: QueryResult,
) -> Result<Json<Value>, ApiError> {
    let params = Params::read(query, &["kind"])?;
    let kind = params
        .get("kind")
        .map(|name| {
            Kind::ALL
                .into_iter()
                .find(|k| k.name() == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
                    ApiError::bad(format!(
                        "kind must be one of {}, not '{name}'",
                        names.join(", ")
                    ))
                })
        })
        .transpose()?;
    let client = client_id(&headers);
    Ok(Json(
        json!({ "cancelled": state.jobs.cancel(&client, kind) }),
    ))
}
