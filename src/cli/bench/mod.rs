//! `nqueens bench`: a benchmark of the machine and the build in 15 s (2 cores) to a minute
//! or two (hundreds of cores), comparable between machines and versions. What runs is fixed
//! by the [`workload`]; the machine is described by [`machine`]; [`yardstick`] times the two
//! fixed yardsticks (the textbook counter, a walk of a table the size of a second-level
//! cache); [`rows`] times the engines on 1, 2, 4, ... threads and derives each row's figures;
//! [`report`] prints them, as text or JSON, beside a saved baseline; [`run`] puts them
//! together.

pub mod machine;
pub mod report;
pub mod rows;
pub mod run;
pub mod workload;
pub mod yardstick;
