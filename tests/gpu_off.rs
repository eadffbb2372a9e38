//! A build without the `gpu` feature says so, with how to get one, and exits 2.
#![cfg(not(feature = "gpu"))]

use assert_cmd::Command;

#[test]
fn engine_gpu_and_gpu_info_say_this_build_has_no_gpu_support() {
    for args in [
        &["count", "10", "--engine", "gpu"][..],
        &["count", "10", "--gpu-adapter", "x"],
        &["gpu-info"],
    ] {
        let out = Command::cargo_bin("nqueens")
            .unwrap()
            .args(args)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("no GPU support"), "{stderr}");
        assert!(
            stderr.contains("cargo build --release --features gpu"),
            "{stderr}"
        );
    }
}

#[test]
fn the_library_says_so_too() {
    let error = nqueens::Counter::new()
        .engine(nqueens::Engine::Gpu(None))
        .count(8)
        .unwrap_err();
    assert!(matches!(error, nqueens::Error::Gpu(_)), "{error:?}");
}

#[test]
fn auto_with_a_gpu_named_counts_on_the_cpu_and_says_the_build_has_no_gpu_support() {
    let job = nqueens::Counter::new()
        .gpu_adapter("any")
        .threads(1)
        .prepare(10)
        .unwrap();
    let missing = nqueens::Error::Gpu(nqueens::NO_GPU_SUPPORT.into());
    assert_eq!(job.gpu_fallback.get(), Some(&missing));
    assert_eq!(
        job.reasons,
        [
            nqueens::Reason::GpuUnavailable(missing),
            nqueens::Reason::SearchBySize
        ]
    );
}
