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

/// Whether node, Chromium, playwright-core and each of `packages` (in
/// tests/e2e/node_modules) are there; if not, says so ([`have`]).
fn chromium_with(packages: &[&str]) -> bool {
    let ready = runs("node", &["--version"])
        && Path::new("/usr/bin/chromium").is_file()
        && ["playwright-core"]
            .iter()
            .chain(packages)
            .all(|p| node_modules_have(p));
    have(
        "node, Chromium and tests/e2e/node_modules (npm ci --prefix tests/e2e)",
        ready,
    )
}

/// Runs node's test runner over `files` in tests/e2e, one test at a time,
/// with `SITE_DIR` the built site and `env` besides; fails unless all
/// `passes` tests pass. Returns what it printed.
fn node_tests(files: &[&str], env: &[(&str, &std::ffi::OsStr)], passes: usize) -> String {
    let o = Command::new("node")
        .args(["--test", "--test-concurrency=1"])
        .args(files.iter().map(|f| e2e().join(f)))
        .env("SITE_DIR", built())
        .envs(env.iter().copied())
        .output()
        .expect("node runs");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("# fail 0") && t.contains(&format!("# pass {passes}\n")),
        "{t}"
    );
    t
}

fn vnu_jar() -> std::path::PathBuf {
    e2e().join("node_modules/vnu-jar/build/dist/vnu.jar")
}

#[test]
fn chromium_plays_every_kind_of_game_and_axe_finds_no_violations() {
    if !chromium_with(&["axe-core"]) {
        return;
    }
    node_tests(&["browser.test.mjs", "axe.test.mjs"], &[], 33);
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
    if !chromium_with(&[]) {
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
    node_tests(&["fit.test.mjs"], &[("HANOI_SITES", sites.as_ref())], 5);
}

/// The board as large as each screen allows: Chromium measures each web
/// folder's first page and its two wordiest at ten sizes, from a 360x640
/// phone to a 1860x2480 Kindle Scribe, portrait and landscape; and the
/// links of the home page and the tic-tac-toe pages, 44 pixels or more.
#[test]
fn every_web_board_is_as_large_as_the_screen_allows_and_seamless() {
    if !chromium_with(&[]) {
        return;
    }
    // The boards' sizes, and the links' sizes.
    let t = node_tests(&["size.test.mjs"], &[], 2);
    let _ = writeln!(
        std::io::stderr(),
        "{}",
        t.lines().find(|l| l.contains("least fill")).unwrap_or("")
    );
}

/// The board as large as each page allows in the books: every EPUB in
/// foliate-js and epub.js and every MOBI's KF8 part in foliate-js, at the
/// same ten sizes, the page the whole screen as on a Kindle: one whole
/// board with its caption and links, 80% of the page or more, and no seam;
/// the Towers of Hanoi on a portrait page 80% of its width, and of the
/// height left or twice its pictures' height (tests/e2e/book-size.test.mjs).
#[test]
fn every_book_board_is_as_large_as_the_page_allows_and_seamless() {
    if !chromium_with(&["foliate-js", "epubjs", "jszip"]) {
        return;
    }
    let t = node_tests(&["book-size.test.mjs"], &[], 2);
    for line in t.lines().filter(|l| l.contains("least fill")) {
        let _ = writeln!(std::io::stderr(), "{line}");
    }
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
        .arg(site.join("kqk"))
        .arg(site.join("kqk-analysis"))
        .arg(site.join("krk"))
        .arg(site.join("krk-analysis"))
        .output()
        .expect("java runs");
    let t = text(&o);
    let clean = t.trim().is_empty() || t.trim() == "Document checking completed. No errors found.";
    assert!(o.status.success() && clean, "vnu: {t}");
    let pages = web_pages_in(site).len();
    assert!(pages > 10_000, "{pages} pages validated");
}

/// linkchecker, a second opinion on what the crawl of
/// `every_page_is_reachable_from_the_home_page_and_every_reference_resolves`
/// finds: every link of the tic-tac-toe and Towers of Hanoi editions, and
/// the chess editions' first pages, which it checks but does not follow
/// (their 14,000 pages, made by the same code, took it a minute and a half
/// of the two cores' CI time; the crawl reads them all).
#[test]
fn linkchecker_finds_no_broken_links() {
    if !have("linkchecker", runs("linkchecker", &["--version"])) {
        return;
    }
    let start = format!("file://{}", built().join("index.html").display());
    let o = run(
        "linkchecker",
        &[
            "--no-status",
            "--no-warnings",
            "-t",
            "4",
            "--no-follow-url",
            "/k[qr]k(-analysis)?/",
            &start,
        ],
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
        line("middle left: place O"),
        line("bottom left: place O"),
    ];
    let expect = [
        ["top left: O", "top middle: place O", "top right: X"],
        ["middle left: place O", "centre: X", "middle right: place O"],
        [
            "bottom left: place O",
            "bottom middle: place O",
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
/// solved (foliate-js from the EPUB and both parts of the MOBI, the MOBI
/// 6 part at 600x800), tapping the disc, the peg and the air, and show one whole
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
    let sites = format!(
        "3={},7={}",
        three.path().join("site").display(),
        seven.path().join("site").display()
    );
    node_tests(
        &["readers.test.mjs"],
        &[
            ("MOBI_HTML", html.as_ref()),
            ("HANOI_SITES", sites.as_ref()),
        ],
        21,
    );
}
