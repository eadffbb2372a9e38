//! Solution sets: the [`Solution`](crate::Solution) type and its iterators, `solve`'s streams in
//! six formats, reading them back, and one solution of any size by construction.
//!
//! [`solution`] is the type and its check; [`iter`] the library's iterator and parallel
//! visitor; [`format`] the six writers; [`stream`] every solution in order into a writer with
//! bounded memory; [`parse`] reading placements back; [`construct`] `find`'s closed form.
//!
//! It may use the search (`search/`), the driver (`run::driver`) and the base.

pub mod construct;
pub mod format;
pub(crate) mod iter;
pub mod parse;
pub(crate) mod solution;
pub mod stream;
