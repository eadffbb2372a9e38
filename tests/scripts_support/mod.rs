//! What the script tests (`scripts.rs`, `scripts_runs.rs`) share: running `scripts/NAME` with
//! bash under a deadline (a hang, or a build started by mistake, fails the test instead of
//! stalling the suite), a refusal's shape, faked binaries, and the `nqueens` built for the
//! tests. Each test file uses a part of it.

#![allow(dead_code)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The longest a script may take here: its fast paths take milliseconds, so only a hang (or a
/// build started by mistake) reaches it.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// Runs `scripts/NAME` with `args`.
pub fn script(name: &str, args: &[&str]) -> Output {
    script_in(name, args, &mut Command::new("bash"))
}

/// Runs `scripts/NAME` with `args` through `bash` (a command that may carry a directory and an
/// environment), killed and failed past [`DEADLINE`]; fails when bash cannot start.
pub fn script_in(name: &str, args: &[&str], bash: &mut Command) -> Output {
    let path = format!("{}/scripts/{name}", env!("CARGO_MANIFEST_DIR"));
    let child = bash
        .arg(path)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => panic!("bash cannot start ({e}): the script tests need bash"),
    };
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("{name} {args:?} still ran after {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Asserts that `args` are refused with `reason` (and the usage) on stderr, exit 2.
pub fn refused(name: &str, args: &[&str], reason: &str) {
    let output = script(name, args);
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

/// Writes an executable shell script `body` at `path` (its folder made first).
pub fn fake(path: &Path, body: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The binary the scripts run, built by cargo for the tests (none without the `cli` feature:
/// then the tests that need it say so and check nothing).
pub fn nqueens() -> Option<&'static str> {
    let bin = option_env!("CARGO_BIN_EXE_nqueens");
    if bin.is_none() {
        eprintln!("SKIPPED: scripts: no nqueens binary (feature cli off): NOT tested");
    }
    bin
}

/// Runs `scripts/NAME` with `args` and the environment `env`, like [`script`].
pub fn script_with(name: &str, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut bash = Command::new("bash");
    for (key, value) in env {
        bash.env(key, value);
    }
    script_in(name, args, &mut bash)
}
