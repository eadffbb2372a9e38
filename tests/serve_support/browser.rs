//! The browser of the browser tests: headless Chromium driven over WebDriver (chromedriver),
//! one at a time, and what the tests read from the page.
//!
//! Without Chromium and chromedriver (`apt-get install chromium chromium-driver`) the tests
//! skip, each with a `SKIPPED` line printed past the harness's capture, so that a newcomer's
//! first `cargo test` passes and says what it did not test; under CI=true (as `.ci/run`
//! sets) a missing tool fails them instead, so no skip is silent in CI. Set
//! NQUEENS_SCREENSHOTS=DIR to keep a PNG of every view.
//!
//! The WebDriver calls are a handful of JSON requests, made with the same HTTP client as the
//! API tests (and its deadline). The tests take turns: one Chromium at a time.

use super::{Server, agent};
use serde_json::{Value, json};
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
        "SKIPPED: {}: {missing} not on the PATH (apt-get install chromium \
         chromium-driver): the page was NOT tested in a browser",
        env!("CARGO_CRATE_NAME")
    );
    None
}

/// A server and a browser on it for one test, or `None` when the test is skipped; the turn
/// is held as long as they live.
pub fn session() -> Option<(Server, Browser, MutexGuard<'static, ()>)> {
    let (chromium, chromedriver, turn) = tools()?;
    let server = Server::start();
    let browser = Browser::start(&chromium, &chromedriver);
    Some((server, browser, turn))
}

/// A chromedriver process and one headless Chromium session.
pub struct Browser {
    driver: Child,
    session: String,
    base: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts chromedriver on a free port and a headless Chromium session through it, with a
    /// profile of its own.
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
    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
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

    /// Opens `url` and waits until the page says it is ready.
    pub fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
        self.wait("document.body.dataset.ready === 'true'");
    }

    /// Runs `script` (a function body) in the page: its return value.
    pub fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Waits until the expression `condition` is true in the page.
    pub fn wait(&self, condition: &str) {
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
    pub fn wait_k(&self, k: &str) {
        self.wait(&format!(
            "document.querySelector('#browse').dataset.k === '{k}'"
        ));
    }

    /// Waits until the browse view is in `state` (shown, working, message).
    pub fn wait_state(&self, state: &str) {
        self.wait(&format!(
            "document.querySelector('#browse').dataset.state === '{state}'"
        ));
    }

    /// The WebDriver id of the first element that matches the selector `css`.
    pub fn element(&self, css: &str) -> String {
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
    pub fn click(&self, css: &str) {
        let id = self.element(css);
        self.call("POST", &format!("/element/{id}/click"), None);
    }

    /// A real mouse click on square (row, column) of the board `css`.
    pub fn click_square(&self, css: &str, row: u32, column: u32) {
        self.click(&format!("{css} rect[x='{column}'][y='{row}']"));
    }

    /// Real key presses, sent to the focused element.
    pub fn keys(&self, keys: &[&str]) {
        let mut actions = Vec::new();
        for key in keys {
            actions.push(json!({ "type": "keyDown", "value": key }));
            actions.push(json!({ "type": "keyUp", "value": key }));
        }
        let body = json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] });
        self.call("POST", "/actions", Some(body));
    }

    /// The text content of the first element that matches `css`.
    pub fn text(&self, css: &str) -> String {
        self.js(&format!(
            "return document.querySelector('{css}').textContent;"
        ))
        .as_str()
        .unwrap()
        .to_owned()
    }

    /// The `data-NAME` attribute of the first element that matches `css` (`name` in camel
    /// case, as in `dataset`); empty when it has none.
    pub fn data(&self, css: &str, name: &str) -> String {
        self.js(&format!(
            "return document.querySelector('{css}').dataset.{name} || '';"
        ))
        .as_str()
        .unwrap()
        .to_owned()
    }

    /// Saves a screenshot of the page as NAME.png when NQUEENS_SCREENSHOTS names a folder.
    pub fn screenshot(&self, name: &str) {
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

/// Columns written as the page writes them: numbers separated by spaces.
fn perm(columns: &[u32]) -> String {
    columns
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The library's solution k of n (counted from 0), written as [`perm`] writes it.
pub fn nth_solution(n: u32, k: usize) -> String {
    perm(nqueens::solutions(n).unwrap().nth(k).unwrap().columns())
}

/// The page's address now.
pub fn location(browser: &Browser) -> String {
    browser
        .js("return location.href;")
        .as_str()
        .unwrap()
        .to_owned()
}
