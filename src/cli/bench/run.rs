//! `nqueens bench` from its configuration to its exit code: the yardsticks, the rows on each
//! thread count, the score and the warnings, printed as asked. A count that is not the known
//! value ends it with exit 1; a baseline it cannot compare with, before anything runs, with 2.

use super::machine::Machine;
use super::report::{self, FORMAT, Report, Score};
use super::rows::{self, Row};
use super::workload::{ENGINES, Workload, default_threads};
use super::yardstick::{self, Yardsticks};
use crate::cli::config::BenchConfig;
use crate::cli::exit::ExitCode;
use crate::cli::progress::StepBar;
use crate::cli::stderr::say;
use anyhow::Result;
use std::io::Write;

/// Set (to anything), the first count of the first row is one too many: how the tests check
/// that a wrong count ends the benchmark with exit 1 (it changes nothing else).
const FAULT_VARIABLE: &str = "NQUEENS_BENCH_FAULT";

/// Runs a validated `bench` command; returns the exit code.
pub fn run(config: &BenchConfig) -> Result<ExitCode> {
    let workload = Workload::new(config.quick);
    if config.yardsticks {
        return yardsticks_alone(config, &workload);
    }
    let baseline = match config.baseline.as_deref() {
        Some(path) => match report::read_baseline(path, &workload) {
            Ok(baseline) => Some(baseline),
            Err(e) => {
                say!("error: {e}");
                return Ok(ExitCode::Usage);
            }
        },
        None => None,
    };
    let machine = Machine::this();
    let rounds = config.rounds.unwrap_or(if config.quick { 1 } else { 3 });
    let free = super::machine::available_memory();
    let (threads, dropped) = match &config.threads {
        // Asked for: a count whose boards the memory cannot hold is refused.
        Some(threads) => match fits_in_memory(threads, free) {
            Ok(()) => (threads.clone(), None),
            Err(e) => {
                say!("error: {e}");
                return Ok(ExitCode::Usage);
            }
        },
        // Not asked for: the counts that fit are run, and the others said.
        None => {
            let all = default_threads(machine.logical_cpus);
            let (fit, over): (Vec<usize>, Vec<usize>) = all
                .into_iter()
                .partition(|&t| t == 1 || fits_in_memory(&[t], free).is_ok());
            (
                fit,
                over.first()
                    .map(|&t| fits_in_memory(&[t], free).unwrap_err()),
            )
        }
    };
    let bar = StepBar::new(2 + (ENGINES.len() * threads.len() * rounds) as u64);
    let measured = measure(&workload, &threads, rounds, &bar);
    bar.finish();
    let (before, after, mut rows) = match measured {
        Ok(measured) => measured,
        Err(wrong) => {
            say!("error: {wrong}");
            return Ok(ExitCode::Failure);
        }
    };
    rows::derive(&mut rows);
    let report = Report {
        format: FORMAT.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        features: features(),
        score: score(&rows, &workload, &before, &after),
        warnings: warnings(&rows, &before, &after, &threads, &machine)
            .into_iter()
            .chain(dropped.map(|why| format!("left out: {why}")))
            .chain((rounds == 1).then(|| "one round a row: the spread was not measured".into()))
            .collect(),
        machine,
        workload,
        rounds,
        yardsticks_before: before,
        yardsticks_after: after,
        rows,
    };
    let mut out = crate::cli::output::stdout();
    if config.json {
        report::json(&mut out, &report)?;
    } else {
        report::text(&mut out, &report, baseline.as_ref())?;
    }
    out.flush()?;
    Ok(ExitCode::Success)
}

/// `--yardsticks`: the two yardsticks timed once, as a line or a JSON object (`workload`,
/// `yardsticks`).
fn yardsticks_alone(config: &BenchConfig, workload: &Workload) -> Result<ExitCode> {
    let (yardsticks, _) = match yardstick::time(workload.textbook_n, workload.cache_steps, None) {
        Ok(timed) => timed,
        Err(wrong) => {
            say!("error: {wrong}");
            return Ok(ExitCode::Failure);
        }
    };
    let mut out = crate::cli::output::stdout();
    if config.json {
        let object = serde_json::json!({
            "format": report::YARDSTICKS_FORMAT,
            "version": env!("CARGO_PKG_VERSION"),
            "workload": workload,
            "yardsticks": yardsticks,
        });
        writeln!(out, "{object}")?;
    } else {
        writeln!(
            out,
            "textbook counter n = {}: {:.3} s; cache walk: {:.3} ns a step",
            workload.textbook_n, yardsticks.textbook_seconds, yardsticks.cache_ns_per_step
        )?;
    }
    out.flush()?;
    Ok(ExitCode::Success)
}

/// What one board counting at once takes, at most, with either workload's boards: about
/// 25 MB of resident memory measured for the join engine's n = 17 (22 MB at n = 16), with
/// room. (The plan's own model, `Plan::memory_bytes`, counts the engine's data alone, not the
/// thread's pool and the allocator's pages a board's resident memory holds.)
const BOARD_BYTES: u64 = 32 << 20;

/// Refuses thread counts whose boards, one a thread at once, would not fit in the memory
/// free now (`free`): `--threads 1024` on a small machine would be killed for memory, not
/// measured.
fn fits_in_memory(threads: &[usize], free: Option<u64>) -> Result<(), String> {
    let most = threads.iter().copied().max().unwrap_or(1);
    let needed = most as u64 * BOARD_BYTES;
    match free {
        Some(free) if needed > free => Err(format!(
            "{most} threads: {most} boards counted at once take about {} MiB, more than the {} \
             MiB free now; give fewer with --threads",
            needed >> 20,
            free >> 20
        )),
        _ => Ok(()),
    }
}

/// The yardsticks before, the rows, the yardsticks after; or what was counted wrong.
fn measure(
    workload: &Workload,
    threads: &[usize],
    rounds: usize,
    bar: &StepBar,
) -> Result<(Yardsticks, Yardsticks, Vec<Row>), String> {
    bar.step("the yardsticks");
    let (before, sum) = yardstick::time(workload.textbook_n, workload.cache_steps, None)?;
    let mut rows = Vec::new();
    for (name, engine) in ENGINES {
        let n = workload.board(engine);
        for &t in threads {
            let step = |round: usize| {
                let boards = match t {
                    1 => "1 board".to_string(),
                    t => format!("{t} boards at once"),
                };
                bar.step(&format!(
                    "{name}, n = {n}, {boards}, round {} of {rounds}",
                    round + 1
                ));
            };
            let timing = rows::Timing {
                name,
                engine,
                n,
                threads: t,
                rounds,
                fault: std::env::var_os(FAULT_VARIABLE).is_some() && rows.is_empty(),
            };
            rows.push(rows::time(&timing, &step)?);
        }
    }
    bar.step("the yardsticks again");
    let (after, _) = yardstick::time(workload.textbook_n, workload.cache_steps, Some(sum))?;
    Ok((before, after, rows))
}

/// The join engine's row on the most threads, in solutions a second and in textbook counters.
fn score(
    rows: &[Row],
    workload: &Workload,
    before: &Yardsticks,
    after: &Yardsticks,
) -> Option<Score> {
    let row = rows::score_row(rows)?;
    let textbook = nqueens::known::total(workload.textbook_n)? as f64
        / ((before.textbook_seconds + after.textbook_seconds) / 2.0);
    Some(Score {
        threads: row.threads,
        solutions_per_second: row.solutions_per_second,
        textbook_counters: row.solutions_per_second / textbook,
    })
}

/// What makes the figures doubtful: rounds that spread, yardsticks that moved, more threads
/// than the machine has.
fn warnings(
    rows: &[Row],
    before: &Yardsticks,
    after: &Yardsticks,
    threads: &[usize],
    machine: &Machine,
) -> Vec<String> {
    let mut warnings = Vec::new();
    let noisy: Vec<String> = rows
        .iter()
        .filter(|row| rows::noisy(row))
        .map(|row| format!("{} on {}", row.engine, row.threads))
        .collect();
    if !noisy.is_empty() {
        warnings.push(format!(
            "the rounds of {} spread by more than 10 % of their median: the machine was busy \
             (or changed its clock); the figures are noisy",
            noisy.join(", ")
        ));
    }
    let moved = |a: f64, b: f64| (a - b).abs() > 0.05 * a.min(b);
    if moved(before.textbook_seconds, after.textbook_seconds)
        || moved(before.cache_ns_per_step, after.cache_ns_per_step)
    {
        warnings.push(
            "the yardsticks moved by more than 5 % between the start and the end: the machine's \
             pace changed during the run"
                .into(),
        );
    }
    if threads.iter().any(|&t| t > machine.logical_cpus) {
        warnings.push(format!(
            "more threads than the {} logical CPUs this process may use: those rows share cores",
            machine.logical_cpus
        ));
    }
    warnings
}

/// The build's features.
fn features() -> Vec<String> {
    let all = [
        ("cli", cfg!(feature = "cli")),
        ("mimalloc", cfg!(feature = "mimalloc")),
        ("gpu", cfg!(feature = "gpu")),
        ("mpi", cfg!(feature = "mpi")),
    ];
    all.iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| name.to_string())
        .collect()
}
