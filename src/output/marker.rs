//! The marker: the file that says a folder is this tool's output and
//! lists every path the build made there, the only paths ever deleted.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::Path;

/// The file that marks a folder as this tool's output. Its first line says
/// so; the lines after [`LIST_HEADER`] name every file and folder (folders
/// end in `/`) that the build made, and so may be deleted by the next one.
pub const MARKER: &str = ".tictactoe-book";
pub(super) const MARKER_TEXT: &str = "Made by tictactoe-book: `cargo xtask build-site` may delete the paths \
listed below, and nothing else, when it replaces this folder.\n";
pub(super) const LIST_HEADER: &str = "made:\n";

/// What a folder's marker says the tool made there.
pub(super) enum Made {
    /// The listed paths.
    Listed(HashSet<String>),
    /// A marker from before the list was kept (that version replaced the
    /// whole folder): the paths the new build writes count as made, and
    /// anything inside a top-level folder that it writes (an old game's
    /// pages); nothing else, so a `CNAME` or a `blog/` stays foreign.
    Unlisted,
}

impl Made {
    /// Reads `dir`'s marker; `None` when it has none (or it is not a plain
    /// file).
    pub(super) fn read(dir: &Path) -> io::Result<Option<Made>> {
        let marker = dir.join(MARKER);
        match fs::symlink_metadata(&marker) {
            Ok(m) if m.is_file() => {}
            Ok(_) => return Ok(None),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        }
        let text = fs::read_to_string(&marker)?;
        Ok(Some(match text.split_once(LIST_HEADER) {
            Some((_, list)) => Made::Listed(list.lines().map(str::to_string).collect()),
            None => Made::Unlisted,
        }))
    }

    pub(super) fn contains(&self, key: &str, new: &HashSet<String>) -> bool {
        match self {
            Made::Listed(paths) => paths.contains(key),
            Made::Unlisted => {
                new.contains(key)
                    || key
                        .split_once('/')
                        .is_some_and(|(top, _)| new.contains(&format!("{top}/")))
            }
        }
    }
}

/// The marker's text for a folder holding `files`, in sorted order so it is
/// the same on every machine.
pub(super) fn marker_text(made: &HashSet<String>) -> String {
    let mut list: Vec<&String> = made.iter().collect();
    list.sort();
    let mut text = format!("{MARKER_TEXT}{LIST_HEADER}");
    for p in list {
        text.push_str(p);
        text.push('\n');
    }
    text
}
