//! Reading back what a run recorded, for an audit (`nqueens audit`): a checkpoint journal or
//! a subtotals file, read-only (a journal in use is neither locked nor trimmed), as the run it
//! names, each task's value, and the node that counted it.

use super::identity::RunIdentity;
use super::journal::{MAGIC, refuse_edited};
use super::journal_lines::{Lines, parse_lines, settle};
use super::record::{fnv1a, total_units};
use crate::error::Error;
use std::collections::BTreeMap;
use std::path::Path;

/// What a journal or a subtotals file records.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Recorded {
    /// The run it names.
    pub identity: RunIdentity,
    /// Each recorded task's value, and the node that counted it (its name).
    pub tasks: BTreeMap<usize, (u128, String)>,
}

/// The last line of a subtotals file: how many tasks it lists and their values' sum, so that
/// a file cut short at a line's end is told from a whole one, and a reader can check the sum.
pub(super) fn subtotals_end(tasks: usize, units: u128) -> String {
    format!("{SUBTOTALS_END}tasks={tasks} units={units}\n")
}

/// What the last line of a subtotals file starts with.
const SUBTOTALS_END: &str = "# end: ";

impl Recorded {
    /// Reads the journal or subtotals file at `path`; any damage is an error naming the kind
    /// of file, its path and its line ([`Error::Recorded`]). A journal's torn last line, cut
    /// by a kill, is left out, as a resume leaves it out; a subtotals file is written whole
    /// or not at all, so one that is cut short is damaged. A subtotals file's byte-order mark
    /// and CRLF line ends, which an editor may add, are read past; a journal's are refused, as
    /// a resume refuses them.
    pub fn read(path: &Path) -> Result<Recorded, Error> {
        let fail = |what: String| Error::Recorded(format!("{}: {what}", path.display()));
        let bytes = std::fs::read(path)
            .map_err(|e| Error::Recorded(format!("cannot read {}: {e}", path.display())))?;
        let text = String::from_utf8(bytes).map_err(|_| fail("not text".into()))?;
        let bare = text.strip_prefix('\u{feff}').unwrap_or(&text);
        if bare.starts_with(MAGIC) {
            // A journal is read as a resume reads it: an editor's byte-order mark or CRLF
            // line ends refused alike.
            let fail = |what: String| {
                Error::Recorded(format!("checkpoint journal {}: {what}", path.display()))
            };
            let (header, rest) = text
                .split_once('\n')
                .ok_or_else(|| fail("no complete header line".into()))?;
            refuse_edited(header.as_bytes()).map_err(|what| fail(what.into()))?;
            let header = &header[MAGIC.len()..];
            return Self::journal(header, rest, &fail);
        }
        // A subtotals file is the user's to read and keep: a byte-order mark and CRLF line
        // ends, which an editor may add, are read past. A copy only for CRLF line ends.
        let text = match bare.contains("\r\n") {
            true => std::borrow::Cow::Owned(bare.replace("\r\n", "\n")),
            false => std::borrow::Cow::Borrowed(bare),
        };
        let (header, rest) = text
            .split_once('\n')
            .ok_or_else(|| fail("no complete header line".into()))?;
        if let Some(header) = header.strip_prefix("# nqueens ") {
            let fail = |what: String| {
                Error::Recorded(format!("subtotals file {}: {what}", path.display()))
            };
            Self::subtotals(header, rest, &fail)
        } else if header.starts_with("nqueens-checkpoint ") {
            Err(fail(
                "a checkpoint journal of nqueens 0.9.0 or earlier: audits read the files of \
                 nqueens 0.10.0 and later only (no earlier version has an audit)"
                    .into(),
            ))
        } else {
            Err(fail(
                "neither a checkpoint journal nor a subtotals file of this program".into(),
            ))
        }
    }

    /// A journal's lines after its magic: the header's fields and checksum, then records
    /// and node lines (a torn last line left out), each task once ([`settle`]).
    fn journal(
        header: &str,
        rest: &str,
        fail: &impl Fn(String) -> Error,
    ) -> Result<Recorded, Error> {
        let (fields, check) = header
            .trim()
            .rsplit_once(" check=")
            .ok_or_else(|| fail("damaged header".into()))?;
        if format!("{:016x}", fnv1a(fields)) != check {
            return Err(fail("damaged header (checksum mismatch)".into()));
        }
        let identity = RunIdentity::parse(fields).ok_or_else(|| fail("damaged header".into()))?;
        let whole = rest.rfind('\n').map_or(0, |end| end + 1);
        let Lines { mut records, nodes } =
            parse_lines(&rest[..whole], fields, fnv1a(fields), identity.tasks).map_err(
                |(at, text)| {
                    fail(format!(
                        "damaged record on line {}: {:?}",
                        at + 2,
                        text.trim_end()
                    ))
                },
            )?;
        // A value no task can hold is kept: it was written whole, with its checksum, by the
        // node that counted it, and an audit recounts it and names that node.
        settle(&mut records, u128::MAX).map_err(fail)?;
        let names: BTreeMap<u32, String> = nodes.into_iter().collect();
        let tasks = records
            .into_iter()
            .map(|(id, value, node)| {
                let name = names
                    .get(&node)
                    .cloned()
                    .unwrap_or_else(|| format!("node {node}"));
                (id, (value, name))
            })
            .collect();
        Ok(Recorded { identity, tasks })
    }

    /// A subtotals file's lines after `# nqueens `: the version, the run's fields, its units
    /// per solution and node, the column names, a task and its value a line, and the closing
    /// line with their number and sum ([`subtotals_end`]).
    fn subtotals(
        header: &str,
        rest: &str,
        fail: &impl Fn(String) -> Error,
    ) -> Result<Recorded, Error> {
        let damaged = || fail("damaged header".into());
        let (version, fields) = header.split_once(" subtotals: ").ok_or_else(damaged)?;
        if version != env!("CARGO_PKG_VERSION") {
            return Err(fail(format!(
                "written by nqueens {version}, whose tasks may be numbered otherwise: this \
                 version ({}) audits its own runs' files only",
                env!("CARGO_PKG_VERSION")
            )));
        }
        let (fields, node) = fields.rsplit_once(" node=").ok_or_else(damaged)?;
        let (fields, _) = fields
            .rsplit_once(" units_per_solution=")
            .ok_or_else(damaged)?;
        let identity = RunIdentity::parse(fields).ok_or_else(damaged)?;
        if rest.is_empty() {
            return Err(fail("cut short: no lines after its header".into()));
        }
        let Some(body) = rest.strip_suffix('\n') else {
            return Err(fail(
                "cut short: its last line has no line end (a subtotals file is written \
                 whole, so this one was cut or damaged after)"
                    .into(),
            ));
        };
        let mut lines = body.split('\n');
        if lines.next() != Some("task\tunits") {
            return Err(fail("damaged: its second line is not `task\tunits`".into()));
        }
        let mut tasks = BTreeMap::new();
        let mut end = None;
        for (i, line) in lines.enumerate() {
            let bad = || fail(format!("damaged line {}: {line:?}", i + 3));
            if end.is_some() {
                return Err(fail(format!("a line after its closing line: {line:?}")));
            }
            if let Some(closing) = line.strip_prefix(SUBTOTALS_END) {
                end = Some(closing);
                continue;
            }
            let (id, value) = line.split_once('\t').ok_or_else(bad)?;
            let id: usize = id.parse().map_err(|_| bad())?;
            let value: u128 = value.parse().map_err(|_| bad())?;
            if id >= identity.tasks {
                return Err(fail(format!(
                    "line {}: task {id} is not one of the run's {} tasks",
                    i + 3,
                    identity.tasks
                )));
            }
            if tasks.insert(id, (value, node.to_string())).is_some() {
                return Err(fail(format!("task {id} is listed twice")));
            }
        }
        let Some(end) = end else {
            let lines = match tasks.len() {
                1 => "its one task line".to_string(),
                k => format!("its {k} task lines"),
            };
            return Err(fail(format!(
                "cut short: no closing line `{SUBTOTALS_END}tasks=... units=...` after {lines} \
                 (or written before subtotals files were closed with their sum)"
            )));
        };
        let units = total_units(tasks.values().map(|(value, _)| value));
        let written = format!("{SUBTOTALS_END}{end}\n");
        if units.map(|units| subtotals_end(tasks.len(), units)) != Some(written) {
            return Err(fail(format!(
                "its closing line says {end:?}, but it lists {} tasks adding up to {}",
                tasks.len(),
                units.map_or("more than 2^128".into(), |u| u.to_string())
            )));
        }
        Ok(Recorded { identity, tasks })
    }
}
