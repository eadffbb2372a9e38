//! `nqueens merge`: adds up the results of sharded counts.

use super::config::{MergeConfig, OutputStyle};
use super::document;
use super::exit::ExitCode;
use super::report::{Reporter, Row};
use super::stderr::say;
use anyhow::Result;
use nqueens::shard::{self, ShardResult};

/// Runs a validated `merge` command: exit 2 for a file that cannot be read as a shard result
/// of this version (as for any input a command cannot take), 1 for a set that does not add up
/// or a count no board has (another than the published one, or not a multiple of 4).
pub fn run(config: &MergeConfig) -> Result<ExitCode> {
    let mut results = Vec::new();
    for path in &config.files {
        let result = read(path).map_err(nqueens::Error::ShardFile)?;
        results.push((path.display().to_string(), result));
    }
    // A file that is not a shard result of this version is the file's fault (exit 2, as
    // `main` maps `Error::ShardFile`); a set that does not add up is the run's (exit 1).
    let merged = shard::merge(&results)?;
    let row = Row::of_merge(merged.n, merged.solutions, merged.engine, merged.shards);
    let style = if config.json {
        OutputStyle::Json
    } else {
        OutputStyle::Plain
    };
    Reporter::new(style, false).row(&mut super::output::stdout(), &row)?;
    if let Some(message) = row.mismatch() {
        say!("error: the shards add up to a wrong count: {message}");
        return Ok(ExitCode::Failure);
    }
    Ok(ExitCode::Success)
}

/// One shard result file: a regular file of bounded size, JSON of the shard result's shape.
fn read(path: &std::path::Path) -> Result<ShardResult, String> {
    let text = document::read(path, "a shard result", document::MAX_SHARD_BYTES)?;
    serde_json::from_str(&text).map_err(|e| {
        let why = if e.is_eof() {
            "cut short"
        } else if e.is_syntax() {
            "not JSON"
        } else {
            "not of a shard result's shape"
        };
        format!("{}: not a shard result ({why})", path.display())
    })
}
