//! What a build is asked for: the folders, the games against the
//! computer, the Towers of Hanoi's discs, the chess challenges and the
//! books' budgets.

use std::path::PathBuf;

use crate::editions::vs_computer;
use crate::games::chess::challenge;

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
    /// The KQK challenge (mate in N with king and queen): its start, its
    /// spare moves and the seed breaking ties between Black's equal
    /// replies (the build's seed, as the games against the computer's).
    pub kqk: challenge::Rules,
    /// The KRK challenge (mate in N with king and rook): its start, its
    /// spare moves and the seed breaking ties between Black's equal
    /// replies (the build's seed, as the games against the computer's).
    pub krk: challenge::Rules,
}

pub use crate::ebook::{Budgets, PDF_PAGES};
