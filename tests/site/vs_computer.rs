//! The games against the computer, read back from the built pages.

use tictactoe_book::editions::vs_computer::REPLY_SHIFT;
use tictactoe_book::game::Game as _;
use tictactoe_book::games::tictactoe::{Board, Cell, Player, Status};

use crate::common::*;

/// The board a page's name names: its key, less the computer's move a
/// page of its own keeps above [`REPLY_SHIFT`].
fn board_of(path: &std::path::Path) -> Board {
    Board::from_id(page_id(path) & ((1 << REPLY_SHIFT) - 1)).unwrap()
}

/// Every page of every game: its squares are its id, each square link
/// makes the player's move plus at most one computer mark, and the page it
/// lands on names that mark in its one line under the heading, frames it
/// on the board and says so in its square's label; every page names its
/// game and level.
#[test]
fn every_game_page_is_consistent() {
    let root = built().join("vs-computer");
    let mut games = 0;
    let mut finished_seen = [0usize; 3];
    for game in std::fs::read_dir(&root).unwrap().flatten() {
        games += 1;
        let dir = game.path();
        let pages = pages_in(&dir);
        assert!(!pages.is_empty());
        // The player's mark: X if the game starts on the empty board.
        let human = if dir.join("0.html").is_file() {
            Player::X
        } else {
            Player::O
        };
        for path in pages {
            let page = Page::read(&path);
            let board = page.board();
            assert_eq!(board, board_of(&path), "{}", path.display());
            let text = page.text();
            // One line under the heading, naming the game and its level
            // last (and on a board nobody can win, saying so before).
            let lines: Vec<String> = page
                .select("main > p")
                .iter()
                .skip(1)
                .map(|p| p.text().collect())
                .collect();
            assert_eq!(lines.len(), 1, "{}", path.display());
            let line = &lines[0];
            if let Some(remark) = board.remark() {
                assert!(line.contains(remark.as_ref()), "{}: {line}", path.display());
            }
            let number = dir.file_name().unwrap().to_str().unwrap();
            assert!(
                line.contains(&format!("Game {number}, ")) && line.ends_with('.'),
                "{}: {line}",
                path.display()
            );
            let said = line
                .strip_prefix("The computer took the ")
                .map(|rest| rest.split(" square.").next().unwrap().to_string());
            // Only the player's own start and the boards the player's
            // move ends name no computer's move.
            let marks = board.legal_moves().len();
            assert!(
                said.is_some() || marks == 9 || board.to_move() != human,
                "{}: says nothing of the computer's move",
                path.display()
            );
            for (i, (cell, link, _)) in page.squares().into_iter().enumerate() {
                let Some(link) = link else {
                    assert!(
                        cell != Cell::Empty || board.is_over(),
                        "{}: dead square",
                        path.display()
                    );
                    continue;
                };
                let next = board_of(std::path::Path::new(&link));
                assert!(dir.join(&link).is_file(), "{link} missing");
                let after = board.play(sq(i)).unwrap();
                assert_eq!(board.to_move(), human);
                if after.is_over() {
                    assert_eq!(next, after);
                } else {
                    // One more mark, the computer's, on an empty square.
                    let replies: Vec<_> = after
                        .legal_moves()
                        .iter()
                        .filter(|s| after.play(*s) == Ok(next))
                        .collect();
                    assert_eq!(replies.len(), 1, "{}: {link}", path.display());
                    // The page it lands on names that mark.
                    let there = Page::read(&dir.join(&link)).text();
                    let words = format!("The computer took the {} square.", replies[0].name());
                    assert_eq!(there.matches("The computer took").count(), 1);
                    assert!(there.contains(&words), "{}: {link}", path.display());
                }
            }
            // The square the line names, and only it, is marked and
            // labelled as the computer's last move.
            let marked: Vec<usize> = page
                .squares()
                .iter()
                .enumerate()
                .filter(|(_, (_, _, alt))| alt.ends_with(", its last move"))
                .map(|(i, _)| i)
                .collect();
            if let Some(name) = said {
                let square = (0..9).map(sq).find(|s| s.name() == name).unwrap();
                assert_eq!(
                    board.cell(square),
                    Cell::Taken(human.opponent()),
                    "{}",
                    path.display()
                );
                assert_eq!(marked, [square.index()], "{}", path.display());
                let src = page.select("img")[square.index()]
                    .value()
                    .attr("src")
                    .unwrap();
                let line = matches!(board.status(), Status::Won { .. });
                let mark = if human == Player::X { "o" } else { "x" };
                let image = format!("{mark}{}.svg", if line { "w" } else { "l" });
                assert!(src.ends_with(&image), "{}: {src}", path.display());
            } else {
                assert!(marked.is_empty(), "{}", path.display());
            }
            match board.status() {
                Status::InPlay(p) => {
                    assert_eq!(p, human);
                    assert!(text.contains("Your move"));
                }
                s => {
                    let (i, words) = match s {
                        Status::Won { winner, .. } if winner == human => (0, "You win"),
                        Status::Won { .. } => (1, "The computer wins"),
                        _ => (2, "Draw"),
                    };
                    finished_seen[i] += 1;
                    assert!(text.contains(words), "{}", path.display());
                    assert!(text.contains("Play again"));
                    assert!(text.contains("Choose another game"));
                }
            }
        }
    }
    assert_eq!(games, 16);
    assert!(finished_seen.iter().all(|&n| n > 0), "{finished_seen:?}");
}

#[test]
fn the_home_page_lists_every_game() {
    let home = Page::read(&built().join("index.html"));
    let links: Vec<String> = home
        .select("#vs-computer + p + ul a")
        .iter()
        .map(|a| a.value().attr("href").unwrap().to_string())
        .collect();
    assert_eq!(links.len(), 16);
    for (i, l) in links.iter().enumerate() {
        assert!(l.starts_with(&format!("vs-computer/{}/", i + 1)), "{l}");
    }
    let text = home.text();
    assert!(text.contains("Game 1: you start (X), easy"), "{text}");
    assert!(text.contains("Game 2: the computer starts, you are O, easy"));
}
