//! A site built with `--early-draws`: every game stops as soon as nobody
//! can make three in a row, in every edition, and nothing links nowhere.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::common::page_name;
use tictactoe_book::games::tictactoe::{Board, DEAD_LINE, Rules, Status};
use tictactoe_book::graph::StateGraph;
use tictactoe_book::site;

use crate::common::*;

const EARLY_HEADING: &str = "Draw: no one can make three in a row now";

fn early() -> &'static Path {
    static SITE: OnceLock<PathBuf> = OnceLock::new();
    SITE.get_or_init(|| {
        let out = shared_dir().join("site");
        let mut o = options(&out);
        o.early_draws = true;
        site::build(&o).unwrap();
        out
    })
}

#[test]
fn the_two_player_and_analysis_editions_stop_at_dead_draws() {
    for edition in ["two-player", "analysis"] {
        let pages = pages_in(&early().join(edition));
        assert_eq!(pages.len(), 5_462, "{edition}");
        let (mut links, mut finished, mut early_draws) = (0, 0, 0);
        for path in &pages {
            let page = Page::read(path);
            let board = page.board();
            let heading = page.select("h1")[0].text().collect::<String>();
            let linked = page.squares().iter().filter(|s| s.1.is_some()).count();
            if board.is_dead() || board.is_over() {
                finished += 1;
                assert_eq!(linked, 0, "{}", path.display());
                if !board.is_over() {
                    early_draws += 1;
                    assert_eq!(heading, EARLY_HEADING, "{}", path.display());
                }
            } else {
                assert_eq!(linked, board.legal_moves().len());
                for (i, (_, link, _)) in page.squares().into_iter().enumerate() {
                    if let Some(l) = link {
                        assert_eq!(l, page_name(board.play(sq(i)).unwrap()));
                        assert!(path.parent().unwrap().join(&l).is_file(), "{l}");
                    }
                }
                links += linked;
            }
        }
        assert_eq!(links, 15_999, "{edition}");
        assert_eq!(finished, 1_062, "{edition}");
        let rules = Rules { early_draws: true };
        let expected = StateGraph::<Board>::with_rules(rules)
            .boards()
            .iter()
            .filter(|b| b.status() == Status::Draw && b.marks() < 9)
            .count();
        assert_eq!(early_draws, expected, "{edition}");
        assert!(expected > 0);
    }
}

#[test]
fn every_game_against_the_computer_stops_at_a_dead_draw_and_links_resolve() {
    let pages = crawl(&early().join("index.html"));
    for (path, page) in &pages {
        for (raw, target) in &page.references {
            assert!(target.is_file(), "{}: {raw}", path.display());
        }
        if path.components().any(|c| c.as_os_str() == "vs-computer") {
            let page = Page::read(path);
            let board = page.board();
            let linked = page.squares().iter().filter(|s| s.1.is_some()).count();
            if board.is_dead() {
                assert_eq!(linked, 0, "{}", path.display());
                assert!(page.text().contains(EARLY_HEADING) || board.marks() == 9);
            }
        }
    }
    // Every page of the site is reachable.
    for path in web_pages_in(early()) {
        assert!(pages.contains_key(&normalise(&path)), "{}", path.display());
    }
}

/// The books of every board shrink. (The vs-computer book need not: its
/// games lose a few pages after each dead draw, but the dead draw itself
/// becomes an end page with two links.)
#[test]
fn the_books_of_every_board_shrink_with_early_draws() {
    for name in [
        "tictactoe-two-player.mobi",
        "tictactoe-two-player.epub",
        "tictactoe-analysis.mobi",
        "tictactoe-analysis.epub",
    ] {
        let with = std::fs::metadata(early().join("ebooks").join(name))
            .unwrap()
            .len();
        let without = std::fs::metadata(built().join("ebooks").join(name))
            .unwrap()
            .len();
        assert!(with < without, "{name}: {with} >= {without}");
    }
}

#[test]
fn without_the_flag_a_dead_board_says_so_and_play_goes_on() {
    let graph = StateGraph::<Board>::new();
    let dead: Vec<Board> = graph
        .boards()
        .iter()
        .copied()
        .filter(|b| !b.is_over() && b.is_dead())
        .collect();
    assert_eq!(dead.len(), 120);
    for b in dead {
        for edition in ["two-player", "analysis"] {
            let page = Page::read(&built().join(edition).join(page_name(b)));
            let text = page.text();
            assert!(text.contains(DEAD_LINE), "{edition}/{}", page_name(b));
            // Play goes on: the heading says whose move it is.
            let heading = page.select("h1")[0].text().collect::<String>();
            let mover = b.to_move().letter();
            assert!(
                heading.starts_with(&format!("{mover} to move")),
                "{edition}/{}: {heading}",
                page_name(b)
            );
            assert_eq!(
                page.squares().iter().filter(|s| s.1.is_some()).count(),
                b.legal_moves().len()
            );
        }
    }
}
