//! `nqueens verify`: reads placements in any format and says which are not solutions, and
//! (with `--complete N`) whether they are exactly the solutions of N.
//!
//! The input is read as a stream, one placement at a time, in bounded memory whatever it is
//! (a `perm` or `json` line number by number, checked as it comes, in memory that grows with
//! its board's n alone; the other formats refuse a line longer than any placement they hold),
//! so that an endless or binary input ends with an error instead of filling the memory; only
//! `--complete` keeps something per placement (16 bytes). Empty input is said on stderr. Input that cannot be read (missing, a directory,
//! binary, not in the format) exits with 2; a failed write to standard output is an error
//! whose cause stays an `io::Error`, so that a closed pipe is told apart at the top.

use super::config::VerifyConfig;
use super::exit::ExitCode;
use super::stderr::say;
use anyhow::Result;
use nqueens::Placement;
use nqueens::known;
use nqueens::parse::{Reader, plural};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

/// Input and output buffer size.
const BUFFER: usize = 1 << 16;

/// Says on stderr why the input cannot be read; the exit code of that.
fn unreadable(message: std::fmt::Arguments) -> ExitCode {
    say!("error: {message}");
    ExitCode::Usage
}

/// Runs a validated `verify` command.
pub fn run(config: &VerifyConfig) -> Result<ExitCode> {
    let input = match open_input(config.input.as_deref()) {
        Ok(input) => input,
        Err(code) => return Ok(code),
    };
    let reader = match Reader::new(input, config.format) {
        Ok(reader) => reader,
        // Said of the whole input: its first line is no more wrong than the rest.
        Err(e) if e.is_binary() => return Ok(unreadable(format_args!("input: {}", e.message))),
        Err(e) => return Ok(unreadable(format_args!("input, {e}"))),
    };
    let format = reader.format();
    let mut out = BufWriter::with_capacity(BUFFER, super::output::stdout());
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
        let verdict = match &item.columns {
            Err(reason) => Err(reason.clone()),
            Ok(placement) => check_on_board(placement, &mut expected_n),
        };
        match (verdict, &item.columns) {
            (Err(reason), _) => {
                invalid += 1;
                writeln!(out, "{}: {reason}", item.place)?;
            }
            (Ok(()), Ok(placement)) if config.complete.is_some() => {
                packed.push(pack(placement));
            }
            (Ok(()), _) => {}
        }
    }
    if placements == 0 {
        // Said, so that an empty file or a pipe that gave nothing is not taken for a check.
        say!("note: the input holds no placement: nothing was read to check");
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
    if let Some(n) = config.complete
        && !say_complete(&mut out, n, packed, invalid)?
    {
        code = ExitCode::Failure;
    }
    out.flush()?;
    Ok(code)
}

/// The input to read, buffered: the file at `path`, or standard input when there is none. A
/// file that cannot be opened, or a directory, is said on stderr: the exit code of that.
fn open_input(path: Option<&Path>) -> Result<Box<dyn BufRead>, ExitCode> {
    let Some(path) = path else {
        return Ok(Box::new(BufReader::with_capacity(
            BUFFER,
            std::io::stdin().lock(),
        )));
    };
    let file = File::open(path)
        .map_err(|e| unreadable(format_args!("cannot read {}: {e}", path.display())))?;
    // A directory opens, and fails only at the first read: say so plainly.
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(unreadable(format_args!(
            "cannot read {}: it is a directory",
            path.display()
        )));
    }
    Ok(Box::new(BufReader::with_capacity(BUFFER, file)))
}

/// Whether `placement` is a solution of the input's board: why not, if it is not. The board
/// size is `expected_n`, set by the first readable placement unless `--complete` gave it.
fn check_on_board(placement: &Placement, expected_n: &mut Option<usize>) -> Result<(), String> {
    let n = *expected_n.get_or_insert(placement.rows());
    if placement.rows() != n {
        Err(format!(
            "{}, but the boards have {}",
            plural(placement.rows() as u128, "queen"),
            plural(n as u128, "row")
        ))
    } else {
        placement.check().map_err(|c| c.to_string())
    }
}

/// A valid placement's columns packed 5 bits each into one number, for `--complete` (its
/// boards are small: their columns are kept).
fn pack(placement: &Placement) -> u128 {
    let columns = placement.columns().unwrap_or_default();
    columns
        .iter()
        .fold(0u128, |acc, &c| acc << 5 | u128::from(c))
}

/// Says whether the `packed` valid placements are all the solutions of `n`, each once, with
/// no invalid one beside them: true if they are.
fn say_complete(
    out: &mut impl Write,
    n: u32,
    mut packed: Vec<u128>,
    invalid: u64,
) -> std::io::Result<bool> {
    packed.sort_unstable();
    let all = packed.len() as u128;
    packed.dedup();
    let distinct = packed.len() as u128;
    let duplicates = all - distinct;
    let total = known::total(n).expect("--complete sizes are in the known table");
    let missing = total.saturating_sub(distinct);
    if duplicates == 0 && missing == 0 && invalid == 0 {
        match total {
            // n = 2 and 3: the empty set is the whole set.
            0 => writeln!(out, "complete: n = {n} has no solution, and none was given")?,
            1 => writeln!(out, "complete: the one solution of n = {n}, once")?,
            _ => writeln!(out, "complete: all {total} solutions of n = {n}, each once")?,
        }
        Ok(true)
    } else {
        writeln!(
            out,
            "incomplete: {distinct} of the {} of n = {n}, {missing} missing, {duplicates} duplicated, {invalid} invalid",
            plural(total, "solution")
        )?;
        Ok(false)
    }
}
