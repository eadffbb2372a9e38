//! Checkpoints: a journal of finished tasks that lets a killed count resume.
//!
//! The journal is a text file. Its first line names the run: board size, engine, split depth,
//! number of tasks, shard and program version, with a checksum. Each later line records one
//! finished task, its value and a checksum of both and of the run's identity:
//!
//! ```text
//! nqueens-checkpoint 2 n=16 engine=search symmetry=full split=2 tasks=356 shard=all version=0.4.0 check=…
//! task 17 38874 9a31c0d54e7f2b10
//! ```
//!
//! A record is written to the file as its task finishes, so a run killed at any moment loses
//! at most the tasks that were running; the file is synced to disk at least once every
//! [`SYNC_INTERVAL`] and when the run ends, so a machine that loses power loses at most the
//! last second's records. (Syncing every record cost a millisecond a task: a second a
//! thousand tasks, at n = 18 a third more time.) On resume, a torn last line (a record
//! cut short by the kill: no line end) is dropped and the file trimmed back to its last whole
//! record; any other damage, a whole line that is not a record of this run included, or a
//! journal of another run, is refused with an error, never mixed in.
//!
//! A journal is locked (an advisory lock, `flock` on Unix) while it is open: a second run on a
//! journal in use is refused at once with [`Error::InUse`], so two runs never write one file.
//!
//! [`Checkpoint`] runs a count's tasks against a journal: it skips what the journal holds and
//! records each task as it finishes. Journals of version 1 (nqueens 0.1.0) are refused: that
//! version named engines otherwise and numbered the join engine's tasks otherwise.

pub use super::record::fnv1a;
use super::record::{check_regular, fnv1a_on};
use crate::engine::Engine;
use crate::error::Error;
use crate::run::counter::Counter;
use crate::run::job::Job;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

const MAGIC: &str = "nqueens-checkpoint 2";
/// The longest a written record waits to be synced to disk.
pub const SYNC_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);
/// The header of the journals of nqueens 0.1.0, which this version refuses.
const MAGIC_V1: &str = "nqueens-checkpoint 1";

/// What a journal belongs to: a resumed run must match it field for field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunIdentity {
    /// Board size.
    pub n: u32,
    /// The engine that counts (settled: never [`Engine::Auto`]).
    pub engine: Engine,
    /// Split depth.
    pub split_depth: u32,
    /// Number of tasks of the whole plan.
    pub tasks: usize,
    /// `(I, K)` for shard I of K; `None` for the whole run.
    pub shard: Option<(usize, usize)>,
    /// The program version (task numbering may change between versions).
    pub version: String,
}

impl RunIdentity {
    /// The identity of `job`, or of its shard `shard`, in this version of the program.
    pub fn of(job: &Job, shard: Option<(usize, usize)>) -> RunIdentity {
        RunIdentity {
            n: job.n,
            engine: job.engine,
            split_depth: job.split_depth,
            tasks: job.plan.len(),
            shard,
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }

    /// The identity as the header writes it (without its checksum).
    fn fields(&self) -> String {
        let symmetry = self
            .engine
            .symmetry()
            .map(|s| format!(" symmetry={}", s.name()))
            .unwrap_or_default();
        let shard = self
            .shard
            .map_or_else(|| "all".to_string(), |(i, k)| format!("{i}/{k}"));
        format!(
            "n={} engine={}{symmetry} split={} tasks={} shard={shard} version={}",
            self.n,
            self.engine.name(),
            self.split_depth,
            self.tasks,
            self.version
        )
    }
}

/// An open journal, ready for appending.
pub struct Journal {
    file: File,
    path: PathBuf,
    identity: String,
    records: usize,
    /// When the file was last synced to disk; `None` while nothing written waits for it.
    synced: Option<std::time::Instant>,
}

impl Journal {
    /// Opens the journal at `path` for the run `identity`: creates it if it does not exist
    /// (or is empty), else checks it and returns the values of the tasks it records.
    pub fn open(
        path: &Path,
        identity: &RunIdentity,
    ) -> Result<(Journal, BTreeMap<usize, u128>), Error> {
        check_regular(path).map_err(Error::Checkpoint)?;
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| Error::checkpoint_io(path, "", e))?;
        // Locked before a byte is read or written, for as long as the journal is open: two
        // runs started at once on one new file would both write a header.
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(Error::InUse(format!(
                    "checkpoint {}: another run is using this journal (it holds its lock); \
                     wait for that run to end, or use another file",
                    path.display()
                )));
            }
            // A file system without locks: the journal works as before.
            Err(std::fs::TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(Error::checkpoint_io(path, "cannot lock it", e));
            }
        }
        let mut text = String::new();
        file.read_to_string(&mut text)
            .map_err(|e| Error::checkpoint_io(path, "cannot read it", e))?;
        let fields = identity.fields();
        let mut journal = Journal {
            file,
            path: path.to_path_buf(),
            identity: fields.clone(),
            records: 0,
            synced: None,
        };
        if text.is_empty() {
            let header = format!("{MAGIC} {fields} check={:016x}\n", fnv1a(&fields));
            journal.write(&header)?;
            journal.sync()?;
            // The new file's name must survive a crash too.
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
                && let Ok(dir) = File::open(dir)
            {
                let _ = dir.sync_all();
            }
            return Ok((journal, BTreeMap::new()));
        }
        let done = journal.read(&text, identity)?;
        journal.records = done.len();
        Ok((journal, done))
    }

    /// Checks the header and the records of an existing journal; trims a torn last line.
    fn read(&mut self, text: &str, identity: &RunIdentity) -> Result<BTreeMap<usize, u128>, Error> {
        let fail = |what: String| Error::Checkpoint(format!("{}: {what}", self.path.display()));
        let Some(header_end) = text.find('\n') else {
            return Err(fail(
                "not a checkpoint journal (no complete header line)".into(),
            ));
        };
        let header = &text[..header_end];
        if header.starts_with(MAGIC_V1) {
            return Err(fail(
                "a journal of nqueens 0.1.0, which named engines and numbered the join \
                 engine's tasks otherwise: finish that run with 0.1.0, or delete the file to \
                 start over"
                    .into(),
            ));
        }
        let Some(rest) = header.strip_prefix(MAGIC) else {
            return Err(fail("not a checkpoint journal of this program".into()));
        };
        let (fields, check) = rest
            .trim()
            .rsplit_once(" check=")
            .ok_or_else(|| fail("damaged header".into()))?;
        if format!("{:016x}", fnv1a(fields)) != check {
            return Err(fail("damaged header (checksum mismatch)".into()));
        }
        let version = |fields: &str| {
            let field = fields.split(' ').find(|f| f.starts_with("version="));
            field.map(|f| f["version=".len()..].to_string())
        };
        if let Some(theirs) = version(fields)
            && version(&self.identity).is_some_and(|ours| ours != theirs)
        {
            return Err(fail(format!(
                "a journal of nqueens {theirs}, whose tasks may be numbered otherwise (this is \
                 {}): finish that run with nqueens {theirs}, or delete the file to start over",
                env!("CARGO_PKG_VERSION")
            )));
        }
        if fields != self.identity {
            return Err(fail(format!(
                "it belongs to another run ({fields}); this run is {}: use another file, or delete it to start over",
                self.identity
            )));
        }
        // Read into a list, sorted and checked once, then made a map in one pass: a journal
        // of n = 28 holds tens of millions of records.
        let mut records = Vec::new();
        let mut offset = header_end + 1;
        let body = &text[offset..];
        let start = fnv1a(&self.identity);
        let mut lines = body.split_inclusive('\n').enumerate().peekable();
        while let Some((i, line)) = lines.next() {
            let last = lines.peek().is_none();
            match record(start, line, identity.tasks) {
                Some(record) => {
                    records.push(record);
                    offset += line.len();
                }
                None if last && !line.ends_with('\n') => {
                    // A record cut short by a kill: drop it, and cut the file back so that
                    // the next record starts on a fresh line.
                    self.file
                        .set_len(offset as u64)
                        .and_then(|()| self.file.seek(SeekFrom::End(0)).map(|_| ()))
                        .map_err(|e| {
                            Error::checkpoint_io(&self.path, "cannot trim its torn last line", e)
                        })?;
                }
                None => {
                    return Err(fail(format!(
                        "damaged record on line {}: {:?}",
                        i + 2,
                        line.trim_end()
                    )));
                }
            }
        }
        records.sort_unstable();
        records.dedup();
        if let Some(pair) = records.windows(2).find(|pair| pair[0].0 == pair[1].0) {
            return Err(fail(format!(
                "task {} is recorded twice with different values",
                pair[0].0
            )));
        }
        Ok(records.into_iter().collect())
    }

    /// Records that task `id` finished with `value`: written at once, synced to disk when the
    /// last sync is [`SYNC_INTERVAL`] old.
    pub fn append(&mut self, id: usize, value: u128) -> Result<(), Error> {
        let check = fnv1a(&format!("{} {id} {value}", self.identity));
        self.write(&format!("task {id} {value} {check:016x}\n"))?;
        self.records += 1;
        if self.synced.is_none_or(|at| at.elapsed() >= SYNC_INTERVAL) {
            self.sync()?;
        }
        Ok(())
    }

    /// Syncs every record written so far to disk.
    pub fn sync(&mut self) -> Result<(), Error> {
        self.file
            .sync_data()
            .map_err(|e| Error::checkpoint_io(&self.path, "cannot sync", e))?;
        self.synced = Some(std::time::Instant::now());
        Ok(())
    }

    /// How many tasks the journal records.
    pub fn records(&self) -> usize {
        self.records
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn write(&mut self, text: &str) -> Result<(), Error> {
        self.file
            .write_all(text.as_bytes())
            .map_err(|e| Error::checkpoint_io(&self.path, "cannot write", e))
    }
}

impl Drop for Journal {
    /// The last records reach the disk whatever ends the run (an error has no one left to
    /// report to here: [`Checkpoint::close`] syncs and reports first).
    fn drop(&mut self) {
        let _ = self.file.sync_data();
    }
}

/// A count's journal, open for a resumable run: what it already holds, and the records of the
/// tasks that finish now.
///
/// ```
/// use nqueens::Counter;
/// use nqueens::checkpoint::Checkpoint;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("count-12.journal");
/// let counter = Counter::new();
/// let job = counter.prepare(12)?;
/// let all: Vec<usize> = (0..job.plan.len()).collect();
/// let checkpoint = Checkpoint::open(&path, &job, None, &all)?;
/// let values = checkpoint.run(&counter, &job, &all)?;
/// checkpoint.close()?; // every record kept
/// assert_eq!(counter.finish(&job, values.values().sum()).solutions, 14_200);
/// // Run again (once the first run has closed the journal, which it holds locked), it finds
/// // every task done and counts nothing.
/// drop(checkpoint);
/// let checkpoint = Checkpoint::open(&path, &job, None, &all)?;
/// assert_eq!(checkpoint.done().len(), job.plan.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Checkpoint {
    journal: Arc<Mutex<Journal>>,
    done: BTreeMap<usize, u128>,
    /// The first error of a record, kept until the run is over (records are written from
    /// the worker threads, which cannot return it).
    failed: Mutex<Option<Error>>,
    /// The run's tasks: a record of any other is refused (it would make the journal
    /// unreadable).
    tasks: usize,
}

/// Parses one whole record line of the run whose identity's checksum is `start`, or `None`.
fn record(start: u64, line: &str, tasks: usize) -> Option<(usize, u128)> {
    let line = line.strip_suffix('\n')?;
    let mut words = line.split(' ');
    let (tag, id, value, check) = (words.next()?, words.next()?, words.next()?, words.next()?);
    if tag != "task" || words.next().is_some() {
        return None;
    }
    // The checksum of "{identity} {id} {value}", as 16 lowercase hexadecimal digits.
    let hash = [" ", id, " ", value]
        .iter()
        .fold(start, |hash, word| fnv1a_on(hash, word.as_bytes()));
    let hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
    if check.len() != 16 || !check.bytes().all(hex) {
        return None;
    }
    if u64::from_str_radix(check, 16).ok()? != hash {
        return None;
    }
    let id: usize = id.parse().ok()?;
    (id < tasks).then_some(())?;
    Some((id, value.parse().ok()?))
}

/// The first task the journal holds that is not one of `ids`, in linear time: a scan of
/// `ids` for every record took hours for a journal of 2 million records.
fn first_stray(done: &BTreeMap<usize, u128>, ids: &[usize]) -> Option<usize> {
    let most = ids.iter().max().map_or(0, |&id| id + 1);
    let mut wanted = vec![false; most];
    for &id in ids {
        wanted[id] = true;
    }
    done.keys()
        .copied()
        .find(|&id| !wanted.get(id).copied().unwrap_or(false))
}

impl Checkpoint {
    /// Opens (or creates) the journal at `path` for `job`, or for its shard `shard`, whose
    /// tasks are `ids`; refuses a journal of another run, or one that holds a task not in
    /// `ids`. A shard that is not one of the job's ([`Job::check_shard`]) or an id that is
    /// not one of its tasks ([`Error::Task`]) is refused before the file is touched.
    pub fn open(
        path: &Path,
        job: &Job,
        shard: Option<(usize, usize)>,
        ids: &[usize],
    ) -> Result<Checkpoint, Error> {
        if let Some((index, shards)) = shard {
            job.check_shard(index, shards)?;
        }
        for &id in ids {
            job.plan.check_task(id)?;
        }
        let (journal, done) = Journal::open(path, &RunIdentity::of(job, shard))?;
        if let Some(stray) = first_stray(&done, ids) {
            return Err(Error::Checkpoint(format!(
                "{}: task {stray} is not one of this run's",
                path.display()
            )));
        }
        Ok(Checkpoint {
            journal: Arc::new(Mutex::new(journal)),
            done,
            failed: Mutex::new(None),
            tasks: job.plan.len(),
        })
    }

    /// The values of the tasks the journal held when it was opened.
    pub fn done(&self) -> &BTreeMap<usize, u128> {
        &self.done
    }

    /// The journal itself, for a handler that must hold its lock while the process stops
    /// (so that no record is cut in half) and say how many tasks it keeps.
    pub fn journal(&self) -> Arc<Mutex<Journal>> {
        self.journal.clone()
    }

    /// Records that task `id` finished with `value` (from any thread); a failure is kept and
    /// returned by [`Checkpoint::close`].
    ///
    /// A task the run does not have is not written (the journal would be refused when read
    /// again). Once a record has failed, no more are written: a record cut short by a full
    /// disk must stay the last line, which reopening trims, never be followed by whole ones
    /// written when space comes back (the journal would then be damaged in its middle, and
    /// refused).
    pub fn record(&self, id: usize, value: u128) {
        let mut journal = self.journal.lock().unwrap_or_else(|e| e.into_inner());
        let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        if failed.is_some() {
            return;
        }
        if id >= self.tasks {
            *failed = Some(Error::Task(format!(
                "task {id} recorded, where the run has {} tasks",
                self.tasks
            )));
            return;
        }
        if let Err(e) = journal.append(id, value) {
            *failed = Some(e);
        }
    }

    /// Counts the tasks of `ids` the journal does not hold yet, recording each as it
    /// finishes, and returns the value of every task of `ids`; an id that is not one of the
    /// job's tasks is an error ([`Error::Task`]) before anything runs. A journal that cannot
    /// be written (a full disk) neither stops the count nor costs its values: the first such
    /// error is kept for [`Checkpoint::close`], which the caller calls to learn whether every
    /// record was kept.
    pub fn run(
        &self,
        counter: &Counter,
        job: &Job,
        ids: &[usize],
    ) -> Result<BTreeMap<usize, u128>, Error> {
        // A flag per task: a look-up in the map for every task took seconds at n = 28.
        let mut held = vec![false; self.tasks];
        for &id in self.done.keys() {
            held[id] = true;
        }
        let todo: Vec<usize> = ids
            .iter()
            .copied()
            .filter(|&id| !held.get(id).copied().unwrap_or(false))
            .collect();
        let values = counter.run(job, &todo, &|id, value| self.record(id, value))?;
        let mut all = self.done.clone();
        all.extend(todo.into_iter().zip(values));
        Ok(all)
    }

    /// Syncs the journal to disk; the first error met while recording or syncing, if any.
    pub fn close(&self) -> Result<(), Error> {
        let synced = self
            .journal
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .sync();
        match self.failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(e) => Err(e),
            None => synced,
        }
    }
}

/// The subtotals file of a count: every task's number and value, tab-separated, under a
/// header naming the run and the part of it counted (`shard`: `(I, K)` for shard I of K, as
/// its journal names it; `None` for the whole run), for re-checking any part of a result
/// elsewhere.
pub fn subtotals(
    job: &Job,
    shard: Option<(usize, usize)>,
    values: &BTreeMap<usize, u128>,
) -> String {
    let mut text = format!(
        "# nqueens {} subtotals: {} units_per_solution={}\ntask\tunits\n",
        env!("CARGO_PKG_VERSION"),
        RunIdentity::of(job, shard).fields(),
        job.plan.units_per_solution()
    );
    for (id, value) in values {
        text.push_str(&format!("{id}\t{value}\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(n: u32) -> RunIdentity {
        RunIdentity {
            n,
            engine: Engine::SEARCH,
            split_depth: 2,
            tasks: 100,
            shard: None,
            version: "test".into(),
        }
    }

    /// Regression: resuming a journal of 2 million records (n = 16 split at 7 rows) ran for
    /// over ten minutes, looking up every record in the run's task list one by one.
    #[test]
    fn a_journal_of_millions_of_records_is_checked_in_linear_time() {
        let ids: Vec<usize> = (0..3_000_000).rev().collect();
        let done: BTreeMap<usize, u128> = (0..3_000_000).map(|id| (id, 1)).collect();
        let start = std::time::Instant::now();
        assert_eq!(first_stray(&done, &ids), None);
        let mut stray = done.clone();
        stray.insert(3_000_000, 5);
        assert_eq!(first_stray(&stray, &ids), Some(3_000_000));
        assert_eq!(first_stray(&done, &ids[1..]), Some(2_999_999));
        assert_eq!(first_stray(&done, &[]), Some(0));
        // Seconds at most, where the quadratic scan would take hours.
        assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
    }

    #[test]
    fn records_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let (mut journal, done) = Journal::open(&path, &identity(12)).unwrap();
        assert!(done.is_empty());
        journal.append(3, 42).unwrap();
        journal.append(7, u128::MAX).unwrap();
        drop(journal);
        let (journal, done) = Journal::open(&path, &identity(12)).unwrap();
        assert_eq!(
            done.into_iter().collect::<Vec<_>>(),
            [(3, 42), (7, u128::MAX)]
        );
        assert_eq!(journal.records(), 2);
    }

    /// A journal of n = 12 recording task 1, with `tail` appended by hand.
    fn journal_with_tail(dir: &Path, tail: &[u8]) -> PathBuf {
        let path = dir.join("j");
        let (mut journal, _) = Journal::open(&path, &identity(12)).unwrap();
        journal.append(1, 10).unwrap();
        drop(journal);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(tail).unwrap();
        path
    }

    #[test]
    fn a_torn_last_record_is_dropped_and_trimmed() {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with_tail(dir.path(), b"task 2 2");
        let (mut journal, done) = Journal::open(&path, &identity(12)).unwrap();
        assert_eq!(done.len(), 1);
        journal.append(2, 20).unwrap();
        drop(journal);
        let (_, done) = Journal::open(&path, &identity(12)).unwrap();
        assert_eq!(done.into_iter().collect::<Vec<_>>(), [(1, 10), (2, 20)]);
    }

    #[test]
    fn another_run_or_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let (mut journal, _) = Journal::open(&path, &identity(12)).unwrap();
        journal.append(1, 10).unwrap();
        journal.append(2, 20).unwrap();
        drop(journal);
        let error = Journal::open(&path, &identity(13))
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("another run"), "{error}");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen("task 1 10", "task 1 11", 1)).unwrap();
        let error = Journal::open(&path, &identity(12))
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("damaged record on line 2"), "{error}");
        std::fs::write(&path, "hello\n").unwrap();
        assert!(Journal::open(&path, &identity(12)).is_err());
    }

    #[test]
    fn a_whole_bad_last_line_is_refused_not_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with_tail(dir.path(), b"task 2 2 0000000000000000\n");
        let error = Journal::open(&path, &identity(12))
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("damaged record on line 3"), "{error}");
    }

    #[test]
    fn a_journal_of_version_1_is_refused_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        std::fs::write(
            &path,
            "nqueens-checkpoint 1 n=12 engine=full split=2 tasks=100 shard=all version=0.1.0 check=0\n",
        )
        .unwrap();
        let error = Journal::open(&path, &identity(12))
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("nqueens 0.1.0"), "{error}");
    }

    /// A journal of nqueens 0.3.0, which numbered the join engine's tasks before units were
    /// partitioned, is refused with the version named, whatever its other fields.
    #[test]
    fn a_journal_of_the_previous_numbering_is_refused_with_its_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let mut old = identity(12);
        old.version = "0.3.0".into();
        drop(Journal::open(&path, &old).unwrap());
        let mut ours = identity(12);
        ours.version = env!("CARGO_PKG_VERSION").into();
        let error = Journal::open(&path, &ours).err().unwrap().to_string();
        assert!(error.contains("a journal of nqueens 0.3.0"), "{error}");
        assert!(error.contains(env!("CARGO_PKG_VERSION")), "{error}");
    }

    #[test]
    fn a_journal_in_use_is_refused_until_its_run_closes_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let (journal, _) = Journal::open(&path, &identity(12)).unwrap();
        for other in [identity(12), identity(13)] {
            match Journal::open(&path, &other) {
                Err(Error::InUse(message)) => assert!(message.contains("another run")),
                Err(e) => panic!("{e}"),
                Ok(_) => panic!("opened twice"),
            }
        }
        drop(journal);
        let (_, done) = Journal::open(&path, &identity(12)).unwrap();
        assert!(done.is_empty());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
    }

    #[test]
    fn a_directory_or_device_is_not_a_journal() {
        let dir = tempfile::tempdir().unwrap();
        for path in [dir.path(), Path::new("/dev/null")] {
            let error = Journal::open(path, &identity(12))
                .err()
                .unwrap()
                .to_string();
            assert!(error.contains("not a regular file"), "{error}");
        }
    }
}
