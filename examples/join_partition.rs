//! A probe for issue 26: how much a partitioned ("Grace") join of a unit would save where a
//! unit's sides outgrow a piece (n = 26 on). On one thread.
//!
//! `join_partition check N PIECE K...`: every unit of the n x n board joined with each `K`
//! partition bits in pieces of `PIECE`, the total checked against the known count.
//!
//! `join_partition unit N I PIECE K...`: unit `I` (as `time` numbers them) timed once with
//! each `K` partition bits, in pieces of `PIECE`.
//!
//! `join_partition time N UNITS REPS K...`: `UNITS` units picked at fixed quantiles of the
//! weight (the units holding the 30 %, 50 %, 70 % ... of all weight, the way `--estimate`
//! draws them), each timed `REPS` times, alternating: today's count (`Plan::run_part`, pieces
//! of 2^22), then the probe with each `K` (pieces of 2^22 for each partition). The least time
//! of each is printed, with the probe's steps.

use nqueens::join::{DEFAULT_PIECE, Plan, ProbeScratch};
use std::time::Instant;

fn usage() -> ! {
    eprintln!(
        "usage: join_partition check N PIECE K... | time N UNITS REPS K... | unit N I PIECE K..."
    );
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nums: Vec<usize> = args.iter().skip(1).filter_map(|a| a.parse().ok()).collect();
    match (args.first().map(String::as_str), nums.as_slice()) {
        (Some("check"), [n, piece, ks @ ..]) => check(*n as u32, *piece, ks),
        (Some("time"), [n, units, reps, ks @ ..]) => time(*n as u32, *units, *reps, ks),
        (Some("unit"), [n, i, piece, ks @ ..]) => unit(*n as u32, *i, *piece, ks),
        _ => usage(),
    }
}

fn check(n: u32, piece: usize, ks: &[usize]) {
    let plan = Plan::new(n, 14);
    let mut scratch = ProbeScratch::default();
    for &k in ks {
        let start = Instant::now();
        let total: u128 = (0..plan.len())
            .map(|i| {
                plan.probe_partitioned(i, 0, k as u32, piece, &mut scratch)
                    .count
            })
            .sum();
        let known = nqueens::known::total(n);
        println!(
            "n = {n} piece {piece} k = {k}: {total} ({}) {:.2} s",
            if Some(total) == known {
                "exact"
            } else {
                "WRONG"
            },
            start.elapsed().as_secs_f64()
        );
    }
}

fn unit(n: u32, unit: usize, piece: usize, ks: &[usize]) {
    let plan = Plan::new(n, 14);
    let mut scratch = ProbeScratch::default();
    for &k in ks {
        let start = Instant::now();
        let p = plan.probe_partitioned(unit, 0, k as u32, piece, &mut scratch);
        println!(
            "unit {unit} piece {piece} k = {k}: {:.2} s (gen {:.2} query {:.2}) count {} \
             largest part {} builds {} queried {}",
            start.elapsed().as_secs_f64(),
            p.generate.as_secs_f64(),
            p.query.as_secs_f64(),
            p.count,
            p.largest_partition,
            p.builds,
            p.queried
        );
    }
}

fn time(n: u32, units: usize, reps: usize, ks: &[usize]) {
    let plan = Plan::new(n, 14);
    let start = Instant::now();
    let weights: Vec<u64> = (0..plan.len()).map(|i| plan.part_weight(i, 0)).collect();
    let mut order: Vec<usize> = (0..plan.len()).collect();
    order.sort_by_key(|&i| weights[i]);
    let all: u128 = weights.iter().map(|&w| u128::from(w)).sum();
    // Quantiles of the weight: (q + 1) / (units + 1), spread around the middle.
    let mut picked = Vec::new();
    let (mut sum, mut q) = (0u128, 0);
    for &i in &order {
        sum += u128::from(weights[i]);
        while q < units && sum * (units as u128 + 1) >= all * (q as u128 + 1) {
            picked.push(i);
            q += 1;
        }
    }
    println!(
        "n = {n}: {} units, total weight {all}, weights {:.1} s; picked {picked:?} weighing {:?}",
        plan.len(),
        start.elapsed().as_secs_f64(),
        picked.iter().map(|&i| weights[i]).collect::<Vec<_>>()
    );
    let mut scratch = ProbeScratch::default();
    for &i in &picked {
        // Least time of today's count and of each k.
        let mut best = vec![f64::INFINITY; ks.len() + 1];
        let mut probes = vec![None; ks.len()];
        let mut today = 0;
        for _ in 0..reps {
            let start = Instant::now();
            today = plan.run_part(i, 0);
            best[0] = best[0].min(start.elapsed().as_secs_f64());
            for (j, &k) in ks.iter().enumerate() {
                let start = Instant::now();
                let probe = plan.probe_partitioned(i, 0, k as u32, DEFAULT_PIECE, &mut scratch);
                best[j + 1] = best[j + 1].min(start.elapsed().as_secs_f64());
                assert_eq!(probe.count, today, "unit {i}, k = {k}");
                probes[j] = Some(probe);
            }
        }
        println!(
            "unit {i} weight {} count {today}: today {:.2} s",
            weights[i], best[0]
        );
        for (j, &k) in ks.iter().enumerate() {
            let p = probes[j].as_ref().unwrap();
            println!(
                "  k = {k}: {:.2} s (gen {:.2} part {:.2} build {:.2} query {:.2}) west {} east {} \
                 largest part {} builds {} queried {}",
                best[j + 1],
                p.generate.as_secs_f64(),
                p.partition.as_secs_f64(),
                p.build.as_secs_f64(),
                p.query.as_secs_f64(),
                p.west,
                p.east,
                p.largest_partition,
                p.builds,
                p.queried
            );
        }
    }
}
