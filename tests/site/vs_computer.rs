//! The games against the computer, read back from the built pages.

use tictactoe_book::editions::vs_computer::REPLY_SHIFT;
use tictactoe_book::games::tictactoe::{Board, Cell, Player, Status};

use crate::common::*;

/// The board a page's name names: its key, less the computer's move a
/// page of its own keeps above [`REPLY_SHIFT`].
fn board_of(path: &std::path::Path) -> Board {
    Board::from_id(page_id(path) & ((1 << REPLY_SHIFT) - 1)).unwrap()
}

/// Every page of every game: its squares are its id, each square link
/// makes the player's move plus at most one computer mark, and the page it
/// lands on names that mark; every page names its game and level.
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
            assert!(
                text.contains(&format!(
                    "Game {}: ",
                    dir.file_name().unwrap().to_str().unwrap()
                )),
                "{}: {text}",
                path.display()
            );
            let said = text
                .split("The computer played ")
                .nth(1)
                .map(|rest| rest.split('.').next().unwrap().to_string());
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
                    let words = format!("The computer played {}.", replies[0].name());
                    assert!(there.contains(&words), "{}: {link}", path.display());
                }
            }
            if let Some(name) = said {
                let square = (0..9).map(sq).find(|s| s.name() == name).unwrap();
                assert_eq!(
                    board.cell(square),
                    Cell::Taken(human.opponent()),
                    "{}",
                    path.display()
                );
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
