//! A memory stream for the sensitivity test of `scripts/memory-sensitivity.sh`: copies one
//! buffer of `MB` megabytes into another, over and over, for `SECONDS` (STREAM's copy
//! kernel, on one thread), and prints the bandwidth it got, counting the bytes read and
//! written. Run beside a count on the other core, it takes the memory bandwidth a count
//! shares with its neighbours on a full node.
//!
//! `memory_stream SECONDS MB`

use std::time::{Duration, Instant};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let [seconds, mb] = args[..] else {
        eprintln!("usage: memory_stream SECONDS MB");
        std::process::exit(2);
    };
    let words = (mb as usize) << 17;
    // Both buffers written first, so that their pages exist before the clock starts.
    let source: Vec<u64> = (0..words as u64).collect();
    let mut target = vec![0u64; words];
    let start = Instant::now();
    let mut copies = 0u64;
    while start.elapsed() < Duration::from_secs(seconds) {
        target.copy_from_slice(&source);
        std::hint::black_box(&mut target);
        copies += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let bytes = 2.0 * copies as f64 * (words * 8) as f64;
    println!(
        "memory_stream: {copies} copies of {mb} MB in {secs:.1} s: {:.2} GB/s",
        bytes / secs / 1e9
    );
}
