//! The two-player edition: one page per reachable board in `two-player/`.
//!
//! Invariant: exactly the boards of the [`StateGraph`] get a page, and every
//! square link of a board in play goes to `page_name(board.play(square))`.

use maud::html;

use crate::board::{Board, page_name};
use crate::graph::{StateGraph, moves};
use crate::html::{board_title, grid, layout, minify, two_player_heading};
use crate::output::OutFile;

/// The folder of the two-player pages.
pub const DIR: &str = "two-player";

/// The square links of `board`: the next board's page for each legal move.
pub fn links(board: Board) -> [Option<String>; 9] {
    let mut links: [Option<String>; 9] = Default::default();
    for (square, next) in moves(board) {
        links[square.index()] = Some(page_name(next));
    }
    links
}

/// The page of one board, minified.
pub fn page(board: Board) -> Vec<u8> {
    let heading = two_player_heading(board);
    let nav = [
        ("../index.html".to_string(), "Home"),
        (page_name(Board::EMPTY), "New game"),
    ];
    let body = html! {
        h1 { (heading) }
        (grid(board, &links(board)))
    };
    minify(&layout(&board_title(board), false, &nav, body))
}

/// Every page of the edition, in id order.
pub fn render(graph: &StateGraph) -> Vec<OutFile> {
    crate::par::map(graph.boards(), |&b| {
        OutFile::new(format!("{DIR}/{}", page_name(b)), page(b))
    })
}

/// The first page.
pub fn start() -> String {
    format!("{DIR}/{}", page_name(Board::EMPTY))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Square, Status};

    /// Squares are never links on a finished board.
    #[test]
    fn finished_boards_have_no_links() {
        let g = StateGraph::new();
        for b in g.boards() {
            let n = links(*b).iter().flatten().count();
            match b.status() {
                Status::InPlay(_) => assert_eq!(n, b.legal_moves().len()),
                _ => assert_eq!(n, 0),
            }
        }
    }

    #[test]
    fn snapshot_of_one_page() {
        // X centre, O top left, X top right: O to move.
        let mut b = Board::EMPTY;
        for i in [4, 0, 2] {
            b = b.play(Square::new(i).unwrap()).unwrap();
        }
        let page = String::from_utf8(page(b)).unwrap();
        expect_test::expect_file!["../tests/snapshots/two-player-page.html"].assert_eq(&page);
    }
}
