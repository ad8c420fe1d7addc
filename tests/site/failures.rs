//! Bad inputs fail cleanly and leave the previous output as it was.

use std::fs;

use tictactoe_book::site::{self, BuildError};

use crate::common::*;

/// A copy of `static/` that a test may spoil.
fn static_copy(dir: &std::path::Path) -> std::path::PathBuf {
    let s = dir.join("static");
    fs::create_dir(&s).unwrap();
    for e in fs::read_dir(repo().join("static")).unwrap().flatten() {
        fs::copy(e.path(), s.join(e.file_name())).unwrap();
    }
    s
}

fn assert_old_site_intact(out: &std::path::Path) {
    assert_eq!(
        fs::read_to_string(out.join("two-player/0.html")).unwrap(),
        fs::read_to_string(built().join("two-player/0.html")).unwrap()
    );
    assert_eq!(walk(out).len(), walk(built()).len());
}

fn build_with_static(out: &std::path::Path, s: &std::path::Path) -> Result<(), BuildError> {
    let mut o = options(out);
    o.static_dir = s.to_path_buf();
    site::build(&o).map(|_| ())
}

#[test]
fn bad_static_folders_fail_and_keep_the_old_site() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    site::build(&options(&out)).unwrap();

    let missing = tmp.path().join("nowhere");
    let e = build_with_static(&out, &missing).unwrap_err();
    assert!(e.to_string().contains("not found"), "{e}");
    assert_old_site_intact(&out);
    // A file, or a device, named as the folder: said so.
    let file = tmp.path().join("a-file");
    fs::write(&file, "not a folder").unwrap();
    for not_a_folder in [file, "/dev/null".into()] {
        let e = build_with_static(&out, &not_a_folder).unwrap_err();
        let said = format!("static folder {} is not a folder", not_a_folder.display());
        assert!(e.to_string().contains(&said), "{e}");
        assert_old_site_intact(&out);
    }

    let s = static_copy(tmp.path());
    fs::remove_file(s.join("x.svg")).unwrap();
    let e = build_with_static(&out, &s).unwrap_err();
    assert!(e.to_string().contains("x.svg is missing"), "{e}");
    assert_old_site_intact(&out);

    // A file that exists but cannot be read (EIO even for root).
    fs::copy(repo().join("static/x.svg"), s.join("x.svg")).unwrap();
    fs::remove_file(s.join("o.svg")).unwrap();
    std::os::unix::fs::symlink("/proc/self/mem", s.join("o.svg")).unwrap();
    let e = build_with_static(&out, &s).unwrap_err();
    assert!(e.to_string().starts_with("cannot read"), "{e}");
    assert_old_site_intact(&out);
}

#[test]
fn a_folder_the_tool_did_not_make_is_never_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("notes.txt"), "mine").unwrap();
    let e = site::build(&options(tmp.path())).unwrap_err();
    assert!(e.to_string().contains("not made by this tool"), "{e}");
    assert_eq!(
        fs::read_to_string(tmp.path().join("notes.txt")).unwrap(),
        "mine"
    );
    assert_eq!(walk(tmp.path()).len(), 1);
}
