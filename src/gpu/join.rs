//! The join engine on a GPU: the host makes each task's half-boards and indexes exactly as
//! the CPU join does ([`crate::join::Plan::run_part_with`]); instead of counting an east
//! piece against the west piece's index, it copies the index's tables (once per west piece)
//! and the queries' rests into a batch, with one work item per group and run of
//! queries that can pair ([`Index::each_pairing`]); the device counts the items
//! (`join.wgsl`), and the host adds each item's pairs to its task, times the multiplicity of
//! its layouts. A task's value is thus the CPU join's, pair for pair.
//!
//! Batches are double-buffered: the device counts one while the host thread fills the next,
//! and waits for that one only. Each of the two has device buffers of its own, kept from one
//! batch to the next ([`JoinBuffers`]): the host writes a batch into one that maps, which
//! the shader reads as it is where the device's memory is the host's. An item the device
//! did not go through to its end (a driver's loop cap, a lost device) makes the whole count
//! an error, never a smaller number.

use super::device::{Device, JoinBuffers, Submitted};
use super::layout::{JoinItem, JoinRun};
use crate::error::Error;
use crate::join::{Gather, Index, Pairing, Pairs, Plan};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// The most queries in one item, and the most runs they come in: at most some 1,300 loop
/// iterations an invocation (`join.wgsl`; lavapipe stops at 65,535) and at most 2^22 pairs
/// an item (its count is 32 bits).
const ITEM_QUERIES: u32 = 8_192;
const ITEM_RUNS: u32 = 256;

/// The most items in one batch (16 bytes each, 8 bytes of result).
const BATCH_ITEMS: usize = 1 << 20;

/// The bytes of tables, of rests, and of runs a batch is sent at: several units at
/// n = 16 to 20. One piece's may be more, up to the device's limit on one binding. A host
/// thread holds its batch and the device buffers of two
/// ([`crate::join::DEVICE_BATCH_BYTES`] in all, which a memory limit counts). Smaller batches
/// ran faster on lavapipe, whose shader runs on the host's cores and caches (n = 16, means of
/// eight runs: 2 MiB 473 ms; 1 MiB 495 ms; 8 MiB 528 ms; 512 KiB 521 ms).
const BATCH_BYTES: usize = (crate::join::DEVICE_BATCH_BYTES / 16) as usize;

/// The most words of one binding the host fills: row offsets stay far within 32 bits.
const MOST_WORDS: usize = (u32::MAX / 8) as usize;

/// What one batch holds.
#[derive(Default)]
struct Batch {
    /// The groups' tables of the indexes it reads, 16 words a row.
    tables: Vec<u32>,
    /// The queries' rests, two words each.
    rests: Vec<u32>,
    items: Vec<JoinItem>,
    runs: Vec<JoinRun>,
    /// Per item: the task slot it counts for, how many times its pairs count, and its
    /// queries.
    owners: Vec<Owner>,
}

/// What an item's pairs count for.
#[derive(Clone, Copy)]
struct Owner {
    slot: u32,
    multiplicity: u32,
    queries: u32,
}

impl Batch {
    /// Whether it has items to dispatch.
    fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Whether it holds anything at all (tables and rests of pieces without pairings too).
    fn holds_anything(&self) -> bool {
        !(self.items.is_empty() && self.tables.is_empty() && self.rests.is_empty())
    }

    /// Empties it, keeping its buffers for the next batch.
    fn clear(&mut self) {
        self.tables.clear();
        self.rests.clear();
        self.items.clear();
        self.runs.clear();
        self.owners.clear();
    }
}

/// A dispatch on the device with what its items count for.
struct InFlight {
    submitted: Submitted,
    owners: Vec<Owner>,
}

/// The [`Pairs`] of a count on the device: fills batches, sends each when it is full, and
/// takes in the one before while the device counts the next.
struct Feeder<'d> {
    device: &'d Device,
    /// The words of tables or of rests a batch is sent at, and the most one may hold.
    words: usize,
    most_words: usize,
    batch: Batch,
    /// The index whose tables the batch holds last: its build and its first row there.
    current: Option<(u64, u32)>,
    in_flight: Option<InFlight>,
    /// The device buffers of the two batches in turn: the one in flight and the next.
    kept: [JoinBuffers; 2],
    turn: usize,
    /// The task slot being generated.
    slot: u32,
    /// Per task slot: the pairs counted so far, and the items not yet back.
    values: Vec<u128>,
    pending: Vec<usize>,
    /// The first error; once set, nothing more is sent.
    error: Option<Error>,
    /// Scratch: one east piece's pairings, (group, first query, last query, weight: 1 or 2
    /// where the transposition weighs pairs, `Pairing::weigh`).
    pairings: Vec<(u32, u32, u32, u32)>,
    /// Read before each east piece: set, the count ends with [`Error::Cancelled`].
    cancel: Option<&'d AtomicBool>,
}

impl Pairs for Feeder<'_> {
    // Each index's tables go into the batch: one index a west piece, as the device's
    // batches were sized and measured for.
    const SWAPS: bool = false;

    fn count<G: Gather>(
        &mut self,
        gather: G,
        index: &mut Index,
        east: &[u64],
        multiplicity: u32,
    ) -> u128 {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.error.get_or_insert(Error::Cancelled);
        }
        if self.error.is_some() || east.is_empty() {
            return 0;
        }
        index.prepare_query_rests(gather, east);
        self.pairings.clear();
        index.each_pairing(&mut Collect(&mut self.pairings, 1));
        // What the piece adds, in words: its index's tables unless the batch holds them, its
        // rests, and its runs (at most one per pairing and per item's worth of queries).
        let table_words = index.tables(gather).len() * 16;
        let rest_words = 2 * index.query_rests().len();
        let queries = self.pairings.iter().map(|&(_, f, l, _)| (l - f) as usize);
        let run_words = 2 * (self.pairings.len() + queries.sum::<usize>() / ITEM_QUERIES as usize);
        if [table_words, rest_words, run_words]
            .iter()
            .any(|&w| w > self.most_words)
        {
            self.error = Some(Error::Gpu(format!(
                "a piece of this board's half-boards needs {} MiB, more than a dispatch on {} \
                 holds",
                (table_words.max(rest_words).max(run_words) * 4) >> 20,
                self.device.name()
            )));
            return 0;
        }
        let fresh = self.current.map(|(build, _)| build) != Some(index.builds());
        let batch = &self.batch;
        let over = batch.tables.len() + if fresh { table_words } else { 0 } > self.words
            || batch.rests.len() + rest_words > self.words
            || 2 * batch.runs.len() + run_words > self.words
            || batch.items.len() + run_words / 2 > BATCH_ITEMS;
        if over && batch.holds_anything() {
            self.send();
            if self.error.is_some() {
                return 0;
            }
        }
        let table = match self.current {
            Some((build, first)) if build == index.builds() => first,
            _ => {
                let first = (self.batch.tables.len() / 16) as u32;
                self.batch
                    .tables
                    .extend_from_slice(bytemuck::cast_slice(index.tables(gather)));
                self.current = Some((index.builds(), first));
                first
            }
        };
        self.add(index, table, multiplicity);
        0
    }
}

/// Collects an index's pairings, each with its weight.
struct Collect<'v>(&'v mut Vec<(u32, u32, u32, u32)>, u32);

impl Pairing for Collect<'_> {
    fn pair(&mut self, group: usize, first: usize, last: usize) {
        self.0
            .push((group as u32, first as u32, last as u32, self.1));
    }

    fn weigh(&mut self, weight: u64) {
        self.1 = weight as u32;
    }
}

/// Where one east piece's work goes in a batch.
struct Piece {
    /// The index's first row in the batch's tables, and its rows per group.
    table: u32,
    per_group: u32,
    /// The piece's first query's rest in the batch's rests (two words a query), and the
    /// rests' bits and chunks ([`Index::rest_width`]).
    rests: u32,
    rest_width: (u32, usize),
    slot: u32,
    multiplicity: u32,
}

impl Piece {
    /// Appends the items of one group's `pairings` (group, first query, last query): its
    /// runs of queries, cut into items of at most [`ITEM_QUERIES`] queries in at most
    /// [`ITEM_RUNS`] runs. The group holds `members` half-boards: a query need not read the
    /// quarters of a row past them (a tenth of all at n = 16 and 18).
    fn emit(&self, batch: &mut Batch, pairings: &[(u32, u32, u32, u32)], members: usize) {
        let Some(&(group, _, _, _)) = pairings.first() else {
            return;
        };
        let runs = pairings.iter().flat_map(|&(_, first, last, _)| {
            (first..last)
                .step_by(ITEM_QUERIES as usize)
                .map(move |start| (start, (last - start).min(ITEM_QUERIES)))
        });
        let mut open: Option<JoinItem> = None;
        for (start, queries) in runs {
            if let Some(item) = open.filter(|item| {
                batch.runs.len() as u32 - item.first_run == ITEM_RUNS
                    || item.count + queries > ITEM_QUERIES
            }) {
                self.close(batch, item);
                open = None;
            }
            let item = open.get_or_insert(JoinItem {
                table: self.table + group * self.per_group,
                first_run: batch.runs.len() as u32,
                count: 0,
                shape: JoinItem::shape(self.rest_width.1, self.rest_width.0, members),
            });
            item.count += queries;
            batch.runs.push(JoinRun {
                rests: self.rests + start * 2,
                queries,
            });
        }
        if let Some(item) = open {
            self.close(batch, item);
        }
    }

    /// Adds a finished item to the batch, with what it counts for.
    fn close(&self, batch: &mut Batch, item: JoinItem) {
        batch.items.push(item);
        batch.owners.push(Owner {
            slot: self.slot,
            multiplicity: self.multiplicity,
            queries: item.count,
        });
    }
}

impl<'d> Feeder<'d> {
    /// A feeder for `slots` tasks.
    fn new(device: &'d Device, slots: usize, cancel: Option<&'d AtomicBool>) -> Feeder<'d> {
        let most_words = usize::try_from(device.binding_bytes() / 4)
            .unwrap_or(usize::MAX)
            .min(MOST_WORDS);
        Feeder {
            device,
            words: (BATCH_BYTES / 4).min(most_words),
            most_words,
            batch: Batch::default(),
            current: None,
            in_flight: None,
            kept: Default::default(),
            turn: 0,
            slot: 0,
            values: vec![0; slots],
            pending: vec![0; slots],
            error: None,
            pairings: Vec::new(),
            cancel,
        }
    }

    /// Adds an east piece's rests and items to the batch, which holds its index's tables
    /// from row `table` on.
    fn add(&mut self, index: &Index, table: u32, multiplicity: u32) {
        let rests = self.batch.rests.len() as u32;
        // Each rest as two words, the low one first.
        let words = index.query_rests().iter();
        self.batch
            .rests
            .extend(words.flat_map(|&rest| [rest as u32, (rest >> 32) as u32]));
        // One item per group and weight (or more, past its limits), with every run that
        // pairs with it: an item's pairs count its weight times the layouts' multiplicity.
        self.pairings
            .sort_by_key(|&(group, _, _, weight)| (weight, group));
        let before = self.batch.items.len();
        for weighed in self.pairings.chunk_by(|a, b| a.3 == b.3) {
            let piece = Piece {
                table,
                per_group: index.rows_per_group() as u32,
                rests,
                rest_width: index.rest_width(),
                slot: self.slot,
                multiplicity: multiplicity * weighed[0].3,
            };
            for same in weighed.chunk_by(|a, b| a.0 == b.0) {
                let members = index.group_members(same[0].0 as usize);
                piece.emit(&mut self.batch, same, members);
            }
        }
        self.pending[self.slot as usize] += self.batch.items.len() - before;
    }

    /// Sends what is left and takes in every dispatch; the first error, if any.
    fn finish(&mut self) -> Result<(), Error> {
        // The last batch, then the one still in flight.
        self.send();
        self.send();
        self.error.take().map_or(Ok(()), Err)
    }

    /// Sends the batch (if it holds anything), then takes in the one before it. The device
    /// has its own copy once it is sent: the batch's buffers are filled again at once.
    fn send(&mut self) {
        self.current = None;
        let submitted = if self.batch.is_empty() {
            None
        } else {
            let batch = &self.batch;
            // The buffers of the batch sent the time before last: its results are in.
            let kept = &mut self.kept[self.turn];
            self.turn ^= 1;
            match self.device.submit_join(
                kept,
                &batch.items,
                &batch.runs,
                &batch.tables,
                &batch.rests,
            ) {
                Ok(submitted) => Some(InFlight {
                    submitted,
                    owners: batch.owners.clone(),
                }),
                Err(error) => {
                    self.error.get_or_insert(error);
                    return;
                }
            }
        };
        self.batch.clear();
        if let Some(previous) = std::mem::replace(&mut self.in_flight, submitted)
            && let Err(error) = self.take_in(previous)
        {
            self.error.get_or_insert(error);
        }
    }

    /// Adds a finished dispatch's pairs to its tasks; refuses it unless every item went
    /// through all its queries.
    fn take_in(&mut self, done: InFlight) -> Result<(), Error> {
        let results = self.device.wait(done.submitted)?;
        for (owner, &[pairs, seen]) in done.owners.iter().zip(&results) {
            if seen != owner.queries {
                return Err(Error::Gpu(format!(
                    "{} stopped a pair count before it finished (a driver limit on loop \
                     iterations?); the result is refused",
                    self.device.name()
                )));
            }
            let slot = owner.slot as usize;
            self.values[slot] += u128::from(pairs) * u128::from(owner.multiplicity);
            self.pending[slot] -= 1;
        }
        Ok(())
    }
}

/// Counts the tasks `ids` of the join engine's `plan` with the pairs counted on `device`, the
/// half-boards made on `threads` host threads (each with its own batches, taking the next
/// task as it finishes one); returns their values in the order of `ids` (those [`Plan::run`]
/// gives). `on_task(id, value)` is called on the calling thread as each task's last item
/// comes back; `cancel` is read before each piece of half-boards.
pub(crate) fn run(
    device: &Device,
    plan: &Plan,
    ids: &[usize],
    on_task: &mut dyn FnMut(usize, u128),
    cancel: &AtomicBool,
    threads: usize,
) -> Result<Vec<u128>, Error> {
    let next = AtomicUsize::new(0);
    // Set by a host thread that fails, so that the others stop too.
    let stop = AtomicBool::new(false);
    let (done, finished) = mpsc::channel::<(usize, u128)>();
    let mut values = vec![0u128; ids.len()];
    let mut received = 0;
    let outcomes = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.clamp(1, ids.len().max(1)))
            .map(|_| {
                let done = done.clone();
                let work = Work {
                    device,
                    plan,
                    ids,
                    next: &next,
                    cancel,
                    stop: &stop,
                };
                scope.spawn(move || {
                    let outcome = work.feed(&done);
                    if outcome.is_err() {
                        work.stop.store(true, Ordering::Relaxed);
                    }
                    outcome
                })
            })
            .collect();
        drop(done);
        // Every task as it finishes, until every host thread has ended.
        for (slot, value) in finished {
            values[slot] = value;
            received += 1;
            on_task(ids[slot], value);
        }
        workers
            .into_iter()
            .map(|worker| {
                worker.join().unwrap_or_else(|_| {
                    Err(Error::Gpu(
                        "a host thread of the GPU's join panicked".into(),
                    ))
                })
            })
            .collect::<Vec<_>>()
    });
    // A failure is the count's error; a cancellation only when nothing failed.
    let mut errors: Vec<Error> = outcomes.into_iter().filter_map(Result::err).collect();
    errors.sort_by_key(|e| *e == Error::Cancelled);
    match errors.into_iter().next() {
        Some(error) => Err(error),
        None if received != ids.len() => Err(Error::Gpu(format!(
            "{} counted {received} of {} tasks",
            device.name(),
            ids.len()
        ))),
        None => Ok(values),
    }
}

/// What each host thread of [`run`] shares.
#[derive(Clone, Copy)]
struct Work<'a> {
    device: &'a Device,
    plan: &'a Plan,
    ids: &'a [usize],
    /// The next task slot to take.
    next: &'a AtomicUsize,
    cancel: &'a AtomicBool,
    stop: &'a AtomicBool,
}

impl Work<'_> {
    /// Takes tasks until there are none left, sending each one's (slot, value) to `done`
    /// once its items are back.
    fn feed(&self, done: &mpsc::Sender<(usize, u128)>) -> Result<(), Error> {
        let mut feeder = Feeder::new(self.device, 0, Some(self.cancel));
        // The task slot of each of the feeder's slots; the feeder's slots waiting for items.
        let mut slots = Vec::new();
        let mut waiting = Vec::new();
        loop {
            if self.cancel.load(Ordering::Relaxed) {
                return Err(Error::Cancelled);
            }
            let slot = self.next.fetch_add(1, Ordering::Relaxed);
            if slot >= self.ids.len() || self.stop.load(Ordering::Relaxed) {
                break;
            }
            let id = self.ids[slot];
            feeder.slot = slots.len() as u32;
            feeder.values.push(0);
            feeder.pending.push(0);
            slots.push(slot);
            for part in 0..self.plan.parts(id) {
                let here = self.plan.run_part_with(id, part, &mut feeder);
                feeder.values[feeder.slot as usize] += here;
            }
            if let Some(error) = feeder.error.take() {
                return Err(error);
            }
            waiting.push(feeder.slot as usize);
            report(&feeder, &slots, &mut waiting, done);
        }
        feeder.finish()?;
        report(&feeder, &slots, &mut waiting, done);
        if waiting.is_empty() {
            Ok(())
        } else {
            Err(Error::Gpu(format!(
                "{} did not give back every pair count of {} tasks",
                self.device.name(),
                waiting.len()
            )))
        }
    }
}

/// The wall-clock time part `part` of task `id` of the join engine's `plan` takes alone on
/// `device`: its half-boards made and indexed on this thread, then its pairs counted there
/// (a run overlaps the two, so a sample of parts timed so is an upper bound of the run's
/// time; [`crate::Job::estimate`] with a GPU).
pub(crate) fn time_part(
    device: &Device,
    plan: &Plan,
    id: usize,
    part: usize,
) -> Result<std::time::Duration, Error> {
    let start = std::time::Instant::now();
    let mut feeder = Feeder::new(device, 1, None);
    std::hint::black_box(plan.run_part_with(id, part, &mut feeder));
    feeder.finish()?;
    std::hint::black_box(feeder.values[0]);
    Ok(start.elapsed())
}

/// Sends the waiting tasks whose items are all back to `done`, as (task slot, value).
fn report(
    feeder: &Feeder,
    slots: &[usize],
    waiting: &mut Vec<usize>,
    done: &mpsc::Sender<(usize, u128)>,
) {
    waiting.retain(|&local| {
        let back = feeder.pending[local] == 0;
        if back {
            // The receiver lives until every host thread has ended.
            let _ = done.send((slots[local], feeder.values[local]));
        }
        !back
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rests of up to 38 bits (few half-boards to index, so few cuts): the shader's chunks
    /// in the low word, across the two and in the high word give the pairs the CPU counts.
    #[test]
    fn wide_rests_give_the_cpu_s_pairs() {
        let Some(device) = super::super::device::test_device() else {
            return;
        };
        let mut widths = Vec::new();
        for (west, east) in [(1, 50), (40, 700), (300, 900), (700, 300), (5000, 2000)] {
            let mut feeder = Feeder::new(&device, 1, None);
            let (expected, width) = crate::join::pairs_of_patterns(west, east, &mut feeder);
            feeder.finish().unwrap();
            assert_eq!(feeder.values[0], u128::from(expected), "{west} x {east}");
            assert!(expected > 0, "{west} x {east}");
            widths.push(width);
        }
        assert!(widths.iter().any(|&w| w >= 38), "{widths:?}");
    }
}
