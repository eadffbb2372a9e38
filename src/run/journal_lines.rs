//! A journal's record lines (`task {id} {value} {check}`, see `journal.rs`): the line a
//! finished task writes, and blocks of them parsed in parallel, where a resume of n = 28
//! reads tens of millions.

use super::record::{fnv1a, fnv1a_on};

/// The journal's line recording that task `id` of the run `identity` finished with `value`.
pub(super) fn record_line(identity: &str, id: usize, value: u128) -> String {
    let check = fnv1a(&format!("{identity} {id} {value}"));
    format!("task {id} {value} {check:016x}\n")
}

/// One block's records, or its first damaged line's number in the block and text: named
/// because the type spelled out is more than clippy lets a binding carry.
type BlockRecords<'a> = Result<Vec<(usize, u128)>, (usize, &'a str)>;

/// The records of `lines` (whole lines, each ending in a newline) of the run whose
/// identity's checksum is `start`, parsed in parallel on the current rayon pool in blocks of
/// lines; or the first damaged line's number (from 0) and text.
pub(super) fn parse_records(
    lines: &str,
    start: u64,
    tasks: usize,
) -> Result<Vec<(usize, u128)>, (usize, &str)> {
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
    let parsed: Vec<BlockRecords> = blocks
        .par_iter()
        .map(|block| records_of(block, start, tasks))
        .collect();
    let mut records = Vec::with_capacity(parsed.iter().flatten().map(Vec::len).sum());
    // A block parsed whole has a line per record.
    let mut line = 0;
    for result in parsed {
        match result {
            Ok(mut some) => {
                line += some.len();
                records.append(&mut some);
            }
            Err((i, text)) => return Err((line + i, text)),
        }
    }
    Ok(records)
}

/// The records of one block of whole lines, or its first damaged line's number in the block
/// and text. One pass over the bytes, each line parsed where it starts ([`record_at`]): a
/// search for each line's end first, and words split apart, took most of a resume's reading
/// at n = 28.
fn records_of(block: &str, start: u64, tasks: usize) -> BlockRecords<'_> {
    let bytes = block.as_bytes();
    let mut records = Vec::with_capacity(bytes.len() / 32);
    let mut at = 0;
    while at < bytes.len() {
        match record_at(bytes, at, start, tasks) {
            Some((record, next)) => {
                records.push(record);
                at = next;
            }
            None => {
                let end = bytes[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |end| at + end + 1);
                return Err((records.len(), &block[at..end]));
            }
        }
    }
    Ok(records)
}

/// Parses the record line that starts at `bytes[at]` (`task {id} {value} {check}` and its
/// newline) of the run whose identity's checksum is `start`: the record, and where the next
/// line starts; `None` unless the line is one whole record of that run.
#[inline]
fn record_at(bytes: &[u8], at: usize, start: u64, tasks: usize) -> Option<((usize, u128), usize)> {
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
    Some(((id, value), at + 5 + i + 17))
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDENTITY: &str =
        "n=12 engine=search symmetry=full split=2 tasks=100 shard=all version=test";

    fn parse(text: &str) -> Result<Vec<(usize, u128)>, (usize, &str)> {
        parse_records(text, fnv1a(IDENTITY), 100)
    }

    /// Every line `record_line` writes reads back, values of any size included, and the
    /// line numbers of damage count whole lines.
    #[test]
    fn written_lines_read_back() {
        let values = [
            0,
            7,
            u128::from(u64::MAX),
            u128::from(u64::MAX) + 1,
            u128::MAX,
        ];
        let text: String = values
            .iter()
            .enumerate()
            .map(|(id, &value)| record_line(IDENTITY, id * 20, value))
            .collect();
        let expected: Vec<(usize, u128)> = values
            .iter()
            .enumerate()
            .map(|(id, &v)| (id * 20, v))
            .collect();
        assert_eq!(parse(&text), Ok(expected));
        let damaged = format!("{text}task 1 2 3\n");
        assert_eq!(parse(&damaged), Err((values.len(), "task 1 2 3\n")));
    }

    /// What the one-pass parser refuses: any line that is not exactly as written, even with a
    /// checksum made to match its text.
    #[test]
    fn lines_not_as_written_are_refused() {
        let checked = |fields: &str| {
            let check = fnv1a(&format!("{IDENTITY} {fields}"));
            format!("task {fields} {check:016x}\n")
        };
        let good = record_line(IDENTITY, 5, 42);
        assert_eq!(checked("5 42"), good);
        let bad = [
            checked("+5 42"),
            checked("5 -42"),
            checked("5  42"),
            checked("100 42"),
            checked("99999999999999999999999 42"),
            checked(&format!("5 {}0", u128::MAX)),
            good.to_uppercase(),
            good.replace("task", "Task"),
            good.replace('\n', " \n"),
            good.replacen(' ', "\t", 1),
            good[..good.len() - 2].to_string() + "\n",
        ];
        for line in &bad {
            assert_eq!(parse(line), Err((0, line.as_str())), "{line:?}");
        }
    }
}
