//! The `nqueens` binary: parse the command line, validate it into a configuration, run it (a
//! subcommand of `cli/`, or the page's server of `serve/`), and turn the outcome into an exit
//! code.

mod cli;
mod serve;

use clap::Parser;
use clap::error::ErrorKind;
use cli::args::Cli;
use cli::config::Config;
use cli::exit::ExitCode;
use cli::stderr::say;
use std::io::Write;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e).into(),
    };
    let config = match Config::from_cli(&cli) {
        Ok(config) => config,
        Err(message) => {
            say!("error: {message}");
            return ExitCode::Usage.into();
        }
    };
    if let Err(message) = cli::config::cap_instruction_sets() {
        say!("error: {message}");
        return ExitCode::Usage.into();
    }
    cli::interrupt::install();
    let outcome = match &config {
        Config::Count(config) => cli::count::run(config),
        Config::Solve(config) => cli::solve::solve(config),
        Config::Find(config) => cli::solve::find(config),
        Config::Verify(config) => cli::verify::run(config),
        Config::Merge(config) => cli::merge::run(config),
        #[cfg(feature = "gpu")]
        Config::GpuInfo => cli::gpu_info::run(),
        // Refused by `Config::from_cli` in builds without the feature.
        #[cfg(not(feature = "gpu"))]
        Config::GpuInfo => Ok(ExitCode::Usage),
        Config::Completions(shell) => cli::completions::completions(*shell),
        Config::Man => cli::completions::man(),
        Config::Serve(config) => serve::run(config),
        Config::Audit(config) => cli::audit::run(config),
        Config::Selftest(config) => cli::selftest::run(config),
        Config::Bench(config) => cli::bench::run::run(config),
    };
    match outcome {
        Ok(code) => code.into(),
        // A reader that stopped reading (`| head`) wants no more: a quiet success, for every
        // subcommand alike.
        Err(e) if is_broken_pipe(&e) => ExitCode::Success.into(),
        Err(e) => {
            // A failed write to standard output is said in the one wording it has, whatever
            // contexts the subcommand gave it.
            match stdout_error(&e) {
                Some(stdout) => say!("error: {stdout}"),
                None => say!("error: {e:#}"),
            }
            if is_unusable_file(&e) {
                // Another run holds the file, or it is no file this command can read: nothing
                // was tried, as with a bad command line.
                ExitCode::Usage.into()
            } else {
                ExitCode::Failure.into()
            }
        }
    }
}

/// Whether an error is a file the command cannot use: one that another run holds locked (a
/// journal, an output file), a checkpoint journal that is not one of this run (damaged, of
/// another run or version), a shard result that cannot be read as one. Exit 2, as for any
/// input a command cannot take; 1 is for results that disagree.
fn is_unusable_file(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<nqueens::Error>(),
            Some(
                nqueens::Error::InUse(_)
                    | nqueens::Error::Checkpoint(_)
                    | nqueens::Error::ShardFile(_)
                    | nqueens::Error::Recorded(_)
            )
        )
    })
}

/// The failed write to standard output an error comes from, if it does.
fn stdout_error(error: &anyhow::Error) -> Option<&cli::output::CannotWriteStdout> {
    error.chain().find_map(|cause| {
        cause
            .downcast_ref::<cli::output::CannotWriteStdout>()
            .or_else(|| {
                let io = cause.downcast_ref::<std::io::Error>()?;
                io.get_ref()?.downcast_ref()
            })
    })
}

/// Whether an error comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Prints clap's verdict: help and version in full, any mistake as its first line only.
fn usage_error(e: clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Standard output is line-buffered: a full disk shows only when it is flushed.
            let printed = e.print().and_then(|()| std::io::stdout().flush());
            match printed {
                Ok(()) => ExitCode::Success,
                // `nqueens --help | head -1`: the reader has what it wanted.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::Success,
                Err(e) => {
                    say!("error: cannot write to standard output: {e}");
                    ExitCode::Failure
                }
            }
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::Usage
        }
        _ => {
            // clap's first paragraph is the message; the rest is usage and tips.
            let text = e.render().to_string();
            let message: Vec<&str> = text
                .lines()
                .take_while(|line| !line.trim().is_empty())
                .map(str::trim)
                .collect();
            say!("{} (see 'nqueens --help')", message.join(" "));
            ExitCode::Usage
        }
    }
}
