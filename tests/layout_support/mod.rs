//! What `tests/layout.rs` reads the source tree with: its files by module path, the imports
//! of each module (paths as text, outside comments and unit tests), circles in the graph they
//! make, and the lengths of functions. It reads text, not the compiler's view: the rules and
//! what they allow are `layout.rs`'s.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, appended to `out`.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Which of the package's two crates: the library (`lib.rs` and its modules), or the binary
/// (`main.rs`, `cli/` and `serve/`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Crate {
    /// `nqueens` the library.
    Library,
    /// The `nqueens` binary.
    Binary,
}

impl Crate {
    /// Whether a file of `src/` (its path's parts, `cli/config` as `["cli", "config"]`)
    /// belongs to this crate.
    fn holds(self, parts: &[String]) -> bool {
        let binary = parts[0] == "cli" || parts[0] == "serve" || parts == ["main"];
        binary == (self == Crate::Binary)
    }
}

/// Every `.rs` file of `krate`, by its module path (`run::counter`, `search`, `lib`;
/// `cli::config`, `main`): its code, the file without its unit tests.
pub fn modules(krate: Crate) -> BTreeMap<String, String> {
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
        if !krate.holds(&parts) {
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
pub fn without_unit_tests(text: &str) -> Result<&str, String> {
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

/// The module a path such as `run::counter::Counter` names: its longest prefix that is a module.
pub fn module_of<T>(path: &[&str], modules: &BTreeMap<String, T>) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|k| path[..k].join("::"))
        .find(|candidate| modules.contains_key(candidate))
}

pub fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a `use` tree (or of any path in code) that starts at the beginning of
/// `text`, each after `prefix`: `a::b::C` is one, `a::{b::C, D}` two, `a::*` names `a`.
/// Returns how far the tree went.
pub fn use_tree(text: &str, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
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

/// Whether `code` defines `item` at its top level (a `struct`, `enum`, `fn`, `const`,
/// `static`, `type`, `trait` or `union` on an unindented line, so not a method).
pub fn defines(code: &str, item: &str) -> bool {
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
pub struct Imports {
    /// The modules each module imports: by a `crate::` or `super::` path, or (a parent its
    /// children) by a path that starts with a child's name (`use device::Device`).
    pub uses: BTreeMap<String, BTreeSet<String>>,
    /// The arrows up: a module that takes items (named) defined in the file of a module
    /// above it, its parent or further up (`use super::Shape` where `join/mod.rs` defines
    /// `Shape`). A path to an item the parent only re-exports is no arrow up.
    pub up: BTreeMap<(String, String), BTreeSet<String>>,
}

impl Imports {
    /// Every arrow, up ones included, but those of the folders in `excepted`.
    pub fn all(&self, excepted: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
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
pub fn scan(name: &str, code: &str, modules: &BTreeMap<String, String>, imports: &mut Imports) {
    // The crate's root module: `lib`, or the binary's `main`.
    let root = if modules.contains_key("lib") {
        "lib"
    } else {
        "main"
    };
    let own: Vec<&str> = if name == root {
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
            // A path that names no module of the crate: an item the root re-exports.
            if !full.is_empty() && name != root {
                imports.uses.get_mut(name).unwrap().insert(root.to_string());
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
pub fn imports(modules: &BTreeMap<String, String>) -> Imports {
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

/// The first circle of `graph`, as the modules along it (the first again at the end).
pub fn first_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
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

/// The circles between a module and a module below it in its folder: the child takes items
/// defined in the parent's file, and the parent imports the child (or a module that leads to
/// it). Each as the child, the parent and the items.
pub fn parent_circles(imports: &Imports) -> Vec<(String, String, Vec<String>)> {
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

/// Every function of a Rust source with a body, as (name, line of its `fn`, counted from 1,
/// lines from that line to its closing brace). A function starts at a line whose code begins,
/// after its indentation and any of `pub`, `pub(...)`, `const`, `async`, `unsafe`, `extern`
/// with its ABI, with `fn NAME`; its body opens at the first line after that holding a `{`
/// (a signature ending in `;` first has no body) and ends at the first line after that which
/// is the `fn` line's indentation followed by `}` alone, or on the same line when the braces
/// of that line balance (`fn f() {}`). A function whose end is not found is an error.
pub fn function_lengths(text: &str) -> Result<Vec<(String, usize, usize)>, String> {
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
pub fn function_name(code: &str) -> Option<&str> {
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
