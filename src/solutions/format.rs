//! The output formats of solution sets, one writer per format behind one trait.
//!
//! | format | one solution | around the set |
//! |---|---|---|
//! | `perm` | `1 3 0 2` and a newline: the column of each row | |
//! | `board` | n lines of `Q` and `.`, then a blank line | |
//! | `flat` | n*n digits `0`/`1`, row after row, and a newline | |
//! | `json` | `{"n":4,"columns":[1,3,0,2]}` and a newline (JSON Lines) | |
//! | `leetcode` | `[".Q..","...Q","Q...","..Q."]` | `[`, commas, `]` and a newline: LeetCode 51's answer |
//! | `svg` | a board drawn: checkered squares, crowned queens | one SVG picture, the boards in a grid |
//!
//! Writers append to a byte buffer, so that worker threads format into per-task buffers and
//! one writer only copies bytes. A writer gets the solution's index in the set, which only the
//! SVG gallery needs (for the position of the board); the streaming driver formats SVG on its
//! writer thread for that reason.

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Column numbers separated by spaces, one line per solution.
    Perm,
    /// Rows of `Q` and `.`, a blank line after each solution.
    Board,
    /// n*n digits 0/1, one line per solution.
    Flat,
    /// JSON Lines: `{"n":4,"columns":[1,3,0,2]}`.
    Json,
    /// One JSON array of boards, each a list of row strings (LeetCode 51).
    Leetcode,
    /// An SVG picture of the board(s).
    Svg,
}

impl Format {
    /// Every format, in the order of the documentation.
    pub const ALL: [Format; 6] = [
        Format::Perm,
        Format::Board,
        Format::Flat,
        Format::Json,
        Format::Leetcode,
        Format::Svg,
    ];

    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            Format::Perm => "perm",
            Format::Board => "board",
            Format::Flat => "flat",
            Format::Json => "json",
            Format::Leetcode => "leetcode",
            Format::Svg => "svg",
        }
    }

    /// The largest board the format writes: the ones that grow as n² stop where the output
    /// would be of no use to anyone (a board of 2,000 rows is 4 MB of text).
    pub fn max_n(self) -> u64 {
        match self {
            Format::Board | Format::Flat | Format::Leetcode => 2_000,
            Format::Svg => 200,
            Format::Perm | Format::Json => u64::MAX,
        }
    }

    /// The writer of this format.
    pub fn writer(self) -> &'static dyn Writer {
        match self {
            Format::Perm => &Perm,
            Format::Board => &Board,
            Format::Flat => &Flat,
            Format::Json => &Json,
            Format::Leetcode => &Leetcode,
            Format::Svg => &Svg,
        }
    }
}

/// Writes solutions of one format.
pub trait Writer: Sync {
    /// What comes before the first solution of a set of `count` solutions of board size `n`.
    fn begin(&self, _n: usize, _count: u64, _out: &mut Vec<u8>) {}
    /// One solution, the `index`-th of the set (0-based); `columns[i]` is row i's column.
    fn solution(&self, index: u64, columns: &[u32], out: &mut Vec<u8>);
    /// What comes after the last solution.
    fn end(&self, _out: &mut Vec<u8>) {}
    /// The bytes a solution starts with when it is not the first (a separator), if any.
    fn separator(&self) -> &'static [u8] {
        b""
    }
}

/// `perm`.
pub struct Perm;
/// `board`.
pub struct Board;
/// `flat`.
pub struct Flat;
/// `json`.
pub struct Json;
/// `leetcode`.
pub struct Leetcode;
/// `svg`.
pub struct Svg;

fn push_number(out: &mut Vec<u8>, value: u32) {
    // Column numbers below 100 are nearly every call: two digits by hand.
    if value < 10 {
        out.push(b'0' + value as u8);
    } else if value < 100 {
        out.extend_from_slice(&[b'0' + (value / 10) as u8, b'0' + (value % 10) as u8]);
    } else {
        out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }
}

fn push_columns(out: &mut Vec<u8>, columns: &[u32], separator: u8) {
    for (i, &c) in columns.iter().enumerate() {
        if i > 0 {
            out.push(separator);
        }
        push_number(out, c);
    }
}

/// Row `row` of a board drawn with `queen` and `empty` bytes.
fn push_row(out: &mut Vec<u8>, n: usize, column: u32, queen: u8, empty: u8) {
    let start = out.len();
    out.resize(start + n, empty);
    out[start + column as usize] = queen;
}

impl Writer for Perm {
    fn solution(&self, _: u64, columns: &[u32], out: &mut Vec<u8>) {
        push_columns(out, columns, b' ');
        out.push(b'\n');
    }
}

impl Writer for Board {
    fn solution(&self, _: u64, columns: &[u32], out: &mut Vec<u8>) {
        for &c in columns {
            push_row(out, columns.len(), c, b'Q', b'.');
            out.push(b'\n');
        }
        out.push(b'\n');
    }
}

impl Writer for Flat {
    fn solution(&self, _: u64, columns: &[u32], out: &mut Vec<u8>) {
        for &c in columns {
            push_row(out, columns.len(), c, b'1', b'0');
        }
        out.push(b'\n');
    }
}

impl Writer for Json {
    fn solution(&self, _: u64, columns: &[u32], out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"n\":");
        push_number(out, columns.len() as u32);
        out.extend_from_slice(b",\"columns\":[");
        push_columns(out, columns, b',');
        out.extend_from_slice(b"]}\n");
    }
}

impl Writer for Leetcode {
    fn begin(&self, _: usize, _: u64, out: &mut Vec<u8>) {
        out.push(b'[');
    }
    fn solution(&self, index: u64, columns: &[u32], out: &mut Vec<u8>) {
        if index > 0 {
            out.extend_from_slice(self.separator());
        }
        out.push(b'[');
        for (i, &c) in columns.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'"');
            push_row(out, columns.len(), c, b'Q', b'.');
            out.push(b'"');
        }
        out.push(b']');
    }
    fn end(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"]\n");
    }
    fn separator(&self) -> &'static [u8] {
        b","
    }
}

/// Pixels per square of an SVG board.
pub const SVG_SQUARE: u64 = 24;
/// Pixels between the boards of an SVG gallery.
const SVG_GAP: u64 = 16;
/// Boards per row of an SVG gallery.
const SVG_PER_ROW: u64 = 8;

/// Where the `index`-th board of an SVG gallery goes, and the size of the picture.
fn svg_layout(n: usize, count: u64) -> (u64, u64) {
    let board = n as u64 * SVG_SQUARE;
    let across = count.clamp(1, SVG_PER_ROW);
    let down = count.max(1).div_ceil(SVG_PER_ROW);
    (
        across * board + (across + 1) * SVG_GAP,
        down * board + (down + 1) * SVG_GAP,
    )
}

impl Writer for Svg {
    fn begin(&self, n: usize, count: u64, out: &mut Vec<u8>) {
        let (width, height) = svg_layout(n, count);
        let s = SVG_SQUARE;
        let header = format!(
            concat!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" ",
                "viewBox=\"0 0 {w} {h}\">\n<title>{count} solution(s) of the {n}-queens puzzle</title>\n",
                "<defs>\n",
                "<pattern id=\"squares\" width=\"{s2}\" height=\"{s2}\" patternUnits=\"userSpaceOnUse\">",
                "<rect width=\"{s2}\" height=\"{s2}\" fill=\"#f0d9b5\"/>",
                "<rect x=\"{s}\" width=\"{s}\" height=\"{s}\" fill=\"#b58863\"/>",
                "<rect y=\"{s}\" width=\"{s}\" height=\"{s}\" fill=\"#b58863\"/></pattern>\n",
                "<symbol id=\"queen\" viewBox=\"0 0 24 24\">",
                "<path d=\"M4 19h16l-1.5-9-3.5 4-3-7-3 7-3.5-4z\" fill=\"#222\" stroke=\"#fff\" stroke-width=\"1\"/>",
                "<rect x=\"4\" y=\"19\" width=\"16\" height=\"2.5\" fill=\"#222\"/></symbol>\n",
                "</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
            ),
            w = width,
            h = height,
            count = count,
            n = n,
            s = s,
            s2 = 2 * s,
        );
        out.extend_from_slice(header.as_bytes());
    }
    fn solution(&self, index: u64, columns: &[u32], out: &mut Vec<u8>) {
        let n = columns.len() as u64;
        let board = n * SVG_SQUARE;
        let x = SVG_GAP + (index % SVG_PER_ROW) * (board + SVG_GAP);
        let y = SVG_GAP + (index / SVG_PER_ROW) * (board + SVG_GAP);
        let group = format!(
            "<g class=\"board\" data-n=\"{n}\" transform=\"translate({x},{y})\">\
             <rect width=\"{board}\" height=\"{board}\" fill=\"url(#squares)\" stroke=\"#333\"/>"
        );
        out.extend_from_slice(group.as_bytes());
        for (row, &c) in columns.iter().enumerate() {
            let queen = format!(
                "<use href=\"#queen\" x=\"{}\" y=\"{}\" width=\"{SVG_SQUARE}\" height=\"{SVG_SQUARE}\"/>",
                u64::from(c) * SVG_SQUARE,
                row as u64 * SVG_SQUARE
            );
            out.extend_from_slice(queen.as_bytes());
        }
        out.extend_from_slice(b"</g>\n");
    }
    fn end(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"</svg>\n");
    }
}

/// Formats a whole set of solutions at once (for small sets and tests).
pub fn format_all(format: Format, n: usize, solutions: &[Vec<u32>]) -> Vec<u8> {
    let writer = format.writer();
    let mut out = Vec::new();
    writer.begin(n, solutions.len() as u64, &mut out);
    for (i, s) in solutions.iter().enumerate() {
        writer.solution(i as u64, s, &mut out);
    }
    writer.end(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(format: Format, solutions: &[Vec<u32>]) -> String {
        String::from_utf8(format_all(format, 4, solutions)).unwrap()
    }

    #[test]
    fn formats_of_the_two_solutions_of_four() {
        let both = [vec![1, 3, 0, 2], vec![2, 0, 3, 1]];
        assert_eq!(text(Format::Perm, &both), "1 3 0 2\n2 0 3 1\n");
        assert_eq!(
            text(Format::Board, &both[..1]),
            ".Q..\n...Q\nQ...\n..Q.\n\n"
        );
        assert_eq!(text(Format::Flat, &both[..1]), "0100000110000010\n");
        assert_eq!(
            text(Format::Json, &both),
            "{\"n\":4,\"columns\":[1,3,0,2]}\n{\"n\":4,\"columns\":[2,0,3,1]}\n"
        );
        assert_eq!(
            text(Format::Leetcode, &both),
            "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]\n"
        );
        assert_eq!(text(Format::Leetcode, &[]), "[]\n");
        let svg = text(Format::Svg, &both);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<g class=\"board\"").count(), 2);
        assert_eq!(svg.matches("href=\"#queen\"").count(), 8);
    }

    #[test]
    fn large_numbers_are_written_in_full() {
        let mut out = Vec::new();
        Perm.solution(0, &[0, 9, 10, 99, 100, 12_345_678], &mut out);
        assert_eq!(out, b"0 9 10 99 100 12345678\n");
    }
}
