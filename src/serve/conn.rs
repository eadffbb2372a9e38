//! The server's connections: the accept loop, hyper's HTTP/1 settings (the time a client gets
//! to send a request's head, on a new connection and between requests on a kept-alive one),
//! the stop on Ctrl-C within the grace period, and JSON bodies for the error answers that
//! hyper writes by itself.
//!
//! `axum::serve` sets no timer on hyper, so hyper's header timeout never ran and a client that
//! opened a connection and sent nothing held it (and a file descriptor) for as long as it
//! liked. Here each connection is served by hyper's own HTTP/1 builder with a timer. Hyper
//! runs that timeout while it waits for a request's head: from the connection's start, and
//! again from the end of each answer on a kept-alive connection; never while an answer is
//! being written, so the JSON Lines streams, long by design, are not cut.
//!
//! A request hyper cannot parse (400), with an address too long (414) or a head too large
//! (431) is answered by hyper before any router runs, with an empty body; [`JsonErrors`]
//! rewrites that answer, the last thing written on its connection, into the API's
//! `{"error": "..."}`.

use crate::cli::stderr::say;
use axum::Router;
use axum::http::StatusCode;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

/// How long a client has to send a request's head: from the connection's start, and from the
/// end of the previous answer on a kept-alive connection (its idle time). Loopback clients
/// send a head in microseconds; a browser opens a new connection when an idle one is closed
/// (Apache's keep-alive timeout is 5 s too).
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(5);

/// Serves `app` on `listener` until `stopping` turns true, then stops accepting, closes idle
/// connections, lets open answers end for at most `grace`, and returns the moment the stop
/// was heard (what is left of the grace bounds the runtime's shutdown).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    mut stopping: watch::Receiver<bool>,
    grace: Duration,
) -> Instant {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        // One buffer per write, so that hyper's error answer reaches `JsonErrors` whole.
        .writev(false);
    // Each connection's task holds a sender: all are gone when the receiver hears `None`.
    let (open, mut all_closed) = mpsc::channel::<()>(1);
    let mut warned = false;
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors, most likely: the connections' timeouts free some.
                    if !warned && !is_per_connection(&e) {
                        say!("warning: cannot accept a connection: {e}");
                        warned = true;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stopping.wait_for(|&stop| stop) => break,
        };
        let service = app.clone();
        let mut stopping = stopping.clone();
        let open = open.clone();
        let http = http.clone();
        tokio::spawn(async move {
            let _open = open;
            // Nothing within the head's time, a stop, or an HTTP/2 client answered: done.
            let first = tokio::select! {
                first = tokio::time::timeout(HEAD_TIMEOUT, opening(&stream)) => first,
                _ = stopping.wait_for(|&stop| stop) => return,
            };
            match first {
                Ok(Opening::Http2) => return answer_http2(stream).await,
                Ok(Opening::Other) => {}
                Err(_) | Ok(Opening::Closed) => return,
            }
            let connection = http.serve_connection(
                TokioIo::new(JsonErrors::new(stream)),
                TowerToHyperService::new(service),
            );
            let mut connection = std::pin::pin!(connection);
            // A failed connection (a timeout, a reset) has nobody to tell.
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = stopping.wait_for(|&stop| stop) => {}
            }
            // Closes it now if idle, else after the answer being written.
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        });
    }
    let stopped = Instant::now();
    drop(listener);
    drop(open);
    // Streams still open (a trace being read) get the grace to end.
    let _ = tokio::time::timeout(grace, all_closed.recv()).await;
    stopped
}

/// What a connection's first bytes say of its client.
enum Opening {
    /// HTTP/2 with prior knowledge: its preface, `PRI * HTTP/2.0`.
    Http2,
    /// Anything else, for hyper to read.
    Other,
    /// Closed before a byte.
    Closed,
}

/// The start of the preface an HTTP/2 client sends first when it knows the server speaks it.
const HTTP2_PREFACE: &[u8] = b"PRI * HTTP/2.0";

/// Waits for the connection's first bytes, leaving them to be read, and says whose they are:
/// hyper's HTTP/1 closes an HTTP/2 client's connection without a word.
async fn opening(stream: &tokio::net::TcpStream) -> Opening {
    let mut first = [0; HTTP2_PREFACE.len()];
    match stream.peek(&mut first).await {
        Ok(0) | Err(_) => Opening::Closed,
        Ok(n) if first[..n] == HTTP2_PREFACE[..n] && n == HTTP2_PREFACE.len() => Opening::Http2,
        Ok(_) => Opening::Other,
    }
}

/// Answers an HTTP/2 client in HTTP/1.1, which it may show to its user: 505, with the API's
/// JSON error, and the connection closed.
async fn answer_http2(mut stream: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt;
    let answer = json_answer(StatusCode::HTTP_VERSION_NOT_SUPPORTED);
    let _ = tokio::time::timeout(HEAD_TIMEOUT, stream.write_all(&answer)).await;
    let _ = stream.shutdown().await;
}

/// Whether an accept error concerns one connection only (its peer gave up), not the server.
fn is_per_connection(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// A connection whose writes pass through unchanged, but for hyper's own error answer (an
/// empty 400, 414 or 431 with `connection: close`), which is replaced by the same status with
/// a JSON body.
pub struct JsonErrors<T> {
    io: T,
    /// The replacement answer, and how much of it is written.
    replacement: Option<(Vec<u8>, usize)>,
}

impl<T> JsonErrors<T> {
    fn new(io: T) -> JsonErrors<T> {
        JsonErrors {
            io,
            replacement: None,
        }
    }
}

impl<T: AsyncWrite + Unpin> JsonErrors<T> {
    /// Writes what is left of the replacement, if any.
    fn poll_replacement(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.replacement {
            if *written == bytes.len() {
                break;
            }
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.replacement.is_some() {
            // Hyper writes nothing after its error answer; were it to, it would follow ours.
            ready!(this.poll_replacement(cx))?;
            return Pin::new(&mut this.io).poll_write(cx, buf);
        }
        match hyper_error(buf) {
            // What comes before the error answer (a previous answer's end) goes out first.
            Some((0, status)) => {
                this.replacement = Some((json_answer(status), 0));
                // Taken whole: the rest is written on the next write, flush or shutdown.
                Poll::Ready(Ok(buf.len()))
            }
            Some((start, _)) => Pin::new(&mut this.io).poll_write(cx, &buf[..start]),
            None => Pin::new(&mut this.io).poll_write(cx, buf),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_replacement(cx))?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_replacement(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// Where hyper's own error answer starts in `written`, and its status. Hyper writes it last
/// on a connection, as a head alone: `HTTP/1.1 400 Bad Request`, `connection: close`,
/// `content-length: 0`, a date, and no content type. Every answer of the routes has a body
/// and a content type, so none is taken for it.
fn hyper_error(written: &[u8]) -> Option<(usize, StatusCode)> {
    // Hyper's head is about a hundred bytes: only the end of a write is searched.
    const HEAD: &[u8] = b"HTTP/1.1 ";
    let from = written.len().saturating_sub(256);
    if !written.ends_with(b"\r\n\r\n") {
        return None;
    }
    let start = from
        + written[from..]
            .windows(HEAD.len())
            .rposition(|w| w == HEAD)?;
    let head = std::str::from_utf8(&written[start..]).ok()?;
    // One head, nothing after it.
    let head = head.strip_suffix("\r\n\r\n")?;
    if head.contains("\r\n\r\n") {
        return None;
    }
    let mut lines = head.split("\r\n");
    let code: u16 = lines
        .next()?
        .get(HEAD.len()..HEAD.len() + 3)?
        .parse()
        .ok()?;
    let status = StatusCode::from_u16(code).ok()?;
    if !matches!(code, 400 | 414 | 431) {
        return None;
    }
    let (mut closes, mut empty) = (false, false);
    for line in lines {
        let (name, value) = line.split_once(':')?;
        let (name, value) = (name.trim(), value.trim());
        if name.eq_ignore_ascii_case("content-type") {
            return None;
        }
        closes |= name.eq_ignore_ascii_case("connection") && value.eq_ignore_ascii_case("close");
        empty |= name.eq_ignore_ascii_case("content-length") && value == "0";
    }
    (closes && empty).then_some((start, status))
}

/// The answer that replaces hyper's error answer of `status`: the same status, with the
/// API's JSON error.
fn json_answer(status: StatusCode) -> Vec<u8> {
    let message = match status {
        StatusCode::URI_TOO_LONG => "the request's address is too long (at most 65,534 bytes)",
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => {
            "the request's head is too large (at most 100 headers and about 400 KiB)"
        }
        StatusCode::HTTP_VERSION_NOT_SUPPORTED => {
            "this server speaks HTTP/1.1 only: ask again without HTTP/2"
        }
        _ => "the request is not one this server can read: a malformed request line or header",
    };
    let body = serde_json::json!({ "error": message }).to_string();
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HYPER_400: &[u8] = b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\ndate: Tue, 01 Dec 2026 16:01:23 GMT\r\n\r\n";

    #[test]
    fn only_hypers_own_error_answers_are_replaced() {
        assert_eq!(hyper_error(HYPER_400), Some((0, StatusCode::BAD_REQUEST)));
        let after = [b"0\r\n\r\n".as_slice(), HYPER_400].concat();
        assert_eq!(hyper_error(&after), Some((5, StatusCode::BAD_REQUEST)));
        let uri = b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(hyper_error(uri), Some((0, StatusCode::URI_TOO_LONG)));
        for answer in [
            // The routes' answers: a content type and a body.
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}".as_slice(),
            b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n",
            // Another status, a kept connection, a body after the head.
            b"HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\nx\r\n\r\n",
            b"0\r\n\r\n",
        ] {
            assert_eq!(hyper_error(answer), None, "{}", String::from_utf8_lossy(answer));
        }
        let json = String::from_utf8(json_answer(StatusCode::BAD_REQUEST)).unwrap();
        let (head, body) = json.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{head}");
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let body: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(body["error"].as_str().unwrap().contains("malformed"));
    }
}
