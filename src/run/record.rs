//! What checkpoint journals and shard result files share: the checksum that guards their lines
//! and the check that a path is a regular file.

use std::path::Path;

/// Refuses anything but a regular file (or a path that does not exist yet): a FIFO would
/// block, a device would be read without end, a directory cannot be a journal.
pub(crate) fn check_regular(path: &Path) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(format!(
            "{}: not a regular file (a checkpoint journal must be one)",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// FNV-1a, 64 bits: a checksum against torn and damaged lines, not against forgery.
pub fn fnv1a(text: &str) -> u64 {
    fnv1a_on(0xcbf2_9ce4_8422_2325, text.as_bytes())
}

/// FNV-1a of what `hash` is the checksum of, followed by `bytes`: a checksum of text that
/// shares its start with many others (every record of a journal starts with the run's
/// identity) is that start's, carried on.
pub(crate) fn fnv1a_on(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
