//! The e-reader books: read back by our own MOBI reader, then by real
//! readers (epubcheck, calibre, KindleUnpack) where they are installed.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read as _;
use std::path::PathBuf;

use tictactoe_book::board::{Board, Status};
use tictactoe_book::ebook::{IMAGES, mobi};
use tictactoe_book::graph::StateGraph;
use tictactoe_book::site::{self, Budgets, BuildError};

use crate::common::*;
use crate::tools::*;

fn book(name: &str) -> PathBuf {
    built().join("ebooks").join(name)
}

const TWO: &str = "tictactoe-two-player";
const VS: &str = "tictactoe-vs-computer";

/// Boards of a MOBI text: offset of each board's `<p>` -> (board, links
/// by square, the text after the board).
fn mobi_boards(text: &str) -> BTreeMap<usize, (Board, [Option<usize>; 9], String)> {
    let mut out = BTreeMap::new();
    let break_tag = "<mbp:pagebreak/>";
    let mut at = 0;
    while let Some(found) = text[at..].find(break_tag) {
        let start = at + found + break_tag.len();
        assert!(
            text[start..].starts_with("<p>"),
            "a board starts with <p> at {start}"
        );
        let end = text[start..].find("</p>").map(|e| start + e).unwrap();
        let block = &text[start..end];
        let mut id = 0;
        let mut links = [None; 9];
        let mut square = 0;
        let mut pending = None;
        for piece in block.split('<').skip(1) {
            if let Some(pos) = piece.strip_prefix("a filepos=") {
                pending = Some(pos[..10].parse::<usize>().unwrap());
            } else if let Some(rec) = piece.strip_prefix("img recindex=\"") {
                let index: usize = rec[..5].parse().unwrap();
                let name = IMAGES[index - 1];
                id = id * 3
                    + match name.as_bytes()[0] {
                        b'e' => 0,
                        b'x' => 1,
                        b'o' => 2,
                        _ => panic!("{name} is not a square"),
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

#[test]
fn the_two_player_mobi_links_every_square_to_the_next_board() {
    let text = mobi_text(TWO);
    let boards = mobi_boards(&text);
    assert_eq!(boards.len(), 5_478);
    let graph = StateGraph::new();
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

#[test]
fn the_vs_computer_mobi_plays_like_the_site() {
    let text = mobi_text(VS);
    let boards = mobi_boards(&text);
    let site_pages = pages_in(&built().join("vs-computer")).len();
    assert_eq!(boards.len(), site_pages);
    for (board, targets, block) in boards.values() {
        for (i, target) in targets.iter().enumerate() {
            let Some(t) = target else { continue };
            let next = boards[t].0;
            let after = board.play(sq(i)).unwrap();
            // The player's mark, then at most one computer mark.
            assert!(
                next == after
                    || after
                        .legal_moves()
                        .iter()
                        .any(|s| after.play(s) == Ok(next))
            );
        }
        let caption = match board.status() {
            Status::InPlay(_) => "Your move",
            Status::Won { .. } if block.contains("You win") => "You win",
            Status::Won { .. } => "The computer wins",
            Status::Draw => "Draw",
        };
        assert!(block.contains(caption), "{block}");
        if board.is_over() {
            assert!(block.contains("Play again") && block.contains("Choose another game"));
        }
    }
    assert_eq!(text.matches("Game ").count(), 16);
}

#[test]
fn every_filepos_lands_on_the_start_of_a_board_or_the_opening_page() {
    for name in [TWO, VS] {
        let text = mobi_text(name);
        let boards = mobi_boards(&text);
        for m in text.match_indices("filepos=") {
            let pos: usize = text[m.0 + 8..m.0 + 18].parse().unwrap();
            assert!(
                boards.contains_key(&pos) || text[pos..].starts_with("<h2>"),
                "{name}: {pos}"
            );
        }
    }
}

#[test]
fn books_keep_to_their_budgets_and_epubs_are_well_formed() {
    let budgets = Budgets::default();
    for name in [TWO, VS] {
        let mobi = std::fs::metadata(book(&format!("{name}.mobi")))
            .unwrap()
            .len() as usize;
        assert!(mobi <= budgets.mobi, "{name}.mobi is {mobi} bytes");
        let path = book(&format!("{name}.epub"));
        let bytes = std::fs::read(&path).unwrap();
        assert!(
            bytes.len() <= budgets.epub,
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
            assert!(f.size() < 200_000, "{} is {} bytes", f.name(), f.size());
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
        epub: 150_000,
    };
    let e = site::build(&o).unwrap_err();
    assert!(matches!(e, BuildError::OverBudget { .. }), "{e}");
    assert!(e.to_string().contains("tictactoe-two-player.mobi"), "{e}");
    assert!(!out.exists());
}

#[test]
fn epubcheck_finds_no_errors_and_no_warnings() {
    if !have("epubcheck", epubcheck_available()) {
        return;
    }
    for name in [TWO, VS] {
        let path = book(&format!("{name}.epub"));
        let o = run("java", &["-jar", EPUBCHECK_JAR, path.to_str().unwrap()]);
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        assert!(t.contains("0 fatals / 0 errors / 0 warnings"), "{t}");
    }
}

#[test]
fn calibre_reads_the_mobi_metadata() {
    if !have("calibre (ebook-meta)", runs("ebook-meta", &["--version"])) {
        return;
    }
    for (name, title) in [
        (TWO, "Tic-Tac-Toe for Two Players"),
        (VS, "Tic-Tac-Toe against the Computer"),
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
fn calibre_converts(name: &str, boards: usize) {
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
            book(&format!("{name}.mobi")).to_str().unwrap(),
            out.to_str().unwrap(),
            "--dont-split-on-page-breaks",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&out).unwrap()).unwrap();
    let (mut breaks, mut imgs) = (0, 0);
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        if f.name().ends_with(".html") {
            let mut s = String::new();
            f.read_to_string(&mut s).unwrap();
            breaks += s.matches("class=\"mbp_pagebreak\"").count();
            imgs += s.matches("<img").count();
        }
    }
    assert_eq!(breaks, boards, "{name}: boards after conversion");
    assert_eq!(imgs, 9 * boards, "{name}: squares after conversion");
}

#[test]
fn calibre_converts_the_two_player_mobi() {
    calibre_converts(TWO, 5_478);
}

#[test]
fn calibre_converts_the_vs_computer_mobi() {
    calibre_converts(VS, pages_in(&built().join("vs-computer")).len());
}

/// KindleUnpack unpacks the book; every filepos lands on a board; every
/// board is reachable; the images decode (tests/tools/check_mobi.py).
fn kindleunpack_reads(name: &str, boards: usize) {
    if !have(
        "KindleUnpack (python3 -m pip install mobi pillow)",
        python_has("mobi") && python_has("PIL"),
    ) {
        return;
    }
    let script = repo().join("tests/tools/check_mobi.py");
    let o = run(
        "python3",
        &[
            script.to_str().unwrap(),
            book(&format!("{name}.mobi")).to_str().unwrap(),
            &boards.to_string(),
        ],
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains(&format!("{boards} boards reachable")), "{t}");
}

#[test]
fn kindleunpack_reads_the_two_player_mobi() {
    kindleunpack_reads(TWO, 5_478);
}

#[test]
fn kindleunpack_reads_the_vs_computer_mobi() {
    kindleunpack_reads(VS, pages_in(&built().join("vs-computer")).len());
}

#[test]
fn the_kindle_html_files_name_every_anchor_they_link_to() {
    for name in [TWO, VS] {
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
