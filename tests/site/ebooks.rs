//! The e-reader books: read back by our own MOBI reader, then by real
//! readers (epubcheck, calibre, KindleUnpack) where they are installed.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read as _;
use std::path::{Path, PathBuf};

use std::sync::OnceLock;

use crate::common::page_name;
use tictactoe_book::ebook::mobi;
use tictactoe_book::editions::vs_computer;
use tictactoe_book::games::tictactoe::{Board, Status};
use tictactoe_book::graph::StateGraph;
use tictactoe_book::screen::Edition;
use tictactoe_book::site::{self, Budgets, BuildError};
use tictactoe_book::solver::Solver;

use crate::common::*;
use crate::tools::*;

fn book(name: &str) -> PathBuf {
    built().join("ebooks").join(name)
}

const TWO: &str = "tictactoe-two-player";
const VS: &str = "tictactoe-vs-computer";
const ANALYSIS: &str = "tictactoe-analysis";
const BOOKS: [&str; 3] = [TWO, VS, ANALYSIS];
/// The Towers of Hanoi's books, read by the checks that are not about
/// tic-tac-toe boards.
const HANOI_BOOKS: [&str; 2] = ["towers-hanoi", "towers-hanoi-analysis"];
/// The chess endings' books, of thousands of screens each: they answer
/// to the large budgets.
const CHESS_BOOKS: [&str; 4] = [
    "chess-kqk",
    "chess-kqk-analysis",
    "chess-krk",
    "chess-krk-analysis",
];

/// The editions of the default build, made again by the library.
fn editions() -> &'static [Edition] {
    static EDITIONS: OnceLock<Vec<Edition>> = OnceLock::new();
    EDITIONS.get_or_init(|| site::Solved::new(&options(Path::new("unused"))).editions())
}

/// The edition of the book named `name` (its stem).
fn edition(name: &str) -> &'static Edition {
    editions().iter().find(|e| e.book_stem() == name).unwrap()
}

/// Cells on each screen of the book named `name`.
fn cells(name: &str) -> usize {
    edition(name).screens[0].cells.len()
}

/// Pictures on each screen of the MOBI 6 part of the book named `name`:
/// its cells, and the picture under the board if the game has one.
fn pictures(name: &str) -> usize {
    cells(name) + usize::from(edition(name).under.is_some())
}

/// A MOBI's images in record order: the ones its MOBI 6 part shows (its
/// screens', but where a picture stands under the board, the bottom row's
/// drawn plain, and that picture), then the cover.
fn images(name: &str) -> Vec<&'static str> {
    let e = edition(name);
    let at = |n: &&str| e.images.iter().position(|m| m == n).unwrap();
    let mut shown: Vec<usize> = e.used_images().iter().map(at).collect();
    if let Some(under) = e.under {
        shown = shown.iter().map(|&i| under.above(i)).collect();
        shown.push(under.image);
        shown.sort_unstable();
        shown.dedup();
    }
    let mut v: Vec<&str> = shown.into_iter().map(|i| e.images[i]).collect();
    v.push(e.cover());
    v
}

/// The digits at the start of `s`, as a number.
fn number(s: &str) -> usize {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    s[..end].parse().unwrap()
}

/// Boards of a MOBI text: offset of each board's `<p>` -> (board, links
/// by square, the text after the board).
fn mobi_boards(name: &str, text: &str) -> BTreeMap<usize, (Board, [Option<usize>; 9], String)> {
    let images = images(name);
    let mut out = BTreeMap::new();
    let break_tag = "<mbp:pagebreak/>";
    let mut at = 0;
    while let Some(found) = text[at..].find(break_tag) {
        let start = at + found + break_tag.len();
        assert!(
            text[start..].starts_with("<div>"),
            "a board starts with <div> at {start}"
        );
        let end = text[start..].find("</div>").map(|e| start + e).unwrap();
        let block = &text[start..end];
        let mut id = 0;
        let mut links = [None; 9];
        let mut square = 0;
        let mut pending = None;
        for piece in block.split('<').skip(1) {
            if let Some(pos) = piece.strip_prefix("a filepos=") {
                pending = Some(number(pos));
            } else if let Some(rec) = piece.strip_prefix("img recindex=") {
                let image = images[number(rec) - 1];
                // Empty squares: plain, or an analysis verdict.
                id = id * 3
                    + match image.as_bytes()[0] {
                        b'e' | b'w' | b'd' | b'l' => 0,
                        b'x' => 1,
                        b'o' => 2,
                        _ => panic!("{image} is not a square"),
                    };
                if square < 9 {
                    links[square] = pending.take();
                }
                square += 1;
            }
        }
        assert_eq!(square, 9, "nine squares at {start}");
        out.insert(
            start,
            (Board::from_id(id).unwrap(), links, block.to_string()),
        );
        at = end;
    }
    out
}

fn mobi_text(name: &str) -> String {
    let file = std::fs::read(book(&format!("{name}.mobi"))).unwrap();
    String::from_utf8(mobi::read::text(&file)).unwrap()
}

/// Each edition's books have a cover of their own, drawn with their
/// title (so a library of covers tells them apart), and the EPUB's is
/// that one (the MOBI's: `both_parts_of_every_mobi_carry_the_records_a_kindle_reads`).
#[test]
fn every_book_has_a_cover_of_its_own_with_its_title() {
    let books: Vec<&Edition> = editions().iter().filter(|e| !e.print_only).collect();
    let covers: BTreeSet<&str> = books.iter().map(|e| e.cover()).collect();
    assert_eq!(covers.len(), books.len(), "a cover is shared");
    assert_eq!(books.len(), tictactoe_book::assets::COVERS.len());
    for e in books {
        let cover = (tictactoe_book::assets::COVERS.iter())
            .find(|c| c.name == e.cover())
            .unwrap();
        assert_eq!(cover.name, format!("{}-cover", e.book_stem()));
        assert_eq!(cover.title.join(" "), e.title, "{}", cover.name);
        let epub = std::fs::read(book(&format!("{}.epub", e.book_stem()))).unwrap();
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(epub)).unwrap();
        assert!(
            zip.by_name(&format!("OEBPS/{}.png", e.cover())).is_ok(),
            "{}",
            e.cover()
        );
    }
}

#[test]
fn the_two_player_and_analysis_mobis_link_every_square_to_the_next_board() {
    for name in [TWO, ANALYSIS] {
        every_square_links_to_the_next_board(name);
    }
}

fn every_square_links_to_the_next_board(name: &str) {
    let text = mobi_text(name);
    let boards = mobi_boards(name, &text);
    assert_eq!(boards.len(), 5_478);
    let graph = StateGraph::<Board>::new();
    let ids: BTreeSet<u32> = boards.values().map(|(b, _, _)| b.id()).collect();
    assert_eq!(ids.len(), graph.len());
    let mut links = 0;
    for (board, targets, block) in boards.values() {
        assert!(graph.contains(*board));
        for (i, target) in targets.iter().enumerate() {
            let expected = board.play(sq(i)).ok();
            match (target, expected) {
                (Some(t), Some(next)) => {
                    assert_eq!(boards[t].0, next, "square {i} of {board}");
                    links += 1;
                }
                (None, None) => {}
                _ => panic!("{board}: square {i} link {target:?}"),
            }
        }
        if board.is_over() {
            assert!(block.contains("New game"));
        }
    }
    assert_eq!(links, 16_167);
    // The opening page and its start link.
    assert!(text.contains("<guide><reference type=\"text\""));
}

/// The screens a book of the default build holds: a book shares the
/// screens that are the same in several games.
fn book_screens(name: &str) -> usize {
    edition(name).for_books().screens.len()
}

/// Every game of the book, followed from its contents line square by
/// square in step with the web game: the same boards, the same links, the
/// same words, a screen for each page (every page names its game).
#[test]
fn the_vs_computer_mobi_plays_like_the_site() {
    let text = mobi_text(VS);
    let boards = mobi_boards(VS, &text);
    let site_pages = pages_in(&built().join("vs-computer")).len();
    assert_eq!(boards.len(), book_screens(VS));
    assert_eq!(boards.len(), site_pages);
    let opening = &text[..text.find("<mbp:pagebreak/>").unwrap()];
    let starts: Vec<usize> = opening
        .match_indices("<p><a filepos=")
        .map(|(at, m)| number(&opening[at + m.len()..]))
        .collect();
    assert_eq!(starts.len(), 16);
    let solver = Solver::new(StateGraph::<Board>::new());
    let games = vs_computer::games(&Default::default(), &solver);
    let mut reached = BTreeSet::new();
    let book_images = images(VS);
    assert!(book_images.contains(&"xl") && book_images.contains(&"ol"));
    for (game, start) in games.iter().zip(starts) {
        let dir = built().join(format!("vs-computer/{}", game.spec.number));
        let mut stack = vec![(dir.join(page_name(game.start)), start)];
        let mut seen = BTreeSet::new();
        while let Some((path, at)) = stack.pop() {
            if !seen.insert((path.clone(), at)) {
                continue;
            }
            reached.insert(at);
            let page = Page::read(&path);
            let (board, links, block) = &boards[&at];
            assert_eq!(page.board(), *board, "{}", path.display());
            let heading: String = page.select("h1")[0].text().collect();
            assert!(block.contains(&heading), "{heading} / {block}");
            for line in page.select("main p") {
                let line: String = line.text().collect();
                if line.contains("Game ") {
                    assert!(block.contains(&line), "{line} / {block}");
                }
            }
            // The computer's last move is drawn as the web draws it.
            let drawn: Vec<&str> = block
                .split("<img recindex=")
                .skip(1)
                .map(|rec| book_images[number(rec) - 1])
                .collect();
            for (i, img) in page.select("img").iter().take(9).enumerate() {
                let src = img.value().attr("src").unwrap();
                let name = src
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .strip_suffix(".svg")
                    .unwrap();
                assert_eq!(drawn[i], name, "{}: square {i}", path.display());
            }
            for (i, (_, href, _)) in page.squares().into_iter().enumerate() {
                match (href, links[i]) {
                    (Some(href), Some(t)) => stack.push((dir.join(href), t)),
                    (None, None) => {}
                    other => panic!("{}: square {i}: {other:?}", path.display()),
                }
            }
            if board.is_over() {
                assert!(block.contains("Choose another game"), "{block}");
                assert!(!block.contains("Play again"), "{block}");
            }
        }
    }
    assert_eq!(reached.len(), boards.len(), "every screen is some game's");
    for (board, _, block) in boards.values() {
        let caption = match board.status() {
            Status::InPlay(_) => "Your move",
            Status::Won { .. } if block.contains("You win") => "You win",
            Status::Won { .. } => "The computer wins",
            Status::Draw => "Draw",
        };
        assert!(block.contains(caption), "{block}");
    }
    // What a screen says is the same in every format.
    assert!(text.contains("<br>The computer took the "));
}

/// What a real Kindle reads in record 0 of both parts, beyond what desktop
/// readers need: the id (113) beside `EBOK` (501), kindlegen's count of
/// images (131), and its creator records (204 to 207, 535); the same id for
/// the same book, another for another; the cover (201) its own book's.
#[test]
fn both_parts_of_every_mobi_carry_the_records_a_kindle_reads() {
    let mut ids = BTreeSet::new();
    let mut covers = BTreeSet::new();
    for name in BOOKS.iter().chain(&HANOI_BOOKS).chain(&CHESS_BOOKS) {
        let file = std::fs::read(book(&format!("{name}.mobi"))).unwrap();
        let parts = mobi::read::parts(&file);
        assert_eq!(parts.len(), 2, "{name}: MOBI 6 and KF8");
        let mut seen = Vec::new();
        for r0 in parts {
            let exth: BTreeMap<u32, &[u8]> = mobi::read::exth(r0).into_iter().collect();
            assert_eq!(exth[&501], b"EBOK", "{name}");
            let id = std::str::from_utf8(exth[&113]).unwrap();
            assert_eq!(id.len(), 36, "{name}: a UUID's shape, {id}");
            assert_eq!(exth[&204], 201u32.to_be_bytes(), "{name}");
            assert_eq!(exth[&205], 2u32.to_be_bytes(), "{name}");
            assert_eq!(exth[&206], 9u32.to_be_bytes(), "{name}");
            assert_eq!(exth[&207], 0u32.to_be_bytes(), "{name}");
            assert_eq!(exth[&535], b"1028-0897292", "{name}");
            let images = images(name).len() as u32 - 1;
            assert_eq!(exth[&131], images.to_be_bytes(), "{name}: every cell image");
            seen.push(id.to_string());
        }
        assert_eq!(seen[0], seen[1], "{name}: one id for both parts");
        // The thumbnail a Kindle installs as the book's tile: a PNG.
        let r0 = mobi::read::parts(&file)[0];
        let exth: BTreeMap<u32, &[u8]> = mobi::read::exth(r0).into_iter().collect();
        let thumb = mobi::read::u32_at(exth[&202], 0) as usize;
        let first_image = mobi::read::u32_at(r0, 0x6c) as usize;
        let record = mobi::read::records(&file)[first_image + thumb];
        assert!(
            record.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{name}: the thumbnail is a PNG"
        );
        // The cover is the book's own, drawn with its title.
        let cover = mobi::read::u32_at(exth[&201], 0) as usize;
        let gif = format!("{}.gif", edition(name).cover());
        let drawn = std::fs::read(crate::common::repo().join("static").join(&gif)).unwrap();
        let record = mobi::read::records(&file)[first_image + cover];
        assert_eq!(record, drawn, "{name}: the cover is {gif}");
        covers.insert(record.to_vec());
        assert!(ids.insert(seen[0].clone()), "{name}: an id of its own");
    }
    assert_eq!(
        covers.len(),
        BOOKS.len() + HANOI_BOOKS.len() + CHESS_BOOKS.len(),
        "a cover for each book"
    );
}

/// Every text record of every KF8 part ends in its trailing byte
/// sequences (TBS), after the multibyte bytes (extra-data flags 3, as
/// kindlegen writes them): a Kindle opens a multi-section book without
/// them as "Unable to Open Item" (boko). calibre's inspector computes them
/// again from the NCX index and finds each record's bytes the same.
#[test]
fn every_kf8_text_record_ends_in_the_tbs_of_its_contents() {
    let inspect = have(
        "calibre (calibre-debug)",
        runs("calibre-debug", &["--version"]),
    );
    for name in BOOKS.iter().chain(&HANOI_BOOKS).chain(&CHESS_BOOKS) {
        let path = book(&format!("{name}.mobi"));
        let file = std::fs::read(&path).unwrap();
        let recs = mobi::read::records(&file);
        let k = recs.iter().position(|r| *r == b"BOUNDARY").unwrap() + 1;
        let r0 = recs[k];
        let flags = mobi::read::u32_at(r0, 0xf0);
        assert_eq!(flags, 3, "{name}: multibyte bytes, then TBS");
        let count = usize::from(u16::from_be_bytes([r0[8], r0[9]]));
        let flow0 = mobi::read::u32_at(r0, 4) as usize;
        for (i, rec) in recs[k + 1..=k + count].iter().enumerate() {
            let tbs = mobi::read::trailing(rec, flags).1.unwrap();
            // Every record of flow 0 lies in some line of the contents;
            // the first names the TBS type, 8.
            if i * mobi::RECORD_SIZE < flow0 {
                assert!(!tbs.is_empty(), "{name}: record {i} has no TBS");
            }
            if i == 0 {
                assert_eq!(tbs[0] & 0b10, 0b10, "{name}: the type follows");
                assert_eq!(tbs[1], 0x88, "{name}: type 8");
            }
        }
        if !inspect {
            continue;
        }
        let tmp = tempfile::tempdir().unwrap();
        let o = std::process::Command::new("calibre-debug")
            .args(["--inspect-mobi", path.to_str().unwrap()])
            .current_dir(tmp.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
        let report = tmp.path().join(format!("decompiled_{name}/mobi8/tbs.txt"));
        let report = std::fs::read_to_string(report).unwrap();
        assert_eq!(
            report.matches("TBS Bytes:").count(),
            count,
            "{name}: calibre reads a TBS on every record"
        );
        assert!(!report.contains("mismatch"), "{name}: {report}");
    }
}

#[test]
fn every_filepos_lands_on_the_start_of_a_board_or_the_opening_page() {
    for name in BOOKS {
        let text = mobi_text(name);
        let boards = mobi_boards(name, &text);
        for m in text.match_indices("filepos=") {
            let pos = number(&text[m.0 + 8..]);
            assert!(
                boards.contains_key(&pos) || text[pos..].starts_with("<h2>"),
                "{name}: {pos}"
            );
        }
    }
}

/// A MOBI holds at most 65,535 records, shared by its two parts: each
/// default book's count, against that cap (the largest, the KRK
/// analysis, holds a few hundred).
#[test]
fn every_mobi_states_its_records_against_the_formats_cap() {
    for name in BOOKS.iter().chain(&HANOI_BOOKS).chain(&CHESS_BOOKS) {
        let bytes = std::fs::read(book(&format!("{name}.mobi"))).unwrap();
        let records = u16::from_be_bytes([bytes[76], bytes[77]]);
        eprintln!("{name}.mobi: {records} records of at most 65,535");
        assert!(records > 10, "{name}.mobi: {records} records");
        // The record list is what it says: each offset inside the file.
        let last = 78 + 8 * (usize::from(records) - 1);
        let offset = u32::from_be_bytes(bytes[last..last + 4].try_into().unwrap());
        assert!((offset as usize) < bytes.len(), "{name}.mobi");
    }
}

/// The default chess challenges (KQK with one spare move, KRK with two:
/// the test site has fewer, to keep its crawls short) make books within
/// the large budgets, and one more spare move would not: the defaults are
/// as many as fit.
#[test]
fn the_default_chess_books_are_as_large_as_their_budgets_allow() {
    use tictactoe_book::assets::Assets;
    use tictactoe_book::games::chess::{Ending, challenge::Rules};
    let assets = Assets::load(&repo().join("static"), &site::images()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let mut o = options(&tmp.path().join("site"));
    o.kqk = Rules::default_for(Ending::Kqk, vs_computer::DEFAULT_SEED);
    o.krk = Rules::default_for(Ending::Krk, vs_computer::DEFAULT_SEED);
    let report = site::render(&o, &assets, &site::InMemory::default()).unwrap();
    let chess: Vec<_> = (report.books.iter())
        .filter(|b| b.file.contains("chess-") && b.budget.is_some())
        .collect();
    assert_eq!(chess.len(), 8, "a MOBI and an EPUB of each chess edition");
    for b in &chess {
        eprintln!("{}: {} of {:?} bytes", b.file, b.bytes, b.budget);
        assert!(b.bytes <= b.budget.unwrap(), "{}", b.file);
    }
    // One spare move more each, and some book is over.
    o.kqk.spare += 1;
    o.krk.spare += 1;
    let over = site::render(&o, &assets, &site::InMemory::default());
    assert!(matches!(over, Err(BuildError::OverBudget { .. })));
}

#[test]
fn books_keep_to_their_budgets_and_epubs_are_well_formed() {
    let budgets = Budgets::default();
    let small = BOOKS.iter().chain(&HANOI_BOOKS).map(|n| (n, false));
    for (name, large) in small.chain(CHESS_BOOKS.iter().map(|n| (n, true))) {
        let (mobi_budget, epub_budget) = match large {
            false => (budgets.mobi, budgets.epub),
            true => (budgets.large_mobi, budgets.large_epub),
        };
        let mobi = std::fs::metadata(book(&format!("{name}.mobi")))
            .unwrap()
            .len() as usize;
        assert!(mobi <= mobi_budget, "{name}.mobi is {mobi} bytes");
        let path = book(&format!("{name}.epub"));
        let bytes = std::fs::read(&path).unwrap();
        assert!(
            bytes.len() <= epub_budget,
            "{name}.epub is {} bytes",
            bytes.len()
        );
        assert_eq!(&bytes[30..38], b"mimetype");
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let mut mimetype = String::new();
        let mut first = zip.by_index(0).unwrap();
        assert_eq!(first.compression(), zip::CompressionMethod::Stored);
        first.read_to_string(&mut mimetype).unwrap();
        drop(first);
        assert_eq!(mimetype, "application/epub+zip");
        for i in 0..zip.len() {
            let f = zip.by_index(i).unwrap();
            assert!(f.size() < 300_000, "{} is {} bytes", f.name(), f.size());
        }
    }
}

#[test]
fn a_book_over_budget_fails_the_build_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let mut o = options(&out);
    o.budgets = Budgets {
        mobi: 100_000,
        ..Budgets::default()
    };
    let e = site::build(&o).unwrap_err();
    assert!(matches!(e, BuildError::OverBudget { .. }), "{e}");
    assert!(e.to_string().contains("tictactoe-two-player.mobi"), "{e}");
    assert!(
        e.to_string().contains("%) over its budget of 100000 bytes"),
        "{e}"
    );
    assert!(!out.exists());
}

#[test]
fn epubcheck_finds_no_errors_and_no_warnings() {
    if !have("epubcheck", epubcheck_available()) {
        return;
    }
    for name in BOOKS.iter().chain(&HANOI_BOOKS).chain(&CHESS_BOOKS) {
        epubcheck_passes(&book(&format!("{name}.epub")));
    }
}

/// epubcheck reports no fatal error, no error and no warning.
pub fn epubcheck_passes(epub: &Path) {
    let o = run("java", &["-jar", EPUBCHECK_JAR, epub.to_str().unwrap()]);
    let t = text(&o);
    assert!(o.status.success(), "{}: {t}", epub.display());
    assert!(t.contains("0 fatals / 0 errors / 0 warnings"), "{t}");
}

#[test]
fn calibre_reads_the_mobi_metadata() {
    if !have("calibre (ebook-meta)", runs("ebook-meta", &["--version"])) {
        return;
    }
    for (name, title) in [
        (TWO, "Tic-tac-toe for Two Players"),
        (VS, "Tic-tac-toe against the Computer"),
        (ANALYSIS, "Tic-tac-toe Analysed"),
    ] {
        let o = run(
            "ebook-meta",
            &[book(&format!("{name}.mobi")).to_str().unwrap()],
        );
        let t = text(&o);
        assert!(t.contains(&format!("Title               : {title}")), "{t}");
        assert!(t.contains("Author(s)           : tictactoe-book"), "{t}");
    }
}

/// calibre converts a MOBI to EPUB and keeps every board and square.
pub fn calibre_converts(mobi: &Path, boards: usize) {
    calibre_converts_cells(mobi, boards, 9);
}

/// [`calibre_converts`] for a book of `cells` cells a screen.
pub fn calibre_converts_cells(mobi: &Path, boards: usize, cells: usize) {
    let name = mobi.file_name().unwrap().to_str().unwrap();
    if !have(
        "calibre (ebook-convert)",
        runs("ebook-convert", &["--version"]),
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out.epub");
    let o = run(
        "ebook-convert",
        &[
            mobi.to_str().unwrap(),
            out.to_str().unwrap(),
            "--dont-split-on-page-breaks",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    // calibre reads the KF8 part: each board a <div> with its id, split
    // into files of its own.
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&out).unwrap()).unwrap();
    let mut pages = BTreeMap::new();
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        if f.name().ends_with(".html") {
            let mut s = String::new();
            f.read_to_string(&mut s).unwrap();
            let file = f.name().rsplit('/').next().unwrap().to_string();
            pages.insert(file, s);
        }
    }
    let count = |pat: &str| {
        pages
            .values()
            .map(|p| p.matches(pat).count())
            .sum::<usize>()
    };
    let boards_found = pages
        .values()
        .flat_map(|p| p.split("<div ").skip(1))
        .filter(|d| d.split('>').next().unwrap().contains(" id=\"") || d.starts_with("id=\""))
        .count();
    assert_eq!(boards_found, boards, "{name}: boards after conversion");
    // Every square, and the cover on the opening page.
    assert_eq!(
        count("<img"),
        cells * boards + 1,
        "{name}: cells after conversion"
    );
    let mut links = 0;
    for (file, page) in &pages {
        for (at, _) in page.match_indices("<a href=\"") {
            let href = page[at + 9..].split('"').next().unwrap();
            let Some((to, id)) = href.split_once('#') else {
                continue;
            };
            let to = if to.is_empty() { file.as_str() } else { to };
            assert!(
                pages[to].contains(&format!(" id=\"{id}\"")),
                "{name}: {file} links to {href}, which is not there"
            );
            links += 1;
        }
    }
    assert!(links > boards, "{name}: {links} links");
}

#[test]
fn calibre_converts_the_hanoi_mobis() {
    for name in HANOI_BOOKS {
        calibre_converts_cells(
            &book(&format!("{name}.mobi")),
            book_screens(name),
            cells(name),
        );
    }
}

#[test]
fn calibre_converts_the_two_player_mobi() {
    calibre_converts(&book(&format!("{TWO}.mobi")), 5_478);
}

#[test]
fn calibre_converts_the_vs_computer_mobi() {
    calibre_converts(&book(&format!("{VS}.mobi")), book_screens(VS));
}

/// KindleUnpack unpacks both parts of the book (tests/tools/check_mobi.py):
/// in the MOBI 6 part every filepos lands on a board, every board is
/// reachable and the images decode; the KF8 part holds every board and
/// square, each link lands on its board, and it passes epubcheck.
pub fn kindleunpack_reads(mobi: &Path, boards: usize) {
    kindleunpack_reads_cells(mobi, boards, 9, 9, None);
}

/// [`kindleunpack_reads`] for a book of `cells` cells a screen, and in the
/// MOBI 6 part `pictures` pictures a screen (the cells, and a picture under
/// the board if the game has one); with `columns` (a game whose every move
/// is a column), each board of the MOBI 6 part a table of that many
/// columns, each column's pictures inside its one link, or none.
pub fn kindleunpack_reads_cells(
    mobi: &Path,
    boards: usize,
    cells: usize,
    pictures: usize,
    columns: Option<usize>,
) {
    if !have(
        "KindleUnpack (python3 -m pip install mobi pillow)",
        python_has("mobi") && python_has("PIL"),
    ) {
        return;
    }
    let script = repo().join("tests/tools/check_mobi.py");
    let tmp = tempfile::tempdir().unwrap();
    let kf8 = tmp.path().join("kf8.epub");
    let o = run(
        "python3",
        &[
            script.to_str().unwrap(),
            mobi.to_str().unwrap(),
            &boards.to_string(),
            &cells.to_string(),
            kf8.to_str().unwrap(),
            &pictures.to_string(),
            &columns.unwrap_or(0).to_string(),
        ],
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains(&format!("{boards} boards reachable")), "{t}");
    // The EPUB KindleUnpack makes of the KF8 part is a valid EPUB.
    if have("epubcheck", epubcheck_available()) {
        epubcheck_passes(&kf8);
    }
}

#[test]
fn kindleunpack_reads_the_two_player_mobi() {
    kindleunpack_reads(&book(&format!("{TWO}.mobi")), 5_478);
}

#[test]
fn kindleunpack_reads_the_vs_computer_mobi() {
    kindleunpack_reads(&book(&format!("{VS}.mobi")), book_screens(VS));
}

#[test]
fn kindleunpack_reads_the_analysis_mobi() {
    kindleunpack_reads(&book(&format!("{ANALYSIS}.mobi")), 5_478);
}

#[test]
fn kindleunpack_reads_the_hanoi_mobis() {
    for name in HANOI_BOOKS {
        kindleunpack_reads_cells(
            &book(&format!("{name}.mobi")),
            book_screens(name),
            cells(name),
            pictures(name),
            Some(edition(name).screens[0].columns),
        );
    }
}

#[test]
fn the_kindle_html_files_name_every_anchor_they_link_to() {
    for name in BOOKS.iter().chain(&HANOI_BOOKS).chain(&CHESS_BOOKS) {
        let page = Page::read(&book(&format!("{name}-kindle.html")));
        let ids: BTreeSet<String> = page
            .select("[id]")
            .iter()
            .map(|e| e.value().id().unwrap().to_string())
            .collect();
        for a in page.select("a[href]") {
            let href = a.value().attr("href").unwrap();
            assert!(ids.contains(href.trim_start_matches('#')), "{name}: {href}");
        }
        assert!(
            page.select("img")
                .iter()
                .all(|i| i.value().attr("alt").is_some())
        );
    }
}

/// libmobi's `mobitool` rebuilds each MOBI's text with no warning: every
/// `filepos` becomes an anchor on the start of an element (a board's
/// `<div>` or the opening page's `<h2>`), every link has its anchor, and
/// every square's image is found.
#[test]
fn mobitool_reads_every_mobi_without_a_warning() {
    if !have("mobitool (Debian libmobi-tools)", runs("mobitool", &["-v"])) {
        return;
    }
    for name in BOOKS.iter().chain(&HANOI_BOOKS).chain(&CHESS_BOOKS) {
        let (boards, cells) = (book_screens(name), cells(name));
        let (_tmp, text, o) = mobitool_source(&book(&format!("{name}.mobi")));
        let out = crate::tools::text(&o);
        assert!(o.stderr.is_empty(), "{name}: {out}");
        assert!(!out.to_lowercase().contains("warning"), "{name}: {out}");
        let mut anchors = BTreeSet::new();
        for (at, _) in text.match_indices("<a id=\"") {
            let id_end = text[at + 7..].find('"').unwrap() + at + 7;
            let rest = &text[id_end..];
            assert!(
                rest.starts_with("\"></a>"),
                "{name}: {}",
                &text[at..at + 40]
            );
            let next = &rest[6..];
            assert!(
                next.starts_with("<div>") || next.starts_with("<h2>"),
                "{name}: anchor {} lands on {:?}",
                &text[at + 7..id_end],
                &next[..next.len().min(30)]
            );
            anchors.insert(&text[at + 7..id_end]);
        }
        assert_eq!(
            anchors.len(),
            boards + 1,
            "{name}: every board and the opening"
        );
        for (at, _) in text.match_indices("href=\"#") {
            let end = text[at + 7..].find('"').unwrap() + at + 7;
            assert!(
                anchors.contains(&text[at + 7..end]),
                "{name}: a link to nowhere"
            );
        }
        let images = text.matches("<img src=\"resource").count();
        assert_eq!(images, pictures(name) * boards, "{name}: every picture");
        mobitool_reads_kf8(name, boards, cells);
    }
}

/// libmobi reads the KF8 part (its default for a combined file) with no
/// warning, and rebuilds its pages: every board a `<div>` with its id,
/// every square an image, and every link to a page and an id there.
fn mobitool_reads_kf8(name: &str, boards: usize, cells: usize) {
    let (tmp, o) = crate::tools::mobitool("-s", &book(&format!("{name}.mobi")));
    let out = crate::tools::text(&o);
    assert!(
        o.stderr.is_empty() && !out.to_lowercase().contains("warning"),
        "{name}: {out}"
    );
    let dir = tmp.path().join(format!("{name}_markup"));
    let mut pages = BTreeMap::new();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let file = e.file_name().into_string().unwrap();
        if file.starts_with("part") {
            pages.insert(file, std::fs::read_to_string(e.path()).unwrap());
        }
    }
    let count = |pat: &str| {
        pages
            .values()
            .map(|p| p.matches(pat).count())
            .sum::<usize>()
    };
    assert_eq!(count("<div id=\""), boards, "{name}: KF8 boards");
    assert_eq!(count("<img alt=\""), cells * boards, "{name}: KF8 squares");
    for (file, page) in &pages {
        for (at, _) in page.match_indices("<a href=\"") {
            let href = page[at + 9..].split('"').next().unwrap();
            let (to, id) = href.split_once('#').unwrap_or((href, ""));
            let to = if to.is_empty() { file.as_str() } else { to };
            let target = pages
                .get(to)
                .unwrap_or_else(|| panic!("{name}: {file} links to {href}"));
            assert!(
                id.is_empty() || target.contains(&format!(" id=\"{id}\"")),
                "{name}: {file} links to {href}, which is not there"
            );
        }
    }
}

/// The home page offers each book in each of its formats, and the Kindle
/// source's OPF beside its HTML (what kindlegen reads), each file there.
#[test]
fn the_home_page_offers_every_book_file_a_reader_needs() {
    let home = std::fs::read_to_string(built().join("index.html")).unwrap();
    for name in BOOKS.iter().chain(&HANOI_BOOKS).chain(&CHESS_BOOKS) {
        for ending in [".mobi", ".epub", "-kindle.html", "-kindle.opf"] {
            let file = format!("ebooks/{name}{ending}");
            assert!(home.contains(&format!("<a href={file}>")), "{file}");
            assert!(built().join(&file).is_file(), "{file}");
        }
    }
}

/// In a book of many links a screen (two-player, analysis), every screen
/// starts at a round offset, so links' last digits repeat and compress:
/// every `filepos` of the MOBI 6 part that leads to a screen ends in `00`,
/// and every `off:` of the KF8 part is a multiple of 64 (`0` last, an even
/// digit before it). A book of fewer (vs-computer) is laid out tight,
/// where the padding would cost more than it saves.
#[test]
fn screens_start_at_round_offsets_in_books_of_many_links() {
    fn base32(s: &[u8]) -> usize {
        s.iter().fold(0, |n, &c| {
            n * 32 + char::from(c).to_digit(32).expect("a base-32 digit") as usize
        })
    }
    for (name, rounded) in [(TWO, true), (ANALYSIS, true), (VS, false)] {
        let file = std::fs::read(book(&format!("{name}.mobi"))).unwrap();
        let text = String::from_utf8(mobi::read::text(&file)).unwrap();
        // The opening page, where the guide leads, is not a screen.
        let contents = text.find("<body>").unwrap() + "<body>".len();
        let targets: Vec<usize> = text
            .split("filepos=")
            .skip(1)
            .map(|s| {
                s[..s.find(|c: char| !c.is_ascii_digit()).unwrap()]
                    .parse()
                    .unwrap()
            })
            .filter(|&t| t != contents)
            .collect();
        assert!(targets.len() > 5000, "{name}");
        // Whether all `offsets` are multiples of `n` is whether the book
        // rounds its screens.
        let all_round = |offsets: &[usize], n: usize, part: &str| {
            let round = offsets.iter().filter(|&&o| o % n == 0).count();
            let all = offsets.len();
            assert_eq!(round == all, rounded, "{name}, {part}: {round} of {all}");
        };
        all_round(&targets, 100, "MOBI 6");
        let kf8 = mobi::read::kf8_text(&file).unwrap();
        let kf8 = String::from_utf8_lossy(&kf8);
        let offs: Vec<usize> = kf8
            .split(":off:")
            .skip(1)
            .map(|s| base32(&s.as_bytes()[..10]))
            .collect();
        all_round(&offs, 64, "KF8");
    }
}
