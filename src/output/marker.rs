//! The marker: the file that says a folder is this tool's output and
//! lists every path the build made there, the only paths ever deleted,
//! each file with a checksum of its bytes for the next build ([`sum`]).
//!
//! The marker proves itself whole. It carries the count of its paths and
//! the time the build wrote the site, and a checksum of all of it, so a
//! marker that was emptied, cut short or edited is found damaged and the
//! build refuses to touch the folder. The time is the marker's own word,
//! not the file's modification time, which touching, copying or restoring
//! the file changes.

use std::fs;
use std::io;
use std::path::Path;

use rustc_hash::FxHashMap;

/// The file that marks a folder as this tool's output. Its first line says
/// so; then come its [`CHECK`] (over everything else in it), when the
/// build wrote the site, the count of the paths listed, and, after
/// [`LIST_HEADER`], every file and folder (folders end in `/`) that the
/// build made, and so may be deleted by the next one; a file's line ends
/// in a tab and the [`sum`] of its bytes, in hex, where the build knew them
/// (not for a copy of `static/`'s extras).
pub const MARKER: &str = ".tictactoe-book";
pub(super) const MARKER_TEXT: &str = "Made by tictactoe-book: `cargo xtask build-site` may delete the paths \
listed below, and nothing else, when it replaces this folder.\n";
pub(super) const LIST_HEADER: &str = "made:\n";
/// The line that proves the marker whole: XXH3's 128 bits of the rest of
/// the text (its first line, then everything after this line).
const CHECK: &str = "check: ";
const WRITTEN: &str = "written: ";
const PATHS: &str = "paths: ";
/// The most bytes a marker is read to: far more than any build lists
/// (about 6 MB at `--games 256`).
const MAX_LEN: u64 = 64 << 20;
/// What the first version wrote, before the marker listed what was made.
pub(super) const UNLISTED_TEXT: &str =
    "Made by tictactoe-book: `cargo xtask build-site` may replace this folder.\n";

/// Every path a build made, folders ending in `/`, each file with the
/// [`sum`] of its bytes where it is known.
pub(super) type List = FxHashMap<String, Option<u64>>;

/// A time as the kernel stamps files: seconds and nanoseconds.
pub(super) type Time = (i64, i64);

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
    /// When the build wrote the site, as the marker itself says, for a
    /// marker that proves itself (`None` for an older version's, which
    /// cannot: then nothing is trusted by time). A listed file whose inode
    /// has not changed since (its change time is earlier) still holds the
    /// bytes its sum was taken of; a listed folder not modified since holds
    /// only what it held then, listed paths.
    pub(super) written: Option<Time>,
}

/// Why a marker cannot be read as one.
#[derive(Debug)]
pub(super) enum MarkerError {
    /// It could not be read.
    Io(io::Error),
    /// It does not prove itself: what is wrong with it.
    Damaged(&'static str),
}

impl OldMarker {
    /// Reads `dir`'s marker; `None` when it has none (or it is not a plain
    /// file). A marker that does not prove itself, and is not exactly what
    /// an earlier version wrote, is [`MarkerError::Damaged`].
    pub(super) fn read(dir: &Path) -> Result<Option<OldMarker>, MarkerError> {
        let Some(text) = read_text(dir).map_err(MarkerError::Io)? else {
            return Ok(None);
        };
        parse(&text).map(Some).map_err(MarkerError::Damaged)
    }
}

/// The text of `dir`'s marker, opened without following a symbolic link or
/// waiting on a FIFO; `None` when there is none, or it is not a plain file.
fn read_text(dir: &Path) -> io::Result<Option<String>> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt;
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(dir.join(MARKER));
    let file = match file {
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
    // Of a file put in the marker's place, no more than a marker can be.
    let mut bytes = Vec::with_capacity(meta.len().min(MAX_LEN) as usize);
    file.take(MAX_LEN + 1).read_to_end(&mut bytes)?;
    // Not UTF-8 is damage like any other: the parse below refuses it.
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// A marker's text, read: this version's, proven by its check, or exactly
/// what an earlier version wrote.
fn parse(text: &str) -> Result<OldMarker, &'static str> {
    if text.is_empty() {
        return Err("it is empty");
    }
    if text.len() as u64 > MAX_LEN {
        return Err("it is larger than any marker this tool writes");
    }
    if text == UNLISTED_TEXT {
        let made = Made::Unlisted;
        return Ok(OldMarker {
            made,
            written: None,
        });
    }
    let Some(rest) = text.strip_prefix(MARKER_TEXT) else {
        return Err("its first line is not this tool's");
    };
    if let Some(list) = rest.strip_prefix(LIST_HEADER) {
        // The list as the two versions before this one wrote it, with no
        // check: taken only as they wrote it (sorted, each sum in lower
        // case, whole lines), and trusted by no time.
        let made = Made::Listed(list_of(list).ok_or("it is not whole")?);
        return Ok(OldMarker {
            made,
            written: None,
        });
    }
    let (check, rest) = field(rest, CHECK).ok_or("it is cut short or changed")?;
    let proven = u128::from_str_radix(check, 16)
        .is_ok_and(|c| check.len() == 32 && lower_hex(check) && c == checksum(rest));
    if !proven {
        return Err("its check does not match: it was cut short or changed");
    }
    // Proven: from here on, only a version that wrote another layout.
    let unknown = "no version of this tool wrote it";
    let (written, rest) = field(rest, WRITTEN).ok_or(unknown)?;
    let (paths, rest) = field(rest, PATHS).ok_or(unknown)?;
    let list = rest.strip_prefix(LIST_HEADER).ok_or(unknown)?;
    let written = parse_time(written).ok_or(unknown)?;
    let list = list_of(list).ok_or(unknown)?;
    if paths.parse::<usize>().ok() != Some(list.len()) {
        return Err(unknown);
    }
    Ok(OldMarker {
        made: Made::Listed(list),
        written: Some(written),
    })
}

/// The value of the line `name` at the start of `text`, and the text after
/// that line.
fn field<'a>(text: &'a str, name: &str) -> Option<(&'a str, &'a str)> {
    text.strip_prefix(name)?.split_once('\n')
}

fn lower_hex(hex: &str) -> bool {
    hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The list after [`LIST_HEADER`], if it is exactly as a version of this
/// tool writes one: whole lines, each path once and in sorted order, each
/// sum in lower case.
fn list_of(text: &str) -> Option<List> {
    if !(text.is_empty() || text.ends_with('\n')) {
        return None;
    }
    let mut paths = List::default();
    let mut last = "";
    for l in text.lines() {
        let (path, sum) = line(l);
        let sorted = path > last && !path.is_empty();
        if !sorted || sum.is_some_and(|_| !lower_hex(&l[path.len() + 1..])) {
            return None;
        }
        last = path;
        paths.insert(path.to_string(), sum);
    }
    Some(paths)
}

/// A staging folder's list, as a killed build may have left it: this
/// version's whole marker, or the list a build writes as it goes (the
/// first lines, then each path before it is made), cut wherever the build
/// was killed. Only for the tool's own staging folders, where nobody else
/// writes; `None` if it is neither.
pub(super) fn read_staging(dir: &Path) -> io::Result<Option<Made>> {
    let Some(text) = read_text(dir)? else {
        return Ok(None);
    };
    if let Ok(old) = parse(&text) {
        return Ok(Some(old.made));
    }
    let Some(list) = text
        .strip_prefix(MARKER_TEXT)
        .and_then(|t| t.strip_prefix(LIST_HEADER))
    else {
        return Ok(None);
    };
    let paths = list.lines().map(|l| (line(l).0.to_string(), None));
    Ok(Some(Made::Listed(paths.collect())))
}

/// `secs.nanos`, as [`marker_text`] writes it.
fn parse_time(text: &str) -> Option<Time> {
    let (secs, nanos) = text.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(secs) && nanos.len() == 9 && digits(nanos))
        .then(|| Some((secs.parse().ok()?, nanos.parse().ok()?)))?
}

/// The checksum a marker's [`CHECK`] line gives: of its first line and of
/// `rest`, everything after the check line.
fn checksum(rest: &str) -> u128 {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(MARKER_TEXT.as_bytes());
    hasher.update(rest.as_bytes());
    hasher.digest128()
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

/// Where the check line's value starts, and the written line's end: the
/// part [`restamp`] rewrites.
const CHECK_AT: usize = MARKER_TEXT.len() + CHECK.len();
const STAMP_END: usize = CHECK_AT + 33 + WRITTEN.len() + TIME_LEN + 1;
/// `secs.nanos`, the seconds to 12 digits, so that a new time takes the
/// same room.
const TIME_LEN: usize = 12 + 1 + 9;

fn time(t: Time) -> String {
    format!("{:012}.{:09}", t.0.max(0), t.1)
}

/// The marker's text for a folder holding `made`, the build having written
/// it at `written`: its first line, the check, the time, the count, and
/// each path with its sum if it has one, in sorted order, so that the same
/// list is the same text on every machine.
pub(super) fn marker_text(made: &List, written: Time) -> String {
    // Every path is different; sorted on every core, as this is the
    // build's last step.
    let mut list: Vec<(&String, &Option<u64>)> = made.iter().collect();
    crate::par::sort_unstable(&mut list);
    let mut text = format!(
        "{MARKER_TEXT}{CHECK}{:032x}\n{WRITTEN}{}\n{PATHS}{}\n{LIST_HEADER}",
        0,
        time(written),
        made.len()
    );
    for (p, sum) in list {
        text.push_str(p);
        if let Some(sum) = sum {
            // Sixteen hex digits by hand: a line for every file.
            text.push('\t');
            for d in (0..16).rev() {
                text.push(char::from(
                    b"0123456789abcdef"[(sum >> (4 * d) & 0xf) as usize],
                ));
            }
        }
        text.push('\n');
    }
    seal(&mut text);
    text
}

/// Fills in the check of `text`, a marker as [`marker_text`] lays it out.
fn seal(text: &mut String) {
    let check = format!("{:032x}", checksum(&text[CHECK_AT + 33..]));
    text.replace_range(CHECK_AT..CHECK_AT + 32, &check);
}

/// Gives `text`, a marker as [`marker_text`] wrote it, the time `written`
/// instead, which changes only its start: returns where that part begins
/// in the text, and the part, to be written over the file's in one write.
pub(super) fn restamp(text: &mut String, written: Time) -> (u64, &str) {
    let at = CHECK_AT + 33 + WRITTEN.len();
    text.replace_range(at..at + TIME_LEN, &time(written));
    seal(text);
    (
        MARKER_TEXT.len() as u64,
        &text[MARKER_TEXT.len()..STAMP_END],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list() -> List {
        [("a/", None), ("a/b.html", Some(0xab)), ("c.html", Some(1))]
            .into_iter()
            .map(|(p, sum)| (p.to_string(), sum))
            .collect()
    }

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
    fn a_marker_reads_back_as_written_with_its_time() {
        let text = marker_text(&list(), (1_764_000_000, 123));
        let old = parse(&text).unwrap();
        assert!(matches!(&old.made, Made::Listed(l) if *l == list()));
        assert_eq!(old.written, Some((1_764_000_000, 123)));
        assert!(text.contains("\npaths: 3\nmade:\na/\na/b.html\t00000000000000ab\n"));
    }

    #[test]
    fn a_restamped_marker_proves_itself_with_its_new_time_only() {
        let mut text = marker_text(&list(), (5, 6));
        let len = text.len();
        let (at, part) = restamp(&mut text, (1_764_000_001, 999_999_999));
        let (at, part) = (at as usize, part.to_string());
        assert_eq!(text.len(), len);
        assert_eq!(&text[at..at + part.len()], part);
        assert_eq!(text, marker_text(&list(), (1_764_000_001, 999_999_999)));
        assert!(part.starts_with("check: ") && part.ends_with("999999999\n"));
    }

    #[test]
    fn a_cut_emptied_or_edited_marker_is_damaged() {
        let text = marker_text(&list(), (1_764_000_000, 0));
        for cut in 0..text.len() {
            assert!(parse(&text[..cut]).is_err(), "cut at {cut}");
        }
        assert_eq!(parse("").err(), Some("it is empty"));
        let huge = "x".repeat(MAX_LEN as usize + 1);
        assert_eq!(
            parse(&huge).err(),
            Some("it is larger than any marker this tool writes")
        );
        for (from, to) in [
            ("c.html", "d.html"),
            ("00ab", "00ac"),
            ("paths: 3", "paths: 4"),
            ("written: 0", "written: 1"),
            ("may delete", "may remove"),
            ("\na/\n", "\n"),
        ] {
            assert!(parse(&text.replacen(from, to, 1)).is_err(), "{from}");
        }
        // A proven text in a layout no version wrote.
        let mut odd = text.replace("paths: 3", "paths: 2");
        seal(&mut odd);
        assert_eq!(parse(&odd).err(), Some("no version of this tool wrote it"));
    }

    #[test]
    fn only_exactly_what_an_older_version_wrote_counts_as_its() {
        let unlisted = parse(UNLISTED_TEXT).unwrap();
        assert!(matches!(unlisted.made, Made::Unlisted) && unlisted.written.is_none());
        let older = format!("{MARKER_TEXT}{LIST_HEADER}a/\na/b.html\t00000000000000ab\nc.html\n");
        let old = parse(&older).unwrap();
        assert!(matches!(&old.made, Made::Listed(l) if l.len() == 3));
        assert_eq!(old.written, None, "an older list is trusted by no time");
        for damaged in [
            &UNLISTED_TEXT[..UNLISTED_TEXT.len() - 1],
            &older[..older.len() - 3],
            &older.replace("a/\na/b.html", "a/b.html\na/"),
            &older.replace("ab\n", "AB\n"),
            &older.replace("nothing else", "nothing more"),
            "\n",
            "made:\n",
        ] {
            assert!(parse(damaged).is_err(), "{damaged:?}");
        }
    }

    #[test]
    fn a_staging_list_is_read_however_it_was_cut() {
        let tmp = tempfile::tempdir().unwrap();
        let write = |text: &str| fs::write(tmp.path().join(MARKER), text).unwrap();
        write(&format!("{MARKER_TEXT}{LIST_HEADER}b/\nb/1.ht"));
        let Some(Made::Listed(l)) = read_staging(tmp.path()).unwrap() else {
            panic!("a list")
        };
        assert!(l.contains_key("b/") && l.len() == 2);
        write("someone else's");
        assert!(read_staging(tmp.path()).unwrap().is_none());
    }
}
