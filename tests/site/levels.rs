//! The vs-computer books at every level: they fit the default budgets
//! whatever the number of games, the seed and the rules; libmobi and
//! kindlegen read a book of each level, and the slower readers (calibre,
//! KindleUnpack, epubcheck) the books of the easiest and the hardest.

use std::path::PathBuf;
use std::sync::OnceLock;

use tictactoe_book::assets::Assets;
use tictactoe_book::ebook::{Book, epub, mobi};
use tictactoe_book::editions::vs_computer::{self, Settings};
use tictactoe_book::games::tictactoe::{Board, Rules};
use tictactoe_book::graph::StateGraph;
use tictactoe_book::opponent::Level;
use tictactoe_book::site::{self, Budgets};
use tictactoe_book::solver::Solver;

use crate::common::*;
use crate::ebooks::{calibre_converts, epubcheck_passes, kindleunpack_reads};
use crate::tools::*;

/// The settings of `--level` with the default games and seed.
fn settings(level: Level) -> Settings {
    Settings {
        level: Some(level),
        ..Settings::default()
    }
}

/// A site built with `--level` for each level, once.
pub fn level_sites() -> &'static [(Level, PathBuf)] {
    static SITES: OnceLock<Vec<(Level, PathBuf)>> = OnceLock::new();
    SITES.get_or_init(|| {
        let tmp = shared_dir();
        Level::ALL
            .iter()
            .map(|&level| {
                let out = tmp.join(level.to_string());
                let mut o = options(&out);
                o.games = settings(level);
                site::build(&o).unwrap_or_else(|e| panic!("--level {level}: {e}"));
                (level, out)
            })
            .collect()
    })
}

/// The vs-computer book of each level's site, and how many boards it
/// holds.
fn level_books(ext: &str) -> Vec<(PathBuf, usize)> {
    books_of(ext, &Level::ALL)
}

/// [`level_books`] of the easiest and the hardest level: the same markup
/// as the others, of the most and the fewest lost games.
fn end_level_books(ext: &str) -> Vec<(PathBuf, usize)> {
    books_of(ext, &[Level::Easy, Level::Perfect])
}

/// [`level_books`] of `levels`.
fn books_of(ext: &str, levels: &[Level]) -> Vec<(PathBuf, usize)> {
    let solver = Solver::new(StateGraph::<Board>::new());
    level_sites()
        .iter()
        .filter(|(level, _)| levels.contains(level))
        .map(|(level, out)| {
            let games = vs_computer::games(&settings(*level), &solver);
            let boards = vs_computer::edition(site::VS_COMPUTER, &solver, &games)
                .for_books()
                .screens
                .len();
            let path = out.join(format!("ebooks/tictactoe-vs-computer.{ext}"));
            (path, boards)
        })
        .collect()
}

/// Every level and the even mix, with 1 to 16 games, with and without
/// early draws, each with its own seed: 160 pairs of books, each within
/// the default budgets. (A seed cannot be every seed; these are 160.)
#[test]
fn every_level_fits_the_budgets_with_any_number_of_games_and_rules() {
    let assets = Assets::load(&repo().join("static"), &site::images()).unwrap();
    let budgets = Budgets::default();
    let mut cases = Vec::new();
    for (l, level) in [None].into_iter().chain(Level::ALL.map(Some)).enumerate() {
        for early_draws in [false, true] {
            for games in 1..=16 {
                let seed = (games as u64) * 7919 + (l as u64) * 104_729 + u64::from(early_draws);
                cases.push((level, early_draws, games, seed));
            }
        }
    }
    let solvers: Vec<Solver<Board>> = [false, true]
        .map(|early_draws| Solver::new(StateGraph::<Board>::with_rules(Rules { early_draws })))
        .into();
    let largest = tictactoe_book::par::map(&cases, |&(level, early, games, seed)| {
        let settings = Settings { games, level, seed };
        let solver = &solvers[usize::from(early)];
        let games = vs_computer::games(&settings, solver);
        let web = vs_computer::edition(site::VS_COMPUTER, solver, &games);
        let book = web.for_books();
        let book = Book::new(&book, &assets);
        let (m, e) = (
            mobi::write(&book).unwrap().len(),
            epub::write(&book).unwrap().len(),
        );
        let case = format!("{settings:?}, early draws {early}");
        assert!(m <= budgets.mobi, "{case}: MOBI {m} bytes");
        assert!(e <= budgets.epub, "{case}: EPUB {e} bytes");
        (m, e)
    });
    let mobi = largest.iter().map(|s| s.0).max().unwrap();
    let epub = largest.iter().map(|s| s.1).max().unwrap();
    println!("largest vs-computer books: MOBI {mobi} bytes, EPUB {epub} bytes");
}

#[test]
fn kindleunpack_reads_the_books_of_the_easiest_and_the_hardest_level() {
    for (mobi, boards) in end_level_books("mobi") {
        kindleunpack_reads(&mobi, boards);
    }
}

#[test]
fn calibre_converts_the_books_of_the_easiest_and_the_hardest_level() {
    for (mobi, boards) in end_level_books("mobi") {
        calibre_converts(&mobi, boards);
    }
}

#[test]
fn epubcheck_passes_the_books_of_the_easiest_and_the_hardest_level() {
    if !have("epubcheck", epubcheck_available()) {
        return;
    }
    for (epub, _) in end_level_books("epub") {
        epubcheck_passes(&epub);
    }
}

/// mobitool (libmobi) decodes each level's book too, both its parts, to the same text our
/// own reader gets.
#[test]
fn mobitool_reads_a_book_of_every_level() {
    if !have("mobitool (Debian libmobi-tools)", runs("mobitool", &["-v"])) {
        return;
    }
    for (path, boards) in level_books("mobi") {
        let file = std::fs::read(&path).unwrap();
        let ours = mobi::read::text(&file);
        // The MOBI 6 part (-7), then the KF8 part, libmobi's default.
        let (tmp, _) = mobitool("-7d", &path);
        let rawml = std::fs::read(tmp.path().join("tictactoe-vs-computer.rawml")).unwrap();
        assert!(
            rawml == ours,
            "{}: mobitool's MOBI 6 text differs",
            path.display()
        );
        let (tmp, _) = mobitool("-d", &path);
        let rawml = std::fs::read(tmp.path().join("tictactoe-vs-computer.rawml")).unwrap();
        let kf8 = mobi::read::kf8_text(&file).expect("a KF8 part");
        assert!(
            rawml == kf8,
            "{}: mobitool's KF8 text differs",
            path.display()
        );
        let text = String::from_utf8(ours).unwrap();
        assert_eq!(text.matches("<mbp:pagebreak/>").count(), boards);
    }
}
