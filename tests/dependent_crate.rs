//! The library as a dependent gets it: `tests/dependent` depends on the package through the
//! README's dependency line (a path in place of the registry's version) and runs the README's
//! library example, built with cargo's default release profile in a folder of its own.
//! Regression (issue 72): the README's line named `nqueens`, another crate on the registry,
//! and asked dependents to change their own profile for the join engine's speed.

use std::path::Path;
use std::process::Command;

/// The project's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The text of the file at `path`, from the root.
fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The lines of the README's library section's first fenced block of `language`.
fn readme_block(language: &str) -> Vec<String> {
    let readme = read("README.md");
    let (_, library) = readme
        .split_once("\n## Library\n")
        .expect("a Library section");
    let fence = format!("```{language}\n");
    let (_, block) = library.split_once(&fence).expect("the block");
    let (block, _) = block.split_once("```").expect("the block's end");
    block.lines().map(str::to_owned).collect()
}

/// The dependency the dependent names is the README's line with a path for its version.
#[test]
fn the_dependent_names_the_package_as_the_readme_says() {
    let line = readme_block("toml")
        .into_iter()
        .find(|l| l.starts_with("nqueens-count = "))
        .expect("the README's dependency line");
    // Its version is the crate's (tests/doc_examples.rs checks it); the dependent names a path.
    let (dependency, _comment) = line.split_once("   #").unwrap_or((&line, ""));
    let (before, version) = dependency.split_once("version = \"").expect("a version");
    let (_, after) = version.split_once('"').expect("the version's end");
    let by_path = format!("{before}path = \"../..\"{}", after.trim_end());
    let manifest = read("tests/dependent/Cargo.toml");
    assert!(
        manifest.lines().any(|l| l == by_path),
        "tests/dependent/Cargo.toml has no line {by_path}"
    );
    assert_eq!(env!("CARGO_PKG_NAME"), "nqueens-count");
}

/// The dependent runs the README's example: each line the README shows (not a hidden `# `
/// line) is a line of its `readme_example`, in the README's order.
#[test]
fn the_dependent_runs_the_readme_s_example() {
    let main = read("tests/dependent/src/main.rs");
    let (_, example) = main
        .split_once("fn readme_example()")
        .expect("readme_example");
    let mut lines = example.lines().map(str::trim);
    for shown in readme_block("rust") {
        if shown.starts_with("# ") || shown.starts_with("use ") {
            continue;
        }
        assert!(
            lines.any(|l| l == shown.trim()),
            "tests/dependent/src/main.rs lacks the README's line, in order: {shown}"
        );
    }
    assert!(main.contains("use nqueens::{Counter, Engine, Symmetry};"));
}

/// Built as a dependent builds it (default release profile, a target folder of its own, the
/// package by path), the dependent runs the example and counts n = 12 with both engines.
#[test]
fn a_dependent_crate_builds_and_runs_the_library() {
    let crate_dir = tempfile::tempdir().unwrap();
    let manifest = read("tests/dependent/Cargo.toml").replace(
        "path = \"../..\"",
        &format!("path = {:?}", root().display().to_string()),
    );
    std::fs::write(crate_dir.path().join("Cargo.toml"), manifest).unwrap();
    std::fs::create_dir(crate_dir.path().join("src")).unwrap();
    std::fs::copy(
        root().join("tests/dependent/src/main.rs"),
        crate_dir.path().join("src/main.rs"),
    )
    .unwrap();
    // The versions the package's own build uses, so that nothing new is fetched.
    std::fs::copy(
        root().join("Cargo.lock"),
        crate_dir.path().join("Cargo.lock"),
    )
    .unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let target = root().join("target").join("dependent");
    let run = |args: &[&str]| {
        let out = Command::new(&cargo)
            .args(["run", "--release", "--quiet", "--offline", "--"])
            .args(args)
            .current_dir(crate_dir.path())
            .env("CARGO_TARGET_DIR", &target)
            // The profile is cargo's default, whatever the environment sets for this build.
            .env_remove("CARGO_PROFILE_RELEASE_LTO")
            .env_remove("CARGO_PROFILE_RELEASE_CODEGEN_UNITS")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{args:?}: {stderr}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(run(&[]), "the README's example ran\n");
    for engine in ["join", "search"] {
        let out = run(&[engine, "12"]);
        assert_eq!(
            out.split_whitespace().next(),
            Some("14200"),
            "{engine}: {out}"
        );
    }
}

/// The packaged crate (`cargo package`) holds what a dependent builds from, the library's
/// code, its readme and changelog, and none of the tests, their data, the docs' pictures or
/// the scripts.
#[test]
fn the_packaged_crate_holds_the_library_and_not_the_tests() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args(["package", "--list", "--allow-dirty", "--offline"])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files = String::from_utf8(out.stdout).unwrap();
    let files: Vec<&str> = files.lines().collect();
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "CHANGELOG.md",
        "src/lib.rs",
        "src/main.rs",
        "src/gpu/search.wgsl",
        "src/serve/assets/index.html",
    ] {
        assert!(
            files.contains(&needed),
            "{needed} is not packaged: {files:?}"
        );
    }
    for file in &files {
        let kept = [
            "src/",
            "Cargo.toml",
            "Cargo.lock",
            "README.md",
            "CHANGELOG.md",
        ];
        assert!(
            kept.iter().any(|k| file.starts_with(k)) || *file == ".cargo_vcs_info.json",
            "{file} is packaged"
        );
    }
}
