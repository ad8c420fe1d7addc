//! Tic-tac-toe's board: a compact `Copy` board, its rules and its id.
//!
//! Invariant: this module does no IO and cannot panic; an illegal move is
//! refused with a [`PlayError`] and the board it was tried on is unchanged
//! (boards are values, so "unchanged" is free).

use std::fmt;

/// One of the nine squares, numbered 0..9 in reading order (top-left first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// All nine squares in reading order.
    pub const ALL: [Square; 9] = [
        Square(0),
        Square(1),
        Square(2),
        Square(3),
        Square(4),
        Square(5),
        Square(6),
        Square(7),
        Square(8),
    ];

    /// The square with reading-order index `index`, if it is below 9.
    pub fn new(index: usize) -> Option<Square> {
        Square::ALL.get(index).copied()
    }

    /// Reading-order index, 0 (top left) to 8 (bottom right).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    fn bit(self) -> u16 {
        1 << self.0
    }

    /// The name a screen reader speaks for this square.
    pub fn name(self) -> &'static str {
        super::shape::SQUARES[self.index()]
    }
}

/// A player, and the mark that player makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Moves first.
    X,
    /// Moves second.
    O,
}

impl Player {
    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// "X" or "O".
    pub fn letter(self) -> &'static str {
        match self {
            Player::X => "X",
            Player::O => "O",
        }
    }
}

/// What a square holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nobody has played here.
    Empty,
    /// A player's mark.
    Taken(Player),
}

/// Where a board stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The game goes on; this player moves next.
    InPlay(Player),
    /// Three in a row. `line` holds every square of every completed line.
    Won {
        /// Who made the line.
        winner: Player,
        /// The winning squares (one or two lines).
        line: SquareSet,
    },
    /// A full board with no line, or, under the early-draw rule, a board
    /// where nobody can make three in a row any more.
    Draw,
}

/// A set of squares, as a 9-bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet(u16);

impl SquareSet {
    /// Whether `square` is in the set.
    pub fn contains(self, square: Square) -> bool {
        self.0 & square.bit() != 0
    }

    /// How many squares the set holds.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares in reading order.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        Square::ALL.into_iter().filter(move |s| self.contains(*s))
    }
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The square already holds a mark.
    Occupied(Square),
    /// The game has ended: somebody won or the board is full.
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Occupied(s) => write!(f, "the {} square is taken", s.name()),
            PlayError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for PlayError {}

/// The eight lines of three, as masks.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// For each set of squares (9 bits), the squares of the full lines in it:
/// [`Board::status`] runs for every move of every build, so it looks the
/// answer up instead of testing the eight lines.
static LINE_OF: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut l = 0;
        while l < LINES.len() {
            if mask as u16 & LINES[l] == LINES[l] {
                table[mask] |= LINES[l];
            }
            l += 1;
        }
        mask += 1;
    }
    table
};

/// Which rules a game is played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// A game ends in a draw as soon as nobody can make three in a row
    /// any more (the 2009 post's idea), not only on a full board.
    pub early_draws: bool,
}

/// A tic-tac-toe board: two 9-bit masks, and the rules it is played under
/// (bit 15 of `x` marks the early-draw rule). X always moves first, so
/// whose turn it is follows from the marks.
///
/// Any value made through [`Board::start`] (or [`Board::EMPTY`]) and
/// [`Board::play`] is reachable in a real game under its rules;
/// [`Board::from_id`] can also make unreachable ones (nine Os), which the
/// rules below still answer for without panicking.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    x: u16,
    o: u16,
}

/// The bit of `Board::x` that says the early-draw rule is in force.
const EARLY: u16 = 1 << 15;

/// The nine squares' bits.
const SQUARES: u16 = 0x1ff;

/// For each board id: whether some continuation of play (or the board
/// itself) has three in a row. Worked out once, for every id.
fn winnable(id: u32) -> bool {
    static TABLE: std::sync::OnceLock<Vec<bool>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut memo: Vec<Option<bool>> = vec![None; ID_LIMIT as usize];
        fn walk(b: Board, memo: &mut [Option<bool>]) -> bool {
            let id = b.id() as usize;
            if let Some(w) = memo[id] {
                return w;
            }
            let w = match b.status() {
                Status::Won { .. } => true,
                Status::Draw => false,
                Status::InPlay(_) => b
                    .legal_moves()
                    .iter()
                    .any(|s| b.play(s).is_ok_and(|n| walk(n, memo))),
            };
            memo[id] = Some(w);
            w
        }
        (0..ID_LIMIT)
            .map(|id| walk(Board::from_id(id).expect("below 3^9"), &mut memo))
            .collect()
    });
    table[id as usize]
}

/// For each mask of squares, the ternary number with a 1 at each of its
/// squares, top-left (bit 0) most significant: `Board::id` of its marks.
static TERNARY: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut square = 0;
        while square < 9 {
            if mask & (1 << square) != 0 {
                table[mask] += 3u16.pow(8 - square);
            }
            square += 1;
        }
        mask += 1;
    }
    table
};

/// For each mask of squares, how many squares it holds: every move played
/// asks whose turn it is (hundreds of thousands a build), and `count_ones`
/// is a dozen instructions without the CPU's own (not in the x86-64
/// baseline).
static MARKS: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut mask = 0;
    while mask < 512 {
        table[mask] = (mask as u16).count_ones() as u8;
        mask += 1;
    }
    table
};

/// The squares a mask holds, by [`MARKS`].
fn count(mask: u16) -> u8 {
    MARKS[usize::from(mask & SQUARES)]
}

/// 3^9: every board id is below this.
pub const ID_LIMIT: u32 = 19_683;

impl Board {
    /// The empty board, X to move, under the usual rules.
    pub const EMPTY: Board = Board { x: 0, o: 0 };

    /// The empty board under `rules`.
    pub fn start(rules: Rules) -> Board {
        Board::EMPTY.with_rules(rules)
    }

    /// The same marks under `rules`.
    pub fn with_rules(self, rules: Rules) -> Board {
        let x = self.x & SQUARES;
        Board {
            x: if rules.early_draws { x | EARLY } else { x },
            o: self.o,
        }
    }

    /// The rules this board is played under.
    pub fn rules(self) -> Rules {
        Rules {
            early_draws: self.x & EARLY != 0,
        }
    }

    /// Whether every line holds both an X and an O: bit-tac-toe's grave
    /// markers all set. A quick test that settles most dead draws.
    pub fn all_lines_blocked(self) -> bool {
        LINES.iter().all(|&l| self.x & l != 0 && self.o & l != 0)
    }

    /// Whether nobody can make three in a row any more, whatever is played:
    /// a game in play that can only end in a draw. Grave markers first,
    /// then the exact test over every continuation.
    pub fn is_dead(self) -> bool {
        if Self::line_of(self.x) != 0 || Self::line_of(self.o) != 0 {
            return false;
        }
        self.all_lines_blocked() || !winnable(self.id())
    }

    /// What `square` holds.
    pub fn cell(self, square: Square) -> Cell {
        if self.x & square.bit() != 0 {
            Cell::Taken(Player::X)
        } else if self.o & square.bit() != 0 {
            Cell::Taken(Player::O)
        } else {
            Cell::Empty
        }
    }

    /// The nine cells in reading order.
    pub fn cells(self) -> [Cell; 9] {
        Square::ALL.map(|s| self.cell(s))
    }

    /// How many marks are on the board.
    pub fn marks(self) -> usize {
        usize::from(count(self.x | self.o))
    }

    /// Whose turn it is if the game goes on: X when the counts are equal.
    pub fn to_move(self) -> Player {
        if count(self.x) > count(self.o) {
            Player::O
        } else {
            Player::X
        }
    }

    fn line_of(mask: u16) -> u16 {
        LINE_OF[usize::from(mask & SQUARES)]
    }

    /// Whether the game goes on, and if not, how it ended.
    pub fn status(self) -> Status {
        let (xl, ol) = (Self::line_of(self.x), Self::line_of(self.o));
        if xl != 0 {
            Status::Won {
                winner: Player::X,
                line: SquareSet(xl),
            }
        } else if ol != 0 {
            Status::Won {
                winner: Player::O,
                line: SquareSet(ol),
            }
        } else if self.marks() == 9 || self.x & EARLY != 0 && self.is_dead() {
            Status::Draw
        } else {
            Status::InPlay(self.to_move())
        }
    }

    /// Whether the game has ended.
    pub fn is_over(self) -> bool {
        !matches!(self.status(), Status::InPlay(_))
    }

    /// The empty squares, in reading order; none once the game is over.
    pub fn legal_moves(self) -> SquareSet {
        if self.is_over() {
            SquareSet(0)
        } else {
            SquareSet(!(self.x | self.o) & 0x1ff)
        }
    }

    /// The board after the side to move marks `square`. Refused, leaving
    /// `self` as it was, when the square is taken or the game is over.
    pub fn play(self, square: Square) -> Result<Board, PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        if self.cell(square) != Cell::Empty {
            return Err(PlayError::Occupied(square));
        }
        let mut next = self;
        match self.to_move() {
            Player::X => next.x |= square.bit(),
            Player::O => next.o |= square.bit(),
        }
        Ok(next)
    }

    /// The board's id: its squares in reading order read as a ternary number,
    /// top-left most significant, 0 empty, 1 X, 2 O (the 2009 post's scheme).
    pub fn id(self) -> u32 {
        // Each mask's marks as ternary digits of 1, looked up: the solver,
        // the maps and the books ask for ids millions of times a build.
        u32::from(TERNARY[usize::from(self.x & SQUARES)])
            + 2 * u32::from(TERNARY[usize::from(self.o & SQUARES)])
    }

    /// The board with this id, if the id is below 3^9.
    pub fn from_id(id: u32) -> Option<Board> {
        if id >= ID_LIMIT {
            return None;
        }
        let mut board = Board::EMPTY;
        let mut rest = id;
        for square in Square::ALL.iter().rev() {
            match rest % 3 {
                1 => board.x |= square.bit(),
                2 => board.o |= square.bit(),
                _ => {}
            }
            rest /= 3;
        }
        Some(board)
    }

    /// The board turned a quarter clockwise.
    #[cfg(test)]
    pub fn rotated(self) -> Board {
        // Square at (r, c) moves to (c, 2 - r).
        self.map_squares(|r, c| (c, 2 - r))
    }

    /// The board mirrored left to right.
    #[cfg(test)]
    pub fn mirrored(self) -> Board {
        self.map_squares(|r, c| (r, 2 - c))
    }

    #[cfg(test)]
    fn map_squares(self, f: impl Fn(usize, usize) -> (usize, usize)) -> Board {
        let mut out = Board::start(self.rules());
        for s in Square::ALL {
            let (r, c) = f(s.index() / 3, s.index() % 3);
            let bit = 1 << (r * 3 + c);
            if self.x & s.bit() != 0 {
                out.x |= bit;
            }
            if self.o & s.bit() != 0 {
                out.o |= bit;
            }
        }
        out
    }

    /// The smallest id among the board's eight rotations and reflections:
    /// equal for boards that are the same up to symmetry.
    #[cfg(test)]
    pub fn canonical_id(self) -> u32 {
        let mut b = self;
        let mut best = u32::MAX;
        for _ in 0..4 {
            best = best.min(b.id()).min(b.mirrored().id());
            b = b.rotated();
        }
        best
    }
}

/// Text form, rows top to bottom, `.` for empty: `X.O/.X./..O`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cells().iter().enumerate() {
            if i > 0 && i % 3 == 0 {
                f.write_str("/")?;
            }
            f.write_str(match c {
                Cell::Empty => ".",
                Cell::Taken(p) => p.letter(),
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(i: usize) -> Square {
        Square::new(i).unwrap()
    }

    #[test]
    fn dead_draws_are_found_and_end_early_games() {
        let mut b = Board::EMPTY;
        // X O X / X O O / O X . : nobody can make a line, one square left.
        for i in [0, 1, 2, 4, 3, 5, 7, 6] {
            b = b.play(sq(i)).unwrap();
        }
        assert_eq!(b.to_string(), "XOX/XOO/OX.");
        assert!(b.is_dead() && b.all_lines_blocked());
        assert_eq!(b.status(), Status::InPlay(Player::X));
        let early = b.with_rules(Rules { early_draws: true });
        assert_eq!(early.status(), Status::Draw);
        assert_eq!(early.play(sq(8)), Err(PlayError::GameOver));
        assert_eq!(early.id(), b.id());
        assert_eq!(early.marks(), 8);
        assert!(!Board::EMPTY.is_dead());
    }

    #[test]
    fn ids_follow_the_2009_scheme() {
        let anchor = |b: Board| crate::screen::page_name(b.id());
        assert_eq!(anchor(Board::EMPTY), "0.html");
        let centre = Board::EMPTY.play(sq(4)).unwrap();
        assert_eq!(anchor(centre), "51.html");
        assert_eq!(anchor(Board::EMPTY.play(sq(8)).unwrap()), "1.html");
        // The post's example: X centre, O bottom right is 0x53.
        assert_eq!(anchor(centre.play(sq(8)).unwrap()), "53.html");
        assert_eq!(anchor(Board::EMPTY.play(sq(0)).unwrap()), "19a1.html");
    }

    #[test]
    fn from_id_inverts_id_for_every_id() {
        for id in 0..ID_LIMIT {
            assert_eq!(Board::from_id(id).unwrap().id(), id);
        }
        assert_eq!(Board::from_id(ID_LIMIT), None);
    }

    #[test]
    fn illegal_moves_are_refused() {
        let b = Board::EMPTY.play(sq(0)).unwrap();
        assert_eq!(b.play(sq(0)), Err(PlayError::Occupied(sq(0))));
        // X wins on the top row; nothing more may be played.
        let mut w = Board::EMPTY;
        for i in [0, 3, 1, 4, 2] {
            w = w.play(sq(i)).unwrap();
        }
        assert_eq!(w.play(sq(8)), Err(PlayError::GameOver));
        assert!(w.legal_moves().is_empty());
        match w.status() {
            Status::Won { winner, line } => {
                assert_eq!(winner, Player::X);
                assert_eq!(
                    line.iter().map(Square::index).collect::<Vec<_>>(),
                    [0, 1, 2]
                );
            }
            s => panic!("expected a win, got {s:?}"),
        }
        assert_eq!(w.to_string(), "XXX/OO./...");
    }

    #[test]
    fn symmetry_maps_squares() {
        let b = Board::EMPTY.play(sq(0)).unwrap();
        assert_eq!(b.rotated().to_string(), "..X/.../...");
        assert_eq!(b.mirrored().to_string(), "..X/.../...");
        assert_eq!(b.rotated().rotated().rotated().rotated(), b);
        assert_eq!(
            b.canonical_id(),
            Board::EMPTY.play(sq(8)).unwrap().canonical_id()
        );
    }
}
