//! Counting across machines with MPI (cargo feature `mpi`): the tasks of a plan dealt out
//! dynamically by rank 0, each other rank counting its batches on all of its cores.
//!
//! Rank 0 coordinates: it answers every request with the next batch of task numbers (a few
//! per worker thread), so that a slow or busy rank simply asks less often and nobody waits
//! for it at the end more than one batch. A worker's request carries the results of its last
//! batch. When the tasks run out, each worker is told to stop; rank 0 then has every task's
//! value. With one rank, rank 0 counts everything itself.
//!
//! Messages are vectors of `u64`: a request is `[threads, id, low, high, id, low, high, ...]`
//! (a value in two halves), an answer is the list of task numbers, empty for "stop".

use crate::error::Error;
use crate::run::counter::Counter;
use crate::run::job::Job;
use mpi::traits::{Communicator, Destination, Source};
use std::collections::{BTreeMap, VecDeque};

/// Tasks per worker thread in a batch.
const TASKS_PER_THREAD: usize = 2;

/// What rank 0 knows at the end of a distributed count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distributed {
    /// Every task's value (those given in `done` included).
    pub values: BTreeMap<usize, u128>,
    /// How many ranks took part.
    pub ranks: usize,
    /// How many tasks each rank counted (rank 0: those it counted itself).
    pub tasks_by_rank: Vec<usize>,
}

/// The name of every rank's node, by rank, for the journal to keep beside the tasks each
/// counts: every rank calls it once with its own (a host name, say), before [`count`];
/// rank 0 gets them all, the others an empty list.
pub fn node_names<C: Communicator>(world: &C, name: &str) -> Vec<String> {
    if world.rank() != 0 {
        world.process_at_rank(0).send(name.as_bytes());
        return Vec::new();
    }
    let mut names = vec![name.to_string()];
    for rank in 1..world.size() {
        let (bytes, _) = world.process_at_rank(rank).receive_vec::<u8>();
        names.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    names
}

/// Counts the tasks `ids` of `job` over the ranks of `world`. Every rank calls it with the
/// same job; rank 0 gets `Some` result, the others `None`. Tasks in `done` (from a
/// checkpoint) are not run again; `on_task(id, value, rank)` runs on rank 0 for every task
/// as its value arrives from the rank that counted it.
pub fn count<C: Communicator>(
    counter: &Counter,
    job: &Job,
    ids: &[usize],
    done: &BTreeMap<usize, u128>,
    world: &C,
    on_task: &(dyn Fn(usize, u128, usize) + Sync),
) -> Result<Option<Distributed>, Error> {
    let ranks = world.size() as usize;
    if world.rank() != 0 {
        work(counter, job, world)?;
        return Ok(None);
    }
    // Refused before any task is dealt: a worker given a task the plan lacks would fail
    // alone, and rank 0 would wait for its answer for ever.
    for &id in ids {
        job.plan.check_task(id)?;
    }
    let mut values = done.clone();
    let mut tasks_by_rank = vec![0usize; ranks];
    let mut todo: VecDeque<usize> = ids
        .iter()
        .copied()
        .filter(|id| !done.contains_key(id))
        .collect();
    if ranks == 1 {
        let list: Vec<usize> = todo.into_iter().collect();
        let results = counter.run(job, &list, &|id, value| on_task(id, value, 0))?;
        tasks_by_rank[0] = list.len();
        values.extend(list.into_iter().zip(results));
        return Ok(Some(Distributed {
            values,
            ranks,
            tasks_by_rank,
        }));
    }
    let mut working = ranks - 1;
    while working > 0 {
        let (request, status) = world.any_process().receive_vec::<u64>();
        let source = status.source_rank();
        let threads = request.first().copied().unwrap_or(1).max(1) as usize;
        for record in request[1..].chunks_exact(3) {
            let (id, value) = (
                record[0] as usize,
                u128::from(record[1]) | u128::from(record[2]) << 64,
            );
            on_task(id, value, source as usize);
            values.insert(id, value);
            tasks_by_rank[source as usize] += 1;
        }
        let batch: Vec<u64> = (0..threads * TASKS_PER_THREAD)
            .map_while(|_| todo.pop_front())
            .map(|id| id as u64)
            .collect();
        if batch.is_empty() {
            working -= 1;
        }
        world.process_at_rank(source).send(&batch[..]);
    }
    Ok(Some(Distributed {
        values,
        ranks,
        tasks_by_rank,
    }))
}

/// A worker rank: asks for batches, counts them, and sends back their values.
fn work<C: Communicator>(counter: &Counter, job: &Job, world: &C) -> Result<(), Error> {
    let coordinator = world.process_at_rank(0);
    let mut request = vec![job.threads as u64];
    loop {
        coordinator.send(&request[..]);
        let (batch, _) = coordinator.receive_vec::<u64>();
        if batch.is_empty() {
            return Ok(());
        }
        let ids: Vec<usize> = batch.iter().map(|&id| id as usize).collect();
        let results = counter.run(job, &ids, &|_, _| {})?;
        request = vec![job.threads as u64];
        for (id, value) in ids.into_iter().zip(results) {
            request.extend([id as u64, value as u64, (value >> 64) as u64]);
        }
    }
}

/// The number of ranks the launcher says it started, from the variables that Open MPI,
/// MPICH/PMI and Slurm set, if any.
pub fn launcher_ranks() -> Option<usize> {
    [
        "OMPI_COMM_WORLD_SIZE",
        "PMI_SIZE",
        "PMIX_SIZE",
        "SLURM_NTASKS",
    ]
    .iter()
    .find_map(|name| std::env::var(name).ok()?.parse().ok())
}
