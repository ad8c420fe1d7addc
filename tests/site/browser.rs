//! The site as a player and a validator meet it: games clicked through in
//! headless Chromium and axe-core (tests/e2e, run with node's test runner),
//! the Nu HTML Checker over every web page, and linkchecker over the site.

use std::io::Write as _;
use std::path::Path;
use std::process::Command;

use crate::common::*;
use crate::tools::*;

fn e2e() -> std::path::PathBuf {
    repo().join("tests/e2e")
}

fn node_modules_have(package: &str) -> bool {
    e2e()
        .join("node_modules")
        .join(package)
        .join("package.json")
        .is_file()
}

fn vnu_jar() -> std::path::PathBuf {
    e2e().join("node_modules/vnu-jar/build/dist/vnu.jar")
}

#[test]
fn chromium_plays_every_kind_of_game_and_axe_finds_no_violations() {
    let ready = runs("node", &["--version"])
        && Path::new("/usr/bin/chromium").is_file()
        && node_modules_have("playwright-core")
        && node_modules_have("axe-core");
    if !have(
        "node, Chromium and tests/e2e/node_modules (npm ci --prefix tests/e2e)",
        ready,
    ) {
        return;
    }
    let o = Command::new("node")
        .args(["--test", "--test-concurrency=1"])
        .arg(e2e().join("browser.test.mjs"))
        .arg(e2e().join("axe.test.mjs"))
        .env("SITE_DIR", built())
        .output()
        .expect("node runs");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("# fail 0") && t.contains("# pass 24"), "{t}");
}

/// A site with the Towers of Hanoi at `discs`, every book made (7 discs
/// outgrow the default EPUB budget).
fn hanoi_site(discs: u8) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let mut o = options(&tmp.path().join("site"));
    o.hanoi_discs = discs;
    o.budgets.mobi = usize::MAX;
    o.budgets.epub = usize::MAX;
    tictactoe_book::site::build(&o).unwrap();
    tmp
}

/// One whole board per screen: Chromium measures a sample of the Hanoi
/// pages at 3 to 7 discs (every so many, and those with the longest
/// heading), at 1280x800, 600x800 and 360x640.
#[test]
fn every_hanoi_board_fits_one_screen_in_chromium() {
    let ready = runs("node", &["--version"])
        && Path::new("/usr/bin/chromium").is_file()
        && node_modules_have("playwright-core");
    if !have(
        "node, Chromium and tests/e2e/node_modules (npm ci --prefix tests/e2e)",
        ready,
    ) {
        return;
    }
    let others: Vec<(u8, tempfile::TempDir)> = [3, 5, 6, 7]
        .into_iter()
        .map(|n| (n, hanoi_site(n)))
        .collect();
    let mut sites = format!("4={}", built().display());
    for (n, dir) in &others {
        sites += &format!(",{n}={}", dir.path().join("site").display());
    }
    let o = Command::new("node")
        .args(["--test", "--test-concurrency=1"])
        .arg(e2e().join("fit.test.mjs"))
        .env("SITE_DIR", built())
        .env("HANOI_SITES", sites)
        .output()
        .expect("node runs");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("# fail 0") && t.contains("# pass 5"), "{t}");
}

/// The board as large as each screen allows: Chromium measures each web
/// folder's first page and its two wordiest at ten sizes, from a 360x640
/// phone to a 1860x2480 Kindle Scribe, portrait and landscape; and the
/// links of the home page and the tic-tac-toe pages, 44 pixels or more.
#[test]
fn every_web_board_is_as_large_as_the_screen_allows_and_seamless() {
    let ready = runs("node", &["--version"])
        && Path::new("/usr/bin/chromium").is_file()
        && node_modules_have("playwright-core");
    if !have(
        "node, Chromium and tests/e2e/node_modules (npm ci --prefix tests/e2e)",
        ready,
    ) {
        return;
    }
    let o = Command::new("node")
        .args(["--test"])
        .arg(e2e().join("size.test.mjs"))
        .env("SITE_DIR", built())
        .output()
        .expect("node runs");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    // The boards' sizes, and the links' sizes.
    assert!(t.contains("# fail 0") && t.contains("# pass 2"), "{t}");
    let _ = writeln!(
        std::io::stderr(),
        "{}",
        t.lines().find(|l| l.contains("least fill")).unwrap_or("")
    );
}

#[test]
fn the_nu_html_checker_finds_no_errors_on_any_web_page() {
    if !have(
        "the Nu HTML Checker (npm ci --prefix tests/e2e) and java",
        vnu_jar().is_file() && runs("java", &["-version"]),
    ) {
        return;
    }
    // Every web page; the single-file books in ebooks/ are Kindle source
    // (with `<mbp:pagebreak/>`), checked by the e-book tests instead.
    let site = built();
    let o = Command::new("java")
        .arg("-jar")
        .arg(vnu_jar())
        .args(["--errors-only", "--skip-non-html", "--format", "text"])
        .arg(site.join("index.html"))
        .arg(site.join("two-player"))
        .arg(site.join("vs-computer"))
        .arg(site.join("analysis"))
        .arg(site.join("hanoi"))
        .arg(site.join("hanoi-analysis"))
        .output()
        .expect("java runs");
    let t = text(&o);
    let clean = t.trim().is_empty() || t.trim() == "Document checking completed. No errors found.";
    assert!(o.status.success() && clean, "vnu: {t}");
    let pages = web_pages_in(site).len();
    assert!(pages > 10_000, "{pages} pages validated");
}

#[test]
fn linkchecker_finds_no_broken_links() {
    if !have("linkchecker", runs("linkchecker", &["--version"])) {
        return;
    }
    let start = format!("file://{}", built().join("index.html").display());
    let o = run(
        "linkchecker",
        &["--no-status", "--no-warnings", "-t", "4", &start],
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("0 errors found"), "{t}");
    let checked: usize = t
        .lines()
        .find(|l| l.contains("URLs checked"))
        .and_then(|l| l.split(" links in ").next())
        .and_then(|l| l.split_whitespace().last())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(checked > 10_000, "only {checked} links checked: {t}");
}

/// The nine squares of a board page, as a text browser reads them.
#[test]
fn lynx_reads_each_row_of_a_board_on_its_own_line() {
    if !have("lynx", runs("lynx", &["-version"])) {
        return;
    }
    // O top left, X top right and centre: O to move.
    let page = built().join("two-player/366c.html");
    let o = run(
        "lynx",
        &["-dump", "-nolist", "-width=200", page.to_str().unwrap()],
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let line = |first: &str| {
        t.lines()
            .find(|l| l.trim_start().starts_with(first))
            .unwrap_or_else(|| panic!("no line starts with {first:?}: {t}"))
            .to_string()
    };
    let rows = [
        line("top left: O"),
        line("left: place O"),
        line("bottom left: place O"),
    ];
    let expect = [
        ["top left: O", "top: place O", "top right: X"],
        ["left: place O", "centre: X", "right: place O"],
        [
            "bottom left: place O",
            "bottom: place O",
            "bottom right: place O",
        ],
    ];
    for (row, squares) in rows.iter().zip(expect) {
        let mut at = 0;
        for s in squares {
            let found = row[at..]
                .find(s)
                .unwrap_or_else(|| panic!("{s:?} not in {row:?}"));
            // Separated: at least a space between two squares.
            if at > 0 {
                assert!(row[at..at + found].contains(' '), "{row:?}");
            }
            at += found + s.len();
        }
    }
    assert_eq!(t.matches("place O").count(), 6, "{t}");
}

/// epub.js plays the EPUB with one whole board a page at 360x640 and
/// 600x800; epub.js and foliate-js play the 3-disc Towers of Hanoi to
/// solved (foliate-js from the EPUB and the MOBI) and show one whole
/// board a screen at 7 discs, at both sizes; the Kindle HTML (at 4 and 7
/// discs for the Towers of Hanoi) and the MOBI's text (rebuilt by libmobi's
/// mobitool) show each board whole inside 600x800
/// (tests/e2e/readers.test.mjs).
#[test]
fn reading_engines_show_one_whole_board_per_screen() {
    let ready = runs("node", &["--version"])
        && Path::new("/usr/bin/chromium").is_file()
        && node_modules_have("playwright-core")
        && node_modules_have("epubjs")
        && node_modules_have("foliate-js")
        && node_modules_have("jszip")
        && runs("mobitool", &["-v"]);
    if !have(
        "node, Chromium, epub.js and foliate-js (npm ci --prefix tests/e2e) and mobitool",
        ready,
    ) {
        return;
    }
    let (three, seven) = (hanoi_site(3), hanoi_site(7));
    let (tmp, source, _) = mobitool_source(&built().join("ebooks/tictactoe-two-player.mobi"));
    // A Kindle ends a page at each break; an HTML parser would nest the
    // rest of the book in the unknown `<mbp:pagebreak/>` element instead.
    let html = tmp.path().join("tictactoe-two-player_markup/book.html");
    std::fs::write(
        &html,
        source.replace("<mbp:pagebreak/>", "<mbp:pagebreak></mbp:pagebreak>"),
    )
    .unwrap();
    let o = Command::new("node")
        .args(["--test", "--test-concurrency=1"])
        .arg(e2e().join("readers.test.mjs"))
        .env("SITE_DIR", built())
        .env("MOBI_HTML", &html)
        .env(
            "HANOI_SITES",
            format!(
                "3={},7={}",
                three.path().join("site").display(),
                seven.path().join("site").display()
            ),
        )
        .output()
        .expect("node runs");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("# fail 0") && t.contains("# pass 20"), "{t}");
}
