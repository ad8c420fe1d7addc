//! The solver: for a two-player game, negamax over the state graph, each
//! position scored once, children first, from the scores of the positions
//! after it (so each is looked up, never searched again); for a puzzle,
//! the fewest whole moves to its goal, by a breadth-first search back from
//! it (a choice that only starts a move, or takes that start back, costs
//! none).
//!
//! Invariant: every reachable position has exactly one [`Score`], computed
//! once, from the side to move's point of view; no IO, no randomness.

use std::cmp::Ordering;
use std::fmt;

use crate::game::{Game, Outcome, Verdict};
use crate::graph::{StateGraph, moves};

/// The value of a position or move for the side to move: a win, draw or
/// loss, and how many plies until the game ends with best play.
///
/// Ordered so that greater is better: faster wins beat slower ones, and
/// slower losses beat faster ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Score(i16);

/// Magnitude of a result reached now; one less for each ply away.
const MAX: i16 = 10_000;

impl Score {
    /// A draw with best play.
    pub const DRAW: Score = Score(0);

    /// A win reached in `plies` plies.
    pub fn win_in(plies: u16) -> Score {
        Score(MAX - plies as i16)
    }

    /// A loss reached in `plies` plies.
    pub fn loss_in(plies: u16) -> Score {
        Score(-(MAX - plies as i16))
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
    pub fn plies(self) -> u16 {
        if self.0 == 0 {
            0
        } else {
            (MAX - self.0.abs()) as u16
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

impl Verdict {
    /// The verdict of a solver score, from the side it scores: plies
    /// counted as the winner's moves.
    pub fn of(score: Score) -> Verdict {
        let plies = score.plies();
        if score.is_win() {
            Verdict::Win(plies.div_ceil(2))
        } else if score.is_loss() {
            Verdict::Loss(plies / 2)
        } else {
            Verdict::Draw
        }
    }
}

/// The solved game: a score for every reachable position.
#[derive(Clone, Debug)]
pub struct Solver<G: Game> {
    graph: StateGraph<G>,
    scores: Vec<Score>,
}

impl<G: Game> Solver<G> {
    /// Solves every position of `graph`. A puzzle's score is a win in as
    /// many plies as its goal is away (a draw if it cannot be reached);
    /// a two-player game's, its negamax value.
    ///
    /// # Panics
    /// If play in a two-player game can return to a position: negamax
    /// needs a game that ends.
    pub fn new(graph: StateGraph<G>) -> Solver<G> {
        let scores = if G::PLAYERS == 1 {
            distances(&graph)
        } else {
            negamax(&graph)
        };
        Solver { graph, scores }
    }

    /// The graph it solved.
    pub fn graph(&self) -> &StateGraph<G> {
        &self.graph
    }

    /// The score of `board` for the side to move, if it is reachable.
    pub fn score(&self, board: G) -> Option<Score> {
        self.graph.position(board).map(|i| self.scores[i])
    }

    /// Every legal move of `board` with its score for the side to move, in
    /// the order of the cells that make them.
    pub fn move_scores(&self, board: G) -> Vec<(G::Move, Score)> {
        moves(board)
            .filter_map(|(s, next)| {
                let v = self.score(next)?;
                Some((
                    s,
                    if G::PLAYERS == 1 {
                        self.choice_moves(board, next)
                            .map_or(Score::DRAW, |m| puzzle_score(board, m))
                    } else {
                        v.back_up()
                    },
                ))
            })
            .collect()
    }
}

impl<G: Game> Solver<G> {
    /// The fewest whole moves to a puzzle's goal from `board`, if it can
    /// be reached.
    fn moves_left(&self, board: G) -> Option<u16> {
        let score = self.score(board)?;
        score.is_win().then(|| score.plies().div_ceil(2))
    }

    /// The fewest whole moves to a puzzle's goal through the choice from
    /// `board` to `next`, its own [`cost`] included. A choice that starts a
    /// move (a disc lifted) is worth the best way to finish that move:
    /// taking it back again is not one, or every start would be as good as
    /// the best.
    fn choice_moves(&self, board: G, next: G) -> Option<u16> {
        if board.settled() && !next.settled() {
            moves(next)
                .filter(|&(_, after)| after != board)
                .filter_map(|(_, after)| Some(cost(next, after) + self.moves_left(after)?))
                .min()
        } else {
            Some(cost(board, next) + self.moves_left(next)?)
        }
    }
}

/// Negamax, each position after every position its moves lead to
/// ([`StateGraph::children_first`]).
fn negamax<G: Game>(graph: &StateGraph<G>) -> Vec<Score> {
    let mut scores = vec![Score::DRAW; graph.len()];
    for b in graph.children_first() {
        let score = match b.outcome() {
            Some(Outcome::Won(winner)) if winner == b.mover() => Score::win_in(0),
            Some(Outcome::Won(_)) => Score::loss_in(0),
            Some(Outcome::Draw) => Score::DRAW,
            Some(Outcome::Solved) => Score::win_in(0),
            None => moves(b)
                .map(|(_, next)| scores[graph.position(next).expect("closed")].back_up())
                .max()
                .expect("a position in play has a move"),
        };
        scores[graph.position(b).expect("own board")] = score;
    }
    scores
}

/// What a puzzle's choice from `from` to `to` costs, in whole moves: none
/// if it only starts a move (into a position that is not
/// [`Game::settled`]) or takes that start back (out of one, back to a
/// position one selection before it), else one.
pub fn cost<G: Game>(from: G, to: G) -> u16 {
    let takes_back = !from.settled() && to.moves().any(|m| to.play(m).is_ok_and(|b| b == from));
    if !to.settled() || takes_back { 0 } else { 1 }
}

/// A puzzle's score from the whole moves left: twice as many plies, less
/// the half of a move already made where one is (a disc lifted), so that
/// [`Verdict::of`] reads whole moves as it reads a two-player game's.
fn puzzle_score<G: Game>(board: G, moves: u16) -> Score {
    Score::win_in(2 * moves - u16::from(!board.settled()))
}

/// A puzzle's scores: a breadth-first search from every solved position
/// along the choices backwards, a choice that costs no whole move
/// ([`cost`]) put at the front of the queue (a 0-1 search), so each
/// position's score counts the fewest whole moves to the goal, whatever
/// cycles play has, and putting a lifted disc back is no move.
fn distances<G: Game>(graph: &StateGraph<G>) -> Vec<Score> {
    let positions = graph.boards();
    let mut into: Vec<Vec<(u32, u16)>> = vec![Vec::new(); positions.len()];
    for (i, &p) in positions.iter().enumerate() {
        for (_, next) in moves(p) {
            into[graph.position(next).expect("closed")].push((i as u32, cost(p, next)));
        }
    }
    let mut left: Vec<Option<u16>> = vec![None; positions.len()];
    let mut queue = std::collections::VecDeque::new();
    for (i, p) in positions.iter().enumerate() {
        if p.outcome() == Some(Outcome::Solved) {
            left[i] = Some(0);
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        let d = left[i].expect("queued with a distance");
        for &(from, c) in &into[i] {
            let slot = &mut left[from as usize];
            if slot.is_none_or(|old| d + c < old) {
                *slot = Some(d + c);
                if c == 0 {
                    queue.push_front(from as usize);
                } else {
                    queue.push_back(from as usize);
                }
            }
        }
    }
    left.into_iter()
        .zip(positions)
        .map(|(d, &p)| d.map_or(Score::DRAW, |d| puzzle_score(p, d)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::{Board, Square, Status};

    fn board(moves: &[usize]) -> Board {
        moves.iter().fold(Board::EMPTY, |b, &i| {
            b.play(Square::new(i).unwrap()).unwrap()
        })
    }

    #[test]
    fn verdicts_count_the_winners_moves() {
        assert_eq!(Verdict::of(Score::win_in(1)), Verdict::Win(1));
        assert_eq!(Verdict::of(Score::win_in(3)), Verdict::Win(2));
        assert_eq!(Verdict::of(Score::loss_in(2)), Verdict::Loss(1));
        assert_eq!(Verdict::of(Score::loss_in(4)), Verdict::Loss(2));
        assert_eq!(Verdict::of(Score::DRAW).to_string(), "draw");
        assert_eq!(Verdict::Win(2).to_string(), "win in 2");
    }

    #[test]
    fn the_empty_board_is_a_draw() {
        let s = Solver::new(StateGraph::<Board>::new());
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
        let s = Solver::new(StateGraph::<Board>::new());
        s.move_scores(*b)
            .into_iter()
            .max_by_key(|(_, v)| *v)
            .unwrap()
    }

    #[test]
    fn scores_agree_with_a_plain_negamax() {
        fn negamax(b: Board) -> i16 {
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
        let s = Solver::new(StateGraph::<Board>::new());
        for &b in s.graph().boards().iter().filter(|b| b.marks() >= 3) {
            assert_eq!(s.score(b).unwrap().0, negamax(b), "{b}");
        }
    }
}
