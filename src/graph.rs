//! The state graph: every position reachable from the empty board.
//!
//! Invariant: it holds each reachable board exactly once, sorted by id, and
//! nothing else; moves are derived from [`Board::play`], never stored twice.

use crate::board::{Board, ID_LIMIT, Rules, Square};

/// Every reachable position, X moving first, play stopping at three in a
/// row or a full board.
#[derive(Clone, Debug)]
pub struct StateGraph {
    boards: Vec<Board>,
    /// Board id -> position in `boards`, or `u16::MAX` for unreachable ids.
    index: Vec<u16>,
}

impl Default for StateGraph {
    fn default() -> Self {
        Self::new()
    }
}

impl StateGraph {
    /// Enumerates the graph (5,478 positions) by a walk from the empty board.
    pub fn new() -> StateGraph {
        StateGraph::with_rules(Rules::default())
    }

    /// The graph of games played under `rules` (5,462 positions with early
    /// draws).
    pub fn with_rules(rules: Rules) -> StateGraph {
        let mut seen = vec![false; ID_LIMIT as usize];
        let mut stack = vec![Board::start(rules)];
        seen[0] = true;
        while let Some(b) = stack.pop() {
            for (_, next) in moves(b) {
                let id = next.id() as usize;
                if !seen[id] {
                    seen[id] = true;
                    stack.push(next);
                }
            }
        }
        let boards: Vec<Board> = (0..ID_LIMIT)
            .filter(|&id| seen[id as usize])
            .filter_map(Board::from_id)
            .map(|b| b.with_rules(rules))
            .collect();
        let mut index = vec![u16::MAX; ID_LIMIT as usize];
        for (i, b) in boards.iter().enumerate() {
            index[b.id() as usize] = i as u16;
        }
        StateGraph { boards, index }
    }

    /// All positions, sorted by id.
    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// How many positions there are.
    pub fn len(&self) -> usize {
        self.boards.len()
    }

    /// Never true: the empty board is always there.
    pub fn is_empty(&self) -> bool {
        self.boards.is_empty()
    }

    /// Whether `board` can arise in a game.
    pub fn contains(&self, board: Board) -> bool {
        self.position(board).is_some()
    }

    /// Where `board` stands in [`StateGraph::boards`].
    pub fn position(&self, board: Board) -> Option<usize> {
        match self.index.get(board.id() as usize) {
            Some(&i) if i != u16::MAX => Some(usize::from(i)),
            _ => None,
        }
    }

    /// The first position: the empty board under the graph's rules.
    pub fn root(&self) -> Board {
        self.boards[0]
    }

    /// The positions in breadth-first order from the empty board (by number
    /// of marks, then id): every board comes after some board leading to it.
    pub fn breadth_first(&self) -> Vec<Board> {
        let mut order = self.boards.clone();
        order.sort_by_key(|b| (b.marks(), b.id()));
        order
    }

    /// How many distinct move sequences from the empty board reach each
    /// position, indexed like [`StateGraph::boards`].
    pub fn paths(&self) -> Vec<u64> {
        let mut paths = vec![0u64; self.len()];
        paths[0] = 1;
        for b in self.breadth_first() {
            let here = paths[self.position(b).expect("own board")];
            for (_, next) in moves(b) {
                paths[self.position(next).expect("closed under moves")] += here;
            }
        }
        paths
    }
}

/// The legal moves from `board` and the board each one leads to, in reading
/// order of the square played.
pub fn moves(board: Board) -> impl Iterator<Item = (Square, Board)> {
    board
        .legal_moves()
        .iter()
        .filter_map(move |s| board.play(s).ok().map(|next| (s, next)))
}

#[cfg(test)]
mod tests {
    //! Known answers from `shared/notes/known-answers.md`, checked by walking
    //! the whole graph (the tic-tac-toe perft).
    use super::*;
    use crate::board::{Player, Status};
    use std::collections::BTreeSet;

    fn result_key(b: Board) -> Option<&'static str> {
        match b.status() {
            Status::InPlay(_) => None,
            Status::Won {
                winner: Player::X, ..
            } => Some("X"),
            Status::Won {
                winner: Player::O, ..
            } => Some("O"),
            Status::Draw => Some("draw"),
        }
    }

    #[test]
    fn positions_by_depth() {
        let g = StateGraph::new();
        assert_eq!(g.len(), 5_478);
        let mut by_depth = [0usize; 10];
        for b in g.boards() {
            by_depth[b.marks()] += 1;
        }
        assert_eq!(by_depth, [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]);
    }

    #[test]
    fn finished_positions_by_result() {
        let g = StateGraph::new();
        let count = |key: &str, marks: usize| {
            g.boards()
                .iter()
                .filter(|b| result_key(**b) == Some(key) && b.marks() == marks)
                .count()
        };
        assert_eq!(
            [count("X", 5), count("X", 7), count("X", 9)],
            [120, 444, 62]
        );
        assert_eq!([count("O", 6), count("O", 8)], [148, 168]);
        assert_eq!(count("draw", 9), 16);
        let finished = g.boards().iter().filter(|b| b.is_over()).count();
        assert_eq!(finished, 958);
        assert_eq!(g.len() - finished, 4_520);
    }

    #[test]
    fn moves_between_positions() {
        let g = StateGraph::new();
        let links: usize = g.boards().iter().map(|b| moves(*b).count()).sum();
        assert_eq!(links, 16_167);
        for b in g.boards() {
            for (_, next) in moves(*b) {
                assert!(g.contains(next), "{b} leads outside the graph");
            }
        }
    }

    #[test]
    fn games_by_outcome_and_length() {
        let g = StateGraph::new();
        let paths = g.paths();
        let mut by_result = std::collections::BTreeMap::new();
        let mut by_length = [0u64; 10];
        for (b, n) in g.boards().iter().zip(&paths) {
            if let Some(key) = result_key(*b) {
                *by_result.entry(key).or_insert(0u64) += n;
                by_length[b.marks()] += n;
            }
        }
        assert_eq!(by_result["X"], 131_184);
        assert_eq!(by_result["O"], 77_904);
        assert_eq!(by_result["draw"], 46_080);
        assert_eq!(by_result.values().sum::<u64>(), 255_168);
        assert_eq!(&by_length[5..], [1_440, 5_328, 47_952, 72_576, 127_872]);
        // Every prefix of every game: the nodes of the full move tree.
        assert_eq!(paths.iter().sum::<u64>(), 549_946);
    }

    #[test]
    fn positions_up_to_symmetry() {
        let g = StateGraph::new();
        let classes: BTreeSet<u32> = g.boards().iter().map(|b| b.canonical_id()).collect();
        assert_eq!(classes.len(), 765);
        let finished: Vec<Board> = classes
            .iter()
            .map(|&id| Board::from_id(id).unwrap())
            .filter(|b| b.is_over())
            .collect();
        assert_eq!(finished.len(), 138);
        let count = |k| {
            finished
                .iter()
                .filter(|b| result_key(**b) == Some(k))
                .count()
        };
        assert_eq!([count("X"), count("O"), count("draw")], [91, 44, 3]);
    }

    #[test]
    fn dead_draws_in_play_and_the_early_draw_graph() {
        let g = StateGraph::new();
        let in_play: Vec<Board> = g
            .boards()
            .iter()
            .copied()
            .filter(|b| !b.is_over())
            .collect();
        let blocked = in_play.iter().filter(|b| b.all_lines_blocked()).count();
        assert_eq!(blocked, 40);
        assert!(
            in_play
                .iter()
                .filter(|b| b.all_lines_blocked())
                .all(|b| b.marks() == 8)
        );
        let mut dead = [0usize; 10];
        for b in in_play.iter().filter(|b| b.is_dead()) {
            dead[b.marks()] += 1;
        }
        assert_eq!(dead.iter().sum::<usize>(), 120);
        assert_eq!([dead[6], dead[7], dead[8]], [8, 32, 80]);

        let early = StateGraph::with_rules(Rules { early_draws: true });
        assert_eq!(early.len(), 5_462);
        let links: usize = early.boards().iter().map(|b| moves(*b).count()).sum();
        assert_eq!(links, 15_999);
        assert_eq!(early.boards().iter().filter(|b| b.is_over()).count(), 1_062);
        assert!(early.boards().iter().all(|b| b.rules().early_draws));
        assert_eq!(early.root(), Board::start(Rules { early_draws: true }));
    }

    #[test]
    fn breadth_first_puts_parents_first() {
        let g = StateGraph::new();
        let order = g.breadth_first();
        assert_eq!(order[0], Board::EMPTY);
        assert_eq!(order.len(), g.len());
        let mut placed = vec![false; 19_683];
        for b in &order {
            placed[b.id() as usize] = true;
            for (_, next) in moves(*b) {
                assert!(!placed[next.id() as usize]);
            }
        }
    }
}
