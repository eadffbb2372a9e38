//! What the join engine holds in memory, and the piece size that keeps it under a limit
//! (`--max-memory`): the quarter table (or each thread's tables built on demand) plus one
//! piece of half-boards of each side per thread.

use super::slice::{MOST_ON_KEY, ON_DEMAND_FROM, Slice};
use crate::join::count::chunking::Chunking;
use crate::join::count::quarter::whole_bytes;
use crate::join::shape::Shape;

/// The memory the quarter tables of the n x n board take on `threads` threads, in bytes,
/// without building them: the whole table up to n = 25; from n = 26 on, the count of
/// placements of every row set and the four tables of single row sets each thread builds
/// (two for each side of its unit).
pub fn table_bytes(n: u32, threads: usize) -> u64 {
    let h = Shape::new(n).h;
    if h >= ON_DEMAND_FROM {
        (1u64 << h) * 8 + threads.max(1) as u64 * 4 * Slice::most_bytes(h)
    } else {
        whole_bytes(h)
    }
}

/// The most south entries a side appends at once past its piece: those of one set of rows
/// and columns of the h x h quarter.
pub(in crate::join) fn longest_run(h: u32) -> usize {
    MOST_ON_KEY[h as usize] as usize
}

/// Half-boards a thread holds of each side by default: beyond this, a unit is joined in
/// pieces. Units reach it from n = 23 on; there, larger pieces prune more (each piece pair
/// costs about `p^1.6` for pieces of `p`, the cuts growing with `p`): the median unit of
/// n = 26 took 46.6 s in pieces of 2^20, 31.2 s in 2^22 and 26.6 s in 2^24 (one thread). The
/// index takes some 100 bytes a half-board, so 2^22 keeps a thread within about half a GB.
/// With partitions, the larger piece indexed and tables made a block at a time, 2^24 made
/// n = 28 7 % faster and n = 26 1 % (`join_partition cost`, docs/how-it-works.md), for four
/// times the memory: not the default.
pub const DEFAULT_PIECE: usize = 1 << 22;

/// Half-boards of each side the host holds at most when a GPU counts the pairs: the tables
/// of a piece's index (some 32 bytes a half-board at n = 22, so about 40 MB at 2^20) then fit
/// one dispatch's binding on every device wgpu reports (lavapipe allows 128 MiB). Units
/// stay below it up to n = 22.
pub const DEVICE_PIECE: usize = 1 << 20;

/// What a host thread feeding a GPU holds beside its piece, at most, for a memory limit: the
/// batch it fills (tables, rests and runs, up to 2 MiB each before it is sent) and the
/// two mappable buffers it writes batches into, one for the batch in flight and one for the
/// next (each a quarter over the largest batch so far). A single piece's may be more.
pub const DEVICE_BATCH_BYTES: u64 = 32 << 20;

/// The smallest piece [`piece_for`] settles for: smaller ones would repeat the generation of
/// the other side too often to be worth running.
pub const MIN_PIECE: usize = 1 << 12;

/// The bytes a thread holds per half-board of a piece, at most: each side's buffer and sorted
/// copy (8 bytes each), a query's row numbers (2 bytes a chunk, counted as 4), and the index's tables
/// (`rows` of 64 bytes per group of 512; with the groups that hard buckets leave part empty,
/// at most twice that, since a piece has at most one hard bucket per 512 half-boards). The
/// rows are the most of any rest width, since cuts narrow the rest. The tables are counted
/// whole, as a device takes them and as a block of a skewed index may come near them; a
/// count here holds one block's at a time (`count/blocks.rs`), so it holds less.
pub fn bytes_per_half_board(n: u32) -> usize {
    let (chunks, rows) = (0..=2 * Shape::new(n).shared())
        .map(|width| {
            let chunking = Chunking::new(width);
            (chunking.count(), chunking.rows())
        })
        .fold((0, 0), |(c, r), (c2, r2)| (c.max(c2), r.max(r2)));
    32 + 4 * chunks + rows / 4
}

/// The least memory the join engine counts the n x n board in on `threads` threads: its
/// quarter table and pieces of [`MIN_PIECE`] half-boards.
pub fn least_bytes(n: u32, threads: usize) -> u64 {
    let per_piece = (threads.max(1) * bytes_per_half_board(n)) as u64;
    table_bytes(n, threads) + MIN_PIECE as u64 * per_piece
}

/// The piece size that keeps the join engine's data for the n x n board on `threads` threads
/// within `limit` bytes: the quarter table, and one piece of each side per thread.
/// [`crate::Error::Memory`] when even pieces of [`MIN_PIECE`] do not fit.
pub fn piece_for(n: u32, limit: u64, threads: usize) -> Result<usize, crate::error::Error> {
    let table = table_bytes(n, threads);
    let per_piece = (threads.max(1) * bytes_per_half_board(n)) as u64;
    let piece = limit.saturating_sub(table) / per_piece;
    if piece < MIN_PIECE as u64 {
        return Err(crate::error::Error::Memory {
            needed: least_bytes(n, threads),
            table,
        });
    }
    Ok(piece.min(DEFAULT_PIECE as u64) as usize)
}
