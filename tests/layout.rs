//! The source tree keeps the shape ARCHITECTURE.md describes: a few shared files at the root of
//! `src/`, one folder per concern, no file over 700 lines and no function over 80, and imports
//! that only go down the layers (no circle between two modules, no module reaching up into
//! `lib.rs`); and ARCHITECTURE.md's picture of who may use whom says what [`LAYERS`] says.
//!
//! It reads the library's sources as text: a `crate::a::b` or `super::b` path outside a
//! comment is an import of the module it names, and so is a parent's path from one of its
//! children (`use device::Device` in `gpu/mod.rs`). A child's path to an item its parent's
//! own file defines (`use super::Shape` where `join/mod.rs` defines `Shape`) is an arrow up
//! to the parent, so a parent and a child that import each other are a circle (one that
//! only goes through a re-export is not: the item is a sibling's).
//!
//! Every file is read whole: the line limit counts every line, and a file's unit tests (the
//! `#[cfg(test)] mod` that ends it) must be its last item. The import rules apply to the code
//! before them, not to the tests, for two reasons found by reading them too: a test
//! legitimately reaches past its file's layer or into another file of its folder to check
//! against it (`join::partition`'s tests count with `join::simd`, which uses `partition`; the
//! tests of `run::shard` and `solutions::construct` use what `lib.rs` re-exports), which would
//! be five layer breaks and a circle; and `super::` inside `mod tests` names the file's own
//! module, not its parent, so the paths would be misread.

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

/// The folders whose children still take items from the parent module file that imports them
/// (a circle between a parent and a child), each named by its module path: none since `join`'s
/// shared vocabulary left `join/mod.rs` (for `plan.rs`, `shape.rs`, `binomial.rs`). A folder
/// listed here that has no such circle fails the check too, so an exception goes with its
/// circle.
const KNOWN_PARENT_CIRCLES: &[&str] = &[];

/// Every `.rs` file under `dir`, appended to `out`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every `.rs` file of the library (the binary's `main.rs`, `cli/` and `serve/`
/// left out), by its module
/// path (`run::counter`, `search`, `lib`): its code, the file without its unit tests.
fn library_modules() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
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
fn module_of<T>(path: &[&str], modules: &BTreeMap<String, T>) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|k| path[..k].join("::"))
        .find(|candidate| modules.contains_key(candidate))
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a `use` tree (or of any path in code) that starts at the beginning of
/// `text`, each after `prefix`: `a::b::C` is one, `a::{b::C, D}` two, `a::*` names `a`.
/// Returns how far the tree went.
fn use_tree(text: &str, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix.to_vec();
    let mut at = 0;
    loop {
        let rest = text[at..].trim_start();
        at = text.len() - rest.len();
        if rest.starts_with('{') {
            at += 1;
            loop {
                let rest = text[at..].trim_start();
                at = text.len() - rest.len();
                match rest.chars().next() {
                    Some('}') => return at + 1,
                    Some(',') => at += 1,
                    // A tree cut short: what there was is read.
                    None => return at,
                    Some(_) => at += use_tree(&text[at..], &path, out),
                }
            }
        }
        if rest.starts_with('*') {
            out.push(path);
            return at + 1;
        }
        let word = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
        if word == 0 {
            out.push(path);
            return at;
        }
        path.push(rest[..word].to_string());
        let next = rest[word..].strip_prefix("::").map(str::trim_start);
        if next.is_some_and(|next| next.starts_with(|c: char| is_word(c) || c == '{' || c == '*')) {
            at += word + 2;
        } else {
            out.push(path);
            return at + word;
        }
    }
}

#[test]
fn use_trees_are_read_into_one_path_each() {
    let mut out = Vec::new();
    let read = use_tree("a::{b::C, d::{E, F},\n    G}, rest", &[], &mut out);
    let paths: Vec<String> = out.iter().map(|p| p.join("::")).collect();
    assert_eq!(paths, ["a::b::C", "a::d::E", "a::d::F", "a::G"]);
    assert_eq!(read, "a::{b::C, d::{E, F},\n    G}".len());
    out.clear();
    use_tree("Shape::new(n)", &["join".to_string()], &mut out);
    assert_eq!(out, [["join", "Shape", "new"]]);
}

/// Whether `code` defines `item` at its top level (a `struct`, `enum`, `fn`, `const`,
/// `static`, `type`, `trait` or `union` on an unindented line, so not a method).
fn defines(code: &str, item: &str) -> bool {
    const KINDS: [&str; 8] = [
        "struct", "enum", "fn", "const", "static", "type", "trait", "union",
    ];
    code.lines()
        .filter(|line| !line.starts_with(char::is_whitespace))
        .any(|line| {
            let code = line.split("//").next().unwrap();
            let words: Vec<&str> = code.split(|c: char| !is_word(c)).collect();
            words
                .windows(2)
                .any(|pair| KINDS.contains(&pair[0]) && pair[1] == item)
        })
}

/// Who imports whom.
struct Imports {
    /// The modules each module imports: by a `crate::` or `super::` path, or (a parent its
    /// children) by a path that starts with a child's name (`use device::Device`).
    uses: BTreeMap<String, BTreeSet<String>>,
    /// The arrows up: a module that takes items (named) defined in the file of a module
    /// above it, its parent or further up (`use super::Shape` where `join/mod.rs` defines
    /// `Shape`). A path to an item the parent only re-exports is no arrow up.
    up: BTreeMap<(String, String), BTreeSet<String>>,
}

impl Imports {
    /// Every arrow, up ones included, but those of the folders in `excepted`.
    fn all(&self, excepted: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
        let mut all = self.uses.clone();
        for (child, parent) in self.up.keys() {
            let top = parent.split("::").next().unwrap();
            if !excepted.contains(&top) {
                all.entry(child.clone()).or_default().insert(parent.clone());
            }
        }
        all
    }
}

/// The imports of `code` (no comments, no unit tests) of module `name`, added to `imports`.
fn scan(name: &str, code: &str, modules: &BTreeMap<String, String>, imports: &mut Imports) {
    let own: Vec<&str> = if name == "lib" {
        Vec::new()
    } else {
        name.split("::").collect()
    };
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let mut paths = Vec::new();
    for (start, _) in code.char_indices() {
        let rest = &code[start..];
        // A path is read once, from its first word.
        if !rest.starts_with(is_word) || code[..start].ends_with(|c: char| is_word(c) || c == ':') {
            continue;
        }
        let first = &rest[..rest.find(|c: char| !is_word(c)).unwrap_or(rest.len())];
        if !rest[first.len()..].starts_with("::") {
            continue;
        }
        let (base, from) = match first {
            "crate" => (Vec::new(), "crate::".len()),
            "super" => {
                let mut after = rest;
                let mut supers = 0;
                while let Some(next) = after.strip_prefix("super::") {
                    (after, supers) = (next, supers + 1);
                }
                let Some(kept) = own.len().checked_sub(supers) else {
                    continue;
                };
                (own[..kept].to_vec(), rest.len() - after.len())
            }
            // `self::`, or a path from one of the module's own children (`device::Device`).
            word => {
                let child = own.iter().chain([&word]).copied().collect::<Vec<_>>();
                if word != "self" && !modules.contains_key(&child.join("::")) {
                    continue;
                }
                (own.clone(), 0)
            }
        };
        let base: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        use_tree(&rest[from..], &base, &mut paths);
    }
    for path in paths {
        let full: Vec<&str> = path
            .iter()
            .map(String::as_str)
            .filter(|p| *p != "self")
            .collect();
        let Some(target) = module_of(&full, modules) else {
            // A path that names no module of the crate: an item `lib.rs` re-exports.
            if !full.is_empty() && name != "lib" {
                imports
                    .uses
                    .get_mut(name)
                    .unwrap()
                    .insert("lib".to_string());
            }
            continue;
        };
        if target == name {
            continue;
        }
        if !name.starts_with(&format!("{target}::")) {
            imports.uses.get_mut(name).unwrap().insert(target);
            continue;
        }
        // A module above this one: an arrow up when the item is its file's own.
        let item = full.get(target.split("::").count());
        if let Some(item) = item.filter(|item| defines(&modules[&target], item)) {
            let arrow = (name.to_string(), target.clone());
            imports
                .up
                .entry(arrow)
                .or_default()
                .insert(item.to_string());
        }
    }
}

/// The modules each module imports, outside comments and unit tests (see [`Imports`]).
fn imports(modules: &BTreeMap<String, String>) -> Imports {
    let mut imports = Imports {
        uses: modules
            .keys()
            .map(|name| (name.clone(), BTreeSet::new()))
            .collect(),
        up: BTreeMap::new(),
    };
    for (name, code) in modules {
        scan(name, code, modules, &mut imports);
    }
    imports
}

fn layer(module: &str) -> Option<usize> {
    let top = module.split("::").next().unwrap();
    LAYERS.iter().position(|layer| layer.contains(&top))
}

/// The first circle of `graph`, as the modules along it (the first again at the end).
fn first_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first search for a cycle.
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
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut state, &mut Vec::new()))
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let modules = library_modules();
    let imports = imports(&modules);
    // The parent circles of the folders excepted are reported (and expected) below.
    if let Some(cycle) = first_circle(&imports.all(KNOWN_PARENT_CIRCLES)) {
        panic!("import circle: {}", cycle.join(" -> "));
    }
    // The check sees imports at all: the counter uses the driver, and a parent its child.
    assert!(imports.uses["run::counter"].contains("run::driver"));
    assert!(
        imports.uses["gpu"].contains("gpu::device"),
        "{:?}",
        imports.uses["gpu"]
    );
}

/// The circles between a module and a module below it in its folder: the child takes items
/// defined in the parent's file, and the parent imports the child (or a module that leads to
/// it). Each as the child, the parent and the items.
fn parent_circles(imports: &Imports) -> Vec<(String, String, Vec<String>)> {
    let all = imports.all(&[]);
    let reaches = |from: &str, to: &str| {
        let mut seen = BTreeSet::new();
        let mut next = vec![from.to_string()];
        while let Some(node) = next.pop() {
            for used in all.get(&node).into_iter().flatten() {
                if used == to {
                    return true;
                }
                if seen.insert(used.clone()) {
                    next.push(used.clone());
                }
            }
        }
        false
    };
    imports
        .up
        .iter()
        .filter(|((child, parent), _)| reaches(parent, child))
        .map(|((child, parent), items)| {
            (
                child.clone(),
                parent.clone(),
                items.iter().cloned().collect(),
            )
        })
        .collect()
}

#[test]
fn no_child_takes_items_from_a_parent_that_imports_it() {
    let circles = parent_circles(&imports(&library_modules()));
    let known = |parent: &str| KNOWN_PARENT_CIRCLES.contains(&parent.split("::").next().unwrap());
    let new: Vec<String> = circles
        .iter()
        .filter(|(_, parent, _)| !known(parent))
        .map(|(child, parent, items)| format!("{child} takes {items:?} from {parent}"))
        .collect();
    assert!(
        new.is_empty(),
        "children that take items from the parent that imports them (give the items a file \
         of their own): {new:?}"
    );
    let gone: Vec<&str> = KNOWN_PARENT_CIRCLES
        .iter()
        .copied()
        .filter(|folder| {
            !circles
                .iter()
                .any(|(_, parent, _)| parent.split("::").next() == Some(folder))
        })
        .collect();
    assert!(
        gone.is_empty(),
        "KNOWN_PARENT_CIRCLES lists folders without a circle: take them off: {gone:?}"
    );
}

#[test]
fn a_child_that_takes_its_parents_own_item_is_a_circle_and_a_re_export_is_not() {
    let modules: BTreeMap<String, String> = [
        ("lib", "mod engine;\n"),
        (
            "engine",
            "mod adapter;\nmod device;\nmod work;\npub use adapter::Info;\nuse device::open;\n\
             pub struct Shape {\n    pub fn new() {}\n}\npub fn run() {}\n",
        ),
        ("engine::adapter", "pub struct Info;\n"),
        (
            "engine::device",
            "use super::{Info, Shape};\npub fn open() {}\n",
        ),
        // Takes a method's name and an item of the parent's, but is not imported by it.
        ("engine::work", "use super::new;\nfn f() { super::run() }\n"),
    ]
    .into_iter()
    .map(|(name, code)| (name.to_string(), code.to_string()))
    .collect();
    let imports = imports(&modules);
    let circles = parent_circles(&imports);
    let expected = (
        "engine::device".to_string(),
        "engine".to_string(),
        vec!["Shape".to_string()],
    );
    assert_eq!(circles, [expected]);
    assert_eq!(
        imports.up.keys().collect::<Vec<_>>(),
        [
            &("engine::device".to_string(), "engine".to_string()),
            &("engine::work".to_string(), "engine".to_string())
        ]
    );
    assert!(imports.uses["engine"].contains("engine::adapter"));
}

#[test]
fn no_module_reaches_up_a_layer_or_into_lib_rs() {
    let modules = library_modules();
    let graph = imports(&modules).all(&[]);
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
    // Every line of every file counts, its unit tests too: the limit is the file's.
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

/// The most lines a function of `src/` may take, from its `fn` line to its closing brace: a
/// function longer than this does several things, and its parts want names of their own.
const MAX_FUNCTION_LINES: usize = 80;

/// Functions over [`MAX_FUNCTION_LINES`] that are being split on another branch, as
/// `path:name`. To be emptied once that split lands (the check fails on an entry that is no
/// longer long, so it cannot be forgotten); not a place to park new long functions.
const LONG_FUNCTIONS_BEING_SPLIT: &[&str] = &[];

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
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
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
