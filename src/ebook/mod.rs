//! The e-reader formats: each writes an [`Edition`]'s screens as one book,
//! as MOBI 6, EPUB 3 or a Kindle-ready single HTML file.
//!
//! Invariant: a format only lays out. Every link it writes is a
//! [`Link::Here`](crate::screen::Link) of the edition, so it lands on a
//! screen of the same book or its opening page.

pub mod deflate;
pub mod epub;
pub mod huffcdic;
pub mod indx;
pub mod kf8;
pub mod kindle_html;
pub mod mobi;
pub mod palmdoc;
pub mod pdf;
pub mod png;

use std::sync::OnceLock;

use crate::assets::Assets;
use crate::screen::{Edition, Screen};

/// The folder of the books in the site.
pub const EBOOKS: &str = "ebooks";

/// The poster of the maps of whole games, in [`EBOOKS`].
pub const POSTER: &str = "map-poster.pdf";

/// The author named in every book's metadata.
pub const AUTHOR: &str = "tictactoe-book";

/// The cover image's name; it comes after the square images.
pub const COVER: &str = "cover";

/// The cover as a thumbnail (240x320), which a MOBI names beside the cover
/// (EXTH 202), as kindlegen writes one: a Kindle's library shows it.
pub const THUMB: &str = "thumb";

/// The paragraphs of a book's opening page, before its contents: the
/// game's rules, then what the edition is.
pub fn intro(edition: &Edition) -> [&'static str; 2] {
    [edition.texts.rules, edition.about]
}

/// The text under a book's grid: the heading and each line, joined.
pub fn caption(screen: &Screen) -> impl Iterator<Item = &str> {
    std::iter::once(screen.heading.as_str()).chain(screen.lines.iter().map(String::as_str))
}

/// A book's images, `(name, GIF bytes)` in record order: those its
/// screens use, in the game's order, then the cover.
pub fn images<'a>(book: &Edition, assets: &'a Assets) -> Vec<(&'static str, &'a [u8])> {
    book.used_images()
        .iter()
        .copied()
        .chain([COVER])
        .map(|n| (n, assets.get(&format!("{n}.gif"))))
        .collect()
}

/// A book as its formats see it: an edition (as books show it), what it
/// draws with from `static/`, and what two formats share, worked out once
/// by the first to ask: the EPUB's files of screens, which its KF8 part
/// (in the MOBI) has too.
pub struct Book<'a> {
    /// The edition, as books show it ([`Edition::for_books`]).
    pub edition: &'a Edition,
    /// The files of `static/`.
    pub assets: &'a Assets,
    layout: OnceLock<epub::Layout>,
}

impl<'a> Book<'a> {
    /// The book of `edition` (as books show it), drawn with `assets`.
    pub fn new(edition: &'a Edition, assets: &'a Assets) -> Book<'a> {
        Book {
            edition,
            assets,
            layout: OnceLock::new(),
        }
    }

    /// The screens of each EPUB content file: worked out once a book, by
    /// the first of its two formats to ask (sizing the files reads every
    /// screen).
    pub(crate) fn layout(&self) -> &epub::Layout {
        self.layout.get_or_init(|| epub::Layout::new(self.edition))
    }
}

/// A format: writes a book.
pub type Writer = fn(&Book) -> Vec<u8>;

/// Every book format: the file name's ending, its size budget, and its
/// writer. The print format comes last: the print-only editions have it
/// alone ([`Edition::print_only`]).
pub const FORMATS: [(&str, Budget, Writer); 5] = [
    (".mobi", Budget::Mobi, mobi::write),
    (".epub", Budget::Epub, epub::write),
    ("-kindle.html", Budget::None, |b| {
        kindle_html::write(b.edition)
    }),
    ("-kindle.opf", Budget::None, |b| kindle_html::opf(b.edition)),
    (".pdf", Budget::Pdf, |b| {
        pdf::write(b.edition, &pdf::Drawing::new(b.edition, b.assets))
    }),
];

/// The formats an edition's books come in: all, or the print format
/// alone.
pub fn formats(edition: &Edition) -> &'static [(&'static str, Budget, Writer)] {
    if edition.print_only {
        &FORMATS[FORMATS.len() - 1..]
    } else {
        &FORMATS
    }
}

/// Which size budget a format's files answer to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// `--mobi-budget`.
    Mobi,
    /// `--epub-budget`.
    Epub,
    /// `--pdf-budget`, in pages: a PDF over it is left out, not made and
    /// not an error, since the editions of a page per position make PDFs
    /// of thousands of pages that nobody would print.
    Pdf,
    /// None.
    None,
}
