//! `nqueens audit`: a random sample of the tasks a run's journals and subtotals files record,
//! counted again a second way; every task whose value differs is named, with the node that
//! counted it, so that a cluster run can be checked at a share of its cost and a bad node
//! found by its tasks.

use super::config::{AuditConfig, AuditSample};
use super::exit::ExitCode;
use super::progress::{ProgressMode, TaskBar};
use super::report::duration_in_words;
use super::stderr::say;
use anyhow::{Result, bail};
use nqueens::checkpoint::{Recorded, RunIdentity};
use nqueens::recount::audit_sample;
use nqueens::{Counter, Engine, Job};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::time::Instant;

/// One file's record of a task: its value, the node that counted it, the file.
#[derive(Clone, Debug, Serialize)]
struct Record {
    value: u128,
    node: String,
    file: String,
}

/// A task whose records do not all agree with its recount: every record of it (two files
/// that record it differently are both named), and the recount.
#[derive(Debug, Serialize)]
struct Differing {
    task: usize,
    recounted: u128,
    recorded: Vec<Record>,
}

/// What an audit found, as `--json` gives it.
#[derive(Debug, Serialize)]
struct Report {
    n: u32,
    engine: &'static str,
    tasks: usize,
    /// The tasks the files should hold: the whole run's, or their shards'.
    expected: usize,
    recorded: usize,
    /// Expected tasks no file records.
    missing: usize,
    audited: usize,
    /// Tasks two files record with different values (each recounted, in or beyond the
    /// sample, as is a value no task of the run can hold).
    recorded_differently: usize,
    seed: u64,
    way: &'static str,
    seconds: f64,
    agrees: bool,
    differing: Vec<Differing>,
}

/// Runs a validated `audit` command; returns the exit code: 0 when every recount agrees, 1
/// when a value differs (a node's fault, a value no task can hold included: it was written
/// with its checksum), 2 when a file cannot be read as a journal or subtotals file of a run
/// this version makes (said on stderr), as for any input the command cannot take.
pub fn run(config: &AuditConfig) -> Result<ExitCode> {
    // Drawn on a terminal once the recount has run half a second, as a count's is.
    let bar = std::sync::OnceLock::new();
    let update = |p: nqueens::Progress| {
        if let Some(bar) = bar.get() {
            TaskBar::update(bar, p);
        }
    };
    // What the files say, and the run they name made again: a file's fault, exit 2.
    let ready = read_all(config).and_then(|read| {
        let (counter, mut job) = prepare(config, &read.identity, &update)?;
        let expected = expected_tasks(&mut job, &read.shards)?;
        Ok((read, counter, job, expected))
    });
    let (read, counter, mut job, expected) = match ready {
        Ok(ready) => ready,
        Err(e) => {
            say!("error: {e:#}");
            return Ok(ExitCode::Usage);
        }
    };
    let ids: Vec<usize> = read.tasks.keys().copied().collect();
    let wanted = match config.sample {
        AuditSample::Share(share) => (share * ids.len() as f64).ceil() as usize,
        AuditSample::Tasks(tasks) => usize::try_from(tasks).unwrap_or(usize::MAX),
    };
    let seed = config.seed.unwrap_or_else(clock_seed);
    let sample = audit_sample(&ids, wanted, seed);
    let recount = with_suspects(&read, &sample);
    say_cost(&mut job, &recount);
    let started = Instant::now();
    let _ = bar.set(TaskBar::new(ProgressMode::Auto, job.n));
    let values = counter.recount(&job, &recount);
    if let Some(bar) = bar.get() {
        bar.finish();
    }
    let values = values?;
    let differing: Vec<Differing> = recount
        .iter()
        .zip(values)
        .filter(|&(task, value)| read.tasks[task].iter().any(|r| r.value != value))
        .map(|(&task, recounted)| Differing {
            task,
            recounted,
            recorded: read.tasks[&task].clone(),
        })
        .collect();
    let report = Report {
        n: read.identity.n,
        engine: job.engine.name(),
        tasks: read.identity.tasks,
        expected: expected.len(),
        recorded: ids.len(),
        missing: expected
            .iter()
            .filter(|t| !read.tasks.contains_key(t))
            .count(),
        audited: sample.len(),
        recorded_differently: read.tasks.values().filter(|r| !all_alike(r)).count(),
        seed,
        way: way(job.engine),
        seconds: started.elapsed().as_secs_f64(),
        agrees: differing.is_empty(),
        differing,
    };
    write(config, &report)?;
    Ok(if report.agrees {
        ExitCode::Success
    } else {
        ExitCode::Failure
    })
}

/// The counter and the job of the run the files name, as this build makes it; a run it does
/// not make (another split's tasks) is the error.
fn prepare<'a>(
    config: &AuditConfig,
    identity: &RunIdentity,
    update: &'a (dyn Fn(nqueens::Progress) + Sync),
) -> Result<(Counter<'a>, Job)> {
    let counter = Counter::new()
        .engine(identity.engine)
        .split_depth(identity.split_depth)
        .on_progress(update);
    let counter = match config.threads {
        Some(threads) => counter.threads(threads),
        None => counter,
    };
    let job = counter.prepare(identity.n)?;
    if job.plan.len() != identity.tasks || job.split_depth != identity.split_depth {
        bail!(
            "the files name a run of {} tasks at split depth {}, which this build does not make",
            identity.tasks,
            identity.split_depth
        );
    }
    Ok((counter, job))
}

/// The tasks to recount: the sample, and every suspect whatever the sample (a task recorded
/// differently, a value no task can hold): the recount says which record is right.
fn with_suspects(read: &Read, sample: &[usize]) -> Vec<usize> {
    let most = read.identity.most_units();
    let suspects = read
        .tasks
        .iter()
        .filter(|(_, records)| !all_alike(records) || records.iter().any(|r| r.value > most))
        .map(|(&task, _)| task);
    BTreeSet::from_iter(sample.iter().copied().chain(suspects))
        .into_iter()
        .collect()
}

/// The least predicted recount that is said before it starts.
const SAY_COST_FROM: f64 = 10.0;

/// Says what recounting the tasks `ids` will cost, when it is long: from a timed sample of
/// the run (a second at most), the run's core-seconds shared out by the tasks' weights. A
/// recount of one task of n = 30 takes days; the user should know before, not after.
fn say_cost(job: &mut Job, ids: &[usize]) {
    let Ok(estimate) = job.estimate(std::time::Duration::from_secs(1)) else {
        return;
    };
    let weights = job.weights();
    let weight = |i: usize| weights.get(i).map_or(0.0, |&w| w as f64);
    let all: f64 = weights.iter().map(|&w| w as f64).sum();
    let ours: f64 = ids.iter().map(|&i| weight(i)).sum();
    let largest = ids.iter().map(|&i| weight(i)).fold(0.0, f64::max);
    if all <= 0.0 {
        return;
    }
    let core_seconds = estimate.core_seconds * ours / all;
    // No faster than the largest task alone, however many threads share the rest.
    let seconds = (core_seconds / job.threads as f64).max(estimate.core_seconds * largest / all);
    if seconds >= SAY_COST_FROM {
        say!(
            "audit: recounting {} of n = {} takes about {}, {} on {} (from a timed sample)",
            plural(ids.len(), "task", "tasks"),
            job.n,
            duration_in_words(core_seconds, "core"),
            duration_in_words(seconds, ""),
            plural(job.threads, "thread", "threads")
        );
    }
}

/// Whether a task's records agree with one another.
fn all_alike(records: &[Record]) -> bool {
    records
        .windows(2)
        .all(|pair| pair[0].value == pair[1].value)
}

/// The tasks the files should hold between them: the whole run's when one names the whole
/// run, else the tasks of the shards they name.
fn expected_tasks(
    job: &mut Job,
    shards: &BTreeSet<Option<(usize, usize)>>,
) -> Result<BTreeSet<usize>> {
    if shards.contains(&None) {
        return Ok((0..job.plan.len()).collect());
    }
    let mut tasks = BTreeSet::new();
    for &(index, count) in shards.iter().flatten() {
        tasks.extend(job.shard(index, count)?);
    }
    Ok(tasks)
}

/// What the files of one run record.
struct Read {
    /// The run, with no shard named.
    identity: RunIdentity,
    /// The shards the files name (`None`: the whole run).
    shards: BTreeSet<Option<(usize, usize)>>,
    /// Each recorded task's records: one a file that records it, alike ones kept once.
    tasks: BTreeMap<usize, Vec<Record>>,
}

/// Every file's tasks, of one run; a file that is not a journal or subtotals file of this
/// version, is damaged, is of another run than the first, or a set that records no task, is
/// the error.
fn read_all(config: &AuditConfig) -> Result<Read> {
    let mut identity: Option<RunIdentity> = None;
    let mut shards = BTreeSet::new();
    let mut tasks: BTreeMap<usize, Vec<Record>> = BTreeMap::new();
    for file in &config.files {
        let recorded = Recorded::read(file)?;
        let theirs = RunIdentity {
            shard: None,
            ..recorded.identity.clone()
        };
        if theirs.version != env!("CARGO_PKG_VERSION") {
            bail!(
                "{}: recorded by nqueens {}, whose tasks may be numbered otherwise: this \
                 version ({}) audits the files of its own runs only",
                file.display(),
                theirs.version,
                env!("CARGO_PKG_VERSION")
            );
        }
        match &identity {
            Some(ours) if *ours != theirs => bail!(
                "{}: a file of another run than {}'s",
                file.display(),
                config.files[0].display()
            ),
            _ => identity = Some(theirs),
        }
        shards.insert(recorded.identity.shard);
        for (task, (value, node)) in recorded.tasks {
            let records = tasks.entry(task).or_default();
            if records.iter().all(|r| r.value != value) {
                records.push(Record {
                    value,
                    node,
                    file: file.display().to_string(),
                });
            }
        }
    }
    let identity = identity.expect("audit takes one file or more");
    if tasks.is_empty() {
        match &config.files[..] {
            [file] => bail!(
                "{}: it records no finished task: there is nothing to audit",
                file.display()
            ),
            files => bail!(
                "the {} files record no finished task: there is nothing to audit",
                files.len()
            ),
        }
    }
    Ok(Read {
        identity,
        shards,
        tasks,
    })
}

/// `count` and the noun for it: "1 file", "2 files".
fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// How the tasks of `engine` are recounted.
fn way(engine: Engine) -> &'static str {
    match engine {
        Engine::Join => "the second way: other buckets, groups and pieces",
        _ => "the search again (its tasks have no second way)",
    }
}

/// A seed from the clock, for an audit given none (printed, so that it can be repeated).
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos as u64) ^ ((nanos >> 64) as u64)
}

/// A task whose records differ from its recount, in words: with one record, its value, the
/// recount and where it came from; with several, each value and its file, then the recount.
fn differing_line(d: &Differing) -> String {
    match &d.recorded[..] {
        [one] => format!(
            "task {}: recorded {}, recounted {}; counted on {} ({})",
            d.task, one.value, d.recounted, one.node, one.file
        ),
        several => {
            let each: Vec<String> = several
                .iter()
                .map(|r| format!("{} on {} ({})", r.value, r.node, r.file))
                .collect();
            format!(
                "task {}: recorded {}; recounted {}",
                d.task,
                each.join(", "),
                d.recounted
            )
        }
    }
}

/// Prints the report: one JSON object, or lines.
fn write(config: &AuditConfig, report: &Report) -> Result<()> {
    let mut out = super::output::stdout();
    if config.json {
        serde_json::to_writer(&mut out, report)?;
        writeln!(out)?;
        out.flush()?;
        return Ok(());
    }
    let share = 100.0 * report.audited as f64 / report.recorded.max(1) as f64;
    writeln!(
        out,
        "n = {} ({}, {}): {} of the {} recorded tasks recounted ({share:.1} %, seed {}) by {} \
         in {:.2} s",
        report.n,
        report.engine,
        plural(report.tasks, "task", "tasks"),
        report.audited,
        report.recorded,
        report.seed,
        report.way,
        report.seconds
    )?;
    if report.missing > 0 {
        writeln!(
            out,
            "the files record {} of the {} they should hold: {} missing (a run not finished, \
             or a file left out)",
            report.recorded,
            plural(report.expected, "task", "tasks"),
            report.missing
        )?;
    }
    if report.recorded_differently > 0 {
        writeln!(
            out,
            "{} recorded differently by two files, recounted too",
            plural(report.recorded_differently, "task is", "tasks are")
        )?;
    }
    for d in &report.differing {
        writeln!(out, "{}", differing_line(d))?;
    }
    if report.agrees {
        writeln!(out, "every recounted value agrees")?;
    } else {
        // The nodes of the records that differ from their recount, each once a task.
        let mut by_node: BTreeMap<&str, usize> = BTreeMap::new();
        for d in &report.differing {
            let wrong: BTreeSet<&str> = d
                .recorded
                .iter()
                .filter(|r| r.value != d.recounted)
                .map(|r| r.node.as_str())
                .collect();
            for node in wrong {
                *by_node.entry(node).or_default() += 1;
            }
        }
        let nodes: Vec<String> = by_node
            .iter()
            .map(|(node, k)| format!("{node} ({k})"))
            .collect();
        let differ = plural(
            report.differing.len(),
            "task's value differs",
            "tasks' values differ",
        );
        writeln!(out, "{differ}, counted on: {}", nodes.join(", "))?;
        say!("error: the audit found {differ} from the recount");
    }
    out.flush()?;
    Ok(())
}
