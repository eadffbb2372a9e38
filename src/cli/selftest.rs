//! `nqueens selftest`: qualifies a machine and a build before a long run. The quick check
//! (a minute or less) counts with every engine against the known counts and compares the
//! join's tasks one by one with its second way and with the search kept to their rows'
//! columns (code the join does not share); the GPU's count where there is one. With `--for`,
//! a stress test: rounds of counts with known answers on every core, a timestamped line a
//! round, stopping at the first wrong count (exit 1), as a record run cannot afford to meet
//! a bad node late.
//!
//! `NQUEENS_SELFTEST_FAULT=R` makes round R's first count one too many: how the tests check
//! that a wrong count stops the stress test (it changes nothing else).

use super::config::SelftestConfig;
use super::exit::ExitCode;
use anyhow::Result;
use nqueens::{Counter, Engine, Symmetry, known};
use std::io::Write;
use std::time::{Duration, Instant};

/// One check's outcome: what was checked, and what was wrong, if anything.
type Outcome = (String, Option<String>);

/// Runs a validated `selftest` command; returns the exit code.
pub fn run(config: &SelftestConfig) -> Result<ExitCode> {
    let threads = config.threads.unwrap_or_else(nqueens::default_threads);
    match config.duration {
        None => quick(threads),
        Some(duration) => stress(threads, duration),
    }
}

/// The quick check: a line a check, exit 1 if any failed.
fn quick(threads: usize) -> Result<ExitCode> {
    let mut out = super::output::stdout();
    let mut failed = false;
    let checks: [&dyn Fn(usize) -> Result<Outcome>; 5] = [
        &search_counts,
        &join_counts,
        &unique_counts,
        &join_tasks_three_ways,
        &gpu_count,
    ];
    for check in checks {
        let started = Instant::now();
        let (what, wrong) = check(threads)?;
        let took = started.elapsed().as_secs_f64();
        match wrong {
            None => writeln!(out, "OK     {what} ({took:.1} s)")?,
            Some(wrong) => {
                failed = true;
                writeln!(out, "ERROR  {what}: {wrong}")?;
            }
        }
        out.flush()?;
    }
    let verdict = if failed {
        "this machine or build counts WRONG: do not run on it"
    } else {
        "every check passed"
    };
    writeln!(out, "{verdict}")?;
    out.flush()?;
    Ok(if failed {
        ExitCode::Failure
    } else {
        ExitCode::Success
    })
}

/// Counts `n` with `engine` on `threads` threads, against the known count: what is wrong, if
/// anything; `fault` adds one (the injected fault of the stress test, and of `bench`).
pub fn count_against_known(
    engine: Engine,
    n: u32,
    threads: usize,
    fault: bool,
) -> Result<Option<String>> {
    let count = Counter::new().engine(engine).threads(threads).count(n)?;
    let counted = count.solutions + u128::from(fault);
    let known = known::total(n).expect("known to n = 27");
    Ok((counted != known)
        .then(|| format!("n = {n}: counted {counted}, the known count is {known}")))
}

/// The first of `checks` that is wrong, if any.
fn first_wrong(checks: impl IntoIterator<Item = Result<Option<String>>>) -> Result<Option<String>> {
    for check in checks {
        if let Some(wrong) = check? {
            return Ok(Some(wrong));
        }
    }
    Ok(None)
}

fn search_counts(threads: usize) -> Result<Outcome> {
    let engines = [Symmetry::Full, Symmetry::Mirror].map(Engine::Search);
    let wrong = first_wrong(
        engines
            .iter()
            .flat_map(|&e| (1..=13).map(move |n| count_against_known(e, n, threads, false))),
    )?;
    Ok((
        "the search, both symmetries, n = 1 to 13, against the known counts".into(),
        wrong,
    ))
}

fn join_counts(threads: usize) -> Result<Outcome> {
    let wrong =
        first_wrong((4..=16).map(|n| count_against_known(Engine::Join, n, threads, false)))?;
    Ok((
        "the join engine, n = 4 to 16, against the known counts".into(),
        wrong,
    ))
}

fn unique_counts(threads: usize) -> Result<Outcome> {
    let mut wrong = None;
    for n in 8..=12 {
        let count = Counter::new().threads(threads).unique(true).count(n)?;
        let unique = count.classes.map(|c| c.unique());
        if unique != known::unique(n) {
            wrong = Some(format!(
                "n = {n}: {unique:?} unique, the known count is {:?}",
                known::unique(n)
            ));
            break;
        }
    }
    Ok(("unique solutions (Burnside), n = 8 to 12".into(), wrong))
}

/// Every join task of n = 12, 13 and 15 three ways: the engine's, its second way (other
/// buckets, groups, pieces) and the search kept to the rows' columns.
fn join_tasks_three_ways(threads: usize) -> Result<Outcome> {
    let mut wrong = None;
    'sizes: for n in [12, 13, 15] {
        let job = Counter::new()
            .engine(Engine::Join)
            .threads(threads)
            .prepare(n)?;
        let ids: Vec<usize> = (0..job.plan.len()).collect();
        let first = Counter::new()
            .threads(threads)
            .run(&job, &ids, &|_, _| {})?;
        for (&id, &value) in ids.iter().zip(&first) {
            let second = job.plan.run_second_way(id)?;
            let search = job.plan.run_restricted(id)?;
            if second != Some(value) || search != Some(value) {
                wrong = Some(format!(
                    "n = {n}, task {id}: {value} the engine's way, {second:?} the second, \
                     {search:?} the search's"
                ));
                break 'sizes;
            }
        }
    }
    Ok((
        "the join's tasks of n = 12, 13 and 15, each three ways".into(),
        wrong,
    ))
}

#[cfg(feature = "gpu")]
fn gpu_count(threads: usize) -> Result<Outcome> {
    if nqueens::gpu::adapters().is_empty() {
        return Ok(("the GPU: none found, not checked".into(), None));
    }
    let wrong =
        first_wrong([14, 16].map(|n| count_against_known(Engine::Gpu(None), n, threads, false)))?;
    Ok((
        "the GPU, n = 14 and 16, against the known counts".into(),
        wrong,
    ))
}

#[cfg(not(feature = "gpu"))]
fn gpu_count(_: usize) -> Result<Outcome> {
    Ok((
        "the GPU: this build has none (`--features gpu`), not checked".into(),
        None,
    ))
}

/// The stress test: rounds until `duration` has passed, each counting sizes with known
/// answers on every core and a sample of n = 18's join tasks both ways; a line a round.
fn stress(threads: usize, duration: Duration) -> Result<ExitCode> {
    let mut out = super::output::stdout();
    let fault: Option<u64> = std::env::var("NQUEENS_SELFTEST_FAULT")
        .ok()
        .and_then(|v| v.parse().ok());
    let job = Counter::new()
        .engine(Engine::Join)
        .threads(threads)
        .prepare(18)?;
    let started = Instant::now();
    let mut round = 0u64;
    while round == 0 || started.elapsed() < duration {
        round += 1;
        let at = Instant::now();
        let wrong = first_wrong([
            count_against_known(Engine::Join, 17, threads, fault == Some(round)),
            count_against_known(Engine::Search(Symmetry::Full), 14, threads, false),
            tasks_both_ways(&job, threads, round),
        ])?;
        let stamp = utc_now();
        match wrong {
            None => writeln!(
                out,
                "{stamp} round {round}: OK (n = 17 join, n = 14 search, 64 tasks of n = 18 \
                 both ways) in {:.1} s",
                at.elapsed().as_secs_f64()
            )?,
            Some(wrong) => {
                writeln!(out, "{stamp} round {round}: ERROR {wrong}")?;
                out.flush()?;
                return Ok(ExitCode::Failure);
            }
        }
        out.flush()?;
    }
    Ok(ExitCode::Success)
}

/// 64 of `job`'s tasks, drawn by `round`, counted both ways: the first that differs.
fn tasks_both_ways(job: &nqueens::Job, threads: usize, round: u64) -> Result<Option<String>> {
    let all: Vec<usize> = (0..job.plan.len()).collect();
    let ids = nqueens::recount::audit_sample(&all, 64, round);
    let counter = Counter::new().threads(threads);
    let first = counter.run(job, &ids, &|_, _| {})?;
    let second = counter.recount(job, &ids)?;
    Ok(ids
        .iter()
        .zip(first.iter().zip(&second))
        .find(|(_, (a, b))| a != b)
        .map(|(id, (a, b))| format!("n = 18, task {id}: {a} one way, {b} the other")))
}

/// The time now in UTC, as `2026-12-04T19:40:05Z`.
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86400, secs % 86400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}
