//! The join's count: the pairs of compatible half-boards of a task's units, and nothing
//! else. The quarter table and its views (`quarter`), half-boards made from pairs of its
//! entries (`half`), a unit joined piece by piece, east against west (`unit`); one side's
//! half-boards filed in buckets and bit-sliced groups (`index`, `keys`, `squeeze`,
//! `chunking`, `group`), the walk of the groups and runs of queries that can pair (`walk`), the
//! groups' tables made a block at a time as the walk reaches them (`blocks`), the weights an
//! even board's pairs take from the transposition (`transpose`), and the hot loop that counts
//! them (`hot`), built for each instruction set (`simd`, `bits`); and a model of
//! the walk's memory traffic, for its measurements (`traffic`).

pub(super) mod bits;
pub(super) mod blocks;
pub(super) mod chunking;
pub(super) mod group;
pub(super) mod half;
pub(super) mod hot;
pub(super) mod index;
pub(super) mod keys;
pub(super) mod quarter;
pub(super) mod simd;
pub(super) mod squeeze;
pub(super) mod traffic;
pub(super) mod transpose;
pub(super) mod unit;
pub(super) mod walk;
