//! Which file an output of the program is, by any name, and whether another run holds it:
//! the one protocol every file the program writes keeps (journals, `solve -o`, `find -o`,
//! `--subtotals`), and the journal's side of it (its lock, and its refusal of a file another
//! run is writing).
//!
//! A file the program writes is either appended to in place while a run holds its lock (a
//! checkpoint journal), or made whole under a temporary name beside it, locked while it is
//! written, and renamed over it (every other output). Two runs writing one file would lose
//! one's work, so each kind looks for the other's lock after taking its own, which makes the
//! two checks safe against a race: a run that writes through a temporary file locks it and
//! then refuses a target another run holds (a journal in use); a journal locks itself and
//! then refuses a file whose temporary another run holds (an output being written). Both
//! look at the file a name finally leads to: the end of its chain of symbolic links, dangling
//! or not, so a link to a journal is the journal. A run writing an output also locks the file
//! it will replace ([`hold_replaced`]), so that a hard link to it, which shares no name with
//! the temporary, is found held too.

use super::record::fnv1a;
use crate::error::Error;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// More links than this in a chain is a loop (Linux's own limit is 40).
pub const MAX_LINKS: usize = 40;

/// What a temporary file's name adds to the name of the file it becomes.
const TEMPORARY_SUFFIX: &str = ".nqueens-tmp";

/// Where the symbolic link at `path` points (relative to its directory where its text is
/// relative), or `None` when `path` is not a symbolic link (or does not exist).
pub fn link_target(path: &Path) -> io::Result<Option<PathBuf>> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            let link = std::fs::read_link(path)?;
            Ok(Some(match path.parent() {
                Some(dir) if link.is_relative() => dir.join(link),
                _ => link,
            }))
        }
        _ => Ok(None),
    }
}

/// The path `path` finally leads to: the end of its chain of symbolic links, whether or not
/// a file is there yet (`ln -s st link`: `link` leads to `st`, written when `link` is).
pub fn final_path(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match link_target(&current)? {
            Some(next) => current = next,
            None => return Ok(current),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The temporary file an output to `target` (a final path) is written through, beside it:
/// `.NAME.nqueens-tmp`, or for a name too long to take the additions, one made of its
/// checksum.
pub fn temporary_path(target: &Path) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.unwrap_or_default();
    let short = if name.len() + 1 + TEMPORARY_SUFFIX.len() <= 255 {
        format!(".{name}{TEMPORARY_SUFFIX}")
    } else {
        format!(".{:016x}{TEMPORARY_SUFFIX}", fnv1a(&name))
    };
    target.with_file_name(short)
}

/// Whether another open file holds a lock on the file at `path` (a journal in use, a
/// temporary file being written): `false` when there is no file there, or the file system
/// keeps no locks.
pub fn held(path: &Path) -> io::Result<bool> {
    match File::open(path) {
        Ok(file) => held_open(&file),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Whether another open file holds a lock on the regular file `file` is open on: the check
/// for an output written in place, whatever name reached it (`/proc/PID/fd/N`, a link to
/// one, `/dev/stdout`): the file itself is asked, not its name. `false` for anything but a
/// regular file (a terminal, a pipe, a device: no run's journal), or where the file system
/// keeps no locks. A lock taken to ask is let go at once.
pub fn held_open(file: &File) -> io::Result<bool> {
    if !file.metadata()?.is_file() {
        return Ok(false);
    }
    match file.try_lock_shared() {
        Ok(()) => {
            file.unlock()?;
            Ok(false)
        }
        Err(std::fs::TryLockError::WouldBlock) => Ok(true),
        Err(std::fs::TryLockError::Error(e)) if e.kind() == io::ErrorKind::Unsupported => Ok(false),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

/// What [`hold_replaced`] found at an output's target.
#[derive(Debug)]
pub enum Replaced {
    /// The file there, locked by this run while its replacement is written: another run that
    /// reaches it by any name, a hard link included, finds it held.
    Held(File),
    /// No file there yet (or one this run cannot open, or a file system without locks).
    Nothing,
    /// Another run holds it: a journal in use, or the file another output replaces.
    InUse,
}

/// Locks the file an output is about to replace (`target`, a final path), for as long as the
/// returned file is open. The lock is on the file, not on a name: a hard link to an output
/// being written names the same locked file, where the temporary beside the output's own name
/// would not be found from it. Taken after the run's temporary is locked, and with a try, not
/// a look: of two runs that reach one file at once, one is refused.
pub fn hold_replaced(target: &Path) -> io::Result<Replaced> {
    let file = match File::open(target) {
        Ok(file) if file.metadata()?.is_file() => file,
        Ok(_) => return Ok(Replaced::Nothing),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Replaced::Nothing),
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => return Ok(Replaced::Nothing),
        Err(e) => return Err(e),
    };
    match file.try_lock() {
        Ok(()) => Ok(Replaced::Held(file)),
        Err(std::fs::TryLockError::WouldBlock) => Ok(Replaced::InUse),
        Err(std::fs::TryLockError::Error(e)) if e.kind() == io::ErrorKind::Unsupported => {
            Ok(Replaced::Nothing)
        }
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

/// Syncs the directory that holds `path` (the current one for a bare name), so that a file
/// just made or renamed there keeps its name through a power loss, not only its bytes.
pub fn sync_directory_of(path: &Path) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    File::open(dir)?.sync_all()
}

/// Whether another run is writing an output to `target` (a final path) now: its temporary
/// file is there and locked.
pub fn being_written(target: &Path) -> io::Result<bool> {
    held(&temporary_path(target))
}

/// Locks a journal's `file` for as long as it is open, or says that another run holds it.
pub(crate) fn lock_journal(file: &File, path: &Path) -> Result<(), Error> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(Error::InUse(format!(
            "checkpoint journal {}: another run is using this journal (it holds its lock); wait for \
             that run to end, or use another file",
            path.display()
        ))),
        // A file system without locks: the journal works as before.
        Err(std::fs::TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
            Ok(())
        }
        Err(std::fs::TryLockError::Error(e)) => {
            Err(Error::checkpoint_io(path, "cannot lock it", e))
        }
    }
}

/// Refuses a journal whose file another run is writing an output to (`claim`: its temporary
/// is locked), once this journal holds its own lock: that run would rename its output over
/// the journal. A file this run made for nothing (`existed` false, still empty) is removed.
pub(crate) fn refuse_an_output_being_written(
    path: &Path,
    existed: bool,
    length: u64,
) -> Result<(), Error> {
    let target = final_path(path).map_err(|e| Error::checkpoint_io(path, "", e))?;
    if !being_written(&target).unwrap_or(false) {
        return Ok(());
    }
    if !existed && length == 0 {
        let _ = std::fs::remove_file(&target);
    }
    Err(Error::InUse(format!(
        "checkpoint journal {}: another nqueens run is writing this file (its temporary file {} is \
         locked); wait for that run to end, or use another file",
        path.display(),
        temporary_path(&target).display()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_of_links_leads_to_its_end_even_where_nothing_is_yet() {
        let dir = tempfile::tempdir().unwrap();
        let end = dir.path().join("st");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("st", dir.path().join("one")).unwrap();
            std::os::unix::fs::symlink(dir.path().join("one"), dir.path().join("two")).unwrap();
            assert_eq!(final_path(&dir.path().join("two")).unwrap(), end);
            std::os::unix::fs::symlink("loop", dir.path().join("loop")).unwrap();
            assert!(final_path(&dir.path().join("loop")).is_err());
        }
        assert_eq!(final_path(&end).unwrap(), end);
    }

    #[test]
    fn a_lock_held_by_another_open_file_is_seen_and_none_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal");
        assert!(!held(&path).unwrap());
        let file = File::create(&path).unwrap();
        assert!(!held(&path).unwrap());
        file.lock().unwrap();
        assert!(held(&path).unwrap());
        drop(file);
        assert!(!held(&path).unwrap());
        assert_eq!(
            temporary_path(&path),
            dir.path().join(".journal.nqueens-tmp")
        );
        let long = dir.path().join("x".repeat(250));
        assert_eq!(
            temporary_path(&long).file_name().unwrap().len(),
            ".".len() + 16 + TEMPORARY_SUFFIX.len()
        );
    }
}
