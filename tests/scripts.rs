//! The scripts' argument handling (scripts/*.sh), run with bash: a bad argument is a one-line
//! reason and the usage on stderr, exit 2, before anything is built; `-h` is the usage on
//! stdout, exit 0. Only these fast paths run here: the scripts' work (building, timing) is
//! not for the test suite. Skipped where bash is missing.

use std::process::{Command, Output};

/// Runs `scripts/NAME` with `args`, or `None` without bash.
fn script(name: &str, args: &[&str]) -> Option<Output> {
    let path = format!("{}/scripts/{name}", env!("CARGO_MANIFEST_DIR"));
    match Command::new("bash").arg(path).args(args).output() {
        Ok(output) => Some(output),
        Err(e) => {
            eprintln!("bash cannot run ({e}): skipped");
            None
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Asserts that `args` are refused with `reason` (and the usage) on stderr, exit 2.
fn refused(name: &str, args: &[&str], reason: &str) {
    let Some(output) = script(name, args) else {
        return;
    };
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{name} {args:?}: {stderr}");
    assert_eq!(text(&output.stdout), "", "{name} {args:?}");
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(&format!("{name}: ")) && first.contains(reason),
        "{name} {args:?}: {stderr}"
    );
    assert!(
        stderr.contains("\nusage: scripts/"),
        "{name} {args:?}: {stderr}"
    );
}

#[test]
fn compare_sh_with_a_range_that_is_not_numbers_is_refused() {
    refused("compare.sh", &["-n", "9..x"], "invalid sizes '9..x'");
    refused("compare.sh", &["-n", "x"], "invalid sizes 'x'");
    refused("compare.sh", &["-n", "..9"], "invalid sizes '..9'");
}

#[test]
fn compare_sh_with_a_backward_or_out_of_range_range_is_refused() {
    refused("compare.sh", &["-n", "14..9"], "1 <= A <= B <= 32");
    refused("compare.sh", &["-n", "0..5"], "1 <= A <= B <= 32");
    refused("compare.sh", &["-n", "30..33"], "1 <= A <= B <= 32");
}

#[test]
fn scripts_with_bad_options_are_refused() {
    refused("compare.sh", &["-j", "0"], "invalid thread count '0'");
    refused("compare.sh", &["-Z"], "unknown option -Z");
    refused("compare.sh", &["-n"], "-n needs a value");
    refused("compare.sh", &["stray"], "unexpected argument 'stray'");
    refused("bench.sh", &["-n", "12 x"], "invalid board size 'x'");
    refused("bench.sh", &["-n", "40"], "invalid board size '40'");
    refused("bench.sh", &["-r", "0"], "invalid run count '0'");
    refused("bench.sh", &["-j", "1 two"], "invalid thread count 'two'");
}

#[test]
fn bench_sh_names_an_unknown_engine() {
    refused("bench.sh", &["-e", "join foo"], "unknown engine 'foo'");
}

#[test]
fn slurm_array_sh_without_a_board_size_is_refused() {
    let Some(output) = script("slurm-array.sh", &["x"]) else {
        return;
    };
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("usage: scripts/slurm-array.sh N"));
}

#[test]
fn scripts_help_prints_the_usage_and_exits_0() {
    for name in ["compare.sh", "bench.sh", "slurm-array.sh"] {
        let Some(output) = script(name, &["-h"]) else {
            return;
        };
        let stdout = text(&output.stdout);
        assert!(output.status.success(), "{name}: {output:?}");
        assert!(
            stdout.starts_with(&format!("usage: scripts/{name}")),
            "{name}: {stdout}"
        );
        assert!(!stdout.contains("set -euo"), "{name}: {stdout}");
        assert_eq!(text(&output.stderr), "", "{name}");
    }
}
