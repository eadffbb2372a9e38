//! The web page's heavy jobs over real HTTP on loopback: one job per client and a limit for
//! all, light work that is no job, and a job cancelled by its client (by kind), replaced by
//! its next, or stopped when its client leaves. Tests named after a bug pin its fix.

mod serve_support;

use serde_json::{Value, json};
use serve_support::{Server, Stream, agent, completions, get, lines, running_count, wait_for_jobs};
use std::io::{BufRead, BufReader};

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
fn two_programs_cancelled_each_other_s_heavy_requests() {
    // A request without `x-client` was the client of its peer's address, and every program
    // on this machine has the same one: each heavy request cancelled the one before it (99
    // of 100 concurrent ones got 409). Such a request is a client of its own now.
    let server = Server::start();
    let endless = json!({ "n": 32, "rows": vec![Value::Null; 32] }).to_string();
    // A program's request, its stream read up to its first completion.
    let start = || {
        let response = agent()
            .post(&server.at("api/completions"))
            .header("content-type", "application/json")
            .send(&endless)
            .unwrap();
        let mut reader = BufReader::new(response.into_body().into_reader()).lines();
        let first = reader
            .by_ref()
            .map(|l| serde_json::from_str::<Value>(&l.unwrap()).unwrap())
            .find(|l| l["event"] != "counting")
            .unwrap();
        assert_eq!(first["event"], "first", "{first}");
        reader
    };
    let mut one = start();
    let two = start();
    // The first goes on counting: ticks, not its cancellation.
    for _ in 0..3 {
        let line: Value = serde_json::from_str(&one.next().unwrap().unwrap()).unwrap();
        assert_eq!(line["event"], "counting", "{line}");
    }
    wait_for_jobs(&server, 2);
    // A cancel that names no client is a client of its own too, with nothing to stop.
    let mut response = agent().post(&server.at("api/cancel")).send("").unwrap();
    let body: Value = response.body_mut().read_json().unwrap();
    assert_eq!(body["cancelled"], false, "{body}");
    wait_for_jobs(&server, 2);
    drop((one, two));
    wait_for_jobs(&server, 0);
}
