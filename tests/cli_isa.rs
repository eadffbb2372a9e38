//! `NQUEENS_ISA` caps the instruction sets every engine may use, so that one machine runs
//! every build (issue 73): under each cap the processor has, both engines count the known
//! values, report the build that ran, and agree with the other caps; a cap the processor
//! lacks, or a name that is none, is exit 2 with one line that says why.

mod cli_support;

use cli_support::{output, text};
use nqueens::InstructionSets;
use serde_json::Value;
use std::process::{Command, Stdio};

/// Every cap, the fewest sets first.
const CAPS: [InstructionSets; 3] = [
    InstructionSets::Portable,
    InstructionSets::Avx2,
    InstructionSets::Avx512,
];

/// `nqueens ARGS` under `NQUEENS_ISA=cap`: exit code, stdout, stderr.
fn run_capped(cap: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let out = output(
        Command::new(cli_support::bin())
            .args(args)
            .env("NQUEENS_ISA", cap)
            .stdout(Stdio::piped()),
    );
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// The JSON lines of `nqueens ARGS --json` under `cap`, which must succeed.
fn json_lines(cap: &str, args: &[&str]) -> Vec<Value> {
    let args = [args, &["--json"]].concat();
    let (code, stdout, stderr) = run_capped(cap, &args);
    assert_eq!(code, Some(0), "NQUEENS_ISA={cap} {args:?}: {stderr}");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!(!lines.is_empty(), "NQUEENS_ISA={cap} {args:?}: no output");
    lines
}

/// The builds a cap leaves each engine on a processor with all of it: (join, search).
fn builds_under(cap: InstructionSets) -> (&'static str, &'static str) {
    match cap {
        InstructionSets::Portable => ("portable", "portable"),
        InstructionSets::Avx2 => ("avx2", "bmi2"),
        // The best each engine has: both AVX-512 builds need features beyond the cap's name.
        InstructionSets::Avx512 => (
            nqueens::join::instruction_set(),
            nqueens::search_instruction_set(),
        ),
    }
}

#[test]
fn every_cap_counts_the_known_values_and_agrees_with_the_others() {
    let mut results: Vec<(String, Vec<Value>)> = Vec::new();
    for cap in CAPS {
        let name = cap.name();
        let missing = cap.missing();
        if !missing.is_empty() {
            // This processor lacks the cap: refused, naming what it lacks.
            let (code, stdout, stderr) = run_capped(name, &["count", "8"]);
            assert_eq!((code, stdout.as_str()), (Some(2), ""), "{name}: {stderr}");
            for feature in &missing {
                assert!(stderr.contains(feature), "{name}: {stderr}");
            }
            continue;
        }
        let (join_build, search_build) = builds_under(cap);
        let mut lines = Vec::new();
        for (engine, sizes, build) in [
            ("join", "8..15", join_build),
            ("search", "4..14", search_build),
        ] {
            for line in json_lines(name, &["count", sizes, "--engine", engine]) {
                assert_eq!(line["match"], true, "{name}: {line}");
                assert_eq!(line["build"], build, "{name}: {line}");
                lines.push(line);
            }
        }
        lines.extend(json_lines(name, &["count", "16", "--engine", "join"]));
        lines.extend(json_lines(name, &["count", "13", "--unique"]));
        lines.extend(json_lines(
            name,
            &["count", "12", "--engine", "search", "--symmetry", "mirror"],
        ));
        results.push((name.to_owned(), lines));
    }
    // The figures that are the count, the same under every cap.
    let counted = |line: &Value| {
        let fields = ["n", "solutions", "unique", "engine", "tasks", "known"];
        fields.map(|f| line[f].clone())
    };
    let (first, first_lines) = &results[0];
    // 8..15 and 4..14, then three single counts.
    assert_eq!(first_lines.len(), 8 + 11 + 3, "{first}");
    for (name, lines) in &results[1..] {
        assert_eq!(lines.len(), first_lines.len());
        for (line, other) in lines.iter().zip(first_lines) {
            assert_eq!(counted(line), counted(other), "{name} against {first}");
        }
    }
    assert!(!results.is_empty(), "not even the portable cap ran");
}

/// The solutions a capped search writes are the same bytes under every cap it can run.
#[test]
fn every_cap_writes_the_same_solutions() {
    let runnable = CAPS.into_iter().filter(|cap| cap.missing().is_empty());
    let written: Vec<(String, String)> = runnable
        .map(|cap| {
            let (code, stdout, stderr) = run_capped(cap.name(), &["solve", "9", "-f", "perm"]);
            assert_eq!(code, Some(0), "{}: {stderr}", cap.name());
            (cap.name().to_owned(), stdout)
        })
        .collect();
    assert_eq!(written[0].1.lines().count(), 352, "{}", written[0].0);
    for (name, stdout) in &written[1..] {
        assert!(stdout == &written[0].1, "{name} against {}", written[0].0);
    }
}

#[test]
fn a_cap_that_is_no_instruction_set_is_exit_2_and_an_empty_one_no_cap() {
    let (code, stdout, stderr) = run_capped("sse9", &["count", "8"]);
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert_eq!(
        stderr,
        "error: NQUEENS_ISA=sse9: expected avx512, avx2 or portable\n"
    );
    let (code, stdout, _) = run_capped("", &["count", "8"]);
    assert_eq!((code, stdout.as_str()), (Some(0), "92\n"));
}
