//! What the command line prints beside its results, each test named after the defect it pins:
//! progress in a log file, the interrupt message, shell completions, the manual page and the
//! help's examples.

mod cli_support;

use cli_support::{Watched, nqueens, stdout, text};
use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;

#[test]
fn progress_always_without_a_terminal_writes_plain_lines() {
    let out = nqueens()
        .args([
            "count",
            "15",
            "-j",
            "1",
            "--engine",
            "dfs",
            "--progress",
            "always",
        ])
        .env("NQUEENS_PROGRESS_INTERVAL_MS", "5")
        .assert()
        .success()
        .stdout("2279184\n");
    let log = text(&out.get_output().stderr);
    assert!(!log.contains('\x1b'), "cursor codes in a log: {log:?}");
    let lines: Vec<&str> = log.lines().collect();
    // Lines at the interval while it runs (one at least: the count takes far longer than
    // 5 ms), then the last one.
    assert!(lines.len() >= 2, "{log}");
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("n = 15: 100% (") && last.contains(" tasks), elapsed "),
        "{last}"
    );
    let (done, total) = last
        .split_once('(')
        .unwrap()
        .1
        .split_once(" tasks")
        .unwrap()
        .0
        .split_once('/')
        .unwrap();
    assert_eq!(done, total);
    for line in &lines[..lines.len() - 1] {
        assert!(line.starts_with("n = 15: "), "{line}");
        assert!(line.contains("elapsed "), "{line}");
    }
    // Without `always`, and without a terminal, nothing.
    nqueens()
        .args(["count", "15", "-j", "1", "--engine", "dfs"])
        .env("NQUEENS_PROGRESS_INTERVAL_MS", "5")
        .assert()
        .success()
        .stderr("");
}

#[test]
fn interrupt_message_has_no_leading_empty_line() {
    let mut child = Watched::spawn(
        std::process::Command::new(cli_support::bin())
            .args(["count", "20", "-j", "1", "--progress", "always"])
            .env("NQUEENS_PROGRESS_INTERVAL_MS", "5")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    // The first progress line comes after the handler is installed: the signal is caught.
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    assert!(first.starts_with("n = 20: "), "{first}");
    let killed = cli_support::status(
        std::process::Command::new("kill").args(["-INT", &child.id().to_string()]),
    );
    assert!(killed.success());
    let status = child.wait();
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(
        !rest.contains("\n\n") && !rest.starts_with('\n'),
        "{rest:?}"
    );
    assert_eq!(rest.lines().last(), Some("interrupted"), "{rest:?}");
}

#[test]
fn completions_are_printed_for_every_shell() {
    let bash = text(&stdout(&["completions", "bash"]));
    assert!(bash.contains("complete -F _nqueens"), "{bash}");
    for word in ["count", "solve", "find", "verify", "merge", "--checkpoint"] {
        assert!(bash.contains(word), "{word} missing from the bash script");
    }
    for (shell, mark) in [
        ("zsh", "#compdef nqueens"),
        ("fish", "complete -c nqueens"),
        ("elvish", "edit:completion:arg-completer[nqueens]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let script = text(&stdout(&["completions", shell]));
        assert!(script.contains(mark), "{shell}: {script}");
        assert!(script.contains("verify"), "{shell}");
    }
    let out = nqueens().args(["completions", "tcsh"]).assert().code(2);
    assert!(text(&out.get_output().stderr).contains("possible values"));
}

#[test]
fn man_page_is_roff_and_names_every_subcommand() {
    let page = text(&stdout(&["man"]));
    assert!(page.starts_with(".TH nqueens 1 "), "{page}");
    assert_eq!(page.matches(".ds Aq").count(), 2, "{page}");
    for sub in [
        "count",
        "solve",
        "find",
        "verify",
        "merge",
        "completions",
        "man",
    ] {
        assert!(
            page.contains(&format!(".SH \"NQUEENS {}\"", sub.to_uppercase())),
            "no section for {sub}"
        );
    }
    // Regression: the page named pages of their own for the subcommands (`nqueens-count(1)`),
    // which are not installed; it names their sections of this page.
    assert!(!page.contains("(1)"), "{page}");
    assert!(
        page.contains("\\fBnqueens count\\fR (its section below)"),
        "{page}"
    );
    // Every option of every subcommand is there, --checkpoint among them.
    assert!(page.contains("\\-\\-checkpoint"), "{page}");
    assert!(page.contains(".SS EXAMPLES"), "{page}");
}

#[test]
fn help_shows_examples_for_count_solve_and_verify() {
    for sub in ["count", "solve", "verify"] {
        let help = text(&stdout(&[sub, "--help"]));
        let examples = help.split_once("Examples:\n").map(|(_, e)| e);
        let examples = examples.unwrap_or_else(|| panic!("{sub}: {help}"));
        assert!(
            examples
                .lines()
                .take_while(|l| !l.is_empty())
                .all(|l| l.trim_start().starts_with("nqueens ") || l.contains("| nqueens")),
            "{sub}: {examples}"
        );
    }
}
