//! The pages a user reads stay true: README.md and every page of docs/.
//!
//! - Every `console` example runs: each `$ ` line through bash (in a fresh folder per
//!   block, this build's `nqueens` first on the PATH), its standard output compared with the
//!   lines under it (a command that shows no output must succeed; one that shows some may
//!   exit otherwise, as `verify` of invalid placements does). What moves from run to run may differ: a decimal number (a time) in
//!   text, and in JSON the fields of [`MOVING`]; everything else must match.
//! - Every flag named for `nqueens` exists: in a command line, a flag of its subcommand; in
//!   backquotes in the text, a flag of some subcommand (or of another program the pages name,
//!   [`OTHER_PROGRAMS_FLAGS`]).
//! - The library's dependency line names the crate's version; the tables `scripts/frontier.sh`
//!   makes and the example `scripts/bench-example.sh` makes (of this version) are pasted
//!   whole where the pages show them; no page holds dated history.
//!
//! The paths the pages name are checked by `tests/docs.rs`.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The project's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The pages: README.md and docs/*.md, with their text.
fn pages() -> Vec<(String, String)> {
    let mut names = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.strip_prefix(root()).unwrap().to_path_buf())
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(root().join(&name)).unwrap();
            (name.display().to_string(), text)
        })
        .collect()
}

/// The fenced blocks of `text` whose info string is `lang`: each block's first line number
/// (1-based) and its lines.
fn blocks<'t>(text: &'t str, lang: &str) -> Vec<(usize, Vec<&'t str>)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, Vec<&str>)> = None;
    let mut other = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(fence) = line.strip_prefix("```") {
            match (current.take(), other) {
                (Some(block), _) => out.push(block),
                (None, true) => other = false,
                (None, false) if fence.trim() == lang => current = Some((i + 1, Vec::new())),
                (None, false) => other = true,
            }
            continue;
        }
        if let Some((_, lines)) = &mut current {
            lines.push(line);
        }
    }
    out
}

/// A console block's commands, each with the output shown under it (continuation lines,
/// ending in `\`, joined).
fn commands<'t>(lines: &[&'t str]) -> Vec<(String, Vec<&'t str>)> {
    let mut out: Vec<(String, Vec<&str>)> = Vec::new();
    let mut continued = false;
    for line in lines {
        if continued {
            let (command, _) = out.last_mut().unwrap();
            command.push('\n');
            command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            out.push((command.to_string(), Vec::new()));
            continued = command.ends_with('\\');
        } else if let Some((_, output)) = out.last_mut() {
            output.push(line);
        }
    }
    out
}

/// JSON fields whose values move from run to run: times, memory, the sample's size.
const MOVING: [&str; 11] = [
    "seconds",
    "peak_memory_bytes",
    "core_seconds",
    "error",
    "setup_seconds",
    "sample_seconds",
    "thread_start_seconds",
    "longest_part_seconds",
    "rate_spread",
    "sampled",
    "elapsed_s",
];

/// Whether `word` is a decimal number with a fraction (a time, in a table).
fn is_decimal(word: &str) -> bool {
    word.contains('.') && word.parse::<f64>().is_ok()
}

/// Whether a line of output matches the line a page shows.
fn line_matches(shown: &str, got: &str) -> bool {
    if let (Ok(shown), Ok(got)) = (
        serde_json::from_str::<Value>(shown),
        serde_json::from_str::<Value>(got),
    ) && shown.is_object()
    {
        return json_matches(&shown, &got);
    }
    let (shown, got): (Vec<&str>, Vec<&str>) = (
        shown.split_whitespace().collect(),
        got.split_whitespace().collect(),
    );
    shown.len() == got.len()
        && shown
            .iter()
            .zip(&got)
            .all(|(s, g)| s == g || (is_decimal(s) && is_decimal(g)))
}

/// JSON fields whose values differ from machine to machine: the engine's build (`avx512`
/// here, `avx2` or `portable` on another processor).
const MACHINE_WORDS: [&str; 1] = ["build"];

/// Whether two JSON objects have the same fields and values, but for [`MOVING`]'s numbers
/// and [`MACHINE_WORDS`]' strings.
fn json_matches(shown: &Value, got: &Value) -> bool {
    let (Some(shown), Some(got)) = (shown.as_object(), got.as_object()) else {
        return shown == got;
    };
    shown.keys().eq(got.keys())
        && shown.iter().all(|(key, value)| {
            let other = &got[key];
            (MOVING.contains(&key.as_str()) && value.is_number() && other.is_number())
                || (MACHINE_WORDS.contains(&key.as_str()) && value.is_string() && other.is_string())
                || value == other
        })
}

/// Runs `command` with bash in `dir`, this build's binary first on the PATH; its stdout.
fn run(command: &str, dir: &Path) -> (bool, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_nqueens")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("bash")
        .args(["-o", "pipefail", "-c", command])
        .current_dir(dir)
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("bash runs the console examples");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn line_matching_lets_times_and_memory_move_and_nothing_else() {
    assert!(line_matches(
        " 14   365596   0.032  yes",
        "14 365596 0.101 yes"
    ));
    assert!(!line_matches("14 365596 0.032 yes", "14 365597 0.032 yes"));
    assert!(!line_matches("14 365596 0.032", "14 365596 0.032 yes"));
    let shown = r#"{"n":16,"solutions":14772512,"seconds":0.17,"peak_memory_bytes":4}"#;
    assert!(line_matches(
        shown,
        r#"{"n":16,"solutions":14772512,"seconds":0.2,"peak_memory_bytes":9}"#
    ));
    assert!(!line_matches(
        shown,
        r#"{"n":16,"solutions":14772513,"seconds":0.2,"peak_memory_bytes":9}"#
    ));
    assert!(!line_matches(
        shown,
        r#"{"n":16,"solutions":14772512,"seconds":0.2,"peak_memory_bytes":9,"x":1}"#
    ));
}

/// Every console example of the pages prints what the page shows under it.
#[test]
fn every_console_example_prints_what_the_page_shows() {
    let mut ran = 0;
    let mut wrong = Vec::new();
    for (page, text) in pages() {
        for (line, block) in blocks(&text, "console") {
            let dir = tempfile::tempdir().unwrap();
            for (command, shown) in commands(&block) {
                ran += 1;
                let (ok, out) = run(&command, dir.path());
                let got: Vec<&str> = out.lines().collect();
                let same = got.len() == shown.len()
                    && shown.iter().zip(&got).all(|(s, g)| line_matches(s, g));
                // A failing command may stand for its output (`verify` of invalid placements
                // exits 1); one that shows no output must succeed.
                if !same || (!ok && shown.is_empty()) {
                    wrong.push(format!(
                        "{page}:{line}: $ {command}\nshown:\n{}\nprinted{}:\n{}",
                        shown.join("\n"),
                        if ok { "" } else { " (and failed)" },
                        out
                    ));
                }
            }
        }
    }
    assert!(
        ran >= 10,
        "only {ran} console commands found: the scan is broken"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// The subcommands of this build and the flags of each, read from its `--help`.
fn flags_of_every_subcommand() -> Vec<(String, BTreeSet<String>)> {
    let help = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_nqueens"))
            .args(args)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let top = help(&["--help"]);
    let subcommands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(subcommands.len() >= 8, "{top}");
    subcommands
        .into_iter()
        .map(|sub| {
            let flags = flag_words(&help(&[&sub, "--help"]));
            (sub, flags)
        })
        .collect()
}

/// Every `--flag` word in `text` (a flag name: `--` then a letter, letters, digits and
/// dashes).
fn flag_words(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices("--") {
        if text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '-') {
            continue;
        }
        let name: String = text[at + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if name.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.insert(format!("--{}", name.trim_end_matches('-')));
        }
    }
    out
}

/// `count`'s flags that a build without their feature accepts (to say how to build one) but
/// leaves out of its help.
const HIDDEN_COUNT_FLAGS: [&str; 1] = ["--mpi"];

/// Flags of other programs the pages name in their text: cargo's, MPI's launchers',
/// Slurm's, the browser's.
const OTHER_PROGRAMS_FLAGS: [&str; 19] = [
    "--release",
    "--features",
    "--no-default-features",
    "--all-targets",
    "--lib",
    "--bin",
    "--example",
    "--test",
    "--bench",
    "--check",
    "--no-run",
    "--path",
    "--locked",
    "--oversubscribe",
    "--parsable",
    "--array",
    "--dependency",
    "--ntasks-per-node",
    "--headless",
];

/// Every flag a page names for `nqueens` exists: in a command line after `nqueens SUB`, a
/// flag of SUB; in backquotes in the text, a flag of some subcommand or of another program
/// the pages name. Regression: the pages named flags the binary had lost.
#[test]
fn every_flag_the_pages_name_exists() {
    let subcommands = flags_of_every_subcommand();
    let every: BTreeSet<&str> = subcommands
        .iter()
        .flat_map(|(_, flags)| flags.iter().map(String::as_str))
        .chain(OTHER_PROGRAMS_FLAGS)
        .chain(HIDDEN_COUNT_FLAGS)
        .collect();
    let mut checked = 0;
    let mut missing = Vec::new();
    for (page, text) in pages() {
        for line in text.lines() {
            // A command line: each `nqueens SUB` up to the next pipe, `;` or `&&`.
            for part in line.split(['|', ';', '&', '>', '#']) {
                let words: Vec<&str> = part.split_whitespace().collect();
                let Some(at) = words.iter().position(|w| w.ends_with("nqueens")) else {
                    continue;
                };
                let Some((sub, flags)) = words
                    .get(at + 1)
                    .and_then(|s| subcommands.iter().find(|(name, _)| name == s))
                else {
                    continue;
                };
                for flag in flag_words(&words[at + 2..].join(" ")) {
                    checked += 1;
                    let hidden = sub == "count" && HIDDEN_COUNT_FLAGS.contains(&flag.as_str());
                    if !flags.contains(&flag) && !hidden {
                        missing.push(format!("{page}: `nqueens {sub}` has no {flag}: {line}"));
                    }
                }
            }
            // The text's backquoted flags.
            for quoted in line.split('`').skip(1).step_by(2) {
                for flag in flag_words(quoted) {
                    checked += 1;
                    if !every.contains(flag.as_str()) {
                        missing.push(format!("{page}: no such flag {flag}: {line}"));
                    }
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} flags found: the scan is broken"
    );
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Regression: the README's dependency line said `version = "0.3"` while the crate was
/// 0.9.0. The line names the crate's version (major and minor).
#[test]
fn the_library_s_dependency_line_names_the_crate_s_version() {
    let version = env!("CARGO_PKG_VERSION");
    let minor = version.rsplit_once('.').unwrap().0;
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines: Vec<&str> = readme
        .lines()
        .filter(|l| l.trim_start().starts_with("nqueens-count = "))
        .collect();
    assert!(!lines.is_empty(), "no dependency line in README.md");
    for line in lines {
        assert!(
            line.contains(&format!("version = \"{minor}\"")),
            "{line} (the crate is {version})"
        );
    }
}

/// What the scripts made is where the pages show it, whole: `scripts/frontier.sh`'s tables
/// between `<!-- frontier: FILE -->` and `<!-- end frontier -->`, `scripts/bench-example.sh`'s
/// example (`bench`), `scripts/library-speed.sh`'s tables (`library`) and
/// `scripts/isa-builds.sh`'s (`builds`) alike.
#[test]
fn the_pages_show_what_the_scripts_made_whole() {
    for (kind, least) in [("frontier", 2), ("bench", 1), ("library", 1), ("builds", 1)] {
        let (marker, end) = (format!("<!-- {kind}: "), format!("<!-- end {kind} -->"));
        let mut shown = 0;
        for (page, text) in pages() {
            let mut rest = text.as_str();
            while let Some(at) = rest.find(&marker) {
                let after = &rest[at + marker.len()..];
                let (file, body) = after.split_once(" -->\n").expect("a marker's end");
                let (pasted, next) = body
                    .split_once(&end)
                    .unwrap_or_else(|| panic!("{page}: {file} has no end marker"));
                let made = std::fs::read_to_string(root().join(file))
                    .unwrap_or_else(|e| panic!("{page}: {file}: {e}"));
                assert_eq!(
                    pasted.trim(),
                    made.trim(),
                    "{page}: {file} is not pasted whole"
                );
                shown += 1;
                rest = next;
            }
        }
        assert!(shown >= least, "only {shown} {kind} files shown");
    }
}

/// Regression (issue 72): the README's `nqueens bench` example showed 0.10.0 while the crate
/// was 0.12.0. Every example `scripts/bench-example.sh` made (docs/bench/) is of this version:
/// a release makes them again.
#[test]
fn the_bench_examples_are_of_this_version() {
    let version = env!("CARGO_PKG_VERSION");
    let mut examples = 0;
    for entry in std::fs::read_dir(root().join("docs/bench")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\n$ nqueens bench\n"),
            "{}: not bench-example.sh's",
            path.display()
        );
        assert!(
            text.contains(&format!("\nnqueens {version} bench (")),
            "{}: not of version {version}: run scripts/bench-example.sh again",
            path.display()
        );
        examples += 1;
    }
    assert!(examples >= 1, "no example in docs/bench");
}

/// The pages describe the program as it is: dated measurement history ("a quick day", "the
/// build before") belongs to the CHANGELOG and the commits.
#[test]
fn no_page_holds_dated_history() {
    let phrases = [
        "quick day",
        "slow day",
        "earlier that day",
        "the build before",
        "a session before",
        "a session earlier",
    ];
    for (page, text) in pages() {
        let lower = text.to_lowercase();
        for phrase in phrases {
            assert!(!lower.contains(phrase), "{page} says {phrase:?}");
        }
    }
}
