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

/// The sum of tasks' values, or `None` past 2^128 - 1: values read back from files are
/// added with this, never with a sum that wraps (a forged record would print a wrong count).
pub fn total_units<'a>(values: impl IntoIterator<Item = &'a u128>) -> Option<u128> {
    values
        .into_iter()
        .try_fold(0u128, |total, &value| total.checked_add(value))
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
