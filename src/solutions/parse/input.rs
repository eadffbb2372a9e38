//! The bytes under the placement reader: lines, words, tags, numbers and JSON strings taken
//! from any `BufRead`, each refused once it grows past a bound, so that reading holds a
//! bounded amount of memory whatever the input is (`/dev/zero`, a stream with no newline, a
//! string that never closes). Binary data (a NUL byte) and text that is not UTF-8 are
//! refused where they are met, with their line. Bytes read ahead to detect the format are
//! given back and read again.

use super::item::{ParseError, Place};
use std::io::{BufRead, ErrorKind};

/// A `BufRead` read in bounded pieces, counting lines.
pub(super) struct Input<R> {
    source: Source<R>,
    /// Newlines consumed so far: the current line is one more.
    newlines: usize,
    /// The piece being read.
    buffer: Vec<u8>,
}

/// A word of a line, or what ends it.
pub(super) enum Word<'a> {
    /// A word of digits alone, read as its value.
    Number(u64),
    /// Any other word: bytes up to a space, a tab or the line's end.
    Text(&'a str),
    /// The line's end (consumed).
    EndOfLine,
    /// The input's end.
    EndOfInput,
}

/// What ended [`Input::scan_numbers`].
pub(super) enum Scan {
    /// The list's end (consumed).
    End,
    /// The input's end.
    EndOfInput,
    /// Something to read the slow way (not consumed): a number cut by the buffer's end, a
    /// word that is no plain number, a newline inside a JSON array. `number` says whether a
    /// number was expected (else a separator).
    Slow {
        /// Whether a number comes next.
        number: bool,
    },
}

/// The most of the input's first line that [`Input::looks_binary`] looks at.
const SNIFFED: usize = 4_096;

/// The bytes that separate the words of a line.
fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// The bytes under the reader: those read ahead and given back ([`Input::read_ahead`]), then
/// the `BufRead`'s.
struct Source<R> {
    input: R,
    ahead: Vec<u8>,
    /// How many of `ahead` have been read again.
    ahead_at: usize,
}

impl<R: BufRead> Source<R> {
    /// The unread bytes given back, or else the buffered bytes of the input, reading more
    /// when none are left; empty at the end of the input. An error names `line`.
    fn chunk(&mut self, line: usize) -> Result<&[u8], ParseError> {
        if self.ahead_at < self.ahead.len() {
            return Ok(&self.ahead[self.ahead_at..]);
        }
        let empty = loop {
            match self.input.fill_buf() {
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
        Ok(self.input.fill_buf().unwrap_or_default())
    }

    fn consume(&mut self, bytes: usize) {
        if self.ahead_at < self.ahead.len() {
            self.ahead_at += bytes;
            if self.ahead_at == self.ahead.len() {
                self.ahead = Vec::new();
                self.ahead_at = 0;
            }
        } else {
            self.input.consume(bytes);
        }
    }
}

impl<R: BufRead> Input<R> {
    pub(super) fn new(input: R) -> Input<R> {
        Input {
            source: Source {
                input,
                ahead: Vec::new(),
                ahead_at: 0,
            },
            newlines: 0,
            buffer: Vec::new(),
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
        self.source.chunk(self.newlines + 1)
    }

    fn consume(&mut self, bytes: usize) {
        self.source.consume(bytes);
    }

    /// Skips a UTF-8 byte order mark at the start of the input (an editor's, not text).
    pub(super) fn skip_byte_order_mark(&mut self) -> Result<(), ParseError> {
        const MARK: &[u8] = b"\xef\xbb\xbf";
        // Looked for in the first read, which holds three bytes but for reads of a byte or
        // two: a character that only starts as the mark does (U+FF10, a full-width digit, is
        // EF BC 90) is text, left whole for what reads it.
        let (whole, short, cut) = {
            let first = self.fill()?;
            let short = !first.is_empty() && first.len() < MARK.len() && MARK.starts_with(first);
            // EF BB and a byte that ends no character: a mark cut short.
            let three = &first[..first.len().min(MARK.len())];
            let cut = three.starts_with(&MARK[..2]) && std::str::from_utf8(three).is_err();
            (first.starts_with(MARK), short, cut && !short)
        };
        if whole {
            self.consume(MARK.len());
            return Ok(());
        }
        if cut {
            // Read past, so that what follows is judged on its own.
            self.consume(2);
            return Err(self.error("not UTF-8 text"));
        }
        if !short {
            return Ok(());
        }
        // Reads of a byte or two: the mark byte by byte.
        for &expected in MARK {
            match self.fill()?.first() {
                Some(&byte) if byte == expected => self.consume(1),
                // The start of one cut short: no UTF-8 text starts so.
                _ => return Err(self.error("not UTF-8 text")),
            }
        }
        Ok(())
    }

    /// Whether the input's first line, as far as the first read gave it (at most [`SNIFFED`]
    /// bytes, none of them consumed), is binary data rather than text: a NUL byte, a control
    /// character no text holds, or bytes that are not UTF-8 (a character cut by the end of
    /// what was read is not counted). Gzip, images, executables and random bytes all are,
    /// from their first bytes (random bytes otherwise read as a word too long to be a
    /// number); text whose later lines hold such bytes is refused at those lines, by number.
    pub(super) fn looks_binary(&mut self) -> Result<bool, ParseError> {
        let chunk = self.fill()?;
        let block = &chunk[..chunk.len().min(SNIFFED)];
        let line = block.split(|&b| b == b'\n').next().unwrap_or_default();
        // Blanks and escape sequences (coloured text) are text.
        let control = |b: &u8| *b < 0x20 && *b != 0x1b && !is_blank(*b);
        let not_utf8 = std::str::from_utf8(line).is_err_and(|e| e.error_len().is_some());
        Ok(line.iter().any(control) || not_utf8)
    }

    /// Reads ahead the bytes of the current line while `keep` holds for them (up to its end,
    /// or `limit` bytes), and gives them back to be read again: what tells the line-based
    /// formats apart. Returns them, and whether they are the whole line. Called first, before
    /// anything is given back.
    pub(super) fn read_ahead(
        &mut self,
        limit: usize,
        keep: impl Fn(u8) -> bool,
    ) -> Result<(&[u8], bool), ParseError> {
        let mut line = Vec::new();
        let whole = loop {
            let chunk = self.fill()?;
            let Some(&next) = chunk.first() else {
                break true;
            };
            if next == b'\n' || !keep(next) || line.len() == limit {
                break next == b'\n';
            }
            let wanted = (limit - line.len()).min(chunk.len());
            let taken = chunk[..wanted]
                .iter()
                .take_while(|&&b| b != b'\n' && keep(b))
                .count();
            line.extend_from_slice(&chunk[..taken]);
            self.consume(taken);
        };
        self.source.ahead = line;
        self.source.ahead_at = 0;
        Ok((&self.source.ahead, whole))
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
            let chunk = self.source.chunk(self.newlines + 1)?;
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

    /// The next tag with any text before it: everything up to and including the next `>`;
    /// more than `limit` bytes is the error `too_long`.
    pub(super) fn next_tag(
        &mut self,
        limit: usize,
        too_long: &str,
    ) -> Result<Option<&str>, ParseError> {
        Ok(self.until(b'>', limit, too_long)?.map(|()| self.text()))
    }

    /// The next word of the current line, or the line's end (consumed), or the input's end.
    /// A word over `limit` bytes is the error `too_long`.
    pub(super) fn next_word(
        &mut self,
        limit: usize,
        too_long: &str,
    ) -> Result<Word<'_>, ParseError> {
        loop {
            let chunk = self.fill()?;
            let Some(&first) = chunk.first() else {
                return Ok(Word::EndOfInput);
            };
            if first == b'\n' {
                self.consume(1);
                self.newlines += 1;
                return Ok(Word::EndOfLine);
            }
            if !is_blank(first) {
                break;
            }
            let blanks = chunk.iter().take_while(|&&b| is_blank(b)).count();
            self.consume(blanks);
        }
        let ends = |b: u8| is_blank(b) || b == b'\n';
        if let Some(value) = self.quick_number(ends)? {
            return Ok(Word::Number(value));
        }
        self.take_while(|b| !ends(b), limit, too_long)?;
        Ok(Word::Text(self.text()))
    }

    /// Reads a list of whole numbers straight from the buffered bytes, a pass over each
    /// buffer, giving each to `push`: numbers separated by blanks and ended by the line's end
    /// (`separator` `None`: a `perm` line), or separated by `separator` and blanks and ended
    /// by `end` (a JSON array, its `[` read, `number` whether a number comes first). Stops,
    /// consuming nothing of it, at whatever it cannot take in one pass, for the caller to read
    /// the slow way. An error of `push` is an error here.
    pub(super) fn scan_numbers(
        &mut self,
        separator: Option<u8>,
        end: u8,
        mut number: bool,
        push: &mut dyn FnMut(u64) -> Result<(), String>,
    ) -> Result<Scan, ParseError> {
        loop {
            let chunk = self.source.chunk(self.newlines + 1)?;
            if chunk.is_empty() {
                return Ok(Scan::EndOfInput);
            }
            let (mut at, mut outcome, mut failed) = (0, None, None);
            while at < chunk.len() {
                let byte = chunk[at];
                if is_blank(byte) {
                    at += 1;
                } else if byte == end && (separator.is_none() || !number) {
                    // `[1]` ends here; `[1,]` does not (a number was expected).
                    at += 1;
                    outcome = Some(Scan::End);
                    break;
                } else if Some(byte) == separator && !number {
                    at += 1;
                    number = true;
                } else if byte.is_ascii_digit() && (number || separator.is_none()) {
                    let digits = chunk[at..]
                        .iter()
                        .take(20)
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    let stop = chunk.get(at + digits).copied();
                    let ends = |b: u8| is_blank(b) || b == end || Some(b) == separator;
                    if digits > 19 || !stop.is_some_and(ends) {
                        outcome = Some(Scan::Slow { number });
                        break;
                    }
                    let value = chunk[at..at + digits]
                        .iter()
                        .fold(0u64, |value, &b| value * 10 + u64::from(b - b'0'));
                    at += digits;
                    number = separator.is_none();
                    if let Err(message) = push(value) {
                        failed = Some(message);
                        break;
                    }
                } else {
                    outcome = Some(Scan::Slow { number });
                    break;
                }
            }
            self.consume(at);
            if let Some(message) = failed {
                return Err(self.error(message));
            }
            if matches!(outcome, Some(Scan::End)) && end == b'\n' {
                self.newlines += 1;
            }
            if let Some(outcome) = outcome {
                return Ok(outcome);
            }
        }
    }

    /// A whole number of at most 19 digits read straight from the buffered bytes, when it
    /// ends within them with a byte for which `ends` holds (consumed up to that byte);
    /// `None` (nothing consumed) for anything else, which the caller reads the slow way.
    /// Nearly every column number of a long line takes this way.
    pub(super) fn quick_number(
        &mut self,
        ends: impl Fn(u8) -> bool,
    ) -> Result<Option<u64>, ParseError> {
        let chunk = self.fill()?;
        let digits = chunk
            .iter()
            .take(20)
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 || digits > 19 || digits == chunk.len() || !ends(chunk[digits]) {
            return Ok(None);
        }
        let value = chunk[..digits]
            .iter()
            .fold(0u64, |value, &b| value * 10 + u64::from(b - b'0'));
        self.consume(digits);
        Ok(Some(value))
    }

    /// The bytes from here while `keep` holds (none of them a newline), into the buffer,
    /// checked to be text; more than `limit` is the error `too_long`.
    fn take_while(
        &mut self,
        keep: impl Fn(u8) -> bool,
        limit: usize,
        too_long: &str,
    ) -> Result<(), ParseError> {
        self.buffer.clear();
        loop {
            let chunk = self.source.chunk(self.newlines + 1)?;
            let taken = chunk.iter().take_while(|&&b| keep(b)).count();
            let done = taken < chunk.len() || chunk.is_empty();
            self.buffer.extend_from_slice(&chunk[..taken]);
            self.consume(taken);
            if self.buffer.len() > limit {
                return Err(self.error(too_long));
            }
            if done {
                break;
            }
        }
        if self.buffer.contains(&0) {
            return Err(self.error("binary data (a NUL byte), not text"));
        }
        if std::str::from_utf8(&self.buffer).is_err() {
            return Err(self.error("not UTF-8 text"));
        }
        Ok(())
    }

    /// A JSON number or literal (`true`, `null`...): the bytes up to the next delimiter, at
    /// most `limit` of them (else the error `too_long`).
    pub(super) fn json_scalar(&mut self, limit: usize, too_long: &str) -> Result<&str, ParseError> {
        self.take_while(
            |b| {
                !matches!(b, b',' | b']' | b'}' | b':' | b'"' | b'[' | b'{' | b'\n') && !is_blank(b)
            },
            limit,
            too_long,
        )?;
        Ok(self.text())
    }

    /// The rest of the line after a JSON line's object: blanks only, then the line's end
    /// (consumed) or the input's.
    pub(super) fn end_of_line(&mut self) -> Result<(), ParseError> {
        loop {
            let chunk = self.fill()?;
            match chunk.first() {
                None => return Ok(()),
                Some(b'\n') => {
                    self.consume(1);
                    self.newlines += 1;
                    return Ok(());
                }
                Some(&b) if is_blank(b) => self.consume(1),
                Some(_) => return Err(self.error("text after the placement on its line")),
            }
        }
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
            let chunk = self.source.chunk(self.newlines + 1)?;
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
