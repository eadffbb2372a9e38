//! The join engine: counts solutions without searching whole boards, by joining half-boards.
//!
//! Every row holds one queen, in the west half of the columns or in the east half. Fix the
//! set `S` of rows whose queen is in the east: a solution is then a *west half-board* (one
//! queen in each west column, in the rows outside `S`, no two attacking) beside an *east
//! half-board* (one queen in each east column, in the rows of `S`) whose diagonals do not meet
//! those of the west one. Rows and columns cannot clash across the halves, so the count for
//! `S` is the number of pairs of half-boards whose diagonal sets are disjoint, and the total is
//! the sum over all `S`. No search runs over a whole board.
//!
//! * **Half-boards from quarters** (`count::quarter`, `count::half`). One table holds every placement of
//!   non-attacking queens in the north-west quarter, filed by the rows and columns it uses
//!   (built once per count, on first use); the other three quarters are its mirror images,
//!   read through the same table (`View`). A west half-board is a north-west entry beside a
//!   south-west entry that uses the other west columns, when their diagonals do not meet: one
//!   AND of two words per candidate.
//! * **Counting pairs in bulk** (`count::index`, `count::simd`). Only the diagonals that both halves can
//!   reach matter: `2n - 2` of them at most, one `u64` per half-board. One side's half-boards
//!   are filed in buckets by a few central diagonals (a half-board of the other side that
//!   holds one of those diagonals skips every bucket that holds it too; the last two cuts
//!   only order a bucket, so that its groups are filled whole) and stored bit-sliced in
//!   groups of 512, with the AND of every combination of 5 or 6 diagonals precomputed
//!   (`Index`); a half-board then counts its partners in a group with one vector AND per
//!   chunk of its diagonals and a popcount. The unit count is built for AVX-512, for AVX2 and
//!   portably, and chosen once, when the plan is made.
//! * **Symmetry.** On even boards, turning the board upside down maps `S` to its reverse and
//!   the left-right mirror maps it to its complement, so only the least of those (up to) four
//!   sets is counted, times the size of its orbit. On odd boards the queens of the middle row
//!   and the middle column are placed first, one placement per orbit of the eight symmetries
//!   (eight times each), and the rest of the board is joined as above; the centre queen keeps
//!   all symmetries and uses the even-board scheme. The placed queens count as part of the
//!   east half-board, so a set of west rows is one unit of work for all the placements.
//! * **Tasks and memory** (`plan::tasks`, `plan::memory`). Each set of west rows is one unit of work; units are grouped into
//!   numbered tasks by the sides of the queens in the first rows, so the driver, progress,
//!   checkpoints, shards and MPI treat this engine like the others. A thread holds the
//!   half-boards of one unit at a time; under a memory limit it holds at most a given number
//!   of each side and joins them piece by piece ([`Plan::with_piece`], [`piece_for`]).

mod binomial;
mod check;
mod count;
mod plan;
mod sampler;
mod shape;

#[cfg(all(test, feature = "gpu"))]
pub(crate) use count::unit::pairs_of_patterns;
#[cfg(feature = "gpu")]
pub(crate) use count::{bits::Gather, index::Index, unit::Pairs, walk::Pairing};
pub(crate) use sampler::splitmix;

#[doc(hidden)]
pub use count::simd::instruction_set;
pub use count::traffic::Traffic;
#[doc(hidden)]
pub use count::unit::Cost;
pub use plan::memory::table_bytes;
pub use plan::memory::{
    DEFAULT_PIECE, DEVICE_BATCH_BYTES, DEVICE_PIECE, MIN_PIECE, bytes_per_half_board, least_bytes,
    piece_for,
};
pub use plan::partition::{MAX_BITS, Policy, TASK_NANOS};
pub use plan::tasks::{
    AUTO_FROM, JoinTask, MAX_DEPTH, MAX_N, MIN_N, MORE_TASKS_FROM, MOST_THREADS, Plan,
    TASKS_PER_THREAD, auto_depth, clamp_depth, supports,
};
#[doc(hidden)]
pub use plan::weight::PartSizes;
