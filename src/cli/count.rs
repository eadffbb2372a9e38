//! `nqueens count`: runs the counter for each board size and prints the results.

use super::config::{CountConfig, OutputStyle};
use super::exit::ExitCode;
use super::progress::TaskBar;
use anyhow::Result;
use nqueens::{Count, Counter, known};
use serde::Serialize;
use std::io::Write;
use std::time::{Duration, Instant};

/// One board size's result, as printed.
#[derive(Debug, Serialize)]
struct Row {
    n: u32,
    solutions: u128,
    threads: usize,
    seconds: f64,
    tasks: usize,
    split_depth: u32,
    known: Option<u128>,
    #[serde(rename = "match")]
    matches: Option<bool>,
}

impl Row {
    fn new(count: &Count, elapsed: Duration) -> Row {
        let known = known::total(count.n);
        Row {
            n: count.n,
            solutions: count.solutions,
            threads: count.threads,
            seconds: elapsed.as_secs_f64(),
            tasks: count.tasks,
            split_depth: count.split_depth,
            known,
            matches: known.map(|k| k == count.solutions),
        }
    }
}

/// Runs a validated `count` command; returns the exit code.
pub fn run(config: &CountConfig) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if config.style == OutputStyle::Table {
        writeln!(
            out,
            "{:>3}  {:>20}  {:>10}  known",
            "n", "solutions", "seconds"
        )?;
    }
    let mut code = ExitCode::Success;
    for n in config.sizes.clone() {
        let bar = TaskBar::new(config.progress, n);
        let update = |p| bar.update(p);
        let mut counter = Counter::new().on_progress(&update);
        if let Some(threads) = config.threads {
            counter = counter.threads(threads);
        }
        if let Some(depth) = config.split_depth {
            counter = counter.split_depth(depth);
        }
        let started = Instant::now();
        let count = counter.count(n)?;
        let row = Row::new(&count, started.elapsed());
        bar.finish();
        match config.style {
            OutputStyle::Plain => writeln!(out, "{}", row.solutions)?,
            OutputStyle::Json => writeln!(out, "{}", serde_json::to_string(&row)?)?,
            OutputStyle::Table => {
                let verdict = match row.matches {
                    Some(true) => "yes",
                    Some(false) => "MISMATCH",
                    None => "-",
                };
                writeln!(
                    out,
                    "{:>3}  {:>20}  {:>10.3}  {verdict}",
                    row.n, row.solutions, row.seconds
                )?;
            }
        }
        out.flush()?;
        if let (Some(false), Some(known)) = (row.matches, row.known) {
            eprintln!(
                "error: n = {n}: counted {} solutions, but OEIS A000170 gives {known}",
                row.solutions
            );
            code = ExitCode::Failure;
        }
    }
    Ok(code)
}
