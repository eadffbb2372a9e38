//! The source tree keeps the shape ARCHITECTURE.md describes: a few shared files at the root of
//! `src/`, one folder per concern, no file over 700 lines and no function over 80, and imports
//! that only go down the layers (no circle between two modules, no module reaching up into
//! `lib.rs`).
//!
//! It reads the library's sources as text: a `crate::a::b` or `super::b` path outside a
//! comment is an import of the module it names. Unit tests (the `#[cfg(test)] mod` that ends
//! a file) may use anything and are not read; every other line is.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom first: a module may use its own layer and those below it.
const LAYERS: &[&[&str]] = &[
    &["cpu", "error", "known", "limits", "symmetry"],
    &["search", "join"],
    &["engine"],
    &["gpu"],
    &["run"],
    &["solutions"],
    &["explore"],
];

/// Every `.rs` file of the library (the binary's `main.rs`, `cli/` and `serve/` left out), as its module
/// path (`run::counter`, `search`, `lib`) and its text up to its unit tests.
fn library_modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut modules = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap().with_extension("");
        let mut parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts[0] == "cli" || parts[0] == "serve" || parts == ["main"] {
            continue;
        }
        if parts.last().is_some_and(|p| p == "mod") {
            parts.pop();
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code = without_unit_tests(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        modules.insert(parts.join("::"), code.to_string());
    }
    modules
}

/// A file's text without its unit tests: the `#[cfg(test)] mod NAME { ... }` that ends it, if
/// any. Everything else is read, a `#[cfg(test)]` item elsewhere too (reading only up to the
/// first `#[cfg(test)]` hid the rest of a file that had one earlier). A test module that is
/// not the file's last item is an error: what follows it would go unread.
fn without_unit_tests(text: &str) -> Result<&str, String> {
    let Some(at) = text.find("#[cfg(test)]\nmod ") else {
        return Ok(text);
    };
    let module = &text[at..];
    // Past the module's first line, every line is indented, empty, or its closing brace,
    // which is the file's last line.
    let mut lines = module.lines().skip(2).peekable();
    while let Some(line) = lines.next() {
        let last = lines.peek().is_none();
        let inside = line.is_empty() || line.starts_with([' ', '\t']);
        if !(inside || (last && line == "}")) {
            return Err(format!(
                "a unit test module that is not the file's last item: {line:?}"
            ));
        }
    }
    Ok(&text[..at])
}

#[test]
fn unit_tests_are_cut_at_the_module_that_ends_a_file_only() {
    let code = "use crate::a;\n#[cfg(test)]\nfn helper() {}\nuse crate::b;\n";
    let tests = "#[cfg(test)]\nmod tests {\n    use crate::c;\n\n    fn f() {}\n}\n";
    assert_eq!(without_unit_tests(code), Ok(code));
    assert_eq!(without_unit_tests(&format!("{code}{tests}")), Ok(code));
    assert!(without_unit_tests(&format!("{tests}use crate::d;\n")).is_err());
}

/// The module a path such as `run::counter::Counter` names: its longest prefix that is a module.
fn module_of(path: &[&str], modules: &BTreeMap<String, String>) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|k| path[..k].join("::"))
        .find(|candidate| modules.contains_key(candidate))
}

/// The modules each module imports, outside comments; paths that name no module of the crate
/// (an item re-exported by `lib.rs`) count as importing `lib`.
fn imports(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for (name, text) in modules {
        let mut used = BTreeSet::new();
        for line in text.lines() {
            let code = line.split("//").next().unwrap();
            for (start, _) in code
                .match_indices("crate::")
                .chain(code.match_indices("super::"))
            {
                let from_super = code[start..].starts_with("super::");
                if from_super && code[..start].ends_with("super::") {
                    continue; // the second `super::` of `super::super::`, read with the first
                }
                let path: Vec<&str> = code[start + "crate::".len()..]
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .next()
                    .unwrap()
                    .split("::")
                    .filter(|p| !p.is_empty())
                    .collect();
                let mut full: Vec<&str> = Vec::new();
                if from_super {
                    // `super` of `a::b` (a file in folder `a`) is `a`; of `a` (a folder's
                    // mod.rs, or a file at the root) the crate's root.
                    let own: Vec<&str> = name.split("::").collect();
                    full.extend(&own[..own.len() - 1]);
                }
                full.extend(path);
                let target = module_of(&full, modules).unwrap_or_else(|| "lib".to_string());
                if &target != name && !name.starts_with(&format!("{target}::")) {
                    used.insert(target);
                }
            }
        }
        graph.insert(name.clone(), used);
    }
    graph
}

fn layer(module: &str) -> Option<usize> {
    let top = module.split("::").next().unwrap();
    LAYERS.iter().position(|layer| layer.contains(&top))
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let modules = library_modules();
    let graph = imports(&modules);
    // Depth-first search for a cycle, reporting the first one found.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(1) => {
                let at = stack.iter().position(|s| s == node).unwrap();
                let mut cycle = stack[at..].to_vec();
                cycle.push(node.to_string());
                return Some(cycle);
            }
            Some(2) => return None,
            _ => {}
        }
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, state, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, &graph, &mut state, &mut Vec::new()) {
            panic!("import circle: {}", cycle.join(" -> "));
        }
    }
    // The check sees imports at all: the counter uses the driver.
    assert!(graph["run::counter"].contains("run::driver"), "{graph:?}");
}

#[test]
fn no_module_reaches_up_a_layer_or_into_lib_rs() {
    let modules = library_modules();
    let graph = imports(&modules);
    let mut wrong = Vec::new();
    for (module, used) in &graph {
        if module == "lib" {
            continue;
        }
        let own = layer(module).unwrap_or_else(|| panic!("{module} is in no layer"));
        for target in used {
            match layer(target) {
                Some(theirs) if theirs <= own => {}
                _ => wrong.push(format!("{module} uses {target}")),
            }
        }
    }
    assert!(wrong.is_empty(), "imports up the layers: {wrong:?}");
    assert!(graph["engine"].contains("join"), "{graph:?}");
}

#[test]
fn the_root_of_src_holds_at_most_eight_files_and_no_file_is_over_700_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let root_files: Vec<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(root_files.len() <= 8, "{root_files:?}");
    let modules = library_modules();
    assert!(modules.len() > 30, "{:?}", modules.keys());
    fn lines_over(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                lines_over(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let lines = std::fs::read_to_string(&path).unwrap().lines().count();
                if lines > 700 {
                    out.push(format!("{} ({lines} lines)", path.display()));
                }
            }
        }
    }
    let mut long = Vec::new();
    lines_over(&src, &mut long);
    assert!(long.is_empty(), "files over 700 lines: {long:?}");
}

/// Regression: README.md and src/engine.rs named `src/full.rs` and `src/finish.rs` after the
/// files had moved under `src/search/`. Every path of the project's own files that README.md
/// or ARCHITECTURE.md names (`src/...`, `tests/...`, `scripts/...`, `examples/...`,
/// `benches/...`) exists.
#[test]
fn every_file_the_docs_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut named = 0;
    let mut missing = Vec::new();
    for doc in ["README.md", "ARCHITECTURE.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        for (start, _) in text.match_indices(['s', 't', 'e', 'b']) {
            let rest = &text[start..];
            let Some(top) = ["src/", "tests/", "scripts/", "examples/", "benches/"]
                .into_iter()
                .find(|top| rest.starts_with(top))
            else {
                continue;
            };
            // A path starts a word (not `foo_src/`) and ends at the first character no path
            // of this project has.
            if text[..start].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '/') {
                continue;
            }
            let path: String = rest
                .chars()
                .take_while(|&c| c.is_ascii_alphanumeric() || "_./-".contains(c))
                .collect();
            let path = path.trim_end_matches('.');
            let is_file = [".rs", ".sh", ".wgsl", ".html", ".css", ".js"]
                .iter()
                .any(|ext| path.ends_with(ext));
            if !is_file || path.len() <= top.len() {
                continue;
            }
            named += 1;
            if !root.join(path).exists() {
                missing.push(format!("{doc}: {path}"));
            }
        }
    }
    assert!(named > 20, "only {named} paths found: the scan is broken");
    assert!(missing.is_empty(), "named but missing: {missing:?}");
}

/// The most lines a function of `src/` may take, from its `fn` line to its closing brace: a
/// function longer than this does several things, and its parts want names of their own.
const MAX_FUNCTION_LINES: usize = 80;

/// Functions over [`MAX_FUNCTION_LINES`] that are being split on another branch, as
/// `path:name`. To be emptied once that split lands (the check fails on an entry that is no
/// longer long, so it cannot be forgotten); not a place to park new long functions.
const LONG_FUNCTIONS_BEING_SPLIT: &[&str] = &["src/join/unit.rs:count_unit_parted"];

/// Every function of a Rust source with a body, as (name, line of its `fn`, counted from 1,
/// lines from that line to its closing brace). A function starts at a line whose code begins,
/// after its indentation and any of `pub`, `pub(...)`, `const`, `async`, `unsafe`, `extern`
/// with its ABI, with `fn NAME`; its body opens at the first line after that holding a `{`
/// (a signature ending in `;` first has no body) and ends at the first line after that which
/// is the `fn` line's indentation followed by `}` alone, or on the same line when the braces
/// of that line balance (`fn f() {}`). A function whose end is not found is an error.
fn function_lengths(text: &str) -> Result<Vec<(String, usize, usize)>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        let indent = &line[..line.len() - code.len()];
        let Some(name) = function_name(code) else {
            continue;
        };
        let mut body = None;
        for (at, line) in lines.iter().enumerate().skip(start) {
            let code = line.split("//").next().unwrap();
            if code.contains('{') {
                body = Some((at, code));
                break;
            }
            if code.trim_end().ends_with(';') {
                break;
            }
        }
        let Some((opens, code)) = body else {
            continue; // a declaration without a body (a trait's method)
        };
        let closed_at_once = code.trim_end().ends_with('}')
            && code.matches('{').count() == code.matches('}').count();
        let end = if closed_at_once {
            opens
        } else {
            let closing = format!("{indent}}}");
            (opens + 1..lines.len())
                .find(|&at| lines[at] == closing)
                .ok_or_else(|| format!("line {}: fn {name} has no closing brace", start + 1))?
        };
        found.push((name.to_string(), start + 1, end - start + 1));
    }
    Ok(found)
}

/// The name of the function that the code of a line (indentation removed) starts, if it does.
fn function_name(code: &str) -> Option<&str> {
    let mut rest = code;
    loop {
        if let Some(after) = rest.strip_prefix("pub(") {
            rest = after.split_once(')')?.1.trim_start();
        } else if let Some(after) = rest.strip_prefix("extern \"") {
            rest = after.split_once('"')?.1.trim_start();
        } else if let Some(after) = ["pub ", "const ", "async ", "unsafe ", "extern "]
            .iter()
            .find_map(|qualifier| rest.strip_prefix(qualifier))
        {
            rest = after.trim_start();
        } else {
            break;
        }
    }
    let after = rest.strip_prefix("fn ")?;
    let end = after
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(after.len());
    let name = &after[..end];
    name.starts_with(|c: char| c.is_alphabetic() || c == '_')
        .then_some(name)
}

#[test]
fn functions_are_measured_from_their_fn_line_to_their_closing_brace() {
    let long_body = "    x += 1;\n".repeat(79);
    let text = format!(
        "pub(crate) const fn one() -> [u8; 2] {{ [0; 2] }}\n\
         trait T {{\n    fn declared(&self) -> [u8; 2];\n    fn given(&self) {{}}\n}}\n\
         unsafe extern \"C\" fn long(\n    x: u32,\n) {{\n{long_body}}}\n\
         macro_rules! m {{ () => {{ fn $name() {{}} }} }}\n\
         // fn in_a_comment() {{\n"
    );
    let lengths = function_lengths(&text).unwrap();
    let expected = [("one", 1, 1), ("given", 4, 1), ("long", 6, 83)];
    let expected: Vec<(String, usize, usize)> = expected
        .iter()
        .map(|&(name, line, length)| (name.to_string(), line, length))
        .collect();
    assert_eq!(lengths, expected);
    assert!(function_lengths("fn open() {\n    let x = 1;\n").is_err());
}

#[test]
fn no_function_in_src_is_longer_than_80_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    files.sort();
    let (mut measured, mut long, mut excepted) = (0, Vec::new(), BTreeSet::new());
    for file in files {
        let relative = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&file).unwrap();
        // Unit tests included: none needs the room.
        let lengths = function_lengths(&text).unwrap_or_else(|e| panic!("{relative}: {e}"));
        measured += lengths.len();
        for (name, line, length) in lengths {
            let key = format!("{relative}:{name}");
            if length <= MAX_FUNCTION_LINES {
                continue;
            }
            if LONG_FUNCTIONS_BEING_SPLIT.contains(&key.as_str()) {
                excepted.insert(key);
            } else {
                long.push(format!("{key} ({length} lines from line {line})"));
            }
        }
    }
    assert!(
        measured > 500,
        "only {measured} functions found: the scan is broken"
    );
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines: {long:?}"
    );
    let split: Vec<&&str> = LONG_FUNCTIONS_BEING_SPLIT
        .iter()
        .filter(|key| !excepted.contains(**key))
        .collect();
    assert!(
        split.is_empty(),
        "no longer over {MAX_FUNCTION_LINES} lines: remove from LONG_FUNCTIONS_BEING_SPLIT: {split:?}"
    );
}
