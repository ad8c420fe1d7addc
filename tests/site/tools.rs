//! Outside programs (validators, readers, a browser) that read the output.
//! Plain `cargo test` skips a test whose program is missing and says so on
//! stderr; under `.ci/run` (`TTT_REQUIRE_TOOLS=1`) a missing program fails.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output};

/// Whether `name` is there; if not, says so, and fails when tools are
/// required.
pub fn have(name: &str, available: bool) -> bool {
    if available {
        return true;
    }
    assert!(
        std::env::var_os("TTT_REQUIRE_TOOLS").is_none(),
        "{name} is missing, and TTT_REQUIRE_TOOLS is set (run .ci/install-tools)"
    );
    // Written to the real stderr, past the test harness's capture, so the
    // skip shows in a passing run.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {name} is not installed (.ci/install-tools installs it)"
    );
    false
}

/// Whether a command runs at all.
pub fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs a command and returns its output, failing the test if it cannot
/// start.
pub fn run(program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"))
}

/// Output as text, stdout then stderr.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The MOBI 6 part of `book` as libmobi's `mobitool -7s` rebuilds its
/// source: the folder holding it (delete it by dropping), the HTML text,
/// and mobitool's output.
pub fn mobitool_source(book: &Path) -> (tempfile::TempDir, String, Output) {
    let (tmp, o) = mobitool("-7s", book);
    let stem = book.file_stem().unwrap().to_str().unwrap();
    let html = tmp.path().join(format!("{stem}_markup/part00000.html"));
    let source = std::fs::read_to_string(html).unwrap();
    (tmp, source, o)
}

/// Runs `mobitool MODE -o DIR BOOK` into a new folder, which must succeed.
pub fn mobitool(mode: &str, book: &Path) -> (tempfile::TempDir, Output) {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(
        "mobitool",
        &[
            mode,
            "-o",
            tmp.path().to_str().unwrap(),
            book.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    (tmp, o)
}

/// Python with a module importable.
pub fn python_has(module: &str) -> bool {
    runs("python3", &["-c", &format!("import {module}")])
}

/// The epubcheck jar from Debian's package (its wrapper script does not
/// start on this machine).
pub const EPUBCHECK_JAR: &str = "/usr/share/java/epubcheck.jar";

/// Whether epubcheck can run.
pub fn epubcheck_available() -> bool {
    Path::new(EPUBCHECK_JAR).is_file() && runs("java", &["-version"])
}
