//! What one screen shows of a game: a position, and the piece the reader
//! has picked up on it where a move is two taps (a piece, then where it
//! goes). The game knows whole moves only; this is the one place that
//! turns them into taps, so the graph, the solver, the computer and the
//! analysis never see half a move.
//!
//! Invariant: a view's choices are exactly its position's legal moves
//! (each on the cell it is tapped on last, under the piece it moves) and,
//! with no piece picked, a pick of each of the game's pieces, and with
//! one picked, putting it back (and, in a game that lets the reader pick
//! another piece instead, [`Game::REPICK`], a pick of each other piece);
//! at most one choice a cell. A finished
//! position has none, unless the game tries it again from another
//! ([`Game::again`]): then its board and its choices are that one's.
//! Across a position's views its choices make every legal move, so a
//! piece that moves is always one the game lets be picked up.
//! Every view has its own key below [`Game::KEYS`], the name of its
//! page.

use rustc_hash::FxHashMap;

use crate::game::{Face, Game, Note};
use crate::graph::StateGraph;

/// A position as one screen shows it: with the piece on `picked` picked
/// up, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct View<G> {
    /// The position.
    pub position: G,
    /// The cell of the piece picked up, if one is.
    pub picked: Option<usize>,
}

/// What tapping a cell of a view does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice<M> {
    /// Makes this whole move.
    Move(M),
    /// Picks up the piece on this cell: the view of its targets.
    Pick(usize),
    /// Puts the piece picked up back: the position as it was.
    Back,
}

impl<G: Game> View<G> {
    /// `position` with no piece picked up: its board.
    pub fn of(position: G) -> View<G> {
        View {
            position,
            picked: None,
        }
    }

    /// The key of its page: the position's, or [`Game::picked_key`].
    pub fn key(self) -> u32 {
        match self.picked {
            None => self.position.key(),
            Some(cell) => self.position.picked_key(cell),
        }
    }

    /// The position its board shows and its choices are made on: its
    /// own, or the one a finished position is tried again from
    /// ([`Game::again`]).
    pub fn board(self) -> G {
        match self.position.is_over() {
            true => self.position.again().unwrap_or(self.position),
            false => self.position,
        }
    }

    /// Every cell a tap on does something, with what it does, in cell
    /// order: none once the game is over, unless it is tried again, on
    /// the board it is tried again from.
    pub fn choices(self) -> Vec<(usize, Choice<G::Move>)> {
        let p = self.board();
        if p.is_over() {
            return Vec::new();
        }
        // Room for the choices of each of the site's games (at most a
        // queen's 27 moves, a king's 8 and two picks), so a view
        // allocates once.
        let mut out: Vec<(usize, Choice<G::Move>)> = Vec::with_capacity(40);
        out.extend(
            p.moves()
                .filter(|&m| G::piece(m) == self.picked)
                .map(|m| (G::cell(m), Choice::Move(m))),
        );
        match self.picked {
            None => out.extend(p.pieces().map(|c| (c, Choice::Pick(c)))),
            Some(c) => {
                out.push((c, Choice::Back));
                if G::REPICK {
                    out.extend(p.pieces().filter(|&o| o != c).map(|o| (o, Choice::Pick(o))));
                }
            }
        }
        out.sort_by_key(|&(cell, _)| cell);
        // A cell is one link: (piece, cell) names at most one move, and a
        // piece's cell makes no move of one tap.
        assert!(
            out.windows(2).all(|w| w[0].0 < w[1].0),
            "two choices a cell"
        );
        out
    }

    /// The view a choice leads to.
    ///
    /// # Panics
    /// If `choice` is a move the position refuses.
    pub fn after(self, choice: Choice<G::Move>) -> View<G> {
        match choice {
            Choice::Move(m) => View::of(self.board().play(m).expect("a legal move")),
            Choice::Pick(cell) => View {
                position: self.board(),
                picked: Some(cell),
            },
            Choice::Back => View::of(self.position),
        }
    }

    /// Cell `index` as the game draws it in this view.
    pub fn face(self, index: usize) -> Face {
        self.board().face(self.picked, index)
    }

    /// The image of cell `index` carrying `note`.
    pub fn noted_image(self, index: usize, note: Note) -> usize {
        self.board().noted_image(self.picked, index, note)
    }

    /// The heading of its screen.
    pub fn heading(self) -> String {
        self.position.heading(self.picked)
    }

    /// Its title in words, onto `out`.
    pub fn push_title(self, out: &mut String) {
        self.position.push_title(self.picked, out);
    }

    /// Its cells as text, for `positions.json`.
    pub fn text(self) -> String {
        self.position.text(self.picked)
    }
}

/// Every view of the graph's positions that play reaches, each with the
/// fewest taps from the start, in breadth-first order (by taps, then
/// key): so screens a tap apart sit close together in the books. A game
/// of one-tap moves has a view a position, its depth the position's.
pub fn breadth_first<G: Game>(graph: &StateGraph<G>) -> Vec<(View<G>, u32)> {
    use std::collections::hash_map::Entry;
    let start = View::of(graph.root());
    let mut seen: FxHashMap<u32, View<G>> = FxHashMap::default();
    seen.insert(start.key(), start);
    let mut order = vec![(start, 0)];
    let mut next = 0;
    while let Some(&(view, depth)) = order.get(next) {
        next += 1;
        for (_, choice) in view.choices() {
            let to = view.after(choice);
            assert!(to.key() < G::KEYS, "{to:?}: a key past KEYS");
            match seen.entry(to.key()) {
                Entry::Vacant(e) => {
                    e.insert(to);
                    order.push((to, depth + 1));
                }
                Entry::Occupied(e) => assert_eq!(*e.get(), to, "two views, one key"),
            }
        }
    }
    // Every position's board is reached: no move is left out because its
    // piece cannot be picked up.
    let boards = order.iter().filter(|(v, _)| v.picked.is_none()).count();
    assert_eq!(boards, graph.len(), "a position no tap reaches");
    order.sort_by_key(|&(view, depth)| (depth, view.key()));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hanoi::{Hanoi, Rules};
    use crate::games::tictactoe::Board;

    /// Tic-tac-toe is one tap a move: a view a position, at its depth.
    #[test]
    fn a_game_of_one_tap_moves_has_a_view_a_position() {
        let graph = StateGraph::<Board>::new();
        let views = breadth_first(&graph);
        assert_eq!(views.len(), 5478);
        for (view, depth) in views {
            assert_eq!(view.picked, None);
            assert_eq!(graph.depth(view.position), Some(depth));
        }
    }

    /// The Towers of Hanoi is two taps a move: at 4 discs, 81 positions
    /// and 194 with a disc picked up (every peg with a disc, but on the
    /// solved position), each key its own, and every pick put back where
    /// it came from.
    #[test]
    fn a_game_of_two_tap_moves_has_a_view_for_each_piece_picked() {
        let graph = StateGraph::<Hanoi>::with_rules(Rules { discs: 4 });
        assert_eq!(graph.len(), 81);
        let views = breadth_first(&graph);
        let picked = views.iter().filter(|(v, _)| v.picked.is_some()).count();
        assert_eq!((views.len() - picked, picked), (81, 194));
        let mut keys: Vec<u32> = views.iter().map(|(v, _)| v.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), views.len());
        assert!(keys.iter().all(|&k| k < Hanoi::KEYS));
        for (view, _) in views {
            for (cell, choice) in view.choices() {
                let to = view.after(choice);
                match choice {
                    Choice::Pick(c) => assert_eq!((c, to.picked), (cell, Some(cell))),
                    Choice::Back => assert_eq!(to, View::of(view.position)),
                    Choice::Move(m) => {
                        assert_eq!(Hanoi::piece(m), view.picked);
                        assert_eq!(to.picked, None);
                    }
                }
            }
        }
    }
}
