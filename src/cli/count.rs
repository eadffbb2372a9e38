//! `nqueens count`: runs the counter for each board size and prints the results.

use super::config::CountConfig;
use super::exit::ExitCode;
use super::interrupt;
use super::memory;
use super::output::Output;
use super::progress::{SampleBar, TaskBar};
use super::report::{Reporter, Row};
use super::stderr::say;
use anyhow::{Result, bail};
use nqueens::checkpoint::{self, Checkpoint};
use nqueens::recount::DoubleCheck;
use nqueens::shard::ShardResult;
use nqueens::{Count, Counter, Engine, Estimate, Job, Plan, Progress};
use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

/// The most time `--estimate` spends on its sample of one board size (a part that has
/// started still runs to its end: milliseconds for the search, at most one pair of pieces for
/// the join engine).
const ESTIMATE_BUDGET: std::time::Duration = std::time::Duration::from_secs(300);

/// Runs a validated `count` command; returns the exit code.
pub fn run(config: &CountConfig) -> Result<ExitCode> {
    if config.max_memory.is_some() {
        memory::without_huge_pages();
    }
    let mut out = super::output::stdout();
    let reporter = Reporter::new(config.style, config.unique);
    if !config.estimate {
        reporter.header(&mut out)?;
    }
    let mut code = ExitCode::Success;
    for n in config.sizes.clone() {
        let bar = TaskBar::new(config.progress, n);
        let update = |p: Progress| bar.update(p);
        // What the process takes besides the engine's data, read once: the counter's share of
        // a memory limit and the message that says what a limit lacks use the same figure.
        let fixed = fixed_overhead();
        let counter = counter(config, &update, fixed);
        let started = Instant::now();
        let mut job = prepare(config, &counter, n, fixed)?;
        if let Some((_, shards)) = config.shard.filter(|&(_, k)| k > job.plan.len()) {
            // Said before a task is estimated, and before anything is sized by K.
            say!("error: --shard: {}", job.too_many_shards(shards));
            return Ok(ExitCode::Usage);
        }
        if !config.quiet {
            say_job_notes(config, &job, n, fixed);
        }
        // The sizes of the tasks: what the ETA follows, what shards are dealt by, and what
        // lets the largest tasks start first.
        job.estimate_weights()?;
        if config.estimate {
            let setup = started.elapsed();
            let shown = SampleBar::new(config.progress, n, ESTIMATE_BUDGET);
            let estimate = sample(&mut job);
            shown.finish();
            let estimate = estimate?;
            bar.finish();
            super::report::estimate(&mut out, config.style, &job, &estimate, setup)?;
            continue;
        }
        let mut ran = run_job(config, &counter, &mut job)?;
        bar.finish();
        if config.double_check {
            ran.check = Some(counter.double_check(&job, &ran.values)?);
        }
        // Watched (and held locked) through the double check too: Ctrl-C in its second pass
        // says that the journal is whole and that the same command resumes.
        interrupt::forget_journal();
        if let Some(error) = job.gpu_fallback.get() {
            say!("warning: {error}; the CPU counted instead");
        }
        if let Some((index, shards)) = config.shard {
            write_shard(&mut out, &job, index, shards, &ran)?;
        } else if !write_count(&mut out, config, &reporter, &counter, &job, &ran, started)? {
            code = ExitCode::Failure;
        }
        // Said once the result is out, so a full disk never costs the count itself.
        // A wrong count outranks a lost file.
        let kept = not_kept(&ran.not_kept);
        if code == ExitCode::Success {
            code = kept;
        }
    }
    Ok(code)
}

/// Says what the job does otherwise than asked: another split depth than `--split-depth`,
/// another engine than the join engine under `--max-memory`.
fn say_job_notes(config: &CountConfig, job: &Job, n: u32, fixed: u64) {
    if let Some(depth) = config.split_depth.filter(|&d| d != job.split_depth) {
        // Said, never done silently; `--json`'s split_depth is the real one.
        say!(
            "note: --split-depth {depth} {}: it splits at depth {}",
            depth_changed(job, depth),
            job.split_depth
        );
    }
    say_memory_fallback(config, job, n, fixed);
}

/// `--estimate`'s prediction of the job's cost, from a sample of its parts within
/// [`ESTIMATE_BUDGET`].
fn sample(job: &mut Job) -> Result<Estimate> {
    // Each part timed by its thread's processor time where there is one: other work on the
    // machine then barely changes the figure.
    Ok(if memory::thread_cpu_time().is_some() {
        let clock = || memory::thread_cpu_time().unwrap_or_default();
        job.estimate_with_clock(ESTIMATE_BUDGET, &clock)?
    } else {
        job.estimate(ESTIMATE_BUDGET)?
    })
}

/// Writes the shard result of a `--shard` run (one JSON line), for `merge`.
fn write_shard(
    out: &mut impl Write,
    job: &Job,
    index: usize,
    shards: usize,
    ran: &Ran,
) -> Result<()> {
    let units = ran.units(job)?;
    let ids = ran.values.keys().copied().collect();
    let result = ShardResult::new(job, index, shards, ids, units);
    serde_json::to_writer(&mut *out, &result)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// Writes the count of a whole run as `config` asks, says how many MPI ranks took part, and
/// whether it disagrees with the known count: false if it does.
fn write_count(
    out: &mut impl Write,
    config: &CountConfig,
    reporter: &Reporter,
    counter: &Counter,
    job: &Job,
    ran: &Ran,
    started: Instant,
) -> Result<bool> {
    let count = counter.finish(job, ran.units(job)?);
    let mut row = Row::of_count(&count, started.elapsed(), ran.ranks);
    if let Some(check) = &ran.check {
        row = row.with_double_check(check);
    }
    reporter.row(out, &row)?;
    if let (Some(ranks), None) = (row.ranks(), config.shard)
        && config.style == super::config::OutputStyle::Plain
    {
        match ranks {
            1 => say!("1 MPI rank took part (rank 0 counting every task)"),
            _ => say!("{ranks} MPI ranks took part (rank 0 dealing out the tasks)"),
        }
    }
    let agrees = match row.mismatch() {
        Some(message) => {
            say!("error: {message}");
            false
        }
        None => true,
    };
    out.flush()?;
    Ok(agrees & said_double_check(config, &count, ran.check.as_ref()))
}

/// Says how a double check went, if one was made: whether the second way agrees, or which
/// tasks differ (an error); false if it disagrees.
fn said_double_check(config: &CountConfig, count: &Count, check: Option<&DoubleCheck>) -> bool {
    let Some(check) = check else {
        return true;
    };
    if check.agrees(count.solutions) {
        if !config.quiet && config.style != super::config::OutputStyle::Json {
            say!(
                "double-checked: n = {}, {} counted the same {} solutions",
                count.n,
                check.way.describe(),
                count.solutions
            );
        }
        return true;
    }
    let tasks = match check.differing.len() {
        0 => String::new(),
        k => {
            let shown: Vec<String> = check
                .differing
                .iter()
                .take(10)
                .map(|t| t.to_string())
                .collect();
            let more = if k > 10 {
                format!(" and {} more", k - 10)
            } else {
                String::new()
            };
            format!("; tasks {}{more} differ", shown.join(", "))
        }
    };
    say!(
        "error: the double check of n = {} disagrees: {} solutions the first way, {} the \
         second ({}){tasks}",
        count.n,
        count.solutions,
        check.solutions,
        check.way.describe()
    );
    false
}

/// Says each file a run could not keep; the exit code for them ([`ExitCode::NotKept`]), or
/// success when there are none.
fn not_kept(errors: &[anyhow::Error]) -> ExitCode {
    for error in errors {
        say!("error: {error:#}");
    }
    if errors.is_empty() {
        ExitCode::Success
    } else {
        ExitCode::NotKept
    }
}

/// Why `job` splits at another depth than the `asked` one, for the note that says so: the
/// board's rows (a depth past what the engine places in advance, or below the two rows an
/// odd board's mirror split needs), or the cap on a plan's tasks.
fn depth_changed(job: &Job, asked: u32) -> String {
    let (n, engine) = (job.n, job.engine.name());
    let board = Plan::clamp_depth(n, job.engine, asked).unwrap_or(job.split_depth);
    let capped = Plan::effective_depth(n, job.engine, asked).unwrap_or(job.split_depth);
    if job.split_depth < capped {
        format!("would make more tasks at n = {n} than --max-memory holds")
    } else if job.split_depth < board {
        format!(
            "would make more than {} tasks at n = {n}, the most a plan holds",
            Plan::MAX_TASKS
        )
    } else if asked < job.split_depth {
        format!("is shallower than the {engine} engine splits n = {n}")
    } else {
        format!("is deeper than the {engine} engine splits n = {n}")
    }
}

/// The counter `config` asks for, reporting progress to `update`; `fixed` is what the
/// process takes besides the engine's data ([`fixed_overhead`]).
fn counter<'a>(
    config: &CountConfig,
    update: &'a (dyn Fn(Progress) + Sync),
    fixed: u64,
) -> Counter<'a> {
    let mut counter = Counter::new()
        .engine(config.engine)
        .unique(config.unique)
        .on_progress(update);
    if let Some(limit) = &config.max_memory {
        // A sixteenth of the limit is left for the allocator's slack (n = 20 under 120 MiB
        // peaked 0.05 MiB over without).
        counter = counter
            .max_memory(engine_share(limit.bytes, fixed))
            .thread_memory(memory::THREAD_OVERHEAD);
    }
    if let Some(threads) = config.threads {
        counter = counter.threads(threads);
    }
    if let Some(depth) = config.split_depth {
        counter = counter.split_depth(depth);
    }
    if let Some(name) = &config.gpu_adapter {
        counter = counter.gpu_adapter(name);
    }
    counter
}

/// What the process takes besides the engine's data and its worker threads: what it holds
/// already. The threads are counted for those the run will have, no more than its tasks: the
/// join engine's by the library ([`Counter::thread_memory`]), the search's in [`prepare`].
fn fixed_overhead() -> u64 {
    memory::resident_bytes().unwrap_or(16 << 20)
}

/// The job of board size `n`; a memory limit too small for the join engine is answered with
/// the least limit that is enough (the engine's data, `fixed`, and the sixteenth of slack),
/// and one below what the program itself takes, whatever the engine, is refused likewise.
fn prepare(config: &CountConfig, counter: &Counter, n: u32, fixed: u64) -> Result<Job> {
    let job = match (counter.prepare(n), &config.max_memory) {
        (Err(nqueens::Error::Memory { needed, table }), Some(limit)) => {
            bail!(
                "--max-memory {} is too little for the join engine at n = {n}: it needs at least \
                 {} (its quarter table {}, the rest for its pieces, the program and its \
                 threads); raise it or use --engine search",
                limit.text,
                memory::show(named_limit(needed, fixed)),
                memory::show(table),
            )
        }
        (job, _) => job?,
    };
    // The join engine's least limit counts the program and its threads already; the
    // search's data is next to nothing, but the program and its threads are not: those the
    // run has, no more than its tasks (`-j 1024` runs 130 threads at n = 12).
    let least = least_limit(memory::THREAD_OVERHEAD * job.threads as u64, fixed);
    if let Some(limit) = config.max_memory.as_ref().filter(|l| l.bytes < least) {
        bail!(
            "--max-memory {} is less than the program itself takes: it needs at least {} here \
             (its code, its data and its worker threads); raise it",
            limit.text,
            memory::show(named_limit(
                memory::THREAD_OVERHEAD * job.threads as u64,
                fixed
            )),
        );
    }
    Ok(job)
}

/// Says when `auto` would have taken the join engine but `--max-memory` is too little for it,
/// so the search counts instead (at n = 18 under 24M, 35 s instead of 2 s): with the least
/// limit that would let the join engine count.
fn say_memory_fallback(config: &CountConfig, job: &Job, n: u32, fixed: u64) {
    let Some(limit) = &config.max_memory else {
        return;
    };
    if config.engine != Engine::Auto
        || job.engine == Engine::Join
        || Engine::Auto.settle(n) != Ok(Engine::Join)
    {
        return;
    }
    let join = CountConfig {
        engine: Engine::Join,
        ..config.clone()
    };
    // Only a memory error says that the limit made the choice (a GPU asked for is another
    // reason to leave the join engine).
    if let Err(nqueens::Error::Memory { needed, .. }) = counter(&join, &|_| {}, fixed).prepare(n) {
        say!(
            "note: --max-memory {} is too little for the join engine at n = {n} (it needs at \
             least {}): the search counts instead, which takes longer",
            limit.text,
            memory::show(named_limit(needed, fixed))
        );
    }
}

/// The engine's share of a memory limit when the process takes `fixed` besides: a sixteenth of
/// the limit is kept for the allocator's slack.
fn engine_share(limit: u64, fixed: u64) -> u64 {
    limit.saturating_sub(fixed + limit / 16)
}

/// The least `--max-memory` that leaves the engine `needed` bytes when the process takes
/// `fixed` besides, and a sixteenth of the limit is kept for the allocator (see [`counter`]).
fn least_limit(needed: u64, fixed: u64) -> u64 {
    (needed + fixed).saturating_mul(16).div_ceil(15)
}

/// The limit a message names as the least that is enough: [`least_limit`] with a quarter more
/// of what the process takes besides the engine, in whole MiB. What the process takes is
/// measured as it starts (its resident pages) and differs from run to run by a few percent
/// (n = 16 named 12M on one run and 13M on the next, and a run given 12M could be refused):
/// the value named is enough for every run of the same command, not this one's alone.
fn named_limit(needed: u64, fixed: u64) -> u64 {
    least_limit(needed, fixed + fixed / 4).next_multiple_of(1 << 20)
}

/// What one board size's run produced: the value of every task it covers.
struct Ran {
    values: BTreeMap<usize, u128>,
    /// How many MPI ranks took part, for a distributed count.
    ranks: Option<usize>,
    /// The files the run was to keep and could not write (the journal on a full disk, say):
    /// said after the result, which is printed all the same.
    not_kept: Vec<anyhow::Error>,
    /// What `--double-check` counted the second way.
    check: Option<DoubleCheck>,
}

impl Ran {
    /// The sum of the tasks' values of `job`, checked: those a journal held were read from a
    /// file, those an MPI rank sent came over the network, and no task can hold more than
    /// the whole board.
    fn units(&self, job: &Job) -> Result<u128> {
        let most = checkpoint::RunIdentity::of(job, None).most_units();
        if let Some((task, value)) = self.values.iter().find(|&(_, &value)| value > most) {
            bail!(
                "task {task}'s value {value} is more than any task of this run can hold ({most} \
                 at most): the node that counted it is at fault"
            );
        }
        checkpoint::total_units(self.values.values())
            .ok_or_else(|| anyhow::anyhow!("the tasks' values add up past 2^128"))
    }
}

/// Runs the tasks of `job` that this command covers (all, or one shard's), resuming from and
/// recording to the checkpoint journal when there is one, and writes the subtotals file. A
/// journal or subtotals file that fails once counting has begun does not throw the count away:
/// its error is kept in [`Ran::not_kept`].
fn run_job(config: &CountConfig, counter: &Counter, job: &mut Job) -> Result<Ran> {
    let cluster = if config.mpi {
        Some(Cluster::join(counter, job)?)
    } else {
        None
    };
    let ids: Vec<usize> = match config.shard {
        Some((index, shards)) => job.shard(index, shards)?,
        None => (0..job.plan.len()).collect(),
    };
    // Opened (and locked) before anything is counted: a second run writing the same file is
    // refused now, not after hours of counting.
    let mut subtotals = match &config.subtotals {
        Some(path) => Some((path, Output::open(Some(path))?)),
        None => None,
    };
    let checkpoint = match &config.checkpoint {
        Some(path) => Some(Checkpoint::open(
            path,
            job,
            config.shard,
            &ids,
            &host_name(),
        )?),
        None => None,
    };
    if let Some(checkpoint) = &checkpoint {
        interrupt::watch_journal(checkpoint.journal());
    }
    // A record that cannot be written is kept by the checkpoint and said by `close`.
    let (values, ranks) = match &cluster {
        Some(cluster) => {
            let distributed = cluster.count_recorded(counter, job, &ids, checkpoint.as_ref())?;
            (distributed.values, Some(distributed.ranks))
        }
        None => match &checkpoint {
            Some(checkpoint) => (checkpoint.run(counter, job, &ids)?, None),
            None => {
                let values = counter.run(job, &ids, &|_, _| {})?;
                (ids.into_iter().zip(values).collect(), None)
            }
        },
    };
    let mut not_kept = Vec::new();
    if let Some(checkpoint) = &checkpoint
        && let Err(e) = checkpoint.close()
    {
        not_kept.push(e.into());
    }
    if let Some((path, mut output)) = subtotals.take() {
        let node = if cluster.is_some() {
            "mpi".to_string()
        } else {
            host_name()
        };
        let text = checkpoint::subtotals(job, config.shard, &values, &node);
        let written = match output.writer().write_all(text.as_bytes()) {
            Ok(()) => output.finish(),
            Err(e) => {
                Err(anyhow::Error::new(e).context(format!("cannot write {}", path.display())))
            }
        };
        if let Err(e) = written {
            not_kept.push(e);
        }
    }
    Ok(Ran {
        values,
        ranks,
        not_kept,
        check: None,
    })
}

/// The outcome of a count over MPI ranks, as rank 0 sees it.
struct Distributed {
    values: BTreeMap<usize, u128>,
    ranks: usize,
}

/// The name of this machine, which journals and subtotals files keep beside the tasks it
/// counts (so that an audit can name a bad node): the kernel's host name, else `HOSTNAME`.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "this-node".to_string())
}

/// This process's place in an MPI job.
struct Cluster {
    #[cfg(feature = "mpi")]
    universe: mpi::environment::Universe,
    /// Every rank's host name, by rank (rank 0's list; gathered when the ranks join).
    #[cfg(feature = "mpi")]
    names: Vec<String>,
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
        if let Some(launched) = nqueens::cluster::launcher_ranks()
            && launched > 1
            && world.size() == 1
        {
            say!(
                "warning: the launcher started {launched} ranks, but this program sees only one: \
                     it was probably built against another MPI library than the launcher's"
            );
        }
        let names = nqueens::cluster::node_names(&world, &host_name());
        if world.rank() != 0 {
            nqueens::cluster::count(counter, job, &[], &BTreeMap::new(), &world, &|_, _, _| {})?;
            // Leave MPI properly before exiting: rank 0 reports.
            drop(universe);
            std::process::exit(0);
        }
        Ok(Cluster { universe, names })
    }

    #[cfg(not(feature = "mpi"))]
    fn join(_: &Counter, _: &Job) -> Result<Cluster> {
        bail!("this build has no MPI support: rebuild with `--features mpi`")
    }

    /// Rank 0's side of the count: deals out `ids` (less those the journal holds), gathers
    /// the values, and records each in the journal under the node of the rank that counted
    /// it (`HOST:rankR`, each named once before any of its records).
    #[cfg(feature = "mpi")]
    fn count_recorded(
        &self,
        counter: &Counter,
        job: &Job,
        ids: &[usize],
        checkpoint: Option<&Checkpoint>,
    ) -> Result<Distributed> {
        let world = self.universe.world();
        let nodes = match checkpoint {
            Some(checkpoint) => self
                .names
                .iter()
                .enumerate()
                .map(|(rank, name)| checkpoint.add_node(&format!("{name}:rank{rank}")))
                .collect::<Result<Vec<u32>, _>>()?,
            None => Vec::new(),
        };
        let record = |id, value, rank: usize| {
            if let Some(checkpoint) = checkpoint {
                checkpoint.record_on(id, value, nodes[rank]);
            }
        };
        let none = BTreeMap::new();
        let done = checkpoint.map_or(&none, Checkpoint::done);
        let result = nqueens::cluster::count(counter, job, ids, done, &world, &record)?
            .expect("rank 0 gets the result");
        Ok(Distributed {
            values: result.values,
            ranks: result.ranks,
        })
    }

    #[cfg(not(feature = "mpi"))]
    fn count_recorded(
        &self,
        _: &Counter,
        _: &Job,
        _: &[usize],
        _: Option<&Checkpoint>,
    ) -> Result<Distributed> {
        match self.none {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: `count 16 --max-memory 1M` named 12M on one run and 13M on the next, as
    /// the program's own pages, measured at each start, differed; a run given the value one
    /// run named could be refused. The value named holds the least of a run that takes up to
    /// a fifth more, and is a whole number of MiB, as it is printed.
    #[test]
    fn the_limit_named_was_not_enough_for_the_next_run() {
        for (needed, fixed) in [
            (0, 11_700_000),
            (3 << 20, 12_400_000),
            (5_244 << 20, 17 << 20),
        ] {
            let named = named_limit(needed, fixed);
            assert_eq!(named % (1 << 20), 0);
            assert!(
                named >= least_limit(needed, fixed + fixed / 5),
                "{needed} {fixed}"
            );
            assert_eq!(memory::show(named), format!("{}M", named >> 20));
        }
    }

    #[test]
    fn the_least_limit_is_enough_and_no_more_than_a_fifteenth_over() {
        for (needed, fixed) in [
            (1, 0),
            (14 << 20, 9 << 20),
            (5_244 << 20, 17 << 20),
            (999, 7),
        ] {
            let least = least_limit(needed, fixed);
            assert!(engine_share(least, fixed) >= needed, "{needed} {fixed}");
            assert!(
                least - (needed + fixed) <= (needed + fixed) / 15 + 1,
                "{needed} {fixed}"
            );
        }
    }
}
