//! Files a command reads whole as one document (a shard result for `merge`, a saved result for
//! `bench --baseline`): a regular file of bounded size, or a one-line error. A device
//! (`/dev/zero`) would be read without end, a FIFO with no writer would block the open, and a
//! file of gigabytes would be held whole: each is refused before it is read.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::Path;

/// The most bytes a shard result may hold: the task list of one shard of the largest join
/// plan (n = 28, some 40 million tasks, ten digits and a comma each) with room to spare.
pub const MAX_SHARD_BYTES: u64 = 1 << 30;

/// The most bytes a saved `bench --json` result may hold: a row per engine and thread count
/// (at most 1024 threads), a few hundred bytes each, with room to spare.
pub const MAX_BASELINE_BYTES: u64 = 4 << 20;

/// Reads the regular file at `path` whole as UTF-8 text, without a byte-order mark an editor
/// put before it; `what` names what it must be (`a shard result`) in the error, which starts
/// with the path and says what is wrong in one line.
pub fn read(path: &Path, what: &str, max_bytes: u64) -> Result<String, String> {
    let name = path.display();
    let file = open(path).map_err(|e| format!("{name}: cannot read it: {e}"))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("{name}: cannot read it: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{name}: not a regular file ({what} must be one)"));
    }
    let too_large = || {
        format!(
            "{name}: {} bytes or more, larger than {what} can be ({max_bytes} bytes at most)",
            max_bytes + 1
        )
    };
    if meta.len() > max_bytes {
        return Err(too_large());
    }
    // Bounded again as it is read: a file that grows while it is read stops at the bound.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: cannot read it: {e}"))?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large());
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{name}: not {what} (not text)"))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// Opens `path` for reading without blocking: a FIFO with no writer opens at once (and is
/// then refused as not a regular file) instead of hanging the command.
fn open(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_is_a_regular_file_of_bounded_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        std::fs::write(&path, "\u{feff}{}").unwrap();
        assert_eq!(read(&path, "a result", 10).unwrap(), "{}");
        std::fs::write(&path, "x".repeat(11)).unwrap();
        let error = read(&path, "a result", 10).unwrap_err();
        assert!(
            error.contains("larger than a result can be (10 bytes"),
            "{error}"
        );
        let error = read(dir.path(), "a result", 10).unwrap_err();
        assert!(error.contains("not a regular file"), "{error}");
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(
            read(&path, "a result", 10)
                .unwrap_err()
                .contains("not text")
        );
    }

    /// Regression (edges VI): `bench --baseline /dev/zero` grew without end, and a FIFO with
    /// no writer hung the open.
    #[cfg(unix)]
    #[test]
    fn a_device_and_a_fifo_are_refused_at_once() {
        let error = read(Path::new("/dev/zero"), "a result", 10).unwrap_err();
        assert!(error.contains("not a regular file"), "{error}");
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let error = read(&fifo, "a result", 10).unwrap_err();
        assert!(error.contains("not a regular file"), "{error}");
    }
}
