//! The play edition: one screen per reachable position, for any [`Game`]:
//! two players taking turns, or one solving a puzzle.
//!
//! Invariant: exactly the positions of the [`StateGraph`] get a screen,
//! in breadth-first order, and every cell link of a game in play goes to
//! the position after that move.

use crate::game::Game;
use crate::graph::StateGraph;
use crate::screen::{Edition, Link, Screen, Target};

/// One position's screen, `depth` moves in, linking to the same position
/// in the edition at `analysis` if there is one.
pub fn screen<G: Game>(start: G, board: G, depth: u32, analysis: Option<&'static str>) -> Screen {
    let mut s = Screen::new(
        Target::page(board.key()),
        board,
        depth,
        board.heading(),
        |m| board.play(m).ok().map(|b| Target::page(b.key())),
    );
    s.nav = vec![(
        Link::Here(Target::page(start.key())),
        super::start_again::<G>(),
    )];
    // A finished board has no move left to weigh.
    if let (Some(slug), false) = (analysis, board.is_over()) {
        s.nav.push((
            Link::Across(slug, board.key()),
            "Show what each move is worth",
        ));
    }
    s
}

/// The edition at `slug`: every reachable position, breadth first from
/// the start, so positions a link apart sit close together in the books.
pub fn edition<G: Game>(
    slug: &'static str,
    graph: &StateGraph<G>,
    analysis: Option<&'static str>,
) -> Edition {
    let start = graph.root();
    let (name, title) = if G::PLAYERS == 1 {
        (G::TEXTS.title, G::TEXTS.title.to_string())
    } else {
        ("Two players", format!("{} for Two Players", G::TEXTS.title))
    };
    Edition {
        slug,
        name: name.to_string(),
        title,
        texts: G::TEXTS,
        images: G::IMAGES,
        cover: G::COVER,
        about: G::TEXTS.play_about,
        contents: vec![(G::TEXTS.play_start.to_string(), Target::page(start.key()))],
        screens: crate::par::map(&graph.breadth_first(), |&b| {
            let depth = graph.depth(b).expect("a position of the graph");
            screen(start, b, depth, analysis)
        }),
        files: Vec::new(),
        aspect: start.aspect(),
        column_moves: G::COLUMN_MOVES,
        under: G::UNDER_BOARD,
        print_only: false,
        used: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::{Board, Status};

    /// Squares are never links on a finished board, and are exactly the
    /// legal moves, each to the board after it, on a board in play.
    #[test]
    fn squares_link_to_the_board_after_each_move() {
        let g = StateGraph::<Board>::new();
        for &b in g.boards() {
            let s = screen(Board::EMPTY, b, 0, None);
            let links: Vec<_> = s.cells.iter().filter_map(|c| c.link).collect();
            let want: Vec<_> = match b.status() {
                Status::InPlay(_) => b
                    .legal_moves()
                    .iter()
                    .map(|m| Target::page(b.play(m).unwrap().id()))
                    .collect(),
                _ => Vec::new(),
            };
            assert_eq!(links, want, "{b}");
        }
    }
}
