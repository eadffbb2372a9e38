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

/// Writes solutions of one format, row by row: a solution is what [`Writer::open`] writes,
/// then one [`Writer::row`] per row, then [`Writer::close`], so that a solution of any size
/// can be written as its rows come ([`write_one`]) as well as whole ([`Writer::solution`]).
pub trait Writer: Sync {
    /// What comes before the first solution of a set of `count` solutions of board size `n`.
    fn begin(&self, _n: usize, _count: u64, _out: &mut Vec<u8>) {}
    /// What the `index`-th solution of the set (0-based), of board size `n`, starts with.
    fn open(&self, _index: u64, _n: usize, _out: &mut Vec<u8>) {}
    /// Row `row` of a solution of board size `n`: its queen stands in `column`.
    fn row(&self, row: usize, column: u32, n: usize, out: &mut Vec<u8>);
    /// What a solution of board size `n` ends with.
    fn close(&self, _n: usize, _out: &mut Vec<u8>) {}
    /// One solution, the `index`-th of the set (0-based); `columns[i]` is row i's column.
    fn solution(&self, index: u64, columns: &[u32], out: &mut Vec<u8>) {
        let n = columns.len();
        self.open(index, n, out);
        for (row, &column) in columns.iter().enumerate() {
            self.row(row, column, n, out);
        }
        self.close(n, out);
    }
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
        let mut digits = [0u8; 10];
        let mut at = digits.len();
        let mut rest = value;
        while rest > 0 {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
        }
        out.extend_from_slice(&digits[at..]);
    }
}

/// Row `row` of a board drawn with `queen` and `empty` bytes.
fn push_row(out: &mut Vec<u8>, n: usize, column: u32, queen: u8, empty: u8) {
    let start = out.len();
    out.resize(start + n, empty);
    out[start + column as usize] = queen;
}

impl Writer for Perm {
    fn row(&self, row: usize, column: u32, _: usize, out: &mut Vec<u8>) {
        if row > 0 {
            out.push(b' ');
        }
        push_number(out, column);
    }
    fn close(&self, _: usize, out: &mut Vec<u8>) {
        out.push(b'\n');
    }
}

impl Writer for Board {
    fn row(&self, _: usize, column: u32, n: usize, out: &mut Vec<u8>) {
        push_row(out, n, column, b'Q', b'.');
        out.push(b'\n');
    }
    fn close(&self, _: usize, out: &mut Vec<u8>) {
        out.push(b'\n');
    }
}

impl Writer for Flat {
    fn row(&self, _: usize, column: u32, n: usize, out: &mut Vec<u8>) {
        push_row(out, n, column, b'1', b'0');
    }
    fn close(&self, _: usize, out: &mut Vec<u8>) {
        out.push(b'\n');
    }
}

impl Writer for Json {
    fn open(&self, _: u64, n: usize, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"n\":");
        // Board sizes are u32 everywhere (`find` takes up to 2^32 - 1).
        push_number(out, n as u32);
        out.extend_from_slice(b",\"columns\":[");
    }
    fn row(&self, row: usize, column: u32, _: usize, out: &mut Vec<u8>) {
        if row > 0 {
            out.push(b',');
        }
        push_number(out, column);
    }
    fn close(&self, _: usize, out: &mut Vec<u8>) {
        out.extend_from_slice(b"]}\n");
    }
}

impl Writer for Leetcode {
    fn begin(&self, _: usize, _: u64, out: &mut Vec<u8>) {
        out.push(b'[');
    }
    fn open(&self, index: u64, _: usize, out: &mut Vec<u8>) {
        if index > 0 {
            out.extend_from_slice(self.separator());
        }
        out.push(b'[');
    }
    fn row(&self, row: usize, column: u32, n: usize, out: &mut Vec<u8>) {
        if row > 0 {
            out.push(b',');
        }
        out.push(b'"');
        push_row(out, n, column, b'Q', b'.');
        out.push(b'"');
    }
    fn close(&self, _: usize, out: &mut Vec<u8>) {
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
    fn open(&self, index: u64, n: usize, out: &mut Vec<u8>) {
        let board = n as u64 * SVG_SQUARE;
        let x = SVG_GAP + (index % SVG_PER_ROW) * (board + SVG_GAP);
        let y = SVG_GAP + (index / SVG_PER_ROW) * (board + SVG_GAP);
        let group = format!(
            "<g class=\"board\" data-n=\"{n}\" transform=\"translate({x},{y})\">\
             <rect width=\"{board}\" height=\"{board}\" fill=\"url(#squares)\" stroke=\"#333\"/>"
        );
        out.extend_from_slice(group.as_bytes());
    }
    fn row(&self, row: usize, column: u32, _: usize, out: &mut Vec<u8>) {
        let queen = format!(
            "<use href=\"#queen\" x=\"{}\" y=\"{}\" width=\"{SVG_SQUARE}\" height=\"{SVG_SQUARE}\"/>",
            u64::from(column) * SVG_SQUARE,
            row as u64 * SVG_SQUARE
        );
        out.extend_from_slice(queen.as_bytes());
    }
    fn close(&self, _: usize, out: &mut Vec<u8>) {
        out.extend_from_slice(b"</g>\n");
    }
    fn end(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"</svg>\n");
    }
}

/// Writes a set of one solution of board size `n`, whose columns come row by row from
/// `columns`, to `out` in pieces of about 64 KiB: memory stays bounded whatever `n` is (a board
/// of four billion rows is tens of gigabytes of text), and a failed write (a closed pipe) ends
/// it at once.
pub fn write_one(
    format: Format,
    n: usize,
    columns: impl Iterator<Item = u32>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    const PIECE: usize = 1 << 16;
    let writer = format.writer();
    let mut piece = Vec::with_capacity(2 * PIECE);
    writer.begin(n, 1, &mut piece);
    writer.open(0, n, &mut piece);
    for (row, column) in columns.enumerate() {
        writer.row(row, column, n, &mut piece);
        if piece.len() >= PIECE {
            out.write_all(&piece)?;
            piece.clear();
        }
    }
    writer.close(n, &mut piece);
    writer.end(&mut piece);
    out.write_all(&piece)
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
