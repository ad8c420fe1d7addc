//! Our own retrograde analysis: every legal position of an ending with
//! its distance to mate (DTM), worked back from the checkmates.
//!
//! DTM counts White's moves until mate, the mating move included, with
//! White mating as fast as it can and Black putting mate off as long as it
//! can: a checkmate (Black to move) is 0, a position White mates from in
//! one move is 1, and a position with Black to move has the DTM of its
//! longest-lasting reply. A position from which Black can force a draw
//! (take the queen or rook, or be stalemated) is a draw.
//!
//! The table is dense, one byte for every key below
//! [`LIVE_KEYS`](super::board::LIVE_KEYS) (the side to move and the three
//! squares). It is solved layer by layer: from the positions of DTM `d`
//! with Black to move, White's unmoves give the positions of DTM `d + 1`
//! with White to move (the first layer to reach a position is its fastest
//! mate), and from those Black's unmoves count down each predecessor's
//! moves left unsolved; the one whose last move is solved takes DTM
//! `d + 1` (its slowest). What no layer reaches is a draw.
//!
//! Invariant: `dtm` answers for exactly the legal positions; a position
//! with White to move has DTM one more than its best move's, a position
//! with Black to move the DTM of its worst reply for White, or a draw if
//! any reply draws (tested on every position).

use super::board::{Ending, KING, LIVE_KEYS, Position, raw};

/// A position's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dtm {
    /// White mates in this many of its moves, the mating move included;
    /// 0 is checkmate (Black to move and mated).
    Mate(u8),
    /// Black can hold the draw: it takes the white piece, or is stalemated.
    Draw,
}

/// A draw, or not yet reached by the analysis.
const DRAW: u8 = u8::MAX;
/// No legal position has this key.
const ILLEGAL: u8 = u8::MAX - 1;

/// The solved ending: every legal position's DTM.
pub struct Tablebase {
    ending: Ending,
    values: Vec<u8>,
}

/// A key's side to move and three squares.
fn split(key: usize) -> (bool, u8, u8, u8) {
    let sq = |shift: usize| (key >> shift & 63) as u8;
    (key >> 18 == 0, sq(12), sq(6), sq(0))
}

fn join(white_to_move: bool, wk: u8, piece: u8, bk: u8) -> usize {
    (usize::from(!white_to_move) << 18)
        | (usize::from(wk) << 12)
        | (usize::from(piece) << 6)
        | usize::from(bk)
}

/// Calls `f` with each square of `bits`.
fn each(mut bits: u64, mut f: impl FnMut(u8)) {
    while bits != 0 {
        f(bits.trailing_zeros() as u8);
        bits &= bits - 1;
    }
}

impl Tablebase {
    /// Solves `ending` by retrograde analysis (about 0.02 s of CPU).
    pub fn solve(ending: Ending) -> Tablebase {
        let total = LIVE_KEYS as usize;
        let black = total / 2;
        let mut values = vec![ILLEGAL; total];
        // Black's moves not yet solved, for a position with Black to move
        // that waits on them; 0 for every other.
        let mut unsolved = vec![0u8; black];
        // The positions with Black to move solved in the last layer.
        let mut layer = Vec::new();
        for (key, value) in values.iter_mut().enumerate() {
            let (white_to_move, wk, p, bk) = split(key);
            if !raw::is_legal(ending, wk, p, bk, white_to_move) {
                continue;
            }
            *value = DRAW;
            if white_to_move {
                continue;
            }
            let (quiet, takes) = raw::black_moves(ending, wk, p, bk);
            if takes {
                // Black takes the white piece: a draw, whatever else.
            } else if quiet != 0 {
                unsolved[key - black] = quiet.count_ones() as u8;
            } else if raw::black_in_check(ending, wk, p, bk) {
                *value = 0;
                layer.push(key);
            }
            // Else stalemate: a draw.
        }
        let mut white_layer = Vec::new();
        let mut depth = 0u8;
        while !layer.is_empty() {
            depth += 1;
            white_layer.clear();
            // White's unmoves into each position of the layer: the first
            // layer to reach a position with White to move is its fastest
            // mate.
            for &key in &layer {
                let (_, wk, p, bk) = split(key);
                let mut reach = |w: usize| {
                    if values[w] == DRAW {
                        values[w] = depth;
                        white_layer.push(w);
                    }
                };
                // The piece came along its lines from an empty square from
                // which it did not give check. Lines run both ways: the
                // piece on a square checks the black king exactly when a
                // piece of its kind on the black king's square would
                // attack that square, the white king the one blocker
                // either way (one look along the lines, not one a square).
                let kings = (1 << wk) | (1 << bk);
                let checking = ending.attacks(bk, 1 << wk);
                each(ending.attacks(p, kings) & !kings & !checking, |from| {
                    reach(join(true, wk, from, bk));
                });
                // The king came from a square next to it, empty and not
                // next to the black king, from which it shielded no check.
                // Off the piece's lines the king shields nothing: whether
                // the piece checks is then as without it.
                let lines = ending.attacks(p, 0);
                let checks = lines & (1 << bk) != 0;
                let from_squares =
                    KING[usize::from(wk)] & !KING[usize::from(bk)] & !(1 << p) & !(1 << bk);
                each(from_squares, |from| {
                    let check = if lines & (1 << from) == 0 {
                        checks
                    } else {
                        raw::black_in_check(ending, from, p, bk)
                    };
                    if !check {
                        reach(join(true, from, p, bk));
                    }
                });
            }
            layer.clear();
            // Black's unmoves out of each newly solved position: a
            // predecessor whose last unsolved move this was puts mate off
            // longest by it.
            for &key in &white_layer {
                let (_, wk, p, bk) = split(key);
                let from_squares =
                    KING[usize::from(bk)] & !KING[usize::from(wk)] & !(1 << p) & !(1 << wk);
                each(from_squares, |from| {
                    let b = join(false, wk, p, from);
                    let left = &mut unsolved[b - black];
                    if *left > 0 {
                        *left -= 1;
                        if *left == 0 {
                            values[b] = depth;
                            layer.push(b);
                        }
                    }
                });
            }
        }
        Tablebase { ending, values }
    }

    /// Its ending.
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// The DTM of `position`, or `None` if it is of the other ending. A
    /// dead draw (the white piece taken) is a draw.
    pub fn dtm(&self, position: Position) -> Option<Dtm> {
        if position.ending() != self.ending {
            return None;
        }
        let key = position.key();
        Some(match self.values.get(key as usize) {
            Some(&d) if d < ILLEGAL => Dtm::Mate(d),
            _ => Dtm::Draw,
        })
    }

    /// Every legal position that still has its white piece, with its DTM,
    /// in key order: White to move first.
    pub fn positions(&self) -> impl Iterator<Item = (Position, Dtm)> + '_ {
        self.values.iter().enumerate().filter_map(|(key, &d)| {
            let dtm = match d {
                ILLEGAL => return None,
                DRAW => Dtm::Draw,
                d => Dtm::Mate(d),
            };
            Position::from_key(self.ending, key as u32).map(|p| (p, dtm))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::board::{Color, Square, Status};

    fn sq(name: &str) -> Square {
        Square::from_name(name).unwrap()
    }

    /// Checks every position's DTM against its moves' by the definition,
    /// one move deep.
    fn check_consistent(tb: &Tablebase) {
        for (pos, dtm) in tb.positions() {
            let children: Vec<Dtm> = pos
                .legal_moves()
                .into_iter()
                .map(|m| tb.dtm(pos.play(m).unwrap()).unwrap())
                .collect();
            let expected = match (pos.turn(), pos.status()) {
                (Color::Black, Status::Checkmate) => Dtm::Mate(0),
                (Color::Black, Status::Stalemate) => Dtm::Draw,
                (Color::Black, _) => *children.iter().max().unwrap(),
                (Color::White, _) => match children.iter().min().unwrap() {
                    Dtm::Mate(d) => Dtm::Mate(d + 1),
                    Dtm::Draw => Dtm::Draw,
                },
            };
            assert_eq!(dtm, expected, "{pos:?}");
        }
    }

    #[test]
    fn every_dtm_follows_from_its_moves_kqk() {
        check_consistent(&Tablebase::solve(Ending::Kqk));
    }

    #[test]
    fn every_dtm_follows_from_its_moves_krk() {
        check_consistent(&Tablebase::solve(Ending::Krk));
    }

    #[test]
    fn the_default_starts() {
        let white = |e, w, p, b| Position::new(e, sq(w), sq(p), sq(b), Color::White).unwrap();
        let kqk = Tablebase::solve(Ending::Kqk);
        let krk = Tablebase::solve(Ending::Krk);
        assert_eq!(
            kqk.dtm(white(Ending::Kqk, "e1", "d1", "e8")),
            Some(Dtm::Mate(8))
        );
        assert_eq!(
            krk.dtm(white(Ending::Krk, "e1", "a1", "e8")),
            Some(Dtm::Mate(12))
        );
        assert_eq!(
            kqk.dtm(white(Ending::Kqk, "a1", "b2", "f5")),
            Some(Dtm::Mate(10))
        );
        assert_eq!(kqk.dtm(white(Ending::Krk, "e1", "a1", "e8")), None);
    }
}
