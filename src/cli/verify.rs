//! `nqueens verify`: reads placements in any format and says which are not solutions, and
//! (with `--complete N`) whether they are exactly the solutions of N.

use super::config::VerifyConfig;
use super::exit::ExitCode;
use anyhow::{Context, Result};
use nqueens::parse::{self, Item};
use nqueens::{check_columns, known};
use std::io::{Read, Write};

/// Runs a validated `verify` command.
pub fn run(config: &VerifyConfig) -> Result<ExitCode> {
    let text = match &config.input {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?,
        None => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("cannot read standard input")?;
            text
        }
    };
    let format = config.format.unwrap_or_else(|| parse::detect(&text));
    let items = match parse::parse(&text, format) {
        Ok(items) => items,
        Err(e) => {
            eprintln!("error: {} input, {e}", format.name());
            return Ok(ExitCode::Usage);
        }
    };
    let mut out = std::io::stdout().lock();
    let expected_n = config
        .complete
        .map(|n| n as usize)
        .or_else(|| first_size(&items));
    let mut invalid = 0u64;
    let mut packed: Vec<u128> = Vec::new();
    for item in &items {
        let verdict = match &item.columns {
            Err(reason) => Err(reason.clone()),
            Ok(columns) => match expected_n {
                Some(n) if columns.len() != n => Err(format!(
                    "{} queens, but the boards have {n} rows",
                    columns.len()
                )),
                _ => check_columns(columns).map_err(|c| c.to_string()),
            },
        };
        match verdict {
            Err(reason) => {
                invalid += 1;
                writeln!(out, "{}: {reason}", item.place)?;
            }
            Ok(()) if config.complete.is_some() => {
                let columns = item.columns.as_ref().expect("valid items have columns");
                packed.push(
                    columns
                        .iter()
                        .fold(0u128, |acc, &c| acc << 5 | u128::from(c)),
                );
            }
            Ok(()) => {}
        }
    }
    let size = expected_n.map_or_else(String::new, |n| format!(" of n = {n}"));
    writeln!(
        out,
        "{} placements{size} ({} format): {} valid, {invalid} invalid",
        items.len(),
        format.name(),
        items.len() as u64 - invalid
    )?;
    let mut code = if invalid == 0 {
        ExitCode::Success
    } else {
        ExitCode::Failure
    };
    if let Some(n) = config.complete {
        packed.sort_unstable();
        let distinct = {
            let mut d = packed.clone();
            d.dedup();
            d.len() as u128
        };
        let duplicates = packed.len() as u128 - distinct;
        let total = known::total(n).expect("--complete sizes are in the known table");
        let missing = total.saturating_sub(distinct);
        if duplicates == 0 && missing == 0 && invalid == 0 {
            writeln!(out, "complete: all {total} solutions of n = {n}, each once")?;
        } else {
            writeln!(
                out,
                "incomplete: {distinct} of the {total} solutions of n = {n}, {missing} missing, {duplicates} duplicated, {invalid} invalid"
            )?;
            code = ExitCode::Failure;
        }
    }
    Ok(code)
}

/// The board size of the first readable placement.
fn first_size(items: &[Item]) -> Option<usize> {
    items
        .iter()
        .find_map(|i| i.columns.as_ref().ok().map(Vec::len))
}
