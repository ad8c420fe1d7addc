//! The marker: the file that says a folder is this tool's output and
//! lists every path the build made there, the only paths ever deleted,
//! each file with a checksum of its bytes for the next build ([`sum`]).

use std::fs;
use std::io;
use std::path::Path;

use rustc_hash::FxHashMap;

/// The file that marks a folder as this tool's output. Its first line says
/// so; the lines after [`LIST_HEADER`] name every file and folder (folders
/// end in `/`) that the build made, and so may be deleted by the next one;
/// a file's line ends in a tab and the [`sum`] of its bytes, in hex, where
/// the build knew them (not for a copy of `static/`'s extras).
pub const MARKER: &str = ".tictactoe-book";
pub(super) const MARKER_TEXT: &str = "Made by tictactoe-book: `cargo xtask build-site` may delete the paths \
listed below, and nothing else, when it replaces this folder.\n";
pub(super) const LIST_HEADER: &str = "made:\n";

/// Every path a build made, folders ending in `/`, each file with the
/// [`sum`] of its bytes where it is known.
pub(super) type List = FxHashMap<String, Option<u64>>;

/// What a folder's marker says the tool made there.
pub(super) enum Made {
    /// The listed paths.
    Listed(List),
    /// A marker from before the list was kept (that version replaced the
    /// whole folder): the paths the new build writes count as made, and
    /// anything inside a top-level folder that it writes (an old game's
    /// pages); nothing else, so a `CNAME` or a `blog/` stays foreign.
    Unlisted,
}

/// An old output's marker, as a build finds it when it starts.
pub(super) struct OldMarker {
    /// What it lists.
    pub(super) made: Made,
    /// When it was last written (seconds and nanoseconds). A listed file
    /// whose inode has not changed since (its change time is earlier)
    /// still holds the bytes its sum was taken of; a listed folder not
    /// modified since holds only what it held then, listed paths.
    pub(super) written: (i64, i64),
    /// Whether its text is exactly what [`marker_text`] writes for its
    /// list (this version's words, sorted, sums in lower case), so that
    /// the same list means the same bytes.
    pub(super) canonical: bool,
}

impl OldMarker {
    /// Reads `dir`'s marker; `None` when it has none (or it is not a plain
    /// file).
    pub(super) fn read(dir: &Path) -> io::Result<Option<OldMarker>> {
        use std::io::Read as _;
        use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
        let file = fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(dir.join(MARKER));
        let mut file = match file {
            Ok(file) => file,
            // Not there, or a symbolic link (`O_NOFOLLOW`).
            Err(e) if matches!(e.raw_os_error(), Some(libc::ENOENT | libc::ELOOP)) => {
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Ok(None);
        }
        let mut text = String::new();
        file.read_to_string(&mut text)?;
        let written = (meta.mtime(), meta.mtime_nsec());
        let Some((head, list)) = text.split_once(LIST_HEADER) else {
            let (made, canonical) = (Made::Unlisted, false);
            return Ok(Some(OldMarker {
                made,
                written,
                canonical,
            }));
        };
        let mut canonical = head == MARKER_TEXT && (list.is_empty() || list.ends_with('\n'));
        let mut paths = List::default();
        let mut last = "";
        for l in list.lines() {
            let (path, sum) = line(l);
            let lower = |hex: &str| hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
            canonical &= path > last && sum.is_none_or(|_| lower(&l[path.len() + 1..]));
            last = path;
            paths.insert(path.to_string(), sum);
        }
        let made = Made::Listed(paths);
        Ok(Some(OldMarker {
            made,
            written,
            canonical,
        }))
    }
}

/// Whether `dir` holds a marker (a plain file of that name).
pub(super) fn is_marked(dir: &Path) -> io::Result<bool> {
    match fs::symlink_metadata(dir.join(MARKER)) {
        Ok(m) => Ok(m.is_file()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

impl Made {
    /// Whether `key` is a path the marker counts as made, the new build
    /// making `new`.
    pub(super) fn contains(&self, key: &str, new: &List) -> bool {
        match self {
            Made::Listed(paths) => paths.contains_key(key),
            Made::Unlisted => {
                new.contains_key(key)
                    || key
                        .split_once('/')
                        .is_some_and(|(top, _)| new.contains_key(&format!("{top}/")))
            }
        }
    }

    /// The sum the marker gives for the file `path`.
    pub(super) fn sum(&self, path: &str) -> Option<u64> {
        match self {
            Made::Listed(paths) => paths.get(path).copied().flatten(),
            Made::Unlisted => None,
        }
    }
}

/// The checksum of a file's bytes that the marker keeps: XXH3's 64 bits,
/// fast enough to take of every file of every build. It need only tell
/// this tool's own files apart from what it makes next, and never on its
/// own: the file must also be untouched since the marker was written.
pub(super) fn sum(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// A line of the list: its path, and the checksum it ends in, if any.
fn line(l: &str) -> (&str, Option<u64>) {
    match l.rsplit_once('\t') {
        Some((path, hex)) if hex.len() == 16 => match u64::from_str_radix(hex, 16) {
            Ok(sum) => (path, Some(sum)),
            Err(_) => (l, None),
        },
        _ => (l, None),
    }
}

/// The marker's text for a folder holding `made`, each file with its sum
/// if it has one, in sorted order so it is the same on every machine.
pub(super) fn marker_text(made: &List) -> String {
    let mut list: Vec<(&String, &Option<u64>)> = made.iter().collect();
    list.sort_unstable();
    let mut text = format!("{MARKER_TEXT}{LIST_HEADER}");
    for (p, sum) in list {
        text.push_str(p);
        if let Some(sum) = sum {
            let _ = std::fmt::Write::write_fmt(&mut text, format_args!("\t{sum:016x}"));
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_a_path_and_perhaps_a_sum() {
        assert_eq!(line("a/b.html\t00000000000000ff"), ("a/b.html", Some(255)));
        assert_eq!(line("a/"), ("a/", None));
        // Only a whole sum counts: a path may hold a tab itself.
        assert_eq!(line("odd\tname"), ("odd\tname", None));
        assert_eq!(
            line("odd\tname\t00000000000000ff"),
            ("odd\tname", Some(255))
        );
        assert_eq!(line("a\t000000000000000g"), ("a\t000000000000000g", None));
    }

    #[test]
    fn only_a_marker_as_this_version_writes_it_is_canonical() {
        let tmp = tempfile::tempdir().unwrap();
        let list: List = [("a/", None), ("a/b.html", Some(0xab)), ("c.html", Some(1))]
            .into_iter()
            .map(|(p, sum)| (p.to_string(), sum))
            .collect();
        let text = marker_text(&list);
        let read = |text: &str| {
            fs::write(tmp.path().join(MARKER), text).unwrap();
            let old = OldMarker::read(tmp.path()).unwrap().unwrap();
            let same = matches!(&old.made, Made::Listed(l) if *l == list);
            (same, old.canonical)
        };
        assert_eq!(read(&text), (true, true));
        // The same list, written otherwise: out of order, in capitals,
        // another version's words.
        let swapped = text.replace(
            "a/\na/b.html\t00000000000000ab\n",
            "a/b.html\t00000000000000ab\na/\n",
        );
        assert_eq!(read(&swapped), (true, false));
        assert_eq!(read(&text.replace("ab\n", "AB\n")), (true, false));
        assert_eq!(
            read(&text.replace("nothing else", "nothing more")),
            (true, false)
        );
    }
}
