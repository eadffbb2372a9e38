//! What the command-line tests of `solve`, `find`, `verify` and the edges share: the binary
//! under test, and its standard output for a run that must succeed.

use assert_cmd::Command;

/// The `nqueens` binary of this build.
pub fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// What `nqueens args` writes on stdout; the run must succeed.
pub fn stdout(args: &[&str]) -> Vec<u8> {
    nqueens()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}
