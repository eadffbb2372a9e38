//! The web page in a real browser: headless Chromium driven over WebDriver (chromedriver)
//! against a real `nqueens serve`, checked against the library. Skipped, loudly, only when no
//! Chromium and chromedriver are installed (`apt-get install chromium chromium-driver`).
//! Set NQUEENS_SCREENSHOTS=DIR to keep a PNG of every view.
//!
//! The WebDriver calls are a handful of JSON requests, made with the same HTTP client as the
//! API tests.

mod serve_support;

use serde_json::{Value, json};
use serve_support::{Server, agent};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
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

#[test]
fn the_page_in_a_real_browser() {
    let (Some(chromium), Some(chromedriver)) = (
        find_program(&["chromium", "chromium-browser", "google-chrome"]),
        find_program(&["chromedriver"]),
    ) else {
        eprintln!(
            "SKIPPED: serve_browser: no Chromium and chromedriver on the PATH (apt-get install chromium chromium-driver); the page was NOT tested in a browser"
        );
        return;
    };
    let started = Instant::now();
    let server = Server::start();
    let browser = Browser::start(&chromium, &chromedriver);

    // Browse: the first solution of 8, then next by mouse and by keyboard.
    browser.open(&server.at("?n=8&k=0"));
    browser.wait("document.querySelector('#browse').dataset.k === '0'");
    assert_eq!(browser.data("#browse-board", "columns"), "0 4 7 5 2 6 1 3");
    assert_eq!(browser.data("#browse-board", "n"), "8");
    browser.screenshot("browse");
    browser.click("#browse-next");
    browser.wait("document.querySelector('#browse').dataset.k === '1'");
    assert_eq!(browser.data("#browse-board", "columns"), nth_solution(8, 1));
    browser.js("document.getElementById('browse-next').focus();");
    browser.keys(&["\u{E007}"]);
    browser.wait("document.querySelector('#browse').dataset.k === '2'");
    assert_eq!(browser.data("#browse-board", "columns"), nth_solution(8, 2));
    // A deep link, and the unique-only mode.
    browser.open(&server.at("?n=8&k=5"));
    browser.wait("document.querySelector('#browse').dataset.k === '5'");
    assert_eq!(browser.data("#browse-board", "columns"), nth_solution(8, 5));
    assert!(browser.text("#browse-class-text").contains("eight boards"));
    assert_eq!(
        browser.js("return document.querySelectorAll('#browse-images svg').length;"),
        8
    );
    browser.click("#browse-unique");
    browser.click("#browse-next");
    browser.wait("document.querySelector('#browse').dataset.k !== '5'");
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

    // Counts: a live count of 10 to its end, then one of 18 started and cancelled.
    browser.click("#tab-sizes");
    browser.js("const n = document.getElementById('n'); n.value = '10'; n.dispatchEvent(new Event('change'));");
    browser.click("#count-start");
    browser.wait("document.getElementById('count-result').textContent.includes('724 solutions')");
    assert!(
        browser
            .text("#count-result")
            .contains("agrees with the known count")
    );
    browser.js("const n = document.getElementById('n'); n.value = '18'; n.dispatchEvent(new Event('change'));");
    browser.click("#count-start");
    browser.wait("/\\d+\\/\\d+ tasks/.test(document.getElementById('count-status').textContent)");
    browser.screenshot("counts");
    browser.click("#count-cancel");
    browser.wait("document.getElementById('count-status').textContent === 'Cancelled.'");
    let status = Instant::now();
    loop {
        let mut response = agent().get(&server.at("api/status")).call().unwrap();
        let body: Value = response.body_mut().read_json().unwrap();
        if body["jobs"] == 0 {
            break;
        }
        assert!(
            status.elapsed() < Duration::from_secs(10),
            "the count still runs"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // Watch: the search of 6, at full speed, reaches its first solution.
    browser.js("const n = document.getElementById('n'); n.value = '6'; n.dispatchEvent(new Event('change'));");
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

    // Phone width.
    browser.call(
        "POST",
        "/window/rect",
        Some(json!({ "width": 390, "height": 844 })),
    );
    browser.open(&server.at("?n=8&k=0"));
    browser.wait("document.querySelector('#browse').dataset.k === '0'");
    browser.screenshot("phone");
    eprintln!("serve_browser: done in {:?}", started.elapsed());
}
