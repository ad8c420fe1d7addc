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
