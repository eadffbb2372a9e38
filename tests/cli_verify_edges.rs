//! `verify` at the edges, each test named after the defect it pins: endless, binary, cut,
//! empty and missing input, `find`'s output past a million rows and a leetcode document read
//! in bounded memory, "1 placement", and a report to a closed pipe.

mod cli_support;

use cli_support::{Watched, nqueens, stdout, text};
use std::io::{Read, Write};
use std::process::Stdio;

#[test]
fn verify_of_dev_zero_ends_at_once_with_an_error() {
    let out = nqueens().args(["verify", "/dev/zero"]).assert().code(2);
    let stderr = text(&out.get_output().stderr);
    assert_eq!(
        stderr,
        "error: input: binary data (not a solution listing in any format)\n"
    );
}

#[test]
fn verify_of_an_endless_line_is_refused_with_its_line_number() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.txt");
    // A one-queen board (detected as perm), then a line of digits without end: in perm a
    // word longer than any column number, refused at once.
    let mut input = b"0\n".to_vec();
    input.resize(input.len() + (1 << 20), b'1');
    std::fs::write(&path, &input).unwrap();
    let out = nqueens()
        .args(["verify", path.to_str().unwrap()])
        .assert()
        .code(2);
    let stderr = text(&out.get_output().stderr);
    assert_eq!(
        stderr,
        format!(
            "error: perm input, line 2: a word longer than {} bytes: longer than any column \
             number\n",
            nqueens::parse::MAX_WORD
        )
    );
    // The same text with -f flat is bounded by flat's largest board, and says so.
    let mut input = b"0\n".to_vec();
    let limit = nqueens::parse::line_limit(nqueens::format::Format::Flat);
    input.resize(input.len() + limit + 10, b'1');
    std::fs::write(&path, &input).unwrap();
    let out = nqueens()
        .args(["verify", "-f", "flat", path.to_str().unwrap()])
        .assert()
        .code(2);
    let stderr = text(&out.get_output().stderr);
    assert!(
        stderr.contains("line 2: a line longer than") && stderr.contains("n <= 2000"),
        "{stderr}"
    );
}

/// Regression: `verify` refused `find`'s own output past n = 1,000,000 ("a line longer than
/// 14000064 bytes"). What `find` writes, `verify` reads, number by number, in memory that
/// grows with the board (5 bits a row past the first 65,536), not with its text: n =
/// 20,000,000 in perm and json, piped from `find`, stays under 40 MiB where holding the line
/// and checking it as a list took over a gigabyte.
#[test]
fn verify_reads_finds_output_past_a_million_rows() {
    for format in ["perm", "json"] {
        let mut find = Watched::spawn(
            std::process::Command::new(cli_support::bin())
                .args(["find", "20000000", "-f", format])
                .stdout(Stdio::piped()),
        );
        let pipe = find.stdout.take().unwrap();
        let verify = Watched::spawn(
            std::process::Command::new(cli_support::bin())
                .arg("verify")
                .stdin(pipe)
                .stdout(Stdio::piped()),
        )
        .measured();
        let mut report = String::new();
        let mut verify = verify;
        verify
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut report)
            .unwrap();
        let (status, peak) = verify.wait_with_peak();
        assert!(find.wait().success());
        assert!(status.success(), "{format}: {status:?} {report}");
        assert_eq!(
            report,
            format!("1 placement of n = 20000000 ({format} format): 1 valid, 0 invalid\n")
        );
        assert!(peak < 40 << 20, "{format}: peak {} MiB", peak >> 20);
    }
}

/// Regression: a UTF-8 byte order mark at the start was refused; an SVG cut off before
/// `</svg>` was accepted; empty input said "0 placements ... 0 valid" and nothing else.
/// Now the mark is skipped, the cut SVG refused (exit 2), and empty input said on stderr;
/// `--complete N` of it holds only for n = 2 and 3, which have no solution.
#[test]
fn verify_takes_a_byte_order_mark_refuses_a_cut_svg_and_names_empty_input() {
    nqueens()
        .arg("verify")
        .write_stdin(&b"\xef\xbb\xbf1 3 0 2\n"[..])
        .assert()
        .success()
        .stdout("1 placement of n = 4 (perm format): 1 valid, 0 invalid\n");
    let svg = text(&stdout(&["solve", "6", "-f", "svg"]));
    let cut = &svg[..svg.rfind("</svg>").unwrap()];
    let out = nqueens().arg("verify").write_stdin(cut).assert().code(2);
    let stderr = text(&out.get_output().stderr);
    assert!(
        stderr.contains("ends before its closing </svg>"),
        "{stderr}"
    );
    let note = "note: the input holds no placement: nothing was read to check\n";
    nqueens()
        .arg("verify")
        .write_stdin("")
        .assert()
        .success()
        .stdout("0 placements (perm format): 0 valid, 0 invalid\n")
        .stderr(note);
    for n in ["2", "3"] {
        nqueens()
            .args(["verify", "--complete", n])
            .write_stdin("\n")
            .assert()
            .success()
            .stdout(format!(
                "0 placements of n = {n} (perm format): 0 valid, 0 invalid\n\
                 complete: n = {n} has no solution, and none was given\n"
            ))
            .stderr(note);
    }
    nqueens()
        .args(["verify", "--complete", "8"])
        .write_stdin("")
        .assert()
        .code(1)
        .stderr(note);
}

#[test]
fn verify_of_missing_directory_or_binary_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let cases: [(&[&str], &[u8], &str); 4] = [
        (&[missing.to_str().unwrap()], b"", "No such file"),
        (&[dir.path().to_str().unwrap()], b"", "is a directory"),
        (&[], b"1 3 0 2\n\xff\xfe\n", "line 2: not UTF-8 text"),
        (&[], b"1 3 0 2\n2 0\x003 1\n", "line 2: binary data"),
    ];
    for (args, input, expected) in cases {
        let out = nqueens()
            .arg("verify")
            .args(args)
            .write_stdin(input)
            .assert()
            .code(2);
        let stderr = text(&out.get_output().stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn verify_says_1_placement_not_1_placements() {
    nqueens()
        .args(["verify", "--complete", "1"])
        .write_stdin("0\n")
        .assert()
        .success()
        .stdout(
            "1 placement of n = 1 (perm format): 1 valid, 0 invalid\n\
             complete: the one solution of n = 1, once\n",
        );
    nqueens()
        .arg("verify")
        .write_stdin("1 3 0 2\n0\n")
        .assert()
        .code(1)
        .stdout(
            "line 2: 1 queen, but the boards have 4 rows\n\
             2 placements of n = 4 (perm format): 1 valid, 1 invalid\n",
        );
    nqueens()
        .args(["verify", "--complete", "4"])
        .write_stdin("1 3 0 2\n")
        .assert()
        .code(1)
        .stdout(
            "1 placement of n = 4 (perm format): 1 valid, 0 invalid\n\
             incomplete: 1 of the 2 solutions of n = 4, 1 missing, 0 duplicated, 0 invalid\n",
        );
}

/// Peak resident memory of process `pid` (Linux), in bytes.
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib << 10
}

/// Regression: `verify -f leetcode` read the whole document (one JSON array for the whole
/// set) into memory, 4.5 GB for `solve 16 -f leetcode`. 100 MB of it, checked while the
/// input is still open, must leave the process far below that.
#[test]
fn verify_reads_a_leetcode_document_in_bounded_memory() {
    let set = text(&stdout(&["solve", "12", "-f", "leetcode"]));
    let boards = set.trim_end().strip_prefix('[').unwrap();
    let boards = boards.strip_suffix(']').unwrap();
    let mut child = Watched::spawn(
        std::process::Command::new(cli_support::bin())
            .arg("verify")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped()),
    );
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"[").unwrap();
    let mut written = 0;
    let mut copies = 0;
    while written < 100 << 20 {
        if copies > 0 {
            stdin.write_all(b",").unwrap();
        }
        stdin.write_all(boards.as_bytes()).unwrap();
        written += boards.len();
        copies += 1;
    }
    // Everything written so far has passed through the pipe, which holds 64 KiB: the reader
    // has read all but that much of it.
    let peak = peak_memory(pid);
    stdin.write_all(b"]\n").unwrap();
    drop(stdin);
    let output = child.wait_with_output();
    assert!(output.status.success());
    let report = text(&output.stdout);
    assert_eq!(
        report,
        format!(
            "{} placements of n = 12 (leetcode format): {0} valid, 0 invalid\n",
            14_200 * copies
        )
    );
    assert!(peak < 50 << 20, "peak {} MiB", peak >> 20);
}

#[test]
fn verify_output_to_a_closed_pipe_is_quiet() {
    // Enough invalid lines that the report outgrows the pipe after the reader has gone.
    let input = "1 1 1 1\n".repeat(200_000);
    let mut child = Watched::spawn(
        std::process::Command::new(cli_support::bin())
            .arg("verify")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // The writer may be gone before all is written: that is the point.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let output = child.wait_with_output();
    assert_eq!(text(&output.stderr), "");
    assert!(output.status.success(), "{:?}", output.status);
}
