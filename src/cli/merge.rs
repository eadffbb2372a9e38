//! `nqueens merge`: adds up the results of sharded counts.

use super::config::MergeConfig;
use super::exit::ExitCode;
use anyhow::{Context, Result};
use nqueens::known;
use nqueens::shard::{self, ShardResult};

/// Runs a validated `merge` command.
pub fn run(config: &MergeConfig) -> Result<ExitCode> {
    let mut results = Vec::new();
    for path in &config.files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
        let result: ShardResult =
            serde_json::from_str(&text).with_context(|| format!("{name} is not a shard result"))?;
        results.push((name, result));
    }
    let merged = shard::merge(&results)?;
    let known = known::total(merged.n);
    let matches = known.map(|k| k == merged.solutions);
    if config.json {
        let mut object = serde_json::json!({
            "n": merged.n,
            "solutions": merged.solutions,
            "engine": if merged.engine == "join" { "join" } else { "dfs" },
            "shards": merged.shards,
            "known": known,
            "match": matches,
        });
        // As `count --json` has it: the search's symmetry, and none for the join engine.
        if merged.engine != "join" {
            object["symmetry"] = merged.engine.clone().into();
        }
        println!("{object}");
    } else {
        println!("{}", merged.solutions);
    }
    if matches == Some(false) {
        eprintln!(
            "error: n = {}: the shards add up to {} solutions, but OEIS A000170 gives {}",
            merged.n,
            merged.solutions,
            known.unwrap_or_default()
        );
        return Ok(ExitCode::Failure);
    }
    Ok(ExitCode::Success)
}
