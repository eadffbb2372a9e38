//! `nqueens solve` and `nqueens find`: solutions written to standard output or a file.

use super::config::{FindConfig, SolveConfig};
use super::exit::ExitCode;
use super::output::Output;
use anyhow::{Result, bail};
use nqueens::format::write_one;
use nqueens::stream::{self, StreamOptions};

/// Streams every solution (or the first `--limit`).
pub fn solve(config: &SolveConfig) -> Result<ExitCode> {
    let mut output = Output::open(config.output.as_deref())?;
    let options = StreamOptions {
        threads: config.threads,
        limit: config.limit,
        order: config.order,
    };
    let summary = stream::solve(config.n, config.format, &options, output.writer())?;
    if summary.output_closed {
        // The reader has what it wanted (`| head`): not an error, and nothing to flush.
        return Ok(ExitCode::Success);
    }
    output.finish()?;
    Ok(ExitCode::Success)
}

/// Writes one constructed solution, row by row as the construction gives them: memory stays
/// bounded whatever N is, and a reader that closes the pipe ends the run at once.
pub fn find(config: &FindConfig) -> Result<ExitCode> {
    let Some(columns) = nqueens::construct::columns(config.n) else {
        bail!("no solution exists for n = {}", config.n);
    };
    let mut output = Output::open(config.output.as_deref())?;
    match write_one(config.format, columns.len(), columns, output.writer()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::Success),
        other => other?,
    }
    output.finish()?;
    Ok(ExitCode::Success)
}
