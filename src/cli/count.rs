//! `nqueens count`: runs the counter for each board size and prints the results.

use super::config::{CountConfig, OutputStyle};
use super::exit::ExitCode;
use super::interrupt;
use super::memory;
use super::output::Output;
use super::progress::TaskBar;
use anyhow::{Result, bail};
use nqueens::checkpoint::{Journal, RunIdentity};
use nqueens::shard::{self, ShardResult};
use nqueens::{Count, Counter, Engine, Job, known};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};
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
    engine: &'static str,
    /// The search's symmetry; absent for the join engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    symmetry: Option<&'static str>,
    threads: usize,
    seconds: f64,
    /// The most memory the process has held so far (Linux), in bytes.
    peak_memory_bytes: Option<u64>,
    tasks: usize,
    split_depth: u32,
    known: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    known_unique: Option<u128>,
    #[serde(rename = "match")]
    matches: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ranks: Option<usize>,
    /// The GPU that counted, for the GPU engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    adapter: Option<String>,
    /// The API it was reached through (`vulkan`, `metal`, `dx12`).
    #[serde(skip_serializing_if = "Option::is_none")]
    backend: Option<String>,
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
    fn new(count: &Count, elapsed: Duration, ranks: Option<usize>) -> Row {
        let known = known::total(count.n);
        let unique = count.classes.map(|c| c.unique());
        let known_unique = unique.and(known::unique(count.n));
        let matches = match (known, known_unique) {
            (None, _) => None,
            (Some(k), None) => Some(k == count.solutions),
            (Some(k), Some(u)) => Some(k == count.solutions && Some(u) == unique),
        };
        #[cfg(feature = "gpu")]
        let (adapter, backend) = (count.adapter.as_ref())
            .map(|gpu| (gpu.name.clone(), gpu.backend.clone()))
            .unzip();
        #[cfg(not(feature = "gpu"))]
        let (adapter, backend) = (None, None);
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
            engine: match adapter {
                Some(_) => Engine::Gpu.name(),
                None => count.method.engine().name(),
            },
            // The GPU runs the search's tasks: it has a symmetry too.
            symmetry: (count.method.engine() == Engine::Dfs).then(|| count.symmetry.name()),
            threads: count.threads,
            seconds: elapsed.as_secs_f64(),
            peak_memory_bytes: memory::peak_bytes(),
            tasks: count.tasks,
            split_depth: count.split_depth,
            known,
            known_unique,
            matches,
            ranks,
            adapter,
            backend,
        }
    }
}

/// Runs a validated `count` command; returns the exit code.
pub fn run(config: &CountConfig) -> Result<ExitCode> {
    if config.max_memory.is_some() {
        memory::without_huge_pages();
    }
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
            .engine(config.engine)
            .symmetry(config.symmetry)
            .unique(config.unique)
            .on_progress(&update);
        if let Some(name) = &config.gpu_adapter {
            counter = counter.gpu_adapter(name);
        }
        // The engine's share of a memory limit: what the process does not hold already, less
        // a stack and the allocator's own pages for each worker thread, and a sixteenth of the
        // limit for the allocator's slack (n = 20 under 120 MiB peaked 0.05 MiB over without).
        let threads = config
            .threads
            .unwrap_or_else(nqueens::driver::default_threads);
        let overhead = memory::resident_bytes().unwrap_or(16 << 20)
            + memory::THREAD_OVERHEAD * threads as u64
            + config.max_memory.unwrap_or(0) / 16;
        if let Some(limit) = config.max_memory {
            counter = counter.max_memory(limit.saturating_sub(overhead));
        }
        if let Some(threads) = config.threads {
            counter = counter.threads(threads);
        }
        if let Some(depth) = config.split_depth {
            counter = counter.split_depth(depth);
        }
        let started = Instant::now();
        // With a progress callback (always set here, drawn or not) the job carries the
        // estimated task sizes that shards are dealt by.
        let job = match (counter.prepare(n), config.max_memory) {
            (Err(nqueens::Error::Engine(_)), Some(limit)) => bail!(
                "--max-memory {} MiB is too little for the join engine at n = {n} on {threads} \
                 thread(s): it needs at least {} MiB ({} MiB for its quarter table, {} MiB for \
                 the program and its threads); raise it or use --engine dfs",
                limit >> 20,
                (nqueens::join::least_bytes(n, threads) + overhead).div_ceil(1 << 20),
                nqueens::join::table_bytes(n).div_ceil(1 << 20),
                overhead.div_ceil(1 << 20),
            ),
            (job, _) => job?,
        };
        let ran = run_job(config, &counter, &job)?;
        bar.finish();
        if let Some(error) = job.gpu_fallback.get() {
            eprintln!("warning: {error}; the CPU counted instead");
        }
        if let Some((index, shards)) = config.shard {
            let result = ShardResult::new(
                n,
                job.method.name(),
                job.split_depth,
                job.plan.len(),
                index,
                shards,
                ran.values.keys().copied().collect(),
                ran.values.values().sum(),
                job.plan.units_per_solution(),
            );
            writeln!(out, "{}", serde_json::to_string(&result)?)?;
            out.flush()?;
            continue;
        }
        let count = counter.finish(&job, ran.values.values().sum());
        let row = Row::new(&count, started.elapsed(), ran.ranks);
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
        if let (Some(ranks), OutputStyle::Plain) = (row.ranks, config.style) {
            match ranks {
                1 => eprintln!("1 MPI rank took part (rank 0 counting every task)"),
                _ => eprintln!("{ranks} MPI ranks took part (rank 0 dealing out the tasks)"),
            }
        }
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

/// What one board size's run produced: the value of every task it covers.
struct Ran {
    values: BTreeMap<usize, u128>,
    /// How many MPI ranks took part, for a distributed count.
    ranks: Option<usize>,
}

/// Runs the tasks of `job` that this command covers (all, or one shard's), resuming from and
/// recording to the checkpoint journal when there is one, and writes the subtotals file.
fn run_job(config: &CountConfig, counter: &Counter, job: &Job) -> Result<Ran> {
    let cluster = if config.mpi {
        Some(Cluster::join(counter, job)?)
    } else {
        None
    };
    let ids: Vec<usize> = match config.shard {
        Some((index, shards)) => shard::partition(&job.weights, index, shards),
        None => (0..job.plan.len()).collect(),
    };
    let mut values = BTreeMap::new();
    let journal = match &config.checkpoint {
        None => None,
        Some(path) => {
            let identity = RunIdentity {
                n: job.n,
                engine: job.method.name().into(),
                split_depth: job.split_depth,
                tasks: job.plan.len(),
                shard: config
                    .shard
                    .map_or_else(|| "all".into(), |(i, k)| format!("{i}/{k}")),
                version: env!("CARGO_PKG_VERSION").into(),
            };
            let (journal, done) = Journal::open(path, &identity)?;
            if let Some(stray) = done.keys().find(|id| ids.binary_search(id).is_err()) {
                bail!(
                    "checkpoint {}: task {stray} is not one of this run's",
                    path.display()
                );
            }
            values.extend(done);
            let journal = Arc::new(Mutex::new(journal));
            interrupt::watch_journal(journal.clone());
            Some(journal)
        }
    };
    let journal_error: Mutex<Option<nqueens::Error>> = Mutex::new(None);
    let record = |id: usize, value: u128| {
        if let Some(journal) = &journal {
            let mut journal = journal.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = journal.append(id, value) {
                journal_error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
            }
        }
    };
    let mut ranks = None;
    if let Some(cluster) = &cluster {
        let distributed = cluster.count(counter, job, &ids, &values, &record)?;
        values = distributed.values;
        ranks = Some(distributed.ranks);
    } else {
        let todo: Vec<usize> = ids
            .iter()
            .copied()
            .filter(|id| !values.contains_key(id))
            .collect();
        let results = counter.run(job, &todo, &record)?;
        values.extend(todo.into_iter().zip(results));
    }
    interrupt::forget_journal();
    if let Some(e) = journal_error
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
    {
        return Err(e.into());
    }
    if let Some(path) = &config.subtotals {
        write_subtotals(path, job, &values)?;
    }
    Ok(Ran { values, ranks })
}

/// The outcome of a count over MPI ranks, as rank 0 sees it.
struct Distributed {
    values: BTreeMap<usize, u128>,
    ranks: usize,
}

/// This process's place in an MPI job.
struct Cluster {
    #[cfg(feature = "mpi")]
    universe: mpi::environment::Universe,
    /// Without MPI there is no cluster to be part of: the type has no value.
    #[cfg(not(feature = "mpi"))]
    none: std::convert::Infallible,
}

impl Cluster {
    /// Joins the MPI job. Every rank but 0 then counts what rank 0 deals it and exits quietly
    /// here, before touching any file the user named (a journal, a subtotals file): those
    /// belong to rank 0 alone.
    #[cfg(feature = "mpi")]
    fn join(counter: &Counter, job: &Job) -> Result<Cluster> {
        use mpi::traits::Communicator;
        let Some(universe) = mpi::initialize() else {
            bail!("cannot start MPI (was it started already?)");
        };
        let world = universe.world();
        if let Some(launched) = nqueens::cluster::launcher_ranks() {
            if launched > 1 && world.size() == 1 {
                eprintln!(
                    "warning: the launcher started {launched} ranks, but this program sees only one: \
                     it was probably built against another MPI library than the launcher's"
                );
            }
        }
        if world.rank() != 0 {
            nqueens::cluster::count(counter, job, &[], &BTreeMap::new(), &world, &|_, _| {})?;
            // Leave MPI properly before exiting: rank 0 reports.
            drop(universe);
            std::process::exit(0);
        }
        Ok(Cluster { universe })
    }

    #[cfg(not(feature = "mpi"))]
    fn join(_: &Counter, _: &Job) -> Result<Cluster> {
        bail!("this build has no MPI support: rebuild with `--features mpi`")
    }

    /// Rank 0's side of the count: deals out `ids` (less those `done`), gathers the values.
    #[cfg(feature = "mpi")]
    fn count(
        &self,
        counter: &Counter,
        job: &Job,
        ids: &[usize],
        done: &BTreeMap<usize, u128>,
        record: &(dyn Fn(usize, u128) + Sync),
    ) -> Result<Distributed> {
        let world = self.universe.world();
        let result = nqueens::cluster::count(counter, job, ids, done, &world, record)?
            .expect("rank 0 gets the result");
        Ok(Distributed {
            values: result.values,
            ranks: result.ranks,
        })
    }

    #[cfg(not(feature = "mpi"))]
    fn count(
        &self,
        _: &Counter,
        _: &Job,
        _: &[usize],
        _: &BTreeMap<usize, u128>,
        _: &(dyn Fn(usize, u128) + Sync),
    ) -> Result<Distributed> {
        match self.none {}
    }
}

/// Writes every task's value, through a temporary file renamed when complete.
fn write_subtotals(path: &Path, job: &Job, values: &BTreeMap<usize, u128>) -> Result<()> {
    let mut text = format!(
        "# nqueens {} subtotals: n={} engine={} split={} tasks={} units_per_solution={}\ntask\tunits\n",
        env!("CARGO_PKG_VERSION"),
        job.n,
        job.method.name(),
        job.split_depth,
        job.plan.len(),
        job.plan.units_per_solution()
    );
    for (id, value) in values {
        text.push_str(&format!("{id}\t{value}\n"));
    }
    let mut output = Output::open(Some(path))?;
    output.writer().write_all(text.as_bytes())?;
    output.finish()
}

fn show(value: Option<u128>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}
