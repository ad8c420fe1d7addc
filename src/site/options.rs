//! What a build is asked for: the folders, the games against the
//! computer, the Towers of Hanoi's discs and the books' budgets.

use std::path::PathBuf;

use crate::editions::vs_computer;

/// What to build and where.
#[derive(Clone, Debug)]
pub struct Options {
    /// The folder of images and the stylesheet.
    pub static_dir: PathBuf,
    /// The output folder, replaced whole.
    pub out: PathBuf,
    /// The games against the computer.
    pub games: vs_computer::Settings,
    /// Size limits of the books.
    pub budgets: Budgets,
    /// End every game as soon as nobody can make three in a row.
    pub early_draws: bool,
    /// Discs of the Towers of Hanoi ([`crate::games::hanoi::MIN_DISCS`] to
    /// [`crate::games::hanoi::MAX_DISCS`]).
    pub hanoi_discs: u8,
}

/// The most bytes each kind of book may take; a build over budget fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Each MOBI file (the two-player book is the large one).
    pub mobi: usize,
    /// Each EPUB file.
    pub epub: usize,
    /// The most pages a PDF may have: a longer one is left out of the
    /// site, not made (see [`crate::ebook::Budget::Pdf`]).
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
