//! The formats of one placement a line: `perm` and `json`, read number by number into a
//! [`Checker`] however long their line is, and `flat`, read a line at a time (it grows as n²
//! and is bounded by its largest board).

use super::input::{Scan, Word};
use super::item::{Item, ParseError, Place, line_limit, plural, rows_to_columns};
use super::reader::Reader;
use crate::solutions::format::Format;
use crate::solutions::solution::{Checker, Placement};
use std::io::BufRead;

/// How deep a `json` line's objects and arrays may nest in the fields it ignores.
const MAX_DEPTH: usize = 32;

/// The longest key, or string in an ignored field, of a `json` line.
const MAX_STRING: usize = 4_096;

impl<R: BufRead> Reader<R> {
    /// The next non-blank `perm` line: its words, each a column number.
    pub(super) fn next_perm(&mut self) -> Result<Option<Item>, ParseError> {
        let limit = line_limit(Format::Perm);
        loop {
            let place = Place::Line(self.input.line());
            let at = |message| ParseError { place, message };
            let mut checker = Checker::new();
            let mut push = |value: u64| column(value).and_then(|c| checker.push(c));
            let end = loop {
                let word = match self.input.scan_numbers(None, b'\n', true, &mut push)? {
                    Scan::End => break false,
                    Scan::EndOfInput => break true,
                    Scan::Slow { .. } => self.input.next_word(limit, &self.too_long)?,
                };
                match word {
                    Word::Number(value) => push(value).map_err(at)?,
                    Word::Text(word) => {
                        let value = word
                            .parse::<u64>()
                            .map_err(|_| format!("'{word}' is not a column number"));
                        value.and_then(&mut push).map_err(at)?;
                    }
                    Word::EndOfLine => break false,
                    Word::EndOfInput => break true,
                }
            };
            if checker.rows() > 0 {
                return Ok(Some(Item {
                    place,
                    columns: Ok(checker.finish()),
                }));
            }
            if end {
                return Ok(None);
            }
        }
    }

    /// The next non-blank `flat` line: n*n digits.
    pub(super) fn next_flat(&mut self) -> Result<Option<Item>, ParseError> {
        let limit = line_limit(Format::Flat);
        while let Some((number, line)) = self.input.next_line(limit, &self.too_long)? {
            let place = Place::Line(number);
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let columns = flat_line(line).map_err(|message| ParseError { place, message })?;
            return Ok(Some(Item { place, columns }));
        }
        Ok(None)
    }

    /// The next `json` line: an object with the board size `n` and its `columns`, in any
    /// order, other fields ignored.
    pub(super) fn next_json(&mut self) -> Result<Option<Item>, ParseError> {
        let Some(first) = self.input.peek_token()? else {
            return Ok(None);
        };
        let place = Place::Line(self.input.line());
        let fail = |message: String| ParseError {
            place,
            message: format!("not a placement: {message}"),
        };
        if first != b'{' {
            return Err(fail("expected '{'".into()));
        }
        self.input.next_token()?;
        let (mut n, mut checker) = (None, None);
        let mut key = String::new();
        if self.input.peek_token()? == Some(b'}') {
            self.input.next_token()?;
        } else {
            loop {
                if self.input.next_token()? != Some(b'"') {
                    return Err(fail("expected a field name".into()));
                }
                let too_long = format!("a field name longer than {MAX_STRING} bytes");
                self.input.json_string(&mut key, MAX_STRING, &too_long)?;
                if self.input.next_token()? != Some(b':') {
                    return Err(fail(format!("expected ':' after \"{key}\"")));
                }
                let duplicate = || fail(format!("duplicate field `{key}`"));
                match key.as_str() {
                    "n" if n.is_some() => return Err(duplicate()),
                    "columns" if checker.is_some() => return Err(duplicate()),
                    "n" => n = Some(self.json_whole::<u64>("the board size").map_err(fail)?),
                    "columns" => checker = Some(self.json_columns().map_err(fail)?),
                    _ => self.skip_json(0).map_err(fail)?,
                }
                match self.input.next_token()? {
                    Some(b',') => continue,
                    Some(b'}') => break,
                    _ => return Err(fail("expected ',' or '}'".into())),
                }
            }
        }
        self.input.end_of_line()?;
        let (Some(n), Some(checker)) = (n, checker) else {
            let missing = if n.is_none() { "n" } else { "columns" };
            return Err(fail(format!("missing field `{missing}`")));
        };
        let rows = checker.rows();
        let columns = if n == rows as u64 {
            Ok(checker.finish())
        } else {
            Err(format!(
                "n is {n} but {} given",
                match rows {
                    1 => "1 column is".to_string(),
                    more => format!("{more} columns are"),
                }
            ))
        };
        Ok(Some(Item { place, columns }))
    }

    /// A whole number of a `json` line, naming `what` it is when it is not one.
    fn json_whole<T: TryFrom<u64> + std::str::FromStr>(&mut self, what: &str) -> Result<T, String> {
        let too_long = format!("{what} is longer than {} bytes", line_limit(Format::Json));
        // Whitespace before it.
        self.input.peek_token().map_err(|e| e.message)?;
        let ends = |b: u8| matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\r' | b'\n');
        if let Some(value) = self.input.quick_number(ends).map_err(|e| e.message)? {
            return T::try_from(value)
                .map_err(|_| format!("{what} '{value}' is not a whole number in range"));
        }
        let text = self
            .input
            .json_scalar(line_limit(Format::Json), &too_long)
            .map_err(|e| e.message)?;
        text.parse()
            .map_err(|_| format!("{what} '{text}' is not a whole number in range"))
    }

    /// A `json` line's array of columns, checked as it is read.
    fn json_columns(&mut self) -> Result<Checker, String> {
        let message = |e: ParseError| e.message;
        if self.input.next_token().map_err(message)? != Some(b'[') {
            return Err("the columns are not an array".into());
        }
        let mut checker = Checker::new();
        if self.input.peek_token().map_err(message)? == Some(b']') {
            self.input.next_token().map_err(message)?;
            return Ok(checker);
        }
        let mut push = |value: u64| column(value).and_then(|c| checker.push(c));
        let mut number = true;
        loop {
            let scan = self.input.scan_numbers(Some(b','), b']', number, &mut push);
            match scan.map_err(message)? {
                Scan::End => break,
                Scan::EndOfInput => return Err("the input ends inside the columns".into()),
                Scan::Slow { number: true } => {
                    push(self.json_whole::<u64>("a column")?)?;
                    number = false;
                }
                Scan::Slow { number: false } => match self.input.next_token().map_err(message)? {
                    Some(b',') => number = true,
                    Some(b']') => break,
                    _ => return Err("expected ',' or ']' after a column".into()),
                },
            }
        }
        Ok(checker)
    }

    /// Skips a JSON value of a field this reader ignores: a string, a scalar, or an array or
    /// object of them, at most [`MAX_DEPTH`] deep.
    fn skip_json(&mut self, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!("values nested more than {MAX_DEPTH} deep"));
        }
        let message = |e: ParseError| e.message;
        let too_long = format!("a string longer than {MAX_STRING} bytes");
        let mut scratch = String::new();
        match self.input.peek_token().map_err(message)? {
            Some(b'"') => {
                self.input.next_token().map_err(message)?;
                self.input
                    .json_string(&mut scratch, MAX_STRING, &too_long)
                    .map_err(message)
            }
            Some(open @ (b'[' | b'{')) => {
                self.input.next_token().map_err(message)?;
                let close = if open == b'[' { b']' } else { b'}' };
                if self.input.peek_token().map_err(message)? == Some(close) {
                    self.input.next_token().map_err(message)?;
                    return Ok(());
                }
                loop {
                    if open == b'{' {
                        if self.input.next_token().map_err(message)? != Some(b'"') {
                            return Err("expected a field name".into());
                        }
                        self.input
                            .json_string(&mut scratch, MAX_STRING, &too_long)
                            .map_err(message)?;
                        if self.input.next_token().map_err(message)? != Some(b':') {
                            return Err("expected ':'".into());
                        }
                    }
                    self.skip_json(depth + 1)?;
                    match self.input.next_token().map_err(message)? {
                        Some(b',') => continue,
                        Some(b) if b == close => return Ok(()),
                        _ => return Err(format!("expected ',' or '{}'", close as char)),
                    }
                }
            }
            Some(_) => {
                let scalar = self
                    .input
                    .json_scalar(MAX_STRING, &too_long)
                    .map_err(message)?;
                let number = scalar.parse::<f64>().is_ok_and(|v| v.is_finite());
                if number || matches!(scalar, "true" | "false" | "null") {
                    Ok(())
                } else {
                    Err(format!("'{scalar}' is not a JSON value"))
                }
            }
            None => Err("the line ends inside the object".into()),
        }
    }
}

/// The placement of a `flat` line, or why it has none (invalid), or why it is not the
/// format (an error).
fn flat_line(line: &str) -> Result<Result<Placement, String>, String> {
    if let Some(bad) = line.chars().find(|&c| c != '0' && c != '1') {
        return Err(format!("unexpected character '{bad}'"));
    }
    let n = (line.len() as f64).sqrt().round() as usize;
    if n * n != line.len() {
        return Ok(Err(format!(
            "{} is not a square board",
            plural(line.len() as u128, "digit")
        )));
    }
    let rows: Vec<&str> = (0..n).map(|r| &line[r * n..(r + 1) * n]).collect();
    rows_to_columns(&rows, '1', '0')
}

/// A column number read as a whole number.
fn column(value: u64) -> Result<u32, String> {
    u32::try_from(value).map_err(|_| format!("'{value}' is not a column number"))
}
