//! The command line as a user meets it: bad input gets one line on stderr,
//! a non-zero exit, and leaves the disk as it was.

use std::path::Path;
use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .unwrap()
}

fn one_error_line(out: &Output) -> String {
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "stderr: {err}");
    err
}

#[test]
fn an_unknown_flag_is_one_line() {
    let out = xtask(&["build-site", "--colour"]);
    let err = one_error_line(&out);
    assert!(err.contains("--colour"), "{err}");
    assert_eq!(out.status.code(), Some(2));
    let err = one_error_line(&xtask(&["build-site", "--level", "expert"]));
    assert!(err.contains("easy, medium, hard or perfect"), "{err}");
    let err = one_error_line(&xtask(&["build-site", "--games", "0"]));
    assert!(err.contains("--games"), "{err}");
}

#[test]
fn out_naming_a_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("file");
    std::fs::write(&file, "keep").unwrap();
    let err = one_error_line(&xtask(&["build-site", "--out", file.to_str().unwrap()]));
    assert!(err.contains("not a folder"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
}

#[test]
fn out_in_a_place_that_cannot_be_written_is_refused() {
    let err = one_error_line(&xtask(&["build-site", "--out", "/proc/self/site"]));
    assert!(err.contains("/proc/self"), "{err}");
}

#[test]
fn a_missing_static_folder_is_refused_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let err = one_error_line(&xtask(&[
        "build-site",
        "--out",
        out.to_str().unwrap(),
        "--static",
        tmp.path().join("none").to_str().unwrap(),
    ]));
    assert!(err.contains("not found"), "{err}");
    assert!(!Path::new(&out).exists());
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn a_build_prints_its_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let run = xtask(&["build-site", "--out", out.to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(text.contains("5478 pages"), "{text}");
    assert!(text.contains("vs-computer/16"), "{text}");
    assert!(text.contains("largest page"), "{text}");
    assert!(out.join("index.html").is_file());
}

/// Every file below `dir` with its bytes, sorted by path.
fn tree(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().to_path_buf();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

#[test]
fn a_build_killed_at_any_moment_leaves_a_whole_site() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let out_arg = out.to_str().unwrap();
    // Two different sites: seed 1 is the old one, seed 2 the new.
    let old = {
        assert!(
            xtask(&["build-site", "--out", out_arg, "--seed", "2"])
                .status
                .success()
        );
        let t = tree(&out);
        assert!(
            xtask(&["build-site", "--out", out_arg, "--seed", "1"])
                .status
                .success()
        );
        (tree(&out), t)
    };
    let (old_tree, new_tree) = old;
    assert_ne!(old_tree, new_tree);
    let mut outcomes = std::collections::BTreeSet::new();
    for delay_ms in [5, 40, 120, 250, 400, 700, 1000, 1500] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(["build-site", "--out", out_arg, "--seed", "2"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let now = tree(&out);
        if now == old_tree {
            outcomes.insert("old");
        } else if now == new_tree {
            outcomes.insert("new");
            // Put the old site back for the next attempt.
            assert!(
                xtask(&["build-site", "--out", out_arg, "--seed", "1"])
                    .status
                    .success()
            );
        } else {
            panic!("after a kill at {delay_ms} ms the site is neither the old nor the new one");
        }
    }
    assert!(
        outcomes.contains("old"),
        "no kill landed mid-build: {outcomes:?}"
    );
    // Leftover staging folders are cleared by the next build.
    assert!(
        xtask(&["build-site", "--out", out_arg, "--seed", "1"])
            .status
            .success()
    );
    let names: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("site")]);
}

#[test]
fn the_committed_book_images_are_what_draw_images_draws() {
    let tmp = tempfile::tempdir().unwrap();
    let run = xtask(&["draw-images", "--out", tmp.path().to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let static_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../static");
    for name in ["e", "x", "o", "xw", "ow", "cover"] {
        let file = format!("{name}.gif");
        let drawn = std::fs::read(tmp.path().join(&file)).unwrap();
        assert!(drawn.starts_with(b"GIF89a"));
        assert_eq!(
            drawn,
            std::fs::read(static_dir.join(&file)).unwrap(),
            "static/{file} differs from `cargo xtask draw-images`"
        );
    }
}
