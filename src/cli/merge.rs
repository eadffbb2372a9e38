//! `nqueens merge`: adds up the results of sharded counts.

use super::config::{MergeConfig, OutputStyle};
use super::exit::ExitCode;
use super::report::{Reporter, Row};
use super::stderr::say;
use anyhow::{Context, Result};
use nqueens::shard::{self, ShardResult};

/// Runs a validated `merge` command.
pub fn run(config: &MergeConfig) -> Result<ExitCode> {
    let mut results = Vec::new();
    for path in &config.files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
        // A byte-order mark an editor put before the JSON is skipped, as `verify` skips it.
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let result: ShardResult =
            serde_json::from_str(text).with_context(|| format!("{name} is not a shard result"))?;
        results.push((name, result));
    }
    let merged = shard::merge(&results)?;
    let row = Row::of_merge(merged.n, merged.solutions, merged.engine, merged.shards);
    let style = if config.json {
        OutputStyle::Json
    } else {
        OutputStyle::Plain
    };
    Reporter::new(style, false).row(&mut super::output::stdout(), &row)?;
    if let Some(message) = row.mismatch() {
        say!("error: the shards disagree with the published count: {message}");
        return Ok(ExitCode::Failure);
    }
    Ok(ExitCode::Success)
}
