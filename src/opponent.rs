//! The computer opponent: ranks moves by the solver's score, then picks one
//! with the randomness quotient Q (after the Hive posts): starting at the
//! best, it skips to the next with probability 1/Q, so the N-th ranked move
//! is chosen with probability (Q-1)/Q^N and the last takes what is left.
//!
//! Invariant: every choice comes from the caller's seeded ChaCha generator
//! (portable, named), so a seed gives the same moves on every machine.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use crate::game::Game;
use crate::solver::{Score, Solver};

/// The generator every random choice is drawn from.
pub type Rng = ChaCha8Rng;

/// How well the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Q = 2: skips its best move half the time.
    Easy,
    /// Q = 4.
    Medium,
    /// Q = 8.
    Hard,
    /// Only optimal moves, ties broken at random.
    Perfect,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Perfect];

    /// The randomness quotient Q, or `None` for perfect play.
    pub fn quotient(self) -> Option<u32> {
        match self {
            Level::Easy => Some(2),
            Level::Medium => Some(4),
            Level::Hard => Some(8),
            Level::Perfect => None,
        }
    }

    /// The name used on the command line and the pages.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Perfect => "perfect",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("unknown level {s:?} (easy, medium, hard or perfect)"))
    }
}

/// A uniform index below `n`, without modulo bias.
pub fn below(rng: &mut Rng, n: usize) -> usize {
    assert!(n > 0 && n <= u32::MAX as usize);
    let n = n as u64;
    // Lemire's multiply-shift with rejection.
    loop {
        let m = u64::from(rng.next_u32()) * n;
        if (m as u32) as u64 >= (u32::MAX as u64 + 1) % n {
            return (m >> 32) as usize;
        }
    }
}

/// Which of `n` ranked moves to take under quotient `q`: skip the current
/// one with probability 1/q, stop at the last.
pub fn pick_rank(rng: &mut Rng, q: u32, n: usize) -> usize {
    let mut rank = 0;
    while rank + 1 < n && below(rng, q as usize) == 0 {
        rank += 1;
    }
    rank
}

/// The legal moves of `board`, best first. Equal scores come in a random
/// order, so that ties do not always favour the top-left square.
pub fn ranked_moves<G: Game>(solver: &Solver<G>, board: G, rng: &mut Rng) -> Vec<(G::Move, Score)> {
    let mut moves = solver.move_scores(board);
    // Fisher-Yates, then a stable sort by score keeps the shuffled tie order.
    for i in (1..moves.len()).rev() {
        moves.swap(i, below(rng, i + 1));
    }
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    moves
}

/// The computer's move on `board` at `level`, or `None` if the game is over.
pub fn choose<G: Game>(
    solver: &Solver<G>,
    board: G,
    level: Level,
    rng: &mut Rng,
) -> Option<G::Move> {
    let ranked = ranked_moves(solver, board, rng);
    let rank = match level.quotient() {
        Some(q) => pick_rank(rng, q, ranked.len()),
        // Shuffled ties put a random optimal move first.
        None => 0,
    };
    ranked.get(rank).map(|(s, _)| *s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::{Board, Square, Status};
    use crate::graph::StateGraph;
    use rand_core::SeedableRng;

    /// With a fixed seed, the frequency of each rank over many draws matches
    /// (Q-1)/Q^N, the last rank taking the rest, within 4 standard errors.
    #[test]
    fn rank_frequencies_follow_the_quotient() {
        let draws = 200_000;
        for q in [2u32, 4, 8] {
            let mut rng = Rng::seed_from_u64(7);
            let n = 5;
            let mut counts = vec![0usize; n];
            for _ in 0..draws {
                counts[pick_rank(&mut rng, q, n)] += 1;
            }
            let qf = f64::from(q);
            for (rank, &c) in counts.iter().enumerate() {
                let k = rank as i32 + 1;
                let p = if rank + 1 < n {
                    (qf - 1.0) / qf.powi(k)
                } else {
                    1.0 / qf.powi(k - 1)
                };
                let got = c as f64 / draws as f64;
                let se = (p * (1.0 - p) / draws as f64).sqrt();
                assert!(
                    (got - p).abs() <= 4.0 * se + 1e-9,
                    "Q={q} rank {k}: {got} vs {p}"
                );
            }
        }
    }

    #[test]
    fn below_is_uniform_enough_and_in_range() {
        let mut rng = Rng::seed_from_u64(1);
        let mut counts = [0usize; 9];
        for _ in 0..90_000 {
            counts[below(&mut rng, 9)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_400..10_600).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn the_best_ranked_move_takes_an_immediate_win() {
        let solver = Solver::new(StateGraph::<Board>::new());
        let mut rng = Rng::seed_from_u64(3);
        for &b in solver.graph().boards() {
            let wins: Vec<Square> = crate::graph::moves(b)
                .filter(|(_, n)| n.is_over() && !matches!(n.status(), Status::Draw))
                .map(|(s, _)| s)
                .collect();
            if wins.is_empty() {
                continue;
            }
            let best = ranked_moves(&solver, b, &mut rng)[0];
            assert!(wins.contains(&best.0), "{b}: best {best:?}");
            assert_eq!(best.1, Score::win_in(1));
        }
    }

    #[test]
    fn perfect_play_breaks_ties_at_random() {
        let solver = Solver::new(StateGraph::<Board>::new());
        let mut rng = Rng::seed_from_u64(5);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            seen.insert(choose(&solver, Board::EMPTY, Level::Perfect, &mut rng).unwrap());
        }
        // Every opening move draws, so all nine should turn up.
        assert_eq!(seen.len(), 9);
    }

    #[test]
    fn levels_parse_by_name() {
        assert_eq!("hard".parse::<Level>(), Ok(Level::Hard));
        assert!("expert".parse::<Level>().is_err());
    }
}
