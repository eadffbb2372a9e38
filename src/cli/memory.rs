//! The process's memory, as the kernel counts it: what a run's report gives as its peak, and
//! what a memory limit leaves the engine once the process itself is counted.

/// The most resident memory the process has held so far, in bytes (Linux; `None` elsewhere).
pub fn peak_bytes() -> Option<u64> {
    status_field("VmHWM:")
}

/// The resident memory the process holds now, in bytes (Linux; `None` elsewhere).
pub fn resident_bytes() -> Option<u64> {
    status_field("VmRSS:")
}

/// A `kB` field of `/proc/self/status`.
fn status_field(name: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with(name))?;
    let kib: u64 = line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn the_peak_is_at_least_what_is_held_now() {
        let now = resident_bytes().expect("Linux has /proc/self/status");
        let peak = peak_bytes().expect("Linux has /proc/self/status");
        assert!(now > 0 && peak >= now, "now {now}, peak {peak}");
    }
}
