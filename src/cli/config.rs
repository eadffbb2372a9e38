//! Turning clap's parsed arguments into a plain, validated configuration that holds no clap
//! types. Each value is checked by its parser ([`super::values`]); what is checked here is
//! what ties several flags together, or a value to the file system. Each failure is a
//! one-line message (exit code 2).

use super::args::{
    AuditArgs, Cli, Command, CountArgs, EngineArg, FindArgs, FormatArg, MergeArgs, ProgressArg,
    SelftestArgs, SolveArgs, SymmetryArg, VerifyArgs,
};
use super::progress::ProgressMode;
use super::values::MemorySize;
use nqueens::format::Format;
use nqueens::stream::Order;
use nqueens::{Engine, Symmetry};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// A validated command.
#[derive(Clone, Debug, PartialEq)]
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
    /// `completions`: nothing to check.
    Completions(clap_complete::Shell),
    /// `man`.
    Man,
    /// `serve`.
    Serve(ServeConfig),
    /// `audit`.
    Audit(AuditConfig),
    /// `selftest`.
    Selftest(SelftestConfig),
    /// `bench`.
    Bench(BenchConfig),
}

/// A validated `bench` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchConfig {
    /// The short workload.
    pub quick: bool,
    /// The thread counts of the table; `None` for 1, 2, 4, ... and every logical CPU.
    pub threads: Option<Vec<usize>>,
    /// Rounds a row; `None` for the workload's.
    pub rounds: Option<usize>,
    /// The yardsticks alone.
    pub yardsticks: bool,
    /// JSON output.
    pub json: bool,
    /// A saved result to print beside.
    pub baseline: Option<PathBuf>,
}

/// How much of a run an audit recounts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AuditSample {
    /// A share of the recorded tasks (rounded up: at least one).
    Share(f64),
    /// So many tasks (all of them, if fewer are recorded).
    Tasks(u64),
}

/// A validated `audit` command.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditConfig {
    /// The journals and subtotals files.
    pub files: Vec<PathBuf>,
    /// How many tasks to recount.
    pub sample: AuditSample,
    /// The sample's seed, if given.
    pub seed: Option<u64>,
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
    /// JSON output.
    pub json: bool,
}

/// A validated `selftest` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelftestConfig {
    /// A stress test's length; `None` for the quick check.
    pub duration: Option<std::time::Duration>,
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
}

/// A validated `serve` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeConfig {
    /// Where to listen.
    pub addr: std::net::SocketAddr,
    /// Whether to open the page in a browser.
    pub open: bool,
}

/// A validated `merge` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeConfig {
    /// The shard result files.
    pub files: Vec<PathBuf>,
    /// JSON output.
    pub json: bool,
}

/// Caps the instruction sets every engine may use at `NQUEENS_ISA`'s (`avx512`, `avx2` or
/// `portable`; unset or empty: the best this processor has), so that each build runs on one
/// machine; or says in one line why it cannot (another name, sets the processor lacks).
pub fn cap_instruction_sets() -> Result<(), String> {
    let Some(value) = std::env::var_os("NQUEENS_ISA") else {
        return Ok(());
    };
    let value = value.to_string_lossy();
    if value.is_empty() {
        return Ok(());
    }
    let sets = nqueens::InstructionSets::from_name(&value)
        .ok_or_else(|| format!("NQUEENS_ISA={value}: expected avx512, avx2 or portable"))?;
    nqueens::cap_instruction_sets(sets).map_err(|e| format!("NQUEENS_ISA={value}: {e}"))
}

impl Config {
    /// Checks the parsed command line, or says in one line what is wrong.
    pub fn from_cli(cli: &Cli) -> Result<Config, String> {
        Ok(match &cli.command {
            Command::Count(args) => Config::Count(CountConfig::from_args(args)?),
            Command::Solve(args) => Config::Solve(SolveConfig::from_args(args)?),
            Command::Find(args) => Config::Find(FindConfig::from_args(args)?),
            Command::Verify(args) => Config::Verify(VerifyConfig::from_args(args)?),
            Command::Merge(MergeArgs { files, json }) => {
                for file in files {
                    if !file.exists() {
                        return Err(format!("{}: no such file", file.display()));
                    }
                    must_be_regular(file, "a shard result")?;
                }
                Config::Merge(MergeConfig {
                    files: files.clone(),
                    json: *json,
                })
            }
            Command::GpuInfo if cfg!(feature = "gpu") => Config::GpuInfo,
            Command::GpuInfo => return Err(nqueens::NO_GPU_SUPPORT.into()),
            Command::Completions { shell } => Config::Completions(*shell),
            Command::Man => Config::Man,
            Command::Serve(args) => Config::Serve(ServeConfig {
                addr: args.addr,
                open: args.open,
            }),
            Command::Audit(args) => Config::Audit(AuditConfig::from_args(args)?),
            Command::Bench(args) => Config::Bench(BenchConfig {
                quick: args.quick,
                threads: args.threads.clone().map(|list| list.0),
                rounds: args.rounds,
                yardsticks: args.yardsticks,
                json: args.json,
                baseline: args.baseline.clone(),
            }),
            Command::Selftest(SelftestArgs { duration, threads }) => {
                Config::Selftest(SelftestConfig {
                    duration: *duration,
                    threads: *threads,
                })
            }
        })
    }
}

impl AuditConfig {
    fn from_args(args: &AuditArgs) -> Result<AuditConfig, String> {
        for file in &args.files {
            if !file.exists() {
                return Err(format!("{}: no such file", file.display()));
            }
            must_be_regular(file, "a journal or subtotals file")?;
        }
        let sample = match (args.share, args.tasks) {
            (_, Some(tasks)) => AuditSample::Tasks(tasks),
            (Some(share), None) => AuditSample::Share(share),
            (None, None) => AuditSample::Share(0.01),
        };
        Ok(AuditConfig {
            files: args.files.clone(),
            sample,
            seed: args.seed,
            threads: args.threads,
            json: args.json,
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
        distinct_outputs(&[("--output", args.output.as_deref())], Stdout::Free)?;
        Ok(SolveConfig {
            n: args.size,
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
        // u32::MAX rows would take 40 GB of output in the smallest format: that is the bound
        // of the parser.
        let n = args.size;
        let format = format(args.format);
        if u64::from(n) > format.max_n() {
            return Err(format!(
                "the {} format grows as n²: n = {n} is over its limit of {}; -f perm or -f json \
                 write any n",
                format.name(),
                format.max_n()
            ));
        }
        distinct_outputs(&[("--output", args.output.as_deref())], Stdout::Free)?;
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
        if let Some(n) = args.complete.filter(|&n| n > MAX_COMPLETE_N) {
            return Err(format!(
                "--complete {n}: only boards up to n = {MAX_COMPLETE_N} can be checked for completeness"
            ));
        }
        let complete = args.complete;
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
    /// The most memory the process may take, as given.
    pub max_memory: Option<MemorySize>,
    /// Whether to count unique solutions too.
    pub unique: bool,
    /// How to print.
    pub style: OutputStyle,
    /// When to draw the progress bar.
    pub progress: ProgressMode,
    /// `--quiet`: nothing on stderr but errors (no note either).
    pub quiet: bool,
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
    /// Predict the count's cost from a sample instead of counting.
    pub estimate: bool,
    /// Count every task a second way too, and compare.
    pub double_check: bool,
}

impl CountConfig {
    /// Checks `args` and builds the configuration, or says in one line what is wrong.
    fn from_args(args: &CountArgs) -> Result<CountConfig, String> {
        let sizes = args.size.range.clone();
        refuse_clashing_count_flags(args)?;
        if let Some(path) = &args.checkpoint {
            must_be_regular(path, "a checkpoint journal")?;
        }
        distinct_outputs(
            &[
                ("--checkpoint", args.checkpoint.as_deref()),
                ("--subtotals", args.subtotals.as_deref()),
            ],
            Stdout::Taken,
        )?;
        let engine = count_engine(args)?;
        let style = if args.json {
            OutputStyle::Json
        } else if args.size.is_range {
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
            engine,
            max_memory: args.max_memory.clone(),
            unique: args.unique,
            style,
            progress,
            quiet: args.quiet,
            checkpoint: args.checkpoint.clone(),
            shard: args.shard,
            subtotals: args.subtotals.clone(),
            mpi: args.mpi,
            gpu_adapter: args.gpu_adapter.clone(),
            estimate: args.estimate,
            double_check: args.double_check,
        })
    }
}

/// Refuses the `count` flags this build lacks (`--mpi`) and those that do not go together:
/// the flags of one board size on a range, `--unique` on a shard, and what `--estimate` does
/// not make.
fn refuse_clashing_count_flags(args: &CountArgs) -> Result<(), String> {
    if args.mpi && cfg!(not(feature = "mpi")) {
        return Err(
            "this build has no MPI support: build one with `cargo build --release \
                    --features mpi` (it needs an MPI library and libclang)"
                .into(),
        );
    }
    let single = !args.size.is_range;
    for (flag, given) in [
        ("--checkpoint", args.checkpoint.is_some()),
        ("--shard", args.shard.is_some()),
        ("--subtotals", args.subtotals.is_some()),
        ("--mpi", args.mpi),
    ] {
        if given && !single {
            return Err(format!("{flag} works on one board size, not a range"));
        }
    }
    if args.unique && args.shard.is_some() {
        // The unique count comes from the whole total (Burnside), which no shard has.
        return Err(
            "--unique does not go with --shard: a shard counts part of the total, \
                    and the unique solutions follow from the whole of it; count them with \
                    --unique without --shard"
                .into(),
        );
    }
    for (flag, given) in [
        ("--checkpoint", args.checkpoint.is_some()),
        ("--shard", args.shard.is_some()),
        ("--subtotals", args.subtotals.is_some()),
        ("--mpi", args.mpi),
        ("--unique", args.unique),
        ("--double-check", args.double_check),
    ] {
        if given && args.estimate {
            return Err(format!(
                "--estimate predicts a count without making it: it does not go with {flag}"
            ));
        }
    }
    for (flag, given) in [("--shard", args.shard.is_some()), ("--mpi", args.mpi)] {
        if given && args.double_check {
            // A shard or a distributed run is checked afterwards, a task at a time.
            return Err(format!(
                "--double-check does not go with {flag}: check its tasks afterwards with \
                 `nqueens audit` of its journal or subtotals file"
            ));
        }
    }
    Ok(())
}

/// The engine `--engine` and `--symmetry` ask for, or why not: this build lacks it, the flags
/// clash, or it cannot count one of the sizes (refused before anything is counted, for every
/// size of a range).
fn count_engine(args: &CountArgs) -> Result<Engine, String> {
    if (args.engine == EngineArg::Gpu || args.gpu_adapter.is_some()) && !cfg!(feature = "gpu") {
        return Err(nqueens::NO_GPU_SUPPORT.into());
    }
    // A symmetry is a setting of the search: asking for one asks for the search.
    let symmetry = args.symmetry.map(|s| match s {
        SymmetryArg::Full => Symmetry::Full,
        SymmetryArg::Mirror => Symmetry::Mirror,
    });
    let engine = match (args.engine, symmetry) {
        (EngineArg::Join, Some(_)) => {
            return Err(
                "--symmetry sets the search's symmetry: it does not go with --engine join".into(),
            );
        }
        (EngineArg::Gpu, symmetry) => Engine::Gpu(symmetry),
        (EngineArg::Auto | EngineArg::Search, Some(symmetry)) => Engine::Search(symmetry),
        (EngineArg::Search, None) => Engine::SEARCH,
        (EngineArg::Auto, None) => Engine::Auto,
        (EngineArg::Join, None) => Engine::Join,
    };
    if args.gpu_adapter.is_some() && !matches!(engine, Engine::Gpu(_) | Engine::Auto) {
        return Err("--gpu-adapter goes with --engine gpu, or auto without --symmetry".into());
    }
    // Refused before anything is counted, for every size of a range.
    for n in args.size.range.clone() {
        engine
            .settle(n)
            .map_err(|e| format!("{e}: use --engine search or auto"))?;
    }
    Ok(engine)
}

/// Refuses a path that exists but is not a regular file (after links), for a file that must
/// be read whole: a FIFO would block, a device would be read without end.
fn must_be_regular(path: &Path, what: &str) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(format!(
            "{}: not a regular file ({what} must be one)",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// Whether a command writes to standard output besides the files it names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stdout {
    /// No (`solve -o`, `find -o`): an output named as one of this process's descriptors
    /// (`/dev/stdout`) is written through it, at its offset, and nothing is lost.
    Free,
    /// Yes (`count` prints its result there, and its notes on standard error): no output may
    /// be standard output or standard error by any name, `/dev/stdout` and `/proc/self/fd/1`
    /// included, or the two would be mixed in one file (a journal's header overwritten by the
    /// count, subtotals around it).
    Taken,
}

/// Refuses two outputs that are one file (`--checkpoint F --subtotals F`, a link to the other,
/// dangling or not, or either one also standard output, `> F`): each would overwrite the
/// other, and a journal overwritten at the end loses the run it was to keep.
fn distinct_outputs(outputs: &[(&str, Option<&Path>)], stdout: Stdout) -> Result<(), String> {
    let named: Vec<(&str, &Path)> = outputs
        .iter()
        .filter_map(|&(flag, path)| Some((flag, path?)))
        .collect();
    for (i, &(flag, path)) in named.iter().enumerate() {
        for &(other, other_path) in &named[i + 1..] {
            if same_file(path, other_path) {
                return Err(format!(
                    "{flag} and {other} name the same file ({}): give each its own",
                    path.display()
                ));
            }
        }
        let stream = match stdout {
            Stdout::Free => is_stdout(path).then_some("standard output"),
            Stdout::Taken => standard_stream_by_any_name(path),
        };
        if let Some(stream) = stream {
            return Err(format!(
                "{flag} {} is also {stream}: one would overwrite the other; name another file",
                path.display()
            ));
        }
    }
    Ok(())
}

/// Whether two paths name one file: the same file on disk where both exist, else the same
/// name in the same (link-resolved) directory once each name's chain of links is followed
/// (`ln -s st link` with `st` absent: `link` and `st` are one file once written).
fn same_file(a: &Path, b: &Path) -> bool {
    let written = |path: &Path| resolved(&nqueens::claim::final_path(path).ok()?);
    match (identity(a), identity(b)) {
        (Some(a), Some(b)) => a == b,
        (None, None) => written(a).is_some_and(|a| written(b).is_some_and(|b| a == b)),
        _ => false,
    }
}

/// A path with its directory resolved (links, `..`), for a file that may not exist yet.
fn resolved(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(directory).ok()?.join(name))
}

/// Whether `path` is the regular file standard output writes to, named by its own name (a
/// descriptor, `/dev/stdout`, is written through itself at its offset: nothing is lost).
fn is_stdout(path: &Path) -> bool {
    let stdout = Path::new("/dev/stdout");
    std::fs::metadata(stdout).is_ok_and(|meta| meta.is_file())
        && !super::output::is_own_descriptor(path)
        && identity(path).is_some_and(|file| identity(stdout) == Some(file))
}

/// The standard stream `path` is, by any name (`/dev/stdout`, `/proc/self/fd/2` too), if it
/// is the file or pipe standard output or standard error writes to; a terminal or
/// `/dev/null` is a device that any number of writers share, and is not counted.
fn standard_stream_by_any_name(path: &Path) -> Option<&'static str> {
    [
        ("/dev/stdout", "standard output"),
        ("/dev/stderr", "standard error"),
    ]
    .into_iter()
    .find(|&(stream, _)| {
        let stream = Path::new(stream);
        std::fs::metadata(stream).is_ok_and(|meta| meta.is_file() || is_fifo(&meta))
            && identity(path).is_some_and(|file| identity(stream) == Some(file))
    })
    .map(|(_, name)| name)
}

/// Whether a file is a pipe (a FIFO).
#[cfg(unix)]
fn is_fifo(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::Metadata) -> bool {
    false
}

/// The device and inode of an existing file (after links).
#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    Some(super::output::identity(&std::fs::metadata(path).ok()?))
}

#[cfg(not(unix))]
fn identity(path: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(path).ok()
}
