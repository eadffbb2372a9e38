//! The scripts' (scripts/*.sh) arguments and help, run with bash: a bad argument is a one-line
//! reason and the usage on stderr, exit 2, before anything is built (an unknown option one line
//! and a pointer to `--help`); `-h` and `--help` are the usage on stdout, exit 0; every script
//! but `common.sh` is executable. Nothing here builds or runs a binary: the scripts' work, on
//! binaries already built or faked, is `scripts_runs.rs`. Without bash they fail, saying so: a
//! test that cannot run the script has checked nothing.

mod scripts_support;

use scripts_support::{refused, script, script_in, text};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};

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
    refused("compare.sh", &["-n"], "-n needs a value");
    refused("compare.sh", &["stray"], "unexpected argument 'stray'");
}

#[test]
fn memory_sensitivity_sh_checks_its_arguments_before_building() {
    refused("memory-sensitivity.sh", &["-n", "18"], "sampled from 20");
    refused(
        "memory-sensitivity.sh",
        &["-n", "22 x"],
        "invalid board size 'x'",
    );
    refused(
        "memory-sensitivity.sh",
        &["-p", "0"],
        "invalid run count '0'",
    );
    refused(
        "memory-sensitivity.sh",
        &["-R", "x"],
        "invalid run count 'x'",
    );
    refused(
        "memory-sensitivity.sh",
        &["stray"],
        "unexpected argument 'stray'",
    );
}

#[test]
fn slurm_array_sh_without_a_board_size_is_refused() {
    let output = script("slurm-array.sh", &["x"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("usage: scripts/slurm-array.sh N"));
}

#[test]
fn scripts_help_prints_the_usage_and_exits_0() {
    for name in SCRIPTS {
        let output = script(name, &["-h"]);
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

/// Regression: `gpu-bench.sh -h` exited 2 and printed its header's `#` lines; a bad argument
/// started a build before failing.
#[test]
fn gpu_bench_sh_checks_its_arguments_before_building() {
    refused("gpu-bench.sh", &["-n", "12 40"], "invalid board size '40'");
    refused("gpu-bench.sh", &["-n", "x"], "invalid board size 'x'");
    refused("gpu-bench.sh", &["-e", "27 33"], "invalid board size '33'");
    refused("gpu-bench.sh", &["-r", "0"], "invalid run count '0'");
    refused("gpu-bench.sh", &["-j", "two"], "invalid thread count 'two'");
    refused("gpu-bench.sh", &["-a"], "-a needs a value");
    refused("gpu-bench.sh", &["stray"], "unexpected argument 'stray'");
}

/// The benchmark tables' script checks its sizes, threads, files and yardstick before it
/// builds anything (a build and its timings take minutes to an hour).
#[test]
fn frontier_sh_checks_its_arguments_before_building() {
    refused("frontier.sh", &["-c", "16 40"], "invalid board size '40'");
    refused("frontier.sh", &["-e", "x"], "invalid board size 'x'");
    refused(
        "frontier.sh",
        &["-e", "3"],
        "the estimates here are of 4 and up",
    );
    refused("frontier.sh", &["-c", "", "-e", ""], "nothing to do");
    refused("frontier.sh", &["-j", "1 2"], "one whole number");
    refused(
        "frontier.sh",
        &["-y", "/no/such/textbook.c"],
        "no such file",
    );
    refused("frontier.sh", &["-a", "/no/such.csv"], "no such file");
    refused(
        "frontier.sh",
        &["-a", "Cargo.toml"],
        "not a CSV of this script",
    );
    refused("frontier.sh", &["-o", "/no/such/dir/x"], "no directory");
    refused("frontier.sh", &["stray"], "unexpected argument 'stray'");
}

/// The two-build comparison refuses a revision git does not know and a command that is not
/// one of the binary's, before it builds either build.
#[test]
fn compare_builds_sh_checks_its_arguments_before_building() {
    refused(
        "compare-builds.sh",
        &["-r", "no-such-rev"],
        "unknown revision",
    );
    refused("compare-builds.sh", &["-R", "0"], "invalid run count '0'");
    refused(
        "compare-builds.sh",
        &["serve"],
        "expected a count, solve, find or verify",
    );
    refused("compare-builds.sh", &[""], "an empty command");
}

/// Regression: without bash every script test passed, having run nothing. A bash that cannot
/// start fails the test, saying so.
#[test]
#[should_panic(expected = "bash cannot start")]
fn a_missing_bash_fails_the_script_tests_not_passes_them() {
    script_in("compare.sh", &["-h"], &mut Command::new("/no/such/bash"));
}

/// Regression: `bench.sh -o missing/x.csv` (the script `nqueens bench` replaced) failed only
/// when it wrote the CSV, after its build and its timings (minutes). A file that cannot be
/// written is refused before anything is built, in every script that writes one.
#[test]
fn an_output_file_that_cannot_be_written_is_refused_before_building() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing/x.csv");
    let missing = missing.to_str().unwrap();
    let here = dir.path().to_str().unwrap();
    refused("compare.sh", &["-o", missing], "no directory");
    refused("compare.sh", &["-o", here], "a directory, not a file");
    refused("compare.sh", &["-o", ""], "-o needs a file name");
    // frontier.sh's -o is a prefix: PREFIX.md, PREFIX.csv and PREFIX.svg.
    refused("frontier.sh", &["-o", missing], "no directory");
}

/// The pages call the scripts directly (`scripts/frontier.sh`, `scripts/compare-builds.sh`):
/// those two were once committed without their executable bit, so that the command the
/// benchmarks page gives failed with "Permission denied". Every script but `common.sh` (which
/// the others source) is executable and runs as called, without `bash` in front.
#[test]
fn frontier_sh_and_compare_builds_sh_were_not_executable() {
    let dir = format!("{}/scripts", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".sh") && name != "common.sh")
        .collect();
    names.sort();
    let mut listed = SCRIPTS.map(String::from).to_vec();
    listed.sort();
    assert_eq!(names, listed, "SCRIPTS lists every script");
    for name in names {
        let path = format!("{dir}/{name}");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_ne!(mode & 0o111, 0, "{name} is not executable: {mode:o}");
        let output = Command::new(&path)
            .arg("-h")
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(output.status.success(), "{name}: {output:?}");
        assert!(text(&output.stdout).starts_with(&format!("usage: scripts/{name}")));
    }
}

/// Every script but `common.sh` (`frontier_sh_and_compare_builds_sh_were_not_executable`
/// checks that this is all of them).
const SCRIPTS: [&str; 10] = [
    "bench-example.sh",
    "compare.sh",
    "compare-builds.sh",
    "frontier.sh",
    "gpu-bench.sh",
    "isa-builds.sh",
    "library-speed.sh",
    "memory-sensitivity.sh",
    "slurm-array.sh",
    "versus-peer.sh",
];

/// The peer comparison refuses a missing or unreadable peer, arguments without the size's
/// place, and bad sizes or rounds, before it builds anything.
#[test]
fn versus_peer_sh_checks_its_arguments_before_building() {
    refused("versus-peer.sh", &[], "-p PEER.c or -c COMMAND is needed");
    refused(
        "versus-peer.sh",
        &["-p", "/no/such/peer.c"],
        "not a readable file",
    );
    let peer = tempfile::NamedTempFile::new().unwrap();
    let peer = peer.path().to_str().unwrap();
    refused(
        "versus-peer.sh",
        &["-p", peer, "-a", "count 16 -j 1"],
        "no word N for the size",
    );
    refused(
        "versus-peer.sh",
        &["-p", peer, "-n", "40"],
        "invalid board size '40'",
    );
    refused(
        "versus-peer.sh",
        &["-p", peer, "-R", "0"],
        "invalid run count '0'",
    );
    refused(
        "versus-peer.sh",
        &["-p", peer, "stray"],
        "unexpected argument 'stray'",
    );
    refused(
        "versus-peer.sh",
        &["-c", "./counter 16"],
        "-c './counter 16': no word N for the size",
    );
    refused("versus-peer.sh", &["-p", peer, "-c", "x N"], "one peer");
}

/// The library's timing, the bench example and the builds' table check their arguments
/// before building.
#[test]
fn library_speed_bench_example_and_isa_builds_check_their_arguments_before_building() {
    refused("library-speed.sh", &["-R", "0"], "invalid run count '0'");
    refused(
        "library-speed.sh",
        &["-o", "/no/such/dir/x.md"],
        "no directory",
    );
    refused(
        "library-speed.sh",
        &["stray"],
        "unexpected argument 'stray'",
    );
    refused(
        "bench-example.sh",
        &["-o", "/no/such/dir/x.md"],
        "no directory",
    );
    refused("bench-example.sh", &["-l"], "-l needs a value");
    refused(
        "bench-example.sh",
        &["stray"],
        "unexpected argument 'stray'",
    );
    refused("isa-builds.sh", &["-n", "16 40"], "invalid board size '40'");
    refused("isa-builds.sh", &["-R", "0"], "invalid run count '0'");
    refused(
        "isa-builds.sh",
        &["-o", "/no/such/dir/x.md"],
        "no directory",
    );
    refused("isa-builds.sh", &["stray"], "unexpected argument 'stray'");
}

/// Regression: every script answered `--help` with "unknown option --" and exit 2 (getopts
/// reads `--help` as the option `-`). `--help` is the usage, exit 0; an unknown option, long or
/// short, is one line that names it whole and points to `--help`, exit 2.
#[test]
fn scripts_answered_help_with_unknown_option() {
    for name in SCRIPTS {
        let output = script(name, &["--help"]);
        let stdout = text(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{name}: {output:?}");
        assert!(
            stdout.starts_with(&format!("usage: scripts/{name}")),
            "{name}: {stdout}"
        );
        assert_eq!(text(&output.stderr), "", "{name}");
        for option in ["--frob", "--frob=2", "-Z"] {
            let output = script(name, &[option]);
            let stderr = text(&output.stderr);
            let want = option.split('=').next().unwrap();
            assert_eq!(output.status.code(), Some(2), "{name} {option}: {stderr}");
            assert_eq!(
                stderr,
                format!("{name}: unknown option {want} (see scripts/{name} --help)\n"),
                "{name} {option}"
            );
            assert_eq!(text(&output.stdout), "", "{name} {option}");
        }
    }
}
