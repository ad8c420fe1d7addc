//! The e-reader formats: each writes an [`Edition`]'s screens as one book,
//! as MOBI 6, EPUB 3 or a Kindle-ready single HTML file.
//!
//! Invariant: a format only lays out. Every link it writes is a
//! [`Link::Here`](crate::screen::Link) of the edition, so it lands on a
//! screen of the same book or its opening page.

pub mod deflate;
pub mod epub;
pub mod huffcdic;
pub mod kindle_html;
pub mod mobi;
pub mod palmdoc;
pub mod png;

use crate::assets::Assets;
use crate::screen::{Edition, Screen};

/// The author named in every book's metadata.
pub const AUTHOR: &str = "tictactoe-book";

/// The cover image's name; it comes after the square images.
pub const COVER: &str = "cover";

/// The paragraphs of a book's opening page, before its contents: the
/// game's rules, then what the edition is.
pub fn intro(edition: &Edition) -> [&'static str; 2] {
    [edition.rules, edition.about]
}

/// The text under a book's grid: the heading and each line, joined.
pub fn caption(screen: &Screen) -> impl Iterator<Item = &str> {
    std::iter::once(screen.heading.as_str()).chain(screen.lines.iter().map(String::as_str))
}

/// A book's images, `(name, GIF bytes)` in record order: those its
/// screens use, in the game's order, then the cover.
pub fn images<'a>(book: &Edition, assets: &'a Assets) -> Vec<(&'static str, &'a [u8])> {
    book.used_images()
        .into_iter()
        .chain([COVER])
        .map(|n| (n, assets.get(&format!("{n}.gif"))))
        .collect()
}

/// A format: writes a book given its images, `(name, GIF bytes)` in record
/// order, the cover last.
pub type Writer = fn(&Edition, &[(&str, &[u8])]) -> Vec<u8>;

/// Every book format: the file name's ending, whether it has a size
/// budget (MOBI and EPUB, which readers download), and its writer.
pub const FORMATS: [(&str, Budget, Writer); 3] = [
    (".mobi", Budget::Mobi, mobi::write),
    (".epub", Budget::Epub, epub::write),
    ("-kindle.html", Budget::None, |edition, _| {
        kindle_html::write(edition)
    }),
];

/// Which size budget a format's files answer to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// `--mobi-budget`.
    Mobi,
    /// `--epub-budget`.
    Epub,
    /// None.
    None,
}
