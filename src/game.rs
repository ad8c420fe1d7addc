//! The seam between a game and everything else: the [`Game`] trait, in the
//! spirit of shakmaty's `Position`. The state graph, the solver, the
//! computer opponent and the editions are generic over it; the formats
//! never see it, only the grid of cells a screen is made of.
//!
//! Invariant: a game is a compact `Copy` value; [`Game::play`] is checked
//! and leaves the position it was called on as it was; every position
//! reachable from [`Game::start`] has a [`Game::key`] of its own below
//! [`Game::KEYS`], which names its page.

use std::borrow::Cow;
use std::fmt;
use std::hash::Hash;

/// One of the two sides of a two-player game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Moves first.
    First,
    /// Moves second.
    Second,
}

impl Side {
    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won.
    Won(Side),
    /// Nobody won.
    Draw,
    /// A one-player puzzle reached its goal.
    Solved,
}

/// What a move is worth to the player making it, counted in the moves the
/// winning side makes from here on (this move included for a win).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// A win in this many moves of the winner.
    Win(u16),
    /// A draw with best play.
    Draw,
    /// A loss in this many moves of the winner.
    Loss(u16),
}

impl Verdict {
    /// Orders verdicts from the mover's side, greater is better: faster
    /// wins first, then draws, then slower losses before faster ones.
    pub fn rank(self) -> i32 {
        match self {
            Verdict::Win(n) => 100_000 - i32::from(n),
            Verdict::Draw => 0,
            Verdict::Loss(n) => -100_000 + i32::from(n),
        }
    }
}

/// "win in 2", "draw" or "loss in 1".
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Win(n) => write!(f, "win in {n}"),
            Verdict::Draw => f.write_str("draw"),
            Verdict::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}

/// The analysis note on a move's cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Note {
    /// What the move is worth.
    pub verdict: Verdict,
    /// Whether it ties for the best move.
    pub best: bool,
}

/// One cell of a screen as the game draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Face {
    /// Its image: an index into [`Game::IMAGES`].
    pub image: usize,
    /// What a screen reader says of it when selecting it does nothing:
    /// "top left: X".
    pub label: Cow<'static, str>,
    /// What a screen reader says of it when it is a link ("top left:
    /// place X"): whether it is one, and where it goes, is the screen's
    /// [`crate::view::View::choices`], never the game's drawing.
    pub action: Option<Cow<'static, str>>,
}

/// The words a game brings to every edition and book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Texts {
    /// The game's name in book titles and headings: "Tic-tac-toe".
    pub title: &'static str,
    /// The first word of its books' file names: `tictactoe`.
    pub stem: &'static str,
    /// The rules, the first paragraph of every e-book's opening page and
    /// the game's "How to play" on the home page.
    pub rules: &'static str,
    /// The rules as paper says them, for the PDFs' opening page: a number
    /// printed in a square to turn to, not a link, and turning back, not
    /// going back.
    pub paper_rules: &'static str,
    /// What the play edition is, for the home page and its books.
    pub play_about: &'static str,
    /// The words of the play edition's start link.
    pub play_start: &'static str,
    /// What the analysis edition shows, in the game's own words.
    pub analysis_about: &'static str,
    /// The words of the analysis edition's start link.
    pub analysis_start: &'static str,
    /// The play edition's name on the home page, the game named: "Tic-tac-toe
    /// for two players".
    pub play_name: &'static str,
    /// Its books' title: "Tic-tac-toe for Two Players".
    pub play_title: &'static str,
    /// The analysis edition's name on the home page: "Tic-tac-toe,
    /// analysed".
    pub analysis_name: &'static str,
    /// The words of the link back to the start: "New game", or for a
    /// puzzle "Start again".
    pub again: &'static str,
}

/// How the analysis edition weighs a choice, and so what its cells say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weighing {
    /// What the move is worth to the side making it: "win in 2".
    Verdict,
    /// What is left to a puzzle's goal after it: "leaves 14 moves", each
    /// choice's count also in one line under the heading.
    MovesLeft,
}

/// One stroke of a side's mark on a map, in a 100 by 100 cell (y down).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stroke {
    /// A line from `(x1, y1)` to `(x2, y2)`.
    Line(u8, u8, u8, u8),
    /// A circle: its centre `(x, y)` and its radius.
    Circle(u8, u8, u8),
}

/// The nine places of a grid of three by three, row by row, in words: a
/// map's part (and of a triangle, its top and bottom corners).
pub const PLACES: [&str; 9] = [
    "top left",
    "top",
    "top right",
    "left",
    "centre",
    "right",
    "bottom left",
    "bottom",
    "bottom right",
];

/// How the map of a whole game ([`crate::map`]) draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapStyle {
    /// A two-player game of placing marks on its grid: xkcd 832's map of
    /// optimal play for each side, from the solver. Each side's mark is
    /// strokes in a 100 by 100 cell, drawn by the map.
    Marks([&'static [Stroke]; 2]),
    /// A puzzle: its state graph, each position a node at its
    /// [`Game::map_point`], one move an edge.
    Graph,
}

/// What the map of a puzzle ([`MapStyle::Graph`]) says its dots and
/// lines are, in the game's own words: the map's drawing is the same for
/// any puzzle, but what a node stands for and the shape the graph makes
/// are the game's (the Towers of Hanoi's Sierpinski triangle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphWords {
    /// The map's first sentences, on paper and on the web: what a dot and
    /// a line are, and the shape they make.
    pub shape: &'static str,
    /// Where the shortest solution runs, after "is the thick line in the
    /// map colour" (" along one side"), or nothing.
    pub route: &'static str,
    /// What a dot is, in the legend: "a position".
    pub dot: &'static str,
}

impl GraphWords {
    /// Words true of any puzzle's map, for a game that gives none.
    pub const PLAIN: GraphWords = GraphWords {
        shape: "Every position is a dot, and a line joins two positions one move apart.",
        route: "",
        dot: "a position",
    };
}

/// A picture under the whole board, for the books that show each picture
/// at its own size, each a record of its own (a MOBI's MOBI 6 part): the
/// bottom row is drawn with the images of the rows above it, and this one
/// picture under it, instead of a copy of each image with its share of
/// the picture drawn in (the Towers of Hanoi's base: five pictures fewer
/// in a book of four discs, about 1 KB).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnderBoard {
    /// The picture, as wide as the board: an index into [`Game::IMAGES`]
    /// that no cell shows.
    pub image: usize,
    /// Each image only the bottom row shows, and the image drawn in its
    /// place above the picture (indices into [`Game::IMAGES`]); every
    /// other image is drawn as it is.
    pub plain: &'static [(usize, usize)],
}

impl UnderBoard {
    /// Image `i` as the rows over the picture draw it.
    pub fn above(&self, i: usize) -> usize {
        self.plain
            .iter()
            .find(|(b, _)| *b == i)
            .map_or(i, |(_, plain)| *plain)
    }
}

/// A game whose every reachable position is a page: a two-player game or
/// a one-player puzzle on a grid of cells. The game knows only whole
/// moves; how a reader taps one in is its shape's part: one cell
/// ([`Game::cell`]), or a piece first ([`Game::piece`], whose page of its
/// own a [`crate::view::View`] is), then the cell it goes to.
pub trait Game: Copy + Eq + Ord + Hash + fmt::Debug + Send + Sync + 'static {
    /// A move.
    type Move: Copy + Eq + Ord + Hash + fmt::Debug + Send + Sync;
    /// What varies between games of this kind (such as an early-draw rule).
    type Rules: Copy + Default + fmt::Debug + Send + Sync;
    /// Why [`Game::play`] refused a move.
    type Error: fmt::Debug + fmt::Display;

    /// Who plays: 2 for a game of two sides, 1 for a puzzle, whose one
    /// player always moves ([`Side::First`]) towards [`Outcome::Solved`].
    const PLAYERS: u8;
    /// Every image a cell can show (and the picture under the board, if
    /// the game has one: [`Game::UNDER_BOARD`]), without extension: the
    /// web uses `<name>.svg`, the books `<name>.gif`.
    const IMAGES: &'static [&'static str];
    /// Every key is below this, and so is every key of a position with a
    /// piece picked ([`Game::picked_key`]).
    const KEYS: u32;
    /// The game's words.
    const TEXTS: Texts;
    /// How its map draws it, if it has one.
    const MAP: Option<MapStyle> = None;
    /// How its analysis weighs a choice: by default, a verdict.
    const WEIGHING: Weighing = Weighing::Verdict;
    /// Whether each move is a whole column of the grid, its top cell the
    /// link (the Towers of Hanoi's pegs): a web page then makes the
    /// whole column one place to tap, the link still one.
    const COLUMN_MOVES: bool = false;
    /// How many times its pictures' own shape the EPUB and the KF8 part
    /// draw the board's height: 1, the shape. A game whose pictures may
    /// stretch (`preserveAspectRatio="none"`: the Towers of Hanoi, whose
    /// discs may be taller, so that the board fills a tall page) says
    /// more. The stretch is drawn into the pictures' own size (their SVG's
    /// `height`), not asked of a stylesheet, since the readers fit a
    /// picture to its box at its own shape (epub.js and foliate-js set
    /// `object-fit:contain`), and a page's height is no share of its
    /// width there; so a page that is short for the board gets it
    /// narrower, at the same stretch.
    const BOOK_STRETCH: u32 = 1;
    /// The picture its bottom row stands on, where pictures are shown at
    /// their own size ([`UnderBoard`]); `None`: each cell as it is.
    const UNDER_BOARD: Option<UnderBoard> = None;
    /// What `positions.json` adds to how it numbers a move's square (its
    /// cell, from 0 in reading order), where the game numbers its squares
    /// another way too (tic-tac-toe's game records); `None`: nothing. The
    /// file says it in its first line.
    const CELL_NOTE: Option<&'static str> = None;
    /// The words of its map, if that is a puzzle's ([`MapStyle::Graph`]).
    const GRAPH_WORDS: GraphWords = GraphWords::PLAIN;
    /// Whether, with a piece picked up, a tap on another of the reader's
    /// pieces picks that one up instead, as a chess app does, where it
    /// would otherwise do nothing. By default not: no other piece's cell
    /// may then be a cell the picked piece goes to (a cell is one link),
    /// and the Towers of Hanoi's other pegs are where its disc goes.
    const REPICK: bool = false;
    /// Whether its books hold thousands of screens, and answer to
    /// the large budgets (`--large-mobi-budget`, `--large-epub-budget`):
    /// the chess endgames.
    const LARGE_BOOKS: bool = false;

    /// The position before the first move.
    fn start(rules: Self::Rules) -> Self;
    /// The legal moves, in the order of the cells that make them (by
    /// piece, then cell, where a move is a piece and a cell); none once
    /// the game is over.
    fn moves(self) -> impl Iterator<Item = Self::Move>;
    /// The position after `mov`, or why it is refused; `self` is unchanged
    /// either way.
    fn play(self, mov: Self::Move) -> Result<Self, Self::Error>;
    /// Whose turn it is; on a finished position, whose turn it would be.
    fn mover(self) -> Side;
    /// How the game ended, or `None` while it goes on.
    fn outcome(self) -> Option<Outcome>;
    /// The position's key: its page name in hex, unique among the
    /// positions reachable under one set of rules.
    fn key(self) -> u32;

    /// The grid a screen draws: rows, then columns.
    fn grid(self) -> (usize, usize);
    /// Cell `index` (reading order) as a screen draws it, with the piece
    /// on cell `picked` picked up if one is.
    fn face(self, picked: Option<usize>, index: usize) -> Face;
    /// The image of cell `index` carrying `note`, the worth of the choice
    /// it makes, with the piece on `picked` picked up if one is.
    fn noted_image(self, picked: Option<usize>, index: usize, note: Note) -> usize;
    /// The cell, in reading order, that `mov` is tapped on last: where it
    /// goes.
    fn cell(mov: Self::Move) -> usize;
    /// The cell of the piece that `mov` moves, tapped first, if a move is
    /// two taps; by default a move is one tap.
    fn piece(_mov: Self::Move) -> Option<usize> {
        None
    }
    /// The cells whose piece the reader may pick up, before tapping where
    /// it goes (each a page of its own, even one whose piece cannot move):
    /// by default none, a move being one tap. None once the game is over.
    fn pieces(self) -> impl Iterator<Item = usize> {
        std::iter::empty()
    }
    /// The position a finished one is tried again from, on the page that
    /// says how it ended: that page shows its board, and its choices are
    /// that board's (a tap there plays on from it). A chess challenge
    /// lost (too slow, or the piece taken) is one page every losing move
    /// shares, with no position of its own to show: it shows the start,
    /// to try again from where it says why. By default `None`: a finished
    /// board shows itself and offers no choice. Only a finished position
    /// has one, and it must be a position play reaches (the walk and the
    /// analysis look its choices up).
    fn again(self) -> Option<Self> {
        None
    }
    /// The key of this position with the piece on `cell` picked up: by
    /// default the keys after the position's own, so a game with pieces
    /// leaves room for them between its positions' keys.
    fn picked_key(self, cell: usize) -> u32 {
        self.key() + 1 + cell as u32
    }
    /// A move in words: "top right".
    fn move_name(mov: Self::Move) -> &'static str;
    /// A cell a choice is made on, in words: "top right", "left peg".
    fn cell_name(cell: usize) -> &'static str;
    /// A move as a place in a sentence, "The computer took <this>.": by
    /// default "the " and its name; tic-tac-toe says "the top right
    /// square".
    fn move_place(mov: Self::Move) -> String {
        format!("the {}", Self::move_name(mov))
    }
    /// A side's name: "X".
    fn side_name(side: Side) -> &'static str;
    /// A verdict in the game's words, onto `out`: by default "win in 2",
    /// "draw", "loss in 1".
    fn push_verdict(verdict: Verdict, out: &mut String) {
        use std::fmt::Write as _;
        let _ = write!(out, "{verdict}");
    }
    /// A finished game's result in the game's words (`positions.json`
    /// gives it as a finished position's value): by default "X wins",
    /// "draw", "solved".
    fn result_words(outcome: Outcome) -> Cow<'static, str> {
        match outcome {
            Outcome::Won(winner) => format!("{} wins", Self::side_name(winner)).into(),
            Outcome::Draw => "draw".into(),
            Outcome::Solved => "solved".into(),
        }
    }
    /// The analysis edition's heading while the game goes on, `value` the
    /// position's for the side to move in [`Game::push_verdict`]'s words:
    /// by default "X to move: win in 2 with best play".
    fn analysis_heading(self, _picked: Option<usize>, value: &str) -> String {
        format!(
            "{} to move: {value} with best play",
            Self::side_name(self.mover())
        )
    }
    /// The heading of a screen, with the piece on `picked` picked up if
    /// one is: "X to move", "O wins".
    fn heading(self, picked: Option<usize>) -> String;
    /// The position's title in words (with the piece on `picked` picked
    /// up), for a page's title and screen readers, onto `out`.
    fn push_title(self, picked: Option<usize>, out: &mut String);
    /// A line a screen shows under the heading, if the position calls for
    /// one ("No one can make three in a row any more.", "Black played
    /// Kd7.").
    fn remark(self) -> Option<Cow<'static, str>>;
    /// The cells as text, in reading order (with the piece on `picked`
    /// picked up), for `positions.json`.
    fn text(self, picked: Option<usize>) -> String;

    /// Whose mark is in cell `index` (reading order), for a map of
    /// [`MapStyle::Marks`].
    fn holder(self, _index: usize) -> Option<Side> {
        None
    }
    /// Where a map of [`MapStyle::Graph`] draws this position, in units of
    /// one move (its moves are its edges), if the game has such a map.
    fn map_point(self) -> Option<(f64, f64)> {
        None
    }

    /// The board's height over its width, as its cells' pictures make it:
    /// by default a grid of square cells. Every board of a game at one
    /// set of rules has the same shape, so a page can size the board to
    /// the room it has before its images are loaded.
    fn aspect(self) -> f64 {
        let (rows, cols) = self.grid();
        rows as f64 / cols as f64
    }

    /// The image of cell `index` when it holds the move just made against
    /// the player (the computer's, against the computer), marked so the
    /// player sees at a glance where it went, in grayscale too: by default
    /// as [`Game::face`] draws it.
    fn last_move_image(self, index: usize) -> usize {
        self.face(None, index).image
    }

    /// Whether the game has ended.
    fn is_over(self) -> bool {
        self.outcome().is_some()
    }
}
