//! Where solutions go: standard output, or a file the user named.
//!
//! A regular file (or one that does not exist yet) is written through a temporary file beside
//! it and renamed into place only when complete, so that a failed or interrupted run never
//! leaves a half-written file under the name the user asked for. Nothing the user did not
//! name is replaced: a symbolic link is followed and its target written (the temporary file
//! beside the target, so that the rename stays within one file system and the link is kept);
//! a device or a FIFO is opened and written in place, since renaming over it would replace the
//! device node instead of writing to it; and a descriptor this process already holds, named
//! through `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N`, is written where
//! it stands (the same open file, at its current offset, as a shell's `>` or `>>` left it),
//! never reopened or truncated. A new file gets the mode the umask gives (`0644` under `022`,
//! as `>` would), and a file written over keeps its mode and, where the process may set it,
//! its owner.
//!
//! The temporary file of `DIR/NAME` is `DIR/.NAME.nqueens-tmp`, locked (an advisory lock) for
//! as long as its run writes it. A second run writing the same file finds it locked and is
//! refused at once ([`nqueens::Error::InUse`]); a run killed with SIGKILL leaves its temporary
//! behind, unlocked, and the next run writing that file removes it and starts afresh.

use anyhow::{Context, Result};
use nqueens::claim;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Buffer size for both destinations. Small on purpose: the pieces of a solution stream are
/// larger, and a `BufWriter` passes writes larger than its buffer straight through, with no
/// copy.
const BUFFER: usize = 1 << 16;

/// Standard output, whose write errors say that it was standard output that could not be
/// written: every subcommand's results go through it, so a full disk reads the same from each
/// (`cannot write to standard output: No space left on device`), however the error is passed
/// on. A reader gone (`BrokenPipe`) keeps its kind, for the quiet exit.
pub struct StandardOutput(std::io::Stdout);

/// Standard output ([`StandardOutput`]).
pub fn stdout() -> StandardOutput {
    StandardOutput(std::io::stdout())
}

/// A failed write to standard output: its message, and the error beneath.
#[derive(Debug)]
pub struct CannotWriteStdout(pub std::io::Error);

impl std::fmt::Display for CannotWriteStdout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write to standard output: {}", self.0)
    }
}

impl std::error::Error for CannotWriteStdout {}

/// `error`, marked as standard output's (once).
fn of_stdout(error: std::io::Error) -> std::io::Error {
    if error
        .get_ref()
        .is_some_and(|inner| inner.is::<CannotWriteStdout>())
    {
        return error;
    }
    std::io::Error::new(error.kind(), CannotWriteStdout(error))
}

impl Write for StandardOutput {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.write(bytes).map_err(of_stdout)
    }
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.0.write_all(bytes).map_err(of_stdout)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(of_stdout)
    }
}

/// An open destination.
pub enum Output {
    /// Standard output.
    Stdout(BufWriter<StandardOutput>),
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
        writer: BufWriter<Temporary>,
        /// The name it gets when complete: the target of any symbolic links the user named.
        path: PathBuf,
        /// The mode and owner of the file it replaces, to be kept.
        keep: Option<Box<std::fs::Metadata>>,
        /// The file it replaces, locked until the output is renamed over it or dropped.
        _replaced: Option<File>,
    },
}

/// How a named path is to be written.
enum Target {
    /// Opened and written where it is.
    InPlace,
    /// A descriptor of this process: written through a duplicate of it.
    Descriptor(i32),
    /// Replaced by a complete file of this name (the end of any chain of symbolic links).
    Replace(PathBuf),
}

/// The descriptor `path` names if it is one of this process's (`/proc/self/fd/N`, which
/// `/dev/stdout` and `/dev/fd/N` lead to): its directory is this process's `fd` directory.
fn own_descriptor(path: &Path) -> Option<i32> {
    let number: i32 = path.file_name()?.to_str()?.parse().ok()?;
    let dir = path.parent()?.canonicalize().ok()?;
    let own = Path::new("/proc/self/fd").canonicalize().ok()?;
    let thread = Path::new("/proc/thread-self/fd").canonicalize().ok();
    (dir == own || Some(&dir) == thread.as_ref()).then_some(number)
}

/// Whether `path` names one of this process's descriptors (`/dev/stdout`, `/proc/self/fd/N`):
/// such an output is written through the descriptor itself, never replaced.
pub fn is_own_descriptor(path: &Path) -> bool {
    matches!(target(path), Ok(Target::Descriptor(_)))
}

/// Follows the chain of symbolic links that ends at `path`'s last component, and says how the
/// file it reaches is written. A path into `/proc` is a descriptor: one of this process's is
/// written through itself, another's in place (reopened), whatever it refers to.
fn target(path: &Path) -> std::io::Result<Target> {
    let mut current = path.to_path_buf();
    for _ in 0..claim::MAX_LINKS {
        if let Some(fd) = own_descriptor(&current) {
            return Ok(Target::Descriptor(fd));
        }
        let in_proc = current
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .and_then(|p| p.canonicalize().ok())
            .is_some_and(|p| p.starts_with("/proc"));
        if in_proc {
            return Ok(Target::InPlace);
        }
        if let Some(next) = claim::link_target(&current)? {
            current = next;
            continue;
        }
        return Ok(match std::fs::metadata(&current) {
            Ok(meta) if !meta.file_type().is_file() && !meta.is_dir() => Target::InPlace,
            _ => Target::Replace(current),
        });
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// A duplicate of this process's descriptor `fd`: the same open file, so writes go where the
/// shell's redirection left its offset, and move it on for whoever writes after.
#[cfg(unix)]
fn duplicate(fd: i32) -> std::io::Result<File> {
    use std::os::fd::BorrowedFd;
    // The descriptor was found open in /proc/self/fd a moment ago; `try_clone_to_owned` fails
    // cleanly (EBADF) if it has been closed since.
    // SAFETY: the borrow lasts for this one call, which only duplicates it.
    let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
    Ok(File::from(borrowed.try_clone_to_owned()?))
}

#[cfg(not(unix))]
fn duplicate(_: i32) -> std::io::Result<File> {
    Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
}

impl Output {
    /// Opens `path`, or standard output for `None`.
    pub fn open(path: Option<&Path>) -> Result<Output> {
        let Some(path) = path else {
            return Ok(Output::Stdout(BufWriter::with_capacity(BUFFER, stdout())));
        };
        let cannot = || format!("cannot write {}", path.display());
        // A file written in place may be a journal another run holds, reached through
        // `/proc/PID/fd/N` or a link to it: the open file is asked for its lock, not its name.
        let direct = |file: File| Output::Direct {
            writer: BufWriter::with_capacity(BUFFER, file),
            path: path.to_path_buf(),
        };
        // A file written in place may be a journal another run holds, reached through
        // `/proc/PID/fd/N` or a link to it: the file itself is asked for a lock, not its name.
        let target = match target(path).with_context(cannot)? {
            Target::Descriptor(fd) => {
                let file = duplicate(fd).with_context(cannot)?;
                // Asked through a fresh open of it: a lock taken and let go on the duplicate
                // would be taken from the description this process shares with its parent.
                let fresh = PathBuf::from(format!("/proc/self/fd/{fd}"));
                if file.metadata().is_ok_and(|m| m.is_file())
                    && claim::held(&fresh).unwrap_or(false)
                {
                    return Err(in_use(path));
                }
                return Ok(direct(file));
            }
            Target::InPlace => {
                // Appending writes a descriptor of another process opened by `>` from its
                // start and one opened by `>>` at its end; a device or a FIFO has no position.
                let file = OpenOptions::new()
                    .append(true)
                    .open(path)
                    .with_context(cannot)?;
                // This open is the run's own: asking it for a lock touches no one else's.
                if claim::held_open(&file).unwrap_or(false) {
                    return Err(in_use(path));
                }
                return Ok(direct(file));
            }
            Target::Replace(target) => target,
        };
        if target.is_dir() {
            anyhow::bail!("cannot write {}: it is a directory", path.display());
        }
        let keep = std::fs::metadata(&target).ok().map(Box::new);
        let temporary = Temporary::create(&target)?;
        // Locked first, then the file it replaces locked too (`nqueens::claim`): a journal
        // another run appends to would be renamed over, its run's records lost, and another
        // run's output reached by a hard link would be written twice at once.
        let replaced = match claim::hold_replaced(&target) {
            Ok(claim::Replaced::InUse) => return Err(in_use(path)),
            Ok(claim::Replaced::Held(file)) => Some(file),
            Ok(claim::Replaced::Nothing) | Err(_) => None,
        };
        super::interrupt::watch_temporary(temporary.path.clone());
        Ok(Output::File {
            writer: BufWriter::with_capacity(BUFFER, temporary),
            path: target,
            keep,
            _replaced: replaced,
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
                other => Ok(other?),
            },
            Output::Direct { mut writer, path } => writer
                .flush()
                .with_context(|| format!("cannot write {}", path.display())),
            Output::File {
                writer, path, keep, ..
            } => {
                let cannot = || format!("cannot write {}", path.display());
                let mut temporary = writer
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .with_context(cannot)?;
                super::interrupt::forget_temporary(&temporary.path);
                if let Some(old) = &keep {
                    keep_mode_and_owner(&temporary.file, old).with_context(cannot)?;
                }
                temporary.file.sync_all().with_context(cannot)?;
                // Renamed while still locked: a run waiting for the name sees it complete.
                std::fs::rename(&temporary.path, &path).with_context(cannot)?;
                temporary.renamed = true;
                // The new name, not only the bytes, through a power loss.
                claim::sync_directory_of(&path).with_context(cannot)?;
                Ok(())
            }
        }
    }
}

/// The temporary file that becomes a file the user named: locked while its run writes it,
/// removed if the run fails.
pub struct Temporary {
    file: File,
    path: PathBuf,
    /// Whether it has become the named file (and must not be removed).
    renamed: bool,
}

impl Temporary {
    /// Creates and locks the temporary file of `target`. One left by a run that died is
    /// removed first; one that a running run holds is the error [`nqueens::Error::InUse`].
    fn create(target: &Path) -> Result<Temporary> {
        let path = claim::temporary_path(target);
        let cannot = || {
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
            format!(
                "cannot create a file in {}",
                dir.unwrap_or(Path::new(".")).display()
            )
        };
        // Twice over at most: a stale file removed, then the fresh one made. A third round
        // would mean another run is making and removing it at the same moment.
        for _ in 0..3 {
            match new_file(&path) {
                Ok(file) => {
                    if lock(&file, target, &path)? {
                        return Ok(Temporary {
                            file,
                            path,
                            renamed: false,
                        });
                    }
                    continue;
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e).with_context(cannot),
            }
            let stale = match File::open(&path) {
                Ok(file) => file,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e).with_context(cannot),
            };
            if lock(&stale, target, &path)? {
                // Its run is gone (its lock went with it): what it left is no one's.
                let _ = std::fs::remove_file(&path);
            }
        }
        Err(nqueens::Error::InUse(format!(
            "cannot write {}: other runs keep making and removing {}",
            target.display(),
            path.display()
        ))
        .into())
    }
}

/// The error for an output that names a file another run holds locked.
fn in_use(path: &Path) -> anyhow::Error {
    nqueens::Error::InUse(format!(
        "cannot write {}: another nqueens run is using it (as its checkpoint journal, or an \
         output it is writing), or another program holds its lock; wait for it to end, or \
         write another file",
        path.display()
    ))
    .into()
}

/// A new file at `path`, with read and write for all before the umask, as the shell's `>`
/// creates one; it must not exist yet.
fn new_file(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o666);
    }
    options.open(path)
}

/// Locks `file`, the temporary `path` of `target`, if it is still the file at `path`
/// (`false` when another run removed or replaced it meanwhile); a lock held by a running run
/// is the error [`nqueens::Error::InUse`].
fn lock(file: &File, target: &Path, path: &Path) -> Result<bool> {
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(nqueens::Error::InUse(format!(
                "cannot write {}: another nqueens run is writing it (its temporary file {} is \
                 locked); wait for that run to end, or write another file",
                target.display(),
                path.display()
            ))
            .into());
        }
        // A file system without locks: written as before, unguarded.
        Err(std::fs::TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {}
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("cannot lock {}", path.display()));
        }
    }
    Ok(same_file(file, path))
}

/// Whether `file` is the file now at `path`.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => identity(&a) == identity(&b),
        _ => false,
    }
}

/// What makes two names one file: its device and inode.
#[cfg(unix)]
pub fn identity(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn same_file(_: &File, path: &Path) -> bool {
    path.exists()
}

impl Write for Temporary {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.file.write(bytes)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Drop for Temporary {
    /// A run that did not finish leaves nothing (removed while still locked).
    fn drop(&mut self) {
        if !self.renamed {
            super::interrupt::forget_temporary(&self.path);
            let _ = std::fs::remove_file(&self.path);
        }
    }
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
