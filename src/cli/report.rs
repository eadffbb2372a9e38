//! The result rows of `count` and `merge`: one board size's result printed as the count alone,
//! as a row of a table, or as a JSON object. One reporter serves both commands, so that they
//! name engines and fields alike.

use super::config::OutputStyle;
use nqueens::parse::plural;
use nqueens::{Count, Engine, known};
use serde::Serialize;
use std::io::{self, Write};
use std::time::Duration;

/// One board size's result, as printed.
#[derive(Debug, Serialize)]
pub struct Row {
    n: u32,
    solutions: u128,
    #[serde(skip_serializing_if = "Option::is_none")]
    unique: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    classes: Option<ClassSizes>,
    engine: &'static str,
    /// The search's symmetry; absent for the join engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    symmetry: Option<&'static str>,
    /// How the count ran; absent for a merge of shards, which ran elsewhere.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    run: Option<RunFigures>,
    known: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    known_unique: Option<u128>,
    #[serde(rename = "match")]
    matches: Option<bool>,
    /// How many MPI ranks took part, for a distributed count.
    #[serde(skip_serializing_if = "Option::is_none")]
    ranks: Option<usize>,
    /// How many shards were merged, for `merge`.
    #[serde(skip_serializing_if = "Option::is_none")]
    shards: Option<usize>,
    /// The GPU that counted, for the GPU engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    adapter: Option<String>,
    /// The API it was reached through (`vulkan`, `metal`, `dx12`).
    #[serde(skip_serializing_if = "Option::is_none")]
    backend: Option<String>,
    /// What `--double-check` counted the second way.
    #[serde(skip_serializing_if = "Option::is_none")]
    double_check: Option<DoubleCheckFigures>,
}

/// A double check's outcome, as `--json` gives it.
#[derive(Debug, Serialize)]
struct DoubleCheckFigures {
    /// How the second way counted.
    way: &'static str,
    /// The solutions it counted.
    solutions: u128,
    /// Whether it agrees with the first way, task by task where it counts tasks.
    agrees: bool,
    /// The tasks whose two values differ.
    differing_tasks: Vec<usize>,
}

/// What a count on this machine took.
#[derive(Debug, Serialize)]
struct RunFigures {
    threads: usize,
    seconds: f64,
    /// The most memory the process has held so far (Linux), in bytes.
    peak_memory_bytes: Option<u64>,
    tasks: usize,
    split_depth: u32,
    /// The engine's build that counted (`avx512`, `avx2` or `bmi2`, `portable`: within
    /// `NQUEENS_ISA`'s cap); absent for a GPU.
    #[serde(skip_serializing_if = "Option::is_none")]
    build: Option<&'static str>,
}

/// The solutions by the size of their class: how many classes of 1, 2, 4 and 8 boards.
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
    /// The row of a count made here, which took `elapsed`, over `ranks` MPI ranks if any.
    pub fn of_count(count: &Count, elapsed: Duration, ranks: Option<usize>) -> Row {
        let unique = count.classes.map(|c| c.unique());
        let mut row = Row::new(count.n, count.solutions, unique, count.engine);
        row.classes = count.classes.map(|c| ClassSizes {
            of_1: c.of_1,
            of_2: c.of_2,
            of_4: c.of_4,
            of_8: c.of_8,
        });
        row.run = Some(RunFigures {
            threads: count.threads,
            seconds: elapsed.as_secs_f64(),
            peak_memory_bytes: super::memory::peak_bytes(),
            tasks: count.tasks,
            split_depth: count.split_depth,
            build: match count.engine {
                nqueens::Engine::Join => Some(nqueens::join::instruction_set()),
                nqueens::Engine::Search(_) => Some(nqueens::search_instruction_set()),
                _ => None,
            },
        });
        row.ranks = ranks;
        #[cfg(feature = "gpu")]
        if let Some(gpu) = &count.adapter {
            // A GPU counted (the search's tasks or the join's): the engine is named after it.
            row.engine = nqueens::Engine::Gpu(None).name();
            row.adapter = Some(gpu.name.clone());
            row.backend = Some(gpu.backend.clone());
            if let Some(run) = &mut row.run {
                run.build = None;
            }
        }
        row
    }

    /// The row of a merge of `shards` shard results.
    pub fn of_merge(n: u32, solutions: u128, engine: Engine, shards: usize) -> Row {
        let mut row = Row::new(n, solutions, None, engine);
        row.shards = Some(shards);
        row
    }

    fn new(n: u32, solutions: u128, unique: Option<u128>, engine: Engine) -> Row {
        let known = known::total(n);
        let known_unique = unique.and(known::unique(n));
        // Past the table a count is still held to what every count keeps: a multiple of 4
        // from n = 6 on. A count that breaks it is wrong, known or not.
        let matches = known
            .map(|k| k == solutions && (unique.is_none() || unique == known_unique))
            .or((!known::possible_total(n, solutions)).then_some(false));
        Row {
            n,
            solutions,
            unique,
            classes: None,
            engine: engine.name(),
            symmetry: engine.symmetry().map(|s| s.name()),
            run: None,
            known,
            known_unique,
            matches,
            ranks: None,
            shards: None,
            adapter: None,
            backend: None,
            double_check: None,
        }
    }

    /// Adds what a double check counted the second way.
    pub fn with_double_check(mut self, check: &nqueens::recount::DoubleCheck) -> Row {
        self.double_check = Some(DoubleCheckFigures {
            way: check.way.describe(),
            solutions: check.solutions,
            agrees: check.agrees(self.solutions),
            differing_tasks: check.differing.clone(),
        });
        self
    }

    /// Whether the count disagrees with the published values, or past them is no count of
    /// any board (not a multiple of 4 from n = 6 on): an error, exit 1.
    pub fn mismatch(&self) -> Option<String> {
        let show = |v: Option<u128>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
        if self.matches == Some(false) && self.known.is_none() {
            return Some(format!(
                "n = {}: counted {} solutions, which is not a multiple of 4, as every count from \
                 n = 6 on is (H. M. Nielsen, 2026): a fault in this machine or build",
                self.n, self.solutions
            ));
        }
        (self.matches == Some(false)).then(|| match self.unique {
            Some(unique) => format!(
                "n = {}: counted {} solutions ({unique} unique), but OEIS A000170 and A002562 give {} ({})",
                self.n,
                self.solutions,
                show(self.known),
                show(self.known_unique)
            ),
            None => format!(
                "n = {}: counted {} solutions, but OEIS A000170 gives {}",
                self.n,
                self.solutions,
                show(self.known)
            ),
        })
    }

    /// How many MPI ranks took part, if the count was distributed.
    pub fn ranks(&self) -> Option<usize> {
        self.ranks
    }
}

/// Prints rows in one style.
pub struct Reporter {
    style: OutputStyle,
    unique: bool,
}

impl Reporter {
    /// A reporter for `style`, with a unique-count column when `unique`.
    pub fn new(style: OutputStyle, unique: bool) -> Reporter {
        Reporter { style, unique }
    }

    /// Writes what comes before the rows: a table's header.
    pub fn header(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.style == OutputStyle::Table {
            let unique = if self.unique {
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
        Ok(())
    }

    /// Writes one row, and flushes it: a long range shows each size as it is counted.
    pub fn row(&self, out: &mut dyn Write, row: &Row) -> io::Result<()> {
        match self.style {
            OutputStyle::Plain => match row.unique {
                Some(unique) => writeln!(out, "{} {unique}", row.solutions)?,
                None => writeln!(out, "{}", row.solutions)?,
            },
            OutputStyle::Json => {
                serde_json::to_writer(&mut *out, row)?;
                writeln!(out)?;
            }
            OutputStyle::Table => {
                let verdict = match row.matches {
                    Some(true) => "yes",
                    Some(false) => "MISMATCH",
                    None => "-",
                };
                let unique = row.unique.map(|u| format!("  {u:>19}")).unwrap_or_default();
                let seconds = row.run.as_ref().map_or(0.0, |r| r.seconds);
                writeln!(
                    out,
                    "{:>3}  {:>20}{unique}  {seconds:>10.3}  {verdict}",
                    row.n, row.solutions
                )?;
            }
        }
        out.flush()
    }
}

/// What `count --estimate` says of one board size.
#[derive(Debug, Serialize)]
struct EstimateRow {
    n: u32,
    engine: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    symmetry: Option<&'static str>,
    /// The predicted work of every task, in seconds of one core of this machine (with a GPU:
    /// seconds of the GPU and its host thread, each part timed alone).
    core_seconds: f64,
    /// The published count of this size (null beyond n = 27), for a cost per solution.
    known: Option<u128>,
    /// Half the 95 % interval, relative to `core_seconds`.
    error: f64,
    threads: usize,
    /// The predicted wall-clock time on `threads` threads: the preparation as it took here,
    /// a thread's start, and the work shared evenly.
    seconds: f64,
    tasks: usize,
    split_depth: u32,
    /// The most the engine holds (the join engine's quarter table and pieces), in bytes.
    memory_bytes: u64,
    /// The process's peak so far, with the table built and the sample run (Linux).
    peak_memory_bytes: Option<u64>,
    /// The parts timed, of how many, and the seconds the preparation and the sample took.
    sampled: usize,
    parts: usize,
    setup_seconds: f64,
    /// What a worker thread's first tasks cost besides their work (its buffers' first
    /// touch), paid once by every thread at once.
    thread_start_seconds: f64,
    sample_seconds: f64,
    /// The longest part timed, in core-seconds, and the spread of the timed parts' time per
    /// unit of weight (the largest over the least); the search's parts, each timed from one
    /// random subtree scaled up, have neither ([`nqueens::Estimate`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    longest_part_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rate_spread: Option<f64>,
    /// The different parts among the timings (a part can be timed more than once).
    #[serde(skip)]
    parts_timed: usize,
    /// The GPU the parts were timed on, if one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    adapter: Option<String>,
}

/// Prints the estimate of one board size: a line, or a JSON object.
pub fn estimate(
    out: &mut impl Write,
    style: OutputStyle,
    job: &nqueens::Job,
    estimate: &nqueens::Estimate,
    setup: Duration,
) -> io::Result<()> {
    #[cfg(feature = "gpu")]
    let adapter = job.gpu.as_ref().map(|gpu| gpu.adapter().name.clone());
    #[cfg(not(feature = "gpu"))]
    let adapter: Option<String> = None;
    // A GPU's parts are timed one at a time: the run is predicted for it alone.
    let threads = if adapter.is_some() { 1 } else { job.threads };
    let row = EstimateRow {
        n: job.n,
        engine: job.engine.name(),
        symmetry: job.engine.symmetry().map(|s| s.name()),
        core_seconds: estimate.core_seconds,
        known: known::total(job.n),
        // A board without tasks costs nothing, exactly (the sample's error bar is infinite).
        error: if estimate.parts == 0 {
            0.0
        } else {
            estimate.error
        },
        threads,
        seconds: setup.as_secs_f64()
            + estimate.thread_start_seconds
            + estimate.core_seconds / threads as f64,
        tasks: estimate.tasks,
        split_depth: job.split_depth,
        memory_bytes: job.plan.memory_bytes(job.threads),
        peak_memory_bytes: super::memory::peak_bytes(),
        sampled: estimate.sampled,
        parts: estimate.parts,
        setup_seconds: setup.as_secs_f64(),
        thread_start_seconds: estimate.thread_start_seconds,
        sample_seconds: estimate.sample_seconds,
        longest_part_seconds: estimate.longest_part_seconds,
        rate_spread: estimate.rate_spread,
        parts_timed: estimate
            .timed
            .iter()
            .map(|t| (t.task, t.part))
            .collect::<std::collections::HashSet<_>>()
            .len(),
        adapter,
    };
    if style == OutputStyle::Json {
        serde_json::to_writer(&mut *out, &row)?;
        writeln!(out)?;
    } else {
        estimate_line(out, &row, job.engine)?;
    }
    out.flush()
}

/// `seconds` in the largest unit that makes two or more of it, to two figures, each unit
/// named after `kind` (`core` gives `105 core-hours`, empty gives `52 hours`); below two
/// minutes, in seconds.
pub fn duration_in_words(seconds: f64, kind: &str) -> String {
    const UNITS: [(f64, &str); 5] = [
        (365.25 * 86_400.0, "year"),
        (86_400.0, "day"),
        (3_600.0, "hour"),
        (60.0, "minute"),
        (1.0, "second"),
    ];
    let kind = if kind.is_empty() {
        String::new()
    } else {
        format!("{kind}-")
    };
    let (size, name) = UNITS
        .iter()
        .find(|&&(size, _)| seconds >= 2.0 * size)
        .copied()
        .unwrap_or(UNITS[4]);
    format!("{:.2} {kind}{name}s", Sig(seconds / size))
}

/// `about 105 core-hours` for a time of `seconds` past two minutes ([`duration_in_words`]);
/// `None` below, where seconds are what a person reads.
fn in_long_units(seconds: f64, kind: &str) -> Option<String> {
    (seconds.is_finite() && seconds >= 120.0)
        .then(|| format!("about {}", duration_in_words(seconds, kind)))
}

/// The text line of an estimate.
fn estimate_line(out: &mut impl Write, row: &EstimateRow, engine: Engine) -> io::Result<()> {
    // The engine's own memory, and the process's beside it: the engine of a small board
    // needs kilobytes where the process itself holds megabytes.
    let engine_memory = match row.memory_bytes {
        0 => "next to none".to_string(),
        bytes => format!("at most {}", super::memory::show(bytes)),
    };
    let memory = match row.peak_memory_bytes {
        Some(peak) => format!(
            "the engine's {engine_memory}, the process's {} so far",
            super::memory::show(peak)
        ),
        None => format!("the engine's {engine_memory}"),
    };
    if row.parts == 0 {
        // A board without tasks (n = 2, 3) costs nothing, exactly: no sample, no error bar.
        return writeln!(
            out,
            "n = {}: 0 core-seconds, no task to count ({engine}); {:.2} s of preparation",
            row.n, row.setup_seconds,
        );
    }
    let (unit, on) = match &row.adapter {
        Some(adapter) => ("GPU-seconds", adapter.clone()),
        None => ("core-seconds", plural(row.threads as u128, "thread")),
    };
    // An interval past 100 % reaches zero: said as the range it is, not as a negative bound.
    let error = if row.error < 1.0 {
        format!("± {:.1} % at 95 %", 100.0 * row.error)
    } else {
        format!(
            "at 95 % anywhere from 0 to {:.1} times that: too few parts timed to say more",
            1.0 + row.error
        )
    };
    let parts = match (row.parts_timed, row.parts) {
        (timed, all) if timed == all => format!("all {}", plural(all as u128, "part")),
        (timed, all) => format!("{timed} of the {}", plural(all as u128, "part")),
    };
    let spread = match (row.longest_part_seconds, row.rate_spread) {
        (Some(longest), Some(spread)) => format!(
            "the longest part {:.3} {unit}, time per weight within {spread:.1}x",
            Sig(longest)
        ),
        // The search's parts: one random subtree each, scaled up by the choices above it.
        _ => "each task timed from one random subtree of it, scaled up".to_string(),
    };
    // A part can be timed more than once (a small board has fewer parts than a round has
    // points), so the sample is counted in timings, and the parts they covered apart.
    writeln!(
        out,
        "n = {}: about {:.3} {unit} ({error}{}), {:.3} s{} on {on}; {} ({engine}); memory: \
         {memory}; {} of {parts} in {:.2} s after {:.2} s of preparation; {spread}",
        row.n,
        Sig(row.core_seconds),
        in_long_units(row.core_seconds, unit.trim_end_matches("-seconds"))
            .map_or_else(String::new, |words| format!(", {words}")),
        Sig(row.seconds),
        in_long_units(row.seconds, "").map_or_else(String::new, |words| format!(" ({words})")),
        plural(row.tasks as u128, "task"),
        plural(row.sampled as u128, "timing"),
        row.sample_seconds,
        row.setup_seconds,
    )
}

/// A number of seconds shown to about three significant figures.
struct Sig(f64);

impl std::fmt::Display for Sig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = f.precision().unwrap_or(3);
        let x = self.0;
        if x <= 0.0 || !x.is_finite() {
            return write!(f, "{x}");
        }
        let magnitude = x.log10().floor() as i32;
        let decimals = (digits as i32 - 1 - magnitude).max(0) as usize;
        write!(f, "{x:.decimals$}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count 24 --estimate` said "about 376784 core-seconds ... 188435 s on 2 threads": the
    /// same in the units a person reads, to two figures.
    #[test]
    fn long_times_are_said_in_hours_days_or_years() {
        assert_eq!(duration_in_words(376_784.0, "core"), "4.4 core-days");
        assert_eq!(duration_in_words(188_435.0, ""), "2.2 days");
        assert_eq!(duration_in_words(170_000.0, ""), "47 hours");
        assert_eq!(duration_in_words(590.0, "core"), "9.8 core-minutes");
        assert_eq!(duration_in_words(3.2e7, "core"), "370 core-days");
        assert_eq!(duration_in_words(3.9e13, "core"), "1235835 core-years");
        assert_eq!(duration_in_words(30.0, ""), "30 seconds");
        assert_eq!(in_long_units(119.0, ""), None);
        assert_eq!(
            in_long_units(7.0 * 86_400.0, "GPU").unwrap(),
            "about 7.0 GPU-days"
        );
    }
}
