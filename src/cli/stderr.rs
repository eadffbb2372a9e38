//! Standard error that never stops the run: every diagnostic line (notes, warnings, errors,
//! progress) goes through [`say!`], which drops what stderr cannot take.
//!
//! A terminal that hung up, a closed pipe (`2>&1 | head -1`) or a full disk (`2>/dev/full`)
//! makes a write to stderr fail. `eprintln!` panics then, and a panic there lost finished
//! results (exit 101 with stdout empty) and killed the signal handler's thread, so the run
//! could no longer be stopped. A diagnostic that cannot be shown is not worth a result: the
//! line is dropped, and the run goes on to write its result to stdout and exit with its own
//! code.

use std::io::Write;

/// Writes one line to stderr, ignoring a failure to write it (see the module's doc).
pub fn line(text: std::fmt::Arguments) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr
        .write_fmt(text)
        .and_then(|()| stderr.write_all(b"\n"));
}

/// `eprintln!` that never panics: the line is dropped when stderr cannot take it.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::stderr::line(format_args!($($arg)*))
    };
}
pub(crate) use say;
