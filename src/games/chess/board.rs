//! The rules of the two endings: a compact `Copy` position of a white
//! king, one white queen or rook and a lone black king, its legal moves,
//! check, checkmate and stalemate, after shakmaty's style (bitboards of
//! the 64 squares, a1 = 0, b1 = 1, ..., h8 = 63).
//!
//! Invariant: no IO, never panics. A [`Position`] is always legal: its
//! pieces stand on distinct squares, the kings do not touch, and the side
//! not to move is not in check ([`Position::new`] refuses anything else,
//! and [`Position::play`] refuses a move that is not legal, leaving the
//! position as it was). Once the black king has taken the white piece the
//! position is a dead draw, king against king, with no moves.

use std::fmt;

/// A square of the board, 0..64: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ...,
/// h8 = 63, so its file is the low three bits and its rank the high three.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square numbered `index`, if it is below 64.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if both are
    /// below 8.
    pub const fn at(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The square a name such as `e1` names: a file `a` to `h`, then a
    /// rank `1` to `8`.
    pub fn from_name(name: &str) -> Option<Square> {
        match name.as_bytes() {
            &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Square::at(f - b'a', r - b'1'),
            _ => None,
        }
    }

    /// Its number, 0..64.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its file, 0 (a) to 7 (h).
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Its rank, 0 (rank 1) to 7 (rank 8).
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square under symmetry `t` of the board's eight (0..8): bit 2
    /// reflects it in the a1-h8 diagonal first, then bit 0 reverses the
    /// files and bit 1 the ranks. 0 leaves it where it is.
    pub const fn transformed(self, t: u8) -> Square {
        let (mut file, mut rank) = (self.file(), self.rank());
        if t & 4 != 0 {
            (file, rank) = (rank, file);
        }
        if t & 1 != 0 {
            file = 7 - file;
        }
        if t & 2 != 0 {
            rank = 7 - rank;
        }
        Square(rank * 8 + file)
    }

    const fn bit(self) -> u64 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    /// Its name, `e1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A side: White has the king and the queen or rook, Black the lone king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// The side with the queen or rook: the side that mates.
    White,
    /// The lone king.
    Black,
}

impl Color {
    /// The other side.
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// Which ending: which piece White has beside its king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ending {
    /// King and queen against king.
    Kqk,
    /// King and rook against king.
    Krk,
}

impl Ending {
    /// Both endings.
    pub const ALL: [Ending; 2] = [Ending::Kqk, Ending::Krk];

    /// Its short name, as chess players write it: `KQK`.
    pub const fn name(self) -> &'static str {
        match self {
            Ending::Kqk => "KQK",
            Ending::Krk => "KRK",
        }
    }

    /// The white piece beside the king, in words: `queen`.
    pub const fn piece_name(self) -> &'static str {
        match self {
            Ending::Kqk => "queen",
            Ending::Krk => "rook",
        }
    }

    /// The white piece's letter in a FEN or a move: `Q`.
    pub const fn piece_letter(self) -> char {
        match self {
            Ending::Kqk => 'Q',
            Ending::Krk => 'R',
        }
    }

    /// The squares the white piece on `from` attacks when `occupied`
    /// holds the other pieces: every square along its lines up to and
    /// including the first occupied one.
    pub(crate) fn attacks(self, from: u8, occupied: u64) -> u64 {
        let lines = match self {
            Ending::Kqk => &QUEEN_LINES[..],
            Ending::Krk => &ROOK_LINES[..],
        };
        lines
            .iter()
            .fold(0, |all, &d| all | slide(d, from, occupied))
    }
}

/// The eight directions as (file step, rank step): the four of the rook,
/// then the four diagonals; the first two of each four run towards higher
/// square numbers.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];
const ROOK_LINES: [usize; 4] = [0, 1, 2, 3];
const QUEEN_LINES: [usize; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// Every square from a square along one direction to the board's edge.
static RAYS: [[u64; 64]; 8] = rays();

const fn rays() -> [[u64; 64]; 8] {
    let mut rays = [[0; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                rays[d][sq] |= 1 << (r * 8 + f);
                f += df;
                r += dr;
            }
            sq += 1;
        }
        d += 1;
    }
    rays
}

/// The squares a king on each square attacks.
pub(crate) static KING: [u64; 64] = king_attacks();

const fn king_attacks() -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (f, r) = (
                (sq % 8) as i8 + DIRECTIONS[d].0,
                (sq / 8) as i8 + DIRECTIONS[d].1,
            );
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq] |= 1 << (r * 8 + f);
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// The squares along direction `d` from `from`, up to and including the
/// first occupied one.
fn slide(d: usize, from: u8, occupied: u64) -> u64 {
    let ray = RAYS[d][usize::from(from)];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    // Directions 0, 1, 4 and 5 run towards higher numbers: the nearest
    // blocker is the lowest bit; the others, the highest.
    let first = if matches!(d, 0 | 1 | 4 | 5) {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    };
    ray & !RAYS[d][first as usize]
}

/// The raw rules on square numbers, which [`Position`] and the retrograde
/// analysis share.
pub(crate) mod raw {
    use super::{Ending, KING};

    /// Whether the black king on `bk` is in check from the white piece on
    /// `piece` (the white king on `wk` may stand in its way).
    pub(crate) fn black_in_check(ending: Ending, wk: u8, piece: u8, bk: u8) -> bool {
        ending.attacks(piece, 1 << wk) & (1 << bk) != 0
    }

    /// Whether three squares make a legal position with `white_to_move`.
    pub(crate) fn is_legal(ending: Ending, wk: u8, piece: u8, bk: u8, white_to_move: bool) -> bool {
        wk != piece
            && wk != bk
            && piece != bk
            && KING[usize::from(wk)] & (1 << bk) == 0
            && !(white_to_move && black_in_check(ending, wk, piece, bk))
    }

    /// The black king's moves to empty squares, and whether it may take
    /// the white piece (it stands next to it and the white king does not
    /// guard it). The white piece's lines run through the black king's
    /// square, which it leaves.
    pub(crate) fn black_moves(ending: Ending, wk: u8, piece: u8, bk: u8) -> (u64, bool) {
        let guarded = KING[usize::from(wk)] | ending.attacks(piece, 1 << wk);
        let near = KING[usize::from(bk)];
        let quiet = near & !guarded & !(1 << piece) & !(1 << wk);
        let takes = near & (1 << piece) != 0 && KING[usize::from(wk)] & (1 << piece) == 0;
        (quiet, takes)
    }

    /// The white king's moves and the white piece's moves, as target
    /// squares.
    pub(crate) fn white_moves(ending: Ending, wk: u8, piece: u8, bk: u8) -> (u64, u64) {
        let kings = (1 << wk) | (1 << bk);
        let king = KING[usize::from(wk)] & !KING[usize::from(bk)] & !(1 << piece) & !kings;
        let piece = ending.attacks(piece, kings) & !kings;
        (king, piece)
    }
}

/// Why [`Position::new`] refuses three squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// Two pieces on one square.
    SameSquare,
    /// The two kings on touching squares.
    KingsTouch,
    /// Black in check with White to move.
    BlackInCheck,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::SameSquare => "two pieces stand on one square",
            Illegal::KingsTouch => "the two kings stand next to each other",
            Illegal::BlackInCheck => "Black is in check with White to move",
        })
    }
}

/// A move: a piece goes from one square to another (the black king taking
/// the white piece goes to its square).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl fmt::Display for Move {
    /// As a UCI engine writes it: `e1e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most moves a position has: a queen's 27 and a king's 8.
const MAX_MOVES: usize = 35;

/// A position's legal moves, kept in place (no allocation): the white
/// king's, then the white piece's (or the black king's), each by target
/// square.
#[derive(Clone, Copy)]
pub struct Moves {
    moves: [Move; MAX_MOVES],
    len: u8,
}

impl Moves {
    fn push_each(&mut self, from: u8, mut targets: u64) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            self.moves[usize::from(self.len)] = Move {
                from: Square(from),
                to: Square(to),
            };
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Moves {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..usize::from(self.len)]
    }
}

impl IntoIterator for Moves {
    type Item = Move;
    type IntoIter = std::iter::Take<std::array::IntoIter<Move, MAX_MOVES>>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.into_iter().take(usize::from(self.len))
    }
}

/// How a position stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has a move.
    Ongoing,
    /// Black is in check and has no move: White has won.
    Checkmate,
    /// Black is not in check and has no move: a draw.
    Stalemate,
    /// The black king has taken the queen or rook: king against king, a
    /// dead draw.
    Taken,
}

/// The error of [`Position::play`]: the move is not one of the position's
/// legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub Move);

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a legal move here", self.0)
    }
}

impl std::error::Error for IllegalMove {}

/// A legal position of one ending: where the white king, the white piece
/// (until the black king takes it) and the black king stand, and who is to
/// move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    ending: Ending,
    turn: Color,
    wk: Square,
    piece: Option<Square>,
    bk: Square,
}

/// Every key of a position that still has its white piece is below this:
/// the side to move, then the white king's, the piece's and the black
/// king's squares, six bits each (a dense table of 2 x 64^3 entries).
pub const LIVE_KEYS: u32 = 2 << 18;

/// Every key is below this: after [`LIVE_KEYS`] come the dead draws,
/// numbered by the two kings' squares.
pub const KEYS: u32 = LIVE_KEYS + 64 * 64;

impl Position {
    /// The position, if it is legal.
    pub fn new(
        ending: Ending,
        white_king: Square,
        piece: Square,
        black_king: Square,
        turn: Color,
    ) -> Result<Position, Illegal> {
        let (wk, p, bk) = (white_king.0, piece.0, black_king.0);
        if wk == p || wk == bk || p == bk {
            Err(Illegal::SameSquare)
        } else if KING[usize::from(wk)] & black_king.bit() != 0 {
            Err(Illegal::KingsTouch)
        } else if turn == Color::White && raw::black_in_check(ending, wk, p, bk) {
            Err(Illegal::BlackInCheck)
        } else {
            Ok(Position {
                ending,
                turn,
                wk: white_king,
                piece: Some(piece),
                bk: black_king,
            })
        }
    }

    /// The king-against-king draw left once the black king has taken the
    /// white piece, White to move, if the kings do not touch.
    pub(crate) fn taken(ending: Ending, wk: Square, bk: Square) -> Option<Position> {
        (wk != bk && KING[wk.index()] & bk.bit() == 0).then_some(Position {
            ending,
            turn: Color::White,
            wk,
            piece: None,
            bk,
        })
    }

    /// Its ending.
    pub fn ending(self) -> Ending {
        self.ending
    }

    /// Who is to move.
    pub fn turn(self) -> Color {
        self.turn
    }

    /// The white king's square.
    pub fn white_king(self) -> Square {
        self.wk
    }

    /// The queen's or rook's square, or `None` once the black king has
    /// taken it.
    pub fn piece(self) -> Option<Square> {
        self.piece
    }

    /// The black king's square.
    pub fn black_king(self) -> Square {
        self.bk
    }

    /// Its key, below [`KEYS`], unique within its ending: for a position
    /// with its white piece (below [`LIVE_KEYS`]) the side to move (White
    /// 0), then the white king's, the piece's and the black king's
    /// squares, six bits each; after those the dead draws.
    pub fn key(self) -> u32 {
        let (wk, bk) = (u32::from(self.wk.0), u32::from(self.bk.0));
        match self.piece {
            Some(p) => {
                (u32::from(self.turn == Color::Black) << 18)
                    | (wk << 12)
                    | (u32::from(p.0) << 6)
                    | bk
            }
            None => LIVE_KEYS + ((wk << 6) | bk),
        }
    }

    /// The position whose key is `key` in `ending`, if that key names a
    /// legal one.
    pub fn from_key(ending: Ending, key: u32) -> Option<Position> {
        let sq = |shift: u32| Square((key >> shift & 63) as u8);
        if key < LIVE_KEYS {
            let turn = if key >> 18 == 0 {
                Color::White
            } else {
                Color::Black
            };
            Position::new(ending, sq(12), sq(6), sq(0), turn).ok()
        } else if key < KEYS {
            Position::taken(ending, sq(6), sq(0))
        } else {
            None
        }
    }

    /// The same position under symmetry `t` of the board's eight (see
    /// [`Square::transformed`]): with no pawns and no castling, every
    /// symmetry keeps a position legal and its value the same.
    pub fn transformed(self, t: u8) -> Position {
        Position {
            wk: self.wk.transformed(t),
            piece: self.piece.map(|p| p.transformed(t)),
            bk: self.bk.transformed(t),
            ..self
        }
    }

    /// Whether the side to move is in check (only Black can be).
    pub fn is_check(self) -> bool {
        match self.piece {
            Some(p) if self.turn == Color::Black => {
                raw::black_in_check(self.ending, self.wk.0, p.0, self.bk.0)
            }
            _ => false,
        }
    }

    /// The legal moves: none once the game is over.
    pub fn legal_moves(self) -> Moves {
        let mut moves = Moves {
            moves: [Move {
                from: Square(0),
                to: Square(0),
            }; MAX_MOVES],
            len: 0,
        };
        let Some(p) = self.piece else {
            return moves;
        };
        let (wk, p, bk) = (self.wk.0, p.0, self.bk.0);
        match self.turn {
            Color::White => {
                let (king, piece) = raw::white_moves(self.ending, wk, p, bk);
                moves.push_each(wk, king);
                moves.push_each(p, piece);
            }
            Color::Black => moves.push_each(bk, self.black_targets(p)),
        }
        moves
    }

    /// The black king's targets, the white piece's square among them when
    /// it may take it (Black to move, the piece on `piece`).
    fn black_targets(self, piece: u8) -> u64 {
        let (quiet, takes) = raw::black_moves(self.ending, self.wk.0, piece, self.bk.0);
        quiet | if takes { 1 << piece } else { 0 }
    }

    /// The squares the piece on `from` may go to, as a bitboard: the
    /// targets of the legal moves from `from` (none if the side to move
    /// has no piece there). The chess pages ask it of every square of a
    /// picked piece's page, and `play` of every move: a few bit
    /// operations, where listing [`Position::legal_moves`] fills 35 slots.
    pub(crate) fn targets(self, from: Square) -> u64 {
        let Some(p) = self.piece else {
            return 0;
        };
        match self.turn {
            Color::White if from == self.wk || from == p => {
                let (king, piece) = raw::white_moves(self.ending, self.wk.0, p.0, self.bk.0);
                if from == self.wk { king } else { piece }
            }
            Color::Black if from == self.bk => self.black_targets(p.0),
            _ => 0,
        }
    }

    /// Whether the side to move has a legal move, without listing them.
    fn has_moves(self) -> bool {
        let Some(p) = self.piece else {
            return false;
        };
        match self.turn {
            Color::White => {
                let (king, piece) = raw::white_moves(self.ending, self.wk.0, p.0, self.bk.0);
                king | piece != 0
            }
            Color::Black => self.black_targets(p.0) != 0,
        }
    }

    /// How it stands: going on, checkmate, stalemate, or the white piece
    /// taken.
    pub fn status(self) -> Status {
        if self.piece.is_none() {
            Status::Taken
        } else if self.has_moves() {
            Status::Ongoing
        } else if self.is_check() {
            Status::Checkmate
        } else {
            Status::Stalemate
        }
    }

    /// The position after `mov`, or why it is refused: `mov` must be one
    /// of [`Position::legal_moves`]. `self` is unchanged either way.
    pub fn play(self, mov: Move) -> Result<Position, IllegalMove> {
        if self.targets(mov.from) & mov.to.bit() == 0 {
            return Err(IllegalMove(mov));
        }
        Ok(self.play_legal(mov))
    }

    /// The position after `mov`, which the caller knows is one of
    /// [`Position::legal_moves`] (it came out of them): [`Position::play`]
    /// without the check, for the loops that weigh every move of every
    /// position. Given any other move it returns some position the rules
    /// never reach; it never panics.
    pub(crate) fn play_legal(self, mov: Move) -> Position {
        let mut next = self;
        next.turn = self.turn.opponent();
        match self.turn {
            Color::White if mov.from == self.wk => next.wk = mov.to,
            Color::White => next.piece = Some(mov.to),
            Color::Black => {
                next.bk = mov.to;
                if self.piece == Some(mov.to) {
                    next.piece = None;
                }
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::from_name(name).unwrap()
    }

    #[test]
    fn squares_are_named_from_a1() {
        assert_eq!(sq("a1").index(), 0);
        assert_eq!(sq("h1").index(), 7);
        assert_eq!(sq("a2").index(), 8);
        assert_eq!(sq("h8").index(), 63);
        assert_eq!(sq("e4").to_string(), "e4");
        for bad in ["", "e", "i1", "a9", "a0", "e44", "E4"] {
            assert_eq!(Square::from_name(bad), None, "{bad}");
        }
        assert_eq!(Square::new(64), None);
        assert_eq!(Square::at(8, 0), None);
    }

    #[test]
    fn the_eight_symmetries_are_distinct_and_each_undone_by_one() {
        let b1 = sq("b1");
        let images: std::collections::BTreeSet<_> = (0..8).map(|t| b1.transformed(t)).collect();
        assert_eq!(images.len(), 8);
        for t in 0..8 {
            let undo = (0..8)
                .filter(|&u| (0..64).all(|i| Square(i).transformed(t).transformed(u) == Square(i)))
                .count();
            assert_eq!(undo, 1, "symmetry {t}");
        }
    }

    #[test]
    fn legality() {
        use Ending::*;
        let new = |e, w, p, b, turn| Position::new(e, sq(w), sq(p), sq(b), turn);
        assert_eq!(
            new(Kqk, "e1", "e1", "e8", Color::White),
            Err(Illegal::SameSquare)
        );
        assert_eq!(
            new(Kqk, "e1", "d1", "e2", Color::Black),
            Err(Illegal::KingsTouch)
        );
        assert_eq!(
            new(Kqk, "e1", "d1", "d8", Color::White),
            Err(Illegal::BlackInCheck)
        );
        // The white king shields the black king from the rook.
        assert!(new(Krk, "a4", "a1", "a8", Color::White).is_ok());
        assert!(new(Kqk, "e1", "d1", "d8", Color::Black).is_ok());
    }

    #[test]
    fn moves_checkmate_stalemate_and_taking() {
        let p =
            |w, piece, b, turn| Position::new(Ending::Kqk, sq(w), sq(piece), sq(b), turn).unwrap();
        // Ka6 Qb7 ka8: checkmate; Kc6 Qb6 ka8 (no check): stalemate.
        assert_eq!(
            p("a6", "b7", "a8", Color::Black).status(),
            Status::Checkmate
        );
        assert_eq!(
            p("c6", "b6", "a8", Color::Black).status(),
            Status::Stalemate
        );
        // Ke1 Qd1 ke8, White to move: the king's 4 and the queen's 17.
        let start = p("e1", "d1", "e8", Color::White);
        assert_eq!(start.legal_moves().len(), 4 + 17);
        assert_eq!(start.status(), Status::Ongoing);
        // An undefended queen next to the black king is taken: a dead draw.
        let hanging = p("e1", "d7", "e8", Color::Black);
        let take = Move {
            from: sq("e8"),
            to: sq("d7"),
        };
        assert!(hanging.legal_moves().contains(&take));
        let after = hanging.play(take).unwrap();
        assert_eq!(after.status(), Status::Taken);
        assert_eq!(after.piece(), None);
        assert!(after.legal_moves().is_empty());
        // A defended one is not.
        let guarded = p("e6", "d7", "d8", Color::Black);
        assert!(!guarded.legal_moves().iter().any(|m| m.to == sq("d7")));
        // A move not in the list is refused and nothing changes.
        let bad = Move {
            from: sq("e1"),
            to: sq("e3"),
        };
        assert_eq!(start.play(bad), Err(IllegalMove(bad)));
    }

    #[test]
    fn keys_are_unique_and_read_back() {
        for ending in Ending::ALL {
            let mut seen = 0;
            for key in 0..KEYS + 10 {
                if let Some(pos) = Position::from_key(ending, key) {
                    assert_eq!(pos.key(), key);
                    seen += 1;
                }
            }
            let white = if ending == Ending::Kqk {
                144_508
            } else {
                175_168
            };
            assert_eq!(seen, white + 223_944 + 3_612);
        }
    }

    /// cozy-chess's legal moves as (from, to), sorted.
    fn cozy_moves(board: &cozy_chess::Board) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        board.generate_moves(|piece_moves| {
            moves.extend(
                piece_moves
                    .into_iter()
                    .map(|m| (m.from as usize, m.to as usize)),
            );
            false
        });
        moves.sort_unstable();
        moves
    }

    /// Every placement of the three pieces on distinct squares, with
    /// either side to move: ours is legal exactly when cozy-chess takes its
    /// FEN and the kings do not touch (cozy-chess lets kings touch), and
    /// then both give the same moves, check and result. Returns the legal
    /// positions with White and with Black to move.
    fn check_against_cozy_chess(ending: Ending) -> [u32; 2] {
        let mut legal = [0; 2];
        let mut ours = Vec::new();
        for (side, turn) in [Color::White, Color::Black].into_iter().enumerate() {
            for wk in 0..64 {
                for p in 0..64 {
                    for bk in 0..64 {
                        if wk == p || wk == bk || p == bk {
                            continue;
                        }
                        let (wk, p, bk) = (Square(wk), Square(p), Square(bk));
                        let placed = Position {
                            ending,
                            turn,
                            wk,
                            piece: Some(p),
                            bk,
                        };
                        let fen = placed.fen();
                        let theirs = cozy_chess::Board::from_fen(&fen, false);
                        let touch = KING[wk.index()] & bk.bit() != 0;
                        let position = Position::new(ending, wk, p, bk, turn);
                        assert_eq!(position.is_ok(), theirs.is_ok() && !touch, "{fen}");
                        let (Ok(position), Ok(board)) = (position, theirs) else {
                            continue;
                        };
                        legal[side] += 1;
                        ours.clear();
                        ours.extend(
                            position
                                .legal_moves()
                                .iter()
                                .map(|m| (m.from.index(), m.to.index())),
                        );
                        ours.sort_unstable();
                        assert_eq!(ours, cozy_moves(&board), "{fen}");
                        assert_eq!(position.is_check(), !board.checkers().is_empty(), "{fen}");
                        let status = match board.status() {
                            cozy_chess::GameStatus::Ongoing => Status::Ongoing,
                            cozy_chess::GameStatus::Won => Status::Checkmate,
                            cozy_chess::GameStatus::Drawn => Status::Stalemate,
                        };
                        assert_eq!(position.status(), status, "{fen}");
                        check_plays(position, &fen);
                    }
                }
            }
        }
        legal
    }

    /// The shortcuts agree with the list of legal moves: each square's
    /// `targets` are its moves' targets, and `play_legal` of each legal
    /// move is `play`'s position.
    fn check_plays(position: Position, fen: &str) {
        let moves = position.legal_moves();
        for from in (0..64).map(Square) {
            let listed = moves
                .iter()
                .filter(|m| m.from == from)
                .fold(0, |bits, m| bits | m.to.bit());
            assert_eq!(position.targets(from), listed, "{fen} {from}");
        }
        for &mov in moves.iter() {
            assert_eq!(
                Ok(position.play_legal(mov)),
                position.play(mov),
                "{fen} {mov}"
            );
        }
    }

    #[test]
    fn kqk_moves_match_cozy_chess_everywhere() {
        assert_eq!(check_against_cozy_chess(Ending::Kqk), [144_508, 223_944]);
    }

    #[test]
    fn krk_moves_match_cozy_chess_everywhere() {
        assert_eq!(check_against_cozy_chess(Ending::Krk), [175_168, 223_944]);
    }
}
