//! The play edition: one screen per view of every reachable position
//! (with a piece picked up, where a move is two taps), for any [`Game`]:
//! two players taking turns, or one solving a puzzle.
//!
//! Invariant: exactly the views of the [`StateGraph`]'s positions get a
//! screen ([`view::breadth_first`]), in breadth-first order, and every
//! cell link of a game in play goes to the view its choice leads to.

use crate::game::Game;
use crate::graph::StateGraph;
use crate::screen::{Edition, Link, Screen, Target};
use crate::view::{self, View};

/// One view's screen, `depth` taps in, linking to the edition at
/// `analysis` if there is one: to the same view while the game is on,
/// to its start once it is over.
pub fn screen<G: Game>(
    start: G,
    view: View<G>,
    depth: u32,
    analysis: Option<&'static str>,
) -> Screen {
    let board = view.position;
    let mut s = Screen::new(Target::page(view.key()), view, depth, view.heading(), |c| {
        Some(Target::page(view.after(c).key()))
    });
    let again = (Link::Here(Target::page(start.key())), G::TEXTS.again);
    // A finished board has no move left to weigh: it offers the analysis
    // from the start, where the reader sees what would have done better.
    // (Made at its length: an edition holds every screen's.)
    s.nav = match analysis {
        None => vec![again],
        Some(slug) => {
            let (key, words) = if board.is_over() {
                (start.key(), "Study the analysis")
            } else {
                (view.key(), "Show what each move is worth")
            };
            vec![again, (Link::Across(slug, key.into()), words)]
        }
    };
    s
}

/// The edition at `slug`: every view of every reachable position, breadth
/// first from the start, so screens a link apart sit close together in
/// the books.
pub fn edition<G: Game>(
    slug: &'static str,
    graph: &StateGraph<G>,
    analysis: Option<&'static str>,
) -> Edition {
    let start = graph.root();
    Edition {
        name: G::TEXTS.play_name.to_string(),
        title: G::TEXTS.play_title.to_string(),
        about: G::TEXTS.play_about,
        contents: vec![(G::TEXTS.play_start.to_string(), Target::page(start.key()))],
        screens: crate::par::map(&view::breadth_first(graph), |&(v, depth)| {
            screen(start, v, depth, analysis)
        }),
        ..Edition::of(slug, start)
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
            let s = screen(Board::EMPTY, View::of(b), 0, None);
            let links: Vec<_> = s.cells.iter().filter_map(|c| c.link()).collect();
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
