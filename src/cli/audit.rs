//! `nqueens audit`: a random sample of the tasks a run's journals and subtotals files record,
//! counted again a second way; every task whose value differs is named, with the node that
//! counted it, so that a cluster run can be checked at a share of its cost and a bad node
//! found by its tasks.

use super::config::{AuditConfig, AuditSample};
use super::exit::ExitCode;
use super::stderr::say;
use anyhow::{Result, bail};
use nqueens::checkpoint::{Recorded, RunIdentity};
use nqueens::recount::audit_sample;
use nqueens::{Counter, Engine};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

/// A recorded task whose recount differs.
#[derive(Debug, Serialize)]
struct Differing {
    task: usize,
    recorded: u128,
    recounted: u128,
    node: String,
}

/// What an audit found, as `--json` gives it.
#[derive(Debug, Serialize)]
struct Report {
    n: u32,
    engine: &'static str,
    tasks: usize,
    recorded: usize,
    audited: usize,
    seed: u64,
    way: &'static str,
    seconds: f64,
    agrees: bool,
    differing: Vec<Differing>,
}

/// Runs a validated `audit` command; returns the exit code.
pub fn run(config: &AuditConfig) -> Result<ExitCode> {
    let (identity, recorded, clashes) = read_all(config)?;
    let counter = Counter::new()
        .engine(identity.engine)
        .split_depth(identity.split_depth);
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
    let ids: Vec<usize> = recorded.keys().copied().collect();
    let wanted = match config.sample {
        AuditSample::Share(share) => (share * ids.len() as f64).ceil() as usize,
        AuditSample::Tasks(tasks) => usize::try_from(tasks).unwrap_or(usize::MAX),
    };
    let seed = config.seed.unwrap_or_else(clock_seed);
    let sample = audit_sample(&ids, wanted, seed);
    let started = Instant::now();
    let recounted = counter.recount(&job, &sample)?;
    let mut differing: Vec<Differing> = sample
        .iter()
        .zip(&recounted)
        .filter(|&(id, value)| recorded[id].0 != *value)
        .map(|(&task, &recounted)| Differing {
            task,
            recorded: recorded[&task].0,
            recounted,
            node: recorded[&task].1.clone(),
        })
        .collect();
    differing.extend(clashes);
    let report = Report {
        n: identity.n,
        engine: job.engine.name(),
        tasks: identity.tasks,
        recorded: ids.len(),
        audited: sample.len(),
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

/// Each recorded task's value and the node that counted it.
type Tasks = BTreeMap<usize, (u128, String)>;

/// Every file's tasks, of one run; and the tasks two files record with different values.
fn read_all(config: &AuditConfig) -> Result<(RunIdentity, Tasks, Vec<Differing>)> {
    let mut identity: Option<RunIdentity> = None;
    let mut tasks: BTreeMap<usize, (u128, String)> = BTreeMap::new();
    let mut clashes = Vec::new();
    for file in &config.files {
        let recorded = Recorded::read(file)?;
        let theirs = RunIdentity {
            shard: None,
            ..recorded.identity.clone()
        };
        if theirs.version != env!("CARGO_PKG_VERSION") {
            bail!(
                "{}: recorded by nqueens {}, whose tasks may be numbered otherwise: audit it \
                 with that version",
                file.display(),
                theirs.version
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
        for (task, (value, node)) in recorded.tasks {
            match tasks.get(&task) {
                Some((other, _)) if *other != value => clashes.push(Differing {
                    task,
                    recorded: *other,
                    recounted: value,
                    node: format!("{node} (recorded twice, differently)"),
                }),
                _ => {
                    tasks.insert(task, (value, node));
                }
            }
        }
    }
    let identity = identity.expect("audit takes one file or more");
    Ok((identity, tasks, clashes))
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
        "n = {} ({}, {} tasks): {} of the {} recorded tasks recounted ({share:.1} %, seed {}) \
         by {} in {:.2} s",
        report.n,
        report.engine,
        report.tasks,
        report.audited,
        report.recorded,
        report.seed,
        report.way,
        report.seconds
    )?;
    for d in &report.differing {
        writeln!(
            out,
            "task {}: recorded {}, recounted {}; counted on {}",
            d.task, d.recorded, d.recounted, d.node
        )?;
    }
    if report.agrees {
        writeln!(out, "every recounted value agrees")?;
    } else {
        let mut by_node: BTreeMap<&str, usize> = BTreeMap::new();
        for d in &report.differing {
            *by_node.entry(d.node.as_str()).or_default() += 1;
        }
        let nodes: Vec<String> = by_node
            .iter()
            .map(|(node, k)| format!("{node} ({k})"))
            .collect();
        writeln!(
            out,
            "{} values differ, counted on: {}",
            report.differing.len(),
            nodes.join(", ")
        )?;
        say!(
            "error: the audit found {} values that differ",
            report.differing.len()
        );
    }
    out.flush()?;
    Ok(())
}
