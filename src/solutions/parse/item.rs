//! What the placement reader yields and what its format readers share: an [`Item`] and its
//! [`Place`], a [`ParseError`], the bounds on what is read ([`MAX_WORD`], [`max_n`],
//! [`line_limit`]), a board's rows made a placement, and the plural of the messages. A file
//! of its own, so that the format readers take the vocabulary from here and not from
//! `parse.rs`, which only wires them together.

use crate::solutions::format::Format;
use crate::solutions::solution::{Checker, Placement};
use std::fmt;

/// Where an item was found: a line for line-based formats, a board number for the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// 1-based line number.
    Line(usize),
    /// 1-based board number within the document.
    Board(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Line(n) => write!(f, "line {n}"),
            Place::Board(n) => write!(f, "board {n}"),
        }
    }
}

/// One placement read, or why the board it describes has no column list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Where it was found.
    pub place: Place,
    /// The placement, checked; or why the text describes no placement of one queen per row.
    pub columns: Result<Placement, String>,
}

/// Text that is not in the format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Where.
    pub place: Place,
    /// What is wrong.
    pub message: String,
}

/// Why input whose first line is binary data is refused ([`ParseError::is_binary`]).
pub const BINARY: &str = "binary data (not a solution listing in any format)";

impl ParseError {
    /// Whether the input was refused as binary data from its first line (gzip, an image,
    /// random bytes): a verdict on the whole input, which a line number does not add to.
    pub fn is_binary(&self) -> bool {
        self.message == BINARY
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

/// The longest word of a `perm` line, or number of a `json` one: a column number has at most
/// ten digits, and this leaves room for leading zeros and a sign.
pub const MAX_WORD: usize = 32;

/// The largest board the reader accepts in `format`: in `perm` and `json` any board `find`
/// writes ([`Checker::MAX_ROWS`] rows); in the others, the largest they are written for.
pub fn max_n(format: Format) -> usize {
    match format {
        Format::Perm | Format::Json => Checker::MAX_ROWS,
        other => usize::try_from(other.max_n()).unwrap_or(usize::MAX),
    }
}

/// The longest piece the reader accepts in `format`: in `perm` and `json` a word or a number
/// ([`MAX_WORD`]; their lines grow with the board and have no bound of their own); in `svg` a
/// tag with the text before it; in the others a line, twice what the writer writes for the
/// largest board, for any spacing, and a little more.
pub fn line_limit(format: Format) -> usize {
    let n = max_n(format);
    let written = match format {
        Format::Perm | Format::Json => return MAX_WORD,
        Format::Flat => n * n,
        Format::Board | Format::Leetcode => n,
        // The longest piece the SVG writer writes is its header's pattern; no piece grows
        // with n.
        Format::Svg => 2_048,
    };
    2 * written + 64
}

/// `count` and `noun`, plural unless the count is one: `1 placement`, `2 placements`.
pub fn plural(count: impl Into<u128>, noun: &str) -> String {
    match count.into() {
        1 => format!("1 {noun}"),
        count => format!("{count} {noun}s"),
    }
}

/// The placement of a board given as rows of `queen` and `empty`, or why it has none
/// (invalid), or why it is not the format (an error: another character).
pub(super) fn rows_to_columns(
    rows: &[impl AsRef<str>],
    queen: char,
    empty: char,
) -> Result<Result<Placement, String>, String> {
    let n = rows.len();
    let mut columns = Vec::with_capacity(n);
    for (r, row) in rows.iter().enumerate() {
        let row = row.as_ref();
        if let Some(bad) = row.chars().find(|&c| c != queen && c != empty) {
            return Err(format!("unexpected character '{bad}'"));
        }
        // Only `queen` and `empty` are left, both ASCII here: bytes are squares.
        if row.len() != n {
            return Ok(Err(format!(
                "row {r} has {} on a board of {}",
                plural(row.len() as u128, "square"),
                plural(n as u128, "row")
            )));
        }
        let mut queens = row.bytes().enumerate().filter(|&(_, c)| c == queen as u8);
        match (queens.next(), queens.count()) {
            (Some((c, _)), 0) => columns.push(c as u32),
            (None, _) => return Ok(Err(format!("row {r} has no queen"))),
            (Some(_), more) => return Ok(Err(format!("row {r} has {} queens", more + 1))),
        }
    }
    Ok(Ok(Placement::new(columns)))
}
