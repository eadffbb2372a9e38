//! The source tree keeps the shape ARCHITECTURE.md describes: a few shared files at the root of
//! `src/`, one folder per concern, no file over 700 lines, and imports that only go down the
//! layers (no circle between two modules, no module reaching up into `lib.rs`); and
//! ARCHITECTURE.md's picture of who may use whom says what [`LAYERS`] says.
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

/// Every `.rs` file of the library (the binary's `main.rs` and `cli/` left out), as its module
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
        if parts[0] == "cli" || parts == ["main"] {
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

/// ARCHITECTURE.md's picture of who may use whom (the fenced block whose first line starts
/// `may use ->`): a row per part, a column per part, `x` where the row may import the column
/// and `.` where it may not; `base` is the lowest layer. The picture is read back into the
/// answer it gives for every pair, and that must be [`LAYERS`]'s.
fn pictured_layers(architecture: &str) -> BTreeMap<(String, String), bool> {
    let start = architecture
        .find("```\nmay use ->")
        .expect("ARCHITECTURE.md has no picture starting `may use ->`");
    let block = &architecture[start + 4..];
    let block = &block[..block.find("```").expect("the picture's block is closed")];
    let mut lines = block.lines();
    let header = lines.next().unwrap().trim_start_matches("may use ->");
    let columns: Vec<&str> = header.split_whitespace().collect();
    let part = |name: &str| {
        name.trim_end_matches('/')
            .trim_end_matches(".rs")
            .to_string()
    };
    let mut allowed = BTreeMap::new();
    for line in lines {
        let mut words = line.split_whitespace();
        let row = part(words.next().unwrap());
        let marks: Vec<&str> = words.collect();
        assert_eq!(marks.len(), columns.len(), "{line:?}");
        for (column, mark) in columns.iter().zip(marks) {
            assert!(mark == "x" || mark == ".", "{line:?}");
            allowed.insert((row.clone(), part(column)), mark == "x");
        }
    }
    allowed
}

/// The answer [`LAYERS`] gives for every pair of parts, named as the picture names them: the
/// lowest layer as `base`, the others each alone.
fn layers_as_pictured() -> BTreeMap<(String, String), bool> {
    let parts: Vec<(String, usize)> = std::iter::once(("base".to_string(), 0))
        .chain(
            LAYERS
                .iter()
                .enumerate()
                .skip(1)
                .flat_map(|(at, layer)| layer.iter().map(move |part| (part.to_string(), at))),
        )
        .collect();
    let mut expected = BTreeMap::new();
    for (row, own) in &parts {
        for (column, theirs) in &parts {
            expected.insert((row.clone(), column.clone()), theirs <= own);
        }
    }
    expected
}

fn architecture() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md")).unwrap()
}

#[test]
fn the_architecture_pictures_the_layers_this_test_checks() {
    let (pictured, expected) = (pictured_layers(&architecture()), layers_as_pictured());
    let wrong: Vec<String> = expected
        .iter()
        .filter(|(pair, may)| pictured.get(*pair) != Some(may))
        .map(|((row, column), may)| format!("{row} may use {column}: {may}"))
        .collect();
    assert!(wrong.is_empty(), "the picture says otherwise: {wrong:?}");
    assert_eq!(pictured.len(), expected.len(), "parts the layers lack");
}

#[test]
fn a_picture_that_lets_the_base_use_the_search_disagrees_with_the_layers() {
    let text = architecture();
    let row = "\nbase          x      .";
    assert!(text.contains(row), "the picture's base row has moved");
    let wrong = text.replace(row, "\nbase          x      x");
    assert_ne!(pictured_layers(&wrong), layers_as_pictured());
}
