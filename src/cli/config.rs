//! Turning clap's parsed arguments into a plain, validated configuration. Every check of the
//! user's input lives here, and each failure is a one-line message.

use super::args::{
    Cli, Command, CountArgs, EngineArg, FindArgs, FormatArg, MergeArgs, ProgressArg, SolveArgs,
    SymmetryArg, VerifyArgs,
};
use nqueens::format::Format;
use nqueens::split::MAX_DEPTH;
use nqueens::stream::Order;
use nqueens::{Engine, Symmetry};
use std::ops::RangeInclusive;
use std::path::PathBuf;

/// A validated command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Config {
    /// `count`.
    Count(CountConfig),
    /// `solve`.
    Solve(SolveConfig),
    /// `find`.
    Find(FindConfig),
    /// `verify`.
    Verify(VerifyConfig),
    /// `merge`.
    Merge(MergeConfig),
    /// `gpu-info`.
    GpuInfo,
}

/// A validated `merge` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeConfig {
    /// The shard result files.
    pub files: Vec<PathBuf>,
    /// JSON output.
    pub json: bool,
}

impl Config {
    /// Checks the parsed command line, or says in one line what is wrong.
    pub fn from_cli(cli: &Cli) -> Result<Config, String> {
        Ok(match &cli.command {
            Command::Count(args) => Config::Count(CountConfig::from_args(args)?),
            Command::Solve(args) => Config::Solve(SolveConfig::from_args(args)?),
            Command::Find(args) => Config::Find(FindConfig::from_args(args)?),
            Command::Verify(args) => Config::Verify(VerifyConfig::from_args(args)?),
            Command::Merge(MergeArgs { files, json }) => Config::Merge(MergeConfig {
                files: files.clone(),
                json: *json,
            }),
            Command::GpuInfo if cfg!(feature = "gpu") => Config::GpuInfo,
            Command::GpuInfo => return Err(nqueens::NO_GPU_SUPPORT.into()),
        })
    }
}

/// A validated `solve` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveConfig {
    /// The board size.
    pub n: u32,
    /// The output format.
    pub format: Format,
    /// Stop after this many solutions.
    pub limit: Option<u64>,
    /// Where to write; `None` for standard output.
    pub output: Option<PathBuf>,
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
    /// The order of the stream.
    pub order: Order,
}

impl SolveConfig {
    fn from_args(args: &SolveArgs) -> Result<SolveConfig, String> {
        if args.threads == Some(0) {
            return Err("--threads must be at least 1".into());
        }
        Ok(SolveConfig {
            n: parse_size(&args.size)?,
            format: format(args.format),
            limit: args.limit,
            output: args.output.clone(),
            threads: args.threads,
            order: if args.unordered {
                Order::Unordered
            } else {
                Order::Lexicographic
            },
        })
    }
}

/// A validated `find` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FindConfig {
    /// The board size.
    pub n: u32,
    /// The output format.
    pub format: Format,
    /// Where to write; `None` for standard output.
    pub output: Option<PathBuf>,
}

impl FindConfig {
    fn from_args(args: &FindArgs) -> Result<FindConfig, String> {
        let text = args.size.trim();
        let n: i64 = text
            .parse()
            .map_err(|_| format!("invalid board size '{text}': expected a whole number from 1"))?;
        // u32::MAX rows would take 40 GB of output in the smallest format: that is the bound.
        let n = u32::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| {
            format!(
                "board size {n} is out of range: n must be between 1 and {}",
                u32::MAX
            )
        })?;
        let format = format(args.format);
        if u64::from(n) > format.max_n() {
            return Err(format!(
                "the {} format grows as n²: n = {n} is over its limit of {}",
                format.name(),
                format.max_n()
            ));
        }
        Ok(FindConfig {
            n,
            format,
            output: args.output.clone(),
        })
    }
}

/// A validated `verify` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyConfig {
    /// The file to read; `None` for standard input.
    pub input: Option<PathBuf>,
    /// The format, when not detected.
    pub format: Option<Format>,
    /// Check that the input is the complete set of solutions of this n.
    pub complete: Option<u32>,
}

/// The largest n whose solutions `verify --complete` packs into 128 bits (5 bits a column).
pub const MAX_COMPLETE_N: u32 = 25;

impl VerifyConfig {
    fn from_args(args: &VerifyArgs) -> Result<VerifyConfig, String> {
        let complete = match &args.complete {
            None => None,
            Some(text) => {
                let n = parse_size(text)?;
                if n > MAX_COMPLETE_N {
                    return Err(format!(
                        "--complete {n}: only boards up to n = {MAX_COMPLETE_N} can be checked for completeness"
                    ));
                }
                Some(n)
            }
        };
        let input = args.input.clone().filter(|p| p.as_os_str() != "-");
        Ok(VerifyConfig {
            input,
            format: args.format.map(format),
            complete,
        })
    }
}

fn format(arg: FormatArg) -> Format {
    match arg {
        FormatArg::Perm => Format::Perm,
        FormatArg::Board => Format::Board,
        FormatArg::Flat => Format::Flat,
        FormatArg::Json => Format::Json,
        FormatArg::Leetcode => Format::Leetcode,
        FormatArg::Svg => Format::Svg,
    }
}

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
    pub engine: Engine,
    /// The symmetry of the search.
    pub symmetry: Symmetry,
    /// The most memory the process may take, in bytes.
    pub max_memory: Option<u64>,
    /// Whether to count unique solutions too.
    pub unique: bool,
    /// How to print.
    pub style: OutputStyle,
    /// When to draw the progress bar.
    pub progress: ProgressMode,
    /// The journal of a resumable run.
    pub checkpoint: Option<PathBuf>,
    /// Run only shard `.0` of `.1`.
    pub shard: Option<(usize, usize)>,
    /// Where to write every task's value.
    pub subtotals: Option<PathBuf>,
    /// Spread the tasks over MPI ranks (only in builds with the `mpi` feature).
    pub mpi: bool,
    /// The GPU adapter asked for.
    pub gpu_adapter: Option<String>,
}

impl CountConfig {
    /// Checks `args` and builds the configuration, or says in one line what is wrong.
    fn from_args(args: &CountArgs) -> Result<CountConfig, String> {
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
        let single = sizes.start() == sizes.end();
        for (flag, given) in [
            ("--checkpoint", args.checkpoint.is_some()),
            ("--shard", args.shard.is_some()),
            ("--subtotals", args.subtotals.is_some()),
            ("--mpi", mpi_flag(args)),
        ] {
            if given && !single {
                return Err(format!("{flag} works on one board size, not a range"));
            }
        }
        if args.engine == EngineArg::Join {
            let outside = sizes.clone().find(|&n| !nqueens::join::supports(n));
            if let Some(n) = outside {
                return Err(format!(
                    "the join engine counts boards of {} to {} (n = {n}): use --engine dfs or auto",
                    nqueens::join::MIN_N,
                    nqueens::join::MAX_N
                ));
            }
        }
        let gpu = args.engine == EngineArg::Gpu || args.gpu_adapter.is_some();
        if gpu && !cfg!(feature = "gpu") {
            return Err(nqueens::NO_GPU_SUPPORT.into());
        }
        if args.gpu_adapter.is_some() && matches!(args.engine, EngineArg::Dfs | EngineArg::Join) {
            return Err("--gpu-adapter goes with --engine gpu or auto".into());
        }
        let shard = args.shard.as_deref().map(parse_shard).transpose()?;
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
            // A symmetry is a setting of the search: asking for one asks for the search.
            engine: match (args.engine, args.symmetry) {
                (EngineArg::Join, Some(_)) => {
                    return Err(
                        "--symmetry sets the search's symmetry: it does not go with \
                                --engine join"
                            .into(),
                    );
                }
                // Under `auto`, a GPU asked for runs the search with the symmetry asked for.
                (EngineArg::Auto, _) if args.gpu_adapter.is_some() => Engine::Auto,
                (EngineArg::Gpu, _) => Engine::Gpu,
                (EngineArg::Auto, Some(_)) | (EngineArg::Dfs, _) => Engine::Dfs,
                (EngineArg::Auto, None) => Engine::Auto,
                (EngineArg::Join, None) => Engine::Join,
            },
            symmetry: match args.symmetry {
                Some(SymmetryArg::Full) | None => Symmetry::Full,
                Some(SymmetryArg::Mirror) => Symmetry::Mirror,
            },
            max_memory: args.max_memory.as_deref().map(parse_bytes).transpose()?,
            unique: args.unique,
            style,
            progress,
            checkpoint: args.checkpoint.clone(),
            shard,
            subtotals: args.subtotals.clone(),
            mpi: mpi_flag(args),
            gpu_adapter: args.gpu_adapter.clone(),
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

#[cfg(feature = "mpi")]
fn mpi_flag(args: &CountArgs) -> bool {
    args.mpi
}

#[cfg(not(feature = "mpi"))]
fn mpi_flag(_: &CountArgs) -> bool {
    false
}

/// Parses a memory size: a number of bytes, or one with a suffix K, M, G or T (powers of 1024,
/// with an optional `B` or `iB` after it), like `512M` or `1.5GiB`.
fn parse_bytes(text: &str) -> Result<u64, String> {
    let bad = || format!("invalid memory size '{text}': expected a size like 512M or 4G");
    let trimmed = text.trim();
    let lower = trimmed.to_ascii_lowercase();
    let number = lower.trim_end_matches("ib").trim_end_matches('b');
    let (digits, power) = match number.chars().last() {
        Some('k') => (&number[..number.len() - 1], 1),
        Some('m') => (&number[..number.len() - 1], 2),
        Some('g') => (&number[..number.len() - 1], 3),
        Some('t') => (&number[..number.len() - 1], 4),
        _ => (number, 0),
    };
    let value: f64 = digits.trim().parse().map_err(|_| bad())?;
    let bytes = value * 1024f64.powi(power);
    if !bytes.is_finite() || bytes < 1.0 || bytes >= u64::MAX as f64 {
        return Err(bad());
    }
    Ok(bytes as u64)
}

/// Parses `I/K` with 0 <= I < K.
fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("invalid shard '{text}': expected I/K with 0 <= I < K, like 0/4");
    let (i, k) = text.split_once('/').ok_or_else(bad)?;
    let (i, k): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        k.trim().parse().map_err(|_| bad())?,
    );
    if i >= k {
        return Err(bad());
    }
    Ok((i, k))
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
    fn shards() {
        assert_eq!(parse_shard("0/4"), Ok((0, 4)));
        assert_eq!(parse_shard("3/4"), Ok((3, 4)));
        for bad in ["4/4", "1", "a/b", "-1/3", "1/0", ""] {
            assert!(parse_shard(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn memory_sizes() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("2g"), Ok(2 << 30));
        assert_eq!(parse_bytes("1.5G"), Ok(3 << 29));
        assert_eq!(parse_bytes("64kB"), Ok(64 << 10));
        for bad in ["", "M", "-1G", "0", "1X", "abc", "1e30T", "nan"] {
            assert!(parse_bytes(bad).is_err(), "{bad:?} accepted");
        }
    }

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
