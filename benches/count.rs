//! Criterion benchmarks of the counting engines (the join engine, and the search with each
//! symmetry) beside the textbook counter, in the same run.
//!
//! Every benchmark asserts its count against OEIS A000170 before it is timed. At the end the
//! median times are read back from criterion's estimates and printed as speed-ups over the
//! textbook counter (the figure that stays meaningful on machines whose speed drifts), with
//! each search's nodes per second on one core (nodes as `Plan::nodes` counts them, the same
//! way for both symmetries).
//!
//! `cargo bench --bench count` (set `NQUEENS_BENCH_N=12,13,14` to choose the sizes).

use criterion::{BenchmarkId, Criterion};
use nqueens::{Counter, Engine, Plan, Symmetry, known, textbook};
use std::hint::black_box;
use std::path::PathBuf;

fn sizes() -> Vec<u32> {
    std::env::var("NQUEENS_BENCH_N")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![12, 13, 14])
}

/// The engines compared.
const ENGINES: [Engine; 3] = [
    Engine::Join,
    Engine::Search(Symmetry::Full),
    Engine::Search(Symmetry::Mirror),
];

/// An engine's name in the benchmark ids: `join`, `search-full`, `search-mirror`.
fn label(engine: Engine) -> String {
    match engine.symmetry() {
        Some(symmetry) => format!("{}-{}", engine.name(), symmetry.name()),
        None => engine.name().into(),
    }
}

/// A named way of counting.
struct Way {
    name: String,
    engine: Option<(Engine, usize)>,
}

impl Way {
    fn count(&self, n: u32) -> u128 {
        match self.engine {
            None => u128::from(textbook::count(n).expect("a board of 1 to 32")),
            Some((engine, threads)) => {
                let counter = Counter::new().engine(engine).threads(threads);
                counter.count(n).unwrap().solutions
            }
        }
    }
}

/// The ways compared: the textbook counter, then each engine on one and on all threads.
fn ways() -> Vec<Way> {
    let all = nqueens::default_threads();
    let mut ways = vec![Way {
        name: "textbook".into(),
        engine: None,
    }];
    for engine in ENGINES {
        for threads in [1, all] {
            ways.push(Way {
                name: format!("{}-{threads}t", label(engine)),
                engine: Some((engine, threads)),
            });
        }
    }
    ways.dedup_by(|a, b| a.name == b.name);
    ways
}

fn main() {
    let mut criterion = Criterion::default().sample_size(10).configure_from_args();
    let methods = ways();
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

/// The nodes one search visits for the n x n board.
fn nodes(n: u32, engine: Engine) -> Option<u64> {
    let plan = Plan::new(n, engine, Plan::auto_depth(n, engine, 1).ok()?).ok()?;
    (0..plan.len()).map(|i| plan.nodes(i).ok().flatten()).sum()
}

/// Prints each method's speed-up over the textbook counter from criterion's saved medians,
/// and each search's nodes per second (the join engine searches no tree) on one thread.
fn print_ratios(sizes: &[u32], methods: &[Way]) {
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
        for engine in &ENGINES[1..] {
            let name = format!("{}-1t", label(*engine));
            if let (Some(seconds), Some(nodes)) = (median(&name), nodes(n, *engine)) {
                println!(
                    "    {name}: {nodes} nodes, {:.0} million nodes per second",
                    nodes as f64 / seconds / 1e6
                );
            }
        }
    }
}
