//! Reading back what a run recorded, for an audit (`nqueens audit`): a checkpoint journal or
//! a subtotals file, read-only (a journal in use is neither locked nor trimmed), as the run it
//! names, each task's value, and the node that counted it.

use super::journal::{MAGIC, RunIdentity};
use super::journal_lines::{Lines, parse_lines};
use super::record::fnv1a;
use crate::engine::Engine;
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

impl RunIdentity {
    /// The identity a header's fields name (`n=16 engine=search symmetry=full split=2
    /// tasks=356 shard=all version=0.10.0`), or `None` when they are not such fields.
    pub fn parse(fields: &str) -> Option<RunIdentity> {
        let mut map = BTreeMap::new();
        for field in fields.split(' ') {
            let (key, value) = field.split_once('=')?;
            map.insert(key, value);
        }
        let engine = Engine::from_names(map.get("engine")?, map.get("symmetry").copied())?;
        let shard = match *map.get("shard")? {
            "all" => None,
            text => {
                let (i, k) = text.split_once('/')?;
                Some((i.parse().ok()?, k.parse().ok()?))
            }
        };
        let identity = RunIdentity {
            n: map.get("n")?.parse().ok()?,
            engine,
            split_depth: map.get("split")?.parse().ok()?,
            tasks: map.get("tasks")?.parse().ok()?,
            shard,
            version: map.get("version")?.to_string(),
        };
        // Only fields as this program writes them: read back whole.
        (identity.fields() == fields).then_some(identity)
    }
}

impl Recorded {
    /// Reads the journal or subtotals file at `path`; any damage is an error naming its line
    /// (a journal's torn last line, cut by a kill, is left out).
    pub fn read(path: &Path) -> Result<Recorded, Error> {
        let fail = |what: String| Error::Checkpoint(format!("{}: {what}", path.display()));
        let bytes =
            std::fs::read(path).map_err(|e| Error::checkpoint_io(path, "cannot read it", e))?;
        let text = String::from_utf8(bytes).map_err(|_| fail("not text".into()))?;
        let (header, rest) = text
            .split_once('\n')
            .ok_or_else(|| fail("no complete header line".into()))?;
        if let Some(header) = header.strip_prefix(MAGIC) {
            Self::journal(header, rest, &fail)
        } else if let Some(header) = header.strip_prefix("# nqueens ") {
            Self::subtotals(header, rest, &fail)
        } else {
            Err(fail(
                "neither a checkpoint journal nor a subtotals file of this program".into(),
            ))
        }
    }

    /// A journal's lines after its magic: the header's fields and checksum, then records
    /// and node lines (a torn last line left out).
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
        let Lines { records, nodes } =
            parse_lines(&rest[..whole], fields, fnv1a(fields), identity.tasks).map_err(
                |(at, text)| {
                    fail(format!(
                        "damaged record on line {}: {:?}",
                        at + 2,
                        text.trim_end()
                    ))
                },
            )?;
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
    /// per solution and node, the column names, then a task and its value a line.
    fn subtotals(
        header: &str,
        rest: &str,
        fail: &impl Fn(String) -> Error,
    ) -> Result<Recorded, Error> {
        let damaged = || fail("damaged subtotals header".into());
        let (_, fields) = header.split_once(" subtotals: ").ok_or_else(damaged)?;
        let (fields, node) = fields.rsplit_once(" node=").ok_or_else(damaged)?;
        let (fields, _) = fields
            .rsplit_once(" units_per_solution=")
            .ok_or_else(damaged)?;
        let identity = RunIdentity::parse(fields).ok_or_else(damaged)?;
        let mut lines = rest.lines();
        if lines.next() != Some("task\tunits") {
            return Err(damaged());
        }
        let mut tasks = BTreeMap::new();
        for (i, line) in lines.enumerate() {
            let bad = || fail(format!("damaged line {}: {line:?}", i + 3));
            let (id, value) = line.split_once('\t').ok_or_else(bad)?;
            let id: usize = id.parse().map_err(|_| bad())?;
            let value: u128 = value.parse().map_err(|_| bad())?;
            if id >= identity.tasks || tasks.insert(id, (value, node.to_string())).is_some() {
                return Err(bad());
            }
        }
        Ok(Recorded { identity, tasks })
    }
}
