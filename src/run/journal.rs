//! The journal of a resumable count: a text file of finished tasks that lets a killed count
//! resume ([`Journal`]), and what it belongs to ([`RunIdentity`]).
//!
//! Its first line names the run: board size, engine, split depth, number of tasks, shard and
//! program version, with a checksum. Each later line records one finished task, its value and
//! a checksum of both and of the run's identity:
//!
//! ```text
//! nqueens-checkpoint 3 n=16 engine=search symmetry=full split=2 tasks=356 shard=all version=0.13.0 check=…
//! node 0 host-a 5c0e9d2a17b3f468
//! task 17 38874 0 9a31c0d54e7f2b10
//! ```
//!
//! A record is written to the file as its task finishes, so a run killed at any moment loses
//! at most the tasks that were running. A record reaches the disk within [`SYNC_INTERVAL`] of
//! being written, however long the next task takes (a [`Checkpoint`](super::checkpoint)
//! syncs what waits from a thread of its own, twice an interval), and the file is synced
//! when the run ends, so a machine that loses power loses at most the last second's
//! records. (Syncing every record cost a millisecond a task: a second a thousand tasks, at
//! n = 18 a third more time.) On resume, a torn last line (a record cut short by the kill:
//! no line end) is dropped and the file trimmed back to its last whole record; any other
//! damage, a whole line that is not a record of this run included, a task recorded twice
//! with different values, a value more than any task of the run can hold
//! ([`RunIdentity::most_units`]), or a journal of another run, is refused with an error,
//! never mixed in. A journal of n = 28 holds tens of millions of records: it is read a block
//! at a time, each block's records parsed in parallel.
//!
//! A journal is locked (an advisory lock, `flock` on Unix) while it is open: a second run on a
//! journal in use is refused at once with [`Error::InUse`], so two runs never write one file.
//! Journals of version 1 (nqueens 0.1.0) are refused: that version named engines otherwise and
//! numbered the join engine's tasks otherwise.

use super::claim;
use super::identity::RunIdentity;
use super::journal_lines::{Lines, node_line, node_name, parse_lines, record_line, settle};
use super::record::{check_regular, fnv1a};
use crate::error::Error;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub(super) const MAGIC: &str = "nqueens-checkpoint 3";
/// The header of the journals of nqueens 0.2.0 to 0.9.0, whose records name no node.
const MAGIC_V2: &str = "nqueens-checkpoint 2";
/// The longest a written record waits to be synced to disk.
pub const SYNC_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);
/// The header of the journals of nqueens 0.1.0, which this version refuses.
const MAGIC_V1: &str = "nqueens-checkpoint 1";

/// An open journal, ready for appending.
pub struct Journal {
    file: File,
    path: PathBuf,
    identity: String,
    records: usize,
    /// When the file was last synced to disk; `None` before its first sync.
    synced: Option<std::time::Instant>,
    /// Whether something written since the last sync waits for one.
    unsynced: bool,
    /// The nodes the journal names, by number: those of earlier runs, then this run's.
    nodes: BTreeMap<u32, String>,
    /// This run's nodes whose line is not written yet: each is, before its first record (a
    /// run that records nothing leaves the file as it found it).
    unwritten: std::collections::BTreeSet<u32>,
    /// This run's node: what its records name.
    node: u32,
}

impl Journal {
    /// Opens the journal at `path` for the run `identity`, counted on the node named `node`
    /// (a host name, say, which the journal keeps beside the tasks it counts): creates it if
    /// it does not exist (or is empty), else checks it and returns the values of the tasks
    /// it records.
    pub fn open(
        path: &Path,
        identity: &RunIdentity,
        node: &str,
    ) -> Result<(Journal, BTreeMap<usize, u128>), Error> {
        check_regular(path).map_err(Error::Checkpoint)?;
        let existed = path.exists();
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| Error::checkpoint_io(path, "", e))?;
        // Locked before a byte is read or written, for as long as the journal is open: two
        // runs started at once on one new file would both write a header.
        claim::lock_journal(&file, path)?;
        let length = file
            .metadata()
            .map_err(|e| Error::checkpoint_io(path, "cannot read it", e))?
            .len();
        claim::refuse_an_output_being_written(path, existed, length)?;
        let fields = identity.fields();
        let mut journal = Journal {
            file,
            path: path.to_path_buf(),
            identity: fields.clone(),
            records: 0,
            synced: None,
            unsynced: false,
            nodes: BTreeMap::new(),
            unwritten: Default::default(),
            node: 0,
        };
        let done = if length == 0 {
            let header = format!("{MAGIC} {fields} check={:016x}\n", fnv1a(&fields));
            journal.write(&header)?;
            journal.sync()?;
            // The new file's name must survive a power loss too, a bare name's (its
            // directory is the current one) as much as a path's.
            let _ = claim::sync_directory_of(path);
            BTreeMap::new()
        } else {
            let records = journal.read(identity)?;
            journal.records = records.len();
            records
                .into_iter()
                .map(|(id, value, _)| (id, value))
                .collect()
        };
        journal.node = journal.add_node(node)?;
        Ok((journal, done))
    }

    /// Names a node (one more MPI rank, say) with the next free number, in a line of its
    /// own written before its first record: the number its records are appended with
    /// ([`Journal::append_on`]).
    pub fn add_node(&mut self, name: &str) -> Result<u32, Error> {
        let number = self.nodes.keys().next_back().map_or(0, |&last| last + 1);
        self.nodes.insert(number, node_name(name));
        self.unwritten.insert(number);
        Ok(number)
    }

    /// The nodes the journal names, by number.
    pub fn nodes(&self) -> &BTreeMap<u32, String> {
        &self.nodes
    }

    /// Checks the header and the records of an existing journal; trims a torn last line.
    /// Read a block of [`READ_BLOCK`] bytes at a time, each block's records parsed in
    /// parallel: a journal of n = 28 is over a gigabyte, and holding its text whole doubled
    /// the memory a resume faults in (most of its time on a virtual machine).
    fn read(&mut self, identity: &RunIdentity) -> Result<Vec<(usize, u128, u32)>, Error> {
        let path = self.path.clone();
        let fail = |what: String| Error::Checkpoint(format!("{}: {what}", path.display()));
        let cannot_read = |e: std::io::Error| Error::checkpoint_io(&path, "cannot read it", e);
        let mut block = Vec::new();
        read_more(&mut self.file, &mut block).map_err(cannot_read)?;
        let header_end = header_end(&block).map_err(|what| fail(what.into()))?;
        refuse_edited(&block[..header_end]).map_err(|what| fail(what.into()))?;
        self.check_header(&String::from_utf8_lossy(&block[..header_end]), &fail)?;
        block.drain(..=header_end);
        let start = fnv1a(&self.identity);
        let mut records = Vec::new();
        // The file's offset and line (from 0 after the header) where `block` starts.
        let (mut offset, mut line) = (header_end as u64 + 1, 0);
        loop {
            let whole = block
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |end| end + 1);
            let lines = &block[..whole];
            let damaged = |at: usize, text: &str| {
                fail(format!(
                    "damaged record on line {}: {:?}",
                    line + at + 2,
                    text.trim_end()
                ))
            };
            let parse = |text| {
                parse_lines(text, &self.identity, start, identity.tasks)
                    .map_err(|(at, text)| damaged(at, text))
            };
            let text = match block_text(lines) {
                Ok(text) => text,
                Err((before, at, text)) => {
                    // A damaged record before the line that is not text is named first.
                    parse(before)?;
                    return Err(damaged(at, &text));
                }
            };
            let Lines {
                records: mut some,
                nodes,
            } = parse(text)?;
            // Parsed whole: a line a record or a node.
            let parsed_lines = some.len() + nodes.len();
            self.nodes.extend(nodes);
            if records.is_empty() && !some.is_empty() {
                let left = self
                    .file
                    .metadata()
                    .map_or(0, |m| m.len())
                    .saturating_sub(offset);
                reserve_for_the_rest(&mut records, left, whole / some.len());
            }
            line += parsed_lines;
            records.append(&mut some);
            offset += whole as u64;
            block.drain(..whole);
            if read_more(&mut self.file, &mut block).map_err(cannot_read)? == 0 {
                break;
            }
        }
        if !block.is_empty() {
            // A record cut short by a kill: drop it, and cut the file back so that the next
            // record starts on a fresh line.
            self.file
                .set_len(offset)
                .and_then(|()| self.file.seek(SeekFrom::End(0)).map(|_| ()))
                .map_err(|e| Error::checkpoint_io(&path, "cannot trim its torn last line", e))?;
        }
        settle(&mut records, identity.most_units()).map_err(fail)?;
        Ok(records)
    }

    /// Checks a journal's header line against this run: its magic, its checksum, its
    /// version, its run.
    fn check_header(&self, header: &str, fail: &impl Fn(String) -> Error) -> Result<(), Error> {
        if header.starts_with(MAGIC_V1) {
            return Err(fail(
                "a journal of nqueens 0.1.0, which named engines and numbered the join \
                 engine's tasks otherwise: finish that run with 0.1.0, or delete the file to \
                 start over"
                    .into(),
            ));
        }
        if header.starts_with(MAGIC_V2) {
            return Err(fail(
                "a journal of nqueens 0.9.0 or earlier, whose records name no node: finish \
                 that run with the version that began it, or delete the file to start over"
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
        Ok(())
    }

    /// Records that task `id` finished with `value`: written at once, synced to disk when the
    /// last sync is [`SYNC_INTERVAL`] old (and by a [`Checkpoint`](super::checkpoint)'s timer
    /// otherwise).
    pub fn append(&mut self, id: usize, value: u128) -> Result<(), Error> {
        self.append_on(id, value, self.node)
    }

    /// As [`Journal::append`], for a task counted on node `node` ([`Journal::add_node`]: an
    /// MPI rank's).
    pub fn append_on(&mut self, id: usize, value: u128, node: u32) -> Result<(), Error> {
        if self.unwritten.contains(&node) {
            let name = self.nodes.get(&node).cloned().unwrap_or_default();
            self.write(&node_line(&self.identity, node, &name))?;
            self.unwritten.remove(&node);
        }
        self.write(&record_line(&self.identity, id, value, node))?;
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
        self.unsynced = false;
        Ok(())
    }

    /// Syncs what was written since the last sync, if anything was: what a timer calls, so
    /// that a record never waits longer than [`SYNC_INTERVAL`] for the next task to finish.
    pub fn sync_if_written(&mut self) -> Result<(), Error> {
        if self.unsynced { self.sync() } else { Ok(()) }
    }

    /// Whether something written waits for a sync.
    pub fn unsynced(&self) -> bool {
        self.unsynced
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
        self.unsynced = true;
        self.file
            .write_all(text.as_bytes())
            .map_err(|e| Error::checkpoint_io(&self.path, "cannot write", e))
    }
}

impl Drop for Journal {
    /// The last records reach the disk whatever ends the run (an error has no one left to
    /// report to here: [`Checkpoint::close`](crate::run::checkpoint::Checkpoint::close) syncs and reports first).
    fn drop(&mut self) {
        let _ = self.file.sync_data();
    }
}

/// Where the header line of a journal that starts `block` ends, or why there is none: a
/// header cut short is a damaged journal (a disk that filled as it was made), not another
/// file given by mistake, and is said so, with what to do.
/// Refuses a journal an editor has saved: a byte-order mark before its header, or CRLF line
/// ends (the header's tells). A journal is written by nqueens alone, line by line with its
/// checksums; a resume appends to it and an audit reads it, and both read it alike through
/// this check (`header` is the file's first line, its `\n` left out).
pub(super) fn refuse_edited(header: &[u8]) -> Result<(), &'static str> {
    if header.starts_with("\u{feff}".as_bytes()) {
        return Err(
            "it starts with a byte-order mark: an editor saved it, and a journal is nqueens's \
             own file; remove the mark, or start over with another file",
        );
    }
    if header.ends_with(b"\r") {
        return Err(
            "its lines end in CRLF: an editor saved it, and a journal is nqueens's own file; \
             turn them back into LF (dos2unix), or start over with another file",
        );
    }
    Ok(())
}

fn header_end(block: &[u8]) -> Result<usize, &'static str> {
    match block.iter().position(|&b| b == b'\n') {
        Some(end) => Ok(end),
        None if MAGIC.as_bytes().starts_with(block) || block.starts_with(MAGIC.as_bytes()) => Err(
            "a damaged checkpoint journal: its header line is cut short (the run that made \
                 it stopped before its first line was whole); remove it to start afresh",
        ),
        None => Err("not a checkpoint journal (no complete header line)"),
    }
}

/// Room in `records` for as many more as `left` bytes of records of `per_record` bytes make:
/// a list grown by doubling copies itself, gigabytes at n = 28. A hint: a file of junk past
/// its first records must not abort the read.
fn reserve_for_the_rest(records: &mut Vec<(usize, u128, u32)>, left: u64, per_record: usize) {
    let wanted = usize::try_from(left / per_record.max(1) as u64).unwrap_or(0);
    let _ = records.try_reserve(wanted);
}

/// The bytes a journal is read in at a time (64 KiB in the unit tests, so that their
/// journals of megabytes cross many blocks' ends).
const READ_BLOCK: u64 = if cfg!(test) { 64 << 10 } else { 64 << 20 };

/// Appends up to [`READ_BLOCK`] more bytes of `file` to `block`: how many (0 at its end).
fn read_more(file: &mut File, block: &mut Vec<u8>) -> std::io::Result<usize> {
    file.take(READ_BLOCK).read_to_end(block)
}

/// Whole lines of a journal as text; or, where they are not UTF-8, the whole lines before the
/// first line that is not, and that line's number (from 0) and text (its bad bytes replaced).
fn block_text(lines: &[u8]) -> Result<&str, (&str, usize, String)> {
    std::str::from_utf8(lines).map_err(|e| {
        let (before, after) = lines.split_at(e.valid_up_to());
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
        let end = after
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(after.len());
        let text = String::from_utf8_lossy(&lines[start..before.len() + end]).into_owned();
        // Valid UTF-8 up to `valid_up_to`, and `start` is at or before it.
        let whole = std::str::from_utf8(&before[..start]).unwrap_or_default();
        (whole, newlines(&before[..start]), text)
    })
}

/// The line ends in `bytes`.
fn newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;

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

    #[test]
    fn records_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        // The most a task of n = 32 can hold: 36 digits, past the parser's 19-digit path.
        let most = identity(32).most_units();
        let (mut journal, done) = Journal::open(&path, &identity(32), "test").unwrap();
        assert!(done.is_empty());
        journal.append(3, 42).unwrap();
        journal.append(7, most).unwrap();
        drop(journal);
        let (journal, done) = Journal::open(&path, &identity(32), "test").unwrap();
        assert_eq!(done.into_iter().collect::<Vec<_>>(), [(3, 42), (7, most)]);
        assert_eq!(journal.records(), 2);
        // One more is no task's: the journal is refused, not summed.
        drop(journal);
        let (mut journal, _) = Journal::open(&path, &identity(32), "test").unwrap();
        journal.append(8, most + 1).unwrap();
        drop(journal);
        let refused = Journal::open(&path, &identity(32), "test").err().unwrap();
        assert!(
            refused.to_string().contains("task 8 is recorded with"),
            "{refused}"
        );
    }

    /// The error opening a journal of n = 12 that records task 1, with `tail` appended.
    fn error_with_tail(tail: &[u8]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = journal_with_tail(dir.path(), tail);
        Journal::open(&path, &identity(12), "test")
            .err()
            .unwrap()
            .to_string()
    }

    /// A journal of n = 12 recording task 1, with `tail` appended by hand.
    fn journal_with_tail(dir: &Path, tail: &[u8]) -> PathBuf {
        let path = dir.join("j");
        let (mut journal, _) = Journal::open(&path, &identity(12), "test").unwrap();
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
        let (mut journal, done) = Journal::open(&path, &identity(12), "test").unwrap();
        assert_eq!(done.len(), 1);
        journal.append(2, 20).unwrap();
        drop(journal);
        let (_, done) = Journal::open(&path, &identity(12), "test").unwrap();
        assert_eq!(done.into_iter().collect::<Vec<_>>(), [(1, 10), (2, 20)]);
    }

    #[test]
    fn another_run_or_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let (mut journal, _) = Journal::open(&path, &identity(12), "test").unwrap();
        journal.append(1, 10).unwrap();
        journal.append(2, 20).unwrap();
        drop(journal);
        let error = Journal::open(&path, &identity(13), "test")
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("another run"), "{error}");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen("task 1 10 0", "task 1 11 0", 1)).unwrap();
        let error = Journal::open(&path, &identity(12), "test")
            .err()
            .unwrap()
            .to_string();
        // The header, the node's line, then the first record.
        assert!(error.contains("damaged record on line 3"), "{error}");
        std::fs::write(&path, "hello\n").unwrap();
        assert!(Journal::open(&path, &identity(12), "test").is_err());
    }

    /// Each run names its node in a line before its first record, and a run that records
    /// nothing writes none; the records of each name their run's.
    #[test]
    fn each_run_names_its_node_before_its_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let (mut journal, _) = Journal::open(&path, &identity(12), "host-a").unwrap();
        journal.append(1, 10).unwrap();
        drop(journal);
        drop(Journal::open(&path, &identity(12), "idle").unwrap());
        let (mut journal, _) = Journal::open(&path, &identity(12), "host b").unwrap();
        let rank = journal.add_node("host-c:rank1").unwrap();
        journal.append(2, 20).unwrap();
        journal.append_on(3, 30, rank).unwrap();
        drop(journal);
        let text = std::fs::read_to_string(&path).unwrap();
        let kinds: Vec<&str> = text.lines().map(|l| &l[..4]).collect();
        assert_eq!(
            kinds,
            ["nque", "node", "task", "node", "task", "node", "task"],
            "{text}"
        );
        let (journal, done) = Journal::open(&path, &identity(12), "again").unwrap();
        assert_eq!(done.len(), 3);
        let names: Vec<&str> = journal.nodes().values().map(String::as_str).collect();
        assert_eq!(names, ["host-a", "host_b", "host-c:rank1", "again"]);
    }

    /// A journal is parsed in blocks of a megabyte at once: a damaged record far into it is
    /// named by its line in the file, and the records around the blocks' ends all count.
    #[test]
    fn a_damaged_record_past_the_first_blocks_is_named_by_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let mut id = identity(12);
        id.tasks = 200_000;
        let (mut journal, _) = Journal::open(&path, &id, "test").unwrap();
        for task in 0..200_000 {
            journal
                .write(&record_line(&journal.identity, task, 7, 0))
                .unwrap();
        }
        drop(journal);
        let (_, done) = Journal::open(&path, &id, "test").unwrap();
        assert_eq!(done.len(), 200_000);
        assert!(done.values().all(|&v| v == 7));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.len() > 4 << 20,
            "{} bytes: fewer than four blocks",
            text.len()
        );
        let damaged = text.replacen("task 150001 7 ", "task 150001 8 ", 1);
        std::fs::write(&path, damaged).unwrap();
        let error = Journal::open(&path, &id, "test").err().unwrap().to_string();
        assert!(error.contains("damaged record on line 150003"), "{error}");
    }

    /// A record that is not UTF-8 text is named by its line, as any other damage is.
    #[test]
    fn a_record_that_is_not_text_is_named_by_its_line() {
        let error = error_with_tail(b"task 2 \xff\xfe 0000000000000000\n");
        assert!(
            error.contains("damaged record on line 4: \"task 2"),
            "{error}"
        );
    }

    /// Regression: a damaged record before a line that is not text, in the same block, was
    /// not named: the later line was, since the block was checked as text before its records.
    #[test]
    fn the_first_damage_is_named_when_a_later_line_is_not_text() {
        let error = error_with_tail(b"task 2 2 0000000000000000\ntask 3 \xff 0000000000000000\n");
        assert!(
            error.contains("damaged record on line 4: \"task 2"),
            "{error}"
        );
    }

    #[test]
    fn a_whole_bad_last_line_is_refused_not_dropped() {
        let error = error_with_tail(b"task 2 2 0000000000000000\n");
        assert!(error.contains("damaged record on line 4"), "{error}");
    }

    /// Regression: a journal cut inside its header line was called "not a checkpoint
    /// journal", which reads as the wrong file given; it is a damaged one. Another file
    /// without a line is still not a journal.
    #[test]
    fn a_journal_cut_inside_its_header_is_said_to_be_damaged() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        for (text, says) in [
            ("nqueens-checkpoint 3 n=12 eng", "header line is cut short"),
            ("nqueens-che", "header line is cut short"),
            ("hello", "not a checkpoint journal"),
        ] {
            std::fs::write(&path, text).unwrap();
            let error = Journal::open(&path, &identity(12), "test")
                .err()
                .unwrap()
                .to_string();
            assert!(error.contains(says), "{text:?}: {error}");
        }
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
        let error = Journal::open(&path, &identity(12), "test")
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
        drop(Journal::open(&path, &old, "test").unwrap());
        let mut ours = identity(12);
        ours.version = env!("CARGO_PKG_VERSION").into();
        let error = Journal::open(&path, &ours, "test")
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("a journal of nqueens 0.3.0"), "{error}");
        assert!(error.contains(env!("CARGO_PKG_VERSION")), "{error}");
    }

    #[test]
    fn a_journal_in_use_is_refused_until_its_run_closes_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let (journal, _) = Journal::open(&path, &identity(12), "test").unwrap();
        for other in [identity(12), identity(13)] {
            match Journal::open(&path, &other, "test") {
                Err(Error::InUse(message)) => assert!(message.contains("another run")),
                Err(e) => panic!("{e}"),
                Ok(_) => panic!("opened twice"),
            }
        }
        drop(journal);
        let (_, done) = Journal::open(&path, &identity(12), "test").unwrap();
        assert!(done.is_empty());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
    }

    #[test]
    fn a_directory_or_device_is_not_a_journal() {
        let dir = tempfile::tempdir().unwrap();
        for path in [dir.path(), Path::new("/dev/null")] {
            let error = Journal::open(path, &identity(12), "test")
                .err()
                .unwrap()
                .to_string();
            assert!(error.contains("not a regular file"), "{error}");
        }
    }
}
