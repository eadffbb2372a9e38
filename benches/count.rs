//! Criterion benchmarks of both counting engines beside the textbook counter, in the same run.
//!
//! Every benchmark asserts its count against OEIS A000170 before it is timed. At the end the
//! median times are read back from criterion's estimates and printed as speed-ups over the
//! textbook counter (the figure that stays meaningful on machines whose speed drifts), with
//! each engine's nodes per second on one core (nodes as `nqueens::kernel::nodes_with`
//! counts them, the same way for both engines).
//!
//! `cargo bench --bench count` (set `NQUEENS_BENCH_N=12,13,14` to choose the sizes).

use criterion::{BenchmarkId, Criterion};
use nqueens::{Counter, Plan, Symmetry, known, textbook};
use std::hint::black_box;
use std::path::PathBuf;

fn sizes() -> Vec<u32> {
    std::env::var("NQUEENS_BENCH_N")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![12, 13, 14])
}

/// A named way of counting.
struct Method {
    name: String,
    engine: Option<(Symmetry, usize)>,
}

impl Method {
    fn count(&self, n: u32) -> u128 {
        match self.engine {
            None => u128::from(textbook::count(n)),
            Some((symmetry, threads)) => {
                let counter = Counter::new().symmetry(symmetry).threads(threads);
                counter.count(n).unwrap().solutions
            }
        }
    }
}

/// The methods compared: the textbook counter, then each engine on one and on all threads.
fn methods() -> Vec<Method> {
    let all = nqueens::driver::default_threads();
    let mut methods = vec![Method {
        name: "textbook".into(),
        engine: None,
    }];
    for symmetry in [Symmetry::Full, Symmetry::Mirror] {
        for threads in [1, all] {
            methods.push(Method {
                name: format!("{}-{threads}t", symmetry.name()),
                engine: Some((symmetry, threads)),
            });
        }
    }
    methods.dedup_by(|a, b| a.name == b.name);
    methods
}

fn main() {
    let mut criterion = Criterion::default().sample_size(10).configure_from_args();
    let methods = methods();
    for &n in &sizes() {
        let expected = known::total(n).expect("benchmark sizes must be in the known table");
        let mut group = criterion.benchmark_group(format!("count-{n}"));
        for method in &methods {
            assert_eq!(
                method.count(n),
                expected,
                "{} miscounts n = {n}",
                method.name
            );
            group.bench_with_input(BenchmarkId::from_parameter(&method.name), &n, |b, &n| {
                b.iter(|| method.count(black_box(n)))
            });
        }
        group.finish();
    }
    criterion.final_summary();
    print_ratios(&sizes(), &methods);
}

/// The nodes one engine's search visits for the n x n board.
fn nodes(n: u32, symmetry: Symmetry) -> u64 {
    let plan = Plan::new(n, symmetry, Plan::auto_depth(n, symmetry, 1));
    (0..plan.len()).map(|i| plan.nodes(i)).sum()
}

/// Prints each method's speed-up over the textbook counter from criterion's saved medians,
/// and each engine's nodes per second on one thread.
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
            json["median"]["point_estimate"]
                .as_f64()
                .map(|ns| ns * 1e-9)
        };
        let Some(base) = median("textbook") else {
            continue;
        };
        let cells: Vec<String> = methods[1..]
            .iter()
            .filter_map(|m| median(&m.name).map(|t| format!("{} {:.2}x", m.name, base / t)))
            .collect();
        println!("  n = {n}: {}", cells.join(", "));
        for symmetry in [Symmetry::Full, Symmetry::Mirror] {
            let name = format!("{}-1t", symmetry.name());
            if let Some(seconds) = median(&name) {
                let nodes = nodes(n, symmetry);
                println!(
                    "    {name}: {nodes} nodes, {:.0} million nodes per second",
                    nodes as f64 / seconds / 1e6
                );
            }
        }
    }
}
