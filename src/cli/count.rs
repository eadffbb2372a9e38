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
    #[serde(skip_serializing_if = "Option::is_none")]
    unique: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    classes: Option<ClassSizes>,
    symmetry: &'static str,
    threads: usize,
    seconds: f64,
    tasks: usize,
    split_depth: u32,
    known: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    known_unique: Option<u128>,
    #[serde(rename = "match")]
    matches: Option<bool>,
}

/// The solutions by the size of their class: how many classes of 2, 4 and 8 boards.
#[derive(Debug, Serialize)]
struct ClassSizes {
    #[serde(rename = "1")]
    of_1: u128,
    #[serde(rename = "2")]
    of_2: u128,
    #[serde(rename = "4")]
    of_4: u128,
    #[serde(rename = "8")]
    of_8: u128,
}

impl Row {
    fn new(count: &Count, elapsed: Duration) -> Row {
        let known = known::total(count.n);
        let unique = count.classes.map(|c| c.unique());
        let known_unique = unique.and(known::unique(count.n));
        let matches = match (known, known_unique) {
            (None, _) => None,
            (Some(k), None) => Some(k == count.solutions),
            (Some(k), Some(u)) => Some(k == count.solutions && Some(u) == unique),
        };
        Row {
            n: count.n,
            solutions: count.solutions,
            unique,
            classes: count.classes.map(|c| ClassSizes {
                of_1: c.of_1,
                of_2: c.of_2,
                of_4: c.of_4,
                of_8: c.of_8,
            }),
            symmetry: count.symmetry.name(),
            threads: count.threads,
            seconds: elapsed.as_secs_f64(),
            tasks: count.tasks,
            split_depth: count.split_depth,
            known,
            known_unique,
            matches,
        }
    }
}

/// Runs a validated `count` command; returns the exit code.
pub fn run(config: &CountConfig) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if config.style == OutputStyle::Table {
        let unique = if config.unique {
            format!("  {:>19}", "unique")
        } else {
            String::new()
        };
        writeln!(
            out,
            "{:>3}  {:>20}{unique}  {:>10}  known",
            "n", "solutions", "seconds"
        )?;
    }
    let mut code = ExitCode::Success;
    for n in config.sizes.clone() {
        let bar = TaskBar::new(config.progress, n);
        let update = |p| bar.update(p);
        let mut counter = Counter::new()
            .symmetry(config.symmetry)
            .unique(config.unique)
            .on_progress(&update);
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
            OutputStyle::Plain => match row.unique {
                Some(unique) => writeln!(out, "{} {unique}", row.solutions)?,
                None => writeln!(out, "{}", row.solutions)?,
            },
            OutputStyle::Json => writeln!(out, "{}", serde_json::to_string(&row)?)?,
            OutputStyle::Table => {
                let verdict = match row.matches {
                    Some(true) => "yes",
                    Some(false) => "MISMATCH",
                    None => "-",
                };
                let unique = row.unique.map(|u| format!("  {u:>19}")).unwrap_or_default();
                writeln!(
                    out,
                    "{:>3}  {:>20}{unique}  {:>10.3}  {verdict}",
                    row.n, row.solutions, row.seconds
                )?;
            }
        }
        out.flush()?;
        if row.matches == Some(false) {
            eprintln!(
                "error: n = {n}: counted {} solutions ({} unique), but OEIS A000170 and A002562 give {} ({})",
                row.solutions,
                show(row.unique),
                show(row.known),
                show(row.known_unique),
            );
            code = ExitCode::Failure;
        }
    }
    Ok(code)
}

fn show(value: Option<u128>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}
