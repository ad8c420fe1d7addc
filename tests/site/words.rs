//! The words the README and the home page say of the site, checked
//! against the site built with the defaults: every path they name is
//! there, and every figure they give of the poster is the one the build
//! draws.

use std::path::Path;

use tictactoe_book::assets::Assets;
use tictactoe_book::site;

use crate::common::*;

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).unwrap()
}

/// Whether `path` (a path in the site, or a glob ending in `*`) names
/// something in `root`.
fn exists(root: &Path, path: &str) -> bool {
    match path.strip_suffix('*') {
        Some(prefix) => {
            let (dir, stem) = prefix.rsplit_once('/').unwrap_or(("", prefix));
            std::fs::read_dir(root.join(dir)).is_ok_and(|entries| {
                entries
                    .filter_map(Result::ok)
                    .any(|e| e.file_name().to_string_lossy().starts_with(stem))
            })
        }
        None => root.join(path).exists(),
    }
}

/// The paths the README names in code spans (`site/map/`,
/// `map/tictactoe-o/01.svg`, `ebooks/towers-hanoi*`): each token of
/// path characters with a `/` in it, not a flag or an address.
fn readme_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .flat_map(|span| span.split_whitespace())
        .filter(|t| t.contains('/') && !t.starts_with('-') && !t.contains("://"))
        .filter(|t| {
            t.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-/*".contains(c))
        })
        .map(str::to_string)
        .collect()
}

/// Every path the README names is in the site built with the defaults:
/// one under `site/`, or under a folder of the site's (`map/...`,
/// `ebooks/...`); and every one under a folder of the project's own
/// (`tests/site/golden.rs`, `.ci/run`) is in the repository. Examples of
/// the reader's own (`/tmp/kindle`, a `blog/` folder, `target/...`) are
/// neither.
#[test]
fn every_path_the_readme_names_exists() {
    let text = readme();
    let paths = readme_paths(&text);
    let repo = repo();
    let mut checked = 0;
    let mut missing = Vec::new();
    for p in &paths {
        let first = p.split('/').next().unwrap();
        let (root, path) = match p.strip_prefix("site/") {
            Some(rest) => (built(), rest),
            None if !first.is_empty() && built().join(first).exists() => (built(), p.as_str()),
            None if !first.is_empty() && first != "target" && repo.join(first).exists() => {
                (repo.as_path(), p.as_str())
            }
            None => continue,
        };
        checked += 1;
        if !exists(root, path) {
            missing.push(p);
        }
    }
    assert!(paths.iter().any(|p| p.starts_with("map/")), "{paths:?}");
    assert!(checked > 20, "{checked} of {paths:?}");
    assert!(missing.is_empty(), "the README names {missing:?}");
}

/// Every `href` and `src` of the home page names a file of the site, and
/// every `#id` one of its elements.
#[test]
fn every_path_the_home_page_names_exists() {
    let home = Page::read(&built().join("index.html"));
    let refs = home.references();
    assert!(refs.len() > 50, "{}", refs.len());
    for (href, target) in refs {
        assert!(target.is_file(), "{href}");
        if let Some((file, id)) = href.split_once('#') {
            let page = if file.is_empty() {
                &home
            } else {
                &Page::read(&target)
            };
            assert!(page.has_id(id), "{href}");
        }
    }
}

/// The figure after `before` in `text`, up to `after`: "1.5".
fn figure<'a>(text: &'a str, before: &str, after: &str) -> &'a str {
    let at = text.find(before).unwrap_or_else(|| panic!("no {before:?}")) + before.len();
    let rest = &text[at..];
    &rest[..rest.find(after).unwrap()]
}

/// The poster's smallest squares are as wide as the home page and the
/// README say: the side the poster draws them at, worked out again here
/// from the same maps.
#[test]
fn the_poster_squares_are_as_wide_as_the_words_say() {
    let maps = site::Solved::new(&options(Path::new("unused"))).maps();
    let assets = Assets::load(&repo().join("static"), &site::images()).unwrap();
    let drawn = site::poster(&maps, &assets)
        .smallest_square_mm
        .expect("a map of marks");
    let want = format!("{drawn:.1}");
    let home = std::fs::read_to_string(built().join("index.html")).unwrap();
    assert_eq!(figure(&home, "smallest squares are ", " mm"), want);
    let text = readme().split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(figure(&text, "smallest squares print ", " mm"), want);
}
