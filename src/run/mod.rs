//! Running a count: the numbered tasks of a [`Plan`](crate::Plan) on threads, in journals, in
//! shards and over MPI ranks.
//!
//! From the bottom up: [`driver`] runs numbered tasks on a rayon pool and knows nothing of
//! boards; [`deal`] deals tasks to shards by weight and [`record`] holds what journals and shard
//! files share (the checksum, the regular-file check, the checked sum); [`claim`] which file
//! an output is, by any name, and whether another run holds it; [`job`] is a prepared count;
//! [`counter`] is the builder a user configures and the run itself; [`estimate`] times a
//! sample of a job's work to predict its cost; [`recount`] counts tasks again a second way
//! (the double check, audits); `identity` is the run a file names; [`checkpoint`] is the
//! resumable journal (`journal_lines` its record lines, `journal` its file, `recorded` a
//! journal or subtotals file read back for an audit); [`shard`] the shard result files and
//! `merge`; `cluster` the MPI dealing. Each file uses only those before it in this list.
//!
//! It may use the engines (`search/`, `join/`, `gpu/`), the engine vocabulary and the base.

pub mod checkpoint;
pub mod claim;
#[cfg(feature = "mpi")]
pub mod cluster;
pub(crate) mod counter;
pub(crate) mod deal;
pub(crate) mod driver;
pub(crate) mod estimate;
mod identity;
pub(crate) mod job;
mod journal;
mod journal_lines;
pub(crate) mod record;
mod recorded;
pub mod recount;
pub mod shard;
