//! `solve`, `find` and `verify` as a user runs them: every format, thread-count independence,
//! read-back, limits, closed pipes, files, and bad input.

mod cli_support;

use cli_support::{Watched, nqueens, stdout};
use std::io::Read;
use std::process::Stdio;

const FORMATS: [&str; 6] = ["perm", "board", "flat", "json", "leetcode", "svg"];

#[test]
fn output_is_the_same_bytes_for_any_thread_count() {
    for n in ["1", "4", "6", "8", "9"] {
        for format in FORMATS {
            let one = stdout(&["solve", n, "-f", format, "-j", "1"]);
            let two = stdout(&["solve", n, "-f", format, "-j", "2"]);
            assert_eq!(one, two, "n {n} format {format}");
        }
    }
    for args in [["solve", "12", "-j", "1"], ["solve", "12", "-j", "3"]] {
        assert_eq!(stdout(&args), stdout(&["solve", "12", "-j", "2"]));
    }
}

#[test]
fn unordered_output_does_not_depend_on_threads_either() {
    let one = stdout(&["solve", "10", "--unordered", "-j", "1"]);
    let two = stdout(&["solve", "10", "--unordered", "-j", "2"]);
    assert_eq!(one, two);
}

#[test]
fn every_format_reads_back_valid_and_complete() {
    for n in [1u32, 5, 6, 8] {
        for format in FORMATS {
            let written = stdout(&["solve", &n.to_string(), "-f", format]);
            let out = nqueens()
                .args(["verify", "--complete", &n.to_string()])
                .write_stdin(written)
                .assert()
                .success();
            let report = String::from_utf8(out.get_output().stdout.clone()).unwrap();
            assert!(report.contains(&format!("({format} format)")), "{report}");
            // "complete: all 40 solutions of n = 7, each once", "complete: the one solution
            // of n = 1, once"; never "incomplete: ...".
            assert!(
                report.lines().any(|l| l.starts_with("complete: ")),
                "n {n} {format}: {report}"
            );
        }
    }
}

#[test]
fn perm_output_is_sorted_and_counts_match() {
    let text = String::from_utf8(stdout(&["solve", "11"])).unwrap();
    let rows: Vec<Vec<u32>> = text
        .lines()
        .map(|l| l.split(' ').map(|c| c.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 2680);
    assert!(rows.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn leetcode_format_is_one_json_array_of_row_strings() {
    let text = String::from_utf8(stdout(&["solve", "4", "-f", "leetcode"])).unwrap();
    let boards: Vec<Vec<String>> = serde_json::from_str(&text).unwrap();
    assert_eq!(
        boards,
        [
            [".Q..", "...Q", "Q...", "..Q."],
            ["..Q.", "Q...", "...Q", ".Q.."]
        ]
    );
}

#[test]
fn limit_gives_exactly_k_solutions() {
    let text = String::from_utf8(stdout(&["solve", "12", "--limit", "7"])).unwrap();
    assert_eq!(text.lines().count(), 7);
    let all = String::from_utf8(stdout(&["solve", "12"])).unwrap();
    let first: Vec<&str> = all.lines().take(7).collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), first);
    let text = String::from_utf8(stdout(&["solve", "6", "--limit", "100"])).unwrap();
    assert_eq!(text.lines().count(), 4);
}

/// How soon `solve N | head -1` must end once its reader has gone: it ends in about 0.1 s
/// here, and the whole of `solve 17` takes 42 s (a regression to waiting for the whole count
/// never ends at n = 27), so a loaded machine has a margin of a hundred.
const CLOSED_PIPE_ENDS_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

/// `solve N | head -1`: the reader closes the pipe after one line; the program must end,
/// quietly, with exit 0, within [`CLOSED_PIPE_ENDS_WITHIN`] of the pipe's closing. Returns the
/// whole run's time, the first bytes' wait included.
fn closed_pipe_ends_the_run_quietly(args: &[&str]) -> std::time::Duration {
    let started = std::time::Instant::now();
    let mut child = Watched::nqueens(args);
    let mut first = [0u8; 64];
    let mut stdout = child.child.stdout.take().unwrap();
    stdout.read_exact(&mut first).unwrap();
    let closed = std::time::Instant::now();
    drop(stdout);
    let output = child.wait_with_output();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.status.success(), "{:?} {stderr}", output.status);
    assert_eq!(stderr, "");
    assert!(
        closed.elapsed() < CLOSED_PIPE_ENDS_WITHIN,
        "{args:?} ran on for {:?} after its reader had gone",
        closed.elapsed()
    );
    started.elapsed()
}

#[test]
fn closed_pipe_on_n17_ends_the_run_quietly() {
    closed_pipe_ends_the_run_quietly(&["solve", "17"]);
}

/// Regression: the writer used to wait for whole chunks of tasks, each of which holds
/// billions of solutions at n = 27, so `solve 27 | head -1` never ended.
#[test]
fn closed_pipe_on_a_huge_board_does_not_wait_for_whole_tasks() {
    closed_pipe_ends_the_run_quietly(&["solve", "27"]);
}

/// Regression: the SVG header's board count came from counting the whole board, hours at
/// n = 20, even with a limit of three boards (a regression would run for those hours).
#[test]
fn svg_with_a_limit_does_not_count_the_whole_board() {
    let svg = stdout(&["solve", "20", "-f", "svg", "--limit", "3"]);
    let text = String::from_utf8(svg).unwrap();
    assert_eq!(text.matches("<g class=\"board\"").count(), 3);
}

#[test]
fn output_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eight.txt");
    nqueens()
        .args(["solve", "8", "-o", path.to_str().unwrap()])
        .assert()
        .success()
        .stdout("");
    assert_eq!(std::fs::read(&path).unwrap(), stdout(&["solve", "8"]));
    // Only the file itself is left: the temporary file was renamed.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn unwritable_output_is_an_error_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/out.txt");
    let out = nqueens()
        .args(["solve", "8", "-o", missing.to_str().unwrap()])
        .assert()
        .code(1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.starts_with("error:") && stderr.lines().count() == 1,
        "{stderr}"
    );
    nqueens()
        .args(["solve", "8", "-o", dir.path().to_str().unwrap()])
        .assert()
        .code(1);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn find_gives_a_valid_solution_or_says_none_exists() {
    // The report names the board size and the one valid placement: a `find` that wrote
    // nothing, or a board of the wrong size, fails here (exit 0 alone said neither).
    for n in ["1", "4", "5", "8", "20", "31", "1000", "123457"] {
        let written = stdout(&["find", n]);
        nqueens()
            .args(["verify"])
            .write_stdin(written)
            .assert()
            .success()
            .stdout(format!(
                "1 placement of n = {n} (perm format): 1 valid, 0 invalid\n"
            ));
    }
    for format in FORMATS {
        let written = stdout(&["find", "12", "-f", format]);
        nqueens()
            .args(["verify", "-f", format])
            .write_stdin(written)
            .assert()
            .success()
            .stdout(format!(
                "1 placement of n = 12 ({format} format): 1 valid, 0 invalid\n"
            ));
    }
    for n in ["2", "3"] {
        nqueens()
            .args(["find", n])
            .assert()
            .code(1)
            .stdout("")
            .stderr(format!("error: no solution exists for n = {n}\n"));
    }
}

/// Regression: `find` built the whole board, then its whole text, before writing a byte:
/// `find 100000000` peaked at 2.07 GB and `find 4294967295` grew to 24 GB until it was
/// killed. It streams row by row now, in every format: the process stays near its size at
/// start (about 10 MiB) whatever n is.
#[test]
fn find_streams_in_bounded_memory() {
    for args in [
        &["find", "20000000"][..],
        &["find", "20000001", "-f", "json"],
        &["find", "2000", "-f", "board"],
        &["find", "2000", "-f", "flat"],
        &["find", "2000", "-f", "leetcode"],
        &["find", "200", "-f", "svg"],
    ] {
        let mut command = std::process::Command::new(cli_support::bin());
        command.args(args).stdout(Stdio::null());
        let (status, peak) = Watched::spawn(&mut command).measured().wait_with_peak();
        assert!(status.success(), "{args:?}: {status:?}");
        // Before: 80 MB of columns and 180 MB of text at n = 20,000,000.
        assert!(peak < 24 << 20, "{args:?}: peak {} MiB", peak >> 20);
    }
}

/// Regression: `find 4294967295 | head -c 100` built tens of gigabytes before its first
/// write; now the first bytes come at once and the closed pipe ends the run, quietly.
#[test]
fn find_into_a_closed_pipe_ends_at_once() {
    for args in [
        &["find", "4294967295"][..],
        &["find", "4294967294", "-f", "json"],
    ] {
        let took = closed_pipe_ends_the_run_quietly(args);
        // A whole run writes 45 GB: minutes. Seconds allow for a loaded machine.
        assert!(took.as_secs() < 20, "{args:?}: {took:?}");
    }
}

#[test]
fn find_refuses_quadratic_formats_on_huge_boards() {
    let out = nqueens()
        .args(["find", "5000", "-f", "board"])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("grows as n²"), "{stderr}");
    nqueens().args(["find", "0"]).assert().code(2);
    nqueens().args(["find", "-4"]).assert().code(2);
}

#[test]
fn verify_names_each_kind_of_mistake() {
    let input = "1 3 0 2\n1 3 1 2\n0 1 3 2\n2 0 3\n2 0 3 1\n";
    let out = nqueens().arg("verify").write_stdin(input).assert().code(1);
    let report = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        report.contains("line 2: rows 0 and 2 share a column"),
        "{report}"
    );
    assert!(
        report.contains("line 3: rows 0 and 1 share a diagonal"),
        "{report}"
    );
    assert!(
        report.contains("line 4: 3 queens, but the boards have 4 rows"),
        "{report}"
    );
    assert!(report.contains("5 placements of n = 4 (perm format): 2 valid, 3 invalid"));

    let out = nqueens()
        .arg("verify")
        .write_stdin("1 3 0 2\n1 three 0 2\n")
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(
        stderr,
        "error: perm input, line 2: 'three' is not a column number\n"
    );
}

#[test]
fn verify_complete_catches_missing_and_duplicated_solutions() {
    let all = String::from_utf8(stdout(&["solve", "6"])).unwrap();
    let lines: Vec<&str> = all.lines().collect();
    let missing = lines[..3].join("\n");
    let out = nqueens()
        .args(["verify", "--complete", "6"])
        .write_stdin(missing)
        .assert()
        .code(1);
    let report = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(report.contains("1 missing"), "{report}");
    let doubled = format!("{all}{}\n", lines[0]);
    let out = nqueens()
        .args(["verify", "--complete", "6"])
        .write_stdin(doubled)
        .assert()
        .code(1);
    let report = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(report.contains("1 duplicated"), "{report}");
}

#[test]
fn verify_reads_a_file_and_reports_missing_ones() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.json");
    std::fs::write(&path, stdout(&["solve", "7", "-f", "json"])).unwrap();
    nqueens()
        .args(["verify", path.to_str().unwrap(), "--complete", "7"])
        .assert()
        .success();
    // A file that cannot be read is unreadable input: 2, as the README says.
    nqueens()
        .args(["verify", dir.path().join("nope").to_str().unwrap()])
        .assert()
        .code(2);
}

#[test]
fn solve_rejects_bad_input() {
    for args in [
        &["solve", "0"][..],
        &["solve", "33"],
        &["solve", "x"],
        &["solve", "8", "-f", "png"],
        &["solve", "8", "--limit", "-1"],
        &["solve", "8", "-j", "0"],
        &["verify", "--complete", "40"],
    ] {
        let out = nqueens().args(args).assert().code(2).stdout("");
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error:"), "{args:?}: {stderr}");
    }
}

/// Regression: `verify` of gzip or random bytes said "a word longer than 32 bytes": binary
/// input is one line saying so, exit 2 (unreadable input), from a file or a pipe.
#[test]
fn verify_of_gzip_or_random_bytes_says_binary_data() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let random: Vec<u8> = (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 56) as u8
        })
        .collect();
    let mut gzip = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03".to_vec();
    gzip.extend(&random[..200]);
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [("x.gz", gzip), ("random", random)] {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        for from_file in [true, false] {
            let mut verify = nqueens();
            verify.arg("verify");
            if from_file {
                verify.arg(&path);
            } else {
                verify.write_stdin(bytes.clone());
            }
            let out = verify.assert().code(2).stdout("");
            assert_eq!(
                String::from_utf8_lossy(&out.get_output().stderr),
                "error: input: binary data (not a solution listing in any format)\n",
                "{name}"
            );
        }
    }
}
