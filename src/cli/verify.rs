//! `nqueens verify`: reads placements in any format and says which are not solutions, and
//! (with `--complete N`) whether they are exactly the solutions of N.
//!
//! The input is read as a stream, one placement at a time, in bounded memory whatever it is
//! (the reader refuses a line longer than any placement it accepts), so that an endless or
//! binary input ends with an error instead of filling the memory; only `--complete` keeps
//! something per placement (16 bytes). Input that cannot be read (missing, a directory,
//! binary, not in the format) exits with 2; a failed write to standard output is an error
//! whose cause stays an `io::Error`, so that a closed pipe is told apart at the top.

use super::config::VerifyConfig;
use super::exit::ExitCode;
use anyhow::Result;
use nqueens::parse::{Reader, plural};
use nqueens::{check_columns, known};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};

/// Input and output buffer size.
const BUFFER: usize = 1 << 16;

/// Says on stderr why the input cannot be read; the exit code of that.
fn unreadable(message: std::fmt::Arguments) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::Usage
}

/// Runs a validated `verify` command.
pub fn run(config: &VerifyConfig) -> Result<ExitCode> {
    let input: Box<dyn BufRead> = match &config.input {
        Some(path) => {
            let file = match File::open(path) {
                Ok(file) => file,
                Err(e) => {
                    return Ok(unreadable(format_args!(
                        "cannot read {}: {e}",
                        path.display()
                    )));
                }
            };
            // A directory opens, and fails only at the first read: say so plainly.
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Ok(unreadable(format_args!(
                    "cannot read {}: it is a directory",
                    path.display()
                )));
            }
            Box::new(BufReader::with_capacity(BUFFER, file))
        }
        None => Box::new(BufReader::with_capacity(BUFFER, std::io::stdin().lock())),
    };
    let reader = match Reader::new(input, config.format) {
        Ok(reader) => reader,
        Err(e) => return Ok(unreadable(format_args!("input, {e}"))),
    };
    let format = reader.format();
    let mut out = BufWriter::with_capacity(BUFFER, std::io::stdout().lock());
    let mut expected_n = config.complete.map(|n| n as usize);
    let (mut placements, mut invalid) = (0u64, 0u64);
    let mut packed: Vec<u128> = Vec::new();
    for item in reader {
        let item = match item {
            Ok(item) => item,
            Err(e) => {
                out.flush()?;
                return Ok(unreadable(format_args!("{} input, {e}", format.name())));
            }
        };
        placements += 1;
        // The board size is the first readable placement's, unless --complete gives it.
        if let (None, Ok(columns)) = (expected_n, &item.columns) {
            expected_n = Some(columns.len());
        }
        let verdict = match &item.columns {
            Err(reason) => Err(reason.clone()),
            Ok(columns) => match expected_n {
                Some(n) if columns.len() != n => Err(format!(
                    "{}, but the boards have {}",
                    plural(columns.len() as u128, "queen"),
                    plural(n as u128, "row")
                )),
                _ => check_columns(columns).map_err(|c| c.to_string()),
            },
        };
        match (verdict, &item.columns) {
            (Err(reason), _) => {
                invalid += 1;
                writeln!(out, "{}: {reason}", item.place)?;
            }
            (Ok(()), Ok(columns)) if config.complete.is_some() => {
                packed.push(
                    columns
                        .iter()
                        .fold(0u128, |acc, &c| acc << 5 | u128::from(c)),
                );
            }
            (Ok(()), _) => {}
        }
    }
    let size = expected_n.map_or_else(String::new, |n| format!(" of n = {n}"));
    writeln!(
        out,
        "{}{size} ({} format): {} valid, {invalid} invalid",
        plural(placements, "placement"),
        format.name(),
        placements - invalid
    )?;
    let mut code = if invalid == 0 {
        ExitCode::Success
    } else {
        ExitCode::Failure
    };
    if let Some(n) = config.complete {
        packed.sort_unstable();
        let all = packed.len() as u128;
        packed.dedup();
        let distinct = packed.len() as u128;
        let duplicates = all - distinct;
        let total = known::total(n).expect("--complete sizes are in the known table");
        let missing = total.saturating_sub(distinct);
        if duplicates == 0 && missing == 0 && invalid == 0 {
            match total {
                1 => writeln!(out, "complete: the one solution of n = {n}, once")?,
                _ => writeln!(out, "complete: all {total} solutions of n = {n}, each once")?,
            }
        } else {
            writeln!(
                out,
                "incomplete: {distinct} of the {} of n = {n}, {missing} missing, {duplicates} duplicated, {invalid} invalid",
                plural(total, "solution")
            )?;
            code = ExitCode::Failure;
        }
    }
    out.flush()?;
    Ok(code)
}
