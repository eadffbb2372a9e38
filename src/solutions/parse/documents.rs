//! The formats that draw a board (`board`, `leetcode`, `svg`): read a board at a time, each
//! bounded by the largest board the format is written for; `leetcode` and `svg` documents
//! wrap the whole set, and a document cut short (no closing `]` or `</svg>`) is an error.

use super::input::Input;
use super::item::{Item, ParseError, Place, line_limit, max_n, rows_to_columns};
use super::reader::{Reader, Stage, SvgBoard};
use crate::solutions::format::{Format, SVG_SQUARE};
use crate::solutions::solution::Placement;
use std::io::BufRead;

impl<R: BufRead> Reader<R> {
    /// The next board of `Q`/`.` rows, up to a blank line or the end.
    pub(super) fn next_board(&mut self) -> Result<Option<Item>, ParseError> {
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
    pub(super) fn next_leetcode(&mut self) -> Result<Option<Item>, ParseError> {
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
    pub(super) fn next_svg(&mut self) -> Result<Option<Item>, ParseError> {
        let limit = line_limit(Format::Svg);
        loop {
            let line = self.input.line();
            let Some(piece) = self.input.next_tag(limit, &self.too_long)? else {
                return match self.stage {
                    Stage::Start => Err(fail(Place::Line(line), "not an SVG document")),
                    // A picture cut off (a full disk, a killed run): its last board may be
                    // whole, but the set is not.
                    Stage::Boards => Err(fail(
                        Place::Line(line),
                        "the SVG document ends before its closing </svg>: it was cut short",
                    )),
                    Stage::End => Ok(None),
                };
            };
            match self.stage {
                Stage::Start => {
                    if !piece.trim_start().starts_with("<svg") {
                        return Err(fail(Place::Line(line), "not an SVG document"));
                    }
                    self.stage = Stage::Boards;
                    continue;
                }
                Stage::End if piece.trim().is_empty() => continue,
                Stage::End => {
                    return Err(fail(Place::Line(line), "text after the closing </svg>"));
                }
                Stage::Boards => {}
            }
            let tag = &piece[piece.rfind('<').unwrap_or(0)..];
            if tag.starts_with("</svg") {
                self.stage = Stage::End;
                // A board still open ends with the picture.
                if let Some(board) = self.svg.take() {
                    return Ok(Some(board.item()));
                }
            } else if tag.starts_with("<g class=\"board\"") {
                self.boards += 1;
                let opened = SvgBoard::open(tag, Place::Board(self.boards))?;
                // A board opened before this one closed ends here.
                if let Some(previous) = self.svg.replace(opened) {
                    return Ok(Some(previous.item()));
                }
            } else if tag.starts_with("</g") {
                if let Some(board) = self.svg.take() {
                    return Ok(Some(board.item()));
                }
            } else if let (Some(board), true) = (&mut self.svg, tag.starts_with("<use ")) {
                board.add_queen(tag)?;
            }
        }
    }
}

impl SvgBoard {
    /// The board that the `<g class="board">` tag `tag` opens, with no queen yet; `place` is
    /// its number in the document.
    fn open(tag: &str, place: Place) -> Result<SvgBoard, ParseError> {
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
        Ok(SvgBoard {
            place,
            rows: vec![(0, 0); n],
        })
    }

    /// Counts the queen that the `<use>` tag `tag` places in its row, the column of the row's
    /// first queen kept; a queen off the board's squares is an error.
    fn add_queen(&mut self, tag: &str) -> Result<(), ParseError> {
        let place = self.place;
        let coordinate = |name| {
            attribute(tag, name)
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| fail(place, "a queen without coordinates"))
        };
        let (x, y) = (coordinate("x")?, coordinate("y")?);
        let (column, row) = (x / SVG_SQUARE, y / SVG_SQUARE);
        if row >= self.rows.len() as u64 || x % SVG_SQUARE != 0 || y % SVG_SQUARE != 0 {
            return Err(fail(place, "a queen off the squares of the board"));
        }
        let slot = &mut self.rows[row as usize];
        if slot.1 == 0 {
            slot.0 = u32::try_from(column).unwrap_or(u32::MAX);
        }
        slot.1 = slot.1.saturating_add(1);
        Ok(())
    }

    /// The board read, as an item: its placement, or the first row without exactly one queen.
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
            .collect::<Result<Vec<u32>, String>>()
            .map(Placement::new);
        Item {
            place: self.place,
            columns,
        }
    }
}

/// An error of the SVG document at `place`.
fn fail(place: Place, message: &str) -> ParseError {
    ParseError {
        place,
        message: message.to_string(),
    }
}

/// The value of attribute `name` in the tag text `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}
