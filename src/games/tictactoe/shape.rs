//! Tic-tac-toe as the rest of the book sees it: [`Game`] for [`Board`],
//! with its grid of three by three, its images, its words and its labels.
//!
//! Invariant: the names of the square images and the square labels live
//! here and nowhere else.

use std::borrow::Cow;

use super::{Board, Cell, Player, Rules, Square, Status};
use crate::game::{Face, Game, MapStyle, Note, Outcome, Side, Stroke, Texts, Verdict};

/// The image of a square, without extension: the one list of image names.
/// The web uses `<name>.svg`, the books `<name>.gif`: an empty square,
/// each mark plain and in the winning line, then the analysis squares,
/// win in 1 to 3, draw and loss in 1 to 3, plain and framed as a best move,
/// then each mark framed heavily as the last move against the player (the
/// computer's, in the games against it).
pub const IMAGES: [&str; 21] = [
    "e", "x", "o", "xw", "ow", "w1", "w2", "w3", "d", "l1", "l2", "l3", "w1b", "w2b", "w3b", "db",
    "l1b", "l2b", "l3b", "xl", "ol",
];

/// The first of the last-move images in [`IMAGES`], X's then O's.
const LAST: usize = 19;

/// The squares' names, row by row, as a screen reader speaks them and a
/// sentence names them: each reads as a place on its own ("the middle
/// right square", never "played right"), so the rows and columns in the
/// middle say "middle".
pub const SQUARES: [&str; 9] = [
    "top left",
    "top middle",
    "top right",
    "middle left",
    "centre",
    "middle right",
    "bottom left",
    "bottom middle",
    "bottom right",
];

/// The rules, the first paragraph of every book's opening page.
pub const RULES: &str = "X moves first. Select an empty square to place your mark; three in a \
row wins. Each board is a page of its own, and each empty square is a link to the board \
after that move. To take a move back, go back.";

/// The line on a board still in play where nobody can win (without the
/// early-draw rule, such games go on).
pub const DEAD_LINE: &str = "No one can make three in a row any more.";

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

fn label(square: Square, kind: usize) -> Cow<'static, str> {
    Cow::Borrowed(labels()[square.index()][kind].as_str())
}

impl From<Player> for Side {
    fn from(p: Player) -> Side {
        match p {
            Player::X => Side::First,
            Player::O => Side::Second,
        }
    }
}

impl From<Side> for Player {
    fn from(s: Side) -> Player {
        match s {
            Side::First => Player::X,
            Side::Second => Player::O,
        }
    }
}

/// A board's heading onto `out`: "X to move", "O wins" or a draw's
/// ([`draw_heading`]); every page's title starts with it.
fn push_heading(board: Board, out: &mut String) {
    match board.status() {
        Status::InPlay(p) => {
            out.push_str(p.letter());
            out.push_str(" to move");
        }
        Status::Won { winner, .. } => {
            out.push_str(winner.letter());
            out.push_str(" wins");
        }
        Status::Draw => out.push_str(&draw_heading(board)),
    }
}

/// "Draw" on a full board; an early draw says why the game stopped.
pub fn draw_heading(board: Board) -> String {
    if board.marks() < 9 {
        "Draw: no one can make three in a row now".to_string()
    } else {
        "Draw".to_string()
    }
}

impl Game for Board {
    type Move = Square;
    type Rules = Rules;
    type Error = super::PlayError;

    const PLAYERS: u8 = 2;
    const IMAGES: &'static [&'static str] = &IMAGES;
    const KEYS: u32 = super::ID_LIMIT;
    const TEXTS: Texts = Texts {
        title: "Tic-tac-toe",
        stem: "tictactoe",
        rules: RULES,
        paper_rules: "X moves first. Choose an empty square to place your mark; three in a row \
wins. Each board is a page of its own, and each empty square you may choose prints the number \
of the page with the board after that move (on a screen, it is also a link). To take a move \
back, turn back to the page you came from.",
        play_about: "Play with a friend: take turns with the same screen.",
        play_start: "Start a game",
        analysis_about: "Every empty square says what that move is worth to the player \
making it, with best play from both sides: win in N, draw or loss in N, where N counts the \
winner's moves. The best moves are framed.",
        analysis_start: "Start from the empty board",
        play_name: "Tic-tac-toe for two players",
        play_title: "Tic-tac-toe for Two Players",
        analysis_name: "Tic-tac-toe, analysed",
        again: "New game",
    };
    /// The marks as the square images draw them (`x.svg`, `o.svg`).
    /// A game record ([`super::record`]) numbers the squares from 1.
    const CELL_NOTE: Option<&'static str> =
        Some("a game record numbers tic-tac-toe's squares from 1 to 9");
    const MAP: Option<MapStyle> = Some(MapStyle::Marks([
        &[Stroke::Line(27, 27, 73, 73), Stroke::Line(73, 27, 27, 73)],
        &[Stroke::Circle(50, 50, 25)],
    ]));

    fn start(rules: Rules) -> Board {
        Board::start(rules)
    }

    fn moves(self) -> impl Iterator<Item = Square> {
        self.legal_moves().iter()
    }

    fn play(self, mov: Square) -> Result<Board, super::PlayError> {
        Board::play(self, mov)
    }

    fn mover(self) -> Side {
        self.to_move().into()
    }

    fn outcome(self) -> Option<Outcome> {
        match self.status() {
            Status::InPlay(_) => None,
            Status::Won { winner, .. } => Some(Outcome::Won(winner.into())),
            Status::Draw => Some(Outcome::Draw),
        }
    }

    fn key(self) -> u32 {
        self.id()
    }

    fn grid(self) -> (usize, usize) {
        (3, 3)
    }

    fn holder(self, index: usize) -> Option<Side> {
        match self.cell(Square::ALL[index]) {
            Cell::Empty => None,
            Cell::Taken(p) => Some(p.into()),
        }
    }

    fn face(self, _: Option<usize>, index: usize) -> Face {
        let square = Square::ALL[index];
        match self.cell(square) {
            Cell::Empty => Face {
                image: 0,
                label: label(square, 2),
                action: Some(label(square, self.to_move() as usize)),
            },
            Cell::Taken(p) => {
                let line =
                    matches!(self.status(), Status::Won { line, .. } if line.contains(square));
                let kind = p as usize + if line { 2 } else { 0 };
                Face {
                    image: 1 + kind,
                    label: label(square, 3 + kind),
                    action: None,
                }
            }
        }
    }

    fn noted_image(self, _: Option<usize>, _: usize, Note { verdict, best }: Note) -> usize {
        let base = match verdict {
            Verdict::Win(n) => 4 + usize::from(n.clamp(1, 3)),
            Verdict::Draw => 8,
            Verdict::Loss(n) => 8 + usize::from(n.clamp(1, 3)),
        };
        base + if best { 7 } else { 0 }
    }

    fn cell(mov: Square) -> usize {
        mov.index()
    }

    fn move_name(mov: Square) -> &'static str {
        mov.name()
    }

    fn cell_name(cell: usize) -> &'static str {
        Square::ALL[cell].name()
    }

    /// "the middle right square", "the centre square".
    fn move_place(mov: Square) -> String {
        format!("the {} square", mov.name())
    }

    /// The mark framed heavily (`xl`, `ol`); in the winning line, the
    /// line's image, which already stands out.
    fn last_move_image(self, index: usize) -> usize {
        match self.face(None, index).image {
            i @ (1 | 2) => LAST + i - 1,
            i => i,
        }
    }

    fn side_name(side: Side) -> &'static str {
        Player::from(side).letter()
    }

    /// "X to move", "X wins", "O wins" or "Draw".
    fn heading(self, _: Option<usize>) -> String {
        let mut out = String::with_capacity(24);
        push_heading(self, &mut out);
        out
    }

    /// "X to move: X top left, O centre - Tic-tac-toe" while the game goes
    /// on, "X wins - Tic-tac-toe" once it is over: the browser's tab and
    /// history list (the back button is undo) tell positions apart.
    fn push_title(self, _: Option<usize>, out: &mut String) {
        push_heading(self, out);
        if !self.is_over() {
            let mut first = true;
            for s in Square::ALL {
                if let Cell::Taken(p) = self.cell(s) {
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

    fn remark(self) -> Option<Cow<'static, str>> {
        (!self.is_over() && self.is_dead()).then_some(Cow::Borrowed(DEAD_LINE))
    }

    /// `X`, `O` and `.`, in reading order.
    fn text(self, _: Option<usize>) -> String {
        self.cells()
            .iter()
            .map(|c| match c {
                Cell::Empty => '.',
                Cell::Taken(Player::X) => 'X',
                Cell::Taken(Player::O) => 'O',
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::{Screen, Target};
    use crate::view::View;

    /// A screen of a board in play draws it row by row: every mark where
    /// the board has it, every empty square a link labelled with the move.
    #[test]
    fn a_screen_draws_the_board_in_rows_of_three() {
        // X centre, O top left, X top right: O to move.
        let mut b = Board::EMPTY;
        for i in [4, 0, 2] {
            b = b.play(Square::new(i).unwrap()).unwrap();
        }
        let view = View::of(b);
        let s = Screen::new(Target::page(b.id()), view, 3, view.heading(), |c| {
            Some(Target::page(view.after(c).key()))
        });
        let rows: Vec<Vec<&str>> = s
            .rows()
            .map(|r| r.map(|c| IMAGES[c.look.image]).collect())
            .collect();
        assert_eq!(rows, [["o", "e", "x"], ["e", "x", "e"], ["e", "e", "e"]]);
        assert_eq!(s.cells.get(1).look.label, "top middle: place O");
        assert_eq!(s.cells.get(0).look.label, "top left: O");
        assert_eq!(s.cells.get(0).link(), None);
        let after = b.play(Square::new(8).unwrap()).unwrap();
        assert_eq!(s.cells.get(8).link(), Some(Target::page(after.id())));
        assert_eq!(
            s.title,
            "O to move: O top left, X top right, X centre - Tic-tac-toe"
        );
    }

    /// Every image name is distinct and has its drawing in `static/`.
    #[test]
    fn every_image_is_distinct_and_drawn() {
        let mut names = IMAGES.to_vec();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), IMAGES.len());
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
        for n in IMAGES {
            for ext in ["svg", "gif"] {
                assert!(dir.join(format!("{n}.{ext}")).is_file(), "{n}.{ext}");
            }
        }
    }
}
