//! The command line as clap sees it: every value typed and checked by its parser
//! ([`super::values`]); the rules that tie several flags together are `config`'s.

use super::values::{self, Sizes};
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
    #[command(after_help = "Examples:
  nqueens count 16                          14772512
  nqueens count 8..14                       a table, each count checked against OEIS A000170
  nqueens count 12 --unique --json          one JSON object: total, unique, time, engine
  nqueens count 21 --estimate               what counting n = 21 would take, from a sample
  nqueens count 20 --checkpoint n20.log     killed or interrupted? the same command resumes
  nqueens count 19 --shard 0/4 > s0.json    one shard of four; then: nqueens merge s*.json")]
    Count(CountArgs),
    /// Write every solution of an N x N board (1 to 32), in lexicographic order of the
    /// column lists, the same bytes for any thread count.
    #[command(after_help = "Examples:
  nqueens solve 8 | head -3                 the first three, one line each: 0 4 7 5 2 6 1 3
  nqueens solve 8 -f board --limit 1        the first one drawn in Q and .
  nqueens solve 12 -f json -o twelve.jsonl  to a file, renamed into place when complete
  nqueens solve 10 | nqueens verify --complete 10")]
    Solve(SolveArgs),
    /// Write one solution of an N x N board, for any N >= 1 that has one, by construction
    /// (no search: N = 10,000,000 takes well under a second).
    Find(FindArgs),
    /// Check placements read in any output format (detected, or given with -f): reports
    /// each invalid one with its line and reason. Exit 0: all valid; 1: some invalid; 2:
    /// unreadable input.
    #[command(after_help = "Examples:
  nqueens solve 8 | nqueens verify --complete 8    all 92 solutions of n = 8, each once?
  nqueens verify answers.json -f leetcode          a LeetCode 51 answer from a file
  printf '1 3 0 2\\n1 3 1 2\\n' | nqueens verify    line 2: rows 0 and 2 share a column")]
    Verify(VerifyArgs),
    /// Add up the results of `count --shard I/K` runs; refuses a set with a shard missing,
    /// given twice, of another run, or damaged.
    Merge(MergeArgs),
    /// List the GPU adapters `count --engine gpu` can use (name, backend, device type), best
    /// first (builds with the `gpu` feature).
    GpuInfo,
    /// Print a completion script for a shell: `nqueens completions bash >
    /// ~/.local/share/bash-completion/completions/nqueens`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `nqueens man | man -l -`.
    Man,
    /// Serve a local web page to browse the solutions, play the puzzle with the engine as
    /// oracle, and watch the search (prints the page's address first; Ctrl-C stops it).
    Serve(ServeArgs),
    /// Recount a random sample of the tasks a checkpoint journal or a subtotals file records,
    /// a second way, and name every task whose value differs and the node that counted it.
    /// Exit 0: every value agrees; 1: some differ; 2: a file cannot be read as a journal or
    /// subtotals file of this version.
    #[command(after_help = "Examples:
  nqueens audit q27.journal --share 0.01         1 % of the tasks, the seed printed
  nqueens audit shards/*.tsv --tasks 500 --seed 7
  nqueens audit n20.journal --share 1            every task")]
    Audit(AuditArgs),
    /// Check this machine and build: every engine against the known counts and against each
    /// other, task by task (a minute or less); with --for, over and over on every core, a
    /// line a round, until the time is up or a count is wrong (exit 1).
    #[command(after_help = "Examples:
  nqueens selftest                 a minute or less
  nqueens selftest --for 30m       a stress test of every core, a line a round")]
    Selftest(SelftestArgs),
    /// Benchmark this machine and build in under a minute (15 s on 2 cores): two yardsticks,
    /// the join engine and the search on 1, 2, 4, ... threads (each thread counting its own
    /// board, every count checked), speed-up, efficiency and a score to quote; beside a saved
    /// result with --baseline. Exit 1 if a count is wrong.
    #[command(after_help = "Examples:
  nqueens bench                          15 s on 2 cores; a table and a score
  nqueens bench --quick                  a second on 2 cores
  nqueens bench --json > this.json       one JSON object
  nqueens bench --baseline this.json     every row beside a saved result's, with the ratio")]
    Bench(BenchArgs),
}

/// `nqueens bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The short run: smaller boards and one round, a second on 2 cores (compared only with
    /// --quick results).
    #[arg(long)]
    pub quick: bool,

    /// The thread counts of the table, comma-separated (`1,2,8`) [default: 1, 2, 4, ... and
    /// every logical CPU].
    #[arg(long, value_name = "LIST", allow_hyphen_values = true, value_parser = values::thread_list)]
    pub threads: Option<values::ThreadList>,

    /// Rounds a row, 1 to 100 [default: 3; 1 with --quick].
    #[arg(long, value_name = "R", allow_negative_numbers = true, value_parser = values::rounds)]
    pub rounds: Option<usize>,

    /// Time the two yardsticks alone, once (a few seconds): what scripts divide their own
    /// timings by.
    #[arg(long, conflicts_with_all = ["threads", "rounds", "baseline"])]
    pub yardsticks: bool,

    /// Print one JSON object instead of lines (save it for --baseline).
    #[arg(long)]
    pub json: bool,

    /// A saved `bench --json` result: every row printed beside its row, with the ratio (as
    /// lines: not with --json).
    #[arg(long, value_name = "FILE", conflicts_with = "json")]
    pub baseline: Option<std::path::PathBuf>,
}

/// `nqueens audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// The journals and subtotals files of one run (its shards' together).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<std::path::PathBuf>,

    /// The share of the recorded tasks to recount, above 0 and at most 1 [default: 0.01].
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = values::share, conflicts_with = "tasks")]
    pub share: Option<f64>,

    /// How many of the recorded tasks to recount.
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = values::task_count)]
    pub tasks: Option<u64>,

    /// The seed of the sample (the same sample for the same seed) [default: from the clock,
    /// printed].
    #[arg(long, value_name = "SEED", allow_negative_numbers = true, value_parser = values::seed)]
    pub seed: Option<u64>,

    /// Worker threads, 1 to 1024 [default: one per core].
    #[arg(short = 'j', long, value_name = "T", allow_negative_numbers = true, value_parser = values::threads)]
    pub threads: Option<usize>,

    /// Print one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
}

/// `nqueens selftest`.
#[derive(Debug, Args)]
pub struct SelftestArgs {
    /// Run as a stress test for this long (`90s`, `30m`, `12h`): rounds of counts with known
    /// answers on every core, one timestamped line a round, stopping at the first error.
    #[arg(long = "for", value_name = "DURATION", allow_hyphen_values = true, value_parser = values::duration)]
    pub duration: Option<std::time::Duration>,

    /// Worker threads, 1 to 1024 [default: one per core].
    #[arg(short = 'j', long, value_name = "T", allow_negative_numbers = true, value_parser = values::threads)]
    pub threads: Option<usize>,
}

/// `nqueens serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on (port 0: any free port). Anything but loopback lets other
    /// machines in.
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:0")]
    pub addr: std::net::SocketAddr,

    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
}

/// `nqueens merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard result files.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<std::path::PathBuf>,

    /// Print a JSON object instead of the count alone.
    #[arg(long)]
    pub json: bool,
}

/// `nqueens solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The board size N (1 to 32).
    #[arg(value_name = "N", allow_negative_numbers = true, value_parser = values::board_size)]
    pub size: u32,

    /// The output format.
    #[arg(short, long, value_enum, default_value_t = FormatArg::Perm)]
    pub format: FormatArg,

    /// Stop after K solutions (the first K in lexicographic order).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = values::limit)]
    pub limit: Option<u64>,

    /// Write to FILE (through a temporary file beside it, renamed when complete) instead of
    /// standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,

    /// Worker threads, 1 to 1024 [default: one per core].
    #[arg(short = 'j', long, value_name = "T", allow_negative_numbers = true, value_parser = values::threads)]
    pub threads: Option<usize>,

    /// Search half the board and write each solution beside its mirror image: faster, but
    /// not in lexicographic order (still the same bytes for any thread count).
    #[arg(long)]
    pub unordered: bool,
}

/// `nqueens find`.
#[derive(Debug, Args)]
pub struct FindArgs {
    /// The board size N (1 to 4294967295).
    #[arg(value_name = "N", allow_negative_numbers = true, value_parser = values::any_board_size)]
    pub size: u32,

    /// The output format (board, flat, leetcode and svg grow as N² and stop at N = 2,000,
    /// 2,000, 2,000 and 200).
    #[arg(short, long, value_enum, default_value_t = FormatArg::Perm)]
    pub format: FormatArg,

    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
}

/// `nqueens verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The file to read; `-` or nothing for standard input.
    #[arg(value_name = "FILE")]
    pub input: Option<std::path::PathBuf>,

    /// The input format [default: detected from the input].
    #[arg(short, long, value_enum)]
    pub format: Option<FormatArg>,

    /// Also check that the input is exactly the set of all solutions of N: no duplicate,
    /// none missing (N up to 25; takes 16 bytes of memory per solution).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = values::board_size)]
    pub complete: Option<u32>,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// The column of each row's queen, separated by spaces: `1 3 0 2`.
    Perm,
    /// N lines of `Q` and `.`, a blank line after each solution.
    Board,
    /// N*N digits 0/1, one line per solution.
    Flat,
    /// JSON Lines: `{"n":4,"columns":[1,3,0,2]}`.
    Json,
    /// One JSON array of boards, each a list of row strings, as LeetCode 51 returns them.
    Leetcode,
    /// An SVG picture: checkered board(s), queens drawn.
    Svg,
}

/// `nqueens count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// The board size N (1 to 32), or an inclusive range A..B: `8..12` counts 8, 9, 10, 11
    /// and 12.
    #[arg(value_name = "N|A..B", allow_negative_numbers = true, value_parser = values::sizes)]
    pub size: Sizes,

    /// Worker threads, 1 to 1024 [default: one per core; never more than there are tasks].
    #[arg(short = 'j', long, value_name = "T", allow_negative_numbers = true, value_parser = values::threads)]
    pub threads: Option<usize>,

    /// Split the work at D rows (1 to 8) instead of choosing from the thread count.
    #[arg(long, value_name = "D", allow_negative_numbers = true, value_parser = values::split_depth)]
    pub split_depth: Option<u32>,

    /// Also count the unique solutions (classes under rotation and reflection, OEIS
    /// A002562): a single size prints the total and the unique count on one line.
    #[arg(long)]
    pub unique: bool,

    /// The engine: `join` counts by joining half-boards (n = 4 to 28: its quarter table,
    /// 2.6 GB at n = 24 and 25, is built on demand a row set at a time from 26 on),
    /// `search` by backtracking search
    /// (`dfs` is another name for it); `auto` takes the join engine from n = 14 on (and
    /// within --max-memory), the search below; `gpu` counts on a GPU, the join's tasks from
    /// n = 14 on and the search's below or with --symmetry (builds with the `gpu` feature).
    #[arg(long, value_enum, default_value_t = EngineArg::Auto, value_name = "ENGINE")]
    pub engine: EngineArg,

    /// The symmetry of the search, which this option selects: `full` (the default) searches
    /// about one board per class of eight equivalent boards, `mirror` halves the first row
    /// only (the textbook method, kept as an independent check).
    #[arg(long, value_enum, value_name = "SYMMETRY")]
    pub symmetry: Option<SymmetryArg>,

    /// Keep the process within SIZE of memory (like 512M or 4G; K, M, G, T are powers of
    /// 1024): the join engine then joins in smaller pieces, and under --engine auto the
    /// search counts instead when even those do not fit (it needs next to none).
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true, value_parser = values::memory_size)]
    pub max_memory: Option<values::MemorySize>,

    /// The GPU to count on: the first adapter whose name contains NAME (see `nqueens
    /// gpu-info`). With --engine auto, the GPU is tried and the CPU counts if it fails.
    #[arg(long, value_name = "NAME")]
    pub gpu_adapter: Option<String>,

    /// Print one JSON object per board size (JSON Lines).
    #[arg(long)]
    pub json: bool,

    /// Count every task a second way too and compare: the join engine's through other
    /// buckets, groups and pieces, task by task; the search's with its other symmetry, in
    /// total. Exit 1 on any difference, naming the tasks. Twice the time.
    #[arg(long)]
    pub double_check: bool,

    /// Do not count: predict what the count would cost on this machine, from a timed sample
    /// of its work (whole tasks, or parts of the join engine's tasks), and print the
    /// core-seconds with a 95 % error bar, the time on these threads, the tasks and the
    /// memory a process needs.
    #[arg(long)]
    pub estimate: bool,

    /// Show progress on stderr: `auto` draws a bar when stderr is a terminal and the run
    /// takes more than half a second; `always` draws it on a terminal and otherwise (a batch
    /// job's log) writes a plain line every 10 seconds.
    #[arg(long, value_enum, default_value_t = ProgressArg::Auto, value_name = "WHEN")]
    pub progress: ProgressArg,

    /// Print nothing but the result (no progress bar).
    #[arg(short, long)]
    pub quiet: bool,

    /// Keep a journal of finished tasks in FILE, synced as each finishes: the same command
    /// run again resumes where a killed or interrupted run stopped (one board size only).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,

    /// Run only shard I of K (0 <= I < K; tasks dealt by estimated size) and print its
    /// result as JSON, for `nqueens merge` (one board size only).
    #[arg(long, value_name = "I/K", allow_hyphen_values = true, value_parser = values::shard)]
    pub shard: Option<(usize, usize)>,

    /// Write every task's number and value to FILE (tab-separated), for re-checking any
    /// part of a result elsewhere (one board size only).
    #[arg(long, value_name = "FILE")]
    pub subtotals: Option<std::path::PathBuf>,

    /// Spread the tasks over the ranks of an MPI job (`mpirun -np P nqueens count N --mpi`):
    /// rank 0 deals them out and prints the total; every other rank counts on all its cores
    /// (one board size only).
    #[cfg(feature = "mpi")]
    #[arg(long)]
    pub mpi: bool,

    /// `--mpi` in a build without MPI: accepted by the parser so that the answer can say how
    /// to get a build with it.
    #[cfg(not(feature = "mpi"))]
    #[arg(long, hide = true)]
    pub mpi: bool,
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

/// `--engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// The join engine where it is faster, else the search.
    Auto,
    /// The join of half-boards.
    Join,
    /// The backtracking search.
    #[value(alias = "dfs")]
    Search,
    /// On a GPU: the join's tasks from n = 14, else the search's (the `gpu` feature).
    Gpu,
}

/// `--symmetry`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SymmetryArg {
    /// All eight symmetries of the square.
    Full,
    /// The mirror image of the first row only.
    Mirror,
}
