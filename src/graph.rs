//! The state graph: every position reachable from a game's start.
//!
//! Invariant: it holds each reachable position exactly once, sorted by
//! key, and nothing else; moves are derived from [`Game::play`], never
//! stored twice; a position's depth is the fewest moves that reach it.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::game::Game;

/// Every position reachable from the start, with how deep each lies.
#[derive(Clone, Debug)]
pub struct StateGraph<G: Game> {
    start: G,
    positions: Vec<G>,
    /// Key -> place in `positions`, for the keys reached only: a game of
    /// many possible keys and few positions allocates for the positions.
    index: FxHashMap<u32, u32>,
    /// The fewest moves from the start, indexed like `positions`.
    depths: Vec<u32>,
}

impl<G: Game> Default for StateGraph<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> StateGraph<G> {
    /// Enumerates the graph of the usual rules (5,478 positions for
    /// tic-tac-toe) by a breadth-first walk from the start.
    pub fn new() -> StateGraph<G> {
        StateGraph::with_rules(G::Rules::default())
    }

    /// The graph of games played under `rules` (5,462 positions for
    /// tic-tac-toe with early draws).
    pub fn with_rules(rules: G::Rules) -> StateGraph<G> {
        let start = G::start(rules);
        let mut depth_of: FxHashMap<u32, u32> = FxHashMap::default();
        assert!(start.key() < G::KEYS, "a key below KEYS");
        let mut queue = VecDeque::from([start]);
        depth_of.insert(start.key(), 0);
        let mut reached = Vec::new();
        while let Some(p) = queue.pop_front() {
            reached.push(p);
            let d = depth_of[&p.key()];
            for (_, next) in moves(p) {
                assert!(next.key() < G::KEYS, "a key below KEYS");
                if let std::collections::hash_map::Entry::Vacant(e) = depth_of.entry(next.key()) {
                    e.insert(d + 1);
                    queue.push_back(next);
                }
            }
        }
        reached.sort_by_key(|p| p.key());
        let index: FxHashMap<u32, u32> = reached
            .iter()
            .enumerate()
            .map(|(i, p)| (p.key(), i as u32))
            .collect();
        let depths = reached.iter().map(|p| depth_of[&p.key()]).collect();
        StateGraph {
            start,
            positions: reached,
            index,
            depths,
        }
    }

    /// All positions, sorted by key.
    pub fn boards(&self) -> &[G] {
        &self.positions
    }

    /// How many positions there are.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Never true: the start is always there.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Whether `position` can arise in a game.
    pub fn contains(&self, position: G) -> bool {
        self.position(position).is_some()
    }

    /// Where `position` stands in [`StateGraph::boards`].
    pub fn position(&self, position: G) -> Option<usize> {
        match self.index.get(&position.key()) {
            Some(&i) if self.positions[i as usize] == position => Some(i as usize),
            _ => None,
        }
    }

    /// The fewest moves from the start to `position`, if it is reachable.
    pub fn depth(&self, position: G) -> Option<u32> {
        self.position(position).map(|i| self.depths[i])
    }

    /// The start position.
    pub fn root(&self) -> G {
        self.start
    }

    /// The positions in breadth-first order from the start (by depth,
    /// then key): every position comes after some position leading to it.
    pub fn breadth_first(&self) -> Vec<G> {
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by_key(|&i| (self.depths[i], self.positions[i].key()));
        order.into_iter().map(|i| self.positions[i]).collect()
    }

    /// Every position after all the positions its moves lead to (a
    /// depth-first post-order from the start).
    ///
    /// # Panics
    /// If play can return to a position, so that no such order exists.
    pub fn children_first(&self) -> Vec<G> {
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![NEW; self.len()];
        let mut order = Vec::with_capacity(self.len());
        let at = |p: G| self.position(p).expect("closed under moves");
        let mut stack = vec![(
            self.start,
            moves(self.start).map(|(_, n)| n).collect::<Vec<_>>(),
        )];
        state[at(self.start)] = OPEN;
        while let Some((p, next)) = stack.last_mut() {
            match next.pop() {
                Some(n) => match state[at(n)] {
                    NEW => {
                        state[at(n)] = OPEN;
                        stack.push((n, moves(n).map(|(_, c)| c).collect()));
                    }
                    OPEN => panic!("play returns to {n:?}"),
                    _ => {}
                },
                None => {
                    state[at(*p)] = DONE;
                    order.push(*p);
                    stack.pop();
                }
            }
        }
        order
    }

    /// How many distinct move sequences from the start reach each
    /// position, indexed like [`StateGraph::boards`]: for games whose
    /// every move goes one deeper.
    pub fn paths(&self) -> Vec<u64> {
        let mut paths = vec![0u64; self.len()];
        paths[self.position(self.start).expect("the start")] = 1;
        for p in self.breadth_first() {
            let here = paths[self.position(p).expect("own position")];
            for (_, next) in moves(p) {
                paths[self.position(next).expect("closed under moves")] += here;
            }
        }
        paths
    }
}

/// The legal moves from `position` and the position each leads to, in
/// the order of the cells that make them.
pub fn moves<G: Game>(position: G) -> impl Iterator<Item = (G::Move, G)> {
    position
        .moves()
        .filter_map(move |m| position.play(m).ok().map(|next| (m, next)))
}

#[cfg(test)]
mod tests {
    //! Known answers from `shared/notes/known-answers.md`, checked by walking
    //! the whole graph (the tic-tac-toe perft).
    use super::*;
    use crate::games::tictactoe::{Board, Player, Rules, Status};
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
        let g = StateGraph::<Board>::new();
        assert_eq!(g.len(), 5_478);
        let mut by_depth = [0usize; 10];
        for b in g.boards() {
            by_depth[b.marks()] += 1;
        }
        assert_eq!(by_depth, [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]);
    }

    #[test]
    fn finished_positions_by_result() {
        let g = StateGraph::<Board>::new();
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
        let g = StateGraph::<Board>::new();
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
        let g = StateGraph::<Board>::new();
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
        let g = StateGraph::<Board>::new();
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
        let g = StateGraph::<Board>::new();
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

        let early = StateGraph::<Board>::with_rules(Rules { early_draws: true });
        assert_eq!(early.len(), 5_462);
        let links: usize = early.boards().iter().map(|b| moves(*b).count()).sum();
        assert_eq!(links, 15_999);
        assert_eq!(early.boards().iter().filter(|b| b.is_over()).count(), 1_062);
        assert!(early.boards().iter().all(|b| b.rules().early_draws));
        assert_eq!(early.root(), Board::start(Rules { early_draws: true }));
    }

    #[test]
    fn breadth_first_puts_parents_first() {
        let g = StateGraph::<Board>::new();
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
