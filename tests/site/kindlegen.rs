//! Amazon's own compiler, kindlegen 2.9, as a check. Every Kindle source
//! the build writes (each EPUB, and each Kindle source edition's OPF
//! package) compiles with exit 0 and no warning, at the defaults and at
//! the edges of the flags; kindlegen's book of each default EPUB keeps our
//! stylesheet as a flow of its own and our start (KindleUnpack, then
//! epubcheck on its EPUB of the KF8 part); and our MOBI's header is set
//! side by side with kindlegen's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tictactoe_book::assets::Assets;
use tictactoe_book::ebook::{self, mobi::read};
use tictactoe_book::editions::vs_computer::{self, Settings};
use tictactoe_book::games::tictactoe::Board;
use tictactoe_book::graph::StateGraph;
use tictactoe_book::screen::Edition;
use tictactoe_book::site;
use tictactoe_book::solver::Solver;

use crate::common::{built, repo};
use crate::levels::level_sites;
use crate::tools::*;

/// kindlegen, from the npm package `.ci/install-tools` installs, if it is
/// there and runs.
pub fn kindlegen() -> Option<PathBuf> {
    let path = repo()
        .join("tests/e2e/node_modules/@hakuneko/kindlegen-binaries/bin/linux/amd64/kindlegen");
    // With no arguments it prints its usage and exits 0.
    let ready = path.is_file() && runs(path.to_str().unwrap(), &[]);
    have("kindlegen", ready).then_some(path)
}

/// Compiles `source` with kindlegen (`-c0`, none, is enough to see its
/// messages; `-c2` is HUFF/CDIC, as our MOBIs), which writes the book beside
/// it, and returns the book. Fails the test unless kindlegen exits 0 with
/// no `Warning(` or `Error(` line.
pub fn compiles_clean(kindlegen: &Path, source: &Path, compression: &str) -> PathBuf {
    let name = format!(
        "{}.kindlegen.mobi",
        source.file_stem().unwrap().to_str().unwrap()
    );
    let o = run(
        kindlegen.to_str().unwrap(),
        &[
            source.to_str().unwrap(),
            compression,
            "-dont_append_source",
            "-o",
            &name,
        ],
    );
    let t = text(&o);
    let messages: Vec<&str> = t
        .lines()
        .filter(|l| l.starts_with("Warning(") || l.starts_with("Error("))
        .collect();
    assert!(
        o.status.success() && messages.is_empty(),
        "kindlegen {}: exit {:?}: {messages:#?}",
        source.display(),
        o.status.code()
    );
    source.with_file_name(name)
}

/// The Kindle sources of `book` as the build writes them (its EPUB, Kindle
/// HTML and OPF), with the GIFs beside them, in `dir`: the EPUB and the OPF.
fn write_sources(book: &Edition, assets: &Assets, dir: &Path) -> [PathBuf; 2] {
    let stem = book.book_stem();
    let shared = ebook::Book::new(book, assets);
    // Each format's every file: the Kindle source's GIFs come with it.
    for format in ebook::formats(book) {
        if [".epub", "-kindle.html"].contains(&format.suffix) {
            let made = format.make(&shared, &ebook::Budgets::default());
            for f in made.files {
                std::fs::write(dir.join(&f.name), f.bytes).unwrap();
            }
        }
    }
    [".epub", "-kindle.opf"].map(|s| dir.join(format!("{stem}{s}")))
}

/// A copy of the Kindle sources of `stem` in the site at `out` (kindlegen
/// writes beside its source, and a built site is shared), in a new folder:
/// the EPUB and the OPF.
fn copy_sources(out: &Path, stem: &str) -> (tempfile::TempDir, [PathBuf; 2]) {
    let tmp = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(out.join(site::EBOOKS)).unwrap().flatten() {
        let name = e.file_name().into_string().unwrap();
        let ours = [".", "-kindle."]
            .iter()
            .any(|s| name.starts_with(&format!("{stem}{s}")));
        if ours || name.ends_with(".gif") {
            std::fs::copy(e.path(), tmp.path().join(&name)).unwrap();
        }
    }
    let sources = [".epub", "-kindle.opf"].map(|s| tmp.path().join(format!("{stem}{s}")));
    (tmp, sources)
}

/// The default book `stem`: kindlegen compiles its EPUB (`-c2`, as ours)
/// and its Kindle source clean; its book of the EPUB keeps our stylesheet
/// and start, and unpacks to an EPUB that epubcheck passes; and its MOBI
/// header is ours, field by field, but for what the test names.
fn default_book(stem: &str) {
    let Some(kg) = kindlegen() else { return };
    let (_tmp, [epub, opf]) = copy_sources(built(), stem);
    compiles_clean(&kg, &opf, "-c0");
    let theirs = compiles_clean(&kg, &epub, "-c2");
    keeps_style_and_start(&theirs);
    let ours = built().join(site::EBOOKS).join(format!("{stem}.mobi"));
    headers_agree(
        &std::fs::read(ours).unwrap(),
        &std::fs::read(&theirs).unwrap(),
    );
}

#[test]
fn kindlegen_takes_the_two_player_book_clean() {
    default_book("tictactoe-two-player");
}

#[test]
fn kindlegen_takes_the_vs_computer_book_clean() {
    default_book("tictactoe-vs-computer");
}

#[test]
fn kindlegen_takes_the_analysis_book_clean() {
    default_book("tictactoe-analysis");
}

#[test]
fn kindlegen_takes_the_hanoi_books_clean() {
    default_book("towers-hanoi");
    default_book("towers-hanoi-analysis");
}

/// kindlegen's book of our EPUB, as KindleUnpack splits it: its KF8 part
/// holds our stylesheet as a flow of its own, whole (the board's size
/// to the page included), and a guide that
/// names our start; and the EPUB KindleUnpack makes of it passes epubcheck.
fn keeps_style_and_start(book: &Path) {
    if !have("KindleUnpack (pip install mobi)", python_has("mobi"))
        || !have("epubcheck", epubcheck_available())
    {
        return;
    }
    let script = "import mobi, sys\nd, f = mobi.extract(sys.argv[1])\nprint(d)\nprint(f)";
    let o = run("python3", &["-c", script, book.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let mut lines = out.lines();
    let (dir, epub) = (
        PathBuf::from(lines.next().unwrap()),
        lines.next().unwrap().to_string(),
    );
    let styles = dir.join("mobi8/OEBPS/Styles");
    let css: Vec<String> = std::fs::read_dir(&styles)
        .map(|d| {
            d.flatten()
                .map(|e| std::fs::read_to_string(e.path()).unwrap())
                .collect()
        })
        .unwrap_or_default();
    let opf = std::fs::read_to_string(dir.join("mobi8/OEBPS/content.opf")).unwrap();
    let checked = run("java", &["-jar", EPUBCHECK_JAR, &epub]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        css.iter().any(|c| c.contains("(100vmin - 4.5em)")
            && c.contains("vertical-align:top")
            && c.contains("page-break-before:always")),
        "{}: no stylesheet flow of ours: {css:?}",
        book.display()
    );
    let guide = opf
        .split_once("<guide>")
        .map(|(_, g)| g.split_once("</guide>").unwrap().0);
    assert!(
        guide.is_some_and(|g| g.contains("type=\"text\"")),
        "{}: no start in the guide: {opf}",
        book.display()
    );
    let t = text(&checked);
    assert!(
        checked.status.success() && t.contains("0 errors"),
        "{}: {t}",
        book.display()
    );
}

/// The EXTH records of a MOBI header (record 0), by type.
fn exth_types(r0: &[u8]) -> Vec<u32> {
    let at = 16 + read::u32_at(r0, 0x14) as usize;
    assert_eq!(&r0[at..at + 4], b"EXTH");
    let count = read::u32_at(r0, at + 8);
    let mut types = Vec::new();
    let mut p = at + 12;
    for _ in 0..count {
        types.push(read::u32_at(r0, p));
        p += read::u32_at(r0, p + 4) as usize;
    }
    types.sort_unstable();
    types.dedup();
    types
}

/// The EXTH records kindlegen writes that ours does not, each with why.
const NOT_OURS: [(u32, &str); 4] = [
    (
        300,
        "kindlegen's font signature of the text: no embedded fonts",
    ),
    (
        525,
        "the writing mode (horizontal-lr), the default when absent",
    ),
    (
        542,
        "a hash kindlegen takes of its input for Amazon's store",
    ),
    (547, "kindlegen's flag for an input it built from, the EPUB"),
];

/// The MOBI header fields that must agree with kindlegen's: (offset in
/// record 0, what it is). The others differ for reasons of layout (record
/// numbers, lengths, the unique id, KF8 indexes).
const SAME_FIELDS: [(usize, &str); 10] = [
    (0x00, "compression: HUFF/CDIC under -c2"),
    (
        0x14,
        "MOBI header length: 0x108, with room for the KF8 indexes",
    ),
    (
        0x0a,
        "text record size (u16 at 0x0a, with encryption after it)",
    ),
    (0x18, "book type: 2, a book"),
    (0x1c, "text encoding: 65001, UTF-8"),
    (0x5c, "language: 9, English"),
    (0x68, "minimum reader version: 6"),
    (0x80, "EXTH flags: 0x50 (EXTH present)"),
    (0xa4, "DRM offset: none"),
    (0xa8, "DRM count: none"),
];

/// Our MOBI's record 0 against kindlegen's (its MOBI 6 part's, first in
/// the file): the fields of [`SAME_FIELDS`] equal, and every EXTH record
/// it writes either written by ours too or named in [`NOT_OURS`].
fn headers_agree(ours: &[u8], theirs: &[u8]) {
    let (o, t) = (read::records(ours)[0], read::records(theirs)[0]);
    assert_eq!(&o[0x10..0x14], b"MOBI");
    assert_eq!(&t[0x10..0x14], b"MOBI");
    for (at, what) in SAME_FIELDS {
        // kindlegen sets more EXTH flag bits (0x1850 and the like).
        let (a, b) = match at {
            0x80 => (read::u32_at(o, at) & 0x40, read::u32_at(t, at) & 0x40),
            _ => (read::u32_at(o, at), read::u32_at(t, at)),
        };
        assert_eq!(a, b, "{what}: ours {a:#x}, kindlegen's {b:#x}");
    }
    let (ours, theirs) = (exth_types(o), exth_types(t));
    for kind in &theirs {
        assert!(
            ours.contains(kind) || NOT_OURS.iter().any(|(k, _)| k == kind),
            "kindlegen writes EXTH {kind}, ours does not, and no reason is given: ours {ours:?}, theirs {theirs:?}"
        );
    }
    for kind in [100, 121, 125, 129, 131, 201, 202, 524] {
        assert!(
            ours.contains(&kind) && theirs.contains(&kind),
            "EXTH {kind}: {ours:?} {theirs:?}"
        );
    }
    // The creator records, which firmware reads: kindlegen's own values.
    let values = |r0| -> BTreeMap<u32, Vec<u8>> {
        (read::exth(r0).into_iter())
            .map(|(k, v)| (k, v.to_vec()))
            .collect()
    };
    let (o, t) = (values(o), values(t));
    for kind in [204, 205, 206, 207, 535] {
        assert_eq!(o[&kind], t[&kind], "EXTH {kind}");
    }
}

/// The Towers of Hanoi at 3 and at 7 discs: the books' EPUBs and Kindle
/// sources compile clean; at 7 discs the analysis book's alone (the other
/// is the same markup, smaller), since kindlegen takes two and a half
/// minutes over the two sources of one.
#[test]
fn kindlegen_takes_the_hanoi_books_at_3_and_7_discs_clean() {
    let Some(kg) = kindlegen() else { return };
    let assets = Assets::load(&repo().join("static"), &site::images()).unwrap();
    let games = Vec::new();
    let solver = Solver::new(StateGraph::<Board>::new());
    for discs in [3, 7] {
        let hanoi = site::hanoi_solver(discs);
        let editions = site::editions(&solver, &games, &hanoi);
        let books = editions.iter().filter(|e| e.texts.stem == "towers");
        for e in books.filter(|e| discs < 7 || e.slug == site::HANOI_ANALYSIS) {
            let tmp = tempfile::tempdir().unwrap();
            for source in write_sources(&e.for_books(), &assets, tmp.path()) {
                compiles_clean(&kg, &source, "-c0");
            }
        }
    }
}

/// The vs-computer book of one game, and of each `--level` (16 games, the
/// default, is the default site's): its EPUB and Kindle source compile
/// clean.
#[test]
fn kindlegen_takes_the_vs_computer_book_at_every_level_and_one_game_clean() {
    let Some(kg) = kindlegen() else { return };
    let assets = Assets::load(&repo().join("static"), &site::images()).unwrap();
    let solver = Solver::new(StateGraph::<Board>::new());
    let one = Settings {
        games: 1,
        ..Settings::default()
    };
    let games = vs_computer::games(&one, &solver);
    let edition = vs_computer::edition(site::VS_COMPUTER, &solver, &games);
    let book = edition.for_books();
    let tmp = tempfile::tempdir().unwrap();
    for source in write_sources(&book, &assets, tmp.path()) {
        compiles_clean(&kg, &source, "-c0");
    }
    for (level, out) in level_sites() {
        let (_tmp, sources) = copy_sources(out, "tictactoe-vs-computer");
        for source in sources {
            assert!(source.is_file(), "--level {level}: {}", source.display());
            compiles_clean(&kg, &source, "-c0");
        }
    }
}
