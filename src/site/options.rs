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

pub use crate::ebook::{Budgets, PDF_PAGES};
