//! The typed values of the command line: clap's value parsers for board sizes, ranges, thread
//! counts, split depths, shards and memory sizes. Each checks one value and says in one line
//! what is wrong with it; rules that tie several flags together are `config`'s.

use std::ops::RangeInclusive;

/// One or more board sizes: `N`, or an inclusive range `A..B`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// The sizes, in order.
    pub range: RangeInclusive<u32>,
    /// Whether they were given as a range (a range prints a table).
    pub is_range: bool,
}

/// A whole number from `min` to `max`, or one message that says which numbers are allowed,
/// whatever the size of the number given (so 99999999999999999999 is out of range, not
/// "not a number").
fn whole(text: &str, min: u64, max: u64, what: &str) -> Result<u64, String> {
    let text = text.trim();
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "invalid {what} '{text}': expected a whole number from {min} to {max}"
        ));
    }
    match text.parse::<u64>() {
        Ok(value) if (min..=max).contains(&value) => Ok(value),
        _ => Err(format!(
            "{what} {text} is out of range: it must be from {min} to {max}"
        )),
    }
}

/// A board size the engines take: 1 to [`nqueens::MAX_N`].
pub fn board_size(text: &str) -> Result<u32, String> {
    whole(text, 1, nqueens::MAX_N.into(), "board size").map(|n| n as u32)
}

/// A board size for `find`, which builds a solution of any size: 1 to 2^32 - 1.
pub fn any_board_size(text: &str) -> Result<u32, String> {
    whole(text, 1, u32::MAX.into(), "board size").map(|n| n as u32)
}

/// `N` or `A..B` with 1 <= A <= B <= [`nqueens::MAX_N`].
pub fn sizes(text: &str) -> Result<Sizes, String> {
    let text = text.trim();
    match text.split_once("..") {
        None => board_size(text).map(|n| Sizes {
            range: n..=n,
            is_range: false,
        }),
        Some((from, to)) => {
            let bad = || {
                format!(
                    "invalid range '{text}': expected A..B with 1 <= A <= B <= {}",
                    nqueens::MAX_N
                )
            };
            if from.trim().is_empty() || to.trim().is_empty() {
                return Err(bad());
            }
            let (a, b) = (board_size(from)?, board_size(to)?);
            if a > b {
                return Err(bad());
            }
            Ok(Sizes {
                range: a..=b,
                is_range: true,
            })
        }
    }
}

/// A thread count: 1 to [`nqueens::MAX_THREADS`].
pub fn threads(text: &str) -> Result<usize, String> {
    whole(text, 1, nqueens::MAX_THREADS as u64, "thread count").map(|t| t as usize)
}

/// A split depth: 1 to [`nqueens::MAX_SPLIT_DEPTH`].
pub fn split_depth(text: &str) -> Result<u32, String> {
    whole(text, 1, nqueens::MAX_SPLIT_DEPTH.into(), "split depth").map(|d| d as u32)
}

/// A number of solutions to stop after: 0 to 2^64 - 1.
pub fn limit(text: &str) -> Result<u64, String> {
    whole(text, 0, u64::MAX, "limit")
}

/// A number of tasks, from 1.
pub fn task_count(text: &str) -> Result<u64, String> {
    whole(text, 1, u64::MAX, "task count")
}

/// Thread counts, comma-separated (`1,2,8`), each 1 to [`nqueens::MAX_THREADS`]: in rising
/// order, each once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadList(pub Vec<usize>);

/// A [`ThreadList`].
pub fn thread_list(text: &str) -> Result<ThreadList, String> {
    not_a_flag(text)?;
    let mut list = text
        .split(',')
        .map(threads)
        .collect::<Result<Vec<usize>, String>>()?;
    list.sort_unstable();
    list.dedup();
    Ok(ThreadList(list))
}

/// Rounds of a benchmark's row: 1 to 100.
pub fn rounds(text: &str) -> Result<usize, String> {
    whole(text, 1, 100, "round count").map(|r| r as usize)
}

/// An audit's seed: 0 to 2^64 - 1.
pub fn seed(text: &str) -> Result<u64, String> {
    whole(text, 0, u64::MAX, "seed")
}

/// Refuses a flag where a value was wanted: `--shard` and `--max-memory` take values that
/// start with `-` (so that `-1/3` and `-5M` are said to be out of range, not taken for
/// flags), and `--shard --json` then names the flag it took.
fn not_a_flag(text: &str) -> Result<(), String> {
    match text.starts_with("--") {
        true => Err(format!("a value is needed here, not the flag '{text}'")),
        false => Ok(()),
    }
}

/// `I/K` with 0 <= I < K.
pub fn shard(text: &str) -> Result<(usize, usize), String> {
    not_a_flag(text)?;
    let bad = || format!("invalid shard '{text}': expected I/K with 0 <= I < K, like 0/4");
    let (i, k) = text.split_once('/').ok_or_else(bad)?;
    let (i, k): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        k.trim().parse().map_err(|_| bad())?,
    );
    if i >= k {
        return Err(bad());
    }
    Ok((i, k))
}

/// A memory size as the user wrote it, and its number of bytes: messages quote what was
/// written (`--max-memory 1` is not `1K`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemorySize {
    /// The number of bytes.
    pub bytes: u64,
    /// The text given, trimmed.
    pub text: String,
}

/// A memory size ([`bytes`]), keeping the text given.
pub fn memory_size(text: &str) -> Result<MemorySize, String> {
    not_a_flag(text)?;
    Ok(MemorySize {
        bytes: bytes(text)?,
        text: text.trim().to_string(),
    })
}

/// A share of a whole: a number above 0, at most 1 (`0.01` for 1 %); a share of 0 would
/// recount nothing, and an audit that checks nothing must not pass.
pub fn share(text: &str) -> Result<f64, String> {
    not_a_flag(text)?;
    let Ok(share) = text.trim().parse::<f64>() else {
        return Err(format!(
            "invalid share '{text}': expected a number above 0, at most 1 (0.01 for 1 %)"
        ));
    };
    if share == 0.0 {
        Err(format!(
            "share {text} recounts no task: expected a share above 0, at most 1 (0.01 for 1 %)"
        ))
    } else if share > 0.0 && share <= 1.0 {
        Ok(share)
    } else {
        Err(format!(
            "share {text} is out of range: expected above 0, at most 1 (0.01 for 1 %)"
        ))
    }
}

/// The longest `--for` takes, in days.
const MAX_DAYS: u64 = 366;

/// A duration: a whole number above 0 with a unit, `s`, `m`, `h` or `d` (`90s`, `30m`, `12h`),
/// at most [`MAX_DAYS`].
pub fn duration(text: &str) -> Result<std::time::Duration, String> {
    not_a_flag(text)?;
    let text = text.trim();
    let bad =
        || format!("invalid duration '{text}': expected a whole number and s, m, h or d (30m)");
    let (digits, unit) = text.split_at(text.len().saturating_sub(1));
    let seconds: u64 = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86400,
        _ => return Err(bad()),
    };
    let number = digits.strip_prefix(['-', '+']).unwrap_or(digits);
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let too_long = || format!("duration '{text}' is too long: at most {MAX_DAYS}d");
    match digits.parse::<u64>() {
        // Digits past 64 bits are a duration too long, not a misspelt one.
        Err(_) if !digits.starts_with('-') => Err(too_long()),
        Ok(count) if count > 0 => count
            .checked_mul(seconds)
            .filter(|&s| s <= MAX_DAYS * 86400)
            .map(std::time::Duration::from_secs)
            .ok_or_else(too_long),
        _ => Err(format!(
            "duration '{text}' is out of range: expected a duration above zero, at most \
             {MAX_DAYS}d"
        )),
    }
}

/// A memory size: a number of bytes, or one with a suffix K, M, G or T (powers of 1024, with
/// an optional `B` or `iB` after it), like `512M` or `1.5GiB`.
pub fn bytes(text: &str) -> Result<u64, String> {
    let bad = || format!("invalid memory size '{text}': expected a size like 512M or 4G");
    let lower = text.trim().to_ascii_lowercase();
    // One unit at most: `iB` after a unit letter (`MiB`), or `B` (`MB`, `4096B`).
    let number = match lower.strip_suffix("ib") {
        Some(unit) if unit.ends_with(['k', 'm', 'g', 't']) => unit,
        Some(_) => return Err(bad()),
        None => lower.strip_suffix('b').unwrap_or(&lower),
    };
    let (digits, power) = match number.chars().last() {
        Some('k') => (&number[..number.len() - 1], 1),
        Some('m') => (&number[..number.len() - 1], 2),
        Some('g') => (&number[..number.len() - 1], 3),
        Some('t') => (&number[..number.len() - 1], 4),
        _ => (number, 0),
    };
    let value: f64 = digits.trim().parse().map_err(|_| bad())?;
    let bytes = value * 1024f64.powi(power);
    if !bytes.is_finite() || bytes < 1.0 {
        return Err(bad());
    }
    // A well-formed size past what 64 bits count (16 EiB) is too large, not misspelt.
    if bytes >= u64::MAX as f64 {
        return Err(format!(
            "memory size '{text}' is too large: at most 16777215T"
        ));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards() {
        assert_eq!(shard("0/4"), Ok((0, 4)));
        assert_eq!(shard("3/4"), Ok((3, 4)));
        for bad in ["4/4", "1", "a/b", "-1/3", "1/0", ""] {
            assert!(shard(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn memory_sizes() {
        assert_eq!(bytes("4096"), Ok(4096));
        assert_eq!(bytes("512M"), Ok(512 << 20));
        assert_eq!(bytes("512MiB"), Ok(512 << 20));
        assert_eq!(bytes("2g"), Ok(2 << 30));
        assert_eq!(bytes("1.5G"), Ok(3 << 29));
        assert_eq!(bytes("64kB"), Ok(64 << 10));
        for bad in [
            "", "M", "-1G", "-5M", "0", "1X", "abc", "nan", "1GiBiB", "1GBB", "1iB", "1bb",
        ] {
            assert!(bytes(bad).unwrap_err().contains("invalid"), "{bad:?}");
        }
        // Regression: sizes past 64 bits were called a bad format.
        for large in [
            "18446744073709551615",
            "9999999999T",
            "1e30T",
            "17179869184G",
        ] {
            assert!(bytes(large).unwrap_err().contains("too large"), "{large:?}");
        }
    }

    #[test]
    fn sizes_and_ranges() {
        let one = |n| Sizes {
            range: n..=n,
            is_range: false,
        };
        assert_eq!(sizes("16"), Ok(one(16)));
        assert_eq!(
            sizes("8..12").map(|s| (s.range, s.is_range)),
            Ok((8..=12, true))
        );
        assert_eq!(
            sizes("5..5").map(|s| (s.range, s.is_range)),
            Ok((5..=5, true))
        );
        for bad in [
            "0", "33", "-4", "x", "", "8..", "..8", "12..8", "1..40", "1...3", "8..x",
        ] {
            assert!(sizes(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn every_out_of_range_size_gets_the_same_message() {
        for big in [
            "0",
            "4294967296",
            "18446744073709551615",
            "99999999999999999999999",
            "-3",
        ] {
            assert_eq!(
                any_board_size(big),
                Err(format!(
                    "board size {big} is out of range: it must be from 1 to 4294967295"
                )),
            );
        }
        assert_eq!(
            any_board_size("x1"),
            Err("invalid board size 'x1': expected a whole number from 1 to 4294967295".into())
        );
    }

    #[test]
    fn limits_out_of_range_are_said_as_such() {
        assert_eq!(limit("0"), Ok(0));
        assert_eq!(limit("18446744073709551615"), Ok(u64::MAX));
        for big in ["99999999999999999999", "-1"] {
            assert_eq!(
                limit(big),
                Err(format!(
                    "limit {big} is out of range: it must be from 0 to 18446744073709551615"
                ))
            );
        }
    }

    #[test]
    fn thread_counts_are_bounded() {
        assert_eq!(threads("1024"), Ok(1024));
        assert!(threads("1025").unwrap_err().contains("from 1 to 1024"));
        assert!(threads("0").is_err());
        assert!(threads("99999").is_err());
    }
}
