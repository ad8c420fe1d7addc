//! The screen model: what one board's page says and links to, shared by
//! every edition (two-player, vs-computer, analysis) and every format (web
//! pages, MOBI, EPUB, Kindle HTML).
//!
//! Invariants: an [`Edition`] is complete before any format sees it; every
//! [`Link::Here`] names a screen of the same edition (or its contents), so
//! formats only lay out and never decide what links where; the names of
//! the square images and the rows of three live here and nowhere else.

use std::borrow::Cow;
use std::fmt;

use crate::board::{Board, Cell, Player, Square, Status, push_anchor};
use crate::hash::FastMap;
use crate::output::OutFile;
use crate::solver::Score;

/// Where a link inside one edition goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// The edition's opening: the home page's section on the web, the
    /// rules and contents page in a book.
    Contents,
    /// A board of a game (0 in editions with one game).
    Board {
        /// The game, numbered from 1; 0 in editions with one game.
        game: u16,
        /// The board.
        board: Board,
    },
}

impl Target {
    /// A board of an edition with one game.
    pub fn board(board: Board) -> Target {
        Target::Board { game: 0, board }
    }

    /// The anchor name in a single-file book: the board id in hex
    /// (`1a2b`), prefixed with the game for editions with many (`g3-1a2b`).
    pub fn anchor(self) -> String {
        let mut out = String::with_capacity(12);
        self.push_anchor(&mut out);
        out
    }

    /// [`Target::anchor`], onto `out`, without an allocation of its own:
    /// the books write one for every link.
    pub fn push_anchor(self, out: &mut String) {
        use std::fmt::Write as _;
        match self {
            Target::Contents => out.push_str("contents"),
            Target::Board { game: 0, board } => push_anchor(out, board),
            Target::Board { game, board } => {
                let _ = write!(out, "g{game}-");
                push_anchor(out, board);
            }
        }
    }
}

/// A link below a heading or a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Link {
    /// A screen of this edition, or its contents: every format has it.
    Here(Target),
    /// A screen of this edition that only the web links to. A book shares
    /// screens that are the same in every game (see
    /// [`Edition::for_books`]), so a shared screen cannot say which game
    /// to go back to.
    Web(Target),
    /// The same board in the edition with this slug: web pages only, since
    /// each book holds one edition.
    Across(&'static str, Board),
    /// A file beside this edition's web pages: web pages only.
    File(&'static str),
}

/// What a move is worth to the player making it, counted in the moves the
/// winning side makes from here on (this move included for a win).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// A win in this many moves of the winner.
    Win(u8),
    /// A draw with best play.
    Draw,
    /// A loss in this many moves of the winner.
    Loss(u8),
}

impl Verdict {
    /// Orders verdicts from the mover's side, greater is better: faster
    /// wins first, then draws, then slower losses before faster ones.
    pub fn rank(self) -> i16 {
        match self {
            Verdict::Win(n) => 100 - i16::from(n),
            Verdict::Draw => 0,
            Verdict::Loss(n) => -100 + i16::from(n),
        }
    }

    /// The verdict of a solver score, from the side it scores.
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

/// The analysis note on an empty square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Note {
    /// What the move is worth.
    pub verdict: Verdict,
    /// Whether it ties for the best move.
    pub best: bool,
}

/// One square as a screen shows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SquareView {
    /// Which square.
    pub square: Square,
    /// What it holds.
    pub cell: Cell,
    /// Part of a winning line.
    pub highlight: bool,
    /// Where selecting it leads, for an empty square of a game in play.
    pub link: Option<Target>,
    /// What a screen reader says, such as "top left: place X": one of a
    /// few dozen fixed phrases, or one made for this square (the analysis
    /// adds the verdict).
    pub label: Cow<'static, str>,
    /// What the move is worth, in the analysis edition.
    pub note: Option<Note>,
}

/// The image of a square, without extension: the one list of image names.
/// The web uses `<name>.svg`, the books `<name>.gif`.
pub const IMAGES: [&str; 19] = [
    "e", "x", "o", "xw", "ow", "w1", "w2", "w3", "d", "l1", "l2", "l3", "w1b", "w2b", "w3b", "db",
    "l1b", "l2b", "l3b",
];

/// Every fixed square label, made once: by square, then "place X",
/// "place O", "empty", "X", "O", "X, in the line", "O, in the line".
fn labels() -> &'static [[String; 7]; 9] {
    static LABELS: std::sync::OnceLock<[[String; 7]; 9]> = std::sync::OnceLock::new();
    LABELS.get_or_init(|| {
        Square::ALL.map(|square| {
            let name = square.name();
            [
                format!("{name}: place X"),
                format!("{name}: place O"),
                format!("{name}: empty"),
                format!("{name}: X"),
                format!("{name}: O"),
                format!("{name}: X, in the line"),
                format!("{name}: O, in the line"),
            ]
        })
    })
}

impl SquareView {
    /// The image name, one of [`IMAGES`].
    pub fn image(&self) -> &'static str {
        IMAGES[self.image_index()]
    }

    /// The place of [`SquareView::image`] in [`IMAGES`].
    pub fn image_index(&self) -> usize {
        match (self.cell, self.highlight, self.note) {
            (Cell::Empty, _, None) => 0,
            (Cell::Empty, _, Some(Note { verdict, best })) => {
                let base = match verdict {
                    Verdict::Win(n) => 4 + usize::from(n.clamp(1, 3)),
                    Verdict::Draw => 8,
                    Verdict::Loss(n) => 8 + usize::from(n.clamp(1, 3)),
                };
                base + if best { 7 } else { 0 }
            }
            (Cell::Taken(Player::X), false, _) => 1,
            (Cell::Taken(Player::O), false, _) => 2,
            (Cell::Taken(Player::X), true, _) => 3,
            (Cell::Taken(Player::O), true, _) => 4,
        }
    }
}

/// One board's screen: a page on the web, a page in a book.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Screen {
    /// This screen's own address.
    pub target: Target,
    /// The position.
    pub board: Board,
    /// "X to move", "You win", ...
    pub heading: String,
    /// Lines of text after the heading ("The computer played top right.").
    pub lines: Vec<String>,
    /// The nine squares in reading order.
    pub squares: [SquareView; 9],
    /// Links such as "New game". Books show them once the game is over,
    /// and only [`Link::Here`] ones.
    pub nav: Vec<(Link, &'static str)>,
}

impl Screen {
    /// A screen of `board` at `target`: every empty square of a game in play
    /// links where `link` says, labelled with the move it makes.
    pub fn new(
        target: Target,
        board: Board,
        heading: String,
        link: impl Fn(Square) -> Option<Target>,
    ) -> Screen {
        let line = match board.status() {
            Status::Won { line, .. } => line,
            _ => Default::default(),
        };
        let mover = board.to_move();
        let legal = board.legal_moves();
        let squares = Square::ALL.map(|square| {
            let cell = board.cell(square);
            let highlight = line.contains(square);
            let link = if legal.contains(square) {
                link(square)
            } else {
                None
            };
            let kind = match (cell, link) {
                (Cell::Empty, Some(_)) => mover as usize,
                (Cell::Empty, None) => 2,
                (Cell::Taken(p), _) => 3 + p as usize + if highlight { 2 } else { 0 },
            };
            let label = Cow::Borrowed(labels()[square.index()][kind].as_str());
            SquareView {
                square,
                cell,
                highlight,
                link,
                label,
                note: None,
            }
        });
        let lines = if !board.is_over() && board.is_dead() {
            vec![DEAD_LINE.to_string()]
        } else {
            Vec::new()
        };
        Screen {
            target,
            board,
            heading,
            lines,
            squares,
            nav: Vec::new(),
        }
    }

    /// The squares in rows of three, top row first.
    pub fn rows(&self) -> std::slice::Chunks<'_, SquareView> {
        self.squares.chunks(3)
    }

    /// The nav links a book shows: those inside the edition, once the game
    /// is over.
    pub fn book_nav(&self) -> impl Iterator<Item = (Target, &'static str)> + '_ {
        let over = self.board.is_over();
        self.nav.iter().filter_map(move |(link, words)| match link {
            Link::Here(t) if over => Some((*t, *words)),
            _ => None,
        })
    }
}

/// "X to move", "X wins", "O wins" or "Draw": the heading of a two-player
/// board.
pub fn two_player_heading(board: Board) -> String {
    match board.status() {
        Status::InPlay(p) => format!("{} to move", p.letter()),
        Status::Won { winner, .. } => format!("{} wins", winner.letter()),
        Status::Draw => draw_heading(board),
    }
}

/// A board's title in words, for the browser's tab and history list and
/// for screen readers: "X to move: X top left, O centre - Tic-tac-toe" while
/// the game goes on, "X wins - Tic-tac-toe" once it is over.
pub fn spoken_title(board: Board) -> String {
    let mut out = String::with_capacity(80);
    push_spoken_title(&mut out, board);
    out
}

/// [`spoken_title`], onto `out`: every board page writes one.
pub fn push_spoken_title(out: &mut String, board: Board) {
    out.push_str(&two_player_heading(board));
    if !board.is_over() {
        let mut first = true;
        for s in Square::ALL {
            if let Cell::Taken(p) = board.cell(s) {
                out.push_str(if first { ": " } else { ", " });
                out.push_str(p.letter());
                out.push(' ');
                out.push_str(s.name());
                first = false;
            }
        }
    }
    out.push_str(" - Tic-tac-toe");
}

/// "Draw" on a full board; an early draw says why the game stopped.
pub fn draw_heading(board: Board) -> String {
    if board.marks() < 9 {
        "Draw: no one can make three in a row now".to_string()
    } else {
        "Draw".to_string()
    }
}

/// The line on a board still in play where nobody can win (without the
/// early-draw rule, such games go on).
pub const DEAD_LINE: &str = "No one can make three in a row any more.";

/// A whole edition: its screens in book order, and what the home page and
/// the book's opening page say of it.
#[derive(Clone, Debug)]
pub struct Edition {
    /// Its web folder and the stem of its books' names: `two-player`.
    pub slug: &'static str,
    /// A short name for the home page and the book list: "Two players".
    pub name: &'static str,
    /// The books' title.
    pub title: &'static str,
    /// What it is, for the home page and the book's opening page.
    pub about: &'static str,
    /// Where to start: a line and the screen it leads to.
    pub contents: Vec<(String, Target)>,
    /// Every screen, in book order.
    pub screens: Vec<Screen>,
    /// Files beside the web pages, such as `positions.json`.
    pub files: Vec<OutFile>,
}

impl Edition {
    /// The web folder of a game: `two-player`, `vs-computer/3`.
    pub fn web_dir(&self, game: u16) -> String {
        match game {
            0 => self.slug.to_string(),
            n => format!("{}/{n}", self.slug),
        }
    }

    /// The stem of the books' file names: `tictactoe-two-player`.
    pub fn book_stem(&self) -> String {
        format!("tictactoe-{}", self.slug)
    }

    /// The square images the screens use, in [`IMAGES`] order.
    pub fn images(&self) -> Vec<&'static str> {
        let mut used = [false; IMAGES.len()];
        for s in self.screens.iter().flat_map(|s| &s.squares) {
            let name = s.image();
            used[IMAGES.iter().position(|n| *n == name).expect("an image")] = true;
        }
        IMAGES
            .iter()
            .zip(used)
            .filter(|(_, u)| *u)
            .map(|(n, _)| *n)
            .collect()
    }

    /// The edition as a book shows it: the nav a book keeps (links of
    /// the edition, once a game is over), and each set of identical
    /// screens as one screen. Screens are identical when their board,
    /// words and links are, links compared after merging; so two games
    /// that end alike share their last pages. Square links always add
    /// marks, so one pass from the fullest boards down finds every merge.
    ///
    /// An edition of one game holds each board once, so nothing merges and
    /// it is its own book (formats keep only [`Screen::book_nav`]).
    pub fn for_books(&self) -> Cow<'_, Edition> {
        let one_game = self
            .screens
            .iter()
            .all(|s| matches!(s.target, Target::Board { game: 0, .. }));
        if one_game {
            return Cow::Borrowed(self);
        }
        let mut order: Vec<usize> = (0..self.screens.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.screens[i].board.marks()));
        let mut merged: FastMap<Target, Target> = FastMap::default();
        let mut kept = vec![None; self.screens.len()];
        let mut seen: FastMap<Screen, Target> = FastMap::default();
        for i in order {
            let old = &self.screens[i];
            let follow = |t: Target| merged.get(&t).copied().unwrap_or(t);
            let mut s = old.clone();
            s.nav = old
                .book_nav()
                .map(|(t, words)| (Link::Here(follow(t)), words))
                .collect();
            for square in &mut s.squares {
                square.link = square.link.map(follow);
            }
            s.target = Target::Contents;
            let canonical = *seen.entry(s.clone()).or_insert(old.target);
            merged.insert(old.target, canonical);
            if canonical == old.target {
                s.target = old.target;
                kept[i] = Some(s);
            }
        }
        // A link to a screen merged after the linking screen was looked
        // at (only ever a nav link back up) still lands on the one kept.
        let follow = |t: Target| merged.get(&t).copied().unwrap_or(t);
        for s in kept.iter_mut().flatten() {
            for square in &mut s.squares {
                square.link = square.link.map(follow);
            }
            for (link, _) in &mut s.nav {
                if let Link::Here(t) = link {
                    *t = follow(*t);
                }
            }
        }
        Cow::Owned(Edition {
            contents: self
                .contents
                .iter()
                .map(|(line, t)| (line.clone(), follow(*t)))
                .collect(),
            screens: kept.into_iter().flatten().collect(),
            files: Vec::new(),
            ..*self
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn image_names_are_distinct_and_rows_are_three() {
        let mut names = IMAGES.to_vec();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), IMAGES.len());
        let s = Screen::new(Target::Contents, Board::EMPTY, String::new(), |_| None);
        assert_eq!(s.rows().count(), 3);
        assert!(s.rows().all(|r| r.len() == 3));
    }
}
