//! The web page in a real browser: headless Chromium driven over WebDriver (chromedriver)
//! against a real `nqueens serve`, checked against the library. Tests named after a bug pin
//! its fix.
//!
//! Without Chromium and chromedriver (`apt-get install chromium chromium-driver`) the tests
//! skip, each with a `SKIPPED` line printed past the harness's capture, so that a newcomer's
//! first `cargo test` passes and says what it did not test; under CI=true (as `.ci/run`
//! sets) a missing tool fails them instead, so no skip is silent in CI. Set
//! NQUEENS_SCREENSHOTS=DIR to keep a PNG of every view.
//!
//! The WebDriver calls are a handful of JSON requests, made with the same HTTP client as the
//! API tests (and its deadline). The tests take turns: one Chromium at a time.

mod serve_support;

use serde_json::{Value, json};
use serve_support::{Server, agent};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The key WebDriver names elements by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The first of `names` found on the PATH.
fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// One browser test at a time: each starts a Chromium, and two at once on a small machine
/// make every wait slow.
static TURN: Mutex<()> = Mutex::new(());

/// Chromium and chromedriver, and the test's turn; `None` when the browser tests are skipped:
/// a tool is missing, outside CI. Under CI=true a missing tool fails the test.
fn tools() -> Option<(PathBuf, PathBuf, MutexGuard<'static, ()>)> {
    let chromium = find_program(&["chromium", "chromium-browser", "google-chrome"]);
    let chromedriver = find_program(&["chromedriver"]);
    if let (Some(chromium), Some(chromedriver)) = (chromium.clone(), chromedriver.clone()) {
        let turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        return Some((chromium, chromedriver, turn));
    }
    let missing: Vec<&str> = [
        (chromium.is_none(), "Chromium"),
        (chromedriver.is_none(), "chromedriver"),
    ]
    .into_iter()
    .filter_map(|(missing, name)| missing.then_some(name))
    .collect();
    let missing = missing.join(" and ");
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "{missing} not on the PATH: CI (CI=true) runs the browser tests; install them \
             (apt-get install chromium chromium-driver)"
        );
    }
    // Straight to the process's stderr: the harness hides what eprintln! prints in a test
    // that passes.
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED: serve_browser: {missing} not on the PATH (apt-get install chromium \
         chromium-driver): the page was NOT tested in a browser"
    );
    None
}

/// A server and a browser on it for one test, or `None` when the test is skipped; the turn
/// is held as long as they live.
fn session() -> Option<(Server, Browser, MutexGuard<'static, ()>)> {
    let (chromium, chromedriver, turn) = tools()?;
    let server = Server::start();
    let browser = Browser::start(&chromium, &chromedriver);
    Some((server, browser, turn))
}

/// A chromedriver process and one headless Chromium session.
struct Browser {
    driver: Child,
    session: String,
    base: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    fn start(chromium: &PathBuf, chromedriver: &PathBuf) -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        while agent().get(&format!("{base}/status")).call().is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = tempfile::tempdir().unwrap();
        // Without these, Chromium waits on network lookups and updates that cannot happen.
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1200,1000",
            &format!("--user-data-dir={}", profile.path().display()),
        ];
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium, "args": args },
        }}});
        let mut browser = Browser {
            driver,
            session: String::new(),
            base,
            _profile: profile,
        };
        let created = browser.call("POST", "/session", Some(capabilities));
        browser.session = created["sessionId"].as_str().unwrap().to_owned();
        browser
    }

    /// One WebDriver command: its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = if self.session.is_empty() {
            format!("{}{path}", self.base)
        } else {
            format!("{}/session/{}{path}", self.base, self.session)
        };
        let mut response = match (method, body) {
            ("GET", _) => agent().get(&url).call(),
            ("DELETE", _) => agent().delete(&url).call(),
            (_, body) => agent()
                .post(&url)
                .header("content-type", "application/json")
                .send(body.unwrap_or(json!({})).to_string()),
        }
        .unwrap();
        let status = response.status().as_u16();
        let value: Value = response.body_mut().read_json().unwrap();
        assert_eq!(status, 200, "{method} {path}: {value}");
        value["value"].clone()
    }

    fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
        self.wait("document.body.dataset.ready === 'true'");
    }

    /// Runs `script` (a function body) in the page: its return value.
    fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Waits until the expression `condition` is true in the page.
    fn wait(&self, condition: &str) {
        let started = Instant::now();
        while self.js(&format!("return !!({condition});")) != json!(true) {
            if started.elapsed() > Duration::from_secs(30) {
                let state = self.js(
                    "return [...document.querySelectorAll('svg.board[data-columns], [data-k], p[id]')].map(e => `${e.id}: ${JSON.stringify(e.dataset)} ${e.textContent.slice(0, 80)}`).join('\\n');",
                );
                panic!(
                    "timed out waiting for {condition}; the page:\n{}",
                    state.as_str().unwrap_or("")
                );
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Waits until the browse view shows solution k.
    fn wait_k(&self, k: &str) {
        self.wait(&format!(
            "document.querySelector('#browse').dataset.k === '{k}'"
        ));
    }

    /// Waits until the browse view is in `state` (shown, working, message).
    fn wait_state(&self, state: &str) {
        self.wait(&format!(
            "document.querySelector('#browse').dataset.state === '{state}'"
        ));
    }

    fn element(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("{css}: {found}"))
            .to_owned()
    }

    /// A real click on the element.
    fn click(&self, css: &str) {
        let id = self.element(css);
        self.call("POST", &format!("/element/{id}/click"), None);
    }

    /// A real mouse click on square (row, column) of the board `css`.
    fn click_square(&self, css: &str, row: u32, column: u32) {
        self.click(&format!("{css} rect[x='{column}'][y='{row}']"));
    }

    /// Real key presses, sent to the focused element.
    fn keys(&self, keys: &[&str]) {
        let mut actions = Vec::new();
        for key in keys {
            actions.push(json!({ "type": "keyDown", "value": key }));
            actions.push(json!({ "type": "keyUp", "value": key }));
        }
        let body = json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] });
        self.call("POST", "/actions", Some(body));
    }

    fn text(&self, css: &str) -> String {
        self.js(&format!(
            "return document.querySelector('{css}').textContent;"
        ))
        .as_str()
        .unwrap()
        .to_owned()
    }

    fn data(&self, css: &str, name: &str) -> String {
        self.js(&format!(
            "return document.querySelector('{css}').dataset.{name} || '';"
        ))
        .as_str()
        .unwrap()
        .to_owned()
    }

    /// Saves a screenshot of the page as NAME.png when NQUEENS_SCREENSHOTS names a folder.
    fn screenshot(&self, name: &str) {
        let Some(dir) = std::env::var_os("NQUEENS_SCREENSHOTS") else {
            return;
        };
        let encoded = self.call("GET", "/screenshot", None);
        let png = base64_decode(encoded.as_str().unwrap());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(PathBuf::from(dir).join(format!("{name}.png")), png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = agent()
                .delete(&format!("{}/session/{}", self.base, self.session))
                .call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64, for the screenshots.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &d)| acc | u32::from(d) << (18 - 6 * i));
        out.extend_from_slice(&bits.to_be_bytes()[1..chunk.len()]);
    }
    out
}

fn perm(columns: &[u32]) -> String {
    columns
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn nth_solution(n: u32, k: usize) -> String {
    perm(nqueens::solutions(n).unwrap().nth(k).unwrap().columns())
}

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

/// The page's address now.
fn location(browser: &Browser) -> String {
    browser
        .js("return location.href;")
        .as_str()
        .unwrap()
        .to_owned()
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

#[test]
fn urls_the_page_wrote_did_not_reopen() {
    // At ?n=17&k=10000, Next wrote ?n=17&k=10001, which reopened as "out of reach" and an
    // empty board. Every address the page writes now reopens the view it was written for.
    let Some((server, browser, _turn)) = session() else {
        return;
    };
    let reopened = |expect: &str| {
        let url = location(&browser);
        browser.open(&url);
        browser.wait(expect);
        url
    };
    browser.open(&server.at("?n=17&k=10000"));
    browser.wait_k("10000");
    browser.click("#browse-next");
    browser.wait_k("10001");
    let columns = browser.data("#browse-board", "columns");
    assert_eq!(columns, nth_solution(17, 10001));
    let url = reopened("document.querySelector('#browse').dataset.k === '10001'");
    assert!(url.ends_with("?n=17&k=10001"), "{url}");
    assert_eq!(browser.data("#browse-board", "columns"), columns);
    // The unique-only mode.
    browser.open(&server.at("?n=8&k=0"));
    browser.wait_k("0");
    browser.click("#browse-unique");
    browser.click("#browse-next");
    browser.wait("document.querySelector('#browse').dataset.k !== '0' && document.querySelector('#browse').dataset.state === 'shown'");
    let k = browser.data("#browse", "k");
    reopened(&format!(
        "document.querySelector('#browse').dataset.k === '{k}' && document.getElementById('browse-unique').checked"
    ));
    // The queens placed.
    browser.open(&server.at("?n=8&view=play"));
    browser.wait("document.querySelector('#play-count').dataset.completions === '92'");
    browser.click_square("#play-board", 0, 2);
    browser.wait("document.getElementById('play-board').dataset.columns === '2 - - - - - - -'");
    let url = reopened(
        "document.getElementById('play-board').dataset.columns === '2 - - - - - - -' && document.querySelector('#play-count').dataset.completions === '16'",
    );
    assert!(url.contains("view=play&queens=2.-.-.-.-.-.-.-"), "{url}");
    // The large board's size.
    browser.open(&server.at("?view=large"));
    browser.wait("document.getElementById('large-board').dataset.n === '100'");
    browser.js("document.getElementById('large-n').value = '500';");
    browser.click("#large-draw");
    browser.wait("document.getElementById('large-board').dataset.n === '500'");
    reopened("document.getElementById('large-board').dataset.n === '500'");
    // A link past the last solution keeps its k: reopened, it says the same.
    browser.open(&server.at("?n=8&k=92"));
    browser.wait_state("message");
    let url = reopened("document.querySelector('#browse').dataset.state === 'message'");
    assert!(url.ends_with("?n=8&k=92"), "{url}");
}

#[test]
fn bad_deep_links_drew_an_empty_frame() {
    // ?n=8&k=92 drew an empty frame, an empty "Columns:" and a "Symmetry class" heading
    // over nothing; ?n=0, ?n=abc and ?n=33 became other sizes without a word.
    let Some((server, browser, _turn)) = session() else {
        return;
    };
    let shown = |id: &str| {
        browser.js(&format!(
            "const e = document.getElementById('{id}'); return !e.hidden && e.getClientRects().length > 0;"
        )) == json!(true)
    };
    browser.open(&server.at("?n=8&k=92"));
    browser.wait_state("message");
    assert!(
        browser
            .text("#browse-message")
            .contains("n = 8 has 92 solutions, numbered 0 to 91")
    );
    for id in ["browse-board-wrap", "browse-columns-line", "browse-class"] {
        assert!(!shown(id), "{id} is shown");
    }
    assert!(shown("browse-message"));
    browser.screenshot("browse-past-the-end");
    browser.open(&server.at("?n=3"));
    browser.wait_state("message");
    assert!(
        browser
            .text("#browse-message")
            .contains("n = 3 has no solutions")
    );
    assert!(!shown("browse-board-wrap"));
    for (query, n, words) in [
        ("?n=0", "1", "n = 0 is too small"),
        ("?n=abc", "8", "“abc” is not a board size"),
        ("?n=33&k=0", "32", "n = 33 is too large"),
        ("?n=8&view=nope", "8", "no view “nope”"),
        ("?n=4&view=play&queens=9.-", "4", "do not fit"),
    ] {
        browser.open(&server.at(query));
        assert_eq!(
            browser.js("return document.getElementById('n').value;"),
            n,
            "{query}"
        );
        assert!(shown("notice"), "{query}");
        let notice = browser.text("#notice");
        assert!(notice.contains(words), "{query}: {notice}");
        if query == "?n=33&k=0" {
            browser.wait_k("0");
            browser.screenshot("notice-n-33");
        }
    }
    browser.open(&server.at("?n=8"));
    assert!(!shown("notice"));
}

#[test]
fn the_page_scrolled_sideways_at_phone_width() {
    // At 390 px the counts table was 425 px wide. No view may be wider than the window.
    let Some((server, browser, _turn)) = session() else {
        return;
    };
    browser.call(
        "POST",
        "/window/rect",
        Some(json!({ "width": 390, "height": 844 })),
    );
    let width = browser.js("return window.innerWidth;").as_u64().unwrap();
    assert!(width <= 400, "the window is {width} px wide");
    for (name, query, ready) in [
        (
            "phone-counts",
            "?n=8&view=sizes",
            "document.querySelectorAll('#sizes-table tbody tr').length === 32",
        ),
        (
            "phone-browse",
            "?n=8&k=5",
            "document.querySelector('#browse').dataset.k === '5'",
        ),
        (
            "phone-browse-32",
            "?n=32&k=0",
            "document.querySelector('#browse').dataset.k === '0'",
        ),
        (
            "phone-browse-message",
            "?n=8&k=92",
            "document.querySelector('#browse').dataset.state === 'message'",
        ),
        (
            "phone-play",
            "?n=8&view=play&queens=0.4.-.-.-.-.-.-",
            "document.querySelector('#play-count').dataset.completions === '1'",
        ),
        (
            "phone-play-32",
            "?n=32&view=play",
            "document.getElementById('play-count').dataset.state === 'large'",
        ),
        (
            "phone-watch",
            "?n=12&view=watch",
            "document.getElementById('watch-board').dataset.n === '12'",
        ),
        (
            "phone-large",
            "?view=large&large=1000",
            "document.getElementById('large-board').dataset.n === '1000'",
        ),
        (
            "phone-notice",
            "?n=abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz",
            "true",
        ),
    ] {
        browser.open(&server.at(query));
        browser.wait(ready);
        let sizes =
            browser.js("return [document.scrollingElement.scrollWidth, window.innerWidth];");
        let (scroll, inner) = (sizes[0].as_u64().unwrap(), sizes[1].as_u64().unwrap());
        browser.screenshot(name);
        assert!(
            scroll <= inner,
            "{name}: the page is {scroll} px wide in a {inner} px window"
        );
    }
}

#[test]
fn wording_said_solution_1_of_the_solutions() {
    // "Solution 1 of the solutions of n = 32", "valid: 1 queens", and errors in the large
    // view in plain text over a blank canvas.
    let Some((server, browser, _turn)) = session() else {
        return;
    };
    browser.open(&server.at("?n=8&k=0"));
    browser.wait_k("0");
    assert_eq!(
        browser.text("#browse-title"),
        "Solution 1 of 92, n = 8 (k = 0)"
    );
    browser.open(&server.at("?n=32&k=0"));
    browser.wait_k("0");
    assert_eq!(browser.text("#browse-title"), "Solution 1, n = 32 (k = 0)");
    browser.open(&server.at("?view=large&large=1"));
    browser.wait("document.getElementById('large-board').dataset.n === '1'");
    assert!(
        browser
            .text("#large-check")
            .starts_with("n = 1: valid: 1 queen,")
    );
    for (large, words) in [
        ("0", "from 1 to 1000"),
        ("abc", "from 1 to 1000"),
        ("3", "no solution exists"),
    ] {
        browser.open(&server.at(&format!("?view=large&large={large}")));
        browser.wait(&format!(
            "document.getElementById('large-check').textContent.includes('{words}')"
        ));
        let hidden = browser.js("return document.getElementById('large-wrap').hidden;");
        assert_eq!(hidden, true, "large = {large}: a blank canvas is shown");
        let error = browser
            .js("return document.getElementById('large-check').classList.contains('error');");
        assert_eq!(error, json!(large != "3"), "large = {large}");
        if large == "0" {
            browser.screenshot("large-error");
        }
    }
}
