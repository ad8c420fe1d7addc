//! FEN for the two endings: [`Position::from_fen`] reads a start position
//! (a KQK or KRK position, legal, White to move), [`Position::fen`] writes
//! any position.
//!
//! Invariant: any input, however hostile, gives a position or a
//! [`FenError`] whose message is one line naming what is wrong and never
//! echoes more than one character of the input; `from_fen(p.fen()) == p`
//! for every legal position with White to move.

use std::fmt;

use super::board::{Color, Ending, Illegal, Position, Square};

/// Why a FEN is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but spaces.
    Empty,
    /// The board does not have 8 ranks.
    Ranks(usize),
    /// A rank (1 to 8) does not hold 8 squares.
    RankLength(u8),
    /// A character that is neither a piece nor a count of empty squares
    /// (1 to 8).
    Character(char),
    /// The pieces are not a white king and queen or rook against a lone
    /// black king.
    Material,
    /// The board has no side to move after it.
    NoSide,
    /// The side to move is not `w` or `b`.
    Side,
    /// Black to move, where a start position needs White.
    BlackToMove,
    /// Castling rights other than `-`: these endings have no castling.
    Castling,
    /// An en passant square other than `-`: these endings have no pawns.
    EnPassant,
    /// The halfmove clock is not a number from 0 to 4,294,967,295.
    HalfmoveClock,
    /// The move number is not a number from 1 to 4,294,967,295.
    MoveNumber,
    /// More than six fields.
    Fields,
    /// Not a legal position.
    Illegal(Illegal),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("the FEN is empty"),
            FenError::Ranks(1) => f.write_str("the FEN's board has 1 rank, not 8"),
            FenError::Ranks(n) => write!(f, "the FEN's board has {n} ranks, not 8"),
            FenError::RankLength(r) => write!(f, "rank {r} of the FEN does not hold 8 squares"),
            // `{:?}` escapes a control character, so the line stays one.
            FenError::Character(c) => write!(
                f,
                "{c:?} in the FEN's board is not a piece (KQRBNP, kqrbnp) or a count of empty squares (1 to 8)"
            ),
            FenError::Material => f.write_str(
                "the FEN is not KQK or KRK: White needs a king and one queen or rook, Black a lone king",
            ),
            FenError::NoSide => {
                f.write_str("the FEN gives no side to move after its board (w for White)")
            }
            FenError::Side => f.write_str("the FEN's side to move is not w or b"),
            FenError::BlackToMove => f.write_str("the FEN has Black to move: the start needs White to move"),
            FenError::Castling => f.write_str("the FEN gives castling rights: these endings have no castling"),
            FenError::EnPassant => f.write_str("the FEN gives an en passant square: these endings have no pawns"),
            FenError::HalfmoveClock => f.write_str("the FEN's halfmove clock is not a number from 0 to 4294967295"),
            FenError::MoveNumber => f.write_str("the FEN's move number is not a number from 1 to 4294967295"),
            FenError::Fields => f.write_str("the FEN has more than 6 fields"),
            FenError::Illegal(why) => write!(f, "the FEN is not a legal position: {why}"),
        }
    }
}

impl std::error::Error for FenError {}

/// The pieces a board field holds, each on its square.
#[derive(Default)]
struct Placement {
    white_king: Vec<Square>,
    black_king: Vec<Square>,
    queens: Vec<Square>,
    rooks: Vec<Square>,
    others: bool,
}

fn read_board(board: &str) -> Result<Placement, FenError> {
    let ranks = board.split('/').count();
    if ranks != 8 {
        return Err(FenError::Ranks(ranks));
    }
    let mut placement = Placement::default();
    for (i, rank_text) in board.split('/').enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(empty) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += empty as u8;
                if file > 8 {
                    return Err(FenError::RankLength(rank + 1));
                }
                continue;
            }
            let list = match c {
                'K' => &mut placement.white_king,
                'k' => &mut placement.black_king,
                'Q' => &mut placement.queens,
                'R' => &mut placement.rooks,
                'q' | 'r' | 'B' | 'b' | 'N' | 'n' | 'P' | 'p' => {
                    placement.others = true;
                    file += 1;
                    if file > 8 {
                        return Err(FenError::RankLength(rank + 1));
                    }
                    continue;
                }
                c => return Err(FenError::Character(c)),
            };
            let Some(square) = Square::at(file, rank) else {
                return Err(FenError::RankLength(rank + 1));
            };
            list.push(square);
            file += 1;
        }
        if file != 8 {
            return Err(FenError::RankLength(rank + 1));
        }
    }
    Ok(placement)
}

impl Position {
    /// The start position a FEN names: a KQK or KRK position, legal, with
    /// White to move. Castling and en passant must be `-`; the halfmove
    /// clock and move number, if given, must be numbers and are ignored
    /// (these endings keep no count of moves).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let placement = read_board(board)?;
        let turn = match fields.next() {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(_) => return Err(FenError::Side),
            None => return Err(FenError::NoSide),
        };
        if fields.next().is_some_and(|c| c != "-") {
            return Err(FenError::Castling);
        }
        if fields.next().is_some_and(|e| e != "-") {
            return Err(FenError::EnPassant);
        }
        if fields.next().is_some_and(|h| h.parse::<u32>().is_err()) {
            return Err(FenError::HalfmoveClock);
        }
        if fields
            .next()
            .is_some_and(|n| !n.parse::<u32>().is_ok_and(|n| n > 0))
        {
            return Err(FenError::MoveNumber);
        }
        if fields.next().is_some() {
            return Err(FenError::Fields);
        }
        let (ending, piece) = match (&placement.queens[..], &placement.rooks[..]) {
            (&[q], &[]) => (Ending::Kqk, q),
            (&[], &[r]) => (Ending::Krk, r),
            _ => return Err(FenError::Material),
        };
        let (&[wk], &[bk], false) = (
            &placement.white_king[..],
            &placement.black_king[..],
            placement.others,
        ) else {
            return Err(FenError::Material);
        };
        if turn == Color::Black {
            return Err(FenError::BlackToMove);
        }
        Position::new(ending, wk, piece, bk, turn).map_err(FenError::Illegal)
    }

    /// The position as a FEN: `4k3/8/8/8/8/8/8/3QK3 w - - 0 1`.
    pub fn fen(self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let square = Square::at(file, rank);
                let piece = if square == Some(self.white_king()) {
                    Some('K')
                } else if square == Some(self.black_king()) {
                    Some('k')
                } else if square.is_some() && square == self.piece() {
                    Some(self.ending().piece_letter())
                } else {
                    None
                };
                match piece {
                    Some(c) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(match self.turn() {
            Color::White => " w - - 0 1",
            Color::Black => " b - - 0 1",
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_starts_read_back() {
        let kqk = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert_eq!(kqk.ending(), Ending::Kqk);
        assert_eq!(kqk.white_king().to_string(), "e1");
        assert_eq!(kqk.piece().unwrap().to_string(), "d1");
        assert_eq!(kqk.black_king().to_string(), "e8");
        assert_eq!(kqk.fen(), "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let krk = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w").unwrap();
        assert_eq!(
            (krk.ending(), krk.piece().unwrap().to_string()),
            (Ending::Krk, "a1".into())
        );
        // Extra spaces, and counters, are taken.
        assert_eq!(
            Position::from_fen("  4k3/8/8/8/8/8/8/R3K3   w  -  -  12 40 "),
            Ok(krk)
        );
    }

    #[test]
    fn every_start_reads_back_from_its_fen() {
        for ending in Ending::ALL {
            for key in 0..(super::super::board::LIVE_KEYS / 2) {
                if let Some(p) = Position::from_key(ending, key) {
                    assert_eq!(Position::from_fen(&p.fen()), Ok(p));
                }
            }
        }
    }

    #[test]
    fn hostile_input_is_one_line_naming_the_fault() {
        let cases: &[(&str, FenError)] = &[
            ("", FenError::Empty),
            ("   \t\n ", FenError::Empty),
            ("4k3/8/8/8/8/8/8/3QK3/8 w", FenError::Ranks(9)),
            ("4k3/8/8/8/8/8/3QK3 w", FenError::Ranks(7)),
            ("8 w", FenError::Ranks(1)),
            (&"/".repeat(100_000), FenError::Ranks(100_001)),
            ("4k3/8/8/8/8/8/8/3QK3", FenError::NoSide),
            ("4k3/8/8/8/8/8/8/3QK3 x", FenError::Side),
            ("4k3/8/8/8/8/8/8/3QK3 W", FenError::Side),
            ("4k3/8/8/8/8/8/8/3QK3 b", FenError::BlackToMove),
            ("4k3/8/8/8/8/8/8/3QK3 w KQ - 0 1", FenError::Castling),
            ("4k3/8/8/8/8/8/8/3QK3 w - e3 0 1", FenError::EnPassant),
            (
                "4k3/8/8/8/8/8/8/3QK3 w - - 99999999999999999999 1",
                FenError::HalfmoveClock,
            ),
            ("4k3/8/8/8/8/8/8/3QK3 w - - -1 1", FenError::HalfmoveClock),
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 0", FenError::MoveNumber),
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1e9", FenError::MoveNumber),
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 x", FenError::Fields),
            ("4k3/8/8/8/8/8/8/3QK4 w", FenError::RankLength(1)),
            ("4k3/8/8/8/8/8/8/3QK2 w", FenError::RankLength(1)),
            (
                "4k3/99999999999999999999/8/8/8/8/8/3QK3 w",
                FenError::Character('9'),
            ),
            ("4k3/88/8/8/8/8/8/3QK3 w", FenError::RankLength(7)),
            ("4k3/8/8/8/8/8/8/3QK30 w", FenError::Character('0')),
            ("4k3/8/8/8/8/8/8/3QKX2 w", FenError::Character('X')),
            (
                "4k3/8/8/8/8/8/8/3QK\u{202e}2 w",
                FenError::Character('\u{202e}'),
            ),
            // A line break splits fields, like a space.
            ("4k3/8/8/8/8/8/8/3QK\n2 w", FenError::RankLength(1)),
            ("4k3/8/8/8/8/8/8/3QK\u{7}2 w", FenError::Character('\u{7}')),
            ("4k3/8/8/8/8/8/8/3QK\r2 w", FenError::RankLength(1)),
            ("4k3/8/8/8/8/8/8/3QK３ w", FenError::Character('３')),
            ("4k3/8/8/8/8/8/8/4K3 w", FenError::Material),
            ("4k3/8/8/8/8/8/8/2RQK3 w", FenError::Material),
            ("4k3/8/8/8/8/8/8/2QQK3 w", FenError::Material),
            ("4k3/8/8/8/8/8/8/3qK3 w", FenError::Material),
            ("4k3/8/8/8/8/8/P7/3QK3 w", FenError::Material),
            ("4kk2/8/8/8/8/8/8/3QK3 w", FenError::Material),
            ("8/8/8/8/8/8/8/3QK3 w", FenError::Material),
            ("4k3/8/8/8/8/8/8/3QKK2 w", FenError::Material),
            (
                "3Qk3/8/8/8/8/8/8/4K3 w",
                FenError::Illegal(Illegal::BlackInCheck),
            ),
            (
                "8/8/8/8/8/8/4k3/3QK3 w",
                FenError::Illegal(Illegal::KingsTouch),
            ),
        ];
        for (fen, expected) in cases {
            let got = Position::from_fen(fen);
            assert_eq!(got.as_ref(), Err(expected), "{fen:?}");
            let line = expected.to_string();
            assert!(
                !line.is_empty() && !line.chars().any(char::is_control),
                "{line:?}"
            );
        }
        assert_eq!(
            FenError::Ranks(1).to_string(),
            "the FEN's board has 1 rank, not 8"
        );
    }
}
