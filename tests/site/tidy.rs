//! Repository checks, as ordinary tests (after rust-analyzer's `tidy`).

use std::path::Path;

use crate::common::repo;

/// Each module of `src/`, by its path: `ebook::mobi::text`.
fn modules(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let module = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}::{name}")
        };
        if path.is_dir() {
            modules(&path, &module, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            match name.as_str() {
                "lib" => {}
                "mod" => out.push(prefix.to_string()),
                _ => out.push(module),
            }
        }
    }
}

#[test]
fn architecture_names_every_module() {
    let doc = std::fs::read_to_string(repo().join("ARCHITECTURE.md")).unwrap();
    let mut all = Vec::new();
    modules(&repo().join("src"), "", &mut all);
    assert!(all.len() > 30, "{all:?}");
    let missing: Vec<&String> = all
        .iter()
        .filter(|m| !doc.contains(&format!("| `{m}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md has no row for {missing:?}"
    );
}

/// No test keeps a temporary folder in a `static`: a static is never
/// dropped, so the folder outlives the run (each `cargo test` once left
/// up to 2 GB in `/tmp`, until CI's disk filled up). A folder shared by a
/// binary's tests is `common::shared_dir`, removed when the binary exits.
#[test]
fn no_static_holds_a_temporary_folder() {
    let mut found = Vec::new();
    for dir in ["src", "tests", "xtask"] {
        for entry in walkdir::WalkDir::new(repo().join(dir)).sort_by_file_name() {
            let entry = entry.unwrap();
            let path = entry.path();
            if path
                .components()
                .any(|c| c.as_os_str() == "node_modules" || c.as_os_str() == "target")
                || path.extension().is_none_or(|e| e != "rs")
            {
                continue;
            }
            let text = std::fs::read_to_string(path).unwrap();
            for (n, line) in text.lines().enumerate() {
                let line = line.trim_start();
                if line.starts_with("static ") && line.contains("TempDir") {
                    found.push(format!("{}:{}", path.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "a TempDir in a static: {found:?}");
}
