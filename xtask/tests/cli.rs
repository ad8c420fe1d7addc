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
