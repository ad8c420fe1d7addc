//! 23-bit game records, after minimal-tictactoe: a whole move sequence as
//! one number, short enough to share.
//!
//! A record is a leading 1 bit, then one field per move: the move's index
//! among the squares still empty (in reading order), in 4, 3, 3, 3, 3, 2,
//! 2, 1 and 1 bits, first move first (most significant). The leading bit
//! keeps games of different lengths apart, so every sequence of one to
//! nine different squares has its own code, below 2^23.
//!
//! Invariant: `decode(encode(s)) == s` for every such sequence; a code is
//! refused unless its length is a game's and every field names a square
//! that is still empty. The squares need not make a legal game: a record
//! may go on after three in a row, and [`ended_at`] says where.

use std::fmt;

use super::{Board, Square};

/// Bits of each move's field.
pub const WIDTHS: [u32; 9] = [4, 3, 3, 3, 3, 2, 2, 1, 1];

/// Every code is below this: 2^23.
pub const LIMIT: u32 = 1 << 23;

/// Why squares or a code are not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// No squares.
    Empty,
    /// More than nine squares.
    TooLong(usize),
    /// A square twice.
    Repeat(Square),
    /// 0, 1, or 2^23 and above.
    OutOfRange(u64),
    /// A bit length that no game has.
    Length(u32),
    /// Move `n` (from 1) names empty square `index` of only `left`.
    PastTheEnd {
        /// The move, from 1.
        n: usize,
        /// The field's value.
        index: u32,
        /// How many squares were empty.
        left: usize,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Empty => f.write_str("a record needs at least one square"),
            RecordError::TooLong(n) => write!(f, "{n} squares: a game has at most nine"),
            RecordError::Repeat(s) => write!(f, "square {} is played twice", s.index() + 1),
            RecordError::OutOfRange(c) => {
                write!(f, "{c} is no record: codes run from 16 to {}", LIMIT - 1)
            }
            RecordError::Length(bits) => {
                write!(f, "no record is {bits} bits long (after the leading 1)")
            }
            RecordError::PastTheEnd { n, index, left } => write!(
                f,
                "move {n} names empty square {} of only {left}",
                index + 1
            ),
        }
    }
}

impl std::error::Error for RecordError {}

/// The empty squares, in reading order, once `played` are taken.
fn empty_after(played: &[Square]) -> Vec<Square> {
    Square::ALL
        .into_iter()
        .filter(|s| !played.contains(s))
        .collect()
}

/// The code of a sequence of one to nine different squares.
pub fn encode(squares: &[Square]) -> Result<u32, RecordError> {
    if squares.is_empty() {
        return Err(RecordError::Empty);
    }
    if squares.len() > 9 {
        return Err(RecordError::TooLong(squares.len()));
    }
    let mut code = 1u32;
    for (n, &s) in squares.iter().enumerate() {
        let empty = empty_after(&squares[..n]);
        let index = empty
            .iter()
            .position(|&e| e == s)
            .ok_or(RecordError::Repeat(s))?;
        code = (code << WIDTHS[n]) | index as u32;
    }
    Ok(code)
}

/// The squares of a code, in play order.
pub fn decode(code: u64) -> Result<Vec<Square>, RecordError> {
    if !(2..u64::from(LIMIT)).contains(&code) {
        return Err(RecordError::OutOfRange(code));
    }
    let bits = 63 - code.leading_zeros();
    let mut total = 0;
    let moves = WIDTHS
        .iter()
        .position(|w| {
            total += w;
            total == bits
        })
        .map(|i| i + 1)
        .ok_or(RecordError::Length(bits))?;
    let mut squares = Vec::with_capacity(moves);
    let mut shift = bits;
    for (n, &w) in WIDTHS[..moves].iter().enumerate() {
        shift -= w;
        let index = ((code >> shift) & ((1 << w) - 1)) as u32;
        let empty = empty_after(&squares);
        let s = *empty.get(index as usize).ok_or(RecordError::PastTheEnd {
            n: n + 1,
            index,
            left: empty.len(),
        })?;
        squares.push(s);
    }
    Ok(squares)
}

/// Plays `squares` from the empty board as far as the rules allow: the
/// board reached, and the move (from 1) on which the game ended, if it
/// ended before the record did.
pub fn ended_at(squares: &[Square]) -> (Board, Option<usize>) {
    let mut board = Board::EMPTY;
    for (n, &s) in squares.iter().enumerate() {
        match board.play(s) {
            Ok(next) => board = next,
            Err(_) => return (board, Some(n)),
        }
    }
    (board, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::moves;

    fn squares(one_based: &[usize]) -> Vec<Square> {
        one_based
            .iter()
            .map(|&i| Square::new(i - 1).unwrap())
            .collect()
    }

    #[test]
    fn the_seeds_example() {
        let game = squares(&[1, 5, 7, 4, 3, 8, 6, 2, 9]);
        let code = encode(&game).unwrap();
        assert_eq!(code, 4_310_116);
        assert_eq!(format!("{code:b}"), "10000011100010001100100");
        assert_eq!(decode(u64::from(code)).unwrap(), game);
        // O completes the middle column on move 8; the ninth is not played.
        let (board, ended) = ended_at(&game);
        assert_eq!(ended, Some(8));
        assert_eq!(board.marks(), 8);
    }

    /// Every game and every prefix of one: distinct codes that decode back.
    #[test]
    fn every_game_and_prefix_round_trips_with_its_own_code() {
        let mut seen = vec![false; LIMIT as usize];
        let (mut prefixes, mut games) = (0, 0);
        let mut stack = vec![(Board::EMPTY, Vec::new())];
        while let Some((board, path)) = stack.pop() {
            if !path.is_empty() {
                let code = encode(&path).unwrap();
                assert!(code < LIMIT);
                assert!(!seen[code as usize], "{code} twice");
                seen[code as usize] = true;
                assert_eq!(decode(u64::from(code)).unwrap(), path);
                prefixes += 1;
            }
            if board.is_over() {
                games += 1;
            }
            for (s, next) in moves(board) {
                let mut p = path.clone();
                p.push(s);
                stack.push((next, p));
            }
        }
        assert_eq!(games, 255_168);
        assert_eq!(prefixes, 549_945);
    }

    #[test]
    fn bad_squares_and_codes_are_refused() {
        assert_eq!(encode(&[]), Err(RecordError::Empty));
        let s = squares(&[1, 2, 1]);
        assert_eq!(
            encode(&s),
            Err(RecordError::Repeat(Square::new(0).unwrap()))
        );
        let ten: Vec<Square> = squares(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 1]);
        assert_eq!(encode(&ten), Err(RecordError::TooLong(10)));
        for code in [0, 1, u64::from(LIMIT), u64::MAX] {
            assert_eq!(decode(code), Err(RecordError::OutOfRange(code)));
        }
        // 3 bits after the leading 1: no game is that long.
        assert_eq!(decode(0b1000), Err(RecordError::Length(3)));
        // A first field of 9 or more: only nine squares.
        assert!(matches!(
            decode(0b1_1001),
            Err(RecordError::PastTheEnd {
                n: 1,
                index: 9,
                left: 9
            })
        ));
        assert_eq!(decode(0b1_1000).unwrap(), squares(&[9]));
    }
}
