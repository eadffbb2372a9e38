//! Streaming every solution of a board to a writer, in lexicographic order, with bounded
//! memory, on all cores.
//!
//! The prefixes of the first rows (the tasks) are generated lazily, in lexicographic order,
//! and taken one at a time by the worker threads. Taking a task also queues, in the same
//! order, the receiving end of a bounded channel for its output; the worker streams the
//! task's formatted solutions into that channel in blocks of about 64 KiB, and the writer
//! (the calling thread) drains the channels in task order. Both kinds of channel are bounded
//! (at most four blocks waiting per task, four tasks per thread queued ahead of the one being
//! written), so a worker that runs ahead of the writer waits, and the split depth is chosen so
//! that a task holds about 65,536 solutions at most: memory stays bounded whatever n is.
//!
//! Lexicographic order needs the right half of the first row searched too (the mirror image
//! of a left-half task comes out at the far end of the stream, and keeping it until then
//! would take memory in proportion to the output). [`Order::Unordered`] searches the left half
//! only and writes each solution next to its mirror image.
//!
//! The writer stops everything when the limit is reached or the output closes: workers check
//! a flag once per solution and before taking each task.

use crate::error::Error;
use crate::known;
use crate::run::driver;
use crate::search::kernel::{self, Subboard};
use crate::search::split::Prefixes;
use crate::solutions::format::{Format, Writer};
use std::io::{ErrorKind, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// The order of the solutions in the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Order {
    /// Lexicographic by the column list: the same bytes for any thread count.
    #[default]
    Lexicographic,
    /// Each left-half solution followed by its mirror image: half the search, and an order
    /// that depends on nothing but n either (but is not sorted).
    Unordered,
}

/// How to stream.
#[derive(Clone, Debug, Default)]
pub struct StreamOptions {
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
    /// Stop after this many solutions.
    pub limit: Option<u64>,
    /// The order of the stream.
    pub order: Order,
}

/// What a stream did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamSummary {
    /// Solutions written.
    pub solutions: u64,
    /// Whether the output was closed by the reader before the end (a pipe into `head`).
    pub output_closed: bool,
}

/// One task's formatted solutions.
struct Piece {
    bytes: Vec<u8>,
    /// Where each solution ends in `bytes` (kept only when a limit may cut the piece).
    ends: Vec<usize>,
    count: u64,
}

/// Solutions a task should hold, on average, at most: small tasks balance the threads.
const SOLUTIONS_PER_TASK: u128 = 65_536;
/// Tasks per thread that may be started ahead of the one being written.
const TASKS_PER_THREAD: usize = 4;
/// A task's output goes to the writer in blocks of about this size...
const BLOCK_BYTES: usize = 1 << 16;
/// ...of which at most this many wait per task.
const BLOCKS_PER_TASK: usize = 4;

/// Writes every solution of the n x n board to `out` in `format`.
pub fn solve(
    n: u32,
    format: Format,
    options: &StreamOptions,
    out: &mut (dyn Write + Send),
) -> Result<StreamSummary, Error> {
    Error::check_board_size(n)?;
    let threads = driver::resolve_threads(options.threads)?;
    let mirrored = options.order == Order::Unordered;
    let depth = choose_depth(n, threads, mirrored);
    let writer = format.writer();
    let expected = expected_solutions(n, format, options.limit, threads)?;
    let stop = AtomicBool::new(false);
    // Tasks are taken in order; each gets a channel of blocks, handed to the writer in the
    // same order. Bounded channels keep memory bounded: a worker ahead of the writer waits.
    let queue = Mutex::new(Prefixes::new(n, depth, mirrored));
    let (order, tasks_in_order) = sync_channel::<Receiver<Piece>>(TASKS_PER_THREAD * threads);

    std::thread::scope(|scope| {
        for _ in 0..threads {
            let order = order.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || {
                loop {
                    let (task, blocks) = {
                        let mut queue = queue.lock().unwrap_or_else(|e| e.into_inner());
                        let Some(task) = queue.next() else { break };
                        let (blocks, receiver) = sync_channel::<Piece>(BLOCKS_PER_TASK);
                        if stop.load(Ordering::Relaxed) || order.send(receiver).is_err() {
                            break;
                        }
                        (task, blocks)
                    };
                    let (prefix, board) = task;
                    run_task(
                        n,
                        format,
                        writer,
                        &prefix,
                        board,
                        mirrored,
                        options.limit,
                        stop,
                        &blocks,
                    );
                }
            });
        }
        drop(order);
        let mut sink = Sink {
            out,
            writer,
            format,
            n: n as usize,
            limit: options.limit,
            written: 0,
        };
        let result = sink.run(tasks_in_order, expected);
        // Whatever ended the writing (the end, the limit, a closed pipe, an error), the
        // workers stop at their next solution; their channels are gone with the receiver.
        stop.store(true, Ordering::Relaxed);
        result.map(|closed| StreamSummary {
            solutions: sink.written,
            output_closed: closed,
        })
    })
}

/// The number of solutions the writer's header announces, as `Writer::begin` takes it. The
/// SVG header needs the number of boards: the known total, else a count made first, cut at
/// `limit`; the others need nothing ahead and get the limit, or 0.
fn expected_solutions(
    n: u32,
    format: Format,
    limit: Option<u64>,
    threads: usize,
) -> Result<u64, Error> {
    Ok(match (format, limit, known::total(n)) {
        (Format::Svg, limit, Some(total)) => {
            let total = u64::try_from(total).unwrap_or(u64::MAX);
            limit.map_or(total, |l| l.min(total))
        }
        (Format::Svg, Some(limit), None) => limit,
        (Format::Svg, None, None) => {
            let total = crate::run::counter::Counter::new()
                .threads(threads)
                .count(n)?
                .solutions;
            u64::try_from(total).unwrap_or(u64::MAX)
        }
        (_, limit, _) => limit.unwrap_or(0),
    })
}

/// Enumerates one task's solutions into a piece.
#[allow(clippy::too_many_arguments)]
fn run_task(
    n: u32,
    format: Format,
    writer: &dyn Writer,
    prefix: &[u8],
    board: Subboard,
    mirrored: bool,
    limit: Option<u64>,
    stop: &AtomicBool,
    blocks: &SyncSender<Piece>,
) {
    let keep_ends = limit.is_some();
    let limit = limit.unwrap_or(u64::MAX);
    let mut piece = Piece {
        bytes: Vec::new(),
        ends: Vec::new(),
        count: 0,
    };
    let mut columns = vec![0u32; n as usize];
    // One line cache per orientation: mirrored lines share no prefix with the others.
    let mut lines = [PermLine::default(), PermLine::default()];
    let mut emit = |solution: &[u8], orientation: usize, piece: &mut Piece| {
        match format {
            // The default format, and the one that must keep up with the search.
            Format::Perm => lines[orientation].write(solution, &mut piece.bytes),
            // The gallery position needs the index in the whole set: the writer formats.
            Format::Svg => piece.bytes.extend_from_slice(solution),
            _ => {
                for (c, &s) in columns.iter_mut().zip(solution) {
                    *c = u32::from(s);
                }
                // Index 1: every solution with its separator; the sink drops the first one.
                writer.solution(1, &columns, &mut piece.bytes);
            }
        }
        if keep_ends {
            piece.ends.push(piece.bytes.len());
        }
        piece.count += 1;
    };
    let mut image = [0u8; 32];
    let mut sent = 0u64;
    let mut going = true;
    kernel::visit(board, prefix, &mut |solution| {
        emit(solution, 0, &mut piece);
        if mirrored && n > 1 && sent + piece.count < limit {
            for (m, &c) in image.iter_mut().zip(solution) {
                *m = (n - 1) as u8 - c;
            }
            emit(&image[..solution.len()], 1, &mut piece);
        }
        if piece.bytes.len() >= BLOCK_BYTES {
            sent += piece.count;
            let full = std::mem::replace(
                &mut piece,
                Piece {
                    bytes: Vec::with_capacity(BLOCK_BYTES + 4096),
                    ends: Vec::new(),
                    count: 0,
                },
            );
            // The writer has gone (limit, closed pipe, error): stop.
            going = blocks.send(full).is_ok();
        }
        going && sent + piece.count < limit && !stop.load(Ordering::Relaxed)
    });
    if going && piece.count > 0 {
        let _ = blocks.send(piece);
    }
}

/// The `perm` line of the previous solution, kept so that the next one (which shares all but
/// its last few columns with it, the search being depth first) only formats what changed.
struct PermLine {
    /// The columns of the line; `len` of them are valid.
    columns: [u8; 32],
    len: usize,
    /// The line, each number followed by a space (at most 3 bytes a column).
    text: [u8; 96],
    /// Where each column's number starts in `text`, and where the text ends (`starts[len]`).
    starts: [u8; 33],
}

impl Default for PermLine {
    fn default() -> Self {
        PermLine {
            columns: [0; 32],
            len: 0,
            text: [0; 96],
            starts: [0; 33],
        }
    }
}

impl PermLine {
    fn write(&mut self, solution: &[u8], out: &mut Vec<u8>) {
        let same = self.columns[..self.len]
            .iter()
            .zip(solution)
            .take_while(|(a, b)| a == b)
            .count();
        let mut end = usize::from(self.starts[same]);
        for (i, &c) in solution.iter().enumerate().skip(same) {
            self.columns[i] = c;
            self.starts[i] = end as u8;
            if c >= 10 {
                self.text[end] = b'0' + c / 10;
                end += 1;
            }
            self.text[end] = b'0' + c % 10;
            self.text[end + 1] = b' ';
            end += 2;
        }
        self.len = solution.len();
        self.starts[self.len] = end as u8;
        self.text[end - 1] = b'\n';
        out.extend_from_slice(&self.text[..end]);
        // Put the space back: the next line may share this last column.
        self.text[end - 1] = b' ';
    }
}

/// The writer's side: copies pieces to the output in order, cuts at the limit, and stops
/// quietly when the reader goes away.
struct Sink<'a> {
    out: &'a mut (dyn Write + Send),
    writer: &'static dyn Writer,
    format: Format,
    n: usize,
    limit: Option<u64>,
    written: u64,
}

impl Sink<'_> {
    /// Writes everything; returns whether the output was closed early.
    fn run(&mut self, tasks: Receiver<Receiver<Piece>>, expected: u64) -> Result<bool, Error> {
        let mut head = Vec::new();
        self.writer.begin(self.n, expected, &mut head);
        if let Some(closed) = self.put(&head)? {
            return Ok(closed);
        }
        for blocks in tasks {
            for piece in blocks {
                if let Some(closed) = self.piece(&piece)? {
                    return Ok(closed);
                }
            }
        }
        self.close()
    }

    /// Writes one piece: `Some(closed)` when the stream is over.
    fn piece(&mut self, piece: &Piece) -> Result<Option<bool>, Error> {
        let room = self.limit.map_or(u64::MAX, |l| l - self.written);
        if room == 0 {
            return self.close().map(Some);
        }
        let take = piece.count.min(room);
        if take == 0 {
            return Ok(None);
        }
        let mut bytes: Vec<u8>;
        let mut slice = &piece.bytes[..];
        if take < piece.count {
            slice = &slice[..piece.ends[take as usize - 1]];
        }
        if self.format == Format::Svg {
            bytes = Vec::new();
            let mut columns = vec![0u32; self.n];
            for (i, packed) in slice.chunks(self.n).enumerate() {
                for (c, &p) in columns.iter_mut().zip(packed) {
                    *c = u32::from(p);
                }
                self.writer
                    .solution(self.written + i as u64, &columns, &mut bytes);
            }
            slice = &bytes;
        } else if self.written == 0 {
            slice = &slice[self.writer.separator().len()..];
        }
        if let Some(closed) = self.put(slice)? {
            return Ok(Some(closed));
        }
        self.written += take;
        if Some(self.written) == self.limit {
            return self.close().map(Some);
        }
        Ok(None)
    }

    /// Ends the set (its closing bytes, a flush): returns whether the reader had gone.
    fn close(&mut self) -> Result<bool, Error> {
        let mut tail = Vec::new();
        self.writer.end(&mut tail);
        if let Some(closed) = self.put(&tail)? {
            return Ok(closed);
        }
        match self.out.flush() {
            Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(true),
            Err(e) => Err(Error::output(e)),
            Ok(()) => Ok(false),
        }
    }

    /// Writes bytes: `Some(true)` when the reader has gone.
    fn put(&mut self, bytes: &[u8]) -> Result<Option<bool>, Error> {
        match self.out.write_all(bytes) {
            Ok(()) => Ok(None),
            Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(Some(true)),
            Err(e) => Err(Error::output(e)),
        }
    }
}

/// The split depth: enough tasks for every thread, and few enough solutions per task.
fn choose_depth(n: u32, threads: usize, mirrored: bool) -> u32 {
    let total = known::total(n).unwrap_or(u128::MAX);
    let deepest = n.min(crate::search::split::MAX_DEPTH);
    let mut depth = 1;
    while depth < deepest {
        let tasks = Prefixes::new(n, depth, mirrored).count_up_to(1 << 20) as u128;
        let enough_tasks = tasks >= (64 * threads) as u128;
        if tasks >= 1 << 20 || enough_tasks && total / tasks.max(1) <= SOLUTIONS_PER_TASK {
            break;
        }
        depth += 1;
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(n: u32, format: Format, options: &StreamOptions) -> Vec<u8> {
        let mut out = Vec::new();
        solve(n, format, options, &mut out).unwrap();
        out
    }

    #[test]
    fn perm_stream_is_every_solution_in_order() {
        for n in 1..=10 {
            let text =
                String::from_utf8(stream(n, Format::Perm, &StreamOptions::default())).unwrap();
            let lines: Vec<Vec<u32>> = text
                .lines()
                .map(|l| l.split(' ').map(|c| c.parse().unwrap()).collect())
                .collect();
            assert_eq!(lines.len() as u128, known::total(n).unwrap());
            assert!(lines.windows(2).all(|w| w[0] < w[1]));
        }
    }

    #[test]
    fn unordered_stream_has_the_same_solutions() {
        for n in 1..=10 {
            let ordered = stream(n, Format::Perm, &StreamOptions::default());
            let options = StreamOptions {
                order: Order::Unordered,
                ..Default::default()
            };
            let unordered = stream(n, Format::Perm, &options);
            let mut a: Vec<&[u8]> = ordered.split(|&b| b == b'\n').collect();
            let mut b: Vec<&[u8]> = unordered.split(|&b| b == b'\n').collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "n {n}");
        }
    }

    #[test]
    fn limit_cuts_every_format_at_a_solution() {
        for format in Format::ALL {
            for limit in [0, 1, 5, 91, 92, 200] {
                let options = StreamOptions {
                    limit: Some(limit),
                    threads: Some(2),
                    ..Default::default()
                };
                let text = String::from_utf8(stream(8, format, &options)).unwrap();
                let items = crate::solutions::parse::parse(&text, format).unwrap();
                assert_eq!(items.len() as u64, limit.min(92), "{format:?} {limit}");
                assert!(items.iter().all(|i| i.columns.is_ok()));
            }
        }
    }
}
