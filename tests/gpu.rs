//! The GPU engine (feature `gpu`) on whatever Vulkan device the machine has; CI installs
//! lavapipe, Mesa's Vulkan on the CPU. Without any adapter every test says SKIPPED and passes.

use nqueens::gpu::{self, Gpu};
use nqueens::{Method, Plan, known};

/// The GPU, or `None` (said loudly) where the machine has no adapter.
fn gpu() -> Option<Gpu> {
    if gpu::adapters().is_empty() {
        eprintln!("SKIPPED: no GPU adapter (apt-get install libvulkan1 mesa-vulkan-drivers)");
        return None;
    }
    Some(Gpu::open(None).expect("the adapter found opens"))
}

/// The total of the n x n board counted on `gpu`, split at `depth`.
fn total(gpu: &Gpu, n: u32, method: Method, depth: u32) -> u128 {
    let plan = Plan::new(n, method, depth);
    let ids: Vec<usize> = (0..plan.len()).collect();
    let mut reported = vec![None; plan.len()];
    let values = gpu
        .run(n, &plan, &ids, &mut |id, value| {
            assert!(reported[id].replace(value).is_none(), "task {id} reported twice");
        })
        .unwrap();
    for (id, value) in values.iter().enumerate() {
        assert_eq!(reported[id], Some(*value), "n {n}: task {id} reported as it finished");
    }
    let units: u128 = values.iter().sum();
    assert_eq!(units % plan.units_per_solution(), 0);
    units / plan.units_per_solution()
}

#[test]
fn every_board_up_to_16_gives_the_known_count() {
    let Some(gpu) = gpu() else { return };
    for n in 1..=16 {
        for method in [Method::Mirror, Method::Full] {
            let depth = if n <= 12 { 1 + n % 3 } else { 3 };
            assert_eq!(
                Some(total(&gpu, n, method, depth)),
                known::total(n),
                "n {n} {method:?} depth {depth}"
            );
        }
    }
}

#[test]
fn tasks_of_17_have_their_cpu_values() {
    let Some(gpu) = gpu() else { return };
    for method in [Method::Mirror, Method::Full] {
        let plan = Plan::new(17, method, 4);
        // Every 97th task: a spread of sizes, a few seconds of CPU.
        let ids: Vec<usize> = (0..plan.len()).step_by(97).collect();
        assert!(ids.len() >= 8);
        let values = gpu.run(17, &plan, &ids, &mut |_, _| {}).unwrap();
        for (&id, &value) in ids.iter().zip(&values) {
            assert_eq!(value, plan.run(id), "{method:?} task {id}");
        }
    }
}

#[test]
fn tiny_budgets_split_items_and_still_count_right() {
    let Some(gpu) = gpu() else { return };
    let gpu = gpu.budget(50).item_rows(9);
    assert_eq!(total(&gpu, 12, Method::Full, 2), 14_200);
    assert_eq!(total(&gpu, 11, Method::Mirror, 2), 2_680);
}

#[test]
fn a_driver_that_stops_loops_early_is_refused() {
    let Some(gpu) = gpu() else { return };
    if !gpu.adapter().name.contains("llvmpipe") {
        eprintln!("SKIPPED: only lavapipe is known to stop long loops");
        return;
    }
    // Items of 15 rows run past lavapipe's 65,535 iterations, and the budget allows it.
    let gpu = gpu.budget(10_000_000).item_rows(15);
    let plan = Plan::new(16, Method::Mirror, 1);
    let ids: Vec<usize> = (0..plan.len()).collect();
    let error = gpu.run(16, &plan, &ids, &mut |_, _| {}).unwrap_err();
    let message = error.to_string();
    assert!(message.contains("stopped a search"), "{message}");
    assert!(!message.contains('\n'));
}

#[test]
fn an_unknown_adapter_name_is_a_one_line_error_naming_those_found() {
    if gpu::adapters().is_empty() {
        eprintln!("SKIPPED: no GPU adapter");
        return;
    }
    let error = Gpu::open(Some("no such adapter")).err().unwrap();
    let message = error.to_string();
    assert!(message.contains("'no such adapter'"), "{message}");
    assert!(message.contains(&gpu::adapters()[0].name), "{message}");
    assert!(!message.contains('\n'));
}
