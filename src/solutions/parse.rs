//! Reading placements back from any output format, for `verify`.
//!
//! The reader tells three outcomes apart: a placement (a column per row, checked as it is read:
//! a [`Placement`](crate::Placement)), a placement that cannot be a column list (a board row
//! with two queens or none: invalid, with its reason), and text that is not the format at all
//! (an error, with its place).
//!
//! It reads as a stream, one placement at a time, and holds a bounded amount of memory whatever
//! the input. A `perm` or `json` line is read number by number, however long: what `find`
//! writes (up to n = 4,294,967,295) is read back, in memory bounded by the board's n
//! ([`Checker`](crate::Checker): the columns of up to 65,536 rows, then 5 bits a row), never by
//! the length of its line; a word or a number longer than any column number is an error at
//! once. The other formats grow as n², and a line, a board, a row string or a tag longer than
//! the largest placement they hold ([`Format::max_n`](crate::format::Format::max_n)) is an
//! error at once, so endless input (`/dev/zero`, a stream without a newline) ends with an error
//! instead of filling the memory. `leetcode`'s one JSON array for the whole set is read board
//! by board. A UTF-8 byte order mark at the start is skipped. Input whose first line is binary
//! data (gzip, an image, random bytes: a NUL byte, a control character, bytes that are not
//! UTF-8) is refused as such at once ([`BINARY`]), in any format; binary data met later is
//! refused with its line.
//!
//! The files: `item.rs` what the reader yields and the bounds every format shares,
//! `input.rs` the bounded bytes under it, `reader.rs` the reader itself (format detection and
//! iteration), `lines.rs` and `documents.rs` its formats. This file only wires them and
//! re-exports the public API at its old paths.

mod documents;
mod input;
mod item;
mod lines;
mod reader;

pub use item::{BINARY, Item, MAX_WORD, ParseError, Place, line_limit, max_n, plural};
pub use reader::{Reader, detect, parse};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solutions::format::{Format, format_all};
    use std::io::Read;

    /// The columns of every item, or their reasons.
    fn columns(items: Vec<Item>) -> Vec<Result<Vec<u32>, String>> {
        items
            .into_iter()
            .map(|i| i.columns.map(|p| p.columns().unwrap().to_vec()))
            .collect()
    }

    #[test]
    fn every_format_reads_back_what_it_wrote() {
        let solutions = vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]];
        for format in Format::ALL {
            let text = String::from_utf8(format_all(format, 4, &solutions)).unwrap();
            assert_eq!(detect(&text), format, "{text}");
            let items = parse(&text, format).unwrap();
            let read: Vec<Vec<u32>> = columns(items).into_iter().map(Result::unwrap).collect();
            assert_eq!(read, solutions, "{format:?}");
        }
    }

    #[test]
    fn the_one_queen_board_reads_back_in_every_format() {
        for format in Format::ALL {
            let text = String::from_utf8(format_all(format, 1, &[vec![0]])).unwrap();
            assert_eq!(detect(&text), format, "{text:?}");
            assert_eq!(columns(parse(&text, format).unwrap())[0], Ok(vec![0]));
        }
    }

    #[test]
    fn bad_text_is_an_error_with_its_place() {
        let error = parse("1 3 0 2\n1 x 0 2\n", Format::Perm).unwrap_err();
        assert_eq!(error.to_string(), "line 2: 'x' is not a column number");
        assert!(parse("[[\".Q\"", Format::Leetcode).is_err());
        let error = parse("{\"n\":4}\n", Format::Json).unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 1: not a placement: missing field `columns`"
        );
        for bad in [
            "{\"n\":2,\"columns\":[1,-1]}",
            "{\"n\":2,\"columns\":[1,0.5]}",
            "{\"n\":2,\"columns\":[1,0]} x",
            "{\"n\":2,\"n\":2,\"columns\":[1,0]}",
            "{\"n\":2 \"columns\":[1,0]}",
            "[1, 0]",
        ] {
            let error = parse(bad, Format::Json).unwrap_err();
            assert_eq!(error.place, Place::Line(1), "{bad}: {error}");
        }
    }

    #[test]
    fn json_lines_take_fields_in_any_order_and_ignore_others() {
        let text = "{\"columns\":[1,3,0,2],\"n\":4}\n\n  { \"n\" : 4 , \"name\": [\"a\", {\"b\": null}], \"columns\" : [ 2 , 0 , 3 , 1 ] }  \n";
        let items = parse(text, Format::Json).unwrap();
        assert_eq!(
            columns(items.clone()),
            [Ok(vec![1, 3, 0, 2]), Ok(vec![2, 0, 3, 1])]
        );
        assert_eq!(items[1].place, Place::Line(3));
        let items = parse("{\"n\":3,\"columns\":[1,3,0,2]}", Format::Json).unwrap();
        assert_eq!(
            items[0].columns,
            Err("n is 3 but 4 columns are given".into())
        );
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
        // Lines, words, tags and row strings cross the reads' boundaries anywhere, and so
        // does the line read ahead to detect the format.
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

    /// Regression: a UTF-8 byte order mark (an editor's) at the start was refused as
    /// "not the format"; it is skipped, in every format, and one cut short is not UTF-8.
    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped() {
        let solutions = vec![vec![1, 3, 0, 2]];
        for format in Format::ALL {
            let mut text = b"\xef\xbb\xbf".to_vec();
            text.extend(format_all(format, 4, &solutions));
            for detected in [Some(format), None] {
                let reader =
                    Reader::new(std::io::BufReader::with_capacity(1, &text[..]), detected).unwrap();
                assert_eq!(reader.format(), format);
                let items: Vec<Item> = reader.collect::<Result<_, _>>().unwrap();
                assert_eq!(columns(items), [Ok(vec![1, 3, 0, 2])], "{format:?}");
            }
        }
        let error = Reader::new(&b"\xef\xbb1 3 0 2\n"[..], None).err().unwrap();
        assert_eq!(error.to_string(), "line 1: not UTF-8 text");
    }

    /// Regression (edges VI): a full-width digit (U+FF10 to U+FF19, EF BC 90 and on in UTF-8)
    /// at the start was taken for a byte-order mark cut short and the input called "binary
    /// data"; it is text, refused as a word that is no column number.
    #[test]
    fn a_full_width_digit_is_text_not_binary_data() {
        for text in ["０\n", "３ 1 0 2\n", "\u{feff}３ 1 0 2\n"] {
            let reader = Reader::new(text.as_bytes(), None).unwrap();
            let error = reader.into_iter().find_map(Result::err).unwrap();
            assert!(!error.is_binary(), "{text:?}: {error}");
            assert!(
                error.to_string().contains("is not a column number"),
                "{text:?}: {error}"
            );
        }
    }

    /// Regression: an SVG cut off before `</svg>` was read as if whole; it is refused, and so
    /// is text after the picture.
    #[test]
    fn an_svg_cut_short_is_refused() {
        let text = String::from_utf8(format_all(Format::Svg, 4, &[vec![1, 3, 0, 2]])).unwrap();
        assert_eq!(parse(&text, Format::Svg).unwrap().len(), 1);
        let cut = &text[..text.rfind("</svg>").unwrap()];
        for short in [
            cut,
            &text[..text.rfind("</g>").unwrap()],
            &text[..text.len() / 2],
        ] {
            let error = parse(short, Format::Svg).unwrap_err();
            assert!(
                error.message.contains("before its closing </svg>"),
                "{error}"
            );
        }
        let error = parse(&format!("{text}<g>"), Format::Svg).unwrap_err();
        assert!(
            error.message.contains("after the closing </svg>"),
            "{error}"
        );
    }

    #[test]
    fn endless_input_ends_with_an_error() {
        // No space, no newline, ever: refused once a word outgrows any column number.
        let mut reader = Reader::new(
            std::io::BufReader::new(std::io::repeat(b'1').take(1 << 40)),
            Some(Format::Perm),
        )
        .unwrap();
        let error = reader.next().unwrap().unwrap_err();
        assert_eq!(error.place, Place::Line(1));
        assert!(error.message.contains("longer than"), "{error}");
        assert!(reader.next().is_none());
        // Detected: the line read ahead is longer than any flat or board line, so perm.
        let reader = Reader::new(
            std::io::BufReader::new(std::io::repeat(b'1').take(1 << 40)),
            None,
        )
        .unwrap();
        assert_eq!(reader.format(), Format::Perm);
        // Binary: at once.
        let error = Reader::new(
            std::io::BufReader::new(std::io::repeat(0).take(1 << 40)),
            None,
        )
        .err()
        .unwrap();
        assert!(error.is_binary(), "{error}");
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

    /// Regression: `verify` refused `find`'s own output past n = 1,000,000 ("a line longer
    /// than 14000064 bytes"). A perm or json line is read number by number, its placement
    /// checked as it comes: a board of 3,000,000 rows reads back valid, and a conflict in it
    /// is found.
    #[test]
    fn a_line_of_millions_of_columns_reads_back() {
        let n = 3_000_000u32;
        let good = crate::construct::solution(n).unwrap();
        for format in [Format::Perm, Format::Json] {
            let text = format_all(format, n as usize, std::slice::from_ref(&good));
            let reader = Reader::new(&text[..], None).unwrap();
            assert_eq!(reader.format(), format);
            let items: Vec<Item> = reader.collect::<Result<_, _>>().unwrap();
            let placement = items[0].columns.as_ref().unwrap();
            assert_eq!((placement.rows(), placement.check()), (n as usize, Ok(())));
        }
        let mut bad = good;
        bad[2_500_000] = bad[2_000_000];
        let text = format_all(Format::Perm, n as usize, &[bad]);
        let items = parse(std::str::from_utf8(&text).unwrap(), Format::Perm).unwrap();
        assert_eq!(
            items[0]
                .columns
                .as_ref()
                .unwrap()
                .check()
                .map_err(|c| c.to_string()),
            Err("row 2500000 shares a column with a row above it".into())
        );
    }

    #[test]
    fn leetcode_is_json_with_escapes_and_nothing_after_it() {
        let items = parse("[ [\"\\u002eQ\", \"Q.\"] ]", Format::Leetcode).unwrap();
        assert_eq!(columns(items)[0], Ok(vec![1, 0]));
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
        assert_eq!(columns(items)[0], Ok(vec![1, 3, 0, 2]));
        let error = parse("[[\"Q\"]] x", Format::Leetcode).unwrap_err();
        assert!(error.message.contains("nothing after"), "{error}");
        assert_eq!(parse("[]", Format::Leetcode).unwrap(), []);
        let items = parse("[[]]", Format::Leetcode).unwrap();
        assert_eq!(items[0].columns, Err("an empty board".into()));
    }

    /// A stream of bytes that looks random (xorshift), the same on every run.
    fn random_bytes(length: usize) -> Vec<u8> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        (0..length)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 56) as u8
            })
            .collect()
    }

    /// Regression: `verify` of gzip or random bytes said "a word longer than 32 bytes" (or
    /// "binary data (a NUL byte)" with a line number, as if one line of text were wrong):
    /// binary input is said to be binary, from its first line, in every format.
    #[test]
    fn gzip_or_random_bytes_are_binary_data_not_a_long_word() {
        let mut gzip = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03".to_vec();
        gzip.extend(random_bytes(500));
        let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR".to_vec();
        let elf = b"\x7fELF\x02\x01\x01\x00".to_vec();
        for (what, bytes) in [
            ("gzip", gzip),
            ("random", random_bytes(4096)),
            ("png", png),
            ("elf", elf),
        ] {
            let formats = Format::ALL.map(Some);
            for format in [None].into_iter().chain(formats) {
                let error = Reader::new(&bytes[..], format).err();
                assert!(
                    error.as_ref().is_some_and(ParseError::is_binary),
                    "{what} {format:?}: {error:?}"
                );
            }
        }
        // Text is not: blanks, escape sequences, a character cut by the end of what was
        // read; nor text whose later lines hold binary bytes (refused there, by line).
        let text = "1 3 0 2 \t\x1b[1m\u{b}\u{c}é";
        let cut = &text.as_bytes()[..text.len() - 1];
        for bytes in [text.as_bytes(), cut, b"1 3 0 2\r\n\x00\xff\n"] {
            let error = Reader::new(bytes, None).err();
            assert!(
                !error.as_ref().is_some_and(ParseError::is_binary),
                "{error:?}"
            );
        }
    }
}
