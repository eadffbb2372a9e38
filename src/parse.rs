//! Reading placements back from any output format, for `verify`.
//!
//! The reader tells three outcomes apart: a placement (a column per row, to be checked), a
//! placement that cannot be a column list (a board row with two queens or none: invalid,
//! with its reason), and text that is not the format at all (an error, with its place).

use crate::format::{Format, SVG_SQUARE};
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
    /// The columns, row 0 first; or why the text describes no placement of one queen per row.
    pub columns: Result<Vec<u32>, String>,
}

/// Text that is not in the format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Where.
    pub place: Place,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

/// Guesses the format of `text` from its first characters and first line.
pub fn detect(text: &str) -> Format {
    let trimmed = text.trim_start();
    match trimmed.chars().next() {
        Some('[') => return Format::Leetcode,
        Some('{') => return Format::Json,
        Some('<') => return Format::Svg,
        _ => {}
    }
    let first = trimmed.lines().next().unwrap_or("").trim();
    if !first.is_empty() && first.chars().all(|c| c == 'Q' || c == '.') {
        Format::Board
    } else if first.len() > 1 && first.chars().all(|c| c == '0' || c == '1') || first == "1" {
        // A lone "0" is the one-queen board in `perm`; in `flat` it would be an empty board.
        Format::Flat
    } else {
        Format::Perm
    }
}

/// Reads every placement of `text` in `format`.
pub fn parse(text: &str, format: Format) -> Result<Vec<Item>, ParseError> {
    match format {
        Format::Perm => lines(text, perm_line),
        Format::Flat => lines(text, flat_line),
        Format::Json => lines(text, json_line),
        Format::Board => boards(text),
        Format::Leetcode => leetcode(text),
        Format::Svg => svg(text),
    }
}

/// Applies `read` to every non-blank line.
fn lines(
    text: &str,
    read: impl Fn(&str) -> Result<Result<Vec<u32>, String>, String>,
) -> Result<Vec<Item>, ParseError> {
    let mut items = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let place = Place::Line(i + 1);
        if line.trim().is_empty() {
            continue;
        }
        let columns = read(line.trim()).map_err(|message| ParseError { place, message })?;
        items.push(Item { place, columns });
    }
    Ok(items)
}

fn perm_line(line: &str) -> Result<Result<Vec<u32>, String>, String> {
    line.split_whitespace()
        .map(|w| {
            w.parse::<u32>()
                .map_err(|_| format!("'{w}' is not a column number"))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Ok)
}

/// The columns of the rows of a board given as rows of `queen` and `empty`.
fn rows_to_columns(
    rows: &[&str],
    queen: char,
    empty: char,
) -> Result<Result<Vec<u32>, String>, String> {
    let n = rows.len();
    let mut columns = Vec::with_capacity(n);
    for (r, row) in rows.iter().enumerate() {
        if let Some(bad) = row.chars().find(|&c| c != queen && c != empty) {
            return Err(format!("unexpected character '{bad}'"));
        }
        if row.chars().count() != n {
            return Ok(Err(format!(
                "row {r} has {} squares on a board of {n} rows",
                row.chars().count()
            )));
        }
        let queens: Vec<usize> = row
            .char_indices()
            .filter(|&(_, c)| c == queen)
            .map(|(i, _)| i)
            .collect();
        match queens.as_slice() {
            [c] => columns.push(*c as u32),
            [] => return Ok(Err(format!("row {r} has no queen"))),
            more => return Ok(Err(format!("row {r} has {} queens", more.len()))),
        }
    }
    Ok(Ok(columns))
}

fn flat_line(line: &str) -> Result<Result<Vec<u32>, String>, String> {
    if let Some(bad) = line.chars().find(|&c| c != '0' && c != '1') {
        return Err(format!("unexpected character '{bad}'"));
    }
    let n = (line.len() as f64).sqrt().round() as usize;
    if n * n != line.len() {
        return Ok(Err(format!("{} digits is not a square board", line.len())));
    }
    let rows: Vec<&str> = (0..n).map(|r| &line[r * n..(r + 1) * n]).collect();
    rows_to_columns(&rows, '1', '0')
}

fn json_line(line: &str) -> Result<Result<Vec<u32>, String>, String> {
    #[derive(serde::Deserialize)]
    struct Line {
        n: u64,
        columns: Vec<u32>,
    }
    let parsed: Line = serde_json::from_str(line).map_err(|e| format!("not a placement: {e}"))?;
    if parsed.n != parsed.columns.len() as u64 {
        return Ok(Err(format!(
            "n is {} but {} columns are given",
            parsed.n,
            parsed.columns.len()
        )));
    }
    Ok(Ok(parsed.columns))
}

/// Boards of `Q`/`.` rows separated by blank lines.
fn boards(text: &str) -> Result<Vec<Item>, ParseError> {
    let mut items = Vec::new();
    let mut rows: Vec<&str> = Vec::new();
    let mut start = 0;
    let all: Vec<&str> = text.lines().collect();
    for (i, line) in all.iter().chain(std::iter::once(&"")).enumerate() {
        let line = line.trim();
        if line.is_empty() {
            if !rows.is_empty() {
                let place = Place::Line(start + 1);
                let columns = rows_to_columns(&rows, 'Q', '.')
                    .map_err(|message| ParseError { place, message })?;
                items.push(Item { place, columns });
                rows.clear();
            }
            continue;
        }
        if rows.is_empty() {
            start = i;
        }
        rows.push(line);
    }
    Ok(items)
}

/// One JSON array of boards, each an array of row strings.
fn leetcode(text: &str) -> Result<Vec<Item>, ParseError> {
    let boards: Vec<Vec<String>> = serde_json::from_str(text).map_err(|e| ParseError {
        place: Place::Line(e.line()),
        message: format!("not a JSON array of boards: {e}"),
    })?;
    let mut items = Vec::new();
    for (i, board) in boards.iter().enumerate() {
        let place = Place::Board(i + 1);
        let rows: Vec<&str> = board.iter().map(String::as_str).collect();
        let columns = if rows.is_empty() {
            Ok(Err("an empty board".to_string()))
        } else {
            rows_to_columns(&rows, 'Q', '.')
        }
        .map_err(|message| ParseError { place, message })?;
        items.push(Item { place, columns });
    }
    Ok(items)
}

/// The value of attribute `name` in the tag text `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

/// The boards of an SVG written by this program: each board a group with its size, each queen
/// drawn at its square. What is read is what is drawn.
fn svg(text: &str) -> Result<Vec<Item>, ParseError> {
    if !text.trim_start().starts_with("<svg") {
        return Err(ParseError {
            place: Place::Line(1),
            message: "not an SVG document".into(),
        });
    }
    let mut items = Vec::new();
    for (i, group) in text.split("<g class=\"board\"").skip(1).enumerate() {
        let place = Place::Board(i + 1);
        let fail = |message: &str| ParseError {
            place,
            message: message.to_string(),
        };
        let body = group.split("</g>").next().unwrap_or("");
        let n: usize = attribute(body, "data-n")
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| fail("a board without its size (data-n)"))?;
        let mut rows: Vec<Vec<u32>> = vec![Vec::new(); n];
        for tag in body.split("<use ").skip(1) {
            let coordinate = |name| {
                attribute(&format!(" {tag}"), name)
                    .and_then(|v| v.parse::<u64>().ok())
                    .ok_or_else(|| fail("a queen without coordinates"))
            };
            let (x, y) = (coordinate("x")?, coordinate("y")?);
            let (column, row) = (x / SVG_SQUARE, y / SVG_SQUARE);
            if row as usize >= n || x % SVG_SQUARE != 0 || y % SVG_SQUARE != 0 {
                return Err(fail("a queen off the squares of the board"));
            }
            rows[row as usize].push(column as u32);
        }
        let columns = rows
            .iter()
            .enumerate()
            .map(|(r, queens)| match queens.as_slice() {
                [c] => Ok(*c),
                [] => Err(format!("row {r} has no queen")),
                more => Err(format!("row {r} has {} queens", more.len())),
            })
            .collect::<Result<Vec<u32>, String>>();
        items.push(Item { place, columns });
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::format_all;

    #[test]
    fn every_format_reads_back_what_it_wrote() {
        let solutions = vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]];
        for format in Format::ALL {
            let text = String::from_utf8(format_all(format, 4, &solutions)).unwrap();
            assert_eq!(detect(&text), format, "{text}");
            let items = parse(&text, format).unwrap();
            let columns: Vec<Vec<u32>> = items.into_iter().map(|i| i.columns.unwrap()).collect();
            assert_eq!(columns, solutions, "{format:?}");
        }
    }

    #[test]
    fn the_one_queen_board_reads_back_in_every_format() {
        for format in Format::ALL {
            let text = String::from_utf8(format_all(format, 1, &[vec![0]])).unwrap();
            assert_eq!(detect(&text), format, "{text:?}");
            assert_eq!(parse(&text, format).unwrap()[0].columns, Ok(vec![0]));
        }
    }

    #[test]
    fn bad_text_is_an_error_with_its_place() {
        let error = parse("1 3 0 2\n1 x 0 2\n", Format::Perm).unwrap_err();
        assert_eq!(error.to_string(), "line 2: 'x' is not a column number");
        assert!(parse("[[\".Q\"", Format::Leetcode).is_err());
        assert!(parse("{\"n\":4}\n", Format::Json).is_err());
    }

    #[test]
    fn boards_without_one_queen_per_row_are_invalid_not_errors() {
        let items = parse(".Q..\n...Q\nQ..Q\n..Q.\n\n", Format::Board).unwrap();
        assert_eq!(items[0].columns, Err("row 2 has 2 queens".into()));
        let items = parse("0000000110000010\n", Format::Flat).unwrap();
        assert_eq!(items[0].columns, Err("row 0 has no queen".into()));
    }
}
