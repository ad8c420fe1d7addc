//! Golden hashes: the bytes of the default site and of one other, pinned.
//! Any change of bytes (a new libdeflate, a new CPU, a change of ours)
//! fails here loudly and on purpose. If the change is meant, update the
//! pins with
//!
//! ```sh
//! UPDATE_EXPECT=1 cargo test --test site golden
//! ```
//!
//! Each line is a SHA-256, as `sha256sum` prints it: every book and every
//! file at the root or in `ebooks/` alone, each other folder as the hash
//! of its files' `sha256sum` lines, and the whole site last.

use std::path::Path;

use sha2::{Digest, Sha256};
use tictactoe_book::opponent::Level;
use tictactoe_book::site;

use crate::common::{built, contents, options, walk};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The pins of the site at `root`: of each file, and of its marker's list.
fn pins(root: &Path) -> String {
    let mut files: Vec<(String, String)> = walk(root)
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            (rel, hex(&Sha256::digest(contents(&p))))
        })
        .collect();
    files.sort();
    let line = |hash: &str, name: &str| format!("{hash}  {name}\n");
    let mut out = String::new();
    let mut folder: Option<(String, Sha256)> = None;
    let mut whole = Sha256::new();
    for (rel, hash) in &files {
        whole.update(line(hash, rel));
        let dir = rel.rsplit_once('/').map(|(d, _)| d.to_string());
        match dir {
            Some(d) if d != "ebooks" => {
                if folder.as_ref().is_some_and(|(f, _)| *f != d) {
                    let (f, h) = folder.take().unwrap();
                    out.push_str(&line(&hex(&h.finalize()), &format!("{f}/")));
                }
                folder
                    .get_or_insert_with(|| (d, Sha256::new()))
                    .1
                    .update(line(hash, rel));
            }
            _ => out.push_str(&line(hash, rel)),
        }
    }
    if let Some((f, h)) = folder {
        out.push_str(&line(&hex(&h.finalize()), &format!("{f}/")));
    }
    out.push_str(&line(&hex(&whole.finalize()), "(the whole site)"));
    out
}

/// The test site: the defaults, KRK with a spare move fewer
/// (`common::options`).
#[test]
fn the_test_site_is_byte_for_byte_the_pinned_one() {
    expect_test::expect_file!["../golden/default.txt"].assert_eq(&pins(built()));
}

#[test]
fn an_early_draws_easy_seed_7_site_is_byte_for_byte_the_pinned_one() {
    let tmp = tempfile::tempdir().unwrap();
    let mut o = options(&tmp.path().join("site"));
    o.early_draws = true;
    o.games.level = Some(Level::Easy);
    o.games.seed = 7;
    o.kqk.seed = 7;
    o.krk.seed = 7;
    site::build(&o).unwrap();
    expect_test::expect_file!["../golden/early-draws-easy-seed-7.txt"].assert_eq(&pins(&o.out));
}
