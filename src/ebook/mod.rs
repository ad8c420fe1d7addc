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
pub mod xhtml;

use std::sync::OnceLock;

use crate::assets::Assets;
use crate::screen::{Edition, Screen};

/// The folder of the books in the site.
pub const EBOOKS: &str = "ebooks";

/// The poster of the maps of whole games, in [`EBOOKS`].
pub const POSTER: &str = "map-poster.pdf";

/// The author named in every book's metadata.
pub const AUTHOR: &str = "tictactoe-book";

/// The name a MOBI gives the cover's thumbnail (240x320), which it names
/// beside the cover (EXTH 202), as kindlegen writes one: a Kindle's
/// library shows it. It is drawn as `<cover>-thumb.gif`
/// ([`crate::game::Game::COVER`]).
pub const THUMB: &str = "thumb";

/// The paragraphs of a book's opening page, before its contents: the
/// game's rules, then what the edition is.
pub fn intro(edition: &Edition) -> [&'static str; 2] {
    [edition.texts.rules, edition.about]
}

/// [`intro`] as paper says it: the rules in the words of pages to turn to.
pub fn intro_on_paper(edition: &Edition) -> [&'static str; 2] {
    [edition.texts.paper_rules, edition.about]
}

/// The text under a book's grid: the heading and each line, joined.
pub fn caption(screen: &Screen) -> impl Iterator<Item = &str> {
    std::iter::once(screen.heading.as_str()).chain(screen.lines.iter().map(String::as_str))
}

/// A book's images, `(name, GIF bytes)` in record order: those its
/// screens use, in the game's order, then the cover ([`Edition::cover`]).
pub fn images<'a>(book: &Edition, assets: &'a Assets) -> Vec<(&'static str, &'a [u8])> {
    book.used_images()
        .iter()
        .copied()
        .chain([book.cover])
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
    layout: OnceLock<xhtml::Layout>,
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
    pub(crate) fn layout(&self) -> &xhtml::Layout {
        self.layout.get_or_init(|| xhtml::Layout::new(self.edition))
    }
}

/// One file a format made of a book: its name in [`EBOOKS`] and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookFile {
    /// Its name in [`EBOOKS`], such as `tictactoe-two-player.mobi`.
    pub name: String,
    /// Its contents.
    pub bytes: Vec<u8>,
    /// Whether other books may make it too, byte for byte the same (the
    /// Kindle source's images): the site writes it once.
    pub shared: bool,
}

/// What a format made of one book.
#[derive(Debug, Default)]
pub struct Made {
    /// Its files, the book itself first; none if it was left out.
    pub files: Vec<BookFile>,
    /// A PDF's pages, made or left out.
    pub pages: Option<usize>,
}

/// A book format: one value that knows its files. Adding a format is an
/// entry in [`FORMATS`] and the module that writes it.
pub struct Format {
    /// What the home page calls the book in this format.
    pub name: &'static str,
    /// The ending of the book's file after its stem ([`Edition::book_stem`]).
    pub suffix: &'static str,
    /// The book's other files a reader needs, by what the home page calls
    /// each and its ending (the Kindle source's OPF, which kindlegen
    /// reads), made whenever the book is.
    pub also: &'static [(&'static str, &'static str)],
    /// The budget the book's file answers to.
    pub budget: Budget,
    /// Writes every file the format makes of a book, the book itself
    /// first, or leaves it out (a PDF over its page budget); it is handed
    /// its own format, for the file's ending. Called by [`Format::make`].
    write: fn(&Format, &Book, &Budgets) -> Made,
}

impl Format {
    /// Every file this format makes of `book` within `budgets`, the book
    /// itself first, or none if it is left out.
    pub fn make(&self, book: &Book, budgets: &Budgets) -> Made {
        (self.write)(self, book, budgets)
    }

    /// The book's file: its name in [`EBOOKS`].
    pub fn file_name(&self, edition: &Edition) -> String {
        format!("{}{}", edition.book_stem(), self.suffix)
    }

    /// A made file of the book `edition`, with the ending `suffix` after
    /// the book's stem.
    fn file(edition: &Edition, suffix: &str, bytes: Vec<u8>) -> BookFile {
        BookFile {
            name: format!("{}{suffix}", edition.book_stem()),
            bytes,
            shared: false,
        }
    }

    /// A format that makes one file of a book, with its own ending.
    fn one(&self, book: &Book, bytes: Vec<u8>) -> Made {
        Made {
            files: vec![Format::file(book.edition, self.suffix, bytes)],
            pages: None,
        }
    }
}

/// Every book format. The print format comes last: the print-only editions
/// have it alone ([`Edition::print_only`]).
pub const FORMATS: [Format; 4] = [
    Format {
        name: "MOBI",
        suffix: ".mobi",
        also: &[],
        budget: Budget::Mobi,
        write: |f, book, _| f.one(book, mobi::write(book)),
    },
    Format {
        name: "EPUB",
        suffix: ".epub",
        also: &[],
        budget: Budget::Epub,
        write: |f, book, _| f.one(book, epub::write(book)),
    },
    Format {
        name: "single HTML file",
        suffix: "-kindle.html",
        also: &[("its OPF", "-kindle.opf")],
        budget: Budget::None,
        write: kindle_source,
    },
    Format {
        name: "PDF",
        suffix: ".pdf",
        also: &[],
        budget: Budget::Pdf,
        write: |f, book, budgets| {
            let pages = pdf::pages(book.edition);
            let files = match pages > budgets.pdf_pages {
                true => Vec::new(),
                false => {
                    let bytes =
                        pdf::write(book.edition, &pdf::Drawing::new(book.edition, book.assets));
                    f.one(book, bytes).files
                }
            };
            Made {
                files,
                pages: Some(pages),
            }
        },
    },
];

/// The Kindle source, for converting yourself: the single HTML file, its
/// OPF, and the GIFs it shows (shared between books), the cover last.
fn kindle_source(format: &Format, book: &Book, _: &Budgets) -> Made {
    let edition = book.edition;
    let mut files = vec![
        Format::file(edition, format.suffix, kindle_html::write(edition)),
        Format::file(edition, format.also[0].1, kindle_html::opf(edition)),
    ];
    for (name, gif) in images(edition, book.assets) {
        files.push(BookFile {
            name: format!("{name}.gif"),
            bytes: gif.to_vec(),
            shared: true,
        });
    }
    Made { files, pages: None }
}

/// The formats an edition's books come in: all, or the print format
/// alone.
pub fn formats(edition: &Edition) -> &'static [Format] {
    if edition.print_only {
        &FORMATS[FORMATS.len() - 1..]
    } else {
        &FORMATS
    }
}

/// The most bytes each kind of book may take; a build over budget fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Each MOBI file (the two-player book is the large one).
    pub mobi: usize,
    /// Each EPUB file.
    pub epub: usize,
    /// The most pages a PDF may have: a longer one is left out of the
    /// site, not made (see [`Budget::Pdf`]).
    pub pdf_pages: usize,
}

impl Default for Budgets {
    /// 700 KB per MOBI and 200 KB per EPUB (1 KB = 1,000 bytes), and 828
    /// pages per PDF: the most Amazon's print-on-demand binds in one
    /// paperback, so every PDF made can be printed as one book. The
    /// editions of a page per position (thousands of pages) are left out.
    /// The largest default books are the analysis MOBI (516 KB) and EPUB
    /// (162 KB); each budget leaves room for a fifth more.
    fn default() -> Self {
        Budgets {
            mobi: 700_000,
            epub: 200_000,
            pdf_pages: PDF_PAGES,
        }
    }
}

/// The default most pages of a PDF: see [`Budgets::default`].
pub const PDF_PAGES: usize = 828;

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

impl Budget {
    /// The most bytes a file may take under it, if it limits bytes.
    pub fn limit(self, budgets: &Budgets) -> Option<usize> {
        match self {
            Budget::Mobi => Some(budgets.mobi),
            Budget::Epub => Some(budgets.epub),
            Budget::Pdf | Budget::None => None,
        }
    }

    /// The flag that sets it.
    pub fn flag(self) -> Option<&'static str> {
        match self {
            Budget::Mobi => Some("--mobi-budget"),
            Budget::Epub => Some("--epub-budget"),
            Budget::Pdf => Some("--pdf-budget"),
            Budget::None => None,
        }
    }
}
