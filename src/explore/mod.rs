//! What `nqueens serve`'s page explores: solution k of a board and its neighbours
//! ([`browse`]), the completions of queens placed by hand ([`partial`]), and the search as a
//! stream of events ([`trace`]).
//!
//! It may use solution sets (`solutions/`), the search, the driver and the base.

pub mod browse;
pub mod partial;
pub mod trace;
