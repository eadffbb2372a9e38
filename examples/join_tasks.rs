//! Times every task of the join engine on one thread and estimates from those times how a
//! count scales to more cores (Amdahl, with the tasks as they are): the serial part (the plan
//! and the quarter table, built here on one thread), the largest task, and the tasks' times
//! dealt in task order to whichever of `k` threads is free first, as the driver's work
//! stealing roughly does. It cannot see what many cores share (the third-level cache, memory
//! bandwidth, a lower clock under load), so a machine with the cores is the judge.
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
