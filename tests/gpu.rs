//! The GPU engine (feature `gpu`) on whatever Vulkan device the machine has; CI installs
//! lavapipe, Mesa's Vulkan on the CPU. Without any adapter every test fails, saying what to
//! install, unless `NQUEENS_SKIP_GPU=1` asks to skip them (then each says SKIPPED).

use nqueens::gpu::{self, Gpu, has_adapter};
use nqueens::{Engine, Plan, Symmetry, known};

/// The GPU, or `None` where the machine has none and the tests are to be skipped.
fn gpu() -> Option<Gpu> {
    has_adapter().then(|| Gpu::open(None).expect("the adapter found opens"))
}

/// The total of the n x n board counted on `gpu`, split at `depth`.
fn total(gpu: &Gpu, n: u32, method: Engine, depth: u32) -> u128 {
    let plan = Plan::new(n, method, depth).unwrap();
    let ids: Vec<usize> = (0..plan.len()).collect();
    let mut reported = vec![None; plan.len()];
    let values = gpu
        .run(n, &plan, &ids, &mut |id, value| {
            assert!(
                reported[id].replace(value).is_none(),
                "task {id} reported twice"
            );
        })
        .unwrap();
    for (id, value) in values.iter().enumerate() {
        assert_eq!(
            reported[id],
            Some(*value),
            "n {n}: task {id} reported as it finished"
        );
    }
    let units: u128 = values.iter().sum();
    assert_eq!(units % plan.units_per_solution(), 0);
    units / plan.units_per_solution()
}

#[test]
fn every_board_up_to_15_gives_the_known_count() {
    let Some(gpu) = gpu() else { return };
    for n in 1..=15 {
        // Both symmetries to 14; n = 15 by the faster full symmetry only (lavapipe: 4 s).
        let methods: &[Engine] = if n <= 14 {
            &[
                Engine::Search(Symmetry::Mirror),
                Engine::Search(Symmetry::Full),
            ]
        } else {
            &[Engine::Search(Symmetry::Full)]
        };
        for &method in methods {
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
    for method in [
        Engine::Search(Symmetry::Mirror),
        Engine::Search(Symmetry::Full),
    ] {
        let plan = Plan::new(17, method, 4).unwrap();
        // Every 97th task: a spread of sizes, a few seconds of CPU.
        let ids: Vec<usize> = (0..plan.len()).step_by(97).collect();
        assert!(ids.len() >= 8);
        let values = gpu.run(17, &plan, &ids, &mut |_, _| {}).unwrap();
        for (&id, &value) in ids.iter().zip(&values) {
            assert_eq!(Ok(value), plan.run(id), "{method:?} task {id}");
        }
    }
}

#[test]
fn tiny_budgets_split_items_and_still_count_right() {
    let Some(gpu) = gpu() else { return };
    let gpu = gpu.budget(50).item_rows(9);
    assert_eq!(total(&gpu, 12, Engine::Search(Symmetry::Full), 2), 14_200);
    assert_eq!(total(&gpu, 11, Engine::Search(Symmetry::Mirror), 2), 2_680);
}

#[test]
fn a_driver_that_stops_loops_early_is_refused() {
    let Some(gpu) = gpu() else { return };
    if !gpu.adapter().name.contains("llvmpipe") {
        println!("SKIPPED: only lavapipe is known to stop long loops");
        return;
    }
    // Items of 15 rows run past lavapipe's 65,535 iterations, and the budget allows it.
    let gpu = gpu.budget(10_000_000).item_rows(15);
    let plan = Plan::new(16, Engine::Search(Symmetry::Mirror), 1).unwrap();
    let ids: Vec<usize> = (0..plan.len()).collect();
    let error = gpu.run(16, &plan, &ids, &mut |_, _| {}).unwrap_err();
    let message = error.to_string();
    assert!(message.contains("stopped a search"), "{message}");
    assert!(!message.contains('\n'));
}

#[test]
fn an_unknown_adapter_name_is_a_one_line_error_naming_those_found() {
    if !has_adapter() {
        return;
    }
    let error = Gpu::open(Some("no such adapter")).err().unwrap();
    let message = error.to_string();
    assert!(message.contains("'no such adapter'"), "{message}");
    assert!(message.contains(&gpu::adapters()[0].name), "{message}");
    assert!(!message.contains('\n'));
}

// The command line.

fn nqueens() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::cargo_bin("nqueens").unwrap();
    // Mesa's device-select layer complains about a missing XDG_RUNTIME_DIR; harmless.
    command.env("NODEVICE_SELECT", "1");
    // Far beyond the slowest count here (on lavapipe): only a hang reaches it.
    command.timeout(std::time::Duration::from_secs(600));
    command
}

fn stdout(args: &[&str]) -> String {
    let out = nqueens().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn count_engine_gpu_reports_its_adapter_in_json() {
    let Some(gpu) = gpu() else { return };
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["count", "13", "--engine", "gpu", "--json"])).unwrap();
    assert_eq!(json["solutions"], 73_712);
    assert_eq!(json["engine"], "gpu");
    assert_eq!(json["symmetry"], "full");
    assert_eq!(json["adapter"], gpu.adapter().name.as_str());
    assert_eq!(json["backend"], gpu.adapter().backend.as_str());
    assert_eq!(json["match"], true);
    let table = stdout(&["count", "4..11", "--engine", "gpu", "--symmetry", "mirror"]);
    assert_eq!(
        table.lines().filter(|l| l.ends_with("yes")).count(),
        8,
        "{table}"
    );
}

/// `count N --engine gpu` counts with the join engine's tasks from n = 14 on: every task's
/// value (`--subtotals`) is the CPU join's, from n = 14 to 18 (n = 18 takes some 16 s on
/// lavapipe); the boards below are the library's test (`gpu::tests`).
#[test]
fn boards_14_to_18_on_the_gpu_join_have_the_cpu_joins_subtotals() {
    if gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for n in 14..=18 {
        let size = n.to_string();
        let mut subtotals = Vec::new();
        for engine in ["gpu", "join"] {
            let file = dir.path().join(format!("{n}-{engine}.tsv"));
            let path = file.to_str().unwrap();
            let out = stdout(&["count", &size, "--engine", engine, "--subtotals", path]);
            assert_eq!(out.trim().parse::<u128>().ok(), known::total(n), "n {n}");
            subtotals.push(std::fs::read_to_string(&file).unwrap());
        }
        assert!(subtotals[0].contains("engine=join"), "{}", subtotals[0]);
        assert!(subtotals[0].lines().count() > 100, "n {n}");
        assert_eq!(subtotals[0], subtotals[1], "n {n}");
    }
}

#[test]
fn count_engine_gpu_counts_the_join_s_tasks_from_14_and_reports_its_adapter() {
    let Some(gpu) = gpu() else { return };
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["count", "14", "--engine", "gpu", "--json"])).unwrap();
    assert_eq!(json["solutions"], 365_596);
    assert_eq!(json["engine"], "gpu");
    assert!(json.get("symmetry").is_none(), "{json}");
    assert_eq!(json["adapter"], gpu.adapter().name.as_str());
    assert_eq!(json["match"], true);
    // A symmetry asks for the search on the GPU.
    let json: serde_json::Value = serde_json::from_str(&stdout(&[
        "count",
        "14",
        "--engine",
        "gpu",
        "--symmetry",
        "mirror",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["solutions"], 365_596);
    assert_eq!(json["symmetry"], "mirror");
}

/// A journal of the join's tasks resumes on either side: begun on the CPU and finished on
/// the GPU, and the other way round.
#[test]
fn a_join_journal_moves_between_the_cpu_and_the_gpu() {
    if gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (first, then) in [("join", "gpu"), ("gpu", "join")] {
        let journal = dir.path().join(format!("{first}.journal"));
        let path = journal.to_str().unwrap();
        assert_eq!(
            stdout(&["count", "15", "--engine", first, "--checkpoint", path]),
            "2279184\n"
        );
        let records = |text: String| text.lines().filter(|l| l.starts_with("task ")).count();
        let tasks = records(std::fs::read_to_string(&journal).unwrap());
        cut_journal(&journal, tasks / 3);
        assert_eq!(
            stdout(&["count", "15", "--engine", then, "--checkpoint", path]),
            "2279184\n",
            "{first} then {then}"
        );
        assert_eq!(records(std::fs::read_to_string(&journal).unwrap()), tasks);
    }
}

/// `--estimate --engine gpu` times the sampled parts on the device and says so; the
/// search's tasks on a GPU are not sampled there, which is a one-line error.
#[test]
fn an_estimate_on_the_gpu_times_the_join_s_parts_there() {
    let Some(gpu) = gpu() else { return };
    let out = stdout(&["count", "16", "--estimate", "--engine", "gpu", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["engine"], "join");
    assert_eq!(json["adapter"], gpu.adapter().name.as_str());
    assert_eq!(json["threads"], 1);
    assert!(json["sampled"].as_u64().unwrap() > 0, "{json}");
    assert!(json["core_seconds"].as_f64().unwrap() > 0.0, "{json}");
    let text = stdout(&["count", "15", "--estimate", "--engine", "gpu"]);
    assert!(text.contains("GPU-seconds"), "{text}");
    let out = nqueens()
        .args(["count", "12", "--estimate", "--engine", "gpu"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("join engine's tasks"), "{stderr}");
}

#[test]
fn gpu_info_lists_the_adapters() {
    if gpu().is_none() {
        return;
    }
    let listed = stdout(&["gpu-info"]);
    for adapter in gpu::adapters() {
        assert!(listed.contains(&adapter.name), "{listed}");
        assert!(listed.contains(&adapter.backend), "{listed}");
    }
}

/// Keeps the journal's header and its first `keep` task records.
fn cut_journal(path: &std::path::Path, keep: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().take(1 + keep).collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn a_checkpoint_resumes_on_the_gpu_and_from_the_cpu() {
    if gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("run.journal");
    let path = journal.to_str().unwrap();
    let args = ["count", "14", "--engine", "gpu", "--checkpoint", path];
    assert_eq!(stdout(&args), "365596\n");
    let records = |text: String| text.lines().filter(|l| l.starts_with("task ")).count();
    let tasks = records(std::fs::read_to_string(&journal).unwrap());
    assert!(tasks > 20);
    cut_journal(&journal, tasks / 2);
    assert_eq!(stdout(&args), "365596\n");
    assert_eq!(records(std::fs::read_to_string(&journal).unwrap()), tasks);
    // Below n = 14 the GPU counts the search's own tasks: a CPU run's journal resumes on it.
    let cpu = dir.path().join("cpu.journal");
    let cpu_path = cpu.to_str().unwrap();
    stdout(&["count", "13", "--engine", "dfs", "--checkpoint", cpu_path]);
    cut_journal(&cpu, 10);
    assert_eq!(
        stdout(&["count", "13", "--engine", "gpu", "--checkpoint", cpu_path]),
        "73712\n"
    );
}

#[test]
fn shards_counted_on_the_gpu_merge_with_shards_counted_on_the_cpu() {
    if gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (index, engine) in [(0, "gpu"), (1, "dfs"), (2, "gpu")] {
        let shard = format!("{index}/3");
        let out = stdout(&["count", "13", "--engine", engine, "--shard", &shard]);
        let file = dir.path().join(format!("{index}.json"));
        std::fs::write(&file, out).unwrap();
        files.push(file.to_str().unwrap().to_string());
    }
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(stdout(&args), "73712\n");
}

#[test]
fn an_unknown_adapter_fails_in_one_line_and_auto_falls_back_to_the_cpu() {
    if gpu().is_none() {
        return;
    }
    let out = nqueens()
        .args([
            "count",
            "12",
            "--engine",
            "gpu",
            "--gpu-adapter",
            "no such adapter",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: GPU: no GPU adapter"), "{stderr}");

    let out = nqueens()
        .args(["count", "12", "--gpu-adapter", "no such adapter", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["solutions"], 14_200);
    assert_eq!(json["engine"], "search");
    assert!(json.get("adapter").is_none());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("the CPU counted instead"), "{stderr}");
}

#[test]
fn gpu_adapter_goes_with_the_gpu_or_auto_engine_only() {
    let out = nqueens()
        .args(["count", "12", "--engine", "dfs", "--gpu-adapter", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--gpu-adapter goes with"));
}
