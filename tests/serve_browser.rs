//! The web page in a real browser: headless Chromium driven over WebDriver (chromedriver)
//! against a real `nqueens serve`, checked against the library: a tour of every view, and the
//! long work the page starts (a count, the completions of a large board, a far solution) shown
//! while it runs and cancelled. What each address shows is tested in
//! `serve_browser_display.rs`. Tests named after a bug pin its fix.
//!
//! Without Chromium and chromedriver (`apt-get install chromium chromium-driver`) the tests
//! skip with a `SKIPPED` line, outside CI only (`serve_support/browser.rs`). Set
//! NQUEENS_SCREENSHOTS=DIR to keep a PNG of every view.

mod serve_support;

use serde_json::Value;
use serve_support::browser::{Browser, location, nth_solution, session};
use serve_support::{Server, agent};
use std::time::{Duration, Instant};

/// The library's count of the completions of `rows`.
fn completions(rows: &[Option<u32>]) -> String {
    let go = std::sync::atomic::AtomicBool::new(false);
    let partial = nqueens::partial::Partial::new(rows).unwrap();
    partial.count(None, &go).unwrap().to_string()
}

/// The server's heavy jobs now: `/api/status`.
fn status(server: &Server) -> Value {
    let mut response = agent().get(&server.at("api/status")).call().unwrap();
    response.body_mut().read_json().unwrap()
}

/// Waits until the server runs `jobs` heavy jobs; their status.
fn wait_for_jobs(server: &Server, jobs: u64) -> Value {
    let started = Instant::now();
    loop {
        let status = status(server);
        if status["jobs"] == jobs {
            return status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "still {status}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sets an input's value as typing would, and says so to the page.
fn type_into(browser: &Browser, css: &str, value: &str) {
    browser.js(&format!(
        "const e = document.querySelector('{css}'); e.value = '{value}'; e.dispatchEvent(new Event('change'));"
    ));
}

#[test]
fn the_page_in_a_real_browser() {
    let Some((server, browser, _turn)) = session() else {
        return;
    };
    let started = Instant::now();

    // Browse: the first solution of 8, then next by mouse and by keyboard.
    browser.open(&server.at("?n=8&k=0"));
    browser.wait_k("0");
    assert_eq!(browser.data("#browse-board", "columns"), "0 4 7 5 2 6 1 3");
    assert_eq!(browser.data("#browse-board", "n"), "8");
    assert_eq!(browser.data("#browse", "state"), "shown");
    browser.screenshot("browse");
    browser.click("#browse-next");
    browser.wait_k("1");
    assert_eq!(browser.data("#browse-board", "columns"), nth_solution(8, 1));
    browser.js("document.getElementById('browse-next').focus();");
    browser.keys(&["\u{E007}"]);
    browser.wait_k("2");
    assert_eq!(browser.data("#browse-board", "columns"), nth_solution(8, 2));
    // A deep link, and the unique-only mode.
    browser.open(&server.at("?n=8&k=5"));
    browser.wait_k("5");
    assert_eq!(browser.data("#browse-board", "columns"), nth_solution(8, 5));
    assert!(browser.text("#browse-class-text").contains("eight boards"));
    assert_eq!(
        browser.js("return document.querySelectorAll('#browse-images svg').length;"),
        8
    );
    browser.click("#browse-unique");
    browser.click("#browse-next");
    browser.wait("document.querySelector('#browse').dataset.k !== '5' && document.querySelector('#browse').dataset.state === 'shown'");
    assert!(
        browser
            .text("#browse-class-text")
            .contains("is the class's representative")
    );

    // Play: a queen by mouse on (0, 0), one by keyboard on (1, 4); the completions count
    // against the library's; then "complete it".
    browser.click("#tab-play");
    browser.wait("document.querySelector('#play-count').dataset.completions === '92'");
    browser.click_square("#play-board", 0, 0);
    let mut rows = [None; 8];
    rows[0] = Some(0);
    let expected = completions(&rows);
    browser.wait(&format!(
        "document.querySelector('#play-count').dataset.completions === '{expected}' && document.getElementById('play-board').dataset.columns === '0 - - - - - - -'"
    ));
    assert_eq!(expected, "4");
    browser.js("document.getElementById('play-board').focus();");
    browser.keys(&[
        "\u{E015}", "\u{E014}", "\u{E014}", "\u{E014}", "\u{E014}", "\u{E007}",
    ]);
    rows[1] = Some(4);
    let expected = completions(&rows);
    browser.wait(&format!(
        "document.getElementById('play-board').dataset.columns === '0 4 - - - - - -' && document.querySelector('#play-count').dataset.completions === '{expected}'"
    ));
    assert!(
        browser
            .text("#play-count")
            .contains(&format!("{expected} solution"))
    );
    browser.screenshot("play");
    browser.wait("!document.getElementById('play-complete').disabled");
    browser.click("#play-complete");
    browser.wait("!document.getElementById('play-board').dataset.columns.includes('-')");
    assert_eq!(browser.data("#play-board", "columns"), "0 4 7 5 2 6 1 3");
    // A queen on an attacked square: no possible configurations.
    browser.click("#play-clear");
    browser.click_square("#play-board", 0, 0);
    browser.wait("document.getElementById('play-board').dataset.columns === '0 - - - - - - -'");
    browser.click_square("#play-board", 1, 1);
    browser
        .wait("document.querySelector('#play-count').textContent === 'No possible configurations'");
    browser.screenshot("play-none");

    // Counts: a live count of 10 to its end, then one of 21 started and cancelled.
    browser.click("#tab-sizes");
    type_into(&browser, "#n", "10");
    browser.click("#count-start");
    browser.wait("document.getElementById('count-result').textContent.includes('724 solutions')");
    assert!(
        browser
            .text("#count-result")
            .contains("agrees with the known count")
    );
    assert!(
        browser
            .text("#count-status")
            .contains("with the search engine")
    );
    type_into(&browser, "#n", "21");
    browser.click("#count-start");
    browser.wait("/% · /.test(document.getElementById('count-status').textContent)");
    let running = wait_for_jobs(&server, 1);
    assert_eq!(running["running"][0]["kind"], "count");
    browser.screenshot("counts");
    browser.click("#count-cancel");
    browser.wait("document.getElementById('count-status').textContent === 'Cancelled.'");
    wait_for_jobs(&server, 0);

    // Watch: the search of 6, at full speed, reaches its first solution.
    type_into(&browser, "#n", "6");
    browser.click("#tab-watch");
    browser.js("document.getElementById('watch-speed').focus();");
    browser.keys(&["\u{E010}"]); // End: the fastest speed
    browser.click("#watch-play");
    browser.wait("document.getElementById('watch-board').dataset.solutions === '1'");
    assert_eq!(browser.data("#watch-board", "lastSolution"), "1 3 5 0 2 4");
    browser.click("#watch-play");
    browser.screenshot("watch");

    // Large boards: the construction for 1,000 rows, valid.
    browser.click("#tab-large");
    browser.js("document.getElementById('large-n').value = '1000';");
    browser.click("#large-draw");
    browser.wait("document.getElementById('large-board').dataset.n === '1000'");
    let columns: Vec<u32> = browser
        .data("#large-board", "columns")
        .split(' ')
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(columns.len(), 1000);
    assert_eq!(nqueens::check_columns(&columns), Ok(()));
    assert!(browser.text("#large-check").contains("valid: 1000 queens"));
    browser.screenshot("large");
    println!(
        "serve_browser: the page's tour took {:?}",
        started.elapsed()
    );
}

#[test]
fn play_at_32_counted_the_empty_board_at_once() {
    // The empty 32 x 32 board's completions were counted at once, both cores busy for as
    // long as the tab stayed open. Now the first completion is found, and the count waits
    // for its button, shows its time, and stops on Cancel.
    let Some((server, browser, _turn)) = session() else {
        return;
    };
    browser.open(&server.at("?n=32&view=play"));
    browser.wait("document.getElementById('play-count').dataset.state === 'large'");
    assert!(browser.text("#play-detail").contains("32 rows left empty"));
    assert_eq!(
        browser.js("return document.getElementById('play-count-start').hidden;"),
        false
    );
    assert_eq!(
        browser.js("return document.getElementById('play-complete').disabled;"),
        false
    );
    assert_eq!(
        status(&server)["jobs"],
        0,
        "nothing counts before it is asked"
    );
    browser.screenshot("play-32");
    browser.click("#play-count-start");
    browser.wait("document.getElementById('play-count').dataset.state === 'counting' && document.getElementById('play-detail').textContent.startsWith('Working for')");
    let running = wait_for_jobs(&server, 1);
    assert_eq!(running["running"][0]["kind"], "completions");
    browser.screenshot("play-32-counting");
    browser.click("#play-cancel");
    browser.wait("document.getElementById('play-count').dataset.state === 'cancelled'");
    wait_for_jobs(&server, 0);
    assert_eq!(
        browser.js("return document.getElementById('play-count-start').hidden;"),
        false
    );
    // A placement with few empty rows is counted at once, as before: 18 queens of the
    // first completion, 14 rows left.
    browser.click("#play-complete");
    browser.wait("document.getElementById('play-count').dataset.completions === '1'");
    let first: Vec<Option<u32>> = browser
        .data("#play-board", "columns")
        .split(' ')
        .enumerate()
        .map(|(row, c)| (row < 18).then(|| c.parse().unwrap()))
        .collect();
    let queens: Vec<String> = first
        .iter()
        .map(|c| c.map_or("-".to_owned(), |c| c.to_string()))
        .collect();
    browser.open(&server.at(&format!("?n=32&view=play&queens={}", queens.join("."))));
    let expected = completions(&first);
    browser.wait(&format!(
        "document.getElementById('play-count').dataset.completions === '{expected}'"
    ));
}

#[test]
fn browse_far_k_showed_the_old_board_with_no_sign_of_work() {
    // n = 32, k = 10000, Go: half a minute with the old board shown and no sign of work.
    // The old board is cleared at once, the time runs, and Cancel stops the look-up.
    let Some((server, browser, _turn)) = session() else {
        return;
    };
    browser.open(&server.at("?n=32&k=0"));
    browser.wait_k("0");
    let first = browser.data("#browse-board", "columns");
    browser.js("document.getElementById('browse-k').value = '1000000';");
    browser.click("#browse-jump");
    let asked = Instant::now();
    browser.wait_state("working");
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(
        browser.data("#browse-board", "columns"),
        vec!["-"; 32].join(" ")
    );
    assert!(
        browser
            .text("#browse-title")
            .contains("Finding solution 1,000,001 of n = 32")
    );
    browser.wait("/Working… \\d/.test(document.getElementById('browse-working-text').textContent)");
    let running = wait_for_jobs(&server, 1);
    assert_eq!(running["running"][0]["kind"], "solution");
    browser.screenshot("browse-working");
    browser.click("#browse-cancel");
    browser.wait_state("shown");
    assert_eq!(browser.data("#browse", "k"), "0");
    assert_eq!(browser.data("#browse-board", "columns"), first);
    assert!(browser.text("#browse-note").contains("Stopped"));
    wait_for_jobs(&server, 0);
    assert!(
        location(&browser).ends_with("?n=32&k=0"),
        "{}",
        location(&browser)
    );
}
