//! The games against the computer, read back from the built pages.

use tictactoe_book::games::tictactoe::{Board, Cell, Player, Status};

use crate::common::*;

/// Every page of every game: its squares are its id, and each square link
/// makes the player's move plus at most one computer mark.
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
            assert_eq!(board.id(), page_id(&path), "{}", path.display());
            let text = page.text();
            for (i, (cell, link, _)) in page.squares().into_iter().enumerate() {
                let Some(link) = link else {
                    assert!(
                        cell != Cell::Empty || board.is_over(),
                        "{}: dead square",
                        path.display()
                    );
                    continue;
                };
                let next = Board::from_id(page_id(std::path::Path::new(&link))).unwrap();
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
                }
            }
            if let Some(rest) = text.split("The computer played ").nth(1) {
                let name = rest.split('.').next().unwrap();
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
