//! The solver: for a two-player game, negamax over the state graph, each
//! position scored once, children first, from the scores of the positions
//! after it (so each is looked up, never searched again); for a puzzle,
//! the fewest moves to its goal, by a breadth-first search back from it.
//! Both see whole moves only: how a move is tapped in is the screens'
//! part ([`crate::view`]).
//!
//! Invariant: every reachable position has exactly one [`Score`], computed
//! once, from the side to move's point of view; no IO, no randomness.

use std::cmp::Ordering;
use std::fmt;

use crate::game::{Game, Outcome, Side, Verdict};
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
    /// The verdict of a solver score of game `G`, from the side it
    /// scores: plies counted as the winner's moves (in a puzzle, every
    /// ply is the one player's move).
    pub fn of<G: Game>(score: Score) -> Verdict {
        let plies = score.plies();
        let (win, loss) = match G::PLAYERS {
            1 => (plies, plies),
            _ => (plies.div_ceil(2), plies / 2),
        };
        if score.is_win() {
            Verdict::Win(win)
        } else if score.is_loss() {
            Verdict::Loss(loss)
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
    /// many moves as its goal is away (a loss where it is lost, a draw
    /// where it cannot be reached otherwise);
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

    /// Every position reachable under `rules`, solved: [`Solver::new`]
    /// of [`StateGraph::with_rules`], how a game with a variant (the
    /// Towers of Hanoi's discs) is solved for a build.
    pub fn with_rules(rules: G::Rules) -> Solver<G> {
        Solver::new(StateGraph::with_rules(rules))
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
        board
            .moves()
            .filter_map(|m| board.play(m).ok().map(|next| (m, next)))
            .filter_map(|(s, next)| {
                let v = self.score(next)?;
                Some((
                    s,
                    match G::PLAYERS {
                        // One move more, the puzzle's one player's.
                        1 if v.is_win() => Score::win_in(v.plies() + 1),
                        1 if v.is_loss() => Score::loss_in(0),
                        1 => Score::DRAW,
                        _ => v.back_up(),
                    },
                ))
            })
            .collect()
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

/// A puzzle's scores: a breadth-first search from every solved position
/// along the moves backwards, so each position's score counts the fewest
/// moves to the goal, whatever cycles play has; where it cannot be
/// reached, a loss if the puzzle is lost there (an end won by the other
/// side, such as a chess challenge's "too slow"), else a draw.
fn distances<G: Game>(graph: &StateGraph<G>) -> Vec<Score> {
    let positions = graph.boards();
    let mut into: Vec<Vec<u32>> = vec![Vec::new(); positions.len()];
    for (i, &p) in positions.iter().enumerate() {
        for (_, next) in moves(p) {
            into[graph.position(next).expect("closed")].push(i as u32);
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
        for &from in &into[i] {
            let slot = &mut left[from as usize];
            if slot.is_none() {
                *slot = Some(d + 1);
                queue.push_back(from as usize);
            }
        }
    }
    left.into_iter()
        .zip(positions)
        .map(|(d, p)| match (d, p.outcome()) {
            (Some(d), _) => Score::win_in(d),
            (None, Some(Outcome::Won(Side::Second))) => Score::loss_in(0),
            (None, _) => Score::DRAW,
        })
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
        assert_eq!(Verdict::of::<Board>(Score::win_in(1)), Verdict::Win(1));
        assert_eq!(Verdict::of::<Board>(Score::win_in(3)), Verdict::Win(2));
        assert_eq!(Verdict::of::<Board>(Score::loss_in(2)), Verdict::Loss(1));
        assert_eq!(Verdict::of::<Board>(Score::loss_in(4)), Verdict::Loss(2));
        assert_eq!(Verdict::of::<Board>(Score::DRAW).to_string(), "draw");
        // In a puzzle every ply is a move of its one player.
        let hanoi = |s| Verdict::of::<crate::games::hanoi::Hanoi>(s);
        assert_eq!(hanoi(Score::win_in(3)), Verdict::Win(3));
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
