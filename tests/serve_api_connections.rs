//! The web page's server as a network service, over real HTTP on loopback: its stop on Ctrl-C,
//! SIGTERM and SIGHUP; requests for other host names or from other origins refused, headers
//! given twice included; wrong methods; idle, malformed, long and large requests answered
//! with a JSON error or closed in time; the cap on trace streams. Tests named after a bug pin
//! its fix.

mod serve_support;

use nqueens::trace::Trace;
use serde_json::{Value, json};
use serve_support::{Server, agent, get, lines, raw, read_until_closed, running_count};
use std::io::Write;
use std::time::{Duration, Instant};

/// A request with extra headers: the status, the headers and the JSON body.
fn ask(
    server: &Server,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, ureq::http::HeaderMap, Value) {
    let url = server.at(path);
    let agent = agent();
    let mut response = match body {
        Some(body) => {
            let mut request = agent.post(&url);
            for (name, value) in headers {
                request = request.header(*name, *value);
            }
            request.send(body)
        }
        None => {
            let mut request = ureq::http::Request::builder().method(method).uri(&url);
            for (name, value) in headers {
                request = request.header(*name, *value);
            }
            agent.run(request.body(()).unwrap())
        }
    }
    .unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    // A JSON answer, or the first line of JSON Lines.
    let text = response.body_mut().read_to_string().unwrap();
    let first = text.lines().next().unwrap_or("");
    let json = serde_json::from_str(first).unwrap_or_else(|e| {
        panic!("{method} {path}: {status} with a body that is not JSON ({e}): {text:?}")
    });
    (status, headers, json)
}

/// Regression: the README's exit table said 130 for SIGINT, SIGTERM and SIGHUP, and `serve`
/// exits 0 on each: they are how a server is stopped. The table says so now; each signal
/// stops it cleanly with 0.
#[test]
fn every_stopping_signal_ends_the_server_with_success() {
    for name in ["TERM", "HUP"] {
        let (status, stderr) = Server::start().signal(name);
        assert_eq!(status.code(), Some(0), "SIG{name}: {stderr}");
        assert!(stderr.contains("stopped"), "SIG{name}: {stderr}");
    }
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let server = Server::start();
    // Even with a job running.
    let _reader = running_count(&server, 20, "c");
    let started = Instant::now();
    let (status, stderr) = server.interrupt();
    assert!(status.success(), "{status:?} {stderr}");
    assert!(stderr.contains("stopped"), "{stderr}");
    // Regression: the stop reached only one of its two listeners, and a count stream still
    // open held the server until its running tasks ended (over 5 s on a loaded machine).
    // The bound is far above the half-second grace, so that only a hang fails it.
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn ctrl_c_took_longer_than_the_grace() {
    // Ctrl-C took 1.8 s against the half-second grace: the grace for the open streams, then
    // as long again for the runtime's blocking threads. It takes one grace in all now, with
    // connections open (one kept alive after its answer, one silent, one halfway through its
    // head, which the grace waits for), and with a job running that cannot stop at once (the
    // first second of n = 21 prepares its tables and hears no cancel).
    for job in [false, true] {
        let server = Server::start();
        let mut kept = raw(&server);
        kept.write_all(b"GET /api/find?n=4 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            .unwrap();
        let mut answer = [0; 64];
        assert!(std::io::Read::read(&mut kept, &mut answer).unwrap() > 0);
        let _silent = raw(&server);
        let mut half = raw(&server);
        half.write_all(b"GET /api/sizes HTTP/1.1\r\nHo").unwrap();
        let _count = job.then(|| running_count(&server, 21, "c"));
        std::thread::sleep(Duration::from_millis(100));
        let started = Instant::now();
        let (status, stderr) = server.interrupt();
        let took = started.elapsed();
        assert!(status.success(), "{status:?} {stderr}");
        assert!(stderr.contains("stopped"), "{stderr}");
        assert!(
            took < Duration::from_secs(1),
            "job {job}: Ctrl-C took {took:?}"
        );
    }
}

#[test]
fn requests_for_other_host_names_are_refused() {
    loopback_hosts_only(&Server::start(), &[]);
}

/// Regression (edges VI): on `[::ffff:127.0.0.1]`, a loopback address in IPv6's mapped form,
/// the server warned that other machines could reach the page and dropped its Host check:
/// `Host: evil.com` was answered 200. Every form of a loopback address is loopback.
#[test]
fn an_ipv4_mapped_loopback_address_keeps_the_host_check() {
    let server = Server::start_at("[::ffff:127.0.0.1]:0");
    assert!(
        server.url.starts_with("http://[::ffff:127.0.0.1]:"),
        "{}",
        server.url
    );
    let address = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/');
    let port = address.rsplit(':').next().unwrap().to_owned();
    loopback_hosts_only(
        &server,
        &[
            format!("[::ffff:127.0.0.1]:{port}"),
            format!("[::ffff:7f00:1]:{port}"),
            format!("localhost.:{port}"),
        ],
    );
    let (status, stderr) = server.interrupt();
    assert!(status.success(), "{status:?} {stderr}");
    assert!(!stderr.contains("other machines"), "{stderr}");
}

/// Asks `server` for `/api/sizes` with its own address, the loopback names and `more` as the
/// host (each answered 200), and with a name pointed at it by someone else's DNS (403).
fn loopback_hosts_only(server: &Server, more: &[String]) {
    use std::io::{Read, Write};
    let address = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let ask = |host: &str| {
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        stream
            .set_read_timeout(Some(serve_support::CALL_TIMEOUT))
            .unwrap();
        stream
            .set_write_timeout(Some(serve_support::CALL_TIMEOUT))
            .unwrap();
        write!(
            stream,
            "GET /api/sizes HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    let port = address.rsplit(':').next().unwrap();
    let mut hosts = vec![
        address.clone(),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ];
    hosts.extend_from_slice(more);
    for host in hosts {
        assert!(ask(&host).starts_with("HTTP/1.1 200"), "{host}");
    }
    // A name pointed at 127.0.0.1 by someone else's DNS (rebinding).
    for host in [format!("evil.example:{port}"), "evil.com".to_owned()] {
        let refused = ask(&host);
        assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
        assert!(refused.contains("localhost only"));
    }
}

#[test]
fn a_cross_origin_post_was_answered_200() {
    // A page on another site could start heavy work here with a text/plain POST, which
    // browsers send without asking. Requests from other origins are refused, with JSON.
    let server = Server::start();
    let placement = json!({ "n": 12, "rows": vec![Value::Null; 12] }).to_string();
    let own = server.url.trim_end_matches('/').to_owned();
    for headers in [
        vec![("origin", "https://evil.example")],
        vec![("origin", "null")],
        vec![("sec-fetch-site", "cross-site")],
        vec![("sec-fetch-site", "same-site")],
        vec![("origin", own.as_str()), ("sec-fetch-site", "cross-site")],
    ] {
        let mut all = headers.clone();
        all.push(("content-type", "text/plain"));
        let (status, _, body) = ask(&server, "POST", "api/completions", &all, Some(&placement));
        assert_eq!(status, 403, "{headers:?}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains("own page only"),
            "{body}"
        );
        for path in ["api/count?n=10", "api/solution?n=20&k=5", "api/cancel"] {
            let method = if path == "api/cancel" { "POST" } else { "GET" };
            let body = (method == "POST").then_some("");
            let (status, _, answer) = ask(&server, method, path, &headers, body);
            assert_eq!(status, 403, "{path} {headers:?}: {answer}");
        }
    }
    let (_, status) = get(&server, "api/status");
    assert_eq!(status["jobs"], 0);
    // The page's own requests, and those typed in the address bar, are answered.
    for headers in [
        vec![("origin", own.as_str()), ("sec-fetch-site", "same-origin")],
        vec![("sec-fetch-site", "none")],
        vec![],
    ] {
        let (status, _, body) = ask(&server, "GET", "api/solution?n=8&k=3", &headers, None);
        assert_eq!(status, 200, "{headers:?}: {body}");
        let mut all = headers.clone();
        all.push(("content-type", "application/json"));
        let (status, _, _) = ask(&server, "POST", "api/completions", &all, Some(&placement));
        assert_eq!(status, 200, "{headers:?}");
    }
}

/// The answers in what a raw connection received: each one's status, head and JSON body.
fn raw_answers(received: &[u8]) -> Vec<(u16, String, Value)> {
    let mut text = std::str::from_utf8(received).unwrap();
    let mut answers = Vec::new();
    while !text.is_empty() {
        let (head, rest) = text.split_once("\r\n\r\n").unwrap();
        let status = head[9..12].parse().unwrap();
        let length: usize = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse().unwrap())
            })
            .unwrap_or_else(|| panic!("no length in {head}"));
        let body = serde_json::from_str(&rest[..length])
            .unwrap_or_else(|e| panic!("{head}: a body that is not JSON ({e}): {rest:?}"));
        answers.push((status, head.to_owned(), body));
        text = &rest[length..];
    }
    answers
}

#[test]
fn a_wrong_method_got_an_empty_405() {
    // 405 came with an empty body where the README promises {"error": ...}.
    let server = Server::start();
    for (method, path, allowed) in [
        ("GET", "api/completions", "POST"),
        ("GET", "api/cancel", "POST"),
        ("DELETE", "api/sizes", "GET"),
        ("POST", "api/solution?n=8&k=0", "GET"),
        ("PUT", "app.js", "GET"),
    ] {
        let body = (method == "POST").then_some("");
        let (status, headers, answer) = ask(&server, method, path, &[], body);
        assert_eq!(status, 405, "{method} {path}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(method) && error.contains(allowed), "{error}");
        let allow = headers["allow"].to_str().unwrap();
        assert!(allow.contains(allowed), "{allow}");
    }
    for path in ["api/nothing", "nothing.html"] {
        let (status, _, answer) = ask(&server, "GET", path, &[], None);
        assert_eq!(status, 404, "{path}");
        assert!(answer["error"].as_str().unwrap().contains(path), "{answer}");
    }
}

#[test]
fn idle_connections_were_never_closed() {
    // Fifty silent sockets stayed open 40 s, bounded only by the descriptor limit. A client
    // gets 5 s for a request's head (from the connection's start, or from the end of the
    // previous answer), and as long again for a body it declared; a stream left unread for
    // longer than that is not cut.
    let server = Server::start();
    let bound = Duration::from_secs(9);
    // 15 MB of events, more than loopback's buffers hold: the server's writes block while
    // the trace is left unread.
    let trace = agent().get(&server.at("api/trace?n=10")).call().unwrap();
    let head = "HTTP/1.1\r\nHost: 127.0.0.1";
    let cases = [
        ("nothing", String::new()),
        ("half a head", format!("GET /api/sizes {head}\r\nX-Half")),
        (
            "an idle connection",
            format!("GET /api/find?n=4 {head}\r\n\r\n"),
        ),
        (
            "half a body",
            format!("POST /api/completions {head}\r\nContent-Length: 100\r\n\r\n{{\"n\":"),
        ),
    ];
    let waits: Vec<_> = cases
        .into_iter()
        .map(|(what, send)| {
            let mut stream = raw(&server);
            stream.write_all(send.as_bytes()).unwrap();
            std::thread::spawn(move || (what, read_until_closed(stream, bound)))
        })
        .collect();
    for wait in waits {
        let (what, (received, closed)) = wait.join().unwrap();
        let closed = closed.unwrap_or_else(|| panic!("{what}: still open after {bound:?}"));
        // Closed by the timeout, not at once.
        assert!(
            closed > Duration::from_secs(4),
            "{what}: closed after {closed:?}"
        );
        let answers = raw_answers(&received);
        let statuses: Vec<u16> = answers.iter().map(|a| a.0).collect();
        match what {
            "an idle connection" => assert_eq!(statuses, [200], "{what}"),
            "half a body" => {
                assert_eq!(statuses, [408], "{what}");
                let error = answers[0].2["error"].as_str().unwrap();
                assert!(error.contains("did not arrive within 5 s"), "{error}");
            }
            _ => assert!(received.is_empty(), "{what}: {answers:?}"),
        }
    }
    // Unread for as long, the trace was not cut.
    let events = lines(trace);
    assert_eq!(events.last().unwrap()["event"], "end");
    assert_eq!(events.len(), Trace::new(10).unwrap().count() + 1);
}

#[test]
fn malformed_long_and_large_requests_got_empty_answers() {
    // Hyper answers these itself, before any route runs, and did with an empty body where
    // the README promises {"error": ...}.
    let server = Server::start();
    let head = "HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    let many: String = (0..150).map(|i| format!("X-{i}: 1\r\n")).collect();
    let long = "x".repeat(70_000);
    for (request, statuses, words) in [
        ("GARBAGE\r\n\r\n".to_owned(), vec![400], "malformed"),
        (
            format!("GET /api/sizes {head}a bad header\r\n\r\n"),
            vec![400],
            "malformed",
        ),
        (
            format!("GET /api/sizes?{long} {head}\r\n"),
            vec![414],
            "address is too long",
        ),
        (
            format!("GET /api/sizes {head}{many}\r\n"),
            vec![431],
            "head is too large",
        ),
        // Past hyper's buffer however it arrives (from about 400 KiB it depends on how the
        // head comes in: a 488 KiB head in one piece was read whole and answered 200).
        (
            format!(
                "GET /api/sizes {head}X-Pad: {}\r\n\r\n",
                "a".repeat(600 << 10)
            ),
            vec![431],
            "head is too large",
        ),
        // Regression: an HTTP/2 client's preface got the connection closed with no answer.
        (
            "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_owned(),
            vec![505],
            "HTTP/1.1 only",
        ),
        // After an answer on the same connection.
        (
            format!("GET /api/find?n=4 {head}\r\nGARBAGE\r\n\r\n"),
            vec![200, 400],
            "malformed",
        ),
    ] {
        let mut stream = raw(&server);
        stream.write_all(request.as_bytes()).unwrap();
        let (received, closed) = read_until_closed(stream, Duration::from_secs(3));
        assert!(closed.is_some(), "{statuses:?}: left open");
        let answers = raw_answers(&received);
        assert_eq!(answers.iter().map(|a| a.0).collect::<Vec<_>>(), statuses);
        let (_, head, body) = answers.last().unwrap();
        assert!(head.contains("content-type: application/json"), "{head}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains(words), "{error:?} lacks {words:?}");
    }
}

/// Sends `request` (its head ends with `Connection: close`) on a raw connection: the status,
/// the head and the JSON body of the one answer.
fn raw_ask(server: &Server, request: &str) -> (u16, String, Value) {
    let mut stream = raw(server);
    stream.write_all(request.as_bytes()).unwrap();
    let (received, closed) = read_until_closed(stream, Duration::from_secs(10));
    assert!(closed.is_some(), "{request:?}: left open");
    let mut answers = raw_answers(&received);
    assert_eq!(answers.len(), 1, "{request:?}: {answers:?}");
    answers.pop().unwrap()
}

/// The server's `127.0.0.1:PORT`.
fn own_host(server: &Server) -> String {
    let address = server.url.trim_start_matches("http://");
    address.trim_end_matches('/').to_owned()
}

#[test]
fn a_second_host_header_was_not_checked() {
    // Only the first Host was read: `Host: 127.0.0.1`, then `Host: evil.example`, passed
    // the DNS-rebinding check. RFC 9112 (3.2): more than one Host, an invalid one or none in
    // HTTP/1.1 is a 400.
    let server = Server::start();
    let own = own_host(&server);
    for (hosts, words) in [
        (
            format!("Host: {own}\r\nHost: evil.example\r\n"),
            "more than one Host",
        ),
        (
            format!("Host: {own}\r\nHost: {own}\r\n"),
            "more than one Host",
        ),
        ("Host: evil example\r\n".to_owned(), "not a host name"),
        (format!("Host: user@{own}\r\n"), "not a host name"),
        ("Host: 127.0.0.1:http\r\n".to_owned(), "not a host name"),
        (String::new(), "needs a Host header"),
    ] {
        let request = format!("GET /api/sizes HTTP/1.1\r\n{hosts}Connection: close\r\n\r\n");
        let (status, _, body) = raw_ask(&server, &request);
        assert_eq!(status, 400, "{hosts:?}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains(words), "{hosts:?}: {error}");
    }
    let request = format!("GET /api/find?n=4 HTTP/1.1\r\nHost: {own}\r\nConnection: close\r\n\r\n");
    assert_eq!(raw_ask(&server, &request).0, 200);
}

#[test]
fn a_second_origin_or_fetch_site_header_was_not_checked() {
    // Only the first Origin and Sec-Fetch-Site were read: the page's own origin, then
    // another, passed the cross-site checks. Given twice, either is refused as they refuse.
    let server = Server::start();
    let own = own_host(&server);
    for twice in [
        format!("Origin: http://{own}\r\nOrigin: https://evil.example\r\n"),
        format!("Origin: http://{own}\r\nOrigin: http://{own}\r\n"),
        "Sec-Fetch-Site: same-origin\r\nSec-Fetch-Site: cross-site\r\n".to_owned(),
    ] {
        let request = format!(
            "GET /api/solution?n=8&k=3 HTTP/1.1\r\nHost: {own}\r\n{twice}Connection: close\r\n\r\n"
        );
        let (status, _, body) = raw_ask(&server, &request);
        assert_eq!(status, 403, "{twice:?}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains("own page only"), "{twice:?}: {error}");
    }
}

#[test]
fn an_absolute_form_target_naming_another_host_was_answered() {
    // `GET http://evil.example/api/... HTTP/1.1` with a loopback Host was answered: the
    // target's authority is the request's host (RFC 9112, 3.2.2), and is checked as Host is.
    let server = Server::start();
    let own = own_host(&server);
    let ask = |target: &str, host: &str| {
        let request = format!(
            "GET {target}/api/find?n=4 HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{own}\r\nConnection: close\r\n\r\n"
        );
        raw_ask(&server, &request)
    };
    for target in ["http://evil.example", "http://evil.example:80"] {
        let (status, _, body) = ask(target, &own);
        assert_eq!(status, 403, "{target}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains("localhost only"), "{target}: {error}");
    }
    // The server's own authority in the target is answered, whatever Host says; the origin
    // check compares the page's origin with the target's host.
    let (status, _, body) = ask(&format!("http://{own}"), "evil.example");
    assert_eq!(status, 200, "{body}");
    let (status, _, body) = ask(&format!("http://user@{own}"), &own);
    assert_eq!(status, 400, "{body}");
}

#[test]
fn stalled_trace_streams_had_no_cap() {
    // 400 trace streams left unread held some 230 MB. At most 64 are open at once (the cap
    // in src/serve/limits.rs); one more is a 503 that says when to try again, and a stream
    // that ends frees its place.
    const CAP: usize = 64;
    let server = Server::start();
    let own = own_host(&server);
    let trace = |n: u32| {
        let mut stream = raw(&server);
        let request =
            format!("GET /api/trace?n={n} HTTP/1.1\r\nHost: {own}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        stream
    };
    // Millions of steps each, left unread but for their status line.
    let mut stalled: Vec<_> = (0..CAP).map(|_| trace(12)).collect();
    for stream in &mut stalled {
        let mut status = [0; 12];
        std::io::Read::read_exact(stream, &mut status).unwrap();
        assert_eq!(&status, b"HTTP/1.1 200");
    }
    let request =
        format!("GET /api/trace?n=4 HTTP/1.1\r\nHost: {own}\r\nConnection: close\r\n\r\n");
    let (status, head, body) = raw_ask(&server, &request);
    assert_eq!(status, 503, "{body}");
    assert!(head.contains("retry-after: 5"), "{head}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("64 traces"), "{error}");
    // The API's other answers go on; a reader that leaves frees its place.
    assert_eq!(get(&server, "api/sizes").0, 200);
    drop(stalled.pop());
    let started = Instant::now();
    loop {
        let (received, _) = read_until_closed(trace(4), Duration::from_secs(10));
        if received.starts_with(b"HTTP/1.1 200") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "still refused");
        std::thread::sleep(Duration::from_millis(50));
    }
}
