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
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(code: ExitCode) -> Self {
        std::process::ExitCode::from(code as u8)
    }
}
