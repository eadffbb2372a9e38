//! The bytes under the placement reader: lines, tags and JSON strings taken from any
//! `BufRead`, each refused once it grows past a bound, so that reading holds a bounded amount
//! of memory whatever the input is (`/dev/zero`, a stream with no newline, a string that never
//! closes). Binary data (a NUL byte) and text that is not UTF-8 are refused where they are
//! met, with their line.

use super::{ParseError, Place};
use std::io::{BufRead, ErrorKind};

/// A `BufRead` read in bounded pieces, counting lines.
pub(super) struct Input<R> {
    input: R,
    /// Newlines consumed so far: the current line is one more.
    newlines: usize,
    /// The piece being read.
    buffer: Vec<u8>,
    /// Whether the next [`Input::line`] gives the last line again instead of reading.
    replay: Option<usize>,
}

/// The buffered bytes of `input`, reading more when none are left; empty at the end of the
/// input. An error names `line`.
fn fill<R: BufRead>(input: &mut R, line: usize) -> Result<&[u8], ParseError> {
    let empty = loop {
        match input.fill_buf() {
            Ok(chunk) => break chunk.is_empty(),
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(ParseError {
                    place: Place::Line(line),
                    message: format!("cannot read the input: {e}"),
                });
            }
        }
    };
    if empty {
        // Asking again would read again, and a terminal would wait for a second end.
        return Ok(&[]);
    }
    // Bytes are buffered: this returns them without reading.
    Ok(input.fill_buf().unwrap_or_default())
}

impl<R: BufRead> Input<R> {
    pub(super) fn new(input: R) -> Input<R> {
        Input {
            input,
            newlines: 0,
            buffer: Vec::new(),
            replay: None,
        }
    }

    /// The number of the line being read (1-based).
    pub(super) fn line(&self) -> usize {
        self.newlines + 1
    }

    /// An error at the current line.
    pub(super) fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            place: Place::Line(self.line()),
            message: message.into(),
        }
    }

    /// The buffered bytes, reading more when none are left; empty at the end of the input.
    fn fill(&mut self) -> Result<&[u8], ParseError> {
        fill(&mut self.input, self.newlines + 1)
    }

    fn consume(&mut self, bytes: usize) {
        self.input.consume(bytes);
    }

    /// Reads up to and including the next `delimiter` (or the end of the input) into the
    /// buffer; a piece of more than `limit` bytes is the error `too_long`. `None` at the end
    /// of the input.
    fn until(
        &mut self,
        delimiter: u8,
        limit: usize,
        too_long: &str,
    ) -> Result<Option<()>, ParseError> {
        self.buffer.clear();
        let start = self.line();
        let mut any = false;
        loop {
            let chunk = fill(&mut self.input, self.newlines + 1)?;
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (taken, done) = match chunk.iter().position(|&b| b == delimiter) {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let piece = &chunk[..taken];
            let newlines = piece.iter().filter(|&&b| b == b'\n').count();
            self.buffer.extend_from_slice(piece);
            self.consume(taken);
            self.newlines += newlines;
            if self.buffer.len() > limit {
                return Err(ParseError {
                    place: Place::Line(start),
                    message: too_long.into(),
                });
            }
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        if self.buffer.contains(&0) {
            return Err(ParseError {
                place: Place::Line(start),
                message: "binary data (a NUL byte), not text".into(),
            });
        }
        if std::str::from_utf8(&self.buffer).is_err() {
            return Err(ParseError {
                place: Place::Line(start),
                message: "not UTF-8 text".into(),
            });
        }
        Ok(Some(()))
    }

    /// The next line, without its end (`\n` or `\r\n`), and its number; `None` at the end of
    /// the input. A line over `limit` bytes is the error `too_long`.
    pub(super) fn next_line(
        &mut self,
        limit: usize,
        too_long: &str,
    ) -> Result<Option<(usize, &str)>, ParseError> {
        if let Some(number) = self.replay.take() {
            return Ok(Some((number, self.text())));
        }
        let number = self.line();
        if self.until(b'\n', limit + 1, too_long)?.is_none() {
            return Ok(None);
        }
        if self.buffer.last() == Some(&b'\n') {
            self.buffer.pop();
        }
        if self.buffer.len() > limit {
            return Err(ParseError {
                place: Place::Line(number),
                message: too_long.into(),
            });
        }
        if self.buffer.last() == Some(&b'\r') {
            self.buffer.pop();
        }
        Ok(Some((number, self.text())))
    }

    /// Makes the next [`Input::next_line`] give the line just read again (the line that
    /// told the format apart).
    pub(super) fn replay(&mut self, number: usize) {
        self.replay = Some(number);
    }

    /// The next tag with any text before it: everything up to and including the next `>`;
    /// more than `limit` bytes is the error `too_long`.
    pub(super) fn next_tag(
        &mut self,
        limit: usize,
        too_long: &str,
    ) -> Result<Option<&str>, ParseError> {
        Ok(self.until(b'>', limit, too_long)?.map(|()| self.text()))
    }

    /// The buffer as text (checked to be UTF-8 when it was read).
    fn text(&self) -> &str {
        std::str::from_utf8(&self.buffer).unwrap_or_default()
    }

    /// The next byte that is not JSON whitespace, consumed (`None` at the end).
    pub(super) fn next_token(&mut self) -> Result<Option<u8>, ParseError> {
        let token = self.peek_token()?;
        if token.is_some() {
            self.consume(1);
        }
        Ok(token)
    }

    /// The next byte that is not JSON whitespace, left unread (`None` at the end).
    pub(super) fn peek_token(&mut self) -> Result<Option<u8>, ParseError> {
        loop {
            let chunk = self.fill()?;
            let Some(&first) = chunk.first() else {
                return Ok(None);
            };
            if first == 0 {
                return Err(self.error("binary data (a NUL byte), not text"));
            }
            if !matches!(first, b' ' | b'\t' | b'\r' | b'\n') {
                return Ok(Some(first));
            }
            if first == b'\n' {
                self.newlines += 1;
            }
            self.consume(1);
        }
    }

    /// A JSON string whose opening quote has been read, decoded into `out` (cleared first);
    /// more than `limit` bytes decoded is the error `too_long`.
    pub(super) fn json_string(
        &mut self,
        out: &mut String,
        limit: usize,
        too_long: &str,
    ) -> Result<(), ParseError> {
        self.buffer.clear();
        loop {
            let chunk = fill(&mut self.input, self.newlines + 1)?;
            let Some(stop) = chunk
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            else {
                if chunk.is_empty() {
                    return Err(self.error("a string that is never closed"));
                }
                let taken = chunk.len();
                self.buffer.extend_from_slice(chunk);
                self.consume(taken);
                self.check_length(limit, too_long)?;
                continue;
            };
            let special = chunk[stop];
            self.buffer.extend_from_slice(&chunk[..stop]);
            self.consume(stop + 1);
            self.check_length(limit, too_long)?;
            match special {
                b'"' => break,
                b'\\' => self.escape()?,
                0 => return Err(self.error("binary data (a NUL byte), not text")),
                _ => return Err(self.error("a control character inside a string")),
            }
        }
        let text = std::str::from_utf8(&self.buffer).map_err(|_| self.error("not UTF-8 text"))?;
        out.clear();
        out.push_str(text);
        Ok(())
    }

    fn check_length(&self, limit: usize, too_long: &str) -> Result<(), ParseError> {
        if self.buffer.len() > limit {
            return Err(self.error(too_long));
        }
        Ok(())
    }

    /// One raw byte (`None` at the end).
    fn byte(&mut self) -> Result<Option<u8>, ParseError> {
        let byte = self.fill()?.first().copied();
        if byte.is_some() {
            self.consume(1);
        }
        Ok(byte)
    }

    /// The escape after a backslash, decoded into the buffer.
    fn escape(&mut self) -> Result<(), ParseError> {
        let bad = |input: &Self| input.error("a bad escape inside a string");
        let decoded = match self.byte()?.ok_or_else(|| bad(self))? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = self.hex4()?;
                let code = if (0xD800..0xDC00).contains(&high) {
                    if self.byte()? != Some(b'\\') || self.byte()? != Some(b'u') {
                        return Err(bad(self));
                    }
                    let low = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(bad(self));
                    }
                    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    high
                };
                char::from_u32(code).ok_or_else(|| bad(self))?
            }
            _ => return Err(bad(self)),
        };
        let mut bytes = [0; 4];
        self.buffer
            .extend_from_slice(decoded.encode_utf8(&mut bytes).as_bytes());
        Ok(())
    }

    /// Four hexadecimal digits.
    fn hex4(&mut self) -> Result<u32, ParseError> {
        let mut value = 0;
        for _ in 0..4 {
            let digit = self
                .byte()?
                .and_then(|b| (b as char).to_digit(16))
                .ok_or_else(|| self.error("a bad escape inside a string"))?;
            value = value * 16 + digit;
        }
        Ok(value)
    }
}
