//! The e-reader editions: one book model, written out as MOBI 6, EPUB 3 and
//! a Kindle-ready single HTML file.
//!
//! Invariant: a [`Book`] is complete before any format sees it: every link
//! target is a board of the same book (or its contents page), so each
//! writer only lays out, and never decides, what links where.

pub mod epub;
pub mod kindle_html;
pub mod mobi;
pub mod palmdoc;

use crate::board::{Board, Status, anchor};
use crate::graph::{StateGraph, moves};
use crate::html::{SquareView, squares, two_player_heading};
use crate::vs_computer::Game;

/// The images every book carries, in record order (MOBI `recindex` is this
/// position plus one). The cover comes last.
pub const IMAGES: [&str; 6] = ["e", "x", "o", "xw", "ow", "cover"];

/// Where a link inside a book goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// The opening page: rules and contents.
    Contents,
    /// A board of a game (0 in the two-player book).
    Board {
        /// The game, numbered from 1; 0 for the two-player book.
        game: u16,
        /// The board.
        board: Board,
    },
}

impl Target {
    /// The anchor name: the board id in hex (`1a2b`), prefixed with the
    /// game for the games against the computer (`g3-1a2b`).
    pub fn anchor(self) -> String {
        match self {
            Target::Contents => "contents".to_string(),
            Target::Board { game: 0, board } => anchor(board),
            Target::Board { game, board } => format!("g{game}-{}", anchor(board)),
        }
    }
}

/// One board of a book: one screen.
#[derive(Clone, Debug)]
pub struct BookBoard {
    /// This board's own address.
    pub target: Target,
    /// The position.
    pub board: Board,
    /// "X to move", "You win", ...
    pub caption: String,
    /// Where each square leads, for the empty squares of a game in play.
    pub links: [Option<Target>; 9],
    /// Links below the board ("New game").
    pub nav: Vec<(Target, &'static str)>,
}

impl BookBoard {
    /// Each square's link target, written as the format needs it.
    pub fn hrefs(&self, href: impl Fn(Target) -> String) -> [Option<String>; 9] {
        self.links.map(|l| l.map(&href))
    }

    /// The nine squares with their images and spoken labels, given the
    /// links from [`BookBoard::hrefs`].
    pub fn squares<'a>(&self, hrefs: &'a [Option<String>; 9]) -> Vec<SquareView<'a>> {
        squares(self.board, hrefs)
    }
}

/// A whole book in reading order.
#[derive(Clone, Debug)]
pub struct Book {
    /// File name stem, containing `two-player` or `vs-computer`.
    pub slug: String,
    /// The title on the cover and in the metadata.
    pub title: String,
    /// Paragraphs of the opening page, before the contents.
    pub intro: Vec<&'static str>,
    /// The contents: a line and where it leads.
    pub contents: Vec<(String, Target)>,
    /// Every board, one per screen.
    pub boards: Vec<BookBoard>,
}

/// The author named in every book's metadata.
pub const AUTHOR: &str = "tictactoe-book";

const RULES: &str = "X moves first. Select an empty square to place your mark; three in a \
row wins. Each board is a page of its own, and each empty square is a link to the board \
after that move. To take a move back, go back.";

/// The two-player book: every reachable board, breadth first from the
/// empty board, so boards a link apart sit close together.
pub fn two_player(graph: &StateGraph) -> Book {
    let new_game = Target::Board {
        game: 0,
        board: Board::EMPTY,
    };
    let boards = graph
        .breadth_first()
        .into_iter()
        .map(|board| {
            let mut links = [None; 9];
            for (square, next) in moves(board) {
                links[square.index()] = Some(Target::Board {
                    game: 0,
                    board: next,
                });
            }
            BookBoard {
                target: Target::Board { game: 0, board },
                board,
                caption: two_player_heading(board),
                links,
                nav: if board.is_over() {
                    vec![(new_game, "New game")]
                } else {
                    Vec::new()
                },
            }
        })
        .collect();
    Book {
        slug: "tictactoe-two-player".to_string(),
        title: "Tic-Tac-Toe for Two Players".to_string(),
        intro: vec![RULES, "Play with a friend: take turns with the reader."],
        contents: vec![("Start a game".to_string(), new_game)],
        boards,
    }
}

/// The book of games against the computer, behind a contents page.
pub fn vs_computer(games: &[Game]) -> Book {
    let mut boards = Vec::new();
    let mut contents = Vec::new();
    for game in games {
        let number = game.spec.number as u16;
        let at = |board| Target::Board {
            game: number,
            board,
        };
        contents.push((game.describe(), at(game.start)));
        let mut order: Vec<Board> = game.pages.iter().copied().collect();
        order.sort_by_key(|b| (b.marks(), b.id()));
        for board in order {
            let mut links = [None; 9];
            for square in board.legal_moves().iter() {
                links[square.index()] = game.target(board, square).map(at);
            }
            let nav = match board.status() {
                Status::InPlay(_) => Vec::new(),
                _ => vec![
                    (at(game.start), "Play again"),
                    (Target::Contents, "Choose another game"),
                ],
            };
            boards.push(BookBoard {
                target: at(board),
                board,
                caption: game.heading(board),
                links,
                nav,
            });
        }
    }
    Book {
        slug: "tictactoe-vs-computer".to_string(),
        title: "Tic-Tac-Toe against the Computer".to_string(),
        intro: vec![
            RULES,
            "The computer's replies were decided when this book was made. Easy games can be won; a perfect computer never loses. Choose a game:",
        ],
        contents,
        boards,
    }
}
