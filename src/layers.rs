//! Keeps the modules in their order: each top-level module uses only those at its layer or below (the order in
//! `lib.rs`), and the modules side by side in any folder use each other without a circle, so each can be read,
//! tested and changed from the bottom up. A file's tests (`mod tests`) may use anything.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
};

/// A module's path below the crate: `["app", "dashboard", "view"]`; the crate root is empty.
type Module = Vec<String>;

/// The top-level modules, lowest first; those of one rank must not form a circle either.
const LAYERS: &[&[&str]] = &[
    &["config", "chat", "files", "logging", "blueprint"],
    &["bot"],
    &["script"],
    &["primitives"],
    &["skills", "llm"],
    &["memory", "store"],
    &["agent"],
    &["app"],
];

fn rank(top: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&top))
}

/// Every `.rs` file under `src`, by module, with its text (but the build script, `src/build.rs`).
fn sources(src: &Path) -> Vec<(Module, String)> {
    let mut files = Vec::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && path != src.join("build.rs") {
                let relative = path.strip_prefix(src).unwrap().with_extension("");
                let mut module: Module = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                if module.last().is_some_and(|m| m == "mod") || module == ["lib"] || module == ["main"] {
                    module.pop();
                }
                files.push((module, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    files
}

/// The code of a file without its comments and its `#[cfg(test)] mod …` (always at the end).
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines().map(|line| line.find("//").map_or(line, |at| &line[..at])).collect::<Vec<_>>().join("\n")
}

/// The paths written from `at` on (`crate::a::{b, c::{d}}` is `crate::a::b` and `crate::a::c::d`).
fn paths_at(code: &str, at: usize) -> Vec<String> {
    let rest = &code[at..];
    let head_len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
    let head = &rest[..head_len];
    if !head.ends_with("::") || !rest[head_len..].starts_with('{') {
        return vec![head.trim_end_matches(':').to_owned()];
    }
    let group = &rest[head_len..];
    let (mut depth, mut start, mut items) = (0, 1, Vec::new());
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    items.push(&group[start..i]);
                    break;
                }
            }
            ',' if depth == 1 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items
        .into_iter()
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .flat_map(|item| paths_at(item, 0).into_iter().map(|p| format!("{head}{p}")))
        .collect()
}

/// Which modules each module uses, from the `crate::`, `super::` and `self::` paths in its code.
fn uses(files: &[(Module, String)]) -> BTreeMap<Module, BTreeSet<Module>> {
    let known: BTreeSet<&Module> = files.iter().map(|(m, _)| m).collect();
    let mut uses: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, text) in files {
        let code = code_of(text);
        for (at, _) in code.match_indices("::") {
            // The path's first name starts after the last character that cannot be in one (any width: text in
            // string literals is not all ASCII).
            let start = code[..at]
                .char_indices()
                .rev()
                .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
                .map_or(0, |(i, c)| i + c.len_utf8());
            if !matches!(&code[start..at], "crate" | "super" | "self")
                || code[..start].ends_with("::")
                || code[..start].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            for path in paths_at(&code, start) {
                let mut parts = path.split("::").filter(|p| !p.is_empty()).peekable();
                let mut full: Module = match parts.peek() {
                    Some(&"crate") => Vec::new(),
                    _ => module.clone(),
                };
                for part in parts {
                    match part {
                        "crate" | "self" => {}
                        "super" => {
                            full.pop();
                        }
                        name => full.push(name.to_owned()),
                    }
                }
                // The module the path ends in: the longest start of it that is a file.
                while !known.contains(&full) {
                    full.pop();
                }
                if &full != module {
                    uses.entry(module.clone()).or_default().insert(full);
                }
            }
        }
    }
    uses
}

/// The uses between modules side by side, by the folder they share: `app::work` using `app::state::BotState` is
/// `work → state` in `app`. A module using its own parent (or a child) is how Rust modules are built, not a circle.
fn side_by_side(uses: &BTreeMap<Module, BTreeSet<Module>>) -> BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> {
    let mut folders: BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, targets) in uses {
        for to in targets {
            let shared = from.iter().zip(to).take_while(|(a, b)| a == b).count();
            if shared == from.len() || shared == to.len() {
                continue;
            }
            folders
                .entry(from[..shared].to_vec())
                .or_default()
                .entry(from[shared].clone())
                .or_default()
                .insert(to[shared].clone());
        }
    }
    folders
}

/// A circle in `graph`, as the names along it, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit<'a>(
        node: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<&'a str>,
        path: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut found: Vec<String> = path[at..].iter().map(|n| n.to_string()).collect();
            found.push(node.to_owned());
            return Some(found);
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, done, path) {
                return Some(found);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(node, graph, &mut done, &mut Vec::new()))
}

/// What breaks the order: a module using one of a higher layer, or a circle among modules side by side.
fn breaches(files: &[(Module, String)]) -> Vec<String> {
    let mut found = Vec::new();
    let uses = uses(files);
    for (from, targets) in &uses {
        let Some(top) = from.first() else { continue };
        for to in targets {
            let Some(to_top) = to.first() else { continue };
            if let (Some(a), Some(b)) = (rank(top), rank(to_top))
                && b > a
            {
                found.push(format!("{} uses {}, a layer above it", from.join("::"), to.join("::")));
            }
        }
    }
    for (folder, graph) in side_by_side(&uses) {
        if let Some(circle) = circle(&graph) {
            let folder = if folder.is_empty() { "the crate".to_owned() } else { format!("src/{}", folder.join("/")) };
            found.push(format!("a circle in {folder}: {}", circle.join(" → ")));
        }
    }
    found
}

#[test]
fn every_module_uses_only_its_layer_and_those_below_without_circles() {
    let files = sources(&crate::crate_dir().join("src"));
    assert!(files.len() > 50, "the sources were not found: {} files", files.len());
    for (module, _) in &files {
        if let Some(top) = module.first() {
            assert!(
                rank(top).is_some() || top == "robustness" || top == "layers",
                "{top} is in no layer: add it to LAYERS"
            );
        }
    }
    let breaches = breaches(&files);
    assert!(breaches.is_empty(), "the modules' order is broken:\n{}", breaches.join("\n"));
}

#[test]
fn a_circle_or_a_use_from_below_is_found() {
    let file = |path: &str, text: &str| -> (Module, String) {
        (path.split('/').filter(|p| !p.is_empty()).map(str::to_owned).collect(), text.to_owned())
    };
    let files = vec![
        file("", "pub mod app; pub mod bot;"),
        file("app", "mod state; mod work;"),
        file("app/state", "use super::{work::{Job, run}, other};\n// crate::app::work in a comment is not a use"),
        file("app/work", "use crate::{app::state::BotState, bot::BotHandle};\nfn f() { super::state::x(); }"),
        file("bot", "fn f() -> crate::app::Thing { todo!() }"),
    ];
    let found = breaches(&files);
    assert_eq!(
        found,
        [
            "bot uses app, a layer above it",
            "a circle in the crate: app → bot → app",
            "a circle in src/app: state → work → state"
        ],
        "{found:#?}"
    );
    // Without the two wrong uses, nothing is found; a comment or a test module does not count.
    let files = vec![
        file("", "pub mod app; pub mod bot;"),
        file("app", "mod state; mod work;"),
        file(
            "app/state",
            "// use super::work::Job;\nfn f() {}\n#[cfg(test)]\nmod tests { use super::super::work::Job; }",
        ),
        file("app/work", "use crate::{app::state::BotState, bot::BotHandle};"),
        file("bot", "fn f() { let arrow = \"→self::f\"; }"),
    ];
    assert_eq!(breaches(&files), Vec::<String>::new());
}
