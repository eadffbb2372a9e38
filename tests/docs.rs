//! The documents name only files and folders that exist: every path of the project's own
//! tree that README.md, the pages of docs/, ARCHITECTURE.md, Cargo.toml or a comment in the
//! sources, benchmarks, examples and scripts names (`src/search/full.rs`, `src/join/`, `scripts/frontier.sh`), and
//! every file ARCHITECTURE.md's tables name by its place in a folder (`kernel.rs`,
//! `parse/input.rs`). A file that moves takes its mentions with it.
//!
//! It reads the documents as text. A path starts a word with one of the tree's top folders
//! (`src/`, `tests/`, `benches/`, `scripts/`, `examples/`, `docs/`) and ends at the first character no
//! path of this project has; one that ends in `/` is a folder, one whose last part has a dot
//! a file, anything else (`src/` alone, a glob) is not read. `tests/` is not scanned itself:
//! its tests write paths that are meant not to exist.

use std::path::{Path, PathBuf};

/// The project's top folders, the start of every path the documents name.
const TOPS: [&str; 6] = [
    "src/",
    "tests/",
    "benches/",
    "scripts/",
    "examples/",
    "docs/",
];

/// The project's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir`, as paths from the project's root.
fn files_under(dir: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path.strip_prefix(root()).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join(dir), &mut out);
    out.sort();
    out
}

/// Whether `c` can be part of a path of this project.
fn in_path(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_./-".contains(c)
}

/// The paths of the tree that `text` names: each starts a word with one of [`TOPS`], and is a
/// folder (it ends in `/`) or a file (its last part has a dot).
fn named_paths(text: &str) -> Vec<&str> {
    let mut paths = Vec::new();
    for (start, _) in text.match_indices(['s', 't', 'b', 'e', 'd']) {
        let rest = &text[start..];
        let Some(top) = TOPS.into_iter().find(|top| rest.starts_with(top)) else {
            continue;
        };
        // `foo_src/`, `my/src/` and a URL's `/examples/` are not the tree's.
        if text[..start].ends_with(|c: char| in_path(c) || c == ':') {
            continue;
        }
        let end = rest.find(|c: char| !in_path(c)).unwrap_or(rest.len());
        // A sentence's full stop is not part of the path before it.
        let path = rest[..end].trim_end_matches('.');
        let last = path.trim_end_matches('/').rsplit('/').next().unwrap();
        let is_folder = path.ends_with('/');
        let is_file = !is_folder && last.contains('.');
        if path.len() > top.len() && (is_folder || is_file) {
            paths.push(path);
        }
    }
    paths
}

/// The file names in backquotes in `text` that are not paths from the root (`kernel.rs`,
/// `parse/input.rs`, `serve/assets/`): a Rust, WGSL or shell file, or a folder of them.
fn relative_names(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|name| !name.is_empty() && name.chars().all(in_path))
        .filter(|name| !TOPS.iter().any(|top| name.starts_with(top)))
        .filter(|name| {
            [".rs", ".wgsl", ".sh"]
                .iter()
                .any(|ext| name.ends_with(ext))
                || (name.ends_with('/') && name.len() > 1 && !name.starts_with('.'))
        })
        .collect()
}

/// The texts whose paths are checked: the documents, Cargo.toml, and every text file of the
/// sources, benchmarks, examples and scripts.
fn documents() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for doc in ["README.md", "ARCHITECTURE.md", "Cargo.toml"] {
        out.push((doc.to_string(), doc.to_string()));
    }
    for page in files_under("docs") {
        if page.extension().is_some_and(|e| e == "md") {
            out.push((page.display().to_string(), page.display().to_string()));
        }
    }
    for top in ["src", "benches", "examples", "scripts"] {
        for file in files_under(top) {
            out.push((file.display().to_string(), file.display().to_string()));
        }
    }
    out.into_iter()
        .filter_map(|(name, path)| {
            let text = std::fs::read_to_string(root().join(path)).ok()?;
            Some((name, text))
        })
        .collect()
}

#[test]
fn paths_are_read_as_files_and_folders_that_start_a_word() {
    let text = "See src/search/full.rs. The folder src/join/, not my_src/x.rs, \
                https://x.org/examples/a.rs or src/ alone; (scripts/frontier.sh) and benches/*.";
    assert_eq!(
        named_paths(text),
        ["src/search/full.rs", "src/join/", "scripts/frontier.sh"]
    );
    let table =
        "| `kernel.rs` the loop, `parse/input.rs`, `serve/assets/`, `Error::Gpu`, `.git/` |";
    assert_eq!(
        relative_names(table),
        ["kernel.rs", "parse/input.rs", "serve/assets/"]
    );
}

/// Regression: README.md and src/engine.rs named `src/full.rs` and `src/finish.rs` after the
/// files had moved under `src/search/`.
#[test]
fn every_path_the_documents_and_comments_name_exists() {
    let mut named = 0;
    let mut missing = Vec::new();
    for (doc, text) in documents() {
        for path in named_paths(&text) {
            named += 1;
            if !root().join(path).exists() {
                missing.push(format!("{doc}: {path}"));
            }
        }
    }
    assert!(named > 40, "only {named} paths found: the scan is broken");
    assert!(missing.is_empty(), "named but missing: {missing:?}");
}

#[test]
fn every_file_the_architecture_names_in_a_folder_exists() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let files: Vec<String> = TOPS
        .iter()
        .flat_map(|top| files_under(top.trim_end_matches('/')))
        .map(|file| format!("/{}", file.display()))
        .collect();
    let names = relative_names(&text);
    assert!(
        names.len() > 60,
        "only {} names found: {names:?}",
        names.len()
    );
    let missing: Vec<&str> = names
        .into_iter()
        .filter(|name| {
            let name = format!("/{name}");
            !files.iter().any(|file| {
                // A folder is named by the files in it.
                file.ends_with(&name) || (name.ends_with('/') && file.contains(&name))
            })
        })
        .collect();
    assert!(missing.is_empty(), "named but in no folder: {missing:?}");
}
