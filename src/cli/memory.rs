//! The process's memory, as the kernel counts it: what a run's report gives as its peak, and
//! what a memory limit leaves the engine once the process itself is counted.

/// What a worker thread holds beside the engine's data, at most: its stack and the
/// allocator's pages of its own. Under `--max-memory` (no transparent huge pages) a thread
/// took 0.05 MiB (the search at n = 12, 256 threads) to 0.07 MiB (the join engine at n = 14,
/// 890 threads) beside the engine's data; a quarter of a MiB leaves room to spare.
pub const THREAD_OVERHEAD: u64 = 256 << 10;

/// The most resident memory the process has held so far, in bytes (Linux; `None` elsewhere).
pub fn peak_bytes() -> Option<u64> {
    status_field("VmHWM:")
}

/// The resident memory the process holds now, in bytes (Linux; `None` elsewhere).
pub fn resident_bytes() -> Option<u64> {
    status_field("VmRSS:")
}

/// Stops the kernel backing this process with transparent huge pages (Linux). The allocator
/// asks for them, and each one it touches is 2 MiB resident, however little of it is used:
/// tens of MiB beyond what the program holds. Under a memory limit that slack would break
/// the limit; without one it is worth its speed (about 15 % at n = 18), so this runs only
/// when a limit is set.
pub fn without_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE takes plain integers and touches no memory of
    // ours; a kernel that refuses it leaves the process as it was.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// A size for a message: KiB below 10 MiB, else MiB, rounded up (a figure the user can pass
/// to `--max-memory` as it is printed).
pub fn show(bytes: u64) -> String {
    if bytes < 10 << 20 {
        format!("{}K", bytes.div_ceil(1 << 10))
    } else {
        format!("{}M", bytes.div_ceil(1 << 20))
    }
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

/// The processor time the calling thread has used (Linux; elsewhere `None`), for timing
/// work on a machine that other work shares.
pub fn thread_cpu_time() -> Option<std::time::Duration> {
    #[cfg(target_os = "linux")]
    {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid timespec for the call to fill.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0;
        ok.then(|| std::time::Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
    }
    #[cfg(not(target_os = "linux"))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn the_peak_is_at_least_what_is_held_now() {
        let now = resident_bytes().expect("Linux has /proc/self/status");
        let peak = peak_bytes().expect("Linux has /proc/self/status");
        // The kernel folds each thread's count of resident pages into the process's now and
        // then, and the peak with it: while other tests' threads allocate, the peak may lag
        // what is held by a few pages (seen: 24 KiB). A megabyte is far beyond that lag and
        // far below a peak that was not followed at all.
        assert!(now > 0 && peak + (1 << 20) >= now, "now {now}, peak {peak}");
    }
}
