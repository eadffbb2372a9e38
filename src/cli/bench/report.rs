//! What `nqueens bench` prints: the machine, the yardsticks, the rows and the score, as lines
//! or as one JSON object (`--json`), each row beside a saved result's (`--baseline FILE`)
//! with the ratio; and a saved result read back, refused when it is not one of this
//! benchmark's format and workload.

use super::machine::Machine;
use super::rows::Row;
use super::workload::{ENGINES, Workload};
use super::yardstick::Yardsticks;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// What the JSON's `format` says: a result of another format is not compared.
pub const FORMAT: &str = "nqueens-bench 1";

/// What `bench --yardsticks --json` says it is: yardsticks alone, no rows to compare.
pub const YARDSTICKS_FORMAT: &str = "nqueens-bench-yardsticks 1";

/// A benchmark's result, as `--json` prints it and `--baseline` reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`FORMAT`].
    pub format: String,
    /// The program's version.
    pub version: String,
    /// The build's features.
    pub features: Vec<String>,
    /// The machine.
    pub machine: Machine,
    /// What ran.
    pub workload: Workload,
    /// Rounds a row.
    pub rounds: usize,
    /// The yardsticks before the rows.
    pub yardsticks_before: Yardsticks,
    /// And after them.
    pub yardsticks_after: Yardsticks,
    /// The rows, the join engine's then the search's, by threads.
    pub rows: Vec<Row>,
    /// The figure to quote.
    pub score: Option<Score>,
    /// What makes the figures doubtful (a busy machine).
    pub warnings: Vec<String>,
}

/// The figure to quote: the join engine's solutions a second on the most threads timed, and
/// the same in textbook counters (how many one-thread textbook counters would count as fast),
/// which holds between days better than the first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// The threads of the row it is taken from.
    pub threads: usize,
    /// Solutions counted a second.
    pub solutions_per_second: f64,
    /// That over the textbook counter's solutions a second on one thread (the mean of its two
    /// timings).
    pub textbook_counters: f64,
}

/// Reads a saved `--json` result to compare with one of `workload`: refused, in one line, when
/// it cannot be read, is not a result of this benchmark, or is of another format or workload.
pub fn read_baseline(path: &Path, workload: &Workload) -> Result<Report, String> {
    let text = crate::cli::document::read(
        path,
        "a saved benchmark result",
        crate::cli::document::MAX_BASELINE_BYTES,
    )
    .map_err(|e| format!("--baseline {e}"))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|_| {
        format!(
            "--baseline {}: not a result of `nqueens bench --json` (not JSON)",
            path.display()
        )
    })?;
    match value.get("format").and_then(|f| f.as_str()) {
        Some(FORMAT) => {}
        Some(YARDSTICKS_FORMAT) => {
            return Err(format!(
                "--baseline {}: the yardsticks alone (`bench --yardsticks`), with no rows to \
                 compare; save a `bench --json` result",
                path.display()
            ));
        }
        Some(other) => {
            return Err(format!(
                "--baseline {}: a result of another version of the benchmark's JSON ({other}; \
                 this one reads {FORMAT})",
                path.display()
            ));
        }
        None => {
            return Err(format!(
                "--baseline {}: not a result of `nqueens bench --json`",
                path.display()
            ));
        }
    }
    let report: Report = serde_json::from_value(value)
        .map_err(|e| format!("--baseline {}: a damaged result ({e})", path.display()))?;
    if !figures_are_sound(&report) {
        return Err(format!(
            "--baseline {}: a damaged result (a time or a rate that is not a number above 0)",
            path.display()
        ));
    }
    if report.workload != *workload {
        return Err(format!(
            "--baseline {}: a result of another workload ({}); run it again with the same \
             (with or without --quick)",
            path.display(),
            if report.workload.quick {
                "--quick"
            } else {
                "the full one"
            }
        ));
    }
    if let Err(why) = same_workload_rows(&report, workload) {
        return Err(format!(
            "--baseline {}: not a result of this benchmark's workload: {why}",
            path.display()
        ));
    }
    Ok(report)
}

/// Checks a result's rows and score as a run of `workload` makes them: at least one row; each
/// of an engine the benchmark times, on its board, on 1 to `MAX_THREADS` threads, once; rounds
/// from 1 to 100; a least time at most the median and the median at most the most; a score
/// that is the join engine's row on the most threads. A result edited into another workload
/// would be compared as if it were one of this.
fn same_workload_rows(report: &Report, workload: &Workload) -> Result<(), String> {
    if report.rows.is_empty() {
        return Err("it has no rows".into());
    }
    if !(1..=100).contains(&report.rounds) {
        return Err(format!(
            "{} rounds, where a run has 1 to 100",
            report.rounds
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for row in &report.rows {
        let Some(&(_, engine)) = ENGINES.iter().find(|(name, _)| *name == row.engine) else {
            return Err(format!("a row of an unknown engine {:?}", row.engine));
        };
        if row.n != workload.board(engine) {
            return Err(format!(
                "a {} row of n = {}, where the workload counts n = {}",
                row.engine,
                row.n,
                workload.board(engine)
            ));
        }
        if !(1..=nqueens::MAX_THREADS).contains(&row.threads) {
            return Err(format!(
                "a {} row on {} threads, where a run has 1 to {}",
                row.engine,
                row.threads,
                nqueens::MAX_THREADS
            ));
        }
        if !seen.insert((row.engine.as_str(), row.threads)) {
            return Err(format!(
                "the {} row on {} given twice",
                row.engine,
                nqueens::parse::plural(row.threads as u128, "thread")
            ));
        }
        if !(row.min_seconds <= row.median_seconds && row.median_seconds <= row.max_seconds) {
            return Err(format!(
                "the {} row on {}: a least time above its median or most",
                row.engine,
                nqueens::parse::plural(row.threads as u128, "thread")
            ));
        }
    }
    match (&report.score, super::rows::score_row(&report.rows)) {
        (None, None) => Ok(()),
        (Some(score), Some(row))
            if score.threads == row.threads
                // Within a rounding of the JSON's decimals.
                && (score.solutions_per_second - row.solutions_per_second).abs()
                    <= 1e-9 * row.solutions_per_second =>
        {
            Ok(())
        }
        (Some(score), _) => Err(format!(
            "a score on {} that is not its join row on the most threads",
            nqueens::parse::plural(score.threads as u128, "thread")
        )),
        (None, Some(_)) => Err("join rows and no score".into()),
    }
}

/// Whether every time and rate a result holds is a finite number above 0, as a run writes
/// them: a ratio to anything else would print `inf` or `NaN`.
fn figures_are_sound(report: &Report) -> bool {
    let sound = |x: f64| x.is_finite() && x > 0.0;
    let yardsticks = [&report.yardsticks_before, &report.yardsticks_after]
        .iter()
        .all(|y| sound(y.textbook_seconds) && sound(y.cache_ns_per_step));
    let rows = report.rows.iter().all(|row| {
        [
            row.median_seconds,
            row.min_seconds,
            row.max_seconds,
            row.solutions_per_second,
        ]
        .into_iter()
        .all(sound)
    });
    let score = report
        .score
        .as_ref()
        .is_none_or(|s| sound(s.solutions_per_second));
    yardsticks && rows && score
}

/// Prints `report` as one JSON object.
pub fn json(out: &mut impl Write, report: &Report) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, report)?;
    writeln!(out)
}

/// Prints `report` as lines: the machine, the yardsticks, a table of the rows (beside the
/// baseline's, with their ratio, when there is one), the score and the warnings.
pub fn text(
    out: &mut impl Write,
    report: &Report,
    baseline: Option<&Report>,
) -> std::io::Result<()> {
    let m = &report.machine;
    writeln!(
        out,
        "nqueens {} bench ({})",
        report.version,
        report.features.join(", ")
    )?;
    writeln!(
        out,
        "machine: {}; {} logical CPUs for this process, {} physical cores in all; {} of memory",
        m.model.as_deref().unwrap_or("processor unknown"),
        m.logical_cpus,
        m.physical_cores.map_or("?".into(), |c| c.to_string()),
        m.memory_bytes.map_or("?".into(), |b| format!(
            "{:.1} GiB",
            b as f64 / f64::from(1 << 30)
        ))
    )?;
    writeln!(
        out,
        "instruction sets: join {}, search {}",
        m.join_build, m.search_build
    )?;
    let (before, after) = (&report.yardsticks_before, &report.yardsticks_after);
    writeln!(
        out,
        "yardsticks, one thread: textbook counter (n = {}) {:.3} s before, {:.3} s after; \
         cache walk {:.3} ns a step before, {:.3} after",
        report.workload.textbook_n,
        before.textbook_seconds,
        after.textbook_seconds,
        before.cache_ns_per_step,
        after.cache_ns_per_step
    )?;
    table(out, report, baseline)?;
    if let Some(score) = &report.score {
        // Scores compare only on as many threads: a ratio of 2 threads to 64 says nothing.
        let against = match baseline.and_then(|b| b.score.as_ref()) {
            Some(b) if b.threads == score.threads => format!(
                " (baseline {:.3e}: {:.2}x)",
                b.solutions_per_second,
                score.solutions_per_second / b.solutions_per_second
            ),
            Some(b) => format!(
                " (baseline on {}: not compared)",
                nqueens::parse::plural(b.threads as u128, "thread")
            ),
            None => String::new(),
        };
        writeln!(
            out,
            "score: {:.3e} solutions a second on {} (join, n = {} a thread){against}, \
             {:.1}x one textbook counter",
            score.solutions_per_second,
            nqueens::parse::plural(score.threads as u128, "thread"),
            report.workload.join_n,
            score.textbook_counters
        )?;
    }
    for warning in &report.warnings {
        writeln!(out, "warning: {warning}")?;
    }
    Ok(())
}

/// The rows as a Markdown table.
fn table(out: &mut impl Write, report: &Report, baseline: Option<&Report>) -> std::io::Result<()> {
    let extra = if baseline.is_some() {
        " baseline s | baseline/this |"
    } else {
        ""
    };
    writeln!(
        out,
        "\n| engine | n | threads | median s | min s | max s | solutions/s | core-ns/solution | \
         speed-up | efficiency |{extra}"
    )?;
    let rule = if baseline.is_some() { "---:|---:|" } else { "" };
    writeln!(
        out,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|{rule}"
    )?;
    let or_dash = |x: Option<f64>, digits: usize| x.map_or("-".into(), |x| format!("{x:.digits$}"));
    for row in &report.rows {
        write!(
            out,
            "| {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3e} | {:.2} | {} | {} |",
            row.engine,
            row.n,
            row.threads,
            row.median_seconds,
            row.min_seconds,
            row.max_seconds,
            row.solutions_per_second,
            row.core_ns_per_solution,
            or_dash(row.speedup, 2),
            or_dash(row.efficiency, 2)
        )?;
        if let Some(baseline) = baseline {
            let theirs = baseline
                .rows
                .iter()
                .find(|b| b.engine == row.engine && b.threads == row.threads);
            match theirs {
                Some(b) => write!(
                    out,
                    " {:.3} | {:.2}x |",
                    b.median_seconds,
                    b.median_seconds / row.median_seconds
                )?,
                None => write!(out, " - | - |")?,
            }
        }
        writeln!(out)?;
    }
    writeln!(out)
}
