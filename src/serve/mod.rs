//! `nqueens serve`: a local web page served by the engines. The page (plain HTML, CSS and
//! JavaScript in `assets/`, embedded in the binary) talks to a small JSON API.
//!
//! The server is axum on tokio: both are maintained by the tokio project, used by most Rust
//! web services, and give what the page needs with little code (HTTP/1, streamed bodies for
//! progress and traces, request futures dropped when a client disconnects, graceful
//! shutdown). Only HTTP/1 on one address is compiled in, without TLS: the page is local.
//! The connections themselves (timeouts, the stop) are in `conn.rs`.

mod api;
mod conn;
mod jobs;
mod limits;
mod params;
mod state;
mod streams;

use crate::cli::config::ServeConfig;
use crate::cli::exit::ExitCode;
use crate::cli::stderr::say;
use anyhow::{Context, Result};
use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{Next, from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use jobs::Jobs;
use state::{ServerState, Shared};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OnceCell, Semaphore};

/// How long open streams get to end after Ctrl-C before the server stops anyway; the whole
/// stop, blocking jobs included, takes about this long at most.
const GRACE: Duration = Duration::from_millis(500);

/// The page's files: path, content type, bytes.
const ASSETS: [(&str, &str, &str); 3] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("assets/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
];

/// Runs the server until Ctrl-C.
pub fn run(config: &ServeConfig) -> Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let stopped = runtime.block_on(serve(config))?;
    // Blocking jobs were told to stop; one in the middle of a task gets what is left of the
    // grace (one grace in all from Ctrl-C, not one for the streams and one more here), and
    // is not waited for after it.
    runtime.shutdown_timeout(GRACE.saturating_sub(stopped.elapsed()));
    say!("stopped");
    Ok(ExitCode::Success)
}

/// Serves until Ctrl-C: the moment it was heard.
async fn serve(config: &ServeConfig) -> Result<Instant> {
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    let addr = listener
        .local_addr()
        .context("cannot read the bound address")?;
    let state = Arc::new(ServerState {
        jobs: Jobs::new(),
        indexes: (1..=limits::MAX_INDEX_N).map(|_| OnceCell::new()).collect(),
        trace_streams: Arc::new(Semaphore::new(limits::MAX_TRACE_STREAMS)),
    });
    // A watch, not a `Notify`: every connection and the accept loop must hear the stop.
    // Set before the address is printed: a script that reads it and sends SIGINT at once
    // stops the server, not the process (which exited 130 then).
    let (stop, stopping) = tokio::sync::watch::channel(false);
    {
        let jobs = state.jobs.clone();
        crate::cli::interrupt::on_interrupt(Box::new(move || {
            jobs.cancel_all();
            let _ = stop.send(true);
        }));
    }
    let url = format!("http://{addr}/");
    // The first line of stdout, for people and for scripts that start the server.
    // Written, not `println!`ed: a reader that has gone (`serve | head -1`, then Ctrl-C)
    // must not stop the server, nor its shutdown.
    {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{url}").and_then(|()| stdout.flush());
    }
    if !is_loopback(addr.ip()) {
        say!("warning: listening on {addr}: other machines can reach this page");
    }
    if config.open {
        open_browser(&url);
    }
    // Outermost: the other checks read the host it settles.
    let app = router(state).layer(from_fn_with_state(is_loopback(addr.ip()), checked_host));
    Ok(conn::serve(listener, app, stopping, GRACE).await)
}

/// The routes: the page's files and the API. Every error the API answers is JSON, whatever
/// produced it (a wrong method, a body too large); the API refuses requests from pages of
/// other origins.
fn router(state: Shared) -> Router {
    let routes = Router::new()
        .route("/api/sizes", get(api::sizes))
        .route("/api/solution", get(api::solution))
        .route("/api/step", get(api::step))
        .route("/api/find", get(api::find))
        .route("/api/status", get(api::status))
        .route("/api/cancel", post(api::cancel))
        .route("/api/count", get(streams::count))
        .route("/api/completions", post(streams::completions))
        .route("/api/trace", get(streams::trace))
        .fallback(asset)
        .layer(DefaultBodyLimit::max(streams::MAX_BODY))
        .layer(from_fn(same_origin_only))
        .with_state(state);
    // Around the routes as a whole, so that it sees the `Allow` header axum adds to a 405
    // after the route's own layers.
    Router::new()
        .fallback_service(routes)
        .layer(from_fn(json_errors))
}

/// Refuses API requests that a page of another origin sent from the user's browser: any
/// `Origin` but this server's own, and any `Sec-Fetch-Site` but `same-origin` and `none`
/// (typed in the address bar). A form or a `text/plain` fetch from another site needs no
/// permission from this server to be sent, so without this check any page could start
/// heavy work here. Requests without either header (scripts, curl) are not from a page.
async fn same_origin_only(request: Request, next: Next) -> Response {
    if request.uri().path().starts_with("/api/")
        && let Some(refusal) = foreign(request.headers())
    {
        return params::ApiError(StatusCode::FORBIDDEN, refusal).into_response();
    }
    next.run(request).await
}

/// Why the request comes from a page of another origin, if it does. A header given twice is
/// refused: a browser sends each once, and checking the first only let a second one pass
/// unseen.
fn foreign(headers: &HeaderMap) -> Option<String> {
    for name in ["Sec-Fetch-Site", "Origin"] {
        if headers.get_all(name).iter().nth(1).is_some() {
            return Some(format!(
                "this server answers its own page only, and cannot tell where a request with more than one {name} header comes from"
            ));
        }
    }
    let text = |name| {
        headers
            .get(name)
            .map(|v: &HeaderValue| v.to_str().unwrap_or("(not text)"))
    };
    if let Some(site) = text("sec-fetch-site")
        && !matches!(site, "same-origin" | "none")
    {
        return Some(format!(
            "this server answers its own page only, not requests from other sites (Sec-Fetch-Site: {site})"
        ));
    }
    let own = format!("http://{}", text("host").unwrap_or(""));
    match text("origin") {
        Some(origin) if !origin.eq_ignore_ascii_case(&own) => Some(format!(
            "this server answers its own page only ({own}), not requests from {origin}"
        )),
        _ => None,
    }
}

/// Turns every error answer that is not JSON yet (a 405 for a wrong method, a 413, axum's own
/// rejections) into `{"error": "..."}` with the same status and headers (`Allow` included).
async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, streams::MAX_BODY)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_owned())
        .unwrap_or_default();
    let message = if status == StatusCode::METHOD_NOT_ALLOWED {
        let allowed = parts
            .headers
            .get(header::ALLOW)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("another method");
        format!("{method} is not allowed on {path}: use {allowed}")
    } else if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_owned()
    } else {
        text
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let body = serde_json::json!({ "error": message }).to_string();
    Response::from_parts(parts, Body::from(body))
}

/// Checks the host a request is for, on every address, as RFC 9112 (section 3.2) asks: a 400
/// for more than one `Host` header, an invalid one, or none in HTTP/1.1 (hyper checks none of
/// these, and the checks after this one read the first `Host` only: a second one went
/// unseen). With an absolute-form target (`GET http://name/api/...`) the target's authority
/// is the host, whatever `Host` says (section 3.2.2): it replaces the header, so that the
/// checks after this one (loopback names, the page's origin) see the host the request
/// names. Before, such a target passed with the `Host` of a loopback name.
///
/// On a loopback address the host must be a loopback name: a page elsewhere whose name was
/// pointed at 127.0.0.1 (DNS rebinding) must not drive this server from the user's browser.
async fn checked_host(State(loopback): State<bool>, mut request: Request, next: Next) -> Response {
    let host = match request_host(&request) {
        Ok(host) => host,
        Err(why) => return params::ApiError::bad(why).into_response(),
    };
    if loopback && !is_loopback_name(&host) {
        return params::ApiError(
            StatusCode::FORBIDDEN,
            format!("this server answers requests for localhost only, not for host '{host}'"),
        )
        .into_response();
    }
    // A valid host is a valid header value; an HTTP/1.0 request may have none.
    if let Ok(value) = HeaderValue::from_str(&host)
        && !host.is_empty()
    {
        request.headers_mut().insert(header::HOST, value);
    }
    next.run(request).await
}

/// The host a request is for: the absolute-form target's authority, else its one `Host`
/// header (empty for an HTTP/1.0 request without one); or why the request is malformed.
fn request_host(request: &Request) -> Result<String, String> {
    let mut headers = request.headers().get_all(header::HOST).iter();
    let header = headers.next();
    if headers.next().is_some() {
        return Err("the request has more than one Host header".to_owned());
    }
    let header = match header {
        Some(value) => Some(
            value
                .to_str()
                .ok()
                .filter(|host| valid_host(host))
                .ok_or_else(|| {
                    let text = String::from_utf8_lossy(value.as_bytes());
                    format!("the Host header is not a host name with an optional port: '{text}'")
                })?,
        ),
        None if request.version() >= axum::http::Version::HTTP_11 => {
            return Err("an HTTP/1.1 request needs a Host header".to_owned());
        }
        None => None,
    };
    match request.uri().authority() {
        Some(target) if valid_host(target.as_str()) => Ok(target.as_str().to_owned()),
        Some(target) => Err(format!(
            "the request's target names no host this server can check: '{target}'"
        )),
        None => Ok(header.unwrap_or("").to_owned()),
    }
}

/// A host's name and port, split at the last colon outside an IPv6 literal (`[::1]:80`).
fn split_port(host: &str) -> (&str, Option<&str>) {
    match host.rsplit_once(':') {
        Some((name, port)) if !port.contains(']') => (name, Some(port)),
        _ => (host, None),
    }
}

/// Whether `host` is a `Host` header's value by RFC 9110 (7.2): a name or address and an
/// optional port of digits, without the user information a URI's authority may carry.
fn valid_host(host: &str) -> bool {
    let (_, port) = split_port(host);
    host.is_empty()
        || (!host.contains('@')
            && host.parse::<axum::http::uri::Authority>().is_ok()
            && port.is_none_or(|port| port.bytes().all(|b| b.is_ascii_digit())))
}

/// Whether `host` (with or without its port) names this machine: `localhost` (with the root's
/// dot too) or a loopback address in any form (`127.0.0.1`, `[::1]`, `[::ffff:127.0.0.1]`).
fn is_loopback_name(host: &str) -> bool {
    let (name, _) = split_port(host);
    let name = name.strip_suffix('.').unwrap_or(name);
    name.eq_ignore_ascii_case("localhost")
        || name
            .strip_prefix('[')
            .and_then(|name| name.strip_suffix(']'))
            .unwrap_or(name)
            .parse::<std::net::IpAddr>()
            .is_ok_and(is_loopback)
}

/// Whether `ip` is a loopback address in any form: `127.0.0.0/8`, `::1`, and an IPv4 loopback
/// address mapped into IPv6 (`::ffff:127.0.0.1`), which `IpAddr::is_loopback` does not count.
fn is_loopback(ip: std::net::IpAddr) -> bool {
    ip.to_canonical().is_loopback()
}

/// The page's files by path (GET and HEAD); a JSON 404 for anything else.
async fn asset(method: Method, uri: Uri) -> Response {
    let found = ASSETS.iter().find(|(path, _, _)| *path == uri.path());
    if found.is_some() && method != Method::GET && method != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, HeaderValue::from_static("GET,HEAD"))],
        )
            .into_response();
    }
    match found {
        Some((_, kind, body)) => (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            *body,
        )
            .into_response(),
        None => params::ApiError(
            StatusCode::NOT_FOUND,
            format!("no such page: {}", uri.path()),
        )
        .into_response(),
    }
}

/// Opens `url` in the default browser; failing to is a warning, not an error.
fn open_browser(url: &str) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    match command.spawn() {
        // Reaped on a thread of its own: the opener usually returns at once.
        Ok(mut child) => {
            let url = url.to_owned();
            std::thread::spawn(move || {
                if let Ok(status) = child.wait()
                    && !status.success()
                {
                    say!("warning: cannot open a browser ({status}); open {url} yourself");
                }
            });
        }
        Err(e) => say!("warning: cannot open a browser ({e}); open {url} yourself"),
    }
}
