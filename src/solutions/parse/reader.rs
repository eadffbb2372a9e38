//! The placement reader ([`Reader`]): its state, the format given or detected from the
//! first characters and line, and its iteration. The format readers (`lines.rs`,
//! `documents.rs`) add a method each to it for their formats, which [`Reader::next`] (through
//! `next_item`) calls; [`detect`] and [`parse`] do the same for a text in memory.

use super::input::Input;
use super::item::{BINARY, Item, ParseError, Place, line_limit, max_n};
use crate::solutions::format::Format;
use std::io::BufRead;

/// Guesses the format of `text` from its first characters and first line.
pub fn detect(text: &str) -> Format {
    let trimmed = text.trim_start();
    match trimmed.chars().next() {
        Some('[') => return Format::Leetcode,
        Some('{') => return Format::Json,
        Some('<') => return Format::Svg,
        _ => {}
    }
    detect_line(trimmed.lines().next().unwrap_or("").as_bytes())
}

/// The line-based format whose first line is `first`: rows of `Q` and `.` are `board`, a
/// row of `0` and `1` digits `flat`, anything else `perm`.
fn detect_line(first: &[u8]) -> Format {
    let first = first.trim_ascii();
    if !first.is_empty() && first.iter().all(|&c| c == b'Q' || c == b'.') {
        Format::Board
    } else if first.len() > 1 && first.iter().all(|&c| c == b'0' || c == b'1') || first == b"1" {
        // A lone "0" is the one-queen board in `perm`; in `flat` it would be an empty board.
        Format::Flat
    } else {
        Format::Perm
    }
}

/// Reads every placement of `text` in `format`.
pub fn parse(text: &str, format: Format) -> Result<Vec<Item>, ParseError> {
    Reader::new(text.as_bytes(), Some(format))?.collect()
}

/// Where the reader is within a document that wraps the whole set (`leetcode`, `svg`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// Before its opening.
    Start,
    /// Among its boards.
    Boards,
    /// After its closing: only whitespace may follow.
    End,
}

/// A board being read from an SVG document: the queens of each row, counted (by
/// `documents.rs`, which makes it an [`Item`]).
pub(super) struct SvgBoard {
    pub(super) place: Place,
    /// For each row, the column of its first queen and how many it has.
    pub(super) rows: Vec<(u32, u32)>,
}

/// Reads placements one at a time from any `BufRead`, in bounded memory.
pub struct Reader<R> {
    pub(super) input: Input<R>,
    pub(super) format: Format,
    pub(super) stage: Stage,
    /// Boards read so far (the number of the next one, less one).
    pub(super) boards: usize,
    /// The rows of the board being read (`board`, `leetcode`), kept for their capacity.
    pub(super) rows: Vec<String>,
    /// An SVG board that is open.
    pub(super) svg: Option<SvgBoard>,
    /// What a line or a tag too long is, said once.
    pub(super) too_long: String,
    /// Whether the end, or an error, has been reached.
    pub(super) finished: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input` in `format`, or in the format its first characters and first line
    /// show for `None`.
    pub fn new(input: R, format: Option<Format>) -> Result<Reader<R>, ParseError> {
        let mut input = Input::new(input);
        // A byte order mark cut short is text that is not UTF-8, unless the bytes after it
        // are binary anyway (random bytes may start as a mark does).
        let mark = input.skip_byte_order_mark();
        if input.looks_binary()? {
            return Err(ParseError {
                place: Place::Line(1),
                message: BINARY.into(),
            });
        }
        mark?;
        let format = match format {
            Some(format) => format,
            None => Self::detect(&mut input)?,
        };
        let limit = line_limit(format);
        let too_long = match format {
            Format::Perm | Format::Json => {
                format!("a word longer than {limit} bytes: longer than any column number")
            }
            Format::Svg => format!(
                "a tag longer than {limit} bytes: more than an svg placement of n <= {} takes",
                max_n(format)
            ),
            _ => format!(
                "a line longer than {limit} bytes: more than a {} placement of n <= {} takes",
                format.name(),
                max_n(format)
            ),
        };
        Ok(Reader {
            input,
            format,
            stage: Stage::Start,
            boards: 0,
            rows: Vec::new(),
            svg: None,
            too_long,
            finished: false,
        })
    }

    /// The format: given, or detected.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Detects the format from the first character that is not whitespace, or (for the
    /// line-based formats) from the first line, read ahead and given back as far as it can
    /// be a `flat` or `board` row: a byte of neither (a space between two words), or more
    /// than such a row holds, makes it `perm`.
    fn detect(input: &mut Input<R>) -> Result<Format, ParseError> {
        match input.peek_token()? {
            Some(b'[') => return Ok(Format::Leetcode),
            Some(b'{') => return Ok(Format::Json),
            Some(b'<') => return Ok(Format::Svg),
            None => return Ok(Format::Perm),
            Some(_) => {}
        }
        let limit = [Format::Flat, Format::Board]
            .into_iter()
            .map(line_limit)
            .max()
            .unwrap_or(0);
        let row = |b: u8| matches!(b, b'Q' | b'.' | b'0' | b'1' | b' ' | b'\t' | b'\r');
        let (first, whole) = input.read_ahead(limit, row)?;
        let one_word = !first.trim_ascii().iter().any(|&b| b.is_ascii_whitespace());
        Ok(if whole && one_word {
            detect_line(first)
        } else {
            Format::Perm
        })
    }

    /// The next placement, `None` at the end.
    fn next_item(&mut self) -> Result<Option<Item>, ParseError> {
        match self.format {
            Format::Perm => self.next_perm(),
            Format::Flat => self.next_flat(),
            Format::Json => self.next_json(),
            Format::Board => self.next_board(),
            Format::Leetcode => self.next_leetcode(),
            Format::Svg => self.next_svg(),
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Item, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        let next = self.next_item().transpose();
        // Nothing is read after the end, nor after an error: the input is not in the format.
        self.finished = !matches!(next, Some(Ok(_)));
        next
    }
}
