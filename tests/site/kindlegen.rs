//! Amazon's own compiler, kindlegen 2.9, as a check. Every Kindle source
//! the build writes (each EPUB, and each Kindle source edition's OPF
//! package) compiles with exit 0 and no warning, at the defaults and at
//! the edges of the flags; kindlegen's book of each default EPUB keeps our
//! stylesheet as a flow of its own and our start (KindleUnpack, then
//! epubcheck on its EPUB of the KF8 part); and both parts' record 0 is
//! set beside kindlegen's, field by field and EXTH record by EXTH record,
//! each difference named with its reason.

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
        if [ebook::EPUB.suffix, ebook::KINDLE_SOURCE.suffix].contains(&format.suffix) {
            let made = format.make(&shared, &ebook::Budgets::default()).unwrap();
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

/// The most a default book of ours may be of kindlegen's book of the
/// same EPUB: half, both parts whole.
const MOST_OF_KINDLEGENS: f64 = 0.5;

/// The default book `stem`: kindlegen compiles its EPUB (`-c2`, as ours)
/// and its Kindle source clean; its book of the EPUB keeps our stylesheet
/// and start, and unpacks to an EPUB that epubcheck passes; both parts'
/// record 0 is ours, field by field, but for what the test names; and ours
/// is at most [`MOST_OF_KINDLEGENS`] its size.
fn default_book(stem: &str) {
    let Some(kg) = kindlegen() else { return };
    let (_tmp, [epub, opf]) = copy_sources(built(), stem);
    compiles_clean(&kg, &opf, "-c0");
    let theirs = compiles_clean(&kg, &epub, "-c2");
    keeps_style_and_start(&theirs);
    let ours = std::fs::read(built().join(site::EBOOKS).join(format!("{stem}.mobi"))).unwrap();
    let theirs = std::fs::read(&theirs).unwrap();
    headers_agree(&ours, &theirs);
    let share = ours.len() as f64 / theirs.len() as f64;
    eprintln!(
        "# {stem}: ours {} bytes, kindlegen's {}: {share:.3}",
        ours.len(),
        theirs.len()
    );
    assert!(
        share <= MOST_OF_KINDLEGENS,
        "{stem}: {share:.3} of kindlegen's"
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
        css.iter().any(|c| c.contains("(100vmin - ")
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

/// Which part of a combined MOBI a field or record is about.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum In {
    Mobi6,
    Kf8,
    Both,
}

impl In {
    fn holds(self, part: usize) -> bool {
        matches!((self, part), (In::Both, _) | (In::Mobi6, 0) | (In::Kf8, 1))
    }
}

/// Why a record 0 field is layout: it numbers our own records or counts
/// our own text, which are laid out as they are for reasons of their own.
const LAYOUT: &str = "a record number, a count or a length of our own layout";

/// The fields of record 0 (offset, width) where ours may differ from
/// kindlegen's, in either part or one, each with why. Every other field of
/// the PalmDOC header and of the 264-byte MOBI header must be equal.
const DIFFERENT_FIELDS: [(usize, usize, In, &str); 24] = [
    (0x04, 4, In::Both, "text length: ours is our own text"),
    (0x08, 2, In::Both, LAYOUT),
    (
        0x20,
        4,
        In::Both,
        "unique id: ours is a hash of the title (builds are byte-identical); \
         kindlegen's is its own",
    ),
    (
        0x28,
        4,
        In::Kf8,
        "kindlegen's KF8 sections index (calibre: \"Sections Index\"): calibre's \
         KF8 writer leaves it NULL, and KindleUnpack reads 0x28 only below \
         version 8, as a dictionary's",
    ),
    (0x50, 4, In::Both, LAYOUT),
    (
        0x54,
        4,
        In::Both,
        "full name offset: after EXTH, whose length differs",
    ),
    (0x6c, 4, In::Both, LAYOUT),
    (0x70, 4, In::Both, LAYOUT),
    (
        0x74,
        4,
        In::Both,
        "CDIC records: as many as our dictionary needs",
    ),
    (
        0x78,
        4,
        In::Both,
        "kindlegen's DATP record: calibre's writers leave it out, and no \
         reader here reads it",
    ),
    (0x7c, 4, In::Both, "kindlegen's DATP record count"),
    (
        0x80,
        4,
        In::Mobi6,
        "EXTH flags: kindlegen sets 0x800 in its MOBI 6 part, which no \
         reader or note explains; 0x50, as ours and calibre's, in both parts",
    ),
    (0xc0, 4, In::Both, LAYOUT),
    (0xc8, 4, In::Both, LAYOUT),
    (0xd0, 4, In::Both, LAYOUT),
    (
        0xe0,
        4,
        In::Mobi6,
        "kindlegen's SRCS (its build log) even with -dont_append_source: \
         ours has none",
    ),
    (0xe4, 4, In::Mobi6, "kindlegen's SRCS count"),
    (
        0xf0,
        4,
        In::Mobi6,
        "extra data: kindlegen's MOBI 6 part has an NCX index and TBS; ours \
         has no NCX index, so no TBS (they only name index entries), and \
         FBReader, which reads the MOBI 6 part, decodes trailing bytes as \
         text. The KF8 part's are equal: 3",
    ),
    (
        0xf4,
        4,
        In::Mobi6,
        "NCX index: ours has none in the MOBI 6 part (see 0xf0)",
    ),
    (0xf4, 4, In::Kf8, LAYOUT),
    (0xf8, 4, In::Kf8, LAYOUT),
    (0xfc, 4, In::Kf8, LAYOUT),
    (0x100, 4, In::Kf8, "kindlegen's KF8 DATP index (see 0x78)"),
    (0x104, 4, In::Kf8, LAYOUT),
];

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

/// The EXTH records ours writes that kindlegen's does not, each with why.
const ONLY_OURS: [(u32, &str); 3] = [
    (
        113,
        "the book's id: a sideloaded book's cover shows on the lock screen \
         and in the library only with 113 and 501 (kindling issue 26); \
         calibre writes both",
    ),
    (501, "EBOK, with 113 (kindling issue 26); calibre writes it"),
    (503, "the updated title, as calibre writes it"),
];

/// The EXTH records both write whose values may differ, each with why.
/// Every other record both write must hold the same bytes.
const DIFFERENT_EXTH: [(u32, &str); 7] = [
    (116, "where reading starts: an offset in our own text"),
    (121, "the KF8 part's record 0: our layout"),
    (
        125,
        "the resources the KF8 part shares: ours counts its images and \
         RESC in both parts; kindlegen's book of SVG squares has fewer, and \
         says 0 in its KF8 part",
    ),
    (
        129,
        "the cover's `kindle:embed:` number, among our resources",
    ),
    (
        131,
        "the image count: our MOBI 6 part has its squares as GIFs; \
         kindlegen's book of an EPUB with SVG squares has none",
    ),
    (201, "the cover's number among our images"),
    (202, "the thumbnail's number among our images"),
];

/// A field of record 0 as a number.
fn field(r0: &[u8], at: usize, width: usize) -> u32 {
    r0[at..at + width]
        .iter()
        .fold(0, |v, b| v << 8 | u32::from(*b))
}

/// The fields of the PalmDOC header and the MOBI header, as (offset,
/// width): the PalmDOC header's, then u32s to the end of the 264-byte
/// MOBI header.
fn fields() -> impl Iterator<Item = (usize, usize)> {
    [
        (0x00, 2),
        (0x02, 2),
        (0x04, 4),
        (0x08, 2),
        (0x0a, 2),
        (0x0c, 2),
    ]
    .into_iter()
    .chain((0x10..0x10 + 0x108).step_by(4).map(|at| (at, 4)))
}

/// Both parts' record 0 against kindlegen's, field by field and EXTH
/// record by EXTH record: every difference is named in
/// [`DIFFERENT_FIELDS`], [`NOT_OURS`], [`ONLY_OURS`] or
/// [`DIFFERENT_EXTH`] with its reason.
fn headers_agree(ours: &[u8], theirs: &[u8]) {
    let (o_parts, t_parts) = (read::parts(ours), read::parts(theirs));
    assert_eq!(o_parts.len(), 2);
    assert_eq!(t_parts.len(), 2, "kindlegen's book has a KF8 part");
    for (part, (o, t)) in o_parts.into_iter().zip(t_parts).enumerate() {
        assert_eq!(&o[0x10..0x14], b"MOBI");
        assert_eq!(&t[0x10..0x14], b"MOBI");
        for (at, width) in fields() {
            let (a, b) = (field(o, at, width), field(t, at, width));
            let why = DIFFERENT_FIELDS
                .iter()
                .any(|(f, w, p, _)| (*f, *w) == (at, width) && p.holds(part));
            assert!(
                a == b || why,
                "part {part}, record 0 at {at:#x}: ours {a:#x}, kindlegen's {b:#x}, \
                 and no reason is given"
            );
        }
        let values = |r0| -> BTreeMap<u32, Vec<u8>> {
            (read::exth(r0).into_iter())
                .map(|(k, v)| (k, v.to_vec()))
                .collect()
        };
        let (ov, tv) = (values(o), values(t));
        for (kind, value) in &tv {
            match ov.get(kind) {
                None => assert!(
                    NOT_OURS.iter().any(|(k, _)| k == kind),
                    "part {part}: kindlegen writes EXTH {kind}, ours does not, \
                     and no reason is given"
                ),
                Some(ours) => assert!(
                    ours == value || DIFFERENT_EXTH.iter().any(|(k, _)| k == kind),
                    "part {part}: EXTH {kind}: ours {ours:?}, kindlegen's {value:?}, \
                     and no reason is given"
                ),
            }
        }
        for kind in ov.keys().filter(|k| !tv.contains_key(k)) {
            assert!(
                ONLY_OURS.iter().any(|(k, _)| k == kind),
                "part {part}: ours writes EXTH {kind}, kindlegen's does not, \
                 and no reason is given"
            );
        }
        // The creator records, which firmware reads, are among the equal:
        // kindlegen's own values.
        for kind in [204, 205, 206, 207, 535] {
            assert_eq!(ov[&kind], tv[&kind], "part {part}: EXTH {kind}");
        }
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
    for discs in [3, 7] {
        let mut options = crate::common::options(Path::new("unused"));
        options.hanoi_discs = discs;
        let editions = site::Solved::new(&options).editions();
        let books = editions.iter().filter(|e| e.texts.stem == "towers");
        for e in books.filter(|e| discs < 7 || e.slug == site::HANOI_ANALYSIS) {
            let tmp = tempfile::tempdir().unwrap();
            for source in write_sources(&e.for_books(), &assets, tmp.path()) {
                compiles_clean(&kg, &source, "-c0");
            }
        }
    }
}

/// The chess endings with no spare move: each edition's EPUB and Kindle
/// source compile clean. The default books are the same markup, with
/// twelve (KQK: 4,649 screens, not 392) to eighteen (KRK: 8,295, not 459)
/// times the screens, and kindlegen takes about three minutes over each
/// of them.
#[test]
fn kindlegen_takes_the_chess_books_clean() {
    let Some(kg) = kindlegen() else { return };
    let assets = Assets::load(&repo().join("static"), &site::images()).unwrap();
    let mut options = crate::common::options(Path::new("unused"));
    options.kqk.spare = 0;
    options.krk.spare = 0;
    let editions = site::Solved::new(&options).editions();
    let chess: Vec<&Edition> = (editions.iter())
        .filter(|e| {
            [site::KQK, site::KQK_ANALYSIS, site::KRK, site::KRK_ANALYSIS].contains(&e.slug)
        })
        .collect();
    assert_eq!(chess.len(), 4);
    for e in chess {
        let tmp = tempfile::tempdir().unwrap();
        for source in write_sources(&e.for_books(), &assets, tmp.path()) {
            compiles_clean(&kg, &source, "-c0");
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
