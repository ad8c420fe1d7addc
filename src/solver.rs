//! The solver: negamax over the state graph, memoised by position.
//!
//! Invariant: every reachable position has exactly one [`Score`], computed
//! once, from the side to move's point of view; no IO, no randomness.

use std::cmp::Ordering;
use std::fmt;

use crate::board::{Board, Square, Status};
use crate::graph::{StateGraph, moves};

/// The value of a position or move for the side to move: a win, draw or
/// loss, and how many plies until the game ends with best play.
///
/// Ordered so that greater is better: faster wins beat slower ones, and
/// slower losses beat faster ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Score(i8);

/// Magnitude of a result reached now; one less for each ply away.
const MAX: i8 = 10;

impl Score {
    /// A draw with best play.
    pub const DRAW: Score = Score(0);

    /// A win reached in `plies` plies.
    pub fn win_in(plies: u8) -> Score {
        Score(MAX - plies as i8)
    }

    /// A loss reached in `plies` plies.
    pub fn loss_in(plies: u8) -> Score {
        Score(-(MAX - plies as i8))
    }

    /// Whether the side to move wins with best play.
    pub fn is_win(self) -> bool {
        self.0 > 0
    }

    /// Whether the side to move loses with best play.
    pub fn is_loss(self) -> bool {
        self.0 < 0
    }

    /// Plies until the game ends (0 for a draw).
    pub fn plies(self) -> u8 {
        if self.0 == 0 {
            0
        } else {
            (MAX - self.0.abs()) as u8
        }
    }

    /// The score one ply earlier, for the other side: the negamax step.
    fn back_up(self) -> Score {
        Score(-(self.0 - self.0.signum()))
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.cmp(&other.0)
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.cmp(&0) {
            Ordering::Greater => write!(f, "win in {}", self.plies()),
            Ordering::Less => write!(f, "loss in {}", self.plies()),
            Ordering::Equal => f.write_str("draw"),
        }
    }
}

/// The solved game: a score for every reachable position.
#[derive(Clone, Debug)]
pub struct Solver {
    graph: StateGraph,
    scores: Vec<Score>,
}

impl Solver {
    /// Solves every position of `graph`, deepest first, so each child is
    /// scored before its parents.
    pub fn new(graph: StateGraph) -> Solver {
        let mut scores = vec![Score::DRAW; graph.len()];
        let mut order = graph.breadth_first();
        order.reverse();
        for b in order {
            let score = match b.status() {
                // The player who just moved made the line: the side to move lost.
                Status::Won { .. } => Score::loss_in(0),
                Status::Draw => Score::DRAW,
                Status::InPlay(_) => moves(b)
                    .map(|(_, next)| scores[graph.position(next).expect("closed")].back_up())
                    .max()
                    .expect("a position in play has a move"),
            };
            scores[graph.position(b).expect("own board")] = score;
        }
        Solver { graph, scores }
    }

    /// The graph it solved.
    pub fn graph(&self) -> &StateGraph {
        &self.graph
    }

    /// The score of `board` for the side to move, if it is reachable.
    pub fn score(&self, board: Board) -> Option<Score> {
        self.graph.position(board).map(|i| self.scores[i])
    }

    /// Every legal move of `board` with its score for the side to move, in
    /// reading order of the squares.
    pub fn move_scores(&self, board: Board) -> Vec<(Square, Score)> {
        moves(board)
            .filter_map(|(s, next)| self.score(next).map(|v| (s, v.back_up())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(moves: &[usize]) -> Board {
        moves.iter().fold(Board::EMPTY, |b, &i| {
            b.play(Square::new(i).unwrap()).unwrap()
        })
    }

    #[test]
    fn the_empty_board_is_a_draw() {
        let s = Solver::new(StateGraph::new());
        assert_eq!(s.score(Board::EMPTY), Some(Score::DRAW));
        assert!(
            s.move_scores(Board::EMPTY)
                .iter()
                .all(|(_, v)| *v == Score::DRAW)
        );
    }

    #[test]
    fn faster_wins_rank_higher() {
        assert!(Score::win_in(1) > Score::win_in(3));
        assert!(Score::win_in(9) > Score::DRAW);
        assert!(Score::loss_in(4) > Score::loss_in(2));
        assert_eq!(Score::loss_in(0).back_up(), Score::win_in(1));
        assert_eq!(Score::win_in(3).to_string(), "win in 3");
    }

    #[test]
    fn an_immediate_win_is_found() {
        // X: top left, top; O: left, centre. X to move wins at top right.
        let b = board(&[0, 3, 1, 4]);
        let best = s_best(&b);
        assert_eq!(best, (Square::new(2).unwrap(), Score::win_in(1)));
    }

    fn s_best(b: &Board) -> (Square, Score) {
        let s = Solver::new(StateGraph::new());
        s.move_scores(*b)
            .into_iter()
            .max_by_key(|(_, v)| *v)
            .unwrap()
    }

    #[test]
    fn scores_agree_with_a_plain_negamax() {
        fn negamax(b: Board) -> i8 {
            match b.status() {
                Status::Won { .. } => -MAX,
                Status::Draw => 0,
                Status::InPlay(_) => moves(b)
                    .map(|(_, n)| {
                        let v = negamax(n);
                        -(v - v.signum())
                    })
                    .max()
                    .unwrap(),
            }
        }
        let s = Solver::new(StateGraph::new());
        for &b in s.graph().boards().iter().filter(|b| b.marks() >= 3) {
            assert_eq!(s.score(b).unwrap().0, negamax(b), "{b}");
        }
    }
}
