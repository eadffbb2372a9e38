//! Reading placements back from any output format, for `verify`.
//!
//! The reader tells three outcomes apart: a placement (a column per row, to be checked), a
//! placement that cannot be a column list (a board row with two queens or none: invalid,
//! with its reason), and text that is not the format at all (an error, with its place).
//!
//! It reads as a stream, one placement at a time, and holds a bounded amount of memory
//! whatever the input: a line, a board, a row string or a tag longer than the largest
//! placement it accepts is an error at once ([`MAX_LINEAR_N`] rows in `perm` and `json`,
//! [`Format::max_n`] in the others), so endless input (`/dev/zero`, a stream without a
//! newline) ends with an error instead of filling the memory. `leetcode`'s one JSON array
//! for the whole set is read board by board.

mod input;

use crate::solutions::format::{Format, SVG_SQUARE};
use input::Input;
use std::fmt;
use std::io::BufRead;

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

/// The largest board read in `perm` and `json`, whose lines grow as n. Checking a placement
/// takes 40 bytes a row, so this keeps the reader and the check within about 60 MB.
pub const MAX_LINEAR_N: usize = 1_000_000;

/// The largest board the reader accepts in `format`.
pub fn max_n(format: Format) -> usize {
    match format {
        Format::Perm | Format::Json => MAX_LINEAR_N,
        other => usize::try_from(other.max_n()).unwrap_or(usize::MAX),
    }
}

/// The longest line (in `svg`: tag with the text before it) the reader accepts in `format`:
/// twice what the writer writes for the largest board, for any spacing, and a little more.
pub fn line_limit(format: Format) -> usize {
    let n = max_n(format);
    let digits = |v: usize| v.max(1).ilog10() as usize + 1;
    let written = match format {
        Format::Perm => n * (digits(n - 1) + 1),
        Format::Json => n * (digits(n - 1) + 1) + digits(n) + r#"{"n":,"columns":[]}"#.len(),
        Format::Flat => n * n,
        Format::Board | Format::Leetcode => n,
        // The longest piece the SVG writer writes is its header's pattern; no piece grows
        // with n.
        Format::Svg => 2_048,
    };
    2 * written + 64
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
    Reader::new(text.as_bytes(), Some(format))?.collect()
}

/// Reads one line of a line-based format: its columns, or why it is no placement (invalid),
/// or why it is not the format (an error).
type LineReader = fn(&str) -> Result<Result<Vec<u32>, String>, String>;

/// Where the reader is within a document that wraps the whole set (`leetcode`, `svg`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Before its opening.
    Start,
    /// Among its boards.
    Boards,
    /// After its closing: only whitespace may follow.
    End,
}

/// A board being read from an SVG document: the queens of each row, counted.
struct SvgBoard {
    place: Place,
    /// For each row, the column of its first queen and how many it has.
    rows: Vec<(u32, u32)>,
}

/// Reads placements one at a time from any `BufRead`, in bounded memory.
pub struct Reader<R> {
    input: Input<R>,
    format: Format,
    stage: Stage,
    /// Boards read so far (the number of the next one, less one).
    boards: usize,
    /// The rows of the board being read (`board`, `leetcode`), kept for their capacity.
    rows: Vec<String>,
    /// An SVG board that is open.
    svg: Option<SvgBoard>,
    /// What a line or a tag too long is, said once.
    too_long: String,
    /// Whether the end, or an error, has been reached.
    finished: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input` in `format`, or in the format its first characters and first line
    /// show for `None`.
    pub fn new(input: R, format: Option<Format>) -> Result<Reader<R>, ParseError> {
        let mut input = Input::new(input);
        let format = match format {
            Some(format) => format,
            None => Self::detect(&mut input)?,
        };
        let piece = if format == Format::Svg {
            "a tag"
        } else {
            "a line"
        };
        let limit = line_limit(format);
        let too_long = format!(
            "{piece} longer than {limit} bytes: more than a {} placement of n <= {} takes",
            format.name(),
            max_n(format)
        );
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
    /// line-based formats) from the whole first line, which is then read again as a
    /// placement.
    fn detect(input: &mut Input<R>) -> Result<Format, ParseError> {
        match input.peek_token()? {
            Some(b'[') => return Ok(Format::Leetcode),
            Some(b'{') => return Ok(Format::Json),
            Some(b'<') => return Ok(Format::Svg),
            None => return Ok(Format::Perm),
            Some(_) => {}
        }
        let limit = [Format::Perm, Format::Flat, Format::Board]
            .into_iter()
            .map(line_limit)
            .max()
            .unwrap_or(0);
        let too_long = format!("a line longer than {limit} bytes: longer than any placement");
        let Some((number, line)) = input.next_line(limit, &too_long)? else {
            return Ok(Format::Perm);
        };
        let format = detect(line);
        input.replay(number);
        Ok(format)
    }

    /// The next placement, `None` at the end.
    fn next_item(&mut self) -> Result<Option<Item>, ParseError> {
        match self.format {
            Format::Perm => self.next_line_item(perm_line),
            Format::Flat => self.next_line_item(flat_line),
            Format::Json => self.next_line_item(json_line),
            Format::Board => self.next_board(),
            Format::Leetcode => self.next_leetcode(),
            Format::Svg => self.next_svg(),
        }
    }

    /// The next non-blank line, read by `read`.
    fn next_line_item(&mut self, read: LineReader) -> Result<Option<Item>, ParseError> {
        let limit = line_limit(self.format);
        while let Some((number, line)) = self.input.next_line(limit, &self.too_long)? {
            let place = Place::Line(number);
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let columns = read(line).map_err(|message| ParseError { place, message })?;
            return Ok(Some(Item { place, columns }));
        }
        Ok(None)
    }

    /// The next board of `Q`/`.` rows, up to a blank line or the end.
    fn next_board(&mut self) -> Result<Option<Item>, ParseError> {
        let limit = line_limit(Format::Board);
        let most = max_n(Format::Board);
        self.rows.clear();
        let mut start = 0;
        while let Some((number, line)) = self.input.next_line(limit, &self.too_long)? {
            let line = line.trim();
            if line.is_empty() {
                if self.rows.is_empty() {
                    continue;
                }
                break;
            }
            if self.rows.is_empty() {
                start = number;
            }
            if self.rows.len() == most {
                return Err(ParseError {
                    place: Place::Line(start),
                    message: format!(
                        "a board of more than {most} rows: more than any board placement read"
                    ),
                });
            }
            self.rows.push(line.to_string());
        }
        if self.rows.is_empty() {
            return Ok(None);
        }
        let place = Place::Line(start);
        let columns = rows_to_columns(&self.rows, 'Q', '.')
            .map_err(|message| ParseError { place, message })?;
        Ok(Some(Item { place, columns }))
    }

    /// The next board of a `leetcode` document: one JSON array of arrays of row strings.
    fn next_leetcode(&mut self) -> Result<Option<Item>, ParseError> {
        let syntax = |input: &Input<R>, expected: &str| {
            input.error(format!("not a JSON array of boards: expected {expected}"))
        };
        match self.stage {
            Stage::Start => {
                if self.input.next_token()? != Some(b'[') {
                    return Err(syntax(&self.input, "'['"));
                }
                if self.input.peek_token()? == Some(b']') {
                    self.input.next_token()?;
                    self.stage = Stage::End;
                } else {
                    self.stage = Stage::Boards;
                }
            }
            Stage::Boards | Stage::End => {}
        }
        if self.stage == Stage::End {
            return match self.input.next_token()? {
                None => Ok(None),
                Some(_) => Err(syntax(&self.input, "nothing after the closing ']'")),
            };
        }
        if self.input.next_token()? != Some(b'[') {
            return Err(syntax(&self.input, "'[' to open a board"));
        }
        self.boards += 1;
        let place = Place::Board(self.boards);
        let most = max_n(Format::Leetcode);
        let limit = line_limit(Format::Leetcode);
        let too_long =
            format!("a row string longer than {limit} bytes: more than a board of n <= {most} has");
        let mut count = 0;
        if self.input.peek_token()? == Some(b']') {
            self.input.next_token()?;
        } else {
            loop {
                if self.input.next_token()? != Some(b'"') {
                    return Err(syntax(&self.input, "a row string"));
                }
                if count == most {
                    return Err(ParseError {
                        place,
                        message: format!(
                            "a board of more than {most} rows: more than any leetcode placement read"
                        ),
                    });
                }
                if self.rows.len() == count {
                    self.rows.push(String::new());
                }
                self.input
                    .json_string(&mut self.rows[count], limit, &too_long)?;
                count += 1;
                match self.input.next_token()? {
                    Some(b',') => continue,
                    Some(b']') => break,
                    _ => return Err(syntax(&self.input, "',' or ']' after a row")),
                }
            }
        }
        match self.input.next_token()? {
            Some(b',') => {}
            Some(b']') => self.stage = Stage::End,
            _ => return Err(syntax(&self.input, "',' or ']' after a board")),
        }
        let columns = if count == 0 {
            Ok(Err("an empty board".to_string()))
        } else {
            rows_to_columns(&self.rows[..count], 'Q', '.')
        }
        .map_err(|message| ParseError { place, message })?;
        Ok(Some(Item { place, columns }))
    }

    /// The next board of an SVG written by this program: each board a group with its size,
    /// each queen drawn at its square. What is read is what is drawn.
    fn next_svg(&mut self) -> Result<Option<Item>, ParseError> {
        let limit = line_limit(Format::Svg);
        loop {
            let line = self.input.line();
            let fail = |place: Place, message: &str| ParseError {
                place,
                message: message.to_string(),
            };
            let Some(piece) = self.input.next_tag(limit, &self.too_long)? else {
                if self.stage == Stage::Start {
                    return Err(fail(Place::Line(line), "not an SVG document"));
                }
                return Ok(self.svg.take().map(SvgBoard::item));
            };
            if self.stage == Stage::Start {
                if !piece.trim_start().starts_with("<svg") {
                    return Err(fail(Place::Line(line), "not an SVG document"));
                }
                self.stage = Stage::Boards;
                continue;
            }
            let tag = &piece[piece.rfind('<').unwrap_or(0)..];
            if tag.starts_with("<g class=\"board\"") {
                self.boards += 1;
                let place = Place::Board(self.boards);
                let most = max_n(Format::Svg);
                let n: usize = attribute(tag, "data-n")
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| fail(place, "a board without its size (data-n)"))?;
                if n > most {
                    return Err(fail(
                        place,
                        &format!("a board of n = {n}: SVG boards are read up to n = {most}"),
                    ));
                }
                let opened = SvgBoard {
                    place,
                    rows: vec![(0, 0); n],
                };
                // A board opened before this one closed ends here.
                if let Some(previous) = self.svg.replace(opened) {
                    return Ok(Some(previous.item()));
                }
            } else if tag.starts_with("</g") {
                if let Some(board) = self.svg.take() {
                    return Ok(Some(board.item()));
                }
            } else if let (Some(board), true) = (&mut self.svg, tag.starts_with("<use ")) {
                let place = board.place;
                let coordinate = |name| {
                    attribute(tag, name)
                        .and_then(|v| v.parse::<u64>().ok())
                        .ok_or_else(|| fail(place, "a queen without coordinates"))
                };
                let (x, y) = (coordinate("x")?, coordinate("y")?);
                let (column, row) = (x / SVG_SQUARE, y / SVG_SQUARE);
                if row >= board.rows.len() as u64 || x % SVG_SQUARE != 0 || y % SVG_SQUARE != 0 {
                    return Err(fail(place, "a queen off the squares of the board"));
                }
                let slot = &mut board.rows[row as usize];
                if slot.1 == 0 {
                    slot.0 = u32::try_from(column).unwrap_or(u32::MAX);
                }
                slot.1 = slot.1.saturating_add(1);
            }
        }
    }
}

impl SvgBoard {
    fn item(self) -> Item {
        let columns = self
            .rows
            .iter()
            .enumerate()
            .map(|(r, &(column, queens))| match queens {
                1 => Ok(column),
                0 => Err(format!("row {r} has no queen")),
                more => Err(format!("row {r} has {more} queens")),
            })
            .collect();
        Item {
            place: self.place,
            columns,
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

fn perm_line(line: &str) -> Result<Result<Vec<u32>, String>, String> {
    let mut columns = Vec::new();
    for word in line.split_whitespace() {
        let column = word
            .parse::<u32>()
            .map_err(|_| format!("'{word}' is not a column number"))?;
        columns.push(column);
        too_many_rows(&columns)?;
    }
    Ok(Ok(columns))
}

/// Refuses a placement of more rows than [`MAX_LINEAR_N`]: a line of single digits within the
/// line limit would have millions of rows, and checking them would take gigabytes.
fn too_many_rows(columns: &[u32]) -> Result<(), String> {
    if columns.len() > MAX_LINEAR_N {
        return Err(format!(
            "a placement of more than {MAX_LINEAR_N} rows: more than any placement read"
        ));
    }
    Ok(())
}

/// `count` and `noun`, plural unless the count is one: `1 placement`, `2 placements`.
pub fn plural(count: impl Into<u128>, noun: &str) -> String {
    match count.into() {
        1 => format!("1 {noun}"),
        count => format!("{count} {noun}s"),
    }
}

/// The columns of the rows of a board given as rows of `queen` and `empty`.
fn rows_to_columns(
    rows: &[impl AsRef<str>],
    queen: char,
    empty: char,
) -> Result<Result<Vec<u32>, String>, String> {
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
    Ok(Ok(columns))
}

fn flat_line(line: &str) -> Result<Result<Vec<u32>, String>, String> {
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

fn json_line(line: &str) -> Result<Result<Vec<u32>, String>, String> {
    #[derive(serde::Deserialize)]
    struct Line {
        n: u64,
        columns: Vec<u32>,
    }
    let parsed: Line = serde_json::from_str(line).map_err(|e| format!("not a placement: {e}"))?;
    too_many_rows(&parsed.columns)?;
    if parsed.n != parsed.columns.len() as u64 {
        return Ok(Err(format!(
            "n is {} but {} given",
            parsed.n,
            match parsed.columns.len() {
                1 => "1 column is".to_string(),
                more => format!("{more} columns are"),
            }
        )));
    }
    Ok(Ok(parsed.columns))
}

/// The value of attribute `name` in the tag text `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solutions::format::format_all;
    use std::io::Read;

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

    #[test]
    fn every_format_reads_the_same_through_a_one_byte_buffer() {
        // Lines, tags and row strings cross the reads' boundaries anywhere.
        let solutions = vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]];
        for format in Format::ALL {
            let text = format_all(format, 4, &solutions);
            let whole = parse(std::str::from_utf8(&text).unwrap(), format).unwrap();
            for detected in [Some(format), None] {
                let reader =
                    Reader::new(std::io::BufReader::with_capacity(1, &text[..]), detected).unwrap();
                assert_eq!(reader.format(), format);
                let items: Vec<Item> = reader.collect::<Result<_, _>>().unwrap();
                assert_eq!(items, whole, "{format:?}");
            }
        }
    }

    #[test]
    fn endless_input_ends_with_an_error() {
        // No newline, ever: refused once a line outgrows the largest placement.
        let mut reader = Reader::new(
            std::io::BufReader::new(std::io::repeat(b'1').take(1 << 40)),
            Some(Format::Perm),
        )
        .unwrap();
        let error = reader.next().unwrap().unwrap_err();
        assert_eq!(error.place, Place::Line(1));
        assert!(error.message.contains("longer than"), "{error}");
        assert!(reader.next().is_none());
        // Binary: at once.
        let error = Reader::new(
            std::io::BufReader::new(std::io::repeat(0).take(1 << 40)),
            None,
        )
        .err()
        .unwrap();
        assert_eq!(
            error.to_string(),
            "line 1: binary data (a NUL byte), not text"
        );
        // A row string that never closes.
        let endless = b"[[\"".chain(std::io::repeat(b'Q').take(1 << 40));
        let error = Reader::new(std::io::BufReader::new(endless), None)
            .unwrap()
            .next()
            .unwrap()
            .unwrap_err();
        assert!(
            error.message.contains("a row string longer than"),
            "{error}"
        );
    }

    #[test]
    fn a_placement_of_more_rows_than_read_is_refused() {
        let line = "0 ".repeat(MAX_LINEAR_N + 1);
        let error = parse(&line, Format::Perm).unwrap_err();
        assert!(error.message.contains("more than 1000000 rows"), "{error}");
        let columns = vec!["0"; MAX_LINEAR_N + 1].join(",");
        let json = format!("{{\"n\":1,\"columns\":[{columns}]}}");
        let error = parse(&json, Format::Json).unwrap_err();
        assert!(error.message.contains("more than 1000000 rows"), "{error}");
    }

    #[test]
    fn leetcode_is_json_with_escapes_and_nothing_after_it() {
        let items = parse("[ [\"\\u002eQ\", \"Q.\"] ]", Format::Leetcode).unwrap();
        assert_eq!(items[0].columns, Ok(vec![1, 0]));
        let items = parse("[[\"Q\", \"Q.\"]]", Format::Leetcode).unwrap();
        assert_eq!(
            items[0].columns,
            Err("row 0 has 1 square on a board of 2 rows".into())
        );
        let items = parse(
            "[[\".\\u0051..\",\"...Q\",\"Q...\",\"..Q.\"]]\n",
            Format::Leetcode,
        )
        .unwrap();
        assert_eq!(items[0].columns, Ok(vec![1, 3, 0, 2]));
        let error = parse("[[\"Q\"]] x", Format::Leetcode).unwrap_err();
        assert!(error.message.contains("nothing after"), "{error}");
        assert_eq!(parse("[]", Format::Leetcode).unwrap(), []);
        let items = parse("[[]]", Format::Leetcode).unwrap();
        assert_eq!(items[0].columns, Err("an empty board".into()));
    }
}
