//! The exit codes of the binary, all in one place.

/// How the process ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitCode {
    /// Everything worked and every check passed.
    Success = 0,
    /// A check failed: a count disagreed with the known value, or a run failed.
    Failure = 1,
    /// The command line was wrong.
    Usage = 2,
    /// The result was printed, but a file the run was to keep (a checkpoint journal, a
    /// subtotals file) could not be written: a full disk, say.
    NotKept = 3,
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(code: ExitCode) -> Self {
        std::process::ExitCode::from(code as u8)
    }
}

/// Every status the process can end with and what it means, for the manual's EXIT STATUS
/// section (README.md's table says the same at more length).
pub const MEANINGS: &[(i32, &str)] = &[
    (ExitCode::Success as i32, "success"),
    (
        ExitCode::Failure as i32,
        "a count disagreed with the known value, or past the known values is not a multiple \
         of 4, verify found an invalid or incomplete set, find was asked for n = 2 or 3, merge \
         was given shards that do not add up, audit found a recorded value that differs from \
         its recount, selftest or bench found a wrong count, or a run failed (a full disk, a \
         memory limit too small)",
    ),
    (
        ExitCode::Usage as i32,
        "a bad command line, a file that must be regular and is not or does not exist, a file \
         another nqueens run is using (by any name), input verify cannot read, a checkpoint \
         journal a resume cannot take (damaged, of another run), a file merge cannot read as a \
         shard result of this version, a file audit cannot read as a journal or subtotals file \
         of this version (damaged, cut short, or recording no task), or a bench baseline of \
         another benchmark or workload",
    ),
    (
        ExitCode::NotKept as i32,
        "count printed its result, but a file it was to keep (a checkpoint journal, a \
         subtotals file) could not be written; the error names it",
    ),
    (
        super::interrupt::INTERRUPTED,
        "any command but serve (count with its double check, solve, verify, audit, selftest, \
         ...) interrupted by SIGINT (Ctrl-C), SIGTERM or SIGHUP; a checkpoint journal is kept \
         whole (serve stops on these, its usual end, with 0)",
    ),
];
