//! The shape of the code, checked (issue 13): the top-level modules of `src/` depend on each other
//! without a cycle, the store knows nothing of the command parser, the rules engine nothing of mail or
//! storage, and no file holds more than about 800 lines of code besides its tests.
//!
//! A module depends on another when any of its files names `crate::<other>`; comments and the
//! `#[cfg(test)] mod tests` block at the end of a file do not count. `cargo test --test it
//! architecture:: -- --nocapture` prints the graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The most lines of code (before a file's tests) one file may hold; `about 800` in the issue.
const MAX_CODE_LINES: usize = 850;

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

/// A file's code: without its trailing test module and without comments.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(cut) => &text[..cut],
        None => &text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The source folders of the workspace's crates: the server's, and those under `crates/`.
fn crate_sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut srcs = vec![root.join("src")];
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        srcs.push(entry.unwrap().path().join("src"));
    }
    srcs
}

/// The top-level modules of every crate's `src/` and their files, as one graph: the server names the
/// games crate's modules by the same paths (`crate::games`, re-exported), and no two crates share a
/// module's name.
fn modules() -> BTreeMap<String, Vec<PathBuf>> {
    let mut mods: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for src in crate_sources() {
        modules_of(&src, &mut mods);
    }
    assert!(mods.contains_key("games") && mods.contains_key("server"));
    mods
}

fn modules_of(src: &Path, mods: &mut BTreeMap<String, Vec<PathBuf>>) {
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if name == "main" || name == "lib" {
            continue;
        }
        let files = mods.entry(name).or_default();
        if path.is_dir() {
            rust_files(&path, files);
        } else {
            files.push(path);
        }
    }
}

/// Which modules each module names: `crate::x` and `use crate::{x, y}`.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules();
    let mut deps = BTreeMap::new();
    for (name, files) in &mods {
        let mut found = BTreeSet::new();
        for f in files {
            let code = code_of(f);
            for (i, _) in code.match_indices("crate::") {
                let rest = &code[i + "crate::".len()..];
                if let Some(group) = rest.strip_prefix('{') {
                    let group = &group[..group.find('}').unwrap_or(group.len())];
                    for word in group.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                        found.insert(word.to_string());
                    }
                } else {
                    let word: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    found.insert(word);
                }
            }
        }
        found.retain(|m| m != name && mods.contains_key(m));
        deps.insert(name.clone(), found);
    }
    deps
}

/// Every module reachable from `from`.
fn reachable(deps: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from.to_string()];
    while let Some(m) = todo.pop() {
        for d in &deps[&m] {
            if seen.insert(d.clone()) {
                todo.push(d.clone());
            }
        }
    }
    seen
}

#[test]
fn the_modules_have_no_cycle() {
    let deps = graph();
    for (m, d) in &deps {
        println!(
            "{m:12} -> {}",
            d.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    // The graph is read, not empty: the server uses the store and the rules.
    assert!(deps["server"].contains("storage") && deps["server"].contains("games"));
    let cycles: Vec<&String> = deps
        .keys()
        .filter(|m| reachable(&deps, m).contains(*m))
        .collect();
    assert!(
        cycles.is_empty(),
        "these modules depend on themselves through others: {cycles:?}"
    );
}

#[test]
fn the_store_and_the_rules_stand_alone() {
    let deps = graph();
    let store = reachable(&deps, "storage");
    assert!(
        !store.contains("command") && !store.contains("server"),
        "storage reaches {store:?}"
    );
    let rules = reachable(&deps, "games");
    for outside in [
        "mail_in", "mail_out", "storage", "server", "command", "config",
    ] {
        assert!(!rules.contains(outside), "games reaches {outside}");
    }
}

/// The games are a crate of their own (issue 36 section 2): the compiler keeps them from the server,
/// and their manifest from every crate of mail, storage, the web and passwords.
#[test]
fn the_games_crate_needs_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest: toml::Table = std::fs::read_to_string(root.join("crates/games/Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let deps = manifest["dependencies"].as_table().unwrap();
    assert!(deps.contains_key("tiny-skia"), "the manifest is read");
    for io in [
        "rusqlite",
        "lettre",
        "tokio",
        "axum",
        "hyper",
        "mail-parser",
        "argon2",
        "pbem",
    ] {
        assert!(!deps.contains_key(io), "the games crate depends on {io}");
    }
}

#[test]
fn no_file_holds_more_than_about_800_lines_of_code() {
    let mut big = Vec::new();
    for files in modules().values() {
        for f in files {
            let text = std::fs::read_to_string(f).unwrap();
            // Files that are all tests (`tests.rs`, `*_tests.rs`) are left out.
            let name = f.file_name().unwrap().to_str().unwrap();
            if name == "tests.rs" || name.ends_with("_tests.rs") {
                continue;
            }
            let lines = match text.find("#[cfg(test)]\nmod tests") {
                Some(cut) => text[..cut].lines().count(),
                None => text.lines().count(),
            };
            if lines > MAX_CODE_LINES {
                big.push(format!("{} ({lines} lines)", f.display()));
            }
        }
    }
    assert!(big.is_empty(), "split these by concern: {big:?}");
}

/// The most lines, tests included, one file that is not all tests may hold (issue 36): past it a
/// file is split by concern into modules named for what they do.
const MAX_FILE_LINES: usize = 1_000;

#[test]
fn no_file_passes_a_thousand_lines() {
    let mut big = Vec::new();
    for files in modules().values() {
        for f in files {
            let name = f.file_name().unwrap().to_str().unwrap();
            if name == "tests.rs" || name.ends_with("_tests.rs") {
                continue;
            }
            let lines = std::fs::read_to_string(f).unwrap().lines().count();
            if lines > MAX_FILE_LINES {
                big.push(format!("{} ({lines} lines)", f.display()));
            }
        }
    }
    assert!(big.is_empty(), "split these by concern: {big:?}");
}

/// The modules of `src/server/` (its files but `mod.rs`, the root that declares them) and which of
/// them each names: `super::x`, `super::{x, ..}`, `crate::server::x`, or an item that `mod.rs`
/// re-exports from `x` (`use boards::{userids, ..}` makes `super::userids` name `boards`).
fn server_graph() -> BTreeMap<String, BTreeSet<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/server");
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            let mut inner = Vec::new();
            rust_files(&path, &mut inner);
            files.entry(name).or_insert_with(Vec::new).extend(inner);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "mod" {
            files.entry(name).or_insert_with(Vec::new).push(path);
        }
    }
    // What the root re-exports, and from which module.
    let mut exported: BTreeMap<String, String> = BTreeMap::new();
    for line in code_of(&dir.join("mod.rs")).lines() {
        let line = line.trim();
        let Some(rest) = line
            .strip_prefix("pub use ")
            .or_else(|| line.strip_prefix("use "))
        else {
            continue;
        };
        let Some((module, items)) = rest.split_once("::") else {
            continue;
        };
        if !files.contains_key(module) {
            continue;
        }
        for item in items.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !item.is_empty() {
                exported.insert(item.to_string(), module.to_string());
            }
        }
    }
    let module_of = |word: &str| -> Option<String> {
        if files.contains_key(word) {
            Some(word.to_string())
        } else {
            exported.get(word).cloned()
        }
    };
    let mut deps = BTreeMap::new();
    for (name, paths) in &files {
        let mut found = BTreeSet::new();
        for f in paths {
            let code = code_of(f);
            for prefix in ["super::", "crate::server::"] {
                for (i, _) in code.match_indices(prefix) {
                    let rest = &code[i + prefix.len()..];
                    let words: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                        // The group up to its closing brace (groups may nest).
                        let mut depth = 1;
                        let end = group
                            .char_indices()
                            .find(|&(_, c)| {
                                match c {
                                    '{' => depth += 1,
                                    '}' => depth -= 1,
                                    _ => {}
                                }
                                depth == 0
                            })
                            .map_or(group.len(), |(j, _)| j);
                        group[..end]
                            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .collect()
                    } else {
                        let end = rest
                            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .unwrap_or(rest.len());
                        vec![&rest[..end]]
                    };
                    found.extend(words.into_iter().filter_map(module_of));
                }
            }
        }
        found.remove(name);
        deps.insert(name.clone(), found);
    }
    deps
}

/// The server's files name each other without a cycle (issue 36), so each can be read knowing only
/// those below it.
#[test]
fn the_server_modules_have_no_cycle() {
    let deps = server_graph();
    for (m, d) in &deps {
        println!(
            "server::{m:14} -> {}",
            d.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    // The graph is read, not empty: the board mails name the proposals' seats, and a re-exported
    // item counts for the module it comes from.
    assert!(deps["listing"].contains("boards"), "{deps:?}");
    let cycles: Vec<&String> = deps
        .keys()
        .filter(|m| reachable(&deps, m).contains(*m))
        .collect();
    assert!(
        cycles.is_empty(),
        "these server modules depend on themselves through others: {cycles:?}"
    );
}

/// The first `cargo test` builds every example it is not told to skip, each a link of the whole
/// crate; the examples are tools that scripts/ runs, so each must need the `tools` feature.
#[test]
fn every_example_needs_the_tools_feature() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let gated: BTreeSet<String> = manifest["example"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            e.get("required-features")
                .and_then(|f| f.as_array())
                .is_some_and(|f| f.iter().any(|x| x.as_str() == Some("tools")))
        })
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("examples")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            if !gated.contains(&name) {
                missing.push(name);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "examples without an [[example]] entry with required-features = [\"tools\"] in \
         Cargo.toml (cargo test would build them): {missing:?}"
    );
}
