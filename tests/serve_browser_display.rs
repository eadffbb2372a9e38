//! The web page in a real browser (headless Chromium over WebDriver, against a real
//! `nqueens serve`): what each address shows. Every address the page writes reopens the view
//! it was written for, a bad link says what is wrong instead of drawing an empty frame, no
//! view is wider than a phone's window, and the words are right. Tests named after a bug pin
//! its fix.
//!
//! Without Chromium and chromedriver (`apt-get install chromium chromium-driver`) the tests
//! skip with a `SKIPPED` line, outside CI only (`serve_support/browser.rs`). Set
//! NQUEENS_SCREENSHOTS=DIR to keep a PNG of every view.

mod serve_support;

use serde_json::json;
use serve_support::browser::{location, nth_solution, session};

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
