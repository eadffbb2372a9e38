//! Where solutions go: standard output, or a file written through a temporary file beside it
//! and renamed into place only when complete, so that a failed or interrupted run never leaves
//! a half-written file under the name the user asked for.

use anyhow::{Context, Result};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// Buffer size for both destinations. Small on purpose: the pieces of a solution stream are
/// larger, and a `BufWriter` passes writes larger than its buffer straight through, with no
/// copy.
const BUFFER: usize = 1 << 16;

/// An open destination.
pub enum Output {
    /// Standard output.
    Stdout(BufWriter<std::io::Stdout>),
    /// A temporary file that becomes `path` on [`Output::finish`].
    File {
        /// The buffered temporary file.
        writer: BufWriter<NamedTempFile>,
        /// The name it gets when complete.
        path: PathBuf,
    },
}

impl Output {
    /// Opens `path`, or standard output for `None`.
    pub fn open(path: Option<&Path>) -> Result<Output> {
        let Some(path) = path else {
            return Ok(Output::Stdout(BufWriter::with_capacity(
                BUFFER,
                std::io::stdout(),
            )));
        };
        if path.is_dir() {
            anyhow::bail!("cannot write {}: it is a directory", path.display());
        }
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let temp = NamedTempFile::new_in(dir)
            .with_context(|| format!("cannot create a file in {}", dir.display()))?;
        super::interrupt::watch_temporary(temp.path().to_path_buf());
        Ok(Output::File {
            writer: BufWriter::with_capacity(BUFFER, temp),
            path: path.to_path_buf(),
        })
    }

    /// The writer to write to.
    pub fn writer(&mut self) -> &mut (dyn Write + Send) {
        match self {
            Output::Stdout(w) => w,
            Output::File { writer, .. } => writer,
        }
    }

    /// Flushes, and gives a file its final name. Dropping an unfinished output removes its
    /// temporary file.
    pub fn finish(self) -> Result<()> {
        match self {
            Output::Stdout(mut w) => match w.flush() {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => other.context("cannot write to standard output"),
            },
            Output::File { writer, path } => {
                let temp = writer
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .with_context(|| format!("cannot write {}", path.display()))?;
                super::interrupt::forget_temporary(temp.path());
                temp.as_file()
                    .sync_all()
                    .with_context(|| format!("cannot write {}", path.display()))?;
                temp.persist(&path)
                    .map_err(|e| e.error)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                Ok(())
            }
        }
    }
}
