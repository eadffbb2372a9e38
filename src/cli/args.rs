//! The command line as clap sees it. Nothing here is validated beyond its type: that is
//! `config`'s job, so that every mistake gets the same one-line error.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Counts and enumerates the solutions of the n-queens puzzle.
#[derive(Debug, Parser)]
#[command(name = "nqueens", version, about, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the solutions of an N x N board (prints the count alone), or of every size in a
    /// range (prints a table).
    Count(CountArgs),
}

/// `nqueens count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// The board size N (1 to 32), or an inclusive range A..B: `8..12` counts 8, 9, 10, 11
    /// and 12.
    #[arg(value_name = "N|A..B", allow_negative_numbers = true)]
    pub size: String,

    /// Worker threads [default: one per core].
    #[arg(short = 'j', long, value_name = "T")]
    pub threads: Option<usize>,

    /// Split the work at D rows (1 to 8) instead of choosing from the thread count.
    #[arg(long, value_name = "D")]
    pub split_depth: Option<u32>,

    /// Also count the unique solutions (classes under rotation and reflection, OEIS
    /// A002562): a single size prints the total and the unique count on one line.
    #[arg(long)]
    pub unique: bool,

    /// The engine: `full` searches about one board per class of eight equivalent boards,
    /// `mirror` halves the first row only (the textbook method, kept as an independent check).
    #[arg(long, value_enum, default_value_t = SymmetryArg::Full, value_name = "ENGINE")]
    pub symmetry: SymmetryArg,

    /// Print one JSON object per board size (JSON Lines).
    #[arg(long)]
    pub json: bool,

    /// Show a progress bar on stderr: `auto` does when stderr is a terminal and the run
    /// takes more than half a second.
    #[arg(long, value_enum, default_value_t = ProgressArg::Auto, value_name = "WHEN")]
    pub progress: ProgressArg,

    /// Print nothing but the result (no progress bar).
    #[arg(short, long)]
    pub quiet: bool,
}

/// `--progress`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProgressArg {
    /// When stderr is a terminal and the run is long enough to matter.
    Auto,
    /// Always, even when stderr is not a terminal.
    Always,
    /// Never.
    Never,
}

/// `--symmetry`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SymmetryArg {
    /// All eight symmetries of the square.
    Full,
    /// The mirror image of the first row only.
    Mirror,
}
