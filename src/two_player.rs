//! The two-player edition: one screen per reachable board.
//!
//! Invariant: exactly the boards of the [`StateGraph`] get a screen, in
//! breadth-first order, and every square link of a board in play goes to
//! the board after that move.

use crate::board::Board;
use crate::graph::StateGraph;
use crate::screen::{Edition, Link, Screen, Target, two_player_heading};

/// The edition's slug: its web folder.
pub const SLUG: &str = "two-player";

/// One board's screen.
pub fn screen(board: Board) -> Screen {
    let mut s = Screen::new(
        Target::board(board),
        board,
        two_player_heading(board),
        |square| board.play(square).ok().map(Target::board),
    );
    s.nav = vec![
        (
            Link::Here(Target::board(Board::start(board.rules()))),
            "New game",
        ),
        (
            Link::Across(crate::analysis::SLUG, board),
            "Show what each move is worth",
        ),
    ];
    s
}

/// Every reachable board, breadth first from the empty board, so boards a
/// link apart sit close together in the books.
pub fn edition(graph: &StateGraph) -> Edition {
    Edition {
        slug: SLUG,
        name: "Two players",
        title: "Tic-Tac-Toe for Two Players",
        about: "Play with a friend: take turns with the same screen.",
        contents: vec![("Start a game".to_string(), Target::board(graph.root()))],
        screens: crate::par::map(&graph.breadth_first(), |&b| screen(b)),
        files: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Status;

    /// Squares are never links on a finished board.
    #[test]
    fn finished_boards_have_no_links() {
        let g = StateGraph::new();
        for b in g.boards() {
            let n = screen(*b)
                .squares
                .iter()
                .filter(|s| s.link.is_some())
                .count();
            match b.status() {
                Status::InPlay(_) => assert_eq!(n, b.legal_moves().len()),
                _ => assert_eq!(n, 0),
            }
        }
    }
}
