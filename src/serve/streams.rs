//! The endpoints that stream JSON Lines (one object a line) while they work: a live count
//! with its progress, the completions of a partial placement, and the trace of the search.
//!
//! The counts run on a blocking thread, as heavy jobs ([`Jobs`](super::jobs::Jobs)) unless
//! they are small, and report through a channel; the response stream writes a line at least
//! every [`TICK`], so that a closed connection is noticed (the write fails, hyper drops the
//! stream, and the stream's [`CancelOnDrop`] stops the work). The trace is produced as the
//! client reads it.

use super::jobs::{CancelOnDrop, Flag, Kind};
use super::limits::{
    MAX_LIVE_N, MAX_N, MAX_TRACE_N, MAX_TRACE_STREAMS, QUICK_FREE_ROWS, TRACE_RETRY_AFTER_S,
};
use super::params::{ApiError, Params, QueryResult, count_json, message};
use super::state::{Shared, client_id};
use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream, StreamExt};
use nqueens::partial::Partial;
use nqueens::trace::{Event, Trace};
use nqueens::{Counter, Engine, Error, Progress, known};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The longest a stream stays silent while its job runs.
const TICK: Duration = Duration::from_millis(250);
/// The largest request body accepted (a placement of 32 rows takes a few hundred bytes).
pub const MAX_BODY: usize = 4096;
/// How long a request's body may take to arrive once its head has: as long as the head.
const BODY_TIMEOUT: Duration = super::conn::HEAD_TIMEOUT;
/// Trace events sent in one piece.
const TRACE_BATCH: usize = 64;

/// One JSON object as a line of the stream.
fn line(value: &Value) -> Result<Bytes, std::io::Error> {
    let mut bytes = serde_json::to_vec(value).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    Ok(Bytes::from(bytes))
}

/// A JSON Lines response of `body`.
fn json_lines(
    body: impl Stream<Item = Result<Bytes, std::io::Error>> + Send + 'static,
) -> Response {
    Response::builder()
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .header(header::CACHE_CONTROL, "no-store")
        .body(Body::from_stream(body))
        .unwrap_or_default()
}

/// What a job's thread reports to its stream.
enum Report {
    /// A line to send now.
    Line(Value),
    /// The last line.
    End(Value),
}

/// Starts work for the client on a blocking thread (a heavy job of `kind`, or light work
/// without one) and streams what it reports: `opening` at once, if given, then the reports,
/// with a line of `ticking` (given the seconds elapsed) whenever the work has been silent for
/// a [`TICK`].
async fn run_job(
    state: &Shared,
    client: &str,
    kind: Option<Kind>,
    opening: Option<Value>,
    ticking: impl Fn(f64) -> Value + Send + Sync + 'static,
    work: impl FnOnce(&Flag, &mpsc::UnboundedSender<Report>) + Send + 'static,
) -> Result<Response, ApiError> {
    let work_to_do = state.jobs.begin(client, kind).await?;
    let (send, receive) = mpsc::unbounded_channel();
    let guard = CancelOnDrop(work_to_do.flag.clone());
    // The job (and its slot) goes with the thread: it is freed when the work really stops.
    tokio::task::spawn_blocking(move || {
        let held = work_to_do;
        work(&held.flag, &send);
    });
    let started = Instant::now();
    let opening = stream::iter(opening.map(|value| line(&value)));
    let ticking = Arc::new(ticking);
    let body = stream::unfold(
        (receive, guard, false),
        move |(mut receive, guard, ended)| {
            let ticking = ticking.clone();
            async move {
                if ended {
                    return None;
                }
                let (value, ended) = tokio::select! {
                    report = receive.recv() => match report {
                        Some(Report::Line(v)) => (v, false),
                        Some(Report::End(v)) => (v, true),
                        // The thread ended without a word: only a cancelled job does.
                        None => (json!({ "event": "cancelled", "reason": guard.0.reason() }), true),
                    },
                    // The tick says how things stand when it is sent, not when it was armed.
                    _ = tokio::time::sleep(TICK) => (ticking(started.elapsed().as_secs_f64()), false),
                };
                Some((line(&value), (receive, guard, ended)))
            }
        },
    );
    Ok(json_lines(opening.chain(body)))
}

/// The last line of a job that stopped on an error (or was cancelled, and why).
fn failure(e: &Error, flag: &Flag) -> Value {
    match e {
        Error::Cancelled => json!({ "event": "cancelled", "reason": flag.reason() }),
        e => json!({ "event": "error", "error": message(e) }),
    }
}

/// `GET /api/count?n=N`: counts n live (n up to [`MAX_LIVE_N`]) with the engine and settings
/// `nqueens count` uses. Streams `progress` lines (one at once, then at least every [`TICK`]:
/// tasks done, percent of the estimated work, elapsed seconds, ETA), then `done` with the
/// count, or `cancelled`.
pub async fn count(
    State(state): State<Shared>,
    headers: HeaderMap,
    query: QueryResult,
) -> Result<Response, ApiError> {
    let n = Params::read(query, &["n"])?.n(MAX_N)?;
    if n > MAX_LIVE_N {
        return Err(ApiError::bad(format!(
            "live counts go up to n = {MAX_LIVE_N}: n = {n} would take hours to days (the table above gives the known counts up to 27)"
        )));
    }
    let latest: Arc<Mutex<Option<Progress>>> = Arc::default();
    let seen = latest.clone();
    let ticking = move |elapsed: f64| {
        let progress = *seen.lock().unwrap_or_else(|e| e.into_inner());
        progress_line(progress, elapsed)
    };
    run_job(
        &state,
        &client_id(&headers),
        Some(Kind::Count),
        Some(progress_line(None, 0.0)),
        ticking,
        move |flag, send| {
            let started = Instant::now();
            let record = |p: Progress| {
                *latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(p);
            };
            // What `nqueens count` uses: the automatic engine (the join engine from n = 14),
            // its split, every core. Its tasks take a fraction of a second at n = 21, and a
            // cancel is heard between them.
            let counter = Counter::new()
                .engine(Engine::Auto)
                .cancel_on(&flag.stop)
                .on_progress(&record);
            let last = match counter.count(n) {
                Ok(count) => json!({
                    "event": "done",
                    "n": n,
                    "solutions": count_json(count.solutions),
                    "known": known::total(n).map(count_json),
                    "agrees": known::total(n).map(|k| k == count.solutions),
                    "engine": count.engine.name(),
                    "tasks": count.tasks,
                    "threads": count.threads,
                    "seconds": started.elapsed().as_secs_f64(),
                }),
                Err(e) => failure(&e, flag),
            };
            let _ = send.send(Report::End(last));
        },
    )
    .await
}

/// A `progress` line: the work done as the CLI's bar shows it, with an ETA from the estimated
/// work (the task count moves unevenly).
fn progress_line(progress: Option<Progress>, elapsed: f64) -> Value {
    let Some(p) = progress else {
        return json!({ "event": "progress", "done": 0, "tasks": null, "percent": 0.0, "elapsed_s": elapsed, "eta_s": null });
    };
    let fraction = p.work_done as f64 / p.work_total.max(1) as f64;
    let eta = (fraction > 0.0).then(|| elapsed * (1.0 - fraction) / fraction);
    json!({
        "event": "progress",
        "done": p.done,
        "tasks": p.total,
        "percent": 100.0 * fraction,
        "elapsed_s": elapsed,
        "eta_s": eta,
    })
}

/// The body of `POST /api/completions`, each field as given (a field given twice, or one
/// not named here, is refused by serde).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PlacementBody {
    #[serde(default)]
    n: Option<Value>,
    #[serde(default)]
    rows: Option<Value>,
    #[serde(default)]
    count: Option<Value>,
}

/// The body of `POST /api/completions`: `{"n": 8, "rows": [0, null, ...], "count": true}`,
/// as the placement and whether to count its completions (yes unless `"count": false`).
fn read_placement(body: &[u8]) -> Result<(Partial, bool), ApiError> {
    let body: PlacementBody = serde_json::from_slice(body).map_err(|e| {
        if e.is_data() {
            ApiError::bad(format!("the body is not a placement: {e}"))
        } else {
            ApiError::bad(format!("the body is not JSON: {e}"))
        }
    })?;
    // Absent (or null), and present with another type, are told apart.
    let n = match &body.n {
        None => {
            return Err(ApiError::bad(format!(
                "the body needs 'n', a whole number from 1 to {MAX_N}"
            )));
        }
        Some(n) => n.as_u64().ok_or_else(|| {
            ApiError::bad(format!(
                "'n' must be a whole number from 1 to {MAX_N}, not {n}"
            ))
        })?,
    };
    let n = super::params::parse_n(&n.to_string(), MAX_N)?;
    let rows = match &body.rows {
        None => {
            return Err(ApiError::bad(
                "the body needs 'rows', a list of n columns or nulls",
            ));
        }
        Some(rows) => rows.as_array().ok_or_else(|| {
            ApiError::bad(format!(
                "'rows' must be a list of n columns or nulls, not {rows}"
            ))
        })?,
    };
    if rows.len() != n as usize {
        return Err(ApiError::bad(format!(
            "'rows' must have n = {n} entries, not {}",
            rows.len()
        )));
    }
    let rows = rows
        .iter()
        .enumerate()
        .map(|(row, v)| match v {
            Value::Null => Ok(None),
            v => v
                .as_u64()
                .and_then(|c| u32::try_from(c).ok())
                .map(Some)
                .ok_or_else(|| ApiError::bad(format!("row {row}: '{v}' is not a column number"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let count = match body.count {
        None => true,
        Some(Value::Bool(count)) => count,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "'count' must be true or false, not {other}"
            )));
        }
    };
    Ok((Partial::new(&rows)?, count))
}

/// `POST /api/completions`: the solutions that complete a partial placement (any rows, n up
/// to 32). Streams `first` (the first completion, or null, and any pair of given queens that
/// attack each other) as soon as it is found, then, unless the body says `"count": false`,
/// `completions` with the count, or `cancelled`. A placement with more than
/// [`QUICK_FREE_ROWS`] empty rows is a heavy job.
pub async fn completions(
    State(state): State<Shared>,
    headers: HeaderMap,
    request: Request,
) -> Result<Response, ApiError> {
    let body = read_body(request, &state).await?;
    let (partial, wanted) = read_placement(&body)?;
    let free_rows = partial.rows().iter().filter(|r| r.is_none()).count();
    let kind = (free_rows > QUICK_FREE_ROWS).then_some(Kind::Completions);
    let ticking = |elapsed: f64| json!({ "event": "counting", "elapsed_s": elapsed });
    run_job(
        &state,
        &client_id(&headers),
        kind,
        None,
        ticking,
        move |flag, send| {
            let started = Instant::now();
            let conflict = partial.conflict();
            let first = match partial.first(&flag.stop) {
                Ok(first) => first,
                Err(e) => {
                    let _ = send.send(Report::End(failure(&e, flag)));
                    return;
                }
            };
            let none = first.is_none();
            let first = json!({
                "event": "first",
                "n": partial.n(),
                "conflict": conflict.map(|(a, b)| [a, b]),
                "first": first,
                "free_rows": free_rows,
            });
            if !wanted {
                let _ = send.send(Report::End(first));
                return;
            }
            let _ = send.send(Report::Line(first));
            // No first completion: there are none to count.
            let count = if none {
                Ok(0)
            } else {
                partial.count(None, &flag.stop)
            };
            let last = match count {
                Ok(count) => json!({
                    "event": "completions",
                    "completions": count_json(count),
                    "seconds": started.elapsed().as_secs_f64(),
                }),
                Err(e) => failure(&e, flag),
            };
            let _ = send.send(Report::End(last));
        },
    )
    .await
}

/// A request's body, in at most [`BODY_TIMEOUT`]: the head's timeout does not cover the
/// body, and a client that declares one and sends less would hold its connection for good.
async fn read_body(request: Request, state: &Shared) -> Result<Bytes, ApiError> {
    tokio::time::timeout(BODY_TIMEOUT, Bytes::from_request(request, state))
        .await
        .map_err(|_| {
            ApiError(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the body did not arrive within {} s",
                    BODY_TIMEOUT.as_secs()
                ),
            )
        })?
        .map_err(|e| {
            // Said in the page's words: axum's own text names its internals ("Failed to
            // buffer the request body").
            let message = if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                format!("the body is too large: at most {MAX_BODY} bytes")
            } else {
                format!("the body could not be read (at most {MAX_BODY} bytes)")
            };
            ApiError(e.status(), message)
        })
}

/// `GET /api/trace?n=N`: the steps of the search of n (up to [`MAX_TRACE_N`]), one line
/// each, produced as the client reads them; at most [`MAX_TRACE_STREAMS`] at once, a 503
/// beyond.
pub async fn trace(State(state): State<Shared>, query: QueryResult) -> Result<Response, ApiError> {
    let n = Params::read(query, &["n"])?.n(MAX_N)?;
    if n > MAX_TRACE_N {
        return Err(ApiError::bad(format!(
            "the search is animated up to n = {MAX_TRACE_N}, not n = {n}"
        )));
    }
    let trace = Trace::new(n)?;
    // Held by the body: freed when the stream ends or is dropped (its reader gone).
    let Ok(permit) = state.trace_streams.clone().try_acquire_owned() else {
        let mut refused = ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{MAX_TRACE_STREAMS} traces are being read already, the most this server streams at once; try again in {TRACE_RETRY_AFTER_S} s"
            ),
        )
        .into_response();
        refused
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(TRACE_RETRY_AFTER_S));
        return Ok(refused);
    };
    let batches = stream::iter(trace).chunks(TRACE_BATCH).map(|events| {
        let mut bytes = Vec::with_capacity(events.len() * 40);
        for event in events {
            let value = match event {
                Event::Place { row, column } => {
                    json!({ "event": "place", "row": row, "column": column })
                }
                Event::Conflict { row, column } => {
                    json!({ "event": "conflict", "row": row, "column": column })
                }
                Event::Backtrack { row, column } => {
                    json!({ "event": "backtrack", "row": row, "column": column })
                }
                Event::Solution(columns) => json!({ "event": "solution", "columns": columns }),
            };
            bytes.extend_from_slice(&line(&value)?);
        }
        Ok(Bytes::from(bytes))
    });
    let end = stream::once(async { line(&json!({ "event": "end" })) });
    let body = batches.chain(end).map(move |piece| {
        let _held = &permit;
        piece
    });
    Ok(json_lines(body))
}
