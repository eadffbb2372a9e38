//! Criterion benchmarks of the counting engine beside the textbook counter, in the same run.
//!
//! Every benchmark asserts its count against OEIS A000170 before it is timed. At the end the
//! median times are read back from criterion's estimates and printed as ratios to the textbook
//! counter, the figure that stays meaningful on machines whose speed drifts.
//!
//! `cargo bench --bench count` (set `NQUEENS_BENCH_N=12,13,14` to choose the sizes).

use criterion::{BenchmarkId, Criterion};
use nqueens::{Counter, known, textbook};
use std::hint::black_box;
use std::path::PathBuf;

fn sizes() -> Vec<u32> {
    std::env::var("NQUEENS_BENCH_N")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![12, 13, 14])
}

fn threads_all() -> usize {
    nqueens::driver::default_threads()
}

/// A named way of counting.
type Method = (String, Box<dyn Fn(u32) -> u128>);

/// The methods compared.
fn methods() -> Vec<Method> {
    let all = threads_all();
    vec![
        (
            "textbook".into(),
            Box::new(|n| u128::from(textbook::count(n))) as Box<dyn Fn(u32) -> u128>,
        ),
        (
            "engine-1t".into(),
            Box::new(|n| Counter::new().threads(1).count(n).unwrap().solutions),
        ),
        (
            format!("engine-{all}t"),
            Box::new(move |n| Counter::new().threads(all).count(n).unwrap().solutions),
        ),
    ]
}

fn main() {
    let mut criterion = Criterion::default().sample_size(10).configure_from_args();
    let methods = methods();
    for &n in &sizes() {
        let expected = known::total(n).expect("benchmark sizes must be in the known table");
        let mut group = criterion.benchmark_group(format!("count-{n}"));
        for (name, method) in &methods {
            assert_eq!(method(n), expected, "{name} miscounts n = {n}");
            group.bench_with_input(BenchmarkId::from_parameter(name), &n, |b, &n| {
                b.iter(|| method(black_box(n)))
            });
        }
        group.finish();
    }
    criterion.final_summary();
    print_ratios(&sizes(), &methods);
}

/// Prints each method's speed-up over the textbook counter from criterion's saved medians.
fn print_ratios(sizes: &[u32], methods: &[Method]) {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"))
        .join("criterion");
    println!("\nspeed-up over the textbook counter (median times, this run):");
    for &n in sizes {
        let median = |name: &str| -> Option<f64> {
            let path = dir.join(format!("count-{n}/{name}/new/estimates.json"));
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
            json["median"]["point_estimate"].as_f64()
        };
        let Some(base) = median("textbook") else {
            continue;
        };
        let cells: Vec<String> = methods
            .iter()
            .skip(1)
            .filter_map(|(name, _)| median(name).map(|t| format!("{name} {:.2}x", base / t)))
            .collect();
        println!("  n = {n}: {}", cells.join(", "));
    }
}
