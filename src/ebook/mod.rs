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
/// ([`crate::assets::Cover`]).
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
        .chain([book.cover()])
        .map(|n| (n, assets.get(&format!("{n}.gif"))))
        .collect()
}

/// A book of at least this many links to a screen, in tenths, starts
/// each screen at a round offset in both parts: in the MOBI 6 part a
/// multiple of 100 (every `filepos` ends in `00`), in the KF8 part a
/// multiple of 64 in its fragment (every `off:` ends in an even digit and
/// a `0`), by spaces after the screen before it, which no reader shows.
/// An offset's last digits are the noise of every screen's length before
/// it, a few bits a link that hardly compress; the padding costs a few
/// bits a screen, spelt by a few phrases ([`huffcdic`]). Measured
/// on the default books: two-player and analysis (3.1 links a screen)
/// shrink by 24 and 31 KB, 9%; vs-computer (1.9) would grow by 12 KB, and
/// the Towers of Hanoi's (2.3) change by under 500 bytes.
const ROUND_LINKS_PER_SCREEN: usize = 25;

/// Whether a MOBI starts each screen of `book` at a round offset (see
/// [`ROUND_LINKS_PER_SCREEN`]).
fn rounds_screens(book: &Edition) -> bool {
    let links: usize = book
        .screens
        .iter()
        .map(|s| s.cells.link_count() + s.book_nav().count())
        .sum();
    links * 10 >= ROUND_LINKS_PER_SCREEN * book.screens.len()
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

/// A count or an offset past the field a format keeps it in (a PalmDB
/// file's record count is 16 bits, a zip's sizes 32): written anyway, it
/// would wrap round and the book would come out corrupt, so the writer
/// refuses it. Each is a plain value; the build names the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// What is counted, in words ("records in a PalmDB file").
    pub what: &'static str,
    /// How many there are.
    pub count: u64,
    /// The most the field holds.
    pub most: u64,
}

impl TooLarge {
    /// Nothing if `count` of `what` is at most `most`, else the error.
    pub fn check(what: &'static str, count: usize, most: u64) -> Result<(), TooLarge> {
        let count = count as u64; // usize is at most 64 bits
        match count <= most {
            true => Ok(()),
            false => Err(TooLarge { what, count, most }),
        }
    }
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}, past the format's most of {}",
            self.count, self.what, self.most
        )
    }
}

impl std::error::Error for TooLarge {}

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
    /// Its files, the book itself first; none if it was left out. From
    /// [`Format::make_into`], only the files besides the book, which went
    /// to its writer as it was made.
    pub files: Vec<BookFile>,
    /// A PDF's pages, made or left out.
    pub pages: Option<usize>,
    /// Whether the book was made: false for a PDF left out.
    pub made: bool,
}

/// Why a format could not write a book: a count or offset past its field
/// ([`TooLarge`]), a picture it cannot draw, or the writer it was writing
/// the book into failing.
#[derive(Debug)]
pub enum WriteError {
    /// A count or an offset of the book has no room in its field.
    TooLarge(TooLarge),
    /// A picture of `static/` the format cannot draw.
    Undrawable(pdf::Undrawable),
    /// The book's writer failed.
    Io(std::io::Error),
}

impl From<TooLarge> for WriteError {
    fn from(e: TooLarge) -> WriteError {
        WriteError::TooLarge(e)
    }
}

impl From<std::io::Error> for WriteError {
    fn from(e: std::io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::TooLarge(e) => e.fmt(f),
            WriteError::Undrawable(e) => write!(f, "static file {} is corrupt: {}", e.name, e.why),
            WriteError::Io(e) => write!(f, "writing the book: {e}"),
        }
    }
}

impl std::error::Error for WriteError {}

/// Where a book's own file goes as a format makes it, a piece at a time:
/// the site hands over a writer that goes to the disk as it comes, so a
/// book's text is never held whole.
pub type Out<'a> = &'a mut dyn std::io::Write;

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
    /// Writes the book into its writer as it is made and returns its other
    /// files; or leaves it out (a PDF over its page budget: nothing
    /// written), or refuses a book too large for one of the format's
    /// fields or a picture it cannot draw; it is handed its own format,
    /// for the file's ending. Called
    /// by [`Format::make_into`].
    write: fn(&Format, &Book, &Budgets, Out) -> Result<Made, WriteError>,
}

impl Format {
    /// Every file this format makes of `book` within `budgets`, the book
    /// itself first, or none if it is left out; an error if a count or an
    /// offset of the book has no room in the format's field for it, so
    /// no book comes out corrupt, or if a picture cannot be drawn. The
    /// book is held whole here (for the tests and the bench); the site
    /// writes it as it is made instead ([`Format::make_into`]).
    pub fn make(&self, book: &Book, budgets: &Budgets) -> Result<Made, WriteError> {
        let mut bytes = Vec::new();
        let mut made = self.make_into(book, budgets, &mut bytes)?;
        if made.made {
            let file = Format::file(book.edition, self.suffix, bytes);
            made.files.insert(0, file);
        }
        Ok(made)
    }

    /// [`Format::make`], the book itself written into `out` as it is made
    /// (nothing, if it is left out: [`Made::made`] says which), and its
    /// other files returned.
    pub fn make_into(&self, book: &Book, budgets: &Budgets, out: Out) -> Result<Made, WriteError> {
        (self.write)(self, book, budgets, out)
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

    /// A format that makes its book whole in memory (a MOBI's records are
    /// placed by a table at the file's start), written out in one piece.
    fn one(bytes: &[u8], out: Out) -> Result<Made, WriteError> {
        out.write_all(bytes)?;
        Ok(Made {
            files: Vec::new(),
            pages: None,
            made: true,
        })
    }
}

/// Every book format. The print format comes last: the print-only editions
/// have it alone ([`Edition::print_only`]).
pub const FORMATS: [Format; 4] = [MOBI, EPUB, KINDLE_SOURCE, PDF];

/// The MOBI (MOBI 6 and KF8 in one file), for every Kindle. Named on its
/// own so that what speaks of the MOBI file (the home page's words, the
/// kindlegen bench) reads its ending here, not from a copy.
pub const MOBI: Format = Format {
    name: "MOBI",
    suffix: ".mobi",
    also: &[],
    budget: Budget::Mobi,
    write: |_, book, _, out| Format::one(&mobi::write(book)?, out),
};

/// The EPUB, for Send to Kindle, Kobo and the other readers.
pub const EPUB: Format = Format {
    name: "EPUB",
    suffix: ".epub",
    also: &[],
    budget: Budget::Epub,
    write: |_, book, _, out| {
        epub::write_to(book, out)?;
        Ok(Made {
            made: true,
            ..Made::default()
        })
    },
};

/// The Kindle source: one HTML file and its OPF, for converting yourself.
pub const KINDLE_SOURCE: Format = Format {
    name: "single HTML file",
    suffix: "-kindle.html",
    also: &[("its OPF", "-kindle.opf")],
    budget: Budget::None,
    write: kindle_source,
};

/// The PDF, for print; left out over `--pdf-budget` pages.
pub const PDF: Format = Format {
    name: "PDF",
    suffix: ".pdf",
    also: &[],
    budget: Budget::Pdf,
    write: |_, book, budgets, out| {
        let pages = pdf::pages(book.edition);
        let made = pages <= budgets.pdf_pages;
        if made {
            let drawing = pdf::Drawing::new(book.edition, book.assets);
            let bytes = pdf::write(book.edition, &drawing).map_err(WriteError::Undrawable)?;
            out.write_all(&bytes)?;
        }
        Ok(Made {
            files: Vec::new(),
            pages: Some(pages),
            made,
        })
    },
};

/// The Kindle source, for converting yourself: the single HTML file, its
/// OPF, and the GIFs it shows (shared between books), the cover last.
fn kindle_source(format: &Format, book: &Book, _: &Budgets, out: Out) -> Result<Made, WriteError> {
    let edition = book.edition;
    kindle_html::write_to(edition, out)?;
    let mut files = vec![Format::file(
        edition,
        format.also[0].1,
        kindle_html::opf(edition),
    )];
    for (name, gif) in images(edition, book.assets) {
        files.push(BookFile {
            name: format!("{name}.gif"),
            bytes: gif.to_vec(),
            shared: true,
        });
    }
    Ok(Made {
        files,
        pages: None,
        made: true,
    })
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
    /// Each MOBI file of a game of thousands of screens a book
    /// ([`crate::game::Game::LARGE_BOOKS`]: the chess endgames).
    pub large_mobi: usize,
    /// Each EPUB file of such a game.
    pub large_epub: usize,
}

impl Default for Budgets {
    /// 700 KB per MOBI and 250 KB per EPUB (1 KB = 1,000 bytes), and 828
    /// pages per PDF: the most Amazon's print-on-demand binds in one
    /// paperback, so every PDF made can be printed as one book. The
    /// editions of a page per position (thousands of pages) are left out.
    /// The largest default books are the vs-computer MOBI (274 KB) and EPUB
    /// (165 KB); the largest EPUB of any level, the easy computer's, is
    /// 207 KB (every page names and frames the computer's last move, so a
    /// board it reaches by two replies is two screens): the EPUB budget
    /// leaves it a fifth more. A game of thousands of screens a book (the
    /// chess endings) may take 1.5 MB a MOBI and 1 MB an EPUB.
    fn default() -> Self {
        Budgets {
            mobi: 700_000,
            epub: 250_000,
            pdf_pages: PDF_PAGES,
            large_mobi: 1_500_000,
            large_epub: 1_000_000,
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
    /// `--large-mobi-budget`: a MOBI of a game of large books.
    LargeMobi,
    /// `--large-epub-budget`: an EPUB of such a game.
    LargeEpub,
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
            Budget::LargeMobi => Some(budgets.large_mobi),
            Budget::LargeEpub => Some(budgets.large_epub),
            Budget::Pdf | Budget::None => None,
        }
    }

    /// The budget a book of this format answers to, for a game of
    /// `large` books ([`crate::game::Game::LARGE_BOOKS`]) or not.
    pub fn for_books(self, large: bool) -> Budget {
        match (self, large) {
            (Budget::Mobi, true) => Budget::LargeMobi,
            (Budget::Epub, true) => Budget::LargeEpub,
            (other, _) => other,
        }
    }

    /// The flag that sets it.
    pub fn flag(self) -> Option<&'static str> {
        match self {
            Budget::Mobi => Some("--mobi-budget"),
            Budget::Epub => Some("--epub-budget"),
            Budget::LargeMobi => Some("--large-mobi-budget"),
            Budget::LargeEpub => Some("--large-epub-budget"),
            Budget::Pdf => Some("--pdf-budget"),
            Budget::None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code outside this module (`src/` and `xtask/src/`) names a
    /// book's file ending only through its [`Format`]: no string there
    /// starts or ends with one, outside comments. A second copy would go
    /// stale when a format's ending changes.
    #[test]
    fn the_books_endings_are_named_only_by_their_formats() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let endings: Vec<&str> = FORMATS
            .iter()
            .flat_map(|f| std::iter::once(f.suffix).chain(f.also.iter().map(|(_, s)| *s)))
            .collect();
        // The home page is another change's: it is to read MOBI.suffix,
        // EPUB.suffix and PDF.suffix, and then leave this list.
        let waiting = [root.join("src/html/home.rs")];
        let mut found = Vec::new();
        for dir in ["src", "xtask/src"] {
            for entry in walkdir::WalkDir::new(root.join(dir)).sort_by_file_name() {
                let path = entry.unwrap().into_path();
                let ours = path.starts_with(root.join("src/ebook"));
                let rust = path.extension().is_some_and(|e| e == "rs");
                if ours || !rust || waiting.contains(&path) {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                for (i, line) in text.lines().enumerate() {
                    let code = line.trim_start();
                    let named = endings.iter().any(|e| {
                        code.contains(&format!("{e}\"")) || code.contains(&format!("\"{e}"))
                    });
                    if named && !code.starts_with("//") {
                        found.push(format!("{}:{}: {code}", path.display(), i + 1));
                    }
                }
            }
        }
        assert!(
            found.is_empty(),
            "endings named outside FORMATS:\n{}",
            found.join("\n")
        );
    }
}
