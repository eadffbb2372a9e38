//! The backtracking search: a bitmask depth-first search per numbered task.
//!
//! The board's first rows are placed in advance, one task per placement, by the mirror split
//! ([`split`]: the first row halved by the board's mirror image) or the full-symmetry split
//! ([`full`]: one board per class of eight, with blocking rules and weights). Each task is
//! counted by the hot loop ([`kernel`]), whose last five rows are counted in closed form
//! ([`finish`]). A count's estimate times parts of its tasks ([`sample`]: a random walk
//! down to a subtree small enough to time, scaled). [`restricted`] is the search with each
//! row's queen kept to given columns: the join's tasks counted another way, for checks.
//! [`textbook`] is the classic counter the engines are measured against, not an engine.
//!
//! It may use the crate's base (`error`, `known`, `limits`, `cpu`) and nothing else.

pub(crate) mod finish;
#[cfg(target_arch = "x86_64")]
pub(crate) mod finish_lanes;
pub(crate) mod full;
pub(crate) mod kernel;
#[cfg(target_arch = "x86_64")]
pub(crate) mod lanes;
pub(crate) mod restricted;
pub(crate) mod sample;
pub(crate) mod split;
pub mod textbook;
