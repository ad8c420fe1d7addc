//! bit-tac-toe's whole game state in 32 bits, in that engine's own layout,
//! with its "grave markers": one bit for each line that holds both marks,
//! so a cat's game shows before the board is full.
//!
//! Layout (bit 0 lowest):
//! - bits 0-17: two bits a square, `11` X, `10` O, `00` empty, square 0 in
//!   the lowest bits. Squares are numbered from the bottom left: the top
//!   row is 6 7 8, the middle 3 4 5, the bottom 0 1 2.
//! - bits 18-21: the move count.
//! - bit 22: the player's choice, 1 for X and 0 for O, as in the seed. Our
//!   boards have no player, so [`BitState::from_board`] sets it to 1 (the
//!   reader plays X's side first); [`BitState::with_choice`] changes it.
//! - bit 23: the turn, 1 when X is to move (the seed's bit table; its
//!   prose's all-zero start would have O move first).
//! - bits 24-31: grave markers, bit 24 + j for line j of [`LINES`].
//!
//! Invariant: [`BitState::step`] refuses an invalid token by returning the
//! state exactly as it was.

use super::{Board, Cell, Player, Square};

/// The winning lines in the seed's numbering and order.
pub const LINES: [[u8; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [6, 4, 2],
];

const COUNT_SHIFT: u32 = 18;
const CHOICE_BIT: u32 = 1 << 22;
const TURN_BIT: u32 = 1 << 23;
const GRAVE_SHIFT: u32 = 24;

/// The seed's number of one of our squares: rows counted from the bottom.
pub fn seed_square(square: Square) -> u8 {
    let (row, col) = (square.index() / 3, square.index() % 3);
    ((2 - row) * 3 + col) as u8
}

/// Our square for one of the seed's numbers, if it is below 9.
pub fn our_square(seed: u8) -> Option<Square> {
    (seed < 9).then(|| {
        let (row, col) = (2 - usize::from(seed) / 3, usize::from(seed) % 3);
        Square::new(row * 3 + col).expect("below 9")
    })
}

/// A game state in 32 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitState(pub u32);

impl BitState {
    /// The empty board, X to move, the player on X's side.
    pub const START: BitState = BitState(TURN_BIT | CHOICE_BIT);

    /// The state of a board: the turn follows from the move count.
    pub fn from_board(board: Board) -> BitState {
        let mut bits = CHOICE_BIT;
        for square in Square::ALL {
            let pair = match board.cell(square) {
                Cell::Empty => 0,
                Cell::Taken(Player::X) => 0b11,
                Cell::Taken(Player::O) => 0b10,
            };
            bits |= pair << (2 * u32::from(seed_square(square)));
        }
        let count = board.marks() as u32;
        bits |= count << COUNT_SHIFT;
        if count.is_multiple_of(2) {
            bits |= TURN_BIT;
        }
        BitState(bits).with_graves()
    }

    /// The same state with the player's choice set to `player`.
    pub fn with_choice(self, player: Player) -> BitState {
        match player {
            Player::X => BitState(self.0 | CHOICE_BIT),
            Player::O => BitState(self.0 & !CHOICE_BIT),
        }
    }

    /// What seed square `seed` (0-8) holds.
    fn pair(self, seed: u8) -> u32 {
        (self.0 >> (2 * u32::from(seed))) & 0b11
    }

    /// The board these bits show.
    pub fn to_board(self) -> Board {
        let mut id = 0;
        for square in Square::ALL {
            id = id * 3
                + match self.pair(seed_square(square)) {
                    0b11 => 1,
                    0b10 => 2,
                    _ => 0,
                };
        }
        Board::from_id(id).expect("nine trits are below 3^9")
    }

    /// The move count.
    pub fn count(self) -> u32 {
        (self.0 >> COUNT_SHIFT) & 0xf
    }

    /// Whose turn it is.
    pub fn turn(self) -> Player {
        if self.0 & TURN_BIT != 0 {
            Player::X
        } else {
            Player::O
        }
    }

    /// The grave markers: bit j set when line j holds both marks.
    pub fn graves(self) -> u8 {
        (self.0 >> GRAVE_SHIFT) as u8
    }

    /// Whether every line is dead: nobody can make three in a row.
    pub fn all_graves(self) -> bool {
        self.graves() == 0xff
    }

    fn with_graves(self) -> BitState {
        let mut graves = 0u32;
        for (j, line) in LINES.iter().enumerate() {
            let marks: Vec<u32> = line.iter().map(|&s| self.pair(s)).collect();
            if marks.contains(&0b11) && marks.contains(&0b10) {
                graves |= 1 << j;
            }
        }
        BitState((self.0 & 0x00ff_ffff) | (graves << GRAVE_SHIFT))
    }

    /// Whether a line is full of one mark.
    fn has_line(self) -> bool {
        LINES.iter().any(|line| {
            let p = self.pair(line[0]);
            p & 0b10 != 0 && line.iter().all(|&s| self.pair(s) == p)
        })
    }

    /// Whether the game is over: three in a row, a cat's game (every grave
    /// marker set), or nine moves.
    pub fn is_over(self) -> bool {
        self.has_line() || self.all_graves() || self.count() >= 9
    }

    /// Applies a 5-bit token: bit 4 the side moving (1 for X), bits 0-3 the
    /// seed's square. An invalid token (the wrong side, a square above 8,
    /// an occupied square, a finished game) leaves the state unchanged.
    pub fn step(self, token: u8) -> BitState {
        let side_is_x = token & 0x10 != 0;
        let seed = token & 0x0f;
        let valid = token < 0x20
            && side_is_x == (self.turn() == Player::X)
            && seed < 9
            && self.pair(seed) & 0b10 == 0
            && !self.is_over();
        if !valid {
            return self;
        }
        let pair = if side_is_x { 0b11 } else { 0b10 };
        let mut bits = self.0 | (pair << (2 * u32::from(seed)));
        bits = (bits & !(0xf << COUNT_SHIFT)) | ((self.count() + 1) << COUNT_SHIFT);
        bits ^= TURN_BIT;
        BitState(bits).with_graves()
    }

    /// The token that plays `square` for the side to move.
    pub fn token(self, square: Square) -> u8 {
        let side = if self.turn() == Player::X { 0x10 } else { 0 };
        side | seed_square(square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{StateGraph, moves};

    #[test]
    fn every_board_round_trips_and_its_graves_are_right() {
        let g = StateGraph::<Board>::new();
        let mut all_graves_in_play = 0;
        for &b in g.boards() {
            let s = BitState::from_board(b);
            assert_eq!(s.to_board(), b);
            assert_eq!(s.count() as usize, b.marks());
            assert_eq!(s.turn(), b.to_move());
            for (j, line) in LINES.iter().enumerate() {
                let cells: Vec<Cell> = line
                    .iter()
                    .map(|&q| b.cell(our_square(q).unwrap()))
                    .collect();
                let both = cells.contains(&Cell::Taken(Player::X))
                    && cells.contains(&Cell::Taken(Player::O));
                assert_eq!(s.graves() & (1 << j) != 0, both, "{b} line {j}");
            }
            assert_eq!(s.is_over(), b.is_over() || s.all_graves(), "{b}");
            if !b.is_over() && s.all_graves() {
                all_graves_in_play += 1;
                assert_eq!(b.marks(), 8);
            }
            // Stepping agrees with playing, until the graves end the game.
            for (square, next) in moves(b).filter(|_| !s.all_graves()) {
                assert_eq!(
                    s.step(s.token(square)),
                    BitState::from_board(next),
                    "{b} + {}",
                    square.name()
                );
            }
        }
        assert_eq!(all_graves_in_play, 40);
    }

    #[test]
    fn the_known_full_board() {
        // X O X / O O X / X O X, nine moves: 0xcf27bebb apart from bit 22.
        // O has the middle column after eight moves, so our rules never
        // reach it by play: the board is built from its id.
        let full = Board::from_id(
            [1u32, 2, 1, 2, 2, 1, 1, 2, 1]
                .iter()
                .fold(0, |acc, t| acc * 3 + t),
        )
        .unwrap();
        assert_eq!(full.to_string(), "XOX/OOX/XOX");
        let s = BitState::from_board(full);
        assert_eq!(s.0 & !CHOICE_BIT, 0xcf27_bebb);
        assert_eq!(s.to_board(), full);
    }

    #[test]
    fn invalid_tokens_change_nothing() {
        let g = StateGraph::<Board>::new();
        for &b in g.boards().iter().step_by(7) {
            let s = BitState::from_board(b).with_choice(Player::O);
            for token in 0u8..=255 {
                let side_ok = (token & 0x10 != 0) == (s.turn() == Player::X);
                let seed = token & 0x0f;
                let free = seed < 9 && s.pair(seed) == 0;
                if token >= 0x20 || !side_ok || !free || s.is_over() {
                    assert_eq!(s.step(token), s, "{b}: token {token:#x}");
                } else {
                    assert_ne!(s.step(token), s);
                    assert_eq!(s.step(token).0 & CHOICE_BIT, 0, "the choice is kept");
                }
            }
        }
    }
}
