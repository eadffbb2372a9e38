//! Turning clap's parsed arguments into a plain, validated configuration. Every check of the
//! user's input lives here, and each failure is a one-line message.

use super::args::{CountArgs, ProgressArg, SymmetryArg};
use nqueens::Symmetry;
use nqueens::split::MAX_DEPTH;
use std::ops::RangeInclusive;

/// When to draw the progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// When stderr is a terminal and the run is long enough to matter.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// How the result is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputStyle {
    /// The count alone (one board size).
    Plain,
    /// A table with one row per board size (a range).
    Table,
    /// JSON Lines, one object per board size.
    Json,
}

/// A validated `count` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountConfig {
    /// The board sizes to count, in order.
    pub sizes: RangeInclusive<u32>,
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
    /// A forced split depth.
    pub split_depth: Option<u32>,
    /// The engine.
    pub symmetry: Symmetry,
    /// Whether to count unique solutions too.
    pub unique: bool,
    /// How to print.
    pub style: OutputStyle,
    /// When to draw the progress bar.
    pub progress: ProgressMode,
}

impl CountConfig {
    /// Checks `args` and builds the configuration, or says in one line what is wrong.
    pub fn from_args(args: &CountArgs) -> Result<CountConfig, String> {
        let (sizes, is_range) = parse_sizes(&args.size)?;
        if args.threads == Some(0) {
            return Err("--threads must be at least 1".into());
        }
        if let Some(depth) = args.split_depth {
            if !(1..=MAX_DEPTH).contains(&depth) {
                return Err(format!(
                    "--split-depth {depth} is out of range: it must be between 1 and {MAX_DEPTH}"
                ));
            }
        }
        let style = if args.json {
            OutputStyle::Json
        } else if is_range {
            OutputStyle::Table
        } else {
            OutputStyle::Plain
        };
        let progress = match (args.quiet, args.progress) {
            (true, _) | (_, ProgressArg::Never) => ProgressMode::Never,
            (false, ProgressArg::Auto) => ProgressMode::Auto,
            (false, ProgressArg::Always) => ProgressMode::Always,
        };
        Ok(CountConfig {
            sizes,
            threads: args.threads,
            split_depth: args.split_depth,
            symmetry: match args.symmetry {
                SymmetryArg::Full => Symmetry::Full,
                SymmetryArg::Mirror => Symmetry::Mirror,
            },
            unique: args.unique,
            style,
            progress,
        })
    }
}

/// Parses `N` or `A..B` (inclusive); the flag says whether it was a range.
pub fn parse_sizes(text: &str) -> Result<(RangeInclusive<u32>, bool), String> {
    let text = text.trim();
    match text.split_once("..") {
        None => {
            let n = parse_size(text)?;
            Ok((n..=n, false))
        }
        Some((from, to)) => {
            let bad = || format!("invalid range '{text}': expected A..B with 1 <= A <= B <= 32");
            if from.trim().is_empty() || to.trim().is_empty() {
                return Err(bad());
            }
            let (a, b) = (parse_size(from)?, parse_size(to)?);
            if a > b {
                return Err(bad());
            }
            Ok((a..=b, true))
        }
    }
}

fn parse_size(text: &str) -> Result<u32, String> {
    let text = text.trim();
    let n: i64 = text.parse().map_err(|_| {
        format!("invalid board size '{text}': expected a whole number from 1 to 32")
    })?;
    if !(1..=32).contains(&n) {
        return Err(format!(
            "board size {n} is out of range: n must be between 1 and 32"
        ));
    }
    Ok(n as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_ranges() {
        assert_eq!(parse_sizes("16"), Ok((16..=16, false)));
        assert_eq!(parse_sizes("8..12"), Ok((8..=12, true)));
        assert_eq!(parse_sizes("5..5"), Ok((5..=5, true)));
        for bad in [
            "0", "33", "-4", "x", "", "8..", "..8", "12..8", "1..40", "1...3", "8..x",
        ] {
            assert!(parse_sizes(bad).is_err(), "{bad:?} accepted");
        }
    }
}
