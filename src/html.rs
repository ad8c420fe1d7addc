//! Web pages: maud templates that return `Markup`, and the minifier.
//!
//! Invariant: rendering is pure (no IO); every page is a complete HTML5
//! document with `lang`, `charset`, a viewport and a title, no script, and
//! only relative links, so the site works from `file://` and any sub-path.

use maud::{DOCTYPE, Markup, Render, html};

use crate::board::{Board, Cell, Player, Square, Status};

/// The shared page frame: head, a row of navigation links, then `body`.
///
/// The stylesheet sits beside every page. `head` and `body` are left for the
/// parser to infer (valid HTML5, and bytes on every one of thousands of
/// pages); `icon` links the favicon, which only the home page does.
pub fn layout(title: &str, icon: bool, nav: &[(String, &str)], body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width";
            title { (title) }
            link rel="stylesheet" href="s.css";
            @if icon {
                link rel="icon" href="favicon.svg";
            }
            // One landmark holds everything, for screen readers' landmark
            // navigation (axe's `region` and `landmark-one-main` rules).
            main {
                @if !nav.is_empty() {
                    p { @for (i, (href, text)) in nav.iter().enumerate() {
                        @if i > 0 { " " }
                        a href=(href) { (text) }
                    } }
                }
                (body)
            }
        }
    }
}

/// One square of a board: its image, its spoken label, and its link if it
/// is a move.
pub struct SquareView<'a> {
    /// Which square.
    pub square: Square,
    /// What it holds.
    pub cell: Cell,
    /// Whether it is part of a winning line.
    pub winning: bool,
    /// Where playing here leads, for an empty square while the game goes on.
    pub link: Option<&'a str>,
    /// Whose mark a link places.
    pub mover: Player,
}

impl SquareView<'_> {
    /// The image's name without extension, whose first letter is `x`, `o`
    /// or `e`; the web uses `.svg`, the books `.gif`.
    pub fn image(&self) -> &'static str {
        match (self.cell, self.winning) {
            (Cell::Empty, _) => "e",
            (Cell::Taken(Player::X), false) => "x",
            (Cell::Taken(Player::O), false) => "o",
            (Cell::Taken(Player::X), true) => "xw",
            (Cell::Taken(Player::O), true) => "ow",
        }
    }

    /// What a screen reader says: the square, then its content or the move
    /// its link makes ("top left: place X").
    pub fn label(&self) -> String {
        let name = self.square.name();
        match (self.cell, self.link) {
            (Cell::Empty, Some(_)) => format!("{name}: place {}", self.mover.letter()),
            (Cell::Empty, None) => format!("{name}: empty"),
            (Cell::Taken(p), _) if self.winning => format!("{name}: {}, in the line", p.letter()),
            (Cell::Taken(p), _) => format!("{name}: {}", p.letter()),
        }
    }
}

impl Render for SquareView<'_> {
    fn render(&self) -> Markup {
        let img = html! { img src={ (self.image()) ".svg" } alt=(self.label()); };
        match self.link {
            Some(href) => html! { a href=(href) { (img) } },
            None => img,
        }
    }
}

/// The nine squares of `board`, in reading order, with `links[i]` as the
/// target of square `i`. Shared by the web pages and the books.
pub fn squares<'a>(board: Board, links: &'a [Option<String>; 9]) -> Vec<SquareView<'a>> {
    let line = match board.status() {
        Status::Won { line, .. } => line,
        _ => Default::default(),
    };
    Square::ALL
        .iter()
        .map(|&square| SquareView {
            square,
            cell: board.cell(square),
            winning: line.contains(square),
            link: links[square.index()].as_deref(),
            mover: board.to_move(),
        })
        .collect()
}

/// The nine squares, with no wrapper: the stylesheet floats each image at a
/// third of the page width, so they fall into three rows by themselves.
pub fn grid(board: Board, links: &[Option<String>; 9]) -> Markup {
    html! { @for s in squares(board, links) { (s) } }
}

/// "X to move", "X wins", "O wins" or "Draw": the two-player heading.
pub fn two_player_heading(board: Board) -> String {
    match board.status() {
        Status::InPlay(p) => format!("{} to move", p.letter()),
        Status::Won { winner, .. } => format!("{} wins", winner.letter()),
        Status::Draw => "Draw".to_string(),
    }
}

/// The page title: the board row by row (`X.O/.X./..O`), so the tab and the
/// history list (the back button is undo) tell each position apart.
pub fn board_title(board: Board) -> String {
    board.to_string()
}

/// Minifies one page with minify-html's spec-compliant settings.
pub fn minify(markup: &Markup) -> Vec<u8> {
    let cfg = minify_html::Cfg::new();
    minify_html::minify(markup.0.as_bytes(), &cfg)
}
