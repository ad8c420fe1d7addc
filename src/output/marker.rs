//! The marker: the file that says a folder is this tool's output and
//! lists every path the build made there, the only paths ever deleted,
//! each file with a checksum of its bytes for the next build ([`sum`]).
//!
//! The marker proves itself whole, and proves where it belongs. It carries
//! the count of its paths, the time the build wrote the site, the identity
//! of the folder it was written in ([`Identity`]) and the name of the
//! output it was made for, and a checksum of all of it: a marker that was
//! emptied, cut short or edited is found damaged and the build refuses to
//! touch the folder. One that proves itself but names another folder (a
//! copy of a whole site, a restore, or a marker copied among someone
//! else's files) is read as [`OldMarker::copied`], trusted by no time, and
//! taken only once the folder is found to hold exactly what it lists
//! (`output::check_copy`). The time is the marker's own word, not the
//! file's modification time, which touching, copying or restoring the file
//! changes.
//!
//! Every path and name is written escaped ([`escape_into`]): a backslash,
//! a control character or a byte that is not UTF-8 as `\xHH`, so each line
//! holds exactly one path and reads back as the same bytes.

use std::fs;
use std::io;
use std::os::fd::AsRawFd;
use std::path::Path;

use rustc_hash::FxHashMap;

/// The file that marks a folder as this tool's output. Its first line says
/// so; then come its [`CHECK`] (over everything else in it), when the
/// build wrote the site, the folder it was written in, the output's name,
/// the count of the paths listed, and, after [`LIST_HEADER`], every file
/// and folder (folders end in `/`) that the build made, and so may be
/// deleted by the next one; a file's line ends in a tab and the [`sum`] of
/// its bytes, in hex, where the build knew them (not for a copy of
/// `static/`'s extras).
pub const MARKER: &str = ".tictactoe-book";
pub(super) const MARKER_TEXT: &str = "Made by tictactoe-book: `cargo xtask build-site` may delete the paths \
listed below, and nothing else, when it replaces this folder.\n";
pub(super) const LIST_HEADER: &str = "made:\n";
/// The line that proves the marker whole: XXH3's 128 bits of the rest of
/// the text (its first line, then everything after this line).
const CHECK: &str = "check: ";
const WRITTEN: &str = "written: ";
/// The folder the marker was written in ([`Identity`]).
const FOLDER: &str = "folder: ";
/// The name of the output it was made for, escaped: a staging folder is
/// swept only by a build into the output of that name.
const FOR: &str = "for: ";
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

/// What ties a marker to the folder it was written in: the folder's inode
/// number and, where the file system keeps one, its birth time. A rename
/// keeps both (a staging folder swapped into place is the same folder); a
/// copy of the folder, or a marker copied into another, has others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Identity {
    ino: u64,
    born: Option<Time>,
}

impl Identity {
    /// The identity of the open folder `dir`.
    pub(super) fn of(dir: &impl AsRawFd) -> io::Result<Identity> {
        let mut st = std::mem::MaybeUninit::<libc::statx>::zeroed();
        let mask = libc::STATX_INO | libc::STATX_BTIME;
        // SAFETY: `dir` is open, the empty path is NUL-terminated, and
        // `st` is written by the call.
        let rc = unsafe {
            libc::statx(
                dir.as_raw_fd(),
                c"".as_ptr(),
                libc::AT_EMPTY_PATH,
                mask,
                st.as_mut_ptr(),
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: filled in when `statx` succeeded.
        let st = unsafe { st.assume_init() };
        let born = (st.stx_mask & libc::STATX_BTIME != 0)
            .then_some((st.stx_btime.tv_sec, i64::from(st.stx_btime.tv_nsec)));
        Ok(Identity {
            ino: st.stx_ino,
            born,
        })
    }

    /// The identity of the folder at `dir`, not through a symbolic link.
    pub(super) fn of_path(dir: &Path) -> io::Result<Identity> {
        Identity::of(&super::walk::open_folder(dir)?)
    }

    /// As the marker writes it: the number, then the birth time or `-`.
    fn text(&self) -> String {
        match self.born {
            Some(t) => format!("{} {}", self.ino, time(t)),
            None => format!("{} -", self.ino),
        }
    }
}

/// What a folder's marker says the tool made there.
pub(super) enum Made {
    /// The listed paths.
    Listed(List),
    /// A marker from before the list was kept: the paths the new build
    /// writes count as made, and nothing else, so anything else in the
    /// folder (a `CNAME`, an old game's pages, a user's notes) is foreign
    /// and refuses the build.
    Unlisted,
}

/// An old output's marker, as a build finds it when it starts.
pub(super) struct OldMarker {
    /// What it lists.
    pub(super) made: Made,
    /// When the build wrote the site, as the marker itself says, for a
    /// marker of this version that proves itself and belongs to its folder
    /// (`None` for an older version's, whose time cannot be trusted: then
    /// nothing is trusted by time). A listed file whose inode has not
    /// changed since (its change time is earlier) still holds the bytes
    /// its sum was taken of; a listed folder not modified since holds only
    /// what it held then, listed paths.
    pub(super) written: Option<Time>,
    /// For this version's marker, the folder it was written in and the
    /// name of the output it was made for.
    pub(super) belongs: Option<(Identity, Vec<u8>)>,
    /// Whether it was written in another folder than the one it is in: a
    /// copy or a restore of a whole site, or a marker copied into a folder
    /// of someone else's files. Its list says what the tool made there
    /// only if the folder holds exactly that, every file with its
    /// checksum, which the caller checks before it takes the folder; its
    /// time is not trusted (`written` is `None`).
    pub(super) copied: bool,
}

/// Why a marker cannot be read as one.
#[derive(Debug)]
pub(super) enum MarkerError {
    /// It could not be read.
    Io(io::Error),
    /// It does not prove itself: what is wrong.
    Damaged(&'static str),
}

impl OldMarker {
    /// Reads `dir`'s marker; `None` when it has none (or it is not a plain
    /// file). A marker that does not prove itself, and is not exactly what
    /// an earlier version wrote, is [`MarkerError::Damaged`]; one that
    /// proves itself but was written in another folder is
    /// [`OldMarker::copied`], with no time.
    pub(super) fn read(dir: &Path) -> Result<Option<OldMarker>, MarkerError> {
        let Some(text) = read_text(dir).map_err(MarkerError::Io)? else {
            return Ok(None);
        };
        let mut parsed = parse(&text).map_err(MarkerError::Damaged)?;
        if let Some((folder, _)) = &parsed.belongs {
            let here = Identity::of_path(dir).map_err(MarkerError::Io)?;
            if *folder != here {
                parsed.copied = true;
                parsed.written = None;
            }
        }
        Ok(Some(parsed))
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

/// A marker's text, read: this version's or the one before, proven by its
/// check, or exactly what an earlier version wrote.
fn parse(text: &str) -> Result<OldMarker, &'static str> {
    let older = |made| {
        // An older version's time is trusted by nothing: it set it again
        // after removing the old site, over edits made meanwhile.
        Ok(OldMarker {
            made,
            written: None,
            belongs: None,
            copied: false,
        })
    };
    if text.is_empty() {
        return Err("it is empty");
    }
    if text.len() as u64 > MAX_LEN {
        return Err("it is larger than any marker this tool writes");
    }
    if text == UNLISTED_TEXT {
        return older(Made::Unlisted);
    }
    let Some(rest) = text.strip_prefix(MARKER_TEXT) else {
        return Err("its first line is not this tool's");
    };
    if let Some(list) = rest.strip_prefix(LIST_HEADER) {
        // The list as two earlier versions wrote it, with no check: taken
        // only as they wrote it (sorted, each sum in lower case, whole
        // lines, names as they are).
        return older(Made::Listed(list_of(list, false).ok_or("it is not whole")?));
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
    let written = parse_time(written).ok_or(unknown)?;
    let (belongs, rest) = match field(rest, FOLDER) {
        Some((folder, rest)) => {
            let (name, rest) = field(rest, FOR).ok_or(unknown)?;
            let belongs = (parse_identity(folder), unescape(name));
            let (Some(folder), Some(name)) = belongs else {
                return Err(unknown);
            };
            (Some((folder, name)), rest)
        }
        // The version before this one: names as they are, no folder.
        None => (None, rest),
    };
    let (paths, rest) = field(rest, PATHS).ok_or(unknown)?;
    let list = rest.strip_prefix(LIST_HEADER).ok_or(unknown)?;
    let list = list_of(list, belongs.is_some()).ok_or(unknown)?;
    if paths.parse::<usize>().ok() != Some(list.len()) {
        return Err(unknown);
    }
    if belongs.is_none() {
        return older(Made::Listed(list));
    }
    Ok(OldMarker {
        made: Made::Listed(list),
        written: Some(written),
        belongs,
        copied: false,
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

/// An [`Identity`] as [`Identity::text`] writes it.
fn parse_identity(text: &str) -> Option<Identity> {
    let (ino, born) = text.split_once(' ')?;
    let digits = !ino.is_empty() && ino.bytes().all(|b| b.is_ascii_digit());
    let born = match born {
        "-" => None,
        t => Some(parse_time(t)?),
    };
    Some(Identity {
        ino: ino.parse().ok().filter(|_| digits)?,
        born,
    })
}

/// The list after [`LIST_HEADER`], if it is exactly as a version of this
/// tool writes one: whole lines, each path once and in sorted order, each
/// sum in lower case; `escaped` as this version writes paths.
fn list_of(text: &str, escaped: bool) -> Option<List> {
    if !(text.is_empty() || text.ends_with('\n')) {
        return None;
    }
    let mut paths = List::default();
    let mut last = String::new();
    for l in text.split_terminator('\n') {
        let (path, sum) = match escaped {
            true => line(l)?,
            false => older_line(l),
        };
        let sorted = path > last && !path.is_empty();
        let hex = &l[l.len() - if sum.is_some() { 16 } else { 0 }..];
        if !sorted || !lower_hex(hex) {
            return None;
        }
        paths.insert(path.clone(), sum);
        last = path;
    }
    Some(paths)
}

/// A staging folder's list, as a killed build may have left it: this
/// version's whole marker, made for the output `name`, or the list a build
/// writes as it goes ([`staging_header`], then each path before it is
/// made), cut wherever the build was killed. Either must have been written
/// in `dir` itself: a folder is only taken for a staging folder when its
/// marker proves the tool made it there. `None` otherwise.
pub(super) fn read_staging(dir: &Path, name: &[u8]) -> io::Result<Option<Made>> {
    let Some(text) = read_text(dir)? else {
        return Ok(None);
    };
    let here = Identity::of_path(dir)?;
    if let Ok(parsed) = parse(&text) {
        let ours = parsed.belongs.is_some_and(|(f, n)| f == here && n == name);
        return Ok(ours.then_some(parsed.made));
    }
    let Some(list) = text.strip_prefix(&staging_header(here, name)) else {
        return Ok(None);
    };
    let mut paths = List::default();
    // Only whole lines: a line cut short was being written when the build
    // was killed, and nothing of its batch was made yet.
    for l in list
        .split_inclusive('\n')
        .filter_map(|l| l.strip_suffix('\n'))
    {
        let Some(path) = unescape(l).and_then(|p| String::from_utf8(p).ok()) else {
            break;
        };
        paths.insert(path, None);
    }
    Ok(Some(Made::Listed(paths)))
}

/// What a staging folder's marker starts with while the build writes it:
/// the first line, the folder and the output's name, then the list's
/// header; each path is added below it before it is made.
pub(super) fn staging_header(folder: Identity, name: &[u8]) -> String {
    let mut text = format!("{MARKER_TEXT}{FOLDER}{}\n{FOR}", folder.text());
    escape_into(&mut text, name);
    text.push('\n');
    text.push_str(LIST_HEADER);
    text
}

/// Whether `text`, what a staging folder's marker holds, is the start of
/// its [`staging_header`]: a build killed while writing it.
pub(super) fn is_staging_start(text: &[u8], folder: Identity, name: &[u8]) -> bool {
    staging_header(folder, name).as_bytes().starts_with(text)
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
            Made::Unlisted => new.contains_key(key),
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

/// A line of this version's list: its path, unescaped, and the checksum it
/// ends in, if any (after the one tab a line can hold).
fn line(l: &str) -> Option<(String, Option<u64>)> {
    let (path, sum) = match l.split_once('\t') {
        Some((path, hex)) if hex.len() == 16 => (path, Some(u64::from_str_radix(hex, 16).ok()?)),
        Some(_) => return None,
        None => (l, None),
    };
    Some((String::from_utf8(unescape(path)?).ok()?, sum))
}

/// A line of an older version's list, whose names were written as they
/// are: a sum is taken only whole, after the last tab.
fn older_line(l: &str) -> (String, Option<u64>) {
    match l.rsplit_once('\t') {
        Some((path, hex)) if hex.len() == 16 => match u64::from_str_radix(hex, 16) {
            Ok(sum) => (path.to_string(), Some(sum)),
            Err(_) => (l.to_string(), None),
        },
        _ => (l.to_string(), None),
    }
}

/// The digits of the marker's hex, in lower case.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// Whether `b` is written as it is in a marker's line.
fn plain(b: u8) -> bool {
    (0x20..0x7f).contains(&b) && b != b'\\'
}

/// Appends `bytes`, a path or name, to `text` as a marker writes it: a
/// backslash, a control character or a byte that is not UTF-8 as `\xHH`
/// (lower case), everything else as it is.
pub(super) fn escape_into(text: &mut String, bytes: &[u8]) {
    if bytes.iter().all(|&b| plain(b)) {
        // Every path the build makes itself.
        text.push_str(std::str::from_utf8(bytes).expect("ASCII"));
        return;
    }
    let hex = |text: &mut String, b: u8| {
        text.push_str("\\x");
        text.push(char::from(HEX[usize::from(b >> 4)]));
        text.push(char::from(HEX[usize::from(b & 15)]));
    };
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' || c.is_control() {
                c.encode_utf8(&mut [0; 4])
                    .bytes()
                    .for_each(|b| hex(text, b));
            } else {
                text.push(c);
            }
        }
        chunk.invalid().iter().for_each(|&b| hex(text, b));
    }
}

/// The bytes [`escape_into`] wrote as `text`; `None` for text it cannot
/// have written (a control character, a bad escape, a NUL).
pub(super) fn unescape(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'\\' => {
                let (x, hi, lo) = (bytes.next()?, bytes.next()?, bytes.next()?);
                let digit = |d: u8| match d {
                    b'0'..=b'9' => Some(d - b'0'),
                    b'a'..=b'f' => Some(d - b'a' + 10),
                    _ => None,
                };
                let b = (digit(hi)? << 4) | digit(lo)?;
                if x != b'x' || b == 0 {
                    return None;
                }
                out.push(b);
            }
            b if b < 0x20 || b == 0x7f => return None,
            b => out.push(b),
        }
    }
    Some(out)
}

/// `secs.nanos`, the seconds to 12 digits.
fn time(t: Time) -> String {
    format!("{:012}.{:09}", t.0.max(0), t.1)
}

/// The marker's text for the folder `folder`, the output `name`, holding
/// `made`, the build having written it at `written`: its first line, the
/// check, the time, the folder, the name, the count, and each path with
/// its sum if it has one, in sorted order, so that the same list is the
/// same text on every machine.
pub(super) fn marker_text(made: &List, written: Time, folder: Identity, name: &[u8]) -> String {
    // Every path is different; sorted on every core, as this is the
    // build's last step.
    let mut list: Vec<(&String, &Option<u64>)> = made.iter().collect();
    crate::par::sort_unstable(&mut list);
    let mut text = format!(
        "{MARKER_TEXT}{CHECK}{:032x}\n{WRITTEN}{}\n{FOLDER}{}\n{FOR}",
        0,
        time(written),
        folder.text(),
    );
    escape_into(&mut text, name);
    text.push('\n');
    text.push_str(&format!("{PATHS}{}\n{LIST_HEADER}", made.len()));
    for (p, sum) in list {
        escape_into(&mut text, p.as_bytes());
        if let Some(sum) = sum {
            // Sixteen hex digits by hand: a line for every file.
            text.push('\t');
            for d in (0..16).rev() {
                text.push(char::from(HEX[(sum >> (4 * d) & 0xf) as usize]));
            }
        }
        text.push('\n');
    }
    seal(&mut text);
    text
}

/// Where the check line's value starts.
const CHECK_AT: usize = MARKER_TEXT.len() + CHECK.len();

/// The part of the marker [`marker_text`] writes for these same arguments
/// that a new time `written` changes (the check and the time, which take
/// the same room whatever the time), and where it starts: written over a
/// marker of the same list, folder and name in one write, it gives that
/// marker the new time.
pub(super) fn retime(made: &List, written: Time, folder: Identity, name: &[u8]) -> (u64, String) {
    let text = marker_text(made, written, folder, name);
    let end = CHECK_AT + 33 + WRITTEN.len() + time(written).len() + 1;
    (
        MARKER_TEXT.len() as u64,
        text[MARKER_TEXT.len()..end].to_string(),
    )
}

/// Fills in the check of `text`, a marker as [`marker_text`] lays it out.
fn seal(text: &mut String) {
    let check = format!("{:032x}", checksum(&text[CHECK_AT + 33..]));
    text.replace_range(CHECK_AT..CHECK_AT + 32, &check);
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

    const HERE: Identity = Identity {
        ino: 42,
        born: Some((1_700_000_000, 5)),
    };

    /// The marker of the version before this one: no folder, names as
    /// they are.
    fn previous(made: &List, written: Time) -> String {
        let text = marker_text(made, written, HERE, b"site");
        let start = text.find(FOLDER).unwrap();
        let end = text.find(PATHS).unwrap();
        let mut text = format!("{}{}", &text[..start], &text[end..]);
        seal(&mut text);
        text
    }

    #[test]
    fn a_line_is_a_path_and_perhaps_a_sum() {
        let parse = |l| line(l).unwrap();
        assert_eq!(
            parse("a/b.html\t00000000000000ff"),
            ("a/b.html".into(), Some(255))
        );
        assert_eq!(parse("a/"), ("a/".into(), None));
        assert_eq!(parse("odd\\x09name"), ("odd\tname".into(), None));
        assert!(
            line("odd\tname").is_none(),
            "a raw tab is only before a sum"
        );
        assert!(line("a\t000000000000000g").is_none());
        // An older version's line, names as they were.
        assert_eq!(older_line("odd\tname"), ("odd\tname".into(), None));
        assert_eq!(
            older_line("odd\tname\t00000000000000ff"),
            ("odd\tname".into(), Some(255))
        );
    }

    #[test]
    fn every_name_round_trips_through_its_escape() {
        let mut names: Vec<Vec<u8>> = vec![
            b"plain.html".to_vec(),
            b"tab\there".to_vec(),
            b"new\nline".to_vec(),
            b"cr\r".to_vec(),
            b"back\\slash\\x41".to_vec(),
            vec![0xff, b'a', 0xc3],
            "caf\u{e9} \u{85}".as_bytes().to_vec(),
            b"\x7f\x01".to_vec(),
        ];
        // Every byte but NUL, in each position of a short name.
        for b in 1..=255u8 {
            names.push(vec![b]);
            names.push(vec![b'a', b, b'z']);
        }
        for name in names {
            let mut text = String::new();
            escape_into(&mut text, &name);
            assert!(!text.contains(['\n', '\t', '\r']), "{text:?}");
            assert_eq!(unescape(&text).as_deref(), Some(&name[..]), "{text:?}");
        }
        for bad in ["\\", "\\x4", "\\y41", "\\x00", "a\tb", "\\xAB"] {
            assert!(unescape(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn a_marker_reads_back_as_written_with_its_time_and_folder() {
        let mut made = list();
        made.insert("odd\n\tname\\".into(), Some(7));
        let text = marker_text(&made, (1_764_000_000, 123), HERE, b"si\nte");
        let parsed = parse(&text).unwrap();
        assert!(matches!(&parsed.made, Made::Listed(l) if *l == made));
        assert_eq!(parsed.written, Some((1_764_000_000, 123)));
        assert_eq!(parsed.belongs, Some((HERE, b"si\nte".to_vec())));
        assert!(text.contains("\npaths: 4\nmade:\na/\na/b.html\t00000000000000ab\n"));
        assert!(text.contains("\nodd\\x0a\\x09name\\x5c\t0000000000000007\n"));
        let unborn = Identity { ino: 1, born: None };
        let text = marker_text(&list(), (5, 6), unborn, b"x");
        assert_eq!(parse(&text).unwrap().belongs, Some((unborn, b"x".to_vec())));
    }

    #[test]
    fn a_retimed_marker_proves_itself_with_its_new_time_only() {
        let old = marker_text(&list(), (5, 6), HERE, b"site");
        let (at, part) = retime(&list(), (1_764_000_001, 999_999_999), HERE, b"site");
        let mut text = old.clone();
        text.replace_range(at as usize..at as usize + part.len(), &part);
        assert_eq!(
            text,
            marker_text(&list(), (1_764_000_001, 999_999_999), HERE, b"site")
        );
        assert!(part.starts_with("check: ") && part.ends_with("999999999\n"));
        assert_eq!(
            &text[at as usize + part.len()..],
            &old[at as usize + part.len()..]
        );
    }

    #[test]
    fn a_cut_emptied_or_edited_marker_is_damaged() {
        let text = marker_text(&list(), (1_764_000_000, 0), HERE, b"site");
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
            ("folder: 42", "folder: 43"),
            ("for: site", "for: sitf"),
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
    fn only_exactly_what_an_older_version_wrote_counts_as_its_and_no_time_of_it() {
        let unlisted = parse(UNLISTED_TEXT).unwrap();
        assert!(matches!(unlisted.made, Made::Unlisted) && unlisted.written.is_none());
        let older = format!("{MARKER_TEXT}{LIST_HEADER}a/\na/b.html\t00000000000000ab\nc.html\n");
        let old = parse(&older).unwrap();
        assert!(matches!(&old.made, Made::Listed(l) if l.len() == 3));
        assert_eq!(old.written, None, "an older list is trusted by no time");
        let before = parse(&previous(&list(), (1_764_000_000, 0))).unwrap();
        assert!(matches!(&before.made, Made::Listed(l) if *l == list()));
        assert!(before.written.is_none() && before.belongs.is_none());
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
    fn the_first_versions_marker_counts_only_what_the_new_build_makes() {
        let new: List = [
            ("two-player/".to_string(), None),
            ("two-player/0.html".into(), None),
        ]
        .into_iter()
        .collect();
        assert!(Made::Unlisted.contains("two-player/0.html", &new));
        assert!(!Made::Unlisted.contains("two-player/notes.txt", &new));
        assert!(!Made::Unlisted.contains("analysis/drafts/", &new));
    }

    #[test]
    fn a_marker_belongs_to_the_folder_it_was_written_in() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        fs::create_dir(&a).unwrap();
        fs::create_dir(&b).unwrap();
        let id = Identity::of_path(&a).unwrap();
        assert_ne!(id, Identity::of_path(&b).unwrap());
        fs::write(a.join(MARKER), marker_text(&list(), (5, 6), id, b"a")).unwrap();
        assert!(OldMarker::read(&a).unwrap().is_some());
        let here = OldMarker::read(&a).unwrap().unwrap();
        assert!(!here.copied && here.written == Some((5, 6)));
        fs::copy(a.join(MARKER), b.join(MARKER)).unwrap();
        // Not damaged: copied, with its list, and no time to trust.
        let copied = OldMarker::read(&b).unwrap().unwrap();
        assert!(copied.copied && copied.written.is_none());
        assert!(matches!(&copied.made, Made::Listed(l) if *l == list()));
        // A rename keeps the folder, and so its marker.
        let c = tmp.path().join("c");
        fs::rename(&a, &c).unwrap();
        let renamed = OldMarker::read(&c).unwrap().unwrap();
        assert!(!renamed.copied && renamed.written == Some((5, 6)));
    }

    #[test]
    fn a_staging_list_is_read_however_it_was_cut_only_in_its_own_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("s");
        fs::create_dir(&dir).unwrap();
        let id = Identity::of_path(&dir).unwrap();
        let write = |text: &str| fs::write(dir.join(MARKER), text).unwrap();
        write(&format!("{}b/\nb/1.ht", staging_header(id, b"site")));
        let Some(Made::Listed(l)) = read_staging(&dir, b"site").unwrap() else {
            panic!("a list")
        };
        // The line cut short names nothing made: `b/1.html` may be a user's.
        assert!(l.contains_key("b/") && l.len() == 1, "{l:?}");
        assert!(read_staging(&dir, b"other").unwrap().is_none());
        write("someone else's");
        assert!(read_staging(&dir, b"site").unwrap().is_none());
        // A whole marker: only one made for this output, in this folder.
        write(&marker_text(&list(), (5, 6), id, b"site"));
        assert!(read_staging(&dir, b"site").unwrap().is_some());
        write(&marker_text(&list(), (5, 6), id, b".site.building-1-0"));
        assert!(read_staging(&dir, b"site").unwrap().is_none());
        write(&marker_text(&list(), (5, 6), HERE, b"site"));
        assert!(read_staging(&dir, b"site").unwrap().is_none());
        let header = staging_header(id, b"site");
        for cut in 0..header.len() {
            assert!(is_staging_start(&header.as_bytes()[..cut], id, b"site"));
        }
        assert!(!is_staging_start(b"x", id, b"site"));
    }
}
