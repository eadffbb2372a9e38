//! The command-line front end: argument definitions, validation, progress bar, output and
//! exit codes. The library below it knows nothing of any of this.

pub mod args;
pub mod audit;
pub mod bench;
pub mod completions;
pub mod config;
pub mod count;
pub mod document;
pub mod exit;
#[cfg(feature = "gpu")]
pub mod gpu_info;
pub mod interrupt;
pub mod memory;
pub mod merge;
pub mod output;
pub mod progress;
pub mod report;
pub mod selftest;
pub mod solve;
pub mod stderr;
pub mod values;
pub mod verify;
