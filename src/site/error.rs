//! Why a build failed: one value a cause, each displayed as one line.

use std::fmt;

use crate::assets::AssetError;
use crate::ebook::TooLarge;
use crate::output::OutputError;

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// `static/` is missing or incomplete.
    Assets(AssetError),
    /// The output could not be written.
    Output(OutputError),
    /// A file in `static/` would be copied over a file the build makes.
    StaticClash(String),
    /// `--static` and `--out` overlap: why, in words.
    Overlap(String),
    /// A book came out larger than its budget.
    OverBudget {
        /// The book's path in the site.
        file: String,
        /// Its size.
        bytes: usize,
        /// The limit.
        budget: usize,
        /// The flag that raises it.
        flag: &'static str,
    },
    /// A book has more of something than its format has room to count
    /// (more records than a PalmDB file numbers): made anyway, it would
    /// be corrupt.
    TooLarge {
        /// The book's path in the site.
        file: String,
        /// What overflowed.
        error: TooLarge,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Assets(e) => e.fmt(f),
            BuildError::Output(e) => e.fmt(f),
            BuildError::Overlap(why) => f.write_str(why),
            BuildError::StaticClash(path) => write!(
                f,
                "static/{path} has the name of a file the build makes; rename or remove it"
            ),
            BuildError::TooLarge { file, error } => {
                write!(f, "{file} cannot be made: {error}")
            }
            BuildError::OverBudget {
                file,
                bytes,
                budget,
                flag,
            } => write!(
                f,
                "{file} is {bytes} bytes, {} bytes ({:.1}%) over its budget of {budget} bytes \
                 (raise it with {flag}, in KB)",
                bytes - budget,
                (bytes - budget) as f64 * 100.0 / *budget as f64,
            ),
        }
    }
}

impl std::error::Error for BuildError {}

impl BuildError {
    /// Whether this is only a part of the build stopping because another
    /// failed ([`OutputError::Stopped`]), not a failure of its own.
    pub fn is_stopped(&self) -> bool {
        matches!(self, BuildError::Output(OutputError::Stopped))
    }
}

impl From<AssetError> for BuildError {
    fn from(e: AssetError) -> Self {
        BuildError::Assets(e)
    }
}

impl From<OutputError> for BuildError {
    fn from(e: OutputError) -> Self {
        BuildError::Output(e)
    }
}
