//! The source tree keeps the shape ARCHITECTURE.md describes: a few shared files at the root of
//! `src/`, one folder per concern, no file over 700 lines and no function over 80, and imports
//! that only go down the layers (no circle between two modules, no module reaching up into
//! `lib.rs`); and ARCHITECTURE.md's picture of who may use whom says what [`LAYERS`] says. The
//! binary (`main.rs`, `cli/`, `serve/`) is held to the same rules: no circle, its layers
//! ([`BINARY_LAYERS`]) only looked down, and no child taking its parent's items.
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

mod layout_support;

use layout_support::{
    Crate, first_circle, function_lengths, imports, modules, parent_circles, rust_files, use_tree,
    without_unit_tests,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

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
/// shared vocabulary left `join/mod.rs` (for `plan/tasks.rs`, `shape.rs`, `binomial.rs`). A folder
/// listed here that has no such circle fails the check too, so an exception goes with its
/// circle.
const KNOWN_PARENT_CIRCLES: &[&str] = &[];

#[test]
fn unit_tests_are_cut_at_the_module_that_ends_a_file_only() {
    let code = "use crate::a;\n#[cfg(test)]\nfn helper() {}\nuse crate::b;\n";
    let tests = "#[cfg(test)]\nmod tests {\n    use crate::c;\n\n    fn f() {}\n}\n";
    assert_eq!(without_unit_tests(code), Ok(code));
    assert_eq!(without_unit_tests(&format!("{code}{tests}")), Ok(code));
    assert!(without_unit_tests(&format!("{tests}use crate::d;\n")).is_err());
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

fn layer(module: &str) -> Option<usize> {
    let top = module.split("::").next().unwrap();
    LAYERS.iter().position(|layer| layer.contains(&top))
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let modules = modules(Crate::Library);
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

#[test]
fn no_child_takes_items_from_a_parent_that_imports_it() {
    let circles = parent_circles(&imports(&modules(Crate::Library)));
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
    let modules = modules(Crate::Library);
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

/// The binary's layers, bottom first, by folder: the command line's files (`cli/`), the
/// page's server, which uses them (its config, exit codes, stderr, Ctrl-C), and `main.rs`.
const BINARY_LAYERS: &[&str] = &["cli", "serve", "main"];

#[test]
fn the_binary_has_no_import_circle_and_its_layers_only_look_down() {
    let modules = modules(Crate::Binary);
    let imports = imports(&modules);
    let graph = imports.all(&[]);
    if let Some(cycle) = first_circle(&graph) {
        panic!("import circle in the binary: {}", cycle.join(" -> "));
    }
    let layer = |module: &str| {
        let top = module.split("::").next().unwrap();
        BINARY_LAYERS
            .iter()
            .position(|&l| l == top)
            .unwrap_or_else(|| panic!("{module} is in no layer of the binary"))
    };
    let mut wrong = Vec::new();
    for (module, used) in &graph {
        for target in used {
            if layer(target) > layer(module) {
                wrong.push(format!("{module} uses {target}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports up the binary's layers: {wrong:?}"
    );
    // The check sees the binary's imports: main its commands, the server the command line's.
    assert!(graph["main"].contains("cli::count"), "{:?}", graph["main"]);
    assert!(
        graph["serve"].contains("cli::config"),
        "{:?}",
        graph["serve"]
    );
    assert!(
        graph["serve"].contains("serve::jobs"),
        "{:?}",
        graph["serve"]
    );
}

/// A child that takes an item its parent's own file defines is an arrow up, and a parent
/// imports its children: the join's folders and the binary's hold none, so that a folder's
/// `mod.rs` only declares and re-exports, and its files import one another by their own paths.
#[test]
fn no_child_in_the_join_or_the_binary_takes_an_item_from_its_parent() {
    let library = imports(&modules(Crate::Library));
    let binary = imports(&modules(Crate::Binary));
    let up: Vec<String> = library
        .up
        .iter()
        .filter(|((child, _), _)| child.starts_with("join::"))
        .chain(&binary.up)
        .map(|((child, parent), items)| format!("{child} takes {items:?} from {parent}"))
        .collect();
    assert!(
        up.is_empty(),
        "children taking their parent's items: {up:?}"
    );
    // The join is in folders that the scan sees.
    let library = modules(Crate::Library);
    assert!(library.contains_key("join::count::walk"));
    assert!(library.contains_key("join::plan::tasks"));
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
    let modules = modules(Crate::Library);
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
