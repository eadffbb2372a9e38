//! The benchmark's timed rows: an engine on T threads, T counts of the same board at once, one
//! a thread, each checked against the known value, timed over rounds; and the figures each
//! row derives, from its own medians and the one-thread row's alone.

use crate::cli::selftest::count_against_known;
use nqueens::parse::plural;
use nqueens::{Engine, known};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// One engine on one thread count: its timings and what follows from them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// `join` or `search`.
    pub engine: String,
    /// The board each thread counts.
    pub n: u32,
    /// The threads, and the boards counted at once.
    pub threads: usize,
    /// The median, least and most seconds of a round (all `threads` boards).
    pub median_seconds: f64,
    /// The least.
    pub min_seconds: f64,
    /// The most.
    pub max_seconds: f64,
    /// Solutions counted a second: `threads` boards' solutions over the median.
    pub solutions_per_second: f64,
    /// Core-nanoseconds a solution: the median times the threads, over the solutions.
    pub core_ns_per_solution: f64,
    /// `threads` boards against one: `threads` x the one-thread median over this median
    /// (`None` in a table without a one-thread row).
    pub speedup: Option<f64>,
    /// The speed-up over the threads.
    pub efficiency: Option<f64>,
}

/// The row the score is taken from: the join engine's on the most threads (what a run's
/// score is made of, and what a saved result's score is checked against).
pub fn score_row(rows: &[Row]) -> Option<&Row> {
    rows.iter()
        .filter(|r| r.engine == "join")
        .max_by_key(|r| r.threads)
}

/// How a row is timed: its engine, board, threads (boards at once) and rounds.
pub struct Timing<'a> {
    /// `join` or `search`, as the rows name it.
    pub name: &'a str,
    /// The engine that counts.
    pub engine: Engine,
    /// The board.
    pub n: u32,
    /// The threads.
    pub threads: usize,
    /// The rounds.
    pub rounds: usize,
    /// One counted too many on the first board of the first round: how the tests check that a
    /// wrong count ends the benchmark (`NQUEENS_BENCH_FAULT`).
    pub fault: bool,
}

/// Times a row ([`Timing`]), calling `step` before each round; an error naming the board for a
/// count that is not the known value. The figures that need the one-thread median are left
/// for [`derive`].
pub fn time(timing: &Timing, step: &dyn Fn(usize)) -> Result<Row, String> {
    let &Timing {
        name,
        engine,
        n,
        threads,
        rounds,
        fault,
    } = timing;
    let known = known::total(n).ok_or_else(|| format!("no known count of n = {n}"))?;
    let mut seconds = Vec::with_capacity(rounds);
    for round in 0..rounds {
        step(round);
        let started = Instant::now();
        // Each board on a thread of its own, checked against the known count as `selftest`
        // checks its counts; a thread the system will not start is an error, not a panic.
        let wrong: Result<Vec<Option<String>>, String> = std::thread::scope(|scope| {
            let boards = (0..threads)
                .map(|board| {
                    let fault = fault && round == 0 && board == 0;
                    std::thread::Builder::new().spawn_scoped(scope, move || {
                        count_against_known(engine, n, 1, fault).map_err(|e| e.to_string())
                    })
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("cannot start {}: {e}", plural(threads as u128, "thread")))?;
            boards
                .into_iter()
                .map(|board| {
                    board
                        .join()
                        .unwrap_or_else(|_| Err("a count panicked".into()))
                })
                .collect()
        });
        seconds.push(started.elapsed().as_secs_f64());
        if let Some(wrong) = wrong?.into_iter().flatten().next() {
            return Err(format!(
                "the {name} engine on {}: {wrong}: this machine or build counts wrong",
                plural(threads as u128, "thread")
            ));
        }
    }
    seconds.sort_by(f64::total_cmp);
    let median = median(&seconds);
    let solutions = (threads as u128 * known) as f64;
    Ok(Row {
        engine: name.to_string(),
        n,
        threads,
        median_seconds: median,
        min_seconds: seconds[0],
        max_seconds: seconds[seconds.len() - 1],
        solutions_per_second: solutions / median,
        core_ns_per_solution: median * threads as f64 * 1e9 / solutions,
        speedup: None,
        efficiency: None,
    })
}

/// The median of sorted `values` (the mean of the middle two of an even number).
pub fn median(values: &[f64]) -> f64 {
    let middle = values.len() / 2;
    if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    }
}

/// Each row's speed-up and efficiency, from its own median and its engine's one-thread row's:
/// T boards at once against one, `T x median(1) / median(T)`, and that over T. A table with
/// no one-thread row leaves them unknown.
pub fn derive(rows: &mut [Row]) {
    let one: Vec<(String, f64)> = rows
        .iter()
        .filter(|r| r.threads == 1)
        .map(|r| (r.engine.clone(), r.median_seconds))
        .collect();
    for row in rows {
        let Some(&(_, single)) = one.iter().find(|(engine, _)| *engine == row.engine) else {
            continue;
        };
        let speedup = row.threads as f64 * single / row.median_seconds;
        row.speedup = Some(speedup);
        row.efficiency = Some(speedup / row.threads as f64);
    }
}

/// Whether a row's rounds spread by more than a tenth of its median: the machine was busy.
pub fn noisy(row: &Row) -> bool {
    (row.max_seconds - row.min_seconds) > 0.1 * row.median_seconds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_s_figures_follow_from_its_medians() {
        let timing = |threads, rounds| Timing {
            name: "join",
            engine: Engine::Join,
            n: 10,
            threads,
            rounds,
            fault: false,
        };
        let one = time(&timing(1, 3), &|_| {}).unwrap();
        let two = time(&timing(2, 1), &|_| {}).unwrap();
        let wrong = Timing {
            fault: true,
            ..timing(1, 1)
        };
        assert!(time(&wrong, &|_| {}).unwrap_err().contains("counts wrong"));
        let mut rows = vec![one, two];
        derive(&mut rows);
        let (one, two) = (&rows[0], &rows[1]);
        assert_eq!(one.speedup, Some(1.0));
        let speedup = 2.0 * one.median_seconds / two.median_seconds;
        assert_eq!(two.speedup, Some(speedup));
        assert_eq!(two.efficiency, Some(speedup / 2.0));
        assert!(one.min_seconds <= one.median_seconds && one.median_seconds <= one.max_seconds);
        assert_eq!(median(&[1.0, 2.0, 4.0, 8.0]), 3.0);
    }
}
