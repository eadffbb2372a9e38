//! A journal's lines after its header (see `journal.rs`): the record a finished task writes,
//! `task {id} {value} {node} {check}`, and the line that names a node, `node {node} {name}
//! {check}`, which a run writes for itself (and an MPI run for each rank) before its
//! records; and blocks of them parsed in parallel, where a resume of n = 28 reads tens of
//! millions.

use super::record::{fnv1a, fnv1a_on};

/// The journal's line recording that task `id` of the run `identity` finished with `value`,
/// counted on node `node`.
pub(super) fn record_line(identity: &str, id: usize, value: u128, node: u32) -> String {
    let check = fnv1a(&format!("{identity} {id} {value} {node}"));
    format!("task {id} {value} {node} {check:016x}\n")
}

/// The journal's line naming node `node` of the run `identity`: `name` with every
/// character that is not a letter, a digit or one of `.-_:` written as `_` (a host name and
/// an MPI rank, say).
pub(super) fn node_line(identity: &str, node: u32, name: &str) -> String {
    let name = node_name(name);
    let check = fnv1a(&format!("{identity} node {node} {name}"));
    format!("node {node} {name} {check:016x}\n")
}

/// A node's name as a journal line holds it: one word of letters, digits and `.-_:`.
pub(super) fn node_name(name: &str) -> String {
    let word: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || ".-_:".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if word.is_empty() { "_".into() } else { word }
}

/// What lines after a journal's header hold: each task's value and the node that counted
/// it, and the nodes' names.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Lines {
    pub(super) records: Vec<(usize, u128, u32)>,
    pub(super) nodes: Vec<(u32, String)>,
}

/// A run's records made one a task, in task order: a task recorded twice alike (on whatever
/// node) is one record. A task recorded twice with different values, or with a value past
/// `most` (more than any task of the run can hold), is the error, in words: the resume and
/// the audit read one journal alike.
pub(super) fn settle(records: &mut Vec<(usize, u128, u32)>, most: u128) -> Result<(), String> {
    use rayon::slice::ParallelSliceMut;
    if let Some(&(id, value, _)) = records.iter().find(|record| record.1 > most) {
        return Err(format!(
            "task {id} is recorded with {value}, more than any task of this run can hold \
             ({most} at most): a damaged or forged record"
        ));
    }
    records.par_sort_unstable();
    records.dedup_by(|a, b| (a.0, a.1) == (b.0, b.1));
    match records.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        Some(pair) => Err(format!(
            "task {} is recorded twice with different values ({} and {})",
            pair[0].0, pair[0].1, pair[1].1
        )),
        None => Ok(()),
    }
}

/// One block's lines and how many there are, or its first damaged line's number in the block
/// and text: named because the type spelled out is more than clippy lets a binding carry.
type BlockLines<'t> = Result<(Lines, usize), (usize, &'t str)>;

/// The lines of `lines` (whole lines, each ending in a newline) of the run whose identity is
/// `identity` (its checksum `start`), parsed in parallel on the current rayon pool in blocks
/// of lines; or the first damaged line's number (from 0) and text.
pub(super) fn parse_lines<'t>(
    lines: &'t str,
    identity: &str,
    start: u64,
    tasks: usize,
) -> Result<Lines, (usize, &'t str)> {
    use rayon::prelude::*;
    // Blocks of about a megabyte, each ending at a line's end (4 KiB in the unit tests).
    const BLOCK: usize = if cfg!(test) { 4 << 10 } else { 1 << 20 };
    let mut blocks = Vec::new();
    let mut rest = lines;
    while !rest.is_empty() {
        let cut = match rest.get(BLOCK..).and_then(|after| after.find('\n')) {
            Some(at) => BLOCK + at + 1,
            None => rest.len(),
        };
        let (block, after) = rest.split_at(cut);
        blocks.push(block);
        rest = after;
    }
    let parsed: Vec<BlockLines> = blocks
        .par_iter()
        .map(|block| lines_of(block, identity, start, tasks))
        .collect();
    let total = parsed.iter().flatten().map(|(l, _)| l.records.len()).sum();
    let mut all = Lines {
        records: Vec::with_capacity(total),
        nodes: Vec::new(),
    };
    // The lines before each block, to number a damaged one in the whole.
    let mut line = 0;
    for result in parsed {
        match result {
            Ok((mut some, count)) => {
                line += count;
                all.records.append(&mut some.records);
                all.nodes.append(&mut some.nodes);
            }
            Err((i, text)) => return Err((line + i, text)),
        }
    }
    Ok(all)
}

/// The lines of one block of whole lines, and how many there are; or its first damaged
/// line's number in the block and text. One pass over the bytes, each record parsed where it
/// starts ([`record_at`]): a search for each line's end first, and words split apart, took
/// most of a resume's reading at n = 28.
fn lines_of<'t>(block: &'t str, identity: &str, start: u64, tasks: usize) -> BlockLines<'t> {
    let bytes = block.as_bytes();
    let mut lines = Lines {
        records: Vec::with_capacity(bytes.len() / 32),
        nodes: Vec::new(),
    };
    let (mut at, mut count) = (0, 0);
    while at < bytes.len() {
        if let Some((record, next)) = record_at(bytes, at, start, tasks) {
            lines.records.push(record);
            at = next;
            count += 1;
            continue;
        }
        let end = bytes[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |end| at + end + 1);
        let text = &block[at..end];
        match node_at(text, identity) {
            Some(node) => lines.nodes.push(node),
            None => return Err((count, text)),
        }
        at = end;
        count += 1;
    }
    Ok((lines, count))
}

/// The node line `text` names (its number and name), if it is one of this run, whole and
/// as written.
fn node_at(text: &str, identity: &str) -> Option<(u32, String)> {
    let line = text.strip_prefix("node ")?.strip_suffix('\n')?;
    let (number, rest) = line.split_once(' ')?;
    let (name, _) = rest.split_once(' ')?;
    let node: u32 = number.parse().ok()?;
    (node.to_string() == number && node_line(identity, node, name) == text)
        .then(|| (node, name.to_string()))
}

/// Parses the record line that starts at `bytes[at]` (`task {id} {value} {node} {check}`
/// and its newline) of the run whose identity's checksum is `start`: the record, and where
/// the next line starts; `None` unless the line is one whole record of that run.
#[inline]
fn record_at(
    bytes: &[u8],
    at: usize,
    start: u64,
    tasks: usize,
) -> Option<((usize, u128, u32), usize)> {
    let line = bytes.get(at..)?.strip_prefix(b"task ")?;
    // The checksum of "{identity} {id} {value}", carried on from the identity's over the
    // bytes as they are read.
    let mut hash = start;
    let mut i = 0;
    // Decimal digits up to a space, at least one: the number they make, if it fits; the
    // hash carried over a space and the digits.
    let mut number = |hash: &mut u64| -> Option<u128> {
        let first = i;
        let length = line[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        i += length;
        (length > 0 && line.get(i) == Some(&b' ')).then_some(())?;
        let digits = &line[first..i];
        *hash = fnv1a_on(fnv1a_on(*hash, b" "), digits);
        i += 1;
        // Up to 19 digits in a u64 (u128 arithmetic checked digit by digit was half the
        // parse); longer numbers through the standard parser.
        if length <= 19 {
            let number = digits
                .iter()
                .fold(0u64, |n, &b| n * 10 + u64::from(b - b'0'));
            Some(u128::from(number))
        } else {
            std::str::from_utf8(digits).ok()?.parse().ok()
        }
    };
    let id = number(&mut hash)?;
    let value = number(&mut hash)?;
    let node = u32::try_from(number(&mut hash)?).ok()?;
    let check = line.get(i..i + 17)?;
    if check[16] != b'\n' {
        return None;
    }
    // The checksum written out as the line must spell it: compared whole, not parsed digit
    // by digit.
    let expected: [u8; 16] =
        std::array::from_fn(|k| b"0123456789abcdef"[(hash >> (60 - 4 * k) & 0xf) as usize]);
    if check[..16] != expected {
        return None;
    }
    let id = usize::try_from(id).ok().filter(|&id| id < tasks)?;
    Some(((id, value, node), at + 5 + i + 17))
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDENTITY: &str =
        "n=12 engine=search symmetry=full split=2 tasks=100 shard=all version=test";

    fn parse(text: &str) -> Result<Lines, (usize, &str)> {
        parse_lines(text, IDENTITY, fnv1a(IDENTITY), 100)
    }

    /// Every line `record_line` and `node_line` write reads back, values of any size
    /// included, and the line numbers of damage count whole lines.
    #[test]
    fn written_lines_read_back() {
        let values = [
            0,
            7,
            u128::from(u64::MAX),
            u128::from(u64::MAX) + 1,
            u128::MAX,
        ];
        let mut text = node_line(IDENTITY, 0, "host-a.example:rank 0");
        text.push_str(&node_line(IDENTITY, 7, "b"));
        for (id, &value) in values.iter().enumerate() {
            text.push_str(&record_line(IDENTITY, id * 20, value, (id % 2) as u32 * 7));
        }
        let expected = Lines {
            records: values
                .iter()
                .enumerate()
                .map(|(id, &v)| (id * 20, v, (id % 2) as u32 * 7))
                .collect(),
            nodes: vec![(0, "host-a.example:rank_0".into()), (7, "b".into())],
        };
        assert_eq!(parse(&text), Ok(expected));
        let damaged = format!("{text}task 1 2 3\n");
        assert_eq!(parse(&damaged), Err((values.len() + 2, "task 1 2 3\n")));
    }

    /// What the one-pass parser refuses: any line that is not exactly as written, even with a
    /// checksum made to match its text.
    #[test]
    fn lines_not_as_written_are_refused() {
        let checked = |fields: &str| {
            let check = fnv1a(&format!("{IDENTITY} {fields}"));
            format!("task {fields} {check:016x}\n")
        };
        let good = record_line(IDENTITY, 5, 42, 3);
        assert_eq!(checked("5 42 3"), good);
        let bad = [
            checked("+5 42 3"),
            checked("5 -42 3"),
            checked("5  42 3"),
            checked("100 42 3"),
            checked("5 42"),
            checked("5 42 4294967296"),
            checked("99999999999999999999999 42 3"),
            checked(&format!("5 {}0 3", u128::MAX)),
            good.to_uppercase(),
            good.replace("task", "Task"),
            good.replace('\n', " \n"),
            good.replacen(' ', "\t", 1),
            good[..good.len() - 2].to_string() + "\n",
            node_line(IDENTITY, 1, "a").replace(" a ", " b "),
            node_line("another run", 1, "a"),
            node_line(IDENTITY, 1, "a").replace("node 1", "node 01"),
        ];
        for line in &bad {
            assert_eq!(parse(line), Err((0, line.as_str())), "{line:?}");
        }
    }
}
