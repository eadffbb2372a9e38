//! The web page's JSON API over real HTTP on loopback: every endpoint against the library and
//! the known table, every bad input answered with a 4xx and a JSON error, the job limits,
//! a disconnected client's work stopped, requests from other origins refused, and Ctrl-C.
//! Tests named after a bug pin its fix.

mod serve_support;

use nqueens::trace::{Event, Trace};
use serde_json::{Value, json};
use serve_support::{Server, agent, raw, read_until_closed};
use std::io::{BufRead, BufReader, Write};
use std::time::{Duration, Instant};

/// GET: the status and the JSON body.
fn get(server: &Server, path: &str) -> (u16, Value) {
    let mut response = agent().get(&server.at(path)).call().unwrap();
    let status = response.status().as_u16();
    (status, response.body_mut().read_json().unwrap())
}

/// Asserts a 400 whose JSON error mentions `words`.
fn assert_bad(answer: (u16, Value), words: &str) {
    let (status, body) = answer;
    assert_eq!(status, 400, "{body}");
    let error = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {body}"));
    assert!(error.contains(words), "{error:?} lacks {words:?}");
}

/// Every line of a JSON Lines response.
fn lines(response: ureq::http::Response<ureq::Body>) -> Vec<Value> {
    BufReader::new(response.into_body().into_reader())
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect()
}

/// POSTs a placement to the completions endpoint as `client`.
fn completions(server: &Server, client: &str, body: &str) -> ureq::http::Response<ureq::Body> {
    agent()
        .post(&server.at("api/completions"))
        .header("x-client", client)
        .header("content-type", "application/json")
        .send(body)
        .unwrap()
}

fn columns(value: &Value) -> Vec<u32> {
    serde_json::from_value(value.clone()).unwrap()
}

/// Waits until the server runs `jobs` heavy jobs.
fn wait_for_jobs(server: &Server, jobs: u64) {
    let started = Instant::now();
    loop {
        let (_, status) = get(server, "api/status");
        if status["jobs"] == jobs {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "still {status}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The lines of a stream still to come.
type Stream = std::io::Lines<BufReader<ureq::BodyReader<'static>>>;

/// Starts a live count of n as `client` and waits until it runs: the lines after its first.
fn running_count(server: &Server, n: u32, client: &str) -> Stream {
    let response = agent()
        .get(&server.at(&format!("api/count?n={n}")))
        .header("x-client", client)
        .call()
        .unwrap();
    let mut reader = BufReader::new(response.into_body().into_reader()).lines();
    assert!(reader.next().unwrap().unwrap().contains("progress"));
    wait_for_jobs(server, 1);
    reader
}

/// Cancels `client`'s job of `kind` (all its jobs without one): whether it had one.
fn cancel(server: &Server, client: &str, kind: Option<&str>) -> bool {
    let path = kind.map_or("api/cancel".to_owned(), |k| format!("api/cancel?kind={k}"));
    let mut response = agent()
        .post(&server.at(&path))
        .header("x-client", client)
        .send("")
        .unwrap();
    let body: Value = response.body_mut().read_json().unwrap();
    body["cancelled"].as_bool().unwrap()
}

/// The rest of a stream, which must end in `cancelled` for `reason`.
fn assert_cancelled(rest: Stream, reason: &str) {
    let rest: Vec<Value> = rest
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    let last = rest.last().unwrap();
    assert_eq!(last["event"], "cancelled", "{rest:?}");
    assert_eq!(last["reason"], reason, "{rest:?}");
}

#[test]
fn sizes_give_the_known_table_and_the_limits() {
    let server = Server::start();
    let (status, body) = get(&server, "api/sizes");
    assert_eq!(status, 200);
    let sizes = body["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 32);
    for (i, size) in sizes.iter().enumerate() {
        let n = i as u32 + 1;
        assert_eq!(size["n"], n);
        let known = nqueens::known::total(n).map(|t| t.to_string());
        assert_eq!(size["total"].as_str().map(str::to_owned), known);
        let unique = nqueens::known::unique(n).map(|t| t.to_string());
        assert_eq!(size["unique"].as_str().map(str::to_owned), unique);
    }
    assert_eq!(body["limits"]["trace"], 12);
    assert_eq!(body["limits"]["index"], 16);
    assert_eq!(body["limits"]["quick_completions"], 14);
}

#[test]
fn solution_k_is_the_kth_line_of_solve() {
    let server = Server::start();
    for n in [1, 4, 5, 6, 8] {
        let listed: Vec<Vec<u32>> = nqueens::solutions(n)
            .unwrap()
            .map(|s| s.columns().to_vec())
            .collect();
        for (k, expected) in listed.iter().enumerate() {
            let (status, body) = get(&server, &format!("api/solution?n={n}&k={k}"));
            assert_eq!(status, 200);
            assert_eq!(&columns(&body["columns"]), expected, "n {n} k {k}");
            assert_eq!(body["k"], k.to_string());
            assert_eq!(body["total"], listed.len().to_string());
        }
    }
    let (_, body) = get(&server, "api/solution?n=8&k=0");
    assert_eq!(columns(&body["columns"]), [0, 4, 7, 5, 2, 6, 1, 3]);
    assert_eq!(body["class"]["size"], 8);
    assert_eq!(body["class"]["is_representative"], true);
    let images = body["class"]["images"].as_array().unwrap();
    assert_eq!(images.len(), 8);
    for image in images {
        let k = image["k"].as_str().unwrap();
        let (_, at) = get(&server, &format!("api/solution?n=8&k={k}"));
        assert_eq!(at["columns"], image["columns"]);
    }
    // n = 12, far in: against the library's lexicographic list.
    let (_, body) = get(&server, "api/solution?n=12&k=9000");
    let expected = nqueens::solutions(12).unwrap().nth(9000).unwrap();
    assert_eq!(columns(&body["columns"]), expected.columns());
    // n = 16 at its last solution: the mirror image of the first.
    let (_, body) = get(&server, "api/solution?n=16&k=14772511");
    let (_, first) = get(&server, "api/solution?n=16&k=0");
    let mirrored: Vec<u32> = columns(&first["columns"]).iter().map(|c| 15 - c).collect();
    assert_eq!(columns(&body["columns"]), mirrored);
    // Above 16 rows, by stepping: the trace's solutions in order.
    let traced: Vec<Vec<u32>> = Trace::new(20)
        .unwrap()
        .filter_map(|e| match e {
            Event::Solution(c) => Some(c),
            _ => None,
        })
        .take(4)
        .collect();
    let (_, body) = get(&server, "api/solution?n=20&k=3");
    assert_eq!(columns(&body["columns"]), traced[3]);
    assert_eq!(body["k"], "3");
}

#[test]
fn bad_sizes_and_solution_numbers_are_400s() {
    let server = Server::start();
    assert_bad(get(&server, "api/solution?n=0&k=0"), "from 1 to 32");
    assert_bad(get(&server, "api/solution?n=33&k=0"), "from 1 to 32");
    assert_bad(get(&server, "api/solution?n=x&k=0"), "from 1 to 32");
    assert_bad(get(&server, "api/solution?k=0"), "missing parameter 'n'");
    assert_bad(get(&server, "api/solution?n=8"), "missing parameter 'k'");
    assert_bad(
        get(&server, "api/solution?n=8&k=92"),
        "n = 8 has 92 solutions, numbered 0 to 91",
    );
    assert_bad(
        get(&server, "api/solution?n=20&k=39029188884"),
        "numbered 0 to 39029188883",
    );
    assert_bad(get(&server, "api/solution?n=8&k=-1"), "whole number");
    assert_bad(get(&server, "api/solution?n=8&k=abc"), "whole number");
    assert_bad(get(&server, "api/solution?n=3&k=0"), "no solutions");
    assert_bad(get(&server, "api/find?n=0"), "from 1 to 1000");
    assert_bad(get(&server, "api/find?n=1001"), "from 1 to 1000");
    assert_bad(get(&server, "api/trace?n=13"), "up to n = 12");
    assert_bad(get(&server, "api/trace?n=0"), "from 1 to 32");
    assert_bad(get(&server, "api/count?n=22"), "up to n = 21");
    assert_bad(get(&server, "api/count?n=33"), "from 1 to 32");
    let (status, body) = get(&server, "api/nothing");
    assert_eq!(status, 404);
    assert!(body["error"].as_str().unwrap().contains("/api/nothing"));
}

#[test]
fn steps_walk_the_solutions_and_the_classes() {
    let server = Server::start();
    let step = |from: &str, direction: &str, extra: &str| {
        get(
            &server,
            &format!("api/step?n=8&from={from}&direction={direction}{extra}"),
        )
    };
    let (status, body) = step("0+4+7+5+2+6+1+3", "next", "");
    assert_eq!(status, 200);
    assert_eq!(columns(&body["columns"]), [0, 5, 7, 2, 6, 3, 1, 4]);
    assert_eq!(body["k"], "1");
    let (_, body) = step("0,5,7,2,6,3,1,4", "previous", "");
    assert_eq!(columns(&body["columns"]), [0, 4, 7, 5, 2, 6, 1, 3]);
    let (_, body) = step("0+4+7+5+2+6+1+3", "previous", "");
    assert_eq!(body["columns"], Value::Null);
    // Unique mode: the class representatives, 12 of them.
    let mut at = "0 4 7 5 2 6 1 3".to_owned();
    let mut seen = 1;
    loop {
        let (_, body) = step(&at.replace(' ', "+"), "next", "&unique=1");
        if body["columns"].is_null() {
            break;
        }
        assert_eq!(body["class"]["is_representative"], true);
        at = columns(&body["columns"])
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        seen += 1;
    }
    assert_eq!(seen, 12);
    // 24 rows: k follows the given k.
    let first = nqueens::browse::first(24).unwrap().unwrap();
    let from: Vec<String> = first.iter().map(u32::to_string).collect();
    let (_, body) = get(
        &server,
        &format!("api/step?n=24&from={}&direction=next&k=0", from.join("+")),
    );
    assert_eq!(body["k"], "1");
    assert_bad(step("0+4+7+5+2+6+1", "next", ""), "has 8 columns");
    assert_bad(step("0+1+2+3+4+5+6+7", "next", ""), "not a solution");
    assert_bad(step("0+4+7+5+2+6+1+9", "next", ""), "not a solution");
    assert_bad(step("0+4+7+5+2+6+1+3", "sideways", ""), "direction");
    assert_bad(step("0+4+7+5+2+6+1+3", "next", "&unique=maybe"), "0 or 1");
}

#[test]
fn find_draws_large_boards_and_checks_them() {
    let server = Server::start();
    let (status, body) = get(&server, "api/find?n=1000");
    assert_eq!(status, 200);
    assert_eq!(body["valid"], true);
    let found = columns(&body["columns"]);
    assert_eq!(found.len(), 1000);
    assert_eq!(nqueens::check_columns(&found), Ok(()));
    let (_, body) = get(&server, "api/find?n=3");
    assert_eq!(body["valid"], false);
    assert_eq!(body["columns"], Value::Null);
}

#[test]
fn completions_of_placements_match_the_library() {
    let server = Server::start();
    let go = std::sync::atomic::AtomicBool::new(false);
    let placements: [&[Option<u32>]; 4] = [
        &[Some(0), None, None, None, None, None, None, None],
        &[None, None, None, Some(1), None, None, None, Some(5)],
        &[None; 10],
        &[
            Some(2),
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            Some(1),
            None,
            None,
        ],
    ];
    for rows in placements {
        let lines = lines(completions(
            &server,
            "a",
            &json!({ "n": rows.len(), "rows": rows }).to_string(),
        ));
        let partial = nqueens::partial::Partial::new(rows).unwrap();
        assert_eq!(lines[0]["event"], "first");
        let first = partial.first(&go).unwrap();
        assert_eq!(lines[0]["first"], json!(first));
        let last = lines.last().unwrap();
        assert_eq!(last["event"], "completions", "{lines:?}");
        let count = partial.count(None, &go).unwrap();
        assert_eq!(last["completions"], count.to_string());
    }
    // The empty 10 x 10 board: every solution.
    let all = lines(completions(
        &server,
        "a",
        r#"{"n":10,"rows":[null,null,null,null,null,null,null,null,null,null]}"#,
    ));
    assert_eq!(all.last().unwrap()["completions"], "724");
    // Two queens that attack each other: none, and which.
    let lines = lines(completions(
        &server,
        "a",
        r#"{"n":4,"rows":[0,1,null,null]}"#,
    ));
    assert_eq!(lines[0]["first"], Value::Null);
    assert_eq!(lines[0]["conflict"], json!([0, 1]));
    assert_eq!(lines.last().unwrap()["completions"], "0");
}

#[test]
fn bad_placements_are_400s_and_large_bodies_413s() {
    let server = Server::start();
    let post = |body: &str| {
        let mut response = completions(&server, "a", body);
        let status = response.status().as_u16();
        (status, response.body_mut().read_json::<Value>().unwrap())
    };
    assert_bad(post("not json"), "not JSON");
    assert_bad(post(r#"{"rows":[]}"#), "'n'");
    assert_bad(post(r#"{"n":0,"rows":[]}"#), "from 1 to 32");
    assert_bad(post(r#"{"n":33,"rows":[]}"#), "from 1 to 32");
    assert_bad(post(r#"{"n":4}"#), "'rows'");
    assert_bad(post(r#"{"n":4,"rows":[null,null,null]}"#), "4 entries");
    assert_bad(
        post(r#"{"n":4,"rows":[4,null,null,null]}"#),
        "off the board",
    );
    assert_bad(
        post(r#"{"n":4,"rows":[-1,null,null,null]}"#),
        "not a column",
    );
    assert_bad(
        post(r#"{"n":4,"rows":["x",null,null,null]}"#),
        "not a column",
    );
    let huge = format!(r#"{{"n":4,"rows":[{}null]}}"#, "null,".repeat(2000));
    let (status, body) = post(&huge);
    assert_eq!(status, 413, "{body}");
    // Regression: the message was axum's, naming its internals ("Failed to buffer the
    // request body: length limit exceeded").
    assert_eq!(
        body["error"], "the body is too large: at most 4096 bytes",
        "{body}"
    );
}

#[test]
fn a_live_count_passed_with_no_progress_line() {
    // The test passed on a count that ended before its first progress line: the page then
    // showed nothing until the end. A progress line now comes at once, before any result.
    let server = Server::start();
    let response = agent().get(&server.at("api/count?n=13")).call().unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let lines = lines(response);
    let (done, before) = lines.split_last().unwrap();
    assert_eq!(done["event"], "done", "{lines:?}");
    assert_eq!(done["solutions"], "73712");
    assert_eq!(done["agrees"], true);
    assert!(!before.is_empty(), "no progress line before the result");
    assert!(before.iter().all(|l| l["event"] == "progress"), "{lines:?}");
    assert_eq!(before[0]["done"], 0);
}

#[test]
fn the_live_count_used_the_search_not_counts_engine() {
    // n = 19 showed an ETA of 800 s where `nqueens count 19` takes 11: the page counted with
    // the search. It counts with the engine `count` uses, and its cap follows from that one.
    let server = Server::start();
    for n in [10, 14] {
        let lines = lines(
            agent()
                .get(&server.at(&format!("api/count?n={n}")))
                .call()
                .unwrap(),
        );
        let done = lines.last().unwrap();
        let engine = nqueens::Engine::Auto.settle(n).unwrap();
        assert_eq!(done["engine"], engine.name(), "n = {n}: {done}");
        assert_eq!(done["agrees"], true);
    }
    assert_eq!(nqueens::Engine::Auto.settle(21).unwrap().name(), "join");
    let (_, sizes) = get(&server, "api/sizes");
    assert_eq!(sizes["limits"]["live_count"], 21);
}

#[test]
fn cancelling_or_leaving_stops_the_work() {
    let server = Server::start();
    // A count of 20 rows takes a minute: cancelled by the client, it ends at once.
    let reader = running_count(&server, 20, "c");
    assert!(cancel(&server, "c", None));
    assert_cancelled(reader, "cancelled");
    wait_for_jobs(&server, 0);

    // The completions of an empty 32 x 32 board would take ages: the client goes away.
    let response = completions(
        &server,
        "d",
        &json!({ "n": 32, "rows": vec![Value::Null; 32] }).to_string(),
    );
    let mut reader = BufReader::new(response.into_body().into_reader()).lines();
    // `counting` lines come while the first completion is searched for.
    let first: Value = reader
        .by_ref()
        .map(|l| serde_json::from_str::<Value>(&l.unwrap()).unwrap())
        .find(|l| l["event"] != "counting")
        .unwrap();
    assert_eq!(first["event"], "first");
    assert_eq!(first["first"].as_array().unwrap().len(), 32);
    wait_for_jobs(&server, 1);
    drop(reader);
    wait_for_jobs(&server, 0);
}

#[test]
fn one_job_per_client_and_a_limit_for_all() {
    let server = Server::start();
    let endless = json!({ "n": 32, "rows": vec![Value::Null; 32] }).to_string();
    // A client's second job replaces its first.
    let first = completions(&server, "same", &endless);
    let mut first = BufReader::new(first.into_body().into_reader()).lines();
    first.next().unwrap().unwrap();
    let second = completions(&server, "same", &endless);
    assert_cancelled(first, "replaced");
    wait_for_jobs(&server, 1);
    let (_, status) = get(&server, "api/status");
    assert_eq!(status["running"][0]["kind"], "completions", "{status}");
    // A second client fills the last slot; a third is told the server is busy.
    let other = completions(&server, "other", &endless);
    wait_for_jobs(&server, 2);
    let mut third = completions(&server, "third", &endless);
    assert_eq!(third.status().as_u16(), 429);
    let body: Value = third.body_mut().read_json().unwrap();
    assert!(body["error"].as_str().unwrap().contains("busy"));
    drop((second, other));
    wait_for_jobs(&server, 0);
}

#[test]
fn the_trace_streams_the_search_as_it_is_read() {
    let server = Server::start();
    let response = agent().get(&server.at("api/trace?n=6")).call().unwrap();
    let mut events = Vec::new();
    let mut first_solution = None;
    for line in BufReader::new(response.into_body().into_reader()).lines() {
        let event: Value = serde_json::from_str(&line.unwrap()).unwrap();
        if event["event"] == "solution" && first_solution.is_none() {
            first_solution = Some(columns(&event["columns"]));
        }
        events.push(event);
    }
    assert_eq!(first_solution.unwrap(), [1, 3, 5, 0, 2, 4]);
    assert_eq!(events.last().unwrap()["event"], "end");
    let expected = Trace::new(6).unwrap().count();
    assert_eq!(events.len(), expected + 1);
    let solutions = events.iter().filter(|e| e["event"] == "solution").count();
    assert_eq!(solutions, 4);
    // 12 rows: millions of steps, read a few and leave.
    let response = agent().get(&server.at("api/trace?n=12")).call().unwrap();
    let few: Vec<_> = BufReader::new(response.into_body().into_reader())
        .lines()
        .take(10)
        .collect();
    assert_eq!(few.len(), 10);
    let (status, _) = get(&server, "api/sizes");
    assert_eq!(status, 200);
}

#[test]
fn the_page_and_its_files_are_served() {
    let server = Server::start();
    for (path, kind, words) in [
        ("", "text/html", "id=\"browse-board\""),
        ("?n=8&k=5", "text/html", "<script src=\"/app.js\">"),
        ("app.js", "text/javascript", "data-columns"),
        ("style.css", "text/css", ".board"),
    ] {
        let mut response = agent().get(&server.at(path)).call().unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
        let text = response.body_mut().read_to_string().unwrap();
        assert!(text.contains(words), "{path}");
    }
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
fn requests_for_other_host_names_are_refused() {
    use std::io::{Read, Write};
    let server = Server::start();
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
    for host in [
        address.clone(),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert!(ask(&host).starts_with("HTTP/1.1 200"), "{host}");
    }
    // A name pointed at 127.0.0.1 by someone else's DNS (rebinding).
    let refused = ask(&format!("evil.example:{port}"));
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    assert!(refused.contains("localhost only"));
}

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

#[test]
fn a_far_solution_was_neither_a_job_nor_cancellable() {
    // Solution 10,000 of 32 rows took half a minute outside the job limits, with nothing to
    // stop it but closing the connection. It is a heavy job now: the status shows it, and
    // the client's cancel stops it.
    let server = Server::start();
    let url = server.at("api/solution?n=32&k=1000000");
    let seeking = std::thread::spawn(move || {
        let mut response = agent().get(&url).header("x-client", "s").call().unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().read_json::<Value>().unwrap())
    });
    wait_for_jobs(&server, 1);
    let (_, status) = get(&server, "api/status");
    assert_eq!(status["running"][0]["kind"], "solution", "{status}");
    // Another kind's cancel leaves it running.
    assert!(!cancel(&server, "s", Some("count")));
    assert!(cancel(&server, "s", Some("solution")));
    let (status, body) = seeking.join().unwrap();
    assert_eq!(status, 409, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("cancelled"),
        "{body}"
    );
    wait_for_jobs(&server, 0);
    // Near the start of a smaller board it is light: no job, and at once.
    let (status, body) = get(&server, "api/solution?n=20&k=10");
    assert_eq!(status, 200, "{body}");
}

#[test]
fn heavy_requests_ran_outside_the_job_limits() {
    let server = Server::start();
    // A client's live count runs; its light work (a completion on 8 rows) neither waits for
    // a slot nor stops the count.
    let count = running_count(&server, 21, "c");
    let light = lines(completions(
        &server,
        "c",
        &json!({ "n": 8, "rows": vec![Value::Null; 8] }).to_string(),
    ));
    assert_eq!(light.last().unwrap()["completions"], "92");
    let (_, status) = get(&server, "api/status");
    assert_eq!(status["jobs"], 1);
    assert_eq!(status["running"][0]["kind"], "count");
    // The completions of an empty 32 x 32 board: without "count", the first one only, as a
    // heavy job while it is searched for, and the stream ends there.
    let first = lines(completions(
        &server,
        "c",
        &json!({ "n": 32, "rows": vec![Value::Null; 32], "count": false }).to_string(),
    ));
    let last = first.last().unwrap();
    assert_eq!(last["event"], "first", "{first:?}");
    assert_eq!(last["free_rows"], 32);
    assert_eq!(last["first"].as_array().unwrap().len(), 32);
    // The count went on through all of it.
    let (_, status) = get(&server, "api/status");
    assert_eq!(status["running"][0]["kind"], "count", "{status}");
    assert!(cancel(&server, "c", None));
    assert_cancelled(count, "cancelled");
    wait_for_jobs(&server, 0);
}

#[test]
fn solution_k_beyond_ten_thousand_was_out_of_reach() {
    // At n = 17, k = 10,000, Next wrote ?n=17&k=10001, and reopening it was "out of reach".
    // Any k opens now, and what Next reaches is what k opens.
    let server = Server::start();
    let go = std::sync::atomic::AtomicBool::new(false);
    for n in [17, 20] {
        let (status, at) = get(&server, &format!("api/solution?n={n}&k=10000"));
        assert_eq!(status, 200, "{at}");
        let from: Vec<String> = columns(&at["columns"]).iter().map(u32::to_string).collect();
        let (_, next) = get(
            &server,
            &format!(
                "api/step?n={n}&from={}&direction=next&k=10000",
                from.join("+")
            ),
        );
        assert_eq!(next["k"], "10001");
        let (status, reopened) = get(&server, &format!("api/solution?n={n}&k=10001"));
        assert_eq!(status, 200, "{reopened}");
        assert_eq!(reopened["columns"], next["columns"], "n = {n}");
    }
    let listed = nqueens::solutions(17).unwrap().nth(10001).unwrap();
    let (_, body) = get(&server, "api/solution?n=17&k=10001");
    assert_eq!(columns(&body["columns"]), listed.columns());
    // The last solution of 17 rows, at once: the mirror image of the first.
    let last = nqueens::known::total(17).unwrap() - 1;
    let (_, body) = get(&server, &format!("api/solution?n=17&k={last}"));
    let first = nqueens::browse::first(17).unwrap().unwrap();
    let mirrored: Vec<u32> = first.iter().map(|c| 16 - c).collect();
    assert_eq!(columns(&body["columns"]), mirrored);
    assert_eq!(
        nqueens::browse::nth(17, last, None, &go).unwrap(),
        Some(mirrored)
    );
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
fn duplicate_parameters_were_silently_merged() {
    // n=8&n=9 took 9 without a word; a misspelt parameter was ignored the same way.
    let server = Server::start();
    assert_bad(
        get(&server, "api/solution?n=8&n=9&k=0"),
        "'n' is given more than once",
    );
    assert_bad(
        get(&server, "api/solution?n=8&k=0&k=1"),
        "'k' is given more than once",
    );
    assert_bad(get(&server, "api/count?n=8&n=8"), "more than once");
    assert_bad(
        get(&server, "api/solution?n=8&K=0"),
        "unknown parameter 'K'",
    );
    assert_bad(
        get(
            &server,
            "api/step?n=8&from=0+4+7+5+2+6+1+3&direction=next&uniq=1",
        ),
        "unknown parameter 'uniq'",
    );
    let post = |body: &str| {
        let mut response = completions(&server, "a", body);
        let status = response.status().as_u16();
        (status, response.body_mut().read_json::<Value>().unwrap())
    };
    assert_bad(
        post(r#"{"n":4,"n":5,"rows":[null,null,null,null]}"#),
        "duplicate field `n`",
    );
    assert_bad(
        post(r#"{"n":4,"rows":[null,null,null,null],"colour":1}"#),
        "unknown field `colour`",
    );
    assert_bad(
        post(r#"{"n":4,"rows":[null,null,null,null],"count":"yes"}"#),
        "'count' must be true or false",
    );
}

#[test]
fn find_said_valid_1_queens() {
    let server = Server::start();
    for (n, words) in [(1, "valid: 1 queen,"), (8, "valid: 8 queens,")] {
        let (_, body) = get(&server, &format!("api/find?n={n}"));
        let check = body["check"].as_str().unwrap();
        assert!(check.starts_with(words), "{check}");
    }
    assert_bad(
        get(&server, "api/step?n=1&from=0+0&direction=next"),
        "has 1 column, not 2",
    );
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

#[test]
fn an_endpoint_without_parameters_said_it_takes_an_empty_list() {
    // /api/sizes?x=1 answered "this endpoint takes " and nothing after it.
    let server = Server::start();
    assert_bad(
        get(&server, "api/sizes?x=1"),
        "this endpoint takes no parameters",
    );
    assert_bad(get(&server, "api/status?x=1"), "takes no parameters");
    assert_bad(get(&server, "api/find?m=1"), "this endpoint takes only 'n'");
    assert_bad(get(&server, "api/solution?n=8&K=0"), "takes 'n', 'k'");
}

#[test]
fn an_n_of_the_wrong_type_was_said_to_be_missing() {
    // {"n":"8"} was answered "the body needs 'n'": it has one, of the wrong type.
    let server = Server::start();
    let post = |body: &str| {
        let mut response = completions(&server, "a", body);
        let status = response.status().as_u16();
        (status, response.body_mut().read_json::<Value>().unwrap())
    };
    let rows = "[null,null,null,null]";
    for (n, shown) in [
        ("\"8\"", "\"8\""),
        ("8.5", "8.5"),
        ("-1", "-1"),
        ("[4]", "[4]"),
    ] {
        assert_bad(
            post(&format!(r#"{{"n":{n},"rows":{rows}}}"#)),
            &format!("'n' must be a whole number from 1 to 32, not {shown}"),
        );
    }
    assert_bad(post(r#"{"n":4,"rows":"0 1 2 3"}"#), "'rows' must be a list");
    // Absent, it is needed.
    assert_bad(post(&format!(r#"{{"rows":{rows}}}"#)), "the body needs 'n'");
    assert_bad(post(r#"{"n":null}"#), "the body needs 'n'");
    assert_bad(post(r#"{"n":4}"#), "the body needs 'rows'");
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
