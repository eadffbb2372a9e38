//! Times every task of the join engine on one thread and estimates from those times how a
//! count scales to more cores (Amdahl, with the tasks as they are): the serial part (the plan
//! and the quarter table, built here on one thread), the largest task, and the tasks' times
//! dealt in task order to whichever of `k` threads is free first, as the driver's work
//! stealing roughly does. It cannot see what many cores share (the third-level cache, memory
//! bandwidth, a lower clock under load), so a machine with the cores is the judge.
//!
//! It also says how well the tasks' weights ([`Plan::weight`]) predict their times: the
//! spread of 16 shards dealt by weight, measured in time, and the ETA a count would show when
//! 5 % of the weight is done (largest tasks first, as the driver runs them).
//!
//! `cargo run --release --example join_tasks -- 19 2 16 64` (n, then thread counts).

use nqueens::join::{Plan, auto_depth};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u32>());
    let Some(Ok(n)) = args.next() else {
        eprintln!("usage: join_tasks N [THREADS...]");
        std::process::exit(2);
    };
    if !nqueens::join::supports(n) {
        eprintln!("the join engine does not count n = {n}");
        std::process::exit(2);
    }
    let threads: Vec<u32> = args.map_while(Result::ok).collect();

    let start = Instant::now();
    let plan = Plan::new(n, auto_depth(n));
    let planned = start.elapsed().as_secs_f64();
    let start = Instant::now();
    plan.prepare(1);
    let table = start.elapsed().as_secs_f64();

    let weights: Vec<u64> = (0..plan.len()).map(|i| plan.weight(i)).collect();
    let mut times = Vec::with_capacity(plan.len());
    let mut total = 0u128;
    for i in 0..plan.len() {
        let start = Instant::now();
        total += plan.run(i);
        times.push(start.elapsed().as_secs_f64());
    }
    let expected = nqueens::known::total(n);
    assert_eq!(
        Some(total),
        expected,
        "n = {n}: the tasks' sum is not the known count"
    );

    let work: f64 = times.iter().sum();
    let largest = times.iter().copied().fold(0.0, f64::max);
    let serial = planned + table;
    println!("n = {n}: {total} solutions, {} tasks", plan.len());
    println!("plan {planned:.3} s, quarter table {table:.3} s (one thread), tasks {work:.2} s");
    println!(
        "largest task {largest:.4} s ({:.3} % of the work)",
        100.0 * largest / work
    );
    weights_against_times(&weights, &times);
    let one = serial + work;
    for &k in &threads {
        let k = k.max(1) as usize;
        let mut free_at = vec![0.0f64; k];
        for &t in &times {
            let first = (0..k)
                .min_by(|&a, &b| free_at[a].total_cmp(&free_at[b]))
                .unwrap();
            free_at[first] += t;
        }
        let makespan = free_at.iter().copied().fold(0.0, f64::max);
        // The table is built on all threads in a count; its serial share is taken whole here.
        let estimate = serial + makespan;
        println!(
            "{k:>4} threads: about {estimate:.2} s, {:.1}x one thread ({:.0} % efficiency)",
            one / estimate,
            100.0 * one / estimate / k as f64
        );
    }
}

/// How well weights predict times: 16 shards dealt by weight (their times against the mean),
/// and the ETA at 5 % of the weight in largest-first order (against the real total).
fn weights_against_times(weights: &[u64], times: &[f64]) {
    const SHARDS: usize = 16;
    let work: f64 = times.iter().sum();
    let shard_times: Vec<f64> = (0..SHARDS)
        .map(|s| {
            nqueens::shard::partition(weights, s, SHARDS)
                .expect("a join plan has more tasks than 16")
                .iter()
                .map(|&i| times[i])
                .sum()
        })
        .collect();
    let mean = work / SHARDS as f64;
    let (least, most) = shard_times
        .iter()
        .fold((f64::MAX, 0.0f64), |(l, m), &t| (l.min(t), m.max(t)));
    println!(
        "16 shards by weight: {:+.1} % .. {:+.1} % of the mean time",
        100.0 * (least / mean - 1.0),
        100.0 * (most / mean - 1.0)
    );
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| weights[b].cmp(&weights[a]).then(a.cmp(&b)));
    let total_weight: f64 = weights.iter().map(|&w| w as f64).sum();
    let (mut done_weight, mut elapsed) = (0.0, 0.0);
    for &i in &order {
        done_weight += weights[i] as f64;
        elapsed += times[i];
        if done_weight >= 0.05 * total_weight {
            let eta = elapsed * total_weight / done_weight;
            println!(
                "ETA at 5 % of the weight: {eta:.2} s for {work:.2} s ({:+.1} %)",
                100.0 * (eta / work - 1.0)
            );
            break;
        }
    }
}
