//! A chess challenge as a [`Game`]: mate in N against a perfect defender
//! ([`Challenge`]), drawn as a board of 64 squares with the files' letters
//! under it, a move tapped in two (a white piece, then its square), in a
//! chess player's words ("e1: white king", "d7: move the rook here",
//! "Black played Kd7.").
//!
//! Invariant: every state of a challenge has its own key, and each of its
//! two picked views the next two keys; a square's image is its content
//! ([`Content`]) times two plus its shade, so the pictures of both shades
//! sit side by side in [`IMAGES`], except on the a-file, where every
//! content has a picture of each rank, its digit in the corner, after the
//! files' letters.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::sync::LazyLock;

use super::challenge::{self, Challenge, End};
use super::{Ending, Move, Position, Square};
use crate::game::{Face, Game, Note, Outcome, Side, Texts, Verdict};

/// What a square shows, its index in [`IMAGES`] over two (the shade is
/// the low bit; on the a-file, see [`image`]): the order `draw-images`
/// draws them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Content {
    /// Nothing.
    Empty = 0,
    /// The white king (then the queen and the rook: the piece is the
    /// king's content plus one or two).
    King = 1,
    /// The black king.
    BlackKing = 4,
    /// The white king, picked up (the queen and the rook follow it).
    KingPicked = 5,
    /// A square the picked piece may go to.
    Target = 8,
    /// The white king framed as the best piece to move (then the queen
    /// and the rook).
    KingBest = 9,
    /// A move too slow to mate in time.
    TooSlow = 12,
    /// A move that draws.
    Draws = 13,
    /// The black king, mated.
    Mated = 14,
    /// Mate in 1 (to [`MAX_LEFT`](challenge::MAX_LEFT)), then the same
    /// framed as best.
    MateIn1 = 15,
}

/// How many squares a "mate in N" picture is drawn for: 1 to 31.
const MATES: usize = challenge::MAX_LEFT as usize;

/// The image of `content` (plus `offset`, for a piece after the king or
/// a mate after 1) on `square`: on the a-file, every content has the
/// rank's digit in its corner, a mate's "#N" too, so the ranks stay on
/// the board's left edge as a chess player reads them when the rook on
/// the a-file is picked up. (A book carries only the pictures it shows:
/// the KRK analysis 78 of the a-file's 496 "#N", 38 KB more as MOBI and
/// 50 KB as EPUB.)
fn image(content: Content, offset: usize, square: Square) -> usize {
    let content = content as usize + offset;
    if square.file() == 0 {
        RANKED + content * 8 + usize::from(square.rank())
    } else {
        content * 2 + shade(square)
    }
}

/// The first file letter's image, after every square's.
const FILE_LETTERS: usize = (Content::MateIn1 as usize + 2 * MATES) * 2;

/// The first of the a-file's pictures with the rank's digit: each content
/// on ranks 1 to 8, after the file letters.
const RANKED: usize = FILE_LETTERS + 8;

/// The rows of squares: eight, with the file letters' row under them.
const RANKS: usize = 8;

/// The reading-order cell of a square: a8 is 0, h1 is 63.
fn cell_of(square: Square) -> usize {
    (7 - usize::from(square.rank())) * 8 + usize::from(square.file())
}

/// The square of a cell, if it is one (not a file letter).
fn square_of(cell: usize) -> Option<Square> {
    (cell < 64).then(|| Square::at((cell % 8) as u8, 7 - (cell / 8) as u8).expect("on the board"))
}

/// A square's shade: 1 for a dark square (a1 is dark), 0 for a light one.
fn shade(square: Square) -> usize {
    usize::from((square.file() + square.rank()).is_multiple_of(2))
}

/// Which ending a [`Mate`] plays, and its words: one type an ending, so
/// each has its own titles, book names and cover.
pub trait Kind:
    Copy + Eq + Ord + std::hash::Hash + fmt::Debug + Default + Send + Sync + 'static
{
    /// The ending.
    const ENDING: Ending;
    /// Its words.
    const TEXTS: Texts;
}

/// King and queen against king.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Queen;

/// King and rook against king.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rook;

/// The words of both endings, `$piece` the white piece's name and
/// `$castling` what the rules say of castling, if anything (a player
/// given Ke1 and Ra1 would look for 0-0-0).
macro_rules! texts {
    ($title:literal, $piece:literal, $castling:literal) => {
        Texts {
            title: $title,
            stem: "chess",
            rules: concat!(
                "White has a king and a ",
                $piece,
                ", Black a lone king",
                $castling,
                ". Mate within the moves each page gives, against a perfect \
defender: Black always puts mate off longest. Select a white piece, then the square it goes to; \
select the piece again to let it go, or the other piece instead. A move too slow to mate in \
time, one that stalemates Black, or one that leaves the ",
                $piece,
                " to be taken ends the try. To take a move back, go back."
            ),
            paper_rules: concat!(
                "White has a king and a ",
                $piece,
                ", Black a lone king",
                $castling,
                ". Mate within the moves each page gives, against a perfect \
defender: Black always puts mate off longest. Each white piece prints the number of the page \
where it is picked up, and each square it may go to the page after that move (on a screen, each \
is also a link). To take a move back, turn back to the page you came from."
            ),
            play_about: "Mate in N against a perfect defender: every position is a page, and a \
move is two taps, the piece and then its square.",
            play_start: "Start the challenge",
            analysis_about: "Every square a selected piece may go to says what that move is \
worth: #7 is mate in 7, ½ a draw, a cross too slow to mate in time. The best moves are framed, \
and the heading gives mate in N with best play.",
            analysis_start: "Start the challenge",
            play_name: $title,
            play_title: $title,
            analysis_name: concat!($title, ", analysed"),
            again: "Start again",
        }
    };
}

impl Kind for Queen {
    const ENDING: Ending = Ending::Kqk;
    const TEXTS: Texts = texts!("Mate with King and Queen", "queen", "");
}

impl Kind for Rook {
    const ENDING: Ending = Ending::Krk;
    const TEXTS: Texts = texts!(
        "Mate with King and Rook",
        "rook",
        ", and White may not castle"
    );
}

/// A challenge's rules for ending `K`: its default is the ending's
/// default challenge ([`challenge::Rules::default_for`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MateRules<K> {
    /// The start, the spare moves and the seed; the start is of `K`'s
    /// ending.
    pub rules: challenge::Rules,
    kind: PhantomData<K>,
}

impl<K: Kind> MateRules<K> {
    /// `rules`, if its start is `K`'s ending and starts a challenge.
    pub fn new(rules: challenge::Rules) -> Result<MateRules<K>, challenge::StartError> {
        if rules.start.ending() != K::ENDING {
            return Err(challenge::StartError::Ending(K::ENDING));
        }
        Challenge::new(rules)?;
        Ok(MateRules {
            rules,
            kind: PhantomData,
        })
    }
}

impl<K: Kind> Default for MateRules<K> {
    fn default() -> Self {
        MateRules::new(challenge::Rules::default_for(K::ENDING, 0)).expect("a default start")
    }
}

/// Mate in N with `K`'s ending, as a game: a [`Challenge`] state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mate<K> {
    challenge: Challenge,
    kind: PhantomData<K>,
}

/// Why [`Mate::play`] refused a move: it is not one of the challenge's
/// moves here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAMove(pub Move);

impl fmt::Display for NotAMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a move of the challenge here", self.0)
    }
}

impl std::error::Error for NotAMove {}

/// "1 move" or "8 moves".
fn moves_word(n: u8) -> String {
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
    }
}

impl<K: Kind> Mate<K> {
    /// The challenge state.
    pub fn challenge(self) -> Challenge {
        self.challenge
    }

    fn of(challenge: Challenge) -> Mate<K> {
        Mate {
            challenge,
            kind: PhantomData,
        }
    }

    fn position(self) -> Position {
        self.challenge.position()
    }

    /// The squares the piece on `from` may go to, as a bitboard: the
    /// targets of its [`Challenge::moves`] (none once it is over), asked
    /// of every square of a picked piece's page, so read off the
    /// position's bitboards rather than listed.
    fn targets(self, from: Square) -> u64 {
        if self.challenge.end().is_some() {
            return 0;
        }
        self.position().targets(from)
    }

    /// What stands on `square`, with `picked` picked up: the content, its
    /// offset (the piece after the king), and which of [`WHAT`] it is.
    fn content(self, picked: Option<usize>, square: Square) -> (Content, usize, usize) {
        let p = self.position();
        let lifted = picked == Some(cell_of(square));
        if square == p.white_king() {
            let c = if lifted {
                Content::KingPicked
            } else {
                Content::King
            };
            (c, 0, 1)
        } else if Some(square) == p.piece() {
            let c = if lifted {
                Content::KingPicked
            } else {
                Content::King
            };
            let offset = 1 + K::ENDING as usize;
            (c, offset, 1 + offset)
        } else if square == p.black_king() {
            let mated = self.challenge.end() == Some(End::Mated);
            let c = if mated {
                Content::Mated
            } else {
                Content::BlackKing
            };
            (c, 0, 4)
        } else {
            let target = picked
                .and_then(square_of)
                .is_some_and(|from| self.targets(from) & 1 << square.index() != 0);
            let c = if target {
                Content::Target
            } else {
                Content::Empty
            };
            (c, 0, 0)
        }
    }

    /// The name of the white piece on `square`: "king", "queen", "rook".
    fn piece_name(self, square: Square) -> &'static str {
        if square == self.position().white_king() {
            "king"
        } else {
            K::ENDING.piece_name()
        }
    }
}

/// What may stand on a square, in words.
const WHAT: [&str; 5] = [
    "empty",
    "white king",
    "white queen",
    "white rook",
    "black king",
];

/// A square's words, each made once a run and shared by every screen:
/// made for each cell, a board's would be 72 strings a screen.
struct Words {
    /// "e1: white king", for each of [`WHAT`].
    label: [String; 5],
    /// "e1: white king, selected (...)", for the king, queen and rook.
    selected: [String; 3],
    /// "d7: move the king here", for the king, queen and rook.
    target: [String; 3],
}

/// Every square's [`Words`], in reading order.
static WORDS: LazyLock<Vec<Words>> = LazyLock::new(|| {
    SQUARES
        .iter()
        .map(|name| Words {
            label: WHAT.map(|what| format!("{name}: {what}")),
            selected: [1, 2, 3].map(|what| {
                format!(
                    "{name}: {}, selected (select it again to let it go)",
                    WHAT[what]
                )
            }),
            target: ["king", "queen", "rook"].map(|piece| format!("{name}: move the {piece} here")),
        })
        .collect()
});

/// Each state a key of its own, times three: the state's own page, then
/// its king's and its piece's picked up.
const VIEWS: u32 = 3;

/// The key of a state before the views: the three pieces' squares, the
/// moves left, and which of the four kinds of state it is.
fn state_key(c: Challenge) -> u32 {
    let slot = match c.end() {
        None => 0,
        Some(End::Mated | End::Stalemate) => 1,
        Some(End::TooSlow) => 2,
        Some(End::Taken) => 3,
    };
    let p = c.position();
    let piece = p.piece().expect("a state's position has the white piece");
    let squares = (p.white_king().index() * 64 + piece.index()) * 64 + p.black_king().index();
    ((squares as u32 * 32 + u32::from(c.left())) * 4 + slot) * VIEWS
}

/// What a lost try's page says of the board it shows, the start. With the
/// line before it, two lines of caption at most, as every other page's
/// words: a longer one would take a line from every board of the book on
/// a landscape page (the EPUB keeps room below the board for the longest
/// caption).
const AGAIN: &str = "Back at the start: select a white piece.";

impl<K: Kind> Game for Mate<K> {
    type Move = Move;
    type Rules = MateRules<K>;
    type Error = NotAMove;

    const PLAYERS: u8 = 1;
    const IMAGES: &'static [&'static str] = IMAGES;
    const KEYS: u32 = 64 * 64 * 64 * 32 * 4 * VIEWS;
    const TEXTS: Texts = K::TEXTS;
    const LARGE_BOOKS: bool = true;
    /// A tap on the other white piece picks it up instead: the king and
    /// the queen or rook never go to each other's square.
    const REPICK: bool = true;
    /// Squares are numbered in reading order, a8 first.
    const CELL_NOTE: Option<&'static str> =
        Some("square 0 is a8, 7 is h8, 56 is a1 and 63 is h1; cells 64 to 71 are the file letters");

    /// # Panics
    /// If `rules` do not start a challenge: [`MateRules::new`] checks them.
    fn start(rules: MateRules<K>) -> Self {
        Mate::of(Challenge::new(rules.rules).expect("rules checked by MateRules::new"))
    }

    fn moves(self) -> impl Iterator<Item = Move> {
        self.challenge.moves()
    }

    fn play(self, mov: Move) -> Result<Self, NotAMove> {
        self.challenge.play(mov).map(Mate::of).ok_or(NotAMove(mov))
    }

    fn mover(self) -> Side {
        Side::First
    }

    /// Mate solves it; a stalemate or the piece taken is a draw; too slow
    /// is lost, the defender's win.
    fn outcome(self) -> Option<Outcome> {
        self.challenge.end().map(|end| match end {
            End::Mated => Outcome::Solved,
            End::Stalemate | End::Taken => Outcome::Draw,
            End::TooSlow => Outcome::Won(Side::Second),
        })
    }

    fn key(self) -> u32 {
        state_key(self.challenge)
    }

    /// A try lost (too slow, or the piece taken) shows the start, its
    /// pieces to pick up again.
    fn again(self) -> Option<Self> {
        self.challenge.again().map(Mate::of)
    }

    fn piece(mov: Move) -> Option<usize> {
        Some(cell_of(mov.from))
    }

    fn cell(mov: Move) -> usize {
        cell_of(mov.to)
    }

    /// The white king and the white piece, while the challenge goes on.
    fn pieces(self) -> impl Iterator<Item = usize> {
        let p = self.position();
        let open = self.challenge.end().is_none();
        [Some(p.white_king()), p.piece()]
            .into_iter()
            .flatten()
            .filter(move |_| open)
            .map(cell_of)
    }

    fn picked_key(self, cell: usize) -> u32 {
        let king = cell == cell_of(self.position().white_king());
        self.key() + if king { 1 } else { 2 }
    }

    fn grid(self) -> (usize, usize) {
        (RANKS + 1, 8)
    }

    /// Eight square rows and the file letters' strip, 28 high to a
    /// square's 100.
    fn aspect(self) -> f64 {
        (RANKS as f64 * 100.0 + 28.0) / 800.0
    }

    fn face(self, picked: Option<usize>, index: usize) -> Face {
        let Some(square) = square_of(index) else {
            let file = index - 64;
            return Face {
                image: FILE_LETTERS + file,
                label: Cow::Borrowed(FILES[file]),
                action: None,
            };
        };
        let (content, offset, what) = self.content(picked, square);
        let words = &WORDS[index];
        let action = match content {
            Content::King => Some(&words.label[what]),
            Content::KingPicked => Some(&words.selected[what - 1]),
            Content::Target => {
                let from = square_of(picked.expect("a target of a picked piece"))
                    .expect("a piece on a square");
                let piece = if from == self.position().white_king() {
                    0
                } else {
                    1 + K::ENDING as usize
                };
                Some(&words.target[piece])
            }
            _ => None,
        };
        Face {
            image: image(content, offset, square),
            label: Cow::Borrowed(words.label[what].as_str()),
            action: action.map(|a| Cow::Borrowed(a.as_str())),
        }
    }

    /// A piece to pick, framed if its best move is best; a square it may
    /// go to, "#N" for mate in N (framed if best), ½ for a draw, a cross
    /// for too slow; the piece picked up stays as it is.
    fn noted_image(self, picked: Option<usize>, index: usize, note: Note) -> usize {
        let square = square_of(index).expect("a choice is on a square");
        let (content, offset, _) = self.content(picked, square);
        match (content, note.verdict) {
            (Content::King, _) if note.best => image(Content::KingBest, offset, square),
            (Content::Target, Verdict::Win(n)) => {
                let n = usize::from(n).clamp(1, MATES);
                let best = if note.best { MATES } else { 0 };
                image(Content::MateIn1, n - 1 + best, square)
            }
            (Content::Target, Verdict::Draw) => image(Content::Draws, 0, square),
            (Content::Target, Verdict::Loss(_)) => image(Content::TooSlow, 0, square),
            _ => image(content, offset, square),
        }
    }

    /// The square it goes to: "d7".
    fn move_name(mov: Move) -> &'static str {
        SQUARES[cell_of(mov.to)]
    }

    fn cell_name(cell: usize) -> &'static str {
        SQUARES.get(cell).copied().unwrap_or(FILES[cell % 8])
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "White",
            Side::Second => "Black",
        }
    }

    /// "mate in 7", "draw", "too slow".
    fn push_verdict(verdict: Verdict, out: &mut String) {
        use std::fmt::Write as _;
        let _ = match verdict {
            Verdict::Win(n) => write!(out, "mate in {n}"),
            Verdict::Draw => out.write_str("draw"),
            Verdict::Loss(_) => out.write_str("too slow"),
        };
    }

    /// Mate, a draw, or too slow: as the moves into each say it.
    fn result_words(outcome: Outcome) -> Cow<'static, str> {
        match outcome {
            Outcome::Solved => "mate".into(),
            Outcome::Draw => "draw".into(),
            Outcome::Won(_) => "too slow".into(),
        }
    }

    /// "8 moves left: mate in 7 with best play".
    fn analysis_heading(self, _picked: Option<usize>, value: &str) -> String {
        format!(
            "{} left: {value} with best play",
            moves_word(self.challenge.left())
        )
    }

    fn heading(self, picked: Option<usize>) -> String {
        let left = self.challenge.left();
        match (self.challenge.end(), picked.and_then(square_of)) {
            (Some(End::Mated), _) => "Checkmate".to_string(),
            (Some(End::Stalemate), _) => "Stalemate: a draw".to_string(),
            (Some(End::Taken), _) => format!("Draw: Black took the {}", K::ENDING.piece_name()),
            (Some(End::TooSlow), _) => "Too slow".to_string(),
            (None, None) => format!("Mate within {}: select a white piece", moves_word(left)),
            (None, Some(from)) => {
                format!(
                    "Mate within {}: select where the {} goes",
                    moves_word(left),
                    self.piece_name(from)
                )
            }
        }
    }

    /// "White: king e1, queen d1. Black: king e8. Mate within 8 moves", the piece
    /// picked up after it.
    fn push_title(self, picked: Option<usize>, out: &mut String) {
        use std::fmt::Write as _;
        let p = self.position();
        match self.challenge.end() {
            Some(End::TooSlow) => out.push_str("Too slow"),
            Some(End::Taken) => {
                out.push_str("Draw: Black took the ");
                out.push_str(K::ENDING.piece_name());
            }
            end => {
                let piece = p.piece().expect("the piece, until taken");
                let _ = write!(
                    out,
                    "White: king {}, {} {}. Black: king {}",
                    p.white_king(),
                    K::ENDING.piece_name(),
                    piece,
                    p.black_king()
                );
                let _ = match end {
                    Some(End::Mated) => out.write_str(". Checkmate"),
                    Some(_) => out.write_str(". Stalemate"),
                    None => write!(out, ". Mate within {}", moves_word(self.challenge.left())),
                };
                if let Some(from) = picked.and_then(square_of) {
                    let _ = write!(out, ", the {} selected", self.piece_name(from));
                }
            }
        }
        out.push_str(" - ");
        out.push_str(K::TEXTS.title);
    }

    fn remark(self) -> Option<Cow<'static, str>> {
        let c = self.challenge;
        Some(Cow::Owned(match c.end() {
            None if c.black_moved() => format!("Black played K{}.", c.position().black_king()),
            None => return None,
            Some(End::Mated) => format!(
                "You mated in {}; you had {}.",
                moves_word(c.total() - c.left()),
                c.total()
            ),
            Some(End::Stalemate) => "Black's king is not in check and has no move.".to_string(),
            Some(End::Taken) => format!(
                "Black's king took the {}; a king alone cannot mate. {AGAIN}",
                K::ENDING.piece_name()
            ),
            Some(End::TooSlow) => {
                format!("Against best defence you can no longer mate in time. {AGAIN}")
            }
        }))
    }

    /// The board as a FEN's first field, the moves left, and the square
    /// of the piece picked up after a `^`: `4k3/8/8/8/8/8/8/3QK3 8 ^d1`;
    /// or `too slow`, `taken`.
    fn text(self, picked: Option<usize>) -> String {
        let c = self.challenge;
        match c.end() {
            Some(End::TooSlow) => return "too slow".to_string(),
            Some(End::Taken) => return "taken".to_string(),
            _ => {}
        }
        let fen = c.position().fen();
        let board = fen.split(' ').next().unwrap_or_default();
        let mut out = format!("{board} {}", c.left());
        if let Some(square) = picked.and_then(square_of) {
            out.push_str(" ^");
            out.push_str(&square.to_string());
        }
        out
    }
}

/// The file letters' labels.
const FILES: [&str; 8] = [
    "file a", "file b", "file c", "file d", "file e", "file f", "file g", "file h",
];
/// Every image a chess board shows, each [`Content`] on both shades, then the
/// file letters under the board, then the a-file's squares with their
/// rank's digit (`ca` + the rank + the content: `ca8e`, `ca1k`).
pub const IMAGES: &[&str] = &[
    "cel", "ced", "ckl", "ckd", "cql", "cqd", "crl", "crd", "cbl", "cbd", "cksl", "cksd", "cqsl",
    "cqsd", "crsl", "crsd", "ctl", "ctd", "ckbl", "ckbd", "cqbl", "cqbd", "crbl", "crbd", "cxl",
    "cxd", "chl", "chd", "cbml", "cbmd", "cm1l", "cm1d", "cm2l", "cm2d", "cm3l", "cm3d", "cm4l",
    "cm4d", "cm5l", "cm5d", "cm6l", "cm6d", "cm7l", "cm7d", "cm8l", "cm8d", "cm9l", "cm9d",
    "cm10l", "cm10d", "cm11l", "cm11d", "cm12l", "cm12d", "cm13l", "cm13d", "cm14l", "cm14d",
    "cm15l", "cm15d", "cm16l", "cm16d", "cm17l", "cm17d", "cm18l", "cm18d", "cm19l", "cm19d",
    "cm20l", "cm20d", "cm21l", "cm21d", "cm22l", "cm22d", "cm23l", "cm23d", "cm24l", "cm24d",
    "cm25l", "cm25d", "cm26l", "cm26d", "cm27l", "cm27d", "cm28l", "cm28d", "cm29l", "cm29d",
    "cm30l", "cm30d", "cm31l", "cm31d", "cm1bl", "cm1bd", "cm2bl", "cm2bd", "cm3bl", "cm3bd",
    "cm4bl", "cm4bd", "cm5bl", "cm5bd", "cm6bl", "cm6bd", "cm7bl", "cm7bd", "cm8bl", "cm8bd",
    "cm9bl", "cm9bd", "cm10bl", "cm10bd", "cm11bl", "cm11bd", "cm12bl", "cm12bd", "cm13bl",
    "cm13bd", "cm14bl", "cm14bd", "cm15bl", "cm15bd", "cm16bl", "cm16bd", "cm17bl", "cm17bd",
    "cm18bl", "cm18bd", "cm19bl", "cm19bd", "cm20bl", "cm20bd", "cm21bl", "cm21bd", "cm22bl",
    "cm22bd", "cm23bl", "cm23bd", "cm24bl", "cm24bd", "cm25bl", "cm25bd", "cm26bl", "cm26bd",
    "cm27bl", "cm27bd", "cm28bl", "cm28bd", "cm29bl", "cm29bd", "cm30bl", "cm30bd", "cm31bl",
    "cm31bd", "fa", "fb", "fc", "fd", "fe", "ff", "fg", "fh", "ca1e", "ca2e", "ca3e", "ca4e",
    "ca5e", "ca6e", "ca7e", "ca8e", "ca1k", "ca2k", "ca3k", "ca4k", "ca5k", "ca6k", "ca7k", "ca8k",
    "ca1q", "ca2q", "ca3q", "ca4q", "ca5q", "ca6q", "ca7q", "ca8q", "ca1r", "ca2r", "ca3r", "ca4r",
    "ca5r", "ca6r", "ca7r", "ca8r", "ca1b", "ca2b", "ca3b", "ca4b", "ca5b", "ca6b", "ca7b", "ca8b",
    "ca1ks", "ca2ks", "ca3ks", "ca4ks", "ca5ks", "ca6ks", "ca7ks", "ca8ks", "ca1qs", "ca2qs",
    "ca3qs", "ca4qs", "ca5qs", "ca6qs", "ca7qs", "ca8qs", "ca1rs", "ca2rs", "ca3rs", "ca4rs",
    "ca5rs", "ca6rs", "ca7rs", "ca8rs", "ca1t", "ca2t", "ca3t", "ca4t", "ca5t", "ca6t", "ca7t",
    "ca8t", "ca1kb", "ca2kb", "ca3kb", "ca4kb", "ca5kb", "ca6kb", "ca7kb", "ca8kb", "ca1qb",
    "ca2qb", "ca3qb", "ca4qb", "ca5qb", "ca6qb", "ca7qb", "ca8qb", "ca1rb", "ca2rb", "ca3rb",
    "ca4rb", "ca5rb", "ca6rb", "ca7rb", "ca8rb", "ca1x", "ca2x", "ca3x", "ca4x", "ca5x", "ca6x",
    "ca7x", "ca8x", "ca1h", "ca2h", "ca3h", "ca4h", "ca5h", "ca6h", "ca7h", "ca8h", "ca1bm",
    "ca2bm", "ca3bm", "ca4bm", "ca5bm", "ca6bm", "ca7bm", "ca8bm", "ca1m1", "ca2m1", "ca3m1",
    "ca4m1", "ca5m1", "ca6m1", "ca7m1", "ca8m1", "ca1m2", "ca2m2", "ca3m2", "ca4m2", "ca5m2",
    "ca6m2", "ca7m2", "ca8m2", "ca1m3", "ca2m3", "ca3m3", "ca4m3", "ca5m3", "ca6m3", "ca7m3",
    "ca8m3", "ca1m4", "ca2m4", "ca3m4", "ca4m4", "ca5m4", "ca6m4", "ca7m4", "ca8m4", "ca1m5",
    "ca2m5", "ca3m5", "ca4m5", "ca5m5", "ca6m5", "ca7m5", "ca8m5", "ca1m6", "ca2m6", "ca3m6",
    "ca4m6", "ca5m6", "ca6m6", "ca7m6", "ca8m6", "ca1m7", "ca2m7", "ca3m7", "ca4m7", "ca5m7",
    "ca6m7", "ca7m7", "ca8m7", "ca1m8", "ca2m8", "ca3m8", "ca4m8", "ca5m8", "ca6m8", "ca7m8",
    "ca8m8", "ca1m9", "ca2m9", "ca3m9", "ca4m9", "ca5m9", "ca6m9", "ca7m9", "ca8m9", "ca1m10",
    "ca2m10", "ca3m10", "ca4m10", "ca5m10", "ca6m10", "ca7m10", "ca8m10", "ca1m11", "ca2m11",
    "ca3m11", "ca4m11", "ca5m11", "ca6m11", "ca7m11", "ca8m11", "ca1m12", "ca2m12", "ca3m12",
    "ca4m12", "ca5m12", "ca6m12", "ca7m12", "ca8m12", "ca1m13", "ca2m13", "ca3m13", "ca4m13",
    "ca5m13", "ca6m13", "ca7m13", "ca8m13", "ca1m14", "ca2m14", "ca3m14", "ca4m14", "ca5m14",
    "ca6m14", "ca7m14", "ca8m14", "ca1m15", "ca2m15", "ca3m15", "ca4m15", "ca5m15", "ca6m15",
    "ca7m15", "ca8m15", "ca1m16", "ca2m16", "ca3m16", "ca4m16", "ca5m16", "ca6m16", "ca7m16",
    "ca8m16", "ca1m17", "ca2m17", "ca3m17", "ca4m17", "ca5m17", "ca6m17", "ca7m17", "ca8m17",
    "ca1m18", "ca2m18", "ca3m18", "ca4m18", "ca5m18", "ca6m18", "ca7m18", "ca8m18", "ca1m19",
    "ca2m19", "ca3m19", "ca4m19", "ca5m19", "ca6m19", "ca7m19", "ca8m19", "ca1m20", "ca2m20",
    "ca3m20", "ca4m20", "ca5m20", "ca6m20", "ca7m20", "ca8m20", "ca1m21", "ca2m21", "ca3m21",
    "ca4m21", "ca5m21", "ca6m21", "ca7m21", "ca8m21", "ca1m22", "ca2m22", "ca3m22", "ca4m22",
    "ca5m22", "ca6m22", "ca7m22", "ca8m22", "ca1m23", "ca2m23", "ca3m23", "ca4m23", "ca5m23",
    "ca6m23", "ca7m23", "ca8m23", "ca1m24", "ca2m24", "ca3m24", "ca4m24", "ca5m24", "ca6m24",
    "ca7m24", "ca8m24", "ca1m25", "ca2m25", "ca3m25", "ca4m25", "ca5m25", "ca6m25", "ca7m25",
    "ca8m25", "ca1m26", "ca2m26", "ca3m26", "ca4m26", "ca5m26", "ca6m26", "ca7m26", "ca8m26",
    "ca1m27", "ca2m27", "ca3m27", "ca4m27", "ca5m27", "ca6m27", "ca7m27", "ca8m27", "ca1m28",
    "ca2m28", "ca3m28", "ca4m28", "ca5m28", "ca6m28", "ca7m28", "ca8m28", "ca1m29", "ca2m29",
    "ca3m29", "ca4m29", "ca5m29", "ca6m29", "ca7m29", "ca8m29", "ca1m30", "ca2m30", "ca3m30",
    "ca4m30", "ca5m30", "ca6m30", "ca7m30", "ca8m30", "ca1m31", "ca2m31", "ca3m31", "ca4m31",
    "ca5m31", "ca6m31", "ca7m31", "ca8m31", "ca1m1b", "ca2m1b", "ca3m1b", "ca4m1b", "ca5m1b",
    "ca6m1b", "ca7m1b", "ca8m1b", "ca1m2b", "ca2m2b", "ca3m2b", "ca4m2b", "ca5m2b", "ca6m2b",
    "ca7m2b", "ca8m2b", "ca1m3b", "ca2m3b", "ca3m3b", "ca4m3b", "ca5m3b", "ca6m3b", "ca7m3b",
    "ca8m3b", "ca1m4b", "ca2m4b", "ca3m4b", "ca4m4b", "ca5m4b", "ca6m4b", "ca7m4b", "ca8m4b",
    "ca1m5b", "ca2m5b", "ca3m5b", "ca4m5b", "ca5m5b", "ca6m5b", "ca7m5b", "ca8m5b", "ca1m6b",
    "ca2m6b", "ca3m6b", "ca4m6b", "ca5m6b", "ca6m6b", "ca7m6b", "ca8m6b", "ca1m7b", "ca2m7b",
    "ca3m7b", "ca4m7b", "ca5m7b", "ca6m7b", "ca7m7b", "ca8m7b", "ca1m8b", "ca2m8b", "ca3m8b",
    "ca4m8b", "ca5m8b", "ca6m8b", "ca7m8b", "ca8m8b", "ca1m9b", "ca2m9b", "ca3m9b", "ca4m9b",
    "ca5m9b", "ca6m9b", "ca7m9b", "ca8m9b", "ca1m10b", "ca2m10b", "ca3m10b", "ca4m10b", "ca5m10b",
    "ca6m10b", "ca7m10b", "ca8m10b", "ca1m11b", "ca2m11b", "ca3m11b", "ca4m11b", "ca5m11b",
    "ca6m11b", "ca7m11b", "ca8m11b", "ca1m12b", "ca2m12b", "ca3m12b", "ca4m12b", "ca5m12b",
    "ca6m12b", "ca7m12b", "ca8m12b", "ca1m13b", "ca2m13b", "ca3m13b", "ca4m13b", "ca5m13b",
    "ca6m13b", "ca7m13b", "ca8m13b", "ca1m14b", "ca2m14b", "ca3m14b", "ca4m14b", "ca5m14b",
    "ca6m14b", "ca7m14b", "ca8m14b", "ca1m15b", "ca2m15b", "ca3m15b", "ca4m15b", "ca5m15b",
    "ca6m15b", "ca7m15b", "ca8m15b", "ca1m16b", "ca2m16b", "ca3m16b", "ca4m16b", "ca5m16b",
    "ca6m16b", "ca7m16b", "ca8m16b", "ca1m17b", "ca2m17b", "ca3m17b", "ca4m17b", "ca5m17b",
    "ca6m17b", "ca7m17b", "ca8m17b", "ca1m18b", "ca2m18b", "ca3m18b", "ca4m18b", "ca5m18b",
    "ca6m18b", "ca7m18b", "ca8m18b", "ca1m19b", "ca2m19b", "ca3m19b", "ca4m19b", "ca5m19b",
    "ca6m19b", "ca7m19b", "ca8m19b", "ca1m20b", "ca2m20b", "ca3m20b", "ca4m20b", "ca5m20b",
    "ca6m20b", "ca7m20b", "ca8m20b", "ca1m21b", "ca2m21b", "ca3m21b", "ca4m21b", "ca5m21b",
    "ca6m21b", "ca7m21b", "ca8m21b", "ca1m22b", "ca2m22b", "ca3m22b", "ca4m22b", "ca5m22b",
    "ca6m22b", "ca7m22b", "ca8m22b", "ca1m23b", "ca2m23b", "ca3m23b", "ca4m23b", "ca5m23b",
    "ca6m23b", "ca7m23b", "ca8m23b", "ca1m24b", "ca2m24b", "ca3m24b", "ca4m24b", "ca5m24b",
    "ca6m24b", "ca7m24b", "ca8m24b", "ca1m25b", "ca2m25b", "ca3m25b", "ca4m25b", "ca5m25b",
    "ca6m25b", "ca7m25b", "ca8m25b", "ca1m26b", "ca2m26b", "ca3m26b", "ca4m26b", "ca5m26b",
    "ca6m26b", "ca7m26b", "ca8m26b", "ca1m27b", "ca2m27b", "ca3m27b", "ca4m27b", "ca5m27b",
    "ca6m27b", "ca7m27b", "ca8m27b", "ca1m28b", "ca2m28b", "ca3m28b", "ca4m28b", "ca5m28b",
    "ca6m28b", "ca7m28b", "ca8m28b", "ca1m29b", "ca2m29b", "ca3m29b", "ca4m29b", "ca5m29b",
    "ca6m29b", "ca7m29b", "ca8m29b", "ca1m30b", "ca2m30b", "ca3m30b", "ca4m30b", "ca5m30b",
    "ca6m30b", "ca7m30b", "ca8m30b", "ca1m31b", "ca2m31b", "ca3m31b", "ca4m31b", "ca5m31b",
    "ca6m31b", "ca7m31b", "ca8m31b",
];

/// The squares' names in reading order: a8 first, h1 last.
const SQUARES: [&str; 64] = [
    "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7",
    "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5",
    "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3",
    "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editions::analysis;
    use crate::graph::StateGraph;
    use crate::solver::Solver;
    use crate::view::{self, Choice, View};

    fn solver<K: Kind>(spare: u8) -> Solver<Mate<K>> {
        let mut rules = challenge::Rules::default_for(K::ENDING, 0);
        rules.spare = spare;
        Solver::new(StateGraph::with_rules(MateRules::new(rules).unwrap()))
    }

    fn named(image: usize) -> &'static str {
        IMAGES[image]
    }

    /// `positions.json` names each finished page of a challenge as every
    /// move into it does: "too slow" and "draw" alike, and a mate "mate"
    /// (each move into it "mate in 1"); not as a game's winner.
    #[test]
    fn finished_pages_are_named_in_positions_json_as_the_moves_into_them() {
        let json = crate::editions::analysis::positions_json(&solver::<Rook>(1));
        let field = |s: &str, name: &str| {
            let at = s.rfind(&format!("\"{name}\":\""))? + name.len() + 4;
            Some(s[at..].split('"').next()?.to_string())
        };
        let mut value = std::collections::BTreeMap::new();
        let mut moves = Vec::new();
        for line in json.lines().filter(|l| l.starts_with("{\"id\"")) {
            let (position, into) = line.split_once("\"moves\":").unwrap();
            let id = position.split('"').nth(3).unwrap().to_string();
            value.insert(id, field(position, "value").unwrap());
            for m in into.split("{\"square\":").skip(1) {
                moves.push((field(m, "to").unwrap(), field(m, "value").unwrap()));
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        for (to, said) in moves {
            let there = &value[&to];
            match there.as_str() {
                "too slow" | "draw" => assert_eq!(&said, there, "a move into {to}"),
                "mate" => assert_eq!(said, "mate in 1", "a move into {to}"),
                _ => continue,
            }
            seen.insert(there.clone());
        }
        assert_eq!(
            seen.into_iter().collect::<Vec<_>>(),
            ["draw", "mate", "too slow"]
        );
    }

    /// What a square's picture shows, without its shade or rank: `x` of
    /// `cxl` and of `ca3x`.
    fn content_of(name: &str) -> &str {
        match name.strip_prefix("ca") {
            Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => &rest[1..],
            _ => &name[1..name.len() - 1],
        }
    }

    /// The solver's value of a start is its mate: KRK from Ke1 Ra1 ke8 is
    /// mate in 12 with best play, whatever the spare moves; every view has
    /// a key of its own (the walk asserts it), three a position in play.
    #[test]
    fn the_start_is_mate_in_its_distance_and_every_view_has_a_key() {
        let s = solver::<Rook>(1);
        let root = s.graph().root();
        assert_eq!(root.challenge().left(), 13);
        assert_eq!(
            Verdict::of::<Mate<Rook>>(s.score(root).unwrap()),
            Verdict::Win(12)
        );
        let views = view::breadth_first(s.graph());
        let in_play = s.graph().boards().iter().filter(|b| !b.is_over()).count();
        let over = s.graph().len() - in_play;
        assert_eq!(views.len(), 3 * in_play + over);
        eprintln!(
            "KRK, 1 spare: {} positions, {} views",
            s.graph().len(),
            views.len()
        );
    }

    /// A move too slow to mate in time is a loss, "too slow"; one that
    /// leaves the rook to be taken a draw; each is drawn as such.
    #[test]
    fn too_slow_is_a_loss_and_taken_a_draw() {
        let s = solver::<Rook>(0);
        let root = s.graph().root();
        let verdicts: Vec<Verdict> = s
            .move_scores(root)
            .into_iter()
            .map(|(_, score)| Verdict::of::<Mate<Rook>>(score))
            .collect();
        assert!(verdicts.contains(&Verdict::Win(12)));
        assert!(verdicts.contains(&Verdict::Loss(0)));
        let mut words = String::new();
        Mate::<Rook>::push_verdict(Verdict::Loss(0), &mut words);
        assert_eq!(words, "too slow");
        // Ra1-a7 hangs nothing; Ra1-e1 is not a move; Ra8+ is check.
        let b = View::of(root);
        let rook = cell_of(Square::from_name("a1").unwrap());
        let picked = View {
            position: root,
            picked: Some(rook),
        };
        assert!(b.choices().iter().any(|(c, _)| *c == rook));
        for (cell, choice) in picked.choices() {
            // The rook let go, and the king picked instead.
            if !matches!(choice, Choice::Move(_)) {
                continue;
            }
            let note = |verdict| Note {
                verdict,
                best: false,
            };
            let slow = root.noted_image(Some(rook), cell, note(Verdict::Loss(0)));
            assert_eq!(content_of(named(slow)), "x", "{}", named(slow));
            let draw = root.noted_image(Some(rook), cell, note(Verdict::Draw));
            assert_eq!(content_of(named(draw)), "h", "{}", named(draw));
        }
    }

    /// With one white piece picked up, a tap on the other picks that one
    /// up instead (no page more: the same view as its pick on the board),
    /// and the analysis weighs it as the board does. So with the king
    /// picked at KRK's start, the rook's pick is worth the position's mate
    /// in 12 and every king move less: the rook is framed as the best.
    #[test]
    fn a_tap_on_the_other_piece_picks_it_instead() {
        let s = solver::<Rook>(1);
        let root = s.graph().root();
        let cell = |name| cell_of(Square::from_name(name).unwrap());
        let (king, rook) = (cell("e1"), cell("a1"));
        let on_board = analysis::choice_verdicts(&s, View::of(root));
        let worth = |choices: &[(usize, Choice<Move>, Verdict)], at| {
            let (_, choice, verdict) = *choices.iter().find(|(c, ..)| *c == at).unwrap();
            (choice, verdict)
        };
        for (picked, other) in [(king, rook), (rook, king)] {
            let view = View {
                position: root,
                picked: Some(picked),
            };
            let choices = analysis::choice_verdicts(&s, view);
            let (choice, verdict) = worth(&choices, other);
            assert_eq!(choice, Choice::Pick(other));
            assert_eq!(
                view.after(choice),
                View {
                    picked: Some(other),
                    ..view
                }
            );
            assert_eq!(verdict, worth(&on_board, other).1);
        }
        let king_picked = View {
            position: root,
            picked: Some(king),
        };
        let choices = analysis::choice_verdicts(&s, king_picked);
        assert_eq!(worth(&choices, rook).1, Verdict::Win(12));
        let mut moves = choices
            .iter()
            .filter(|(_, c, _)| matches!(c, Choice::Move(_)));
        assert!(moves.clone().count() > 0);
        assert!(moves.all(|(_, _, v)| v.rank() < Verdict::Win(12).rank()));
    }

    /// A lost try's page (too slow, or the rook taken) says why and shows
    /// the start, each white piece a link to the start with it picked up,
    /// where the reader tries again, and in the analysis noted as there:
    /// not an empty board. A mate, a stalemate and every page in play show
    /// their own position.
    #[test]
    fn a_lost_try_shows_the_start_to_try_again_from() {
        let s = solver::<Rook>(1);
        let root = s.graph().root();
        let start = View::of(root);
        let mut lost = Vec::new();
        for &p in s.graph().boards() {
            let v = View::of(p);
            match p.challenge.end() {
                Some(End::TooSlow | End::Taken) => lost.push(v),
                _ => {
                    assert_eq!(v.board(), p);
                    continue;
                }
            }
            assert!(p.is_over());
            assert_eq!(v.board(), root);
            let faces = |v: View<Mate<Rook>>| (0..72).map(|i| v.face(i)).collect::<Vec<_>>();
            assert_eq!(faces(v), faces(start));
            let after = |v: View<Mate<Rook>>| {
                (v.choices().into_iter())
                    .map(|(cell, c)| (cell, v.after(c)))
                    .collect::<Vec<_>>()
            };
            assert_eq!(after(v), after(start));
            assert_eq!(after(v).len(), 2, "the king and the rook");
            // The analysis notes the pieces as on the start's page.
            let analysed = |v| crate::editions::analysis::screen(&s, v, 0, "krk");
            assert_eq!(analysed(v).cells, analysed(start).cells);
            let remark = p.remark().unwrap();
            assert!(remark.ends_with(AGAIN), "{remark}");
            // As short as the other pages' words: two lines of 48.
            assert!(remark.len() <= 96, "{remark}");
            assert_ne!(v.heading(), start.heading());
        }
        let ends: Vec<_> = lost.iter().map(|v| v.position.challenge.end()).collect();
        assert!(ends.contains(&Some(End::TooSlow)) && ends.contains(&Some(End::Taken)));
    }

    /// A chess player's words: "e1: white king", "d7: move the rook
    /// here", "Black played Kd7.", and a page title that names the
    /// squares.
    #[test]
    fn the_words_are_a_chess_players() {
        let s = solver::<Rook>(0);
        let root = s.graph().root();
        let e1 = cell_of(Square::from_name("e1").unwrap());
        let a1 = cell_of(Square::from_name("a1").unwrap());
        assert_eq!(
            root.face(None, e1).action.as_deref(),
            Some("e1: white king")
        );
        assert_eq!(root.face(None, e1).label, "e1: white king");
        let a7 = cell_of(Square::from_name("a7").unwrap());
        assert_eq!(
            root.face(Some(a1), a7).action.as_deref(),
            Some("a7: move the rook here")
        );
        assert_eq!(root.face(Some(a1), a7).label, "a7: empty");
        assert_eq!(root.face(None, 64).label, "file a");
        assert_eq!(
            root.heading(None),
            "Mate within 12 moves: select a white piece"
        );
        assert_eq!(
            root.heading(Some(a1)),
            "Mate within 12 moves: select where the rook goes"
        );
        assert_eq!(root.remark(), None);
        let mut title = String::new();
        root.push_title(Some(a1), &mut title);
        assert_eq!(
            title,
            "White: king e1, rook a1. Black: king e8. Mate within 12 moves, the rook selected - Mate with King and Rook"
        );
        // After a best move, Black has replied.
        let (best, _) = s
            .move_scores(root)
            .into_iter()
            .max_by_key(|(_, score)| *score)
            .unwrap();
        let next = root.play(best).unwrap();
        let bk = next.challenge().position().black_king();
        assert_eq!(
            next.remark().as_deref(),
            Some(format!("Black played K{bk}.").as_str())
        );
    }

    /// Every image a screen can show is one of [`IMAGES`], named for what
    /// it shows: the pieces, the picked piece, the targets, and in the
    /// analysis "#N" framed when best.
    #[test]
    fn each_square_shows_the_picture_of_what_is_on_it() {
        let s = solver::<Queen>(0);
        let root = s.graph().root();
        let at = |name: &str| cell_of(Square::from_name(name).unwrap());
        assert_eq!(named(root.face(None, at("e1")).image), "ckd");
        assert_eq!(named(root.face(None, at("d1")).image), "cql");
        assert_eq!(named(root.face(None, at("e8")).image), "cbl");
        assert_eq!(named(root.face(None, at("e4")).image), "cel");
        assert_eq!(named(root.face(Some(at("d1")), at("d1")).image), "cqsl");
        assert_eq!(named(root.face(Some(at("d1")), at("d7")).image), "ctl");
        assert_eq!(named(root.face(Some(at("d1")), at("d8")).image), "ctd");
        assert_eq!(named(root.face(None, 71).image), "fh");
        // The a-file carries the ranks' digits, a mate's number's too.
        assert_eq!(named(root.face(None, at("a1")).image), "ca1e");
        assert_eq!(named(root.face(None, at("a8")).image), "ca8e");
        assert_eq!(named(root.face(Some(at("d1")), at("a4")).image), "ca4t");
        for cell in 0..64 {
            let name = named(root.face(None, cell).image);
            let on_a = cell % 8 == 0;
            assert_eq!(name.starts_with("ca"), on_a, "{name}");
            if on_a {
                let rank = 8 - cell / 8;
                assert_eq!(&name[2..3], rank.to_string(), "{name}");
            }
        }
        let best = Note {
            verdict: Verdict::Win(7),
            best: true,
        };
        assert_eq!(
            named(root.noted_image(Some(at("d1")), at("d8"), best)),
            "cm7bd"
        );
        assert_eq!(
            named(root.noted_image(Some(at("d1")), at("a4"), best)),
            "ca4m7b"
        );
        assert_eq!(named(root.noted_image(None, at("d1"), best)), "cqbl");
        let won = Note {
            verdict: Verdict::Win(31),
            best: false,
        };
        assert_eq!(
            named(root.noted_image(Some(at("d1")), at("d7"), won)),
            "cm31l"
        );
        for (v, _) in view::breadth_first(s.graph()) {
            for cell in 0..72 {
                assert!(v.face(cell).image < IMAGES.len());
            }
        }
    }
}
