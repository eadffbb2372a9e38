//! The web page's JSON API over real HTTP on loopback: every endpoint against the library and
//! the known table, and every bad input answered with a 4xx and a JSON error. The job limits
//! are tested in `serve_api_jobs.rs`; connections, other origins and hosts, and the server's
//! stop in `serve_api_connections.rs`. Tests named after a bug pin its fix.

mod serve_support;

use nqueens::trace::{Event, Trace};
use serde_json::{Value, json};
use serve_support::{Server, agent, completions, get, lines};
use std::io::{BufRead, BufReader};

/// Asserts a 400 whose JSON error mentions `words`.
fn assert_bad(answer: (u16, Value), words: &str) {
    let (status, body) = answer;
    assert_eq!(status, 400, "{body}");
    let error = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {body}"));
    assert!(error.contains(words), "{error:?} lacks {words:?}");
}

fn columns(value: &Value) -> Vec<u32> {
    serde_json::from_value(value.clone()).unwrap()
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
