//! Where solutions go: standard output, or a file the user named.
//!
//! A regular file (or one that does not exist yet) is written through a temporary file beside
//! it and renamed into place only when complete, so that a failed or interrupted run never
//! leaves a half-written file under the name the user asked for. Nothing the user did not
//! name is replaced: a symbolic link is followed and its target written (the temporary file
//! beside the target, so that the rename stays within one file system and the link is kept);
//! a device, a FIFO or a descriptor named through `/proc` (`/dev/stdout`, `/dev/fd/N`) is
//! opened and written in place, since renaming over it would replace the device node or the
//! link instead of writing to it. A new file gets the mode the umask gives (`0644` under
//! `022`, as `>` would), and a file written over keeps its mode and, where the process may
//! set it, its owner.

use anyhow::{Context, Result};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// Buffer size for both destinations. Small on purpose: the pieces of a solution stream are
/// larger, and a `BufWriter` passes writes larger than its buffer straight through, with no
/// copy.
const BUFFER: usize = 1 << 16;

/// More links than this in a chain is a loop (Linux's own limit is 40).
const MAX_LINKS: usize = 40;

/// An open destination.
pub enum Output {
    /// Standard output.
    Stdout(BufWriter<std::io::Stdout>),
    /// A file written in place: a device, a FIFO, a descriptor.
    Direct {
        /// The buffered file.
        writer: BufWriter<File>,
        /// The name the user gave, for messages.
        path: PathBuf,
    },
    /// A temporary file that becomes `path` on [`Output::finish`].
    File {
        /// The buffered temporary file.
        writer: BufWriter<NamedTempFile>,
        /// The name it gets when complete: the target of any symbolic links the user named.
        path: PathBuf,
        /// The mode and owner of the file it replaces, to be kept.
        keep: Option<Box<std::fs::Metadata>>,
    },
}

/// How a named path is to be written.
enum Target {
    /// Opened and written where it is.
    InPlace,
    /// Replaced by a complete file of this name (the end of any chain of symbolic links).
    Replace(PathBuf),
}

/// Follows the chain of symbolic links that ends at `path`'s last component, and says how the
/// file it reaches is written. A link into `/proc` is a descriptor (`/dev/stdout` is one): it
/// is written in place whatever it refers to, as the shell's redirection opened it.
fn target(path: &Path) -> std::io::Result<Target> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let in_proc = current
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .and_then(|p| p.canonicalize().ok())
            .is_some_and(|p| p.starts_with("/proc"));
        if in_proc {
            return Ok(Target::InPlace);
        }
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            Ok(meta) if !meta.file_type().is_file() && !meta.is_dir() => {
                return Ok(Target::InPlace);
            }
            _ => return Ok(Target::Replace(current)),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
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
        let cannot = || format!("cannot write {}", path.display());
        let target = match target(path).with_context(cannot)? {
            Target::InPlace => {
                // Appending writes a descriptor opened by `>` from its start and one opened
                // by `>>` at its end; a device or a FIFO has no position at all.
                let file = OpenOptions::new()
                    .append(true)
                    .open(path)
                    .with_context(cannot)?;
                return Ok(Output::Direct {
                    writer: BufWriter::with_capacity(BUFFER, file),
                    path: path.to_path_buf(),
                });
            }
            Target::Replace(target) => target,
        };
        if target.is_dir() {
            anyhow::bail!("cannot write {}: it is a directory", path.display());
        }
        let keep = std::fs::metadata(&target).ok().map(Box::new);
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let temp = temporary()
            .tempfile_in(dir)
            .with_context(|| format!("cannot create a file in {}", dir.display()))?;
        super::interrupt::watch_temporary(temp.path().to_path_buf());
        Ok(Output::File {
            writer: BufWriter::with_capacity(BUFFER, temp),
            path: target,
            keep,
        })
    }

    /// The writer to write to.
    pub fn writer(&mut self) -> &mut (dyn Write + Send) {
        match self {
            Output::Stdout(w) => w,
            Output::Direct { writer, .. } => writer,
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
            Output::Direct { mut writer, path } => writer
                .flush()
                .with_context(|| format!("cannot write {}", path.display())),
            Output::File { writer, path, keep } => {
                let cannot = || format!("cannot write {}", path.display());
                let temp = writer
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .with_context(cannot)?;
                super::interrupt::forget_temporary(temp.path());
                if let Some(old) = &keep {
                    keep_mode_and_owner(temp.as_file(), old).with_context(cannot)?;
                }
                temp.as_file().sync_all().with_context(cannot)?;
                temp.persist(&path)
                    .map_err(|e| e.error)
                    .with_context(cannot)?;
                Ok(())
            }
        }
    }
}

/// The temporary file's builder. On Unix a new file is created with read and write for all,
/// as the shell's `>` creates one, and the kernel then clears the umask's bits (tempfile's
/// own default, `0600`, would ignore the umask).
fn temporary() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder
}

/// Gives `file` the mode of the file it replaces, and its owner where the process may (as
/// root): a file written over keeps who may read it.
#[cfg(unix)]
fn keep_mode_and_owner(file: &File, old: &std::fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    file.set_permissions(old.permissions())?;
    let new = file.metadata()?;
    if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
        // Only root may give a file away; anyone else keeps the new file as theirs, as
        // writing a copy and renaming it always does.
        let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
    }
    Ok(())
}

#[cfg(not(unix))]
fn keep_mode_and_owner(file: &File, old: &std::fs::Metadata) -> std::io::Result<()> {
    file.set_permissions(old.permissions())
}
