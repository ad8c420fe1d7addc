//! The one module that writes to the disk.
//!
//! Invariants:
//! - The output folder is replaced whole or not at all. Files are written
//!   into a staging folder beside it, which is then swapped into place in
//!   one step; a failed or killed build leaves the previous output exactly
//!   as it was, and removes the parent folders it created.
//! - Only what this tool made is ever deleted. Every folder it makes holds
//!   the marker file, which lists every file and folder the build put
//!   there, each before it is made (files stream in as they are ready);
//!   a deletion removes listed paths only, never follows a symbolic
//!   link, and takes the marker last, so a deletion cut short is finished
//!   by the next build.
//! - The old output is only read until the swap. A rebuild links an old
//!   file that holds exactly the new bytes into the staging folder
//!   (`reuse`), which leaves the old file as it was. Until the first file
//!   that differs, it only notes the files it found the same, and the
//!   staging folder holds just its marker; a rebuild that finds no change
//!   at all (the same paths, each file the same bytes and untouched, the
//!   same marker) keeps the old output where it is and swaps nothing. The
//!   marker gives each file's checksum, so an old file untouched since the
//!   marker was written is known without reading it.
//! - One build at a time per output folder: a build holds an advisory lock
//!   (`flock`) on `.<name>.lock` beside the output from before it looks at
//!   the folder until it has swapped; a second build waits for it.

mod copy;
mod marker;
mod remove;
mod reuse;
mod walk;

use std::ffi::{CString, OsString};
use std::fmt;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use rustc_hash::FxHashMap;

use copy::copy_file;
pub use marker::MARKER;
use marker::{
    Identity, List, Made, MarkerError, OldMarker, Time, escape_into, marker_text, staging_header,
};
use remove::{remove_made, remove_old, sweep_stale_staging};
use walk::{Folder, open_folder, path_of};

/// A file to write: its path relative to the output folder, `/`-separated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutFile {
    /// Relative path, such as `two-player/0.html`.
    pub path: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

impl OutFile {
    /// A file at `path` holding `bytes`.
    pub fn new(path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> OutFile {
        OutFile {
            path: path.into(),
            bytes: bytes.into(),
        }
    }
}

/// Why the output could not be written.
#[derive(Debug)]
pub enum OutputError {
    /// `--out` names something that is not a folder.
    NotADirectory(PathBuf),
    /// `--out` is a symbolic link: replacing it would replace the link.
    Symlink(PathBuf),
    /// A path the build opens (the lock beside the output) is not a
    /// regular file: a FIFO, a socket, a device or a folder.
    NotAFile(PathBuf),
    /// `--out` names no folder of its own (`.`, `..`, `/`): a build
    /// replaces its output folder, and cannot replace these.
    OddPath(PathBuf),
    /// `--out` names a non-empty folder that this tool did not make.
    NotOurs(PathBuf),
    /// The output folder holds something the last build did not make.
    Foreign(PathBuf),
    /// The output's marker does not prove itself (emptied, cut short,
    /// edited): the marker's path, and what is wrong with it.
    Damaged(PathBuf, &'static str),
    /// The output's marker was written in another folder, and the folder
    /// does not hold exactly what it lists: the output, the first path
    /// that differs, and how.
    CopyDiffers(PathBuf, PathBuf, &'static str),
    /// Two files of one name, or a file and a folder: the path.
    Twice(String),
    /// A file of `static/` could not be copied: its path and the error.
    Copy(PathBuf, io::Error),
    /// The disk refused: the path and the error.
    Io(PathBuf, io::Error),
    /// A file of the old output that the build found it could keep was
    /// changed or replaced by something else during the build.
    Changed(PathBuf),
    /// Another part of the build failed first, so this part stopped: the
    /// build reports that failure, never this.
    Stopped,
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::NotADirectory(p) => {
                write!(f, "output {} exists and is not a folder", p.display())
            }
            OutputError::Symlink(p) => write!(
                f,
                "output {} is a symbolic link; name the folder itself",
                p.display()
            ),
            OutputError::NotAFile(p) => write!(
                f,
                "{} is not a regular file (a FIFO, socket, device or folder?); \
                 the build takes it for its own: remove it",
                p.display()
            ),
            OutputError::OddPath(p) => write!(
                f,
                "output {} names no folder of its own: the build replaces its output folder whole, \
                 so name a new or earlier output folder without `..` after a name, such as `--out site`",
                match p.as_os_str().is_empty() {
                    true => "''".into(),
                    false => p.display().to_string(),
                }
            ),
            OutputError::NotOurs(p) => write!(
                f,
                "output folder {} is not empty and was not made by this tool (no {MARKER} file); \
                 refusing to replace it",
                p.display()
            ),
            OutputError::Foreign(p) => write!(
                f,
                "{} was not made by this tool; refusing to replace the folder holding it \
                 (move it away, or put it in static/ to have every build copy it)",
                p.display()
            ),
            OutputError::Damaged(p, why) => write!(
                f,
                "{} is damaged ({why}), so the build cannot tell its own files from yours \
                 and changes nothing; move the folder aside (or delete it) and build again",
                p.display()
            ),
            OutputError::CopyDiffers(out, p, why) => write!(
                f,
                "{} holds a marker written in another folder (a copy or a restore), and {} {why}, \
                 so the build cannot tell its own files from yours and changes nothing; \
                 move the folder aside (or delete it) and build again",
                out.display(),
                p.display()
            ),
            OutputError::Twice(p) => write!(f, "the build makes {p} twice"),
            OutputError::Copy(p, e) => write!(f, "cannot copy {}: {e}", p.display()),
            OutputError::Io(p, e) => write!(f, "cannot write {}: {e}", p.display()),
            OutputError::Changed(p) => write!(
                f,
                "{} changed while the build was reading it; run the build again",
                p.display()
            ),
            OutputError::Stopped => f.write_str("stopped: another part of the build failed"),
        }
    }
}

impl std::error::Error for OutputError {}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> OutputError + '_ {
    move |e| OutputError::Io(path.to_path_buf(), e)
}

/// Reads the marker of the output at `out`: a damaged one is an error, and
/// so is one written in another folder unless the folder holds exactly
/// what it lists ([`check_copy`]).
fn read_marker(out: &Path) -> Result<Option<OldMarker>, OutputError> {
    let old = OldMarker::read(out).map_err(|e| match e {
        MarkerError::Io(e) => OutputError::Io(out.join(MARKER), e),
        MarkerError::Damaged(why) => OutputError::Damaged(out.join(MARKER), why),
    })?;
    if let Some(old @ OldMarker { copied: true, .. }) = &old {
        let Made::Listed(listed) = &old.made else {
            unreachable!("only this version's marker names a folder")
        };
        check_copy(out, listed)?;
    }
    Ok(old)
}

/// For the output at `out`, whose marker was written in another folder and
/// lists `listed`: whether nothing of a user's can be lost by taking the
/// folder as this tool's. Every listed path must be there, of its kind (a
/// folder, or a regular file; never a link), each file the marker gives a
/// checksum of holding bytes of that checksum (every one is read), and
/// nothing else may be in the folder but the marker. Otherwise the error
/// names the first path, in sorted order, that differs. Nothing that is
/// not a regular file is opened but folders, and no link is followed.
fn check_copy(out: &Path, listed: &List) -> Result<(), OutputError> {
    const FOREIGN: &str = "was not made by this tool";
    // Every listed folder, and the root, opened once, one name a step.
    let mut folders: Vec<&str> = listed.keys().filter_map(|k| k.strip_suffix('/')).collect();
    folders.push("");
    folders.sort_unstable();
    let opened = crate::par::map(&folders, |d| walk::open_below(out, d));
    let mut differs: Vec<(String, &'static str)> = Vec::new();
    let mut open: FxHashMap<&str, OwnedFd> = FxHashMap::default();
    for (d, fd) in folders.iter().zip(opened) {
        match fd {
            Ok(fd) => {
                open.insert(d, fd);
            }
            Err(e) if d.is_empty() => return Err(OutputError::Io(out.to_path_buf(), e)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                differs.push((format!("{d}/"), "is missing"))
            }
            // A link (`O_NOFOLLOW`) or a file in a folder's place.
            Err(e) if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) => {
                differs.push((format!("{d}/"), "is not a folder"))
            }
            Err(_) => differs.push((format!("{d}/"), "cannot be read")),
        }
    }
    let files: Vec<(&String, &Option<u64>)> =
        listed.iter().filter(|(k, _)| !k.ends_with('/')).collect();
    let checked = crate::par::map(&files, |(path, sum)| {
        let (d, name) = path.rsplit_once('/').unwrap_or(("", path));
        // A file in a folder that differs is named by its folder.
        let folder = open.get(d)?;
        let why = match CString::new(name) {
            Ok(name) => reuse::holds_listed(folder, &name, **sum).err()?,
            Err(_) => "is missing",
        };
        Some(((*path).clone(), why))
    });
    differs.extend(checked.into_iter().flatten());
    // Anything else, anywhere below: a top-level entry a job.
    let root = Folder::open(out).map_err(io_err(out))?;
    let tops = root.entries().map_err(io_err(out))?;
    let found = crate::par::map(&tops, |top| {
        let first = |a: Option<(String, &'static str)>, k: &str, why| match a {
            Some(a) if a.0.as_str() < k => Some(a),
            _ => Some((k.to_string(), why)),
        };
        let (mut foreign, mut unread) = (None, None);
        let walked = root.walk(
            top,
            "",
            &mut |_, _, k| {
                if k != MARKER && !listed.contains_key(k) {
                    foreign = first(foreign.take(), k, FOREIGN);
                }
                Ok::<(), ()>(())
            },
            &mut |k, _| {
                unread = first(unread.take(), k, "cannot be read");
                Ok(())
            },
        );
        debug_assert!(walked.is_ok(), "nothing stops the walk");
        foreign.into_iter().chain(unread).min()
    });
    differs.extend(found.into_iter().flatten());
    // A listed path is named for how it differs, not as the foreign entry
    // in its place (a link where a folder was, a folder where a file was).
    let first = differs.into_iter().min_by(|(a, why_a), (b, why_b)| {
        let a = (a.trim_end_matches('/'), *why_a == FOREIGN);
        a.cmp(&(b.trim_end_matches('/'), *why_b == FOREIGN))
    });
    match first {
        Some((k, why)) => Err(OutputError::CopyDiffers(
            out.to_path_buf(),
            path_of(out, &k),
            why,
        )),
        None => Ok(()),
    }
}

/// An output folder split into the folder it sits in and its own name.
struct Place {
    out: PathBuf,
    parent: PathBuf,
    name: OsString,
}

/// `out` as the build takes it, read without the disk: a `.` or trailing
/// slash after a name is dropped (`site/.` and `site/` are `site`), and a
/// path that names no folder of its own is refused ([`OutputError::OddPath`]):
/// `.`, `..`, `/`, or one with `..` after a name (`ghost/../site` would
/// make `ghost/` first, and leads elsewhere if it is a link).
pub fn out_path(out: &Path) -> Result<PathBuf, OutputError> {
    let odd = || OutputError::OddPath(out.to_path_buf());
    let mut named = false;
    for c in out.components() {
        match c {
            Component::Normal(_) => named = true,
            Component::ParentDir if named => return Err(odd()),
            _ => {}
        }
    }
    match out.components().next_back() {
        Some(Component::Normal(_)) => Ok(out.components().collect()),
        _ => Err(odd()),
    }
}

impl Place {
    fn new(out: &Path) -> Result<Place, OutputError> {
        let out = out_path(out)?;
        let Some(Component::Normal(name)) = out.components().next_back() else {
            return Err(OutputError::OddPath(out));
        };
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Ok(Place {
            out: out.clone(),
            parent,
            name: name.to_os_string(),
        })
    }

    /// A name beside the output: `.<name><suffix>`.
    fn beside(&self, suffix: &str) -> PathBuf {
        let mut n = OsString::from(".");
        n.push(&self.name);
        n.push(suffix);
        self.parent.join(n)
    }

    /// The prefix of this output's staging folders' names, as bytes: an
    /// output's name need not be UTF-8.
    fn staging_prefix(&self) -> Vec<u8> {
        use std::os::unix::ffi::OsStrExt;
        [b".", self.name.as_bytes(), b".building-"].concat()
    }

    /// The output's own name, as the marker gives it.
    fn name_bytes(&self) -> &[u8] {
        use std::os::unix::ffi::OsStrExt;
        self.name.as_bytes()
    }
}

/// Every file and folder that writing `files` makes, folders ending in `/`.
#[cfg(test)]
fn made_paths(files: &[OutFile]) -> List {
    let mut paths = List::default();
    for f in files {
        let mut dir = f.path.as_str();
        while let Some((d, _)) = dir.rsplit_once('/') {
            if paths.insert(format!("{d}/"), None).is_some() {
                break;
            }
            dir = d;
        }
        paths.insert(f.path.clone(), None);
    }
    paths
}

/// Where `path` really is: absolute, without `.` or `..`, through every
/// symbolic link, for a path that may not exist yet (its deepest existing
/// folder is resolved, and the rest added as written). Reads only.
pub fn resolve(path: &Path) -> PathBuf {
    let absolute = std::env::current_dir().unwrap_or_default().join(path);
    let mut tail = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(real) = fs::canonicalize(at) {
            let mut out = real;
            for c in tail.iter().rev() {
                match c {
                    Component::ParentDir => {
                        out.pop();
                    }
                    Component::Normal(n) => out.push(n),
                    _ => {}
                }
            }
            return out;
        }
        match (at.parent(), at.components().next_back()) {
            (Some(up), Some(last)) => {
                tail.push(last);
                at = up;
            }
            _ => return absolute,
        }
    }
}

/// Checks that `out` names a folder of its own ([`out_path`]), without
/// looking at the disk.
pub fn check_name(out: &Path) -> Result<(), OutputError> {
    out_path(out).map(|_| ())
}

/// Checks that `out` may be written to, without writing anything: it is a
/// real folder that is empty or carries the marker, or is not there yet.
pub fn check_target(out: &Path) -> Result<(), OutputError> {
    let out = &out_path(out)?;
    match fs::symlink_metadata(out) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(OutputError::Io(out.to_path_buf(), e)),
        Ok(m) if m.file_type().is_symlink() => Err(OutputError::Symlink(out.to_path_buf())),
        Ok(m) if !m.is_dir() => Err(OutputError::NotADirectory(out.to_path_buf())),
        Ok(_) => {
            let marked = marker::is_marked(out).map_err(io_err(out))?;
            if marked || fs::read_dir(out).map_err(io_err(out))?.next().is_none() {
                Ok(())
            } else {
                Err(OutputError::NotOurs(out.to_path_buf()))
            }
        }
    }
}

/// Under the lock: checks that the output at `out`, whose marker is `old`,
/// holds nothing but what the marker lists (and the marker), the new build
/// making `new`. Done `thoroughly` (before a swap, which moves whatever the
/// output holds), every folder is walked, a top-level entry a job.
/// Otherwise (to keep an output that is already the new one, where nothing
/// moves), a listed folder not modified since the marker says it was
/// written holds only what it held then, listed paths; only the other
/// folders are listed and looked at, each on its own job.
fn check_foreign(
    out: &Path,
    old: &OldMarker,
    new: &List,
    thorough: bool,
) -> Result<(), OutputError> {
    use std::os::unix::fs::MetadataExt;
    let foreign = |k: &str| k != MARKER && !old.made.contains(k, new);
    let (Made::Listed(listed), Some(written), false) = (&old.made, old.written, thorough) else {
        let root = Folder::open(out).map_err(io_err(out))?;
        let tops = root.entries().map_err(io_err(out))?;
        let found = crate::par::map(&tops, |top| {
            root.walk(
                top,
                "",
                &mut |_, _, k| match foreign(k) {
                    true => Err(OutputError::Foreign(path_of(out, k))),
                    false => Ok(()),
                },
                &mut |_, e| Err(OutputError::Io(out.to_path_buf(), e)),
            )
        });
        return found.into_iter().collect();
    };
    let mut folders: Vec<&str> = listed.keys().filter_map(|k| k.strip_suffix('/')).collect();
    folders.push("");
    folders.sort_unstable();
    let found = crate::par::map(&folders, |d| {
        let path = out.join(d);
        match fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() && (m.mtime(), m.mtime_nsec()) < written => return Ok(()),
            // Gone, or no longer a folder: then its own folder was
            // modified, and names it.
            Ok(m) if !m.is_dir() => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            _ => {}
        }
        let folder = Folder::open(&path).map_err(io_err(&path))?;
        for entry in folder.entries().map_err(io_err(&path))? {
            let mut k = match *d {
                "" => String::new(),
                d => format!("{d}/"),
            };
            walk::push_name(&mut k, entry.name());
            if entry.is_dir() {
                k.push('/');
            }
            if foreign(&k) {
                return Err(OutputError::Foreign(path_of(out, &k)));
            }
        }
        Ok(())
    });
    found.into_iter().collect()
}

/// Writes `files` as the whole new content of `out`, replacing an earlier
/// output there: [`Staging::begin`], [`Staging::write`], [`Staging::commit`].
/// On error nothing at `out` has changed. On success, returns a warning for
/// each path of the old output that could not be removed.
pub fn publish(out: &Path, files: &[OutFile]) -> Result<Vec<String>, OutputError> {
    let staging = Staging::begin(out)?;
    staging.write(files)?;
    Ok(staging.commit()?.warnings)
}

/// What [`Staging::commit`] did.
#[derive(Debug, Default)]
pub struct Committed {
    /// Whether the old output was already this build's, byte for byte, and
    /// stays as it was: nothing was written.
    pub unchanged: bool,
    /// Whether the old output's marker was written in another folder (a
    /// copy or a restore of a whole site) and the folder held exactly what
    /// it lists, so it was taken and replaced: the user is told, once.
    pub took_copy: bool,
    /// A line for each path of the old output that could not be removed,
    /// or stale staging folder that could not be cleared.
    pub warnings: Vec<String>,
}

/// A new output being written beside the old one, which it replaces whole
/// on [`Staging::commit`]. Files stream in from any thread as they are
/// ready ([`Staging::write`], [`Staging::copy`]); dropped without a commit
/// (an error anywhere in the build), it removes everything it wrote, and
/// the parent folders it made, and `out` is as it was.
///
/// The staging folder's marker lists each path before the path is made,
/// so a build killed at any moment leaves only listed paths, which the
/// next build's sweep removes; the commit rewrites the list sorted, so the
/// marker is byte-identical whatever order the files came in.
pub struct Staging {
    place: Place,
    /// Parent folders of `out` that this build made, outermost first.
    created: Vec<PathBuf>,
    /// Held from before the old output is looked at until the swap.
    lock: Option<fs::File>,
    dir: PathBuf,
    progress: Mutex<Progress>,
    /// Lines about stale staging folders that could not be cleared.
    warnings: Vec<String>,
    committed: bool,
    /// The permission bits a new file gets here (0666 less the umask), as
    /// the marker got them: an old file is linked only if it has them.
    file_mode: u32,
    /// What the old output's marker listed, and when it was written: each
    /// file's checksum, and the time an untouched file's inode is older
    /// than.
    old: Option<OldMarker>,
    /// The staging folder's identity, which its marker gives, once made.
    identity: Option<Identity>,
    /// The kernel's time when the build began, before it looked at any
    /// file of the old output.
    begun: Time,
    /// Whether the build read a file of the old output that the marker
    /// gives a checksum of, its time being no proof: then a build that keeps the old
    /// output gives its marker the time the build began ([`Staging::retime`]).
    read_old: std::sync::atomic::AtomicBool,
}

/// What a staging folder holds so far.
struct Progress {
    /// Every path claimed, folders ending in `/`, each file with its
    /// checksum once it is known: listed in the marker, unless the build
    /// has found no change yet (`unchanged`).
    made: List,
    /// Each folder made, open, by its path in the staging folder (`""`
    /// for the staging folder itself), with the old output's folder of
    /// that path: files are created relative to their folder (`openat`),
    /// so the kernel looks up one name a file, not the whole path.
    folders: FxHashMap<String, Arc<Folders>>,
    /// The marker, open at its end, once the folder is there.
    marker: Option<fs::File>,
    /// While every file so far is one the old output holds already, with
    /// the same bytes (a rebuild that has found no change yet): those
    /// files, checked but not yet linked. Until then the staging folder
    /// holds only its marker's first lines, so a rebuild that changes
    /// nothing leaves the old output in place, untouched. `None` once the
    /// staging folder is filled in ([`Progress::stage`]), or from the start
    /// when there is no old output.
    unchanged: Option<Vec<Unchanged>>,
}

/// A file found the same in the old output, to be linked if the staging
/// folder is filled in after all.
struct Unchanged {
    folder: Arc<Folders>,
    name: CString,
    same: reuse::Same,
}

/// A folder of the staging folder, open once it is made, and the old
/// output's folder of the same path, if there is one: where an unchanged
/// file is linked from ([`reuse`]).
struct Folders {
    new: OnceLock<OwnedFd>,
    old: Option<OwnedFd>,
    /// Its path in the output, for an error.
    path: String,
}

impl Folders {
    /// The staging folder's folder, which a file is written to only once
    /// the staging folder is filled in.
    fn staged(&self) -> &OwnedFd {
        self.new
            .get()
            .expect("made when the staging folder is filled in")
    }
}

impl Progress {
    /// Fills in the staging folder, if the build had found no change so
    /// far: lists every path claimed in the marker, then makes the
    /// folders. Returns the files found unchanged until now, for the
    /// caller to link ([`link_unchanged`]).
    fn stage(&mut self, dir: &Path) -> Result<Vec<Unchanged>, OutputError> {
        let Some(unchanged) = self.unchanged.take() else {
            return Ok(Vec::new());
        };
        let mut paths: Vec<&String> = self.made.keys().collect();
        // Outermost first: a folder's name sorts before the names inside it.
        paths.sort_unstable();
        let mut lines = String::new();
        for p in &paths {
            escape_into(&mut lines, p.as_bytes());
            lines.push('\n');
        }
        let marker = dir.join(MARKER);
        let file = self.marker.as_mut().expect("made in begin");
        io::Write::write_all(file, lines.as_bytes()).map_err(io_err(&marker))?;
        for d in paths.iter().filter_map(|p| p.strip_suffix('/')) {
            make_folder(dir, d, &self.folders[d])?;
        }
        Ok(unchanged)
    }
}

/// Makes the staging folder's folder `d` (its path inside `dir`) and opens
/// it as `folder`'s new one.
fn make_folder(dir: &Path, d: &str, folder: &Folders) -> Result<(), OutputError> {
    let path = dir.join(d);
    fs::create_dir(&path).map_err(io_err(&path))?;
    let new = open_folder(&path).map_err(io_err(&path))?;
    let _ = folder.new.set(new);
    Ok(())
}

/// Links the files that were found unchanged into the filled-in staging
/// folder, or copies one that cannot be linked (an immutable file). A file
/// of the old output that has changed or been replaced since it was
/// checked is an error: its new bytes are not kept.
fn link_unchanged(files: &[Unchanged], out: &Path) -> Result<(), OutputError> {
    crate::par::map(files, |u| {
        let old = u.folder.old.as_ref().expect("found in the old output");
        let new = u.folder.staged();
        let name = String::from_utf8_lossy(u.name.to_bytes());
        let path = || out.join(&u.folder.path).join(&*name);
        if reuse::link(old, new, &u.name, &u.same) {
            return Ok(());
        }
        match reuse::copy(old, new, &u.name, &u.same) {
            Ok(true) => Ok(()),
            Ok(false) => Err(OutputError::Changed(path())),
            Err(e) => Err(OutputError::Io(path(), e)),
        }
    })
    .into_iter()
    .collect()
}

impl Staging {
    /// The staging folder's identity: known from `begin` on.
    fn identity(&self) -> Identity {
        self.identity.expect("made in begin")
    }

    /// Takes the lock of `out` (waiting for another build into it), clears
    /// what killed builds left, and makes an empty staging folder beside it.
    pub fn begin(out: &Path) -> Result<Staging, OutputError> {
        use std::os::unix::fs::MetadataExt;
        check_target(out)?;
        let place = Place::new(out)?;
        let created = create_parents(&place.parent)?;
        // From here on, dropping `staging` undoes what it made.
        let mut staging = Staging {
            dir: PathBuf::new(),
            place,
            created,
            lock: None,
            progress: Mutex::new(Progress {
                made: List::default(),
                folders: FxHashMap::default(),
                marker: None,
                unchanged: None,
            }),
            warnings: Vec::new(),
            committed: false,
            file_mode: 0,
            old: None,
            identity: None,
            begun: (0, 0),
            read_old: Default::default(),
        };
        let lock_path = staging.place.beside(".lock");
        let lock = open_lock(&lock_path)?;
        lock.lock().map_err(io_err(&lock_path))?;
        staging.lock = Some(lock);
        // A damaged marker, or a copy that holds what its marker does not
        // list, refuses the build before anything is made. One that cannot
        // be read now is read again at the swap.
        let old = match read_marker(&staging.place.out) {
            Err(e @ (OutputError::Damaged(..) | OutputError::CopyDiffers(..))) => return Err(e),
            read => read.unwrap_or(None),
        };
        staging.warnings = sweep_stale_staging(&staging.place);
        let dir = make_staging(&staging.place).map_err(io_err(&staging.place.parent))?;
        staging.dir = dir;
        let new_root = open_folder(&staging.dir).map_err(io_err(&staging.dir))?;
        staging.identity = Some(Identity::of(&new_root).map_err(io_err(&staging.dir))?);
        let marker_path = staging.dir.join(MARKER);
        // Not O_APPEND, under which Linux ignores the offset of the sorted
        // rewrite; writes are in order under the lock anyway.
        let mut marker = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&marker_path)
            .map_err(io_err(&marker_path))?;
        let header = staging_header(staging.identity(), staging.place.name_bytes());
        io::Write::write_all(&mut marker, header.as_bytes()).map_err(io_err(&marker_path))?;
        let meta = marker.metadata().map_err(io_err(&marker_path))?;
        staging.file_mode = std::os::unix::fs::MetadataExt::mode(&meta) & 0o7777;
        // A marker whose time is ahead of the clock (set before the clock
        // was put back) cannot tell an edit made since from one before it:
        // then nothing is trusted by time.
        let now = (meta.mtime(), meta.mtime_nsec());
        staging.begun = now;
        let old = old.map(|old| OldMarker {
            written: old.written.filter(|&at| at < now),
            ..old
        });
        let root = Folders {
            new: OnceLock::from(new_root),
            // Under the lock, and checked by `check_target`: ours, or empty.
            old: open_folder(&staging.place.out).ok(),
            path: String::new(),
        };
        let progress = staging.progress.get_mut().expect("not shared yet");
        progress.marker = Some(marker);
        if root.old.is_some() {
            staging.old = old;
            // Room for every file the old output lists, and no more: a
            // rebuild that changes nothing notes each of them.
            let listed = match staging.old.as_ref().map(|old| &old.made) {
                Some(Made::Listed(list)) => list.values().filter(|sum| sum.is_some()).count(),
                _ => 0,
            };
            progress.unchanged = Some(Vec::with_capacity(listed));
        }
        progress.folders.insert(String::new(), Arc::new(root));
        Ok(staging)
    }

    /// Claims `paths` (and their folders): lists them in the marker, then
    /// makes the folders, or, while the build has found no change, only
    /// notes them. Refuses a path that is claimed already: two files of
    /// one name, or a file and a folder.
    fn claim<'a>(&self, paths: impl Iterator<Item = &'a str>) -> Result<(), OutputError> {
        let mut progress = self.progress.lock().expect("a writer panicked");
        let mut lines = String::new();
        let mut dirs = Vec::new();
        // A path as a folder's key, `d/`, in one buffer for every path.
        let mut key = String::new();
        let folder = |key: &mut String, k: &str| {
            key.clear();
            key.push_str(k);
            key.push('/');
        };
        progress.made.reserve(paths.size_hint().0);
        // The folder of the last path: claimed as a folder, so no file may
        // take its name, and its own folders with it. A batch's files
        // mostly share one.
        let mut last_dir = None;
        for path in paths {
            folder(&mut key, path);
            let made = &progress.made;
            if path == MARKER || made.contains_key(path) || made.contains_key(key.as_str()) {
                return Err(OutputError::Twice(path.to_string()));
            }
            let parent = path.rsplit_once('/').map(|(d, _)| d);
            let mut dir = if parent == last_dir { "" } else { path };
            last_dir = parent;
            while let Some((d, _)) = dir.rsplit_once('/') {
                if progress.made.contains_key(d) {
                    return Err(OutputError::Twice(d.to_string()));
                }
                folder(&mut key, d);
                if progress.made.contains_key(key.as_str()) {
                    break;
                }
                progress.made.insert(key.clone(), None);
                escape_into(&mut lines, key.as_bytes());
                lines.push('\n');
                dirs.push(d);
                dir = d;
            }
            progress.made.insert(path.to_string(), None);
            escape_into(&mut lines, path.as_bytes());
            lines.push('\n');
        }
        let staged = progress.unchanged.is_none();
        if staged {
            let marker = self.dir.join(MARKER);
            let file = progress.marker.as_mut().expect("made in begin");
            io::Write::write_all(file, lines.as_bytes()).map_err(io_err(&marker))?;
        }
        // Outermost first: a folder's name sorts before the names inside it.
        dirs.sort_unstable();
        for d in dirs {
            let (parent, name) = d.rsplit_once('/').unwrap_or(("", d));
            let old = progress.folders[parent]
                .old
                .as_ref()
                .and_then(|p| walk::open_folder_in(p, &CString::new(name).ok()?).ok());
            let folder = Arc::new(Folders {
                new: OnceLock::new(),
                old,
                path: d.to_string(),
            });
            if staged {
                make_folder(&self.dir, d, &folder)?;
            }
            progress.folders.insert(d.to_string(), folder);
        }
        Ok(())
    }

    /// Writes `files` into the new output; any thread may call it.
    pub fn write(&self, files: &[OutFile]) -> Result<(), OutputError> {
        self.claim(files.iter().map(|f| f.path.as_str()))?;
        // Each file's folder and name, the folders taken out of the lock
        // before the writing starts (a writer may itself wait on it).
        let folders: Vec<Arc<Folders>> = {
            let progress = self.progress.lock().expect("a writer panicked");
            files
                .iter()
                .map(|f| Arc::clone(&progress.folders[split(f).0]))
                .collect()
        };
        let names = files
            .iter()
            .map(|f| CString::new(split(f).1))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| OutputError::Io(self.dir.clone(), e.into()))?;
        let jobs: Vec<Job> = files
            .iter()
            .zip(&folders)
            .zip(&names)
            .map(|((f, folder), name)| (f, folder, name))
            .collect();
        // While no change is found, each file is only checked against the
        // old output; after, each is linked or written as it comes.
        let checked = self
            .progress
            .lock()
            .expect("a writer panicked")
            .unchanged
            .is_some();
        let found: Vec<(u64, Option<reuse::Same>)> = crate::par::map(&jobs, |job| {
            let sum = marker::sum(&job.0.bytes);
            (sum, if checked { self.same(job, sum) } else { None })
        });
        let earlier = {
            let mut progress = self.progress.lock().expect("a writer panicked");
            for ((f, ..), (sum, _)) in jobs.iter().zip(&found) {
                if let Some(listed) = progress.made.get_mut(&f.path) {
                    *listed = Some(*sum);
                }
            }
            match progress.unchanged.as_mut() {
                // Still no change anywhere: note this batch, write nothing.
                Some(list) if checked && found.iter().all(|(_, same)| same.is_some()) => {
                    let batch = jobs
                        .iter()
                        .zip(found)
                        .map(|((_, folder, name), (_, same))| Unchanged {
                            folder: Arc::clone(folder),
                            name: (*name).clone(),
                            same: same.expect("all found"),
                        });
                    list.extend(batch);
                    return Ok(());
                }
                _ => progress.stage(&self.dir)?,
            }
        };
        link_unchanged(&earlier, &self.place.out)?;
        let jobs: Vec<_> = jobs.into_iter().zip(found).collect();
        crate::par::map(&jobs, |(job, (sum, found))| {
            let (f, folder, name) = job;
            let same = if checked {
                *found
            } else {
                self.same(job, *sum)
            };
            let linked = match (folder.old.as_ref(), same) {
                (Some(old), Some(same)) => reuse::link_found(old, folder.staged(), name, &same),
                _ => false,
            };
            if linked {
                return Ok(());
            }
            create_in(folder.staged(), name, &f.bytes).map_err(io_err(&self.dir.join(&f.path)))
        })
        .into_iter()
        .collect()
    }

    /// Whether the old output holds the file `job` with its bytes already
    /// (their checksum is `sum`): what the file is, if so. Untouched since
    /// its marker gave it this same checksum, it is not read; otherwise it
    /// is read and compared, unless the marker's checksum differs.
    fn same(&self, (f, folder, name): &Job, sum: u64) -> Option<reuse::Same> {
        let old = folder.old.as_ref()?;
        let len = f.bytes.len() as u64;
        let marker = self.old.as_ref()?;
        let read = || reuse::same_bytes(old, name, &f.bytes, self.file_mode);
        match marker.made.sum(&f.path) {
            Some(had) if had != sum => None,
            Some(_) => {
                let Some(at) = marker.written else {
                    return read();
                };
                match reuse::untouched_since(old, name, len, self.file_mode, at) {
                    Ok(same) => Some(same),
                    // Changed after the marker's time (by the removal of
                    // the output before, or an edit): read, and noted.
                    Err(true) => {
                        self.read_old
                            .store(true, std::sync::atomic::Ordering::Relaxed);
                        read()
                    }
                    Err(false) => read(),
                }
            }
            None => read(),
        }
    }

    /// Gives the old output's marker, `old`, kept as this build's output
    /// at `place`, the time the build began, `begun`, for a build that read
    /// files to find them the same: each was read after that time, so a change to one since is
    /// stamped later, and the next build trusts what this one read. Only
    /// for a marker of this version, for this output's name; one write of
    /// its first lines, and a failure leaves the old time, which still
    /// holds.
    fn retime(place: &Place, begun: Time, old: &OldMarker, made: &List) {
        use std::os::unix::fs::OpenOptionsExt;
        let Some((folder, name)) = &old.belongs else {
            return;
        };
        if name != place.name_bytes() {
            return;
        }
        let (at, part) = marker::retime(made, begun, *folder, name);
        let file = fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(place.out.join(MARKER));
        if let Ok((file, true)) = file.and_then(|f| f.metadata().map(|m| (f, m.is_file()))) {
            let _ = std::os::unix::fs::FileExt::write_all_at(&file, part.as_bytes(), at);
        }
    }

    /// Copies the file at `from` to `path` in the new output, streaming:
    /// a reflink where the file system has them, and otherwise the data
    /// only, a range at a time, so holes stay holes and memory stays flat
    /// whatever the file's size.
    pub fn copy(&self, path: &str, from: &Path) -> Result<(), OutputError> {
        self.claim(std::iter::once(path))?;
        let to = self.dir.join(path);
        let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
        let name = CString::new(name).map_err(|e| OutputError::Io(to.clone(), e.into()))?;
        let folder = {
            let progress = self.progress.lock().expect("a writer panicked");
            Arc::clone(&progress.folders[folder])
        };
        // Always read, before a change is found and after (a file kept is
        // linked then, as `write` links one): the marker gives no
        // checksum of a copy.
        let same = (folder.old.as_ref())
            .and_then(|old| reuse::same_as_file(old, &name, from, self.file_mode));
        let earlier = {
            let mut progress = self.progress.lock().expect("a writer panicked");
            match (progress.unchanged.as_mut(), same) {
                (Some(list), Some(same)) => {
                    list.push(Unchanged { folder, name, same });
                    return Ok(());
                }
                _ => progress.stage(&self.dir)?,
            }
        };
        link_unchanged(&earlier, &self.place.out)?;
        let linked = match (&folder.old, same) {
            (Some(old), Some(same)) => reuse::link_found(old, folder.staged(), &name, &same),
            _ => false,
        };
        if linked {
            return Ok(());
        }
        copy_file(from, &to).map_err(|e| OutputError::Copy(from.to_path_buf(), e))
    }

    /// Starts the file `path` in the new output, to be written a piece at a
    /// time ([`Streamed::write`], then [`Streamed::finish`]), so that a
    /// large file (a book) is never held whole. Its path is claimed (and
    /// listed) now. Where the old output holds a file of that name, each
    /// piece is compared with it instead of written: a file that turns out
    /// the same is kept (linked, or, while the build has found no change,
    /// only noted), as [`Staging::write`] keeps one; at the first byte that
    /// differs the new file is made, the old one's bytes until then copied
    /// into it, and the rest written.
    pub fn stream(&self, path: &str) -> Result<Streamed<'_>, OutputError> {
        self.claim(std::iter::once(path))?;
        let to = self.dir.join(path);
        let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
        let name = CString::new(name).map_err(|e| OutputError::Io(to, e.into()))?;
        let folder = {
            let progress = self.progress.lock().expect("a writer panicked");
            Arc::clone(&progress.folders[folder])
        };
        let old = (folder.old.as_ref()).and_then(|o| reuse::open_any_len(o, &name, self.file_mode));
        let mut streamed = Streamed {
            staging: self,
            path: path.to_string(),
            folder,
            name,
            sum: xxhash_rust::xxh3::Xxh3::new(),
            len: 0,
            old,
            new: None,
            have: Vec::new(),
        };
        if streamed.old.is_none() {
            streamed.start_new()?;
        }
        Ok(streamed)
    }

    /// Puts the new output in place of the old in one step, then removes
    /// the old one; or, if the old output is already the new one, byte for
    /// byte, leaves it. On error nothing at `out` has changed.
    pub fn commit(mut self) -> Result<Committed, OutputError> {
        let result = self.swap_in();
        let mut warnings = std::mem::take(&mut self.warnings);
        let (unchanged, took_copy, left) = result?;
        warnings.extend(left);
        self.committed = true;
        Ok(Committed {
            unchanged,
            took_copy,
            warnings,
        })
    }

    /// Whether the old output stays as it was, whether it was a copy taken
    /// as this tool's, and the warnings.
    fn swap_in(&mut self) -> Result<(bool, bool, Vec<String>), OutputError> {
        let out = &self.place.out;
        let progress = self.progress.get_mut().expect("no writer left");
        check_target(out)?;
        // The marker read when the build began, if `out` is still the
        // folder opened then (under the lock, only another program could
        // have put another there).
        let begun = self.old.take();
        let old = match fs::symlink_metadata(out) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(OutputError::Io(out.clone(), e)),
            Ok(now) => {
                use std::os::unix::fs::MetadataExt;
                let opened = progress.folders[""].old.as_ref().and_then(reuse::stat_of);
                let opened = opened.map(|st| (st.st_dev, st.st_ino));
                match begun {
                    Some(begun) if opened == Some((now.dev(), now.ino())) => Some(begun),
                    // Not read when the build began (or not this folder):
                    // read now, and a failure fails the build.
                    _ => read_marker(out)?,
                }
            }
        };
        // A copy has no time, so it is never kept as it is: the swap gives
        // the output a marker that names its own folder.
        let took_copy = old.as_ref().is_some_and(|old| old.copied);
        if let Some(unchanged) = progress.unchanged.take() {
            let already = old.as_ref().is_some_and(|old| {
                check_foreign(out, old, &progress.made, false).is_ok()
                    && is_already(old, &progress.made, &unchanged)
            });
            if already {
                // The old output is this build's, byte for byte: it stays,
                // and the staging folder (its marker alone) goes.
                remove_made(&self.dir, &List::default());
                if self.read_old.load(std::sync::atomic::Ordering::Relaxed) {
                    let old = old.as_ref().expect("already");
                    Staging::retime(&self.place, self.begun, old, &progress.made);
                }
                return Ok((true, false, Vec::new()));
            }
            progress.unchanged = Some(unchanged);
            let earlier = progress.stage(&self.dir)?;
            link_unchanged(&earlier, out)?;
        }
        // The swap moves whatever the old output holds: every folder of it
        // is looked at first, whatever its time says.
        if let Some(old) = &old {
            check_foreign(out, old, &progress.made, true)?;
        }
        // The same paths sorted, with their checksums and the time, over
        // the list: the build's last change to what it lists.
        let marker = self.dir.join(MARKER);
        let file = progress.marker.as_ref().expect("made in begin");
        let written = stamp(file).map_err(io_err(&marker))?;
        let identity = self.identity.expect("made in begin");
        let text = marker_text(&progress.made, written, identity, self.place.name_bytes());
        std::os::unix::fs::FileExt::write_all_at(file, text.as_bytes(), 0)
            .map_err(io_err(&marker))?;
        // The time is not set again after the old output is removed, though
        // dropping its names changes the inodes the new output shares with
        // it: an edit made meanwhile would look as old as those changes.
        // The next build reads those files instead of trusting their time.
        match swap(&self.dir, out, &self.place).map_err(|e| OutputError::Io(out.clone(), e))? {
            None => Ok((false, took_copy, Vec::new())),
            Some(old_at) => {
                let old = old.map_or(Made::Listed(List::default()), |old| old.made);
                Ok((
                    false,
                    took_copy,
                    remove_old(&old_at, &old, &progress.made, &self.place),
                ))
            }
        }
    }
}

/// Sets the file's times to now, by the clock the kernel stamps changes
/// with, and returns that time: a change made after it is stamped no
/// earlier, and one made before it no later.
fn stamp(file: &fs::File) -> io::Result<Time> {
    use std::os::unix::fs::MetadataExt;
    let now = libc::timespec {
        tv_sec: 0,
        tv_nsec: libc::UTIME_NOW,
    };
    // SAFETY: `file` is open, and the two times are valid for the call.
    if unsafe { libc::futimens(file.as_raw_fd(), [now, now].as_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let meta = file.metadata()?;
    Ok((meta.mtime(), meta.mtime_nsec()))
}

/// Whether the old output, whose marker is `old`, is already what the
/// build made: its marker proves itself, names this folder (a copy's is
/// replaced, to name its own) and lists what the build made, with the
/// same checksums (and `check_foreign` found nothing else there), and each
/// of its files is still the one found to hold the new bytes (`unchanged`:
/// every file, as the build found no change).
fn is_already(old: &OldMarker, made: &List, unchanged: &[Unchanged]) -> bool {
    old.written.is_some()
        && !old.copied
        && matches!(&old.made, Made::Listed(list) if list == made)
        && crate::par::map(unchanged, |u| {
            let old = u.folder.old.as_ref().expect("found in the old output");
            reuse::unchanged(old, &u.name, &u.same)
        })
        .into_iter()
        .all(|same| same)
}

impl Drop for Staging {
    fn drop(&mut self) {
        if self.committed {
            return;
        }
        if !self.dir.as_os_str().is_empty() {
            let made = &self
                .progress
                .get_mut()
                .map(|p| p.made.clone())
                .unwrap_or_default();
            remove_made(&self.dir, made);
        }
        if !self.created.is_empty() {
            // Nothing of ours is left in them but the lock file.
            let _ = fs::remove_file(self.place.beside(".lock"));
            for dir in self.created.iter().rev() {
                let _ = fs::remove_dir(dir);
            }
        }
    }
}

/// Creates the missing folders above the output, returning them outermost
/// first.
fn create_parents(parent: &Path) -> Result<Vec<PathBuf>, OutputError> {
    let mut missing = Vec::new();
    let mut p = parent;
    while !p.as_os_str().is_empty() && fs::symlink_metadata(p).is_err() {
        missing.push(p.to_path_buf());
        match p.parent() {
            Some(up) => p = up,
            None => break,
        }
    }
    let mut created = Vec::new();
    for dir in missing.into_iter().rev() {
        match fs::create_dir(&dir) {
            Ok(()) => created.push(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                for d in created.iter().rev() {
                    let _ = fs::remove_dir(d);
                }
                return Err(OutputError::Io(dir, e));
            }
        }
    }
    Ok(created)
}

/// Writes one file (such as `cargo xtask tree --out`), whole or not at all:
/// into a new file beside it, then renamed over it. Refuses a folder.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    if fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
        let e = io::Error::new(io::ErrorKind::IsADirectory, "it is a folder");
        return Err(OutputError::Io(path.to_path_buf(), e));
    }
    let place = Place::new(path)?;
    let temp = place.beside(&format!(".writing-{}", std::process::id()));
    let written = fs::File::create_new(&temp)
        .and_then(|mut f| io::Write::write_all(&mut f, bytes))
        .and_then(|()| fs::rename(&temp, path));
    written.map_err(|e| {
        let _ = fs::remove_file(&temp);
        OutputError::Io(path.to_path_buf(), e)
    })
}

/// Opens the lock file without following a symbolic link or waiting: a
/// FIFO, socket or device in its place is refused, not opened for
/// writing (which waits for a reader forever).
fn open_lock(path: &Path) -> Result<fs::File, OutputError> {
    use std::os::unix::fs::OpenOptionsExt;
    let not_a_file = || OutputError::NotAFile(path.to_path_buf());
    match fs::symlink_metadata(path) {
        Ok(m) if !m.is_file() => return Err(not_a_file()),
        _ => {}
    }
    let lock = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(io_err(path))?;
    match lock.metadata() {
        Ok(m) if m.is_file() => Ok(lock),
        Ok(_) => Err(not_a_file()),
        Err(e) => Err(OutputError::Io(path.to_path_buf(), e)),
    }
}

/// A new staging folder, made with an exclusive create under a name no
/// other folder has: `.<name>.building-<pid>-<n>`.
fn make_staging(place: &Place) -> io::Result<PathBuf> {
    let pid = std::process::id();
    for n in 0u32.. {
        let path = place.beside(&format!(".building-{pid}-{n}"));
        match fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    unreachable!("u32 names run out")
}

/// A file of the new output written a piece at a time: see
/// [`Staging::stream`]. Its checksum (for the marker) is taken as the
/// bytes go by; memory holds one piece of the old file at most.
pub struct Streamed<'a> {
    staging: &'a Staging,
    path: String,
    folder: Arc<Folders>,
    name: CString,
    sum: xxhash_rust::xxh3::Xxh3,
    /// Bytes taken so far.
    len: u64,
    /// The old output's file of this name, while every byte so far is
    /// its own.
    old: Option<(fs::File, reuse::Same)>,
    /// The new file, once one is needed.
    new: Option<fs::File>,
    /// Room for a piece of the old file.
    have: Vec<u8>,
}

impl Streamed<'_> {
    /// The new file: the staging folder filled in (if the build had found
    /// no change), the file made, and the bytes taken so far, the old
    /// file's first bytes, copied into it.
    fn start_new(&mut self) -> Result<(), OutputError> {
        let staging = self.staging;
        let earlier = {
            let mut progress = staging.progress.lock().expect("a writer panicked");
            progress.stage(&staging.dir)?
        };
        link_unchanged(&earlier, &staging.place.out)?;
        let path = staging.dir.join(&self.path);
        let mut file = create_empty(self.folder.staged(), &self.name).map_err(io_err(&path))?;
        if let Some((old, _)) = self.old.take() {
            use std::os::unix::fs::FileExt;
            let mut buf = std::mem::take(&mut self.have);
            buf.resize(1 << 16, 0);
            let mut at = 0;
            while at < self.len {
                let take = buf
                    .len()
                    .min(usize::try_from(self.len - at).unwrap_or(usize::MAX));
                old.read_exact_at(&mut buf[..take], at)
                    .map_err(io_err(&staging.place.out.join(&self.path)))?;
                io::Write::write_all(&mut file, &buf[..take]).map_err(io_err(&path))?;
                at += take as u64;
            }
        }
        self.new = Some(file);
        Ok(())
    }

    /// Whether the old file holds `bytes` at the offset reached.
    fn old_holds(&mut self, bytes: &[u8]) -> bool {
        use std::os::unix::fs::FileExt;
        let Some((old, same)) = &self.old else {
            return false;
        };
        if self.len + bytes.len() as u64 > same.len() {
            return false;
        }
        self.have.resize(1 << 16, 0);
        let mut at = self.len;
        for piece in bytes.chunks(self.have.len()) {
            let have = &mut self.have[..piece.len()];
            if old.read_exact_at(have, at).is_err() || have != piece {
                return false;
            }
            at += piece.len() as u64;
        }
        true
    }

    /// Takes the next bytes of the file.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        self.sum.update(bytes);
        if self.old.is_some() {
            if self.old_holds(bytes) {
                self.len += bytes.len() as u64;
                return Ok(());
            }
            self.start_new()?;
        }
        let file = self.new.as_mut().expect("made once the old file differs");
        io::Write::write_all(file, bytes).map_err(io_err(&self.staging.dir.join(&self.path)))?;
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// Ends the file: its checksum noted for the marker, and an old file
    /// found to hold exactly its bytes kept.
    pub fn finish(mut self) -> Result<(), OutputError> {
        if self
            .old
            .as_ref()
            .is_some_and(|(_, same)| same.len() != self.len)
        {
            self.start_new()?;
        }
        let sum = self.sum.digest();
        let mut progress = self.staging.progress.lock().expect("a writer panicked");
        if let Some(listed) = progress.made.get_mut(&self.path) {
            *listed = Some(sum);
        }
        let Some((_, same)) = self.old.take() else {
            return Ok(());
        };
        let found = Unchanged {
            folder: Arc::clone(&self.folder),
            name: self.name.clone(),
            same,
        };
        match progress.unchanged.as_mut() {
            Some(list) => {
                list.push(found);
                Ok(())
            }
            None => {
                drop(progress);
                link_unchanged(&[found], &self.staging.place.out)
            }
        }
    }
}

/// A file to write, its folder, and its name there.
type Job<'a> = (&'a OutFile, &'a Arc<Folders>, &'a CString);

/// A file's folder and name, as [`Progress::folders`] keys them.
fn split(f: &OutFile) -> (&str, &str) {
    f.path.rsplit_once('/').unwrap_or(("", &f.path))
}

/// Creates the file `name` in `folder` holding `bytes`; fails if it is
/// there already. Permissions as `fs::write` gives them (0666 less the
/// umask).
fn create_in(folder: &OwnedFd, name: &std::ffi::CStr, bytes: &[u8]) -> io::Result<()> {
    io::Write::write_all(&mut create_empty(folder, name)?, bytes)
}

/// Creates the empty file `name` in `folder`, as [`create_in`] does.
fn create_empty(folder: &OwnedFd, name: &std::ffi::CStr) -> io::Result<fs::File> {
    let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: `name` is a valid NUL-terminated string and `folder` an open
    // folder, both alive for the call; a new descriptor is owned below.
    let fd = unsafe { libc::openat(folder.as_raw_fd(), name.as_ptr(), flags, 0o666) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and nothing else owns it.
    Ok(unsafe { fs::File::from_raw_fd(fd) })
}

/// Puts the finished `staging` folder at `out` in one step. Returns where
/// the previous output now is, if there was one.
fn swap(staging: &Path, out: &Path, place: &Place) -> io::Result<Option<PathBuf>> {
    if fs::symlink_metadata(out).is_err() {
        return fs::rename(staging, out).map(|()| None);
    }
    match exchange(staging, out) {
        Ok(()) => Ok(Some(staging.to_path_buf())),
        Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) => {
            // No RENAME_EXCHANGE here: two renames, through a fresh name
            // that the sweep knows; briefly no output at `out`.
            let aside = make_staging(place)?;
            fs::rename(out, &aside)?;
            if let Err(e) = fs::rename(staging, out) {
                fs::rename(&aside, out)?;
                return Err(e);
            }
            Ok(Some(aside))
        }
        Err(e) => Err(e),
    }
}

/// Swaps two folders in one step, so no moment passes without an output.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let ca = CString::new(a.as_os_str().as_bytes())?;
    let cb = CString::new(b.as_os_str().as_bytes())?;
    let at = libc::AT_FDCWD;
    walk::rename_at((at, &ca), (at, &cb), libc::RENAME_EXCHANGE)
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::Error::from_raw_os_error(libc::ENOSYS))
}

#[cfg(test)]
mod tests {
    use super::marker::{UNLISTED_TEXT, staging_header};
    use super::remove::{remove_made_by, staging_owner};
    use super::*;
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::MetadataExt;

    /// Rewrites `out`'s marker as this version writes it, but with the time
    /// `written`: a marker restored, copied or written before a clock
    /// change would say such a time.
    fn set_written(out: &Path, written: Time) {
        let old = OldMarker::read(out).unwrap().unwrap();
        let Made::Listed(made) = old.made else {
            panic!("a listed marker")
        };
        let id = Identity::of_path(out).unwrap();
        let name = out.file_name().unwrap().as_encoded_bytes();
        fs::write(out.join(MARKER), marker_text(&made, written, id, name)).unwrap();
    }

    fn written(out: &Path) -> Time {
        OldMarker::read(out).unwrap().unwrap().written.unwrap()
    }

    fn files(text: &str) -> Vec<OutFile> {
        vec![
            OutFile::new("index.html", text),
            OutFile::new("a/b/c.html", text),
        ]
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn publishes_and_replaces_its_own_output() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "one");
        let warnings = publish(&out, &[OutFile::new("index.html", "two")]).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "two");
        assert!(!out.join("a").exists(), "the old tree is gone");
        assert_eq!(names(tmp.path()), [".site.lock", "site"], "no staging left");
    }

    #[test]
    fn a_path_made_twice_or_as_a_file_and_a_folder_is_refused() {
        let twice = |batches: &[&[&str]]| {
            let tmp = tempfile::tempdir().unwrap();
            let staging = Staging::begin(&tmp.path().join("site")).unwrap();
            let mut refused = None;
            for batch in batches {
                let files: Vec<OutFile> = batch.iter().map(|p| OutFile::new(*p, "x")).collect();
                if let Err(OutputError::Twice(p)) = staging.write(&files) {
                    refused = Some(p);
                    break;
                }
            }
            refused
        };
        assert_eq!(twice(&[&["a/b.html", "a/c.html", "a/d/e.html"]]), None);
        assert_eq!(
            twice(&[&["a/b.html", "a/b.html"]]).as_deref(),
            Some("a/b.html")
        );
        assert_eq!(
            twice(&[&["a/b.html"], &["a/b.html"]]).as_deref(),
            Some("a/b.html")
        );
        // A folder, then a file of its name, and the other way round: in
        // one batch after a file of the same folder, and in two.
        assert_eq!(
            twice(&[&["a/b/c.html", "a/b/d.html", "a/b"]]).as_deref(),
            Some("a/b")
        );
        assert_eq!(twice(&[&["a/b/c.html"], &["a/b"]]).as_deref(), Some("a/b"));
        assert_eq!(
            twice(&[&["a/x.html", "a/b", "a/b/c.html"]]).as_deref(),
            Some("a/b")
        );
        assert_eq!(
            twice(&[&["a/b"], &["a/b/c/d.html"]]).as_deref(),
            Some("a/b")
        );
        assert_eq!(twice(&[&[MARKER]]).as_deref(), Some(MARKER));
    }

    /// Builds `out` with `index.html` as `text` and `big.bin` as `big`,
    /// the big file streamed in pieces of `piece` bytes.
    fn build_streamed(out: &Path, text: &str, big: &[u8], piece: usize) -> Committed {
        let staging = Staging::begin(out).unwrap();
        staging.write(&[OutFile::new("index.html", text)]).unwrap();
        let mut file = staging.stream("books/big.bin").unwrap();
        for p in big.chunks(piece) {
            file.write(p).unwrap();
        }
        file.finish().unwrap();
        staging.commit().unwrap()
    }

    /// A file written a piece at a time holds its bytes and is listed
    /// with their checksum, as a file written whole is; a rebuild that
    /// streams the same bytes changes nothing (the old file kept, its
    /// inode the same), and one that differs (in the middle, at the end,
    /// shorter or longer) gets exactly the new bytes.
    #[test]
    fn a_streamed_file_is_written_or_kept_as_a_whole_one() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        let big: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
        assert!(!build_streamed(&out, "one", &big, 70_000).unchanged);
        assert_eq!(fs::read(out.join("books/big.bin")).unwrap(), big);
        let text = fs::read_to_string(out.join(MARKER)).unwrap();
        let sum = format!("{:016x}", marker::sum(&big));
        assert!(text.contains(&format!("books/big.bin\t{sum}\n")), "{text}");
        let ino = fs::metadata(out.join("books/big.bin")).unwrap().ino();
        // The same bytes in other pieces: nothing changes.
        assert!(build_streamed(&out, "one", &big, 4096).unchanged);
        assert_eq!(fs::metadata(out.join("books/big.bin")).unwrap().ino(), ino);
        // The same bytes beside a change elsewhere: the old file linked.
        assert!(!build_streamed(&out, "two", &big, 100_000).unchanged);
        assert_eq!(fs::metadata(out.join("books/big.bin")).unwrap().ino(), ino);
        let mut middle = big.clone();
        middle[150_001] ^= 1;
        let longer = [&big[..], b"more"].concat();
        for new in [middle, big[..299_999].to_vec(), longer, Vec::new()] {
            assert!(!build_streamed(&out, "two", &new, 65_536).unchanged);
            assert_eq!(fs::read(out.join("books/big.bin")).unwrap(), new);
            let text = fs::read_to_string(out.join(MARKER)).unwrap();
            let sum = format!("{:016x}", marker::sum(&new));
            assert!(text.contains(&format!("books/big.bin\t{sum}\n")));
        }
    }

    #[test]
    fn an_empty_folder_becomes_the_output_without_a_warning() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        fs::create_dir(&out).unwrap();
        assert!(publish(&out, &files("one")).unwrap().is_empty());
        assert_eq!(names(tmp.path()), [".site.lock", "site"]);
    }

    #[test]
    fn the_marker_lists_what_was_made() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        let text = fs::read_to_string(out.join(MARKER)).unwrap();
        let sum = format!("{:016x}", marker::sum(b"one"));
        assert!(
            text.ends_with(&format!(
                "made:\na/\na/b/\na/b/c.html\t{sum}\nindex.html\t{sum}\n"
            )),
            "{text}"
        );
    }

    #[test]
    fn refuses_a_folder_it_did_not_make() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("precious.txt"), "keep").unwrap();
        let err = publish(tmp.path(), &files("x")).unwrap_err();
        assert!(matches!(err, OutputError::NotOurs(_)), "{err}");
        assert_eq!(
            fs::read_to_string(tmp.path().join("precious.txt")).unwrap(),
            "keep"
        );
    }

    #[test]
    fn refuses_a_file_a_symlink_and_paths_with_no_name() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f");
        fs::write(&file, "x").unwrap();
        assert!(matches!(
            publish(&file, &files("x")),
            Err(OutputError::NotADirectory(_))
        ));
        let link = tmp.path().join("link");
        fs::create_dir(tmp.path().join("real")).unwrap();
        std::os::unix::fs::symlink(tmp.path().join("real"), &link).unwrap();
        assert!(matches!(
            publish(&link, &files("x")),
            Err(OutputError::Symlink(_))
        ));
        for odd in [".", "..", "/", "a/.."] {
            let e = publish(Path::new(odd), &files("x")).unwrap_err();
            assert!(matches!(e, OutputError::OddPath(_)), "{odd}: {e}");
            assert!(e.to_string().contains("names no folder of its own"));
        }
    }

    #[test]
    fn a_failed_write_leaves_the_old_output() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("old")).unwrap();
        // A file and a folder of the same name cannot both be written.
        let bad = vec![OutFile::new("a", "x"), OutFile::new("a/b.html", "y")];
        assert!(publish(&out, &bad).is_err());
        assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "old");
        assert_eq!(names(tmp.path()), [".site.lock", "site"], "staging removed");
    }

    #[test]
    fn a_failed_build_removes_the_parents_it_made() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("new/deep/site");
        let bad = vec![OutFile::new("a", "x"), OutFile::new("a/b.html", "y")];
        assert!(publish(&out, &bad).is_err());
        assert!(names(tmp.path()).is_empty(), "{:?}", names(tmp.path()));
    }

    #[test]
    fn what_the_user_added_is_never_deleted() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        for extra in ["CNAME", ".nojekyll", "blog/", "a/notes.txt"] {
            let path = out.join(extra.trim_end_matches('/'));
            if extra.ends_with('/') {
                fs::create_dir(&path).unwrap();
            } else {
                fs::write(&path, "mine").unwrap();
            }
            let e = publish(&out, &files("two")).unwrap_err();
            assert!(matches!(e, OutputError::Foreign(_)), "{e}");
            assert!(e.to_string().contains(extra.trim_end_matches('/')), "{e}");
            assert!(path.exists());
            assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "one");
            if extra.ends_with('/') {
                fs::remove_dir(&path).unwrap();
            } else {
                fs::remove_file(&path).unwrap();
            }
        }
        publish(&out, &files("two")).unwrap();
    }

    #[test]
    fn a_rebuild_links_unchanged_files_and_writes_the_others() {
        use std::os::unix::fs::MetadataExt;
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        let site = |index: &str| {
            vec![
                OutFile::new("index.html", index),
                OutFile::new("a/b/c.html", "same"),
            ]
        };
        publish(&out, &site("one")).unwrap();
        let inode = |p: &str| fs::metadata(out.join(p)).unwrap().ino();
        let (index, page) = (inode("index.html"), inode("a/b/c.html"));
        publish(&out, &site("two")).unwrap();
        // The same file, now under the new output's name alone.
        assert_eq!(inode("a/b/c.html"), page);
        assert_eq!(fs::metadata(out.join("a/b/c.html")).unwrap().nlink(), 1);
        assert_ne!(inode("index.html"), index);
        assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "two");
        assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "same");
    }

    /// What identifies a path now: its inode, and its modification time.
    fn identity(p: &Path) -> (u64, i64, i64) {
        use std::os::unix::fs::MetadataExt;
        let m = fs::symlink_metadata(p).unwrap();
        (m.ino(), m.mtime(), m.mtime_nsec())
    }

    #[test]
    fn a_rebuild_that_changes_nothing_leaves_the_old_output_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        let extra = tmp.path().join("CNAME");
        fs::write(&extra, "example.org\n").unwrap();
        let build = |page: &str| {
            let staging = Staging::begin(&out)?;
            staging.write(&files("one"))?;
            staging.copy("CNAME", &extra)?;
            staging.write(&[OutFile::new("a/last.html", page)])?;
            staging.commit()
        };
        build("last").unwrap();
        let paths = [
            "",
            MARKER,
            "index.html",
            "a",
            "a/b/c.html",
            "a/last.html",
            "CNAME",
        ];
        let before: Vec<_> = paths.iter().map(|p| identity(&out.join(p))).collect();
        let kept = build("last").unwrap();
        assert!(kept.unchanged && kept.warnings.is_empty(), "{kept:?}");
        let after: Vec<_> = paths.iter().map(|p| identity(&out.join(p))).collect();
        assert_eq!(before, after, "nothing was replaced or rewritten");
        assert_eq!(names(tmp.path()), [".site.lock", "CNAME", "site"]);
        // A change in the last file, after all the others were found the
        // same: they are linked after all, and the one that differs written.
        assert!(!build("changed").unwrap().unchanged);
        let after: Vec<_> = paths.iter().map(|p| identity(&out.join(p))).collect();
        for (i, p) in paths.iter().enumerate() {
            let kept = !matches!(*p, "" | MARKER | "a" | "a/last.html");
            assert_eq!(before[i] == after[i], kept, "{p}");
        }
        assert_eq!(
            fs::read_to_string(out.join("a/last.html")).unwrap(),
            "changed"
        );
        assert_eq!(
            fs::read_to_string(out.join("CNAME")).unwrap(),
            "example.org\n"
        );
        assert_eq!(names(tmp.path()), [".site.lock", "CNAME", "site"]);
    }

    /// A copied file that the old output holds the same is kept when the
    /// build has already found a change, as a written one is: a site's
    /// `home.svg` over a build with another seed.
    #[test]
    fn a_rebuild_keeps_a_copy_that_did_not_change_after_a_change() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        let from = tmp.path().join("home.svg");
        fs::write(&from, "<svg/>").unwrap();
        let build = |first: &str| {
            let staging = Staging::begin(&out)?;
            staging.write(&[OutFile::new("index.html", first)])?;
            staging.copy("home.svg", &from)?;
            staging.commit()
        };
        build("one").unwrap();
        let before = identity(&out.join("home.svg"));
        assert!(!build("two").unwrap().unchanged);
        assert_eq!(
            identity(&out.join("home.svg")),
            before,
            "kept, not copied again"
        );
        assert_eq!(fs::read_to_string(out.join("home.svg")).unwrap(), "<svg/>");
        assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "two");
    }

    #[test]
    fn a_rebuild_finds_what_the_user_changed_or_the_old_build_had_more_of() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        // Edited in place, the same length: written afresh.
        fs::write(out.join("a/b/c.html"), "eno").unwrap();
        publish(&out, &files("one")).unwrap();
        assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "one");
        // A file of the old build that this one does not make goes.
        let mut more = files("one");
        more.push(OutFile::new("a/old.html", "one"));
        publish(&out, &more).unwrap();
        publish(&out, &files("one")).unwrap();
        assert!(!out.join("a/old.html").exists());
        // Another file's permissions: written afresh, with a new file's.
        use std::os::unix::fs::PermissionsExt;
        let page = out.join("index.html");
        fs::set_permissions(&page, fs::Permissions::from_mode(0o600)).unwrap();
        publish(&out, &files("one")).unwrap();
        assert_ne!(
            fs::metadata(&page).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert_eq!(names(tmp.path()), [".site.lock", "site"]);
    }

    #[test]
    fn an_old_file_untouched_since_its_marker_is_taken_on_its_checksum_unread() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        fs::write(out.join("a/b/c.html"), "eno").unwrap();
        // The marker file's own time says nothing: set after the change,
        // the change is still seen and mended.
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        let marker = fs::File::options().write(true).open(out.join(MARKER));
        marker.unwrap().set_modified(later).unwrap();
        publish(&out, &files("one")).unwrap();
        assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "one");
        // Changed before the time the marker gives (which a real build's
        // marker never is): the build believes the marker and does not
        // read the file.
        fs::write(out.join("a/b/c.html"), "eno").unwrap();
        let changed = fs::metadata(out.join("a/b/c.html")).unwrap();
        let at = (changed.ctime(), changed.ctime_nsec() + 1);
        set_written(&out, at);
        // A build trusts no marker time that is not before its own start,
        // which the file system's clock gives in coarse ticks: let the
        // tick of the change pass, or the marker is ahead of the clock.
        let probe = tmp.path().join("tick");
        loop {
            fs::write(&probe, "").unwrap();
            let now = fs::metadata(&probe).unwrap();
            if (now.mtime(), now.mtime_nsec()) > at {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        fs::remove_file(&probe).unwrap();
        publish(&out, &files("one")).unwrap();
        assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "eno");
    }

    #[test]
    fn a_marker_time_ahead_of_the_clock_hides_no_edit() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        fs::write(out.join("a/b/c.html"), "eno").unwrap();
        // As after the clock was put back an hour.
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        set_written(&out, (now.unwrap().as_secs() as i64 + 3600, 0));
        publish(&out, &files("one")).unwrap();
        assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "one");
    }

    /// An output at `tmp/site` built, then replaced by a build that
    /// changed one file and kept the others: the files it now holds.
    fn replaced_once(tmp: &Path) -> (PathBuf, Vec<OutFile>) {
        let out = tmp.join("site");
        publish(&out, &files("one")).unwrap();
        let mut changed = files("one");
        changed[0] = OutFile::new("index.html", "two");
        publish(&out, &changed).unwrap();
        (out, changed)
    }

    #[test]
    fn the_marker_time_precedes_the_removal_of_the_old_output() {
        // Dropping the old output's names changes the files the new one
        // shares with it: those changes, and any edit made during them,
        // come after the marker's time, so the next build reads the files.
        let tmp = tempfile::tempdir().unwrap();
        let (out, changed) = replaced_once(tmp.path());
        let shared = fs::metadata(out.join("a/b/c.html")).unwrap();
        assert!((shared.ctime(), shared.ctime_nsec()) >= written(&out));
        fs::write(out.join("a/b/c.html"), "eno").unwrap();
        publish(&out, &changed).unwrap();
        assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "one");
    }

    #[test]
    fn a_rebuild_that_read_what_it_kept_moves_the_marker_time_to_its_start() {
        let tmp = tempfile::tempdir().unwrap();
        let (out, changed) = replaced_once(tmp.path());
        let after_swap = written(&out);
        // Nothing changed: the files are read (they changed after the
        // marker's time), the output kept, and the marker's time moved to
        // before those reads, so the next build need not read them.
        let staging = Staging::begin(&out).unwrap();
        staging.write(&changed).unwrap();
        let begun = staging.begun;
        assert!(staging.commit().unwrap().unchanged);
        assert_eq!(written(&out), begun);
        assert!(begun > after_swap);
        let shared = fs::metadata(out.join("a/b/c.html")).unwrap();
        assert!((shared.ctime(), shared.ctime_nsec()) < begun);
        // An edit after that is still seen.
        fs::write(out.join("a/b/c.html"), "eno").unwrap();
        publish(&out, &changed).unwrap();
        assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "one");
    }

    #[test]
    fn a_marker_copied_from_another_output_refuses_the_build() {
        let tmp = tempfile::tempdir().unwrap();
        let (reference, public) = (tmp.path().join("ref"), tmp.path().join("pub"));
        fs::create_dir(&public).unwrap();
        fs::write(public.join("index.html"), "mine").unwrap();
        publish(&reference, &files("one")).unwrap();
        fs::copy(reference.join(MARKER), public.join(MARKER)).unwrap();
        let e = publish(&public, &files("one")).unwrap_err();
        // Not damaged: the marker proves itself, but the folder does not
        // hold what it lists (`a/` first, in sorted order).
        let OutputError::CopyDiffers(_, first, why) = &e else {
            panic!("{e}")
        };
        assert_eq!((first, *why), (&public.join("a"), "is missing"), "{e}");
        assert!(e.to_string().contains("another folder"), "{e}");
        // Even with every listed path there, a file of the user's bytes.
        fs::create_dir_all(public.join("a/b")).unwrap();
        fs::write(public.join("a/b/c.html"), "one").unwrap();
        let e = publish(&public, &files("one")).unwrap_err();
        assert!(e.to_string().contains("index.html does not hold"), "{e}");
        assert_eq!(
            fs::read_to_string(public.join("index.html")).unwrap(),
            "mine"
        );
        assert_eq!(names(tmp.path()), [".pub.lock", ".ref.lock", "pub", "ref"]);
        // A rename keeps the folder.
        let moved = tmp.path().join("moved");
        fs::rename(&reference, &moved).unwrap();
        publish(&moved, &files("two")).unwrap();
    }

    /// Copies the folder `from` to `to` with `cp` and `flags`.
    fn cp(flags: &str, from: &Path, to: &Path) {
        let status = std::process::Command::new("cp")
            .arg(flags)
            .arg(from)
            .arg(to)
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Builds `files` into `out`, returning what the commit did.
    fn build(out: &Path, files: &[OutFile]) -> Result<Committed, OutputError> {
        let staging = Staging::begin(out)?;
        staging.write(files)?;
        staging.commit()
    }

    #[test]
    fn a_whole_copy_is_taken_and_then_names_its_own_folder() {
        for flags in ["-a", "-r"] {
            let tmp = tempfile::tempdir().unwrap();
            let (original, copy) = (tmp.path().join("site"), tmp.path().join("copy"));
            publish(&original, &files("one")).unwrap();
            let before = fs::read(original.join(MARKER)).unwrap();
            cp(flags, &original, &copy);
            let taken = build(&copy, &files("one")).unwrap();
            assert!(taken.took_copy && !taken.unchanged, "{flags}");
            let marker = OldMarker::read(&copy).unwrap().unwrap();
            assert!(!marker.copied && marker.written.is_some(), "{flags}");
            assert_eq!(fs::read_to_string(copy.join("a/b/c.html")).unwrap(), "one");
            assert_eq!(names(&copy), names(&original));
            assert_eq!(
                names(tmp.path()),
                [".copy.lock", ".site.lock", "copy", "site"]
            );
            // Now its own: the next build keeps it as it is.
            let again = build(&copy, &files("one")).unwrap();
            assert!(again.unchanged && !again.took_copy, "{flags}");
            // The original is untouched.
            assert_eq!(fs::read(original.join(MARKER)).unwrap(), before);
            // A copy taken with a change is built as the new files say.
            let other = tmp.path().join("other");
            cp(flags, &original, &other);
            let taken = build(&other, &files("two")).unwrap();
            assert!(taken.took_copy, "{flags}");
            assert_eq!(fs::read_to_string(other.join("index.html")).unwrap(), "two");
        }
    }

    #[test]
    fn a_copy_that_differs_anywhere_is_refused_naming_the_path() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let original = tmp.path().join("site");
        publish(&original, &files("one")).unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        fs::write(elsewhere.join("c.html"), "one").unwrap();
        let fifo = |p: &Path| {
            let c = CString::new(p.as_os_str().as_bytes()).unwrap();
            // SAFETY: a NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        };
        type Change = fn(&Path, &Path, &dyn Fn(&Path));
        let cases: [(&str, &str, Change); 11] = [
            ("index.html", "does not hold", |c, _, _| {
                fs::write(c.join("index.html"), "ONE").unwrap()
            }),
            ("index.html", "is missing", |c, _, _| {
                fs::remove_file(c.join("index.html")).unwrap()
            }),
            ("a/b/mine.txt", "not made by this tool", |c, _, _| {
                fs::write(c.join("a/b/mine.txt"), "mine").unwrap()
            }),
            ("a/b/c.html", "is not a regular file", |c, e, _| {
                fs::remove_file(c.join("a/b/c.html")).unwrap();
                symlink(e.join("c.html"), c.join("a/b/c.html")).unwrap();
            }),
            ("a/b", "is not a folder", |c, e, _| {
                fs::remove_dir_all(c.join("a/b")).unwrap();
                symlink(e, c.join("a/b")).unwrap();
            }),
            ("a/b/c.html", "is not a regular file", |c, _, fifo| {
                fs::remove_file(c.join("a/b/c.html")).unwrap();
                fifo(&c.join("a/b/c.html"));
            }),
            ("a/b/c.html", "is not a regular file", |c, _, _| {
                fs::remove_file(c.join("a/b/c.html")).unwrap();
                fs::create_dir(c.join("a/b/c.html")).unwrap();
            }),
            ("a/b", "is not a folder", |c, _, _| {
                fs::remove_dir_all(c.join("a/b")).unwrap();
                fs::write(c.join("a/b"), "one").unwrap();
            }),
            ("a/link", "not made by this tool", |c, e, _| {
                symlink(e, c.join("a/link")).unwrap()
            }),
            ("a/b/.tictactoe-book", "not made by this tool", |c, _, _| {
                fs::copy(c.join(MARKER), c.join("a/b").join(MARKER)).unwrap();
            }),
            // Grown by a byte: every file is read, not known by its length.
            ("a/b/c.html", "does not hold", |c, _, _| {
                fs::write(c.join("a/b/c.html"), "onf").unwrap()
            }),
        ];
        for (n, (path, why, change)) in cases.into_iter().enumerate() {
            let copy = tmp.path().join(format!("copy{n}"));
            cp("-a", &original, &copy);
            change(&copy, &elsewhere, &fifo);
            let before = snapshot(&copy);
            let e = build(&copy, &files("two")).unwrap_err();
            let OutputError::CopyDiffers(_, first, said) = &e else {
                panic!("{path}: {e}")
            };
            assert_eq!(first, &copy.join(path), "{e}");
            assert!(said.contains(why), "{path}: {e}");
            assert_eq!(snapshot(&copy), before, "{path}: nothing changed");
            assert_eq!(fs::read(elsewhere.join("c.html")).unwrap(), b"one");
        }
        let mut left = names(tmp.path());
        left.retain(|n| n.starts_with(".copy") && !n.ends_with(".lock"));
        assert!(left.is_empty(), "{left:?}");
    }

    /// Every path below `dir`, not following links, with a regular file's
    /// bytes.
    fn snapshot(dir: &Path) -> Vec<(PathBuf, Option<Vec<u8>>)> {
        let mut all = Vec::new();
        let mut todo = vec![dir.to_path_buf()];
        while let Some(d) = todo.pop() {
            for e in fs::read_dir(&d).unwrap().flatten() {
                let t = e.file_type().unwrap();
                if t.is_dir() {
                    todo.push(e.path());
                }
                let bytes = t.is_file().then(|| fs::read(e.path()).unwrap());
                all.push((e.path(), bytes));
            }
        }
        all.sort();
        all
    }

    #[test]
    fn a_damaged_marker_refuses_the_build_and_changes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        fs::write(out.join("a/mine.txt"), "mine").unwrap();
        let text = fs::read(out.join(MARKER)).unwrap();
        for cut in [0, 1, text.len() / 2, text.len() - 1] {
            fs::write(out.join(MARKER), &text[..cut]).unwrap();
            let before = names(tmp.path());
            let e = publish(&out, &files("two")).unwrap_err();
            assert!(matches!(e, OutputError::Damaged(..)), "{e}");
            assert!(e.to_string().contains(MARKER), "{e}");
            assert_eq!(names(tmp.path()), before);
            assert_eq!(fs::read(out.join(MARKER)).unwrap(), &text[..cut]);
            assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "one");
            assert_eq!(fs::read_to_string(out.join("a/mine.txt")).unwrap(), "mine");
        }
    }

    #[test]
    fn a_foreign_folder_older_than_the_marker_is_still_found_before_a_swap() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        fs::write(out.join("a/b/mine.txt"), "mine").unwrap();
        // As a restore that keeps times (`rsync -a`, `cp -a`) would leave it.
        let old = fs::File::open(out.join("a/b")).unwrap();
        old.set_modified(std::time::SystemTime::UNIX_EPOCH).unwrap();
        let e = publish(&out, &files("two")).unwrap_err();
        assert!(e.to_string().contains("a/b/mine.txt"), "{e}");
        assert_eq!(
            fs::read_to_string(out.join("a/b/mine.txt")).unwrap(),
            "mine"
        );
        assert_eq!(names(tmp.path()), [".site.lock", "site"]);
    }

    #[test]
    fn a_file_written_into_the_output_during_the_build_is_put_back() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        let staging = Staging::begin(&out).unwrap();
        staging.write(&files("two")).unwrap();
        let old = OldMarker::read(&out).unwrap().unwrap();
        // Written after the check, as if between it and the swap: the
        // swap moves it with the old output, and the removal puts it back.
        let new = staging.progress.lock().unwrap().made.clone();
        check_foreign(&out, &old, &new, true).unwrap();
        fs::write(out.join("a/b/mine.txt"), "mine").unwrap();
        fs::create_dir(out.join("blog")).unwrap();
        fs::write(out.join("blog/post.html"), "mine").unwrap();
        let old_at = tmp.path().join("old");
        fs::rename(&out, &old_at).unwrap();
        fs::create_dir_all(out.join("a/b")).unwrap();
        let left = remove_old(&old_at, &old.made, &new, &Place::new(&out).unwrap());
        assert!(left.is_empty(), "{left:?}");
        assert_eq!(
            fs::read_to_string(out.join("a/b/mine.txt")).unwrap(),
            "mine"
        );
        assert_eq!(
            fs::read_to_string(out.join("blog/post.html")).unwrap(),
            "mine"
        );
        assert!(!old_at.exists());
        drop(staging);
    }

    #[test]
    fn an_old_marker_not_read_at_the_start_is_read_at_the_swap() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        let mut staging = Staging::begin(&out).unwrap();
        // As if the read when the build began had failed.
        staging.old = None;
        staging.write(&files("two")).unwrap();
        assert!(staging.commit().unwrap().warnings.is_empty());
        assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "two");
        assert_eq!(
            names(tmp.path()),
            [".site.lock", "site"],
            "the old site is gone"
        );
    }

    #[test]
    fn a_file_found_the_same_then_changed_during_the_build_fails_it() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        let staging = Staging::begin(&out).unwrap();
        staging.write(&files("one")).unwrap();
        fs::write(out.join("a/b/c.html"), "someone else's").unwrap();
        let e = staging.write(&[OutFile::new("new.html", "x")]).unwrap_err();
        assert!(matches!(e, OutputError::Changed(_)), "{e}");
        assert!(e.to_string().contains("a/b/c.html"), "{e}");
        drop(staging);
        assert_eq!(
            fs::read_to_string(out.join("a/b/c.html")).unwrap(),
            "someone else's"
        );
        assert_eq!(names(tmp.path()), [".site.lock", "site"]);
    }

    #[test]
    fn removing_names_each_path_that_stays_once_and_nothing_else() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("old");
        for d in ["a/b", "a/c", "d"] {
            fs::create_dir_all(dir.join(d)).unwrap();
        }
        for f in [
            "index.html",
            "a/b/1.html",
            "a/c/1.html",
            "a/top.html",
            "d/1.html",
        ] {
            fs::write(dir.join(f), "made").unwrap();
        }
        fs::write(dir.join("a/b/mine.txt"), "mine").unwrap();
        let made: List = [
            "index.html",
            "a/",
            "a/b/",
            "a/c/",
            "a/b/1.html",
            "a/c/1.html",
            "a/top.html",
            "d/",
            "d/1.html",
        ]
        .into_iter()
        .map(|p| (p.to_string(), None))
        .collect();
        let left = remove_made_by(&dir, &Made::Listed(made), &List::default());
        let mine = dir.join("a/b/mine.txt");
        assert_eq!(left.foreign, ["a/b/mine.txt"]);
        assert!(left.failed.is_empty(), "{:?}", left.failed);
        assert_eq!(
            left.warning(&dir).unwrap(),
            format!(
                "kept 1 path not made by this tool in {} (the first, a/b/mine.txt)",
                dir.display()
            )
        );
        assert_eq!(fs::read_to_string(&mine).unwrap(), "mine");
        assert_eq!(names(&dir), ["a"]);
        assert_eq!(names(&dir.join("a")), ["b"]);
        assert_eq!(names(&dir.join("a/b")), ["mine.txt"]);
    }

    #[test]
    fn an_output_of_the_older_unlisted_kind_is_replaced_but_user_files_are_not() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        fs::create_dir_all(out.join("a/old-game")).unwrap();
        fs::write(out.join(MARKER), UNLISTED_TEXT).unwrap();
        fs::write(out.join("index.html"), "old").unwrap();
        fs::create_dir_all(out.join("a/b")).unwrap();
        fs::write(out.join("a/b/c.html"), "old").unwrap();
        // A user's files, beside and inside the folders the build writes:
        // that marker lists nothing, so each is the user's.
        for mine in ["CNAME", "a/notes.txt", "a/old-game/1.html"] {
            fs::write(out.join(mine), "mine").unwrap();
            let e = publish(&out, &files("new")).unwrap_err();
            assert!(matches!(e, OutputError::Foreign(..)), "{e}");
            assert!(e.to_string().contains(mine), "{e}");
            assert_eq!(fs::read_to_string(out.join(mine)).unwrap(), "mine");
            assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "old");
            fs::remove_file(out.join(mine)).unwrap();
        }
        fs::remove_dir(out.join("a/old-game")).unwrap();
        assert!(publish(&out, &files("new")).unwrap().is_empty());
        assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "new");
    }

    #[test]
    fn a_symlink_named_like_staging_is_never_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let precious = tmp.path().join("precious");
        fs::create_dir(&precious).unwrap();
        fs::write(precious.join("KEEP"), "mine").unwrap();
        fs::write(precious.join(MARKER), UNLISTED_TEXT).unwrap();
        std::os::unix::fs::symlink(&precious, tmp.path().join(".site.building-999999")).unwrap();
        std::os::unix::fs::symlink(&precious, tmp.path().join(".site.building-999999-0")).unwrap();
        publish(&tmp.path().join("site"), &files("x")).unwrap();
        assert_eq!(fs::read_to_string(precious.join("KEEP")).unwrap(), "mine");
    }

    #[test]
    fn a_symlink_inside_an_old_output_is_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        let precious = tmp.path().join("precious");
        fs::create_dir(&precious).unwrap();
        fs::write(precious.join("c.html"), "mine").unwrap();
        // The user swaps a folder the tool made for a link elsewhere.
        fs::remove_file(out.join("a/b/c.html")).unwrap();
        fs::remove_dir(out.join("a/b")).unwrap();
        std::os::unix::fs::symlink(&precious, out.join("a/b")).unwrap();
        let e = publish(&out, &files("two")).unwrap_err();
        assert!(e.to_string().contains("a/b"), "{e}");
        assert_eq!(fs::read_to_string(precious.join("c.html")).unwrap(), "mine");
    }

    #[test]
    fn stale_staging_from_a_killed_build_is_cleared() {
        let tmp = tempfile::tempdir().unwrap();
        let made = made_paths(&files("x"));
        let stale = tmp.path().join(".site.building-999999-0");
        fs::create_dir_all(stale.join("a/b")).unwrap();
        let id = Identity::of_path(&stale).unwrap();
        fs::write(stale.join(MARKER), marker_text(&made, (0, 0), id, b"site")).unwrap();
        fs::write(stale.join("a/b/c.html"), "x").unwrap();
        let foreign = tmp.path().join(".site.building-not-ours");
        fs::create_dir(&foreign).unwrap();
        fs::write(foreign.join("keep"), "x").unwrap();
        // A live process's staging is not touched, marker or not.
        let live = tmp
            .path()
            .join(format!(".site.building-{}-7", std::process::id()));
        fs::create_dir(&live).unwrap();
        let id = Identity::of_path(&live).unwrap();
        fs::write(live.join(MARKER), marker_text(&made, (0, 0), id, b"site")).unwrap();
        // Killed before the marker was written, or while writing it.
        let empty = tmp.path().join(".site.building-999999-1");
        fs::create_dir(&empty).unwrap();
        let half = tmp.path().join(".site.building-999999-2");
        fs::create_dir(&half).unwrap();
        let header = staging_header(Identity::of_path(&half).unwrap(), b"site");
        fs::write(half.join(MARKER), &header[..40]).unwrap();
        // Named like a staging folder, but an output of its own, built
        // with `--out .site.building-999999-4`: its marker says so.
        let output = tmp.path().join(".site.building-999999-4");
        publish(&output, &files("x")).unwrap();
        // The start of a marker, but written in another folder.
        let moved = tmp.path().join(".site.building-999999-5");
        fs::create_dir(&moved).unwrap();
        fs::write(moved.join(MARKER), &header[..header.len() - 3]).unwrap();
        // Unmarked but holding something else: not provably ours.
        let odd = tmp.path().join(".site.building-999999-3");
        fs::create_dir(&odd).unwrap();
        fs::write(odd.join("keep"), "x").unwrap();
        publish(&tmp.path().join("site"), &files("x")).unwrap();
        assert!(!stale.exists());
        assert!(!empty.exists());
        assert!(!half.exists());
        assert!(odd.join("keep").exists());
        assert!(output.join("a/b/c.html").exists() && output.join("index.html").exists());
        assert!(moved.join(MARKER).exists());
        assert!(foreign.join("keep").exists());
        assert!(live.join(MARKER).exists());
    }

    /// The old output as a build killed right after its swap leaves it:
    /// at a staging name, with a file the user wrote into it meanwhile.
    fn killed_after_the_swap(tmp: &Path, mine: &str) -> PathBuf {
        let elsewhere = tmp.join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        publish(&elsewhere.join("site"), &files("old")).unwrap();
        let stale = tmp.join(".site.building-999999-0");
        fs::rename(elsewhere.join("site"), &stale).unwrap();
        fs::remove_file(elsewhere.join(".site.lock")).unwrap();
        fs::remove_dir(&elsewhere).unwrap();
        fs::write(stale.join(mine), "mine").unwrap();
        stale
    }

    #[test]
    fn a_users_file_left_by_a_killed_build_is_put_back_not_hidden() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        let stale = killed_after_the_swap(tmp.path(), "a/mine.txt");
        // The next build puts it back where the user wrote it, then
        // refuses, naming it, as for any file the user adds.
        let e = publish(&out, &files("two")).unwrap_err();
        assert!(matches!(e, OutputError::Foreign(..)), "{e}");
        assert!(e.to_string().contains("a/mine.txt"), "{e}");
        assert!(!stale.exists());
        assert_eq!(fs::read_to_string(out.join("a/mine.txt")).unwrap(), "mine");
        fs::remove_file(out.join("a/mine.txt")).unwrap();
        // Where it cannot go back (the path is taken), the folder gets a
        // visible name, with one warning.
        let stale = killed_after_the_swap(tmp.path(), "a/mine.txt");
        fs::write(out.join("CNAME"), "mine too").unwrap();
        fs::rename(out.join("CNAME"), out.join("a/mine.txt")).unwrap();
        let e = publish(&out, &files("two")).unwrap_err();
        assert!(e.to_string().contains("a/mine.txt"), "{e}");
        assert!(!stale.exists());
        let kept: Vec<String> = names(tmp.path())
            .into_iter()
            .filter(|n| n.starts_with("site.kept-"))
            .collect();
        assert_eq!(kept.len(), 1, "{:?}", names(tmp.path()));
        let kept = tmp.path().join(&kept[0]);
        assert_eq!(fs::read_to_string(kept.join("a/mine.txt")).unwrap(), "mine");
        // Only the user's file stays, with the marker that says so.
        assert_eq!(names(&kept), [MARKER, "a"]);
        assert_eq!(names(&kept.join("a")), ["mine.txt"]);
    }

    #[test]
    fn a_fifo_for_the_lock_is_refused_at_once() {
        let tmp = tempfile::tempdir().unwrap();
        let lock = std::ffi::CString::new(tmp.path().join(".site.lock").as_os_str().as_bytes());
        // SAFETY: a valid C string and mode.
        assert_eq!(unsafe { libc::mkfifo(lock.unwrap().as_ptr(), 0o644) }, 0);
        let e = publish(&tmp.path().join("site"), &files("x")).unwrap_err();
        assert!(matches!(e, OutputError::NotAFile(..)), "{e}");
        assert!(!tmp.path().join("site").exists());
    }

    #[test]
    fn odd_out_paths_are_refused_or_normalised_without_the_disk() {
        for odd in [".", "..", "/", "sub/..", "ghost/../site", "a/./b/../c"] {
            let e = out_path(Path::new(odd)).unwrap_err();
            assert!(matches!(e, OutputError::OddPath(..)), "{odd}");
        }
        for (given, taken) in [
            ("site/.", "site"),
            ("site/", "site"),
            ("site//", "site"),
            ("a/./site/./", "a/site"),
            ("./site", "./site"),
            ("../www", "../www"),
            ("/srv/www/", "/srv/www"),
        ] {
            assert_eq!(out_path(Path::new(given)).unwrap(), Path::new(taken));
        }
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site/.");
        publish(&out, &files("x")).unwrap();
        assert_eq!(names(tmp.path()), [".site.lock", "site"]);
    }

    #[test]
    fn paths_with_any_name_are_listed_and_read_back_exactly() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        // Every character but `/` and NUL, alone and inside a name, and the
        // names a line-based list would misread.
        let mut odd: Vec<String> = (1..=0x7f_u8)
            .filter(|&b| b != b'/')
            .map(|b| format!("x{}y", char::from(b)))
            .collect();
        odd.extend(
            [
                "tab\t0123456789abcdef",
                "cr\r",
                "new\nline",
                "back\\x41",
                "caf\u{e9}\u{85}",
                "sp ace ",
            ]
            .map(String::from),
        );
        let made: Vec<OutFile> = odd
            .iter()
            .enumerate()
            .map(|(i, n)| OutFile::new(format!("d{}/{n}", i % 3), n.clone()))
            .collect();
        publish(&out, &made).unwrap();
        let old = OldMarker::read(&out).unwrap().unwrap();
        assert!(
            matches!(&old.made, Made::Listed(l) if odd.iter().all(|n| l.keys().any(|k| k.ends_with(&format!("/{n}")))))
        );
        // The second build takes the first's output as its own.
        assert!(publish(&out, &made).unwrap().is_empty());
        let mut changed = made.clone();
        changed[0].bytes = b"changed".to_vec();
        assert!(publish(&out, &changed).unwrap().is_empty());
        assert_eq!(fs::read(out.join(&changed[0].path)).unwrap(), b"changed");
    }

    #[test]
    fn a_name_that_is_not_utf8_in_the_output_is_the_users() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        // A name the tool makes itself, and one that reads the same lossily.
        let made = vec![OutFile::new("a/\u{fffd}.html", "x")];
        publish(&out, &made).unwrap();
        let mine = out.join("a").join(OsStr::from_bytes(b"\xff.html"));
        fs::write(&mine, "mine").unwrap();
        let e = publish(&out, &[OutFile::new("a/other.html", "y")]).unwrap_err();
        assert!(matches!(e, OutputError::Foreign(..)), "{e}");
        assert_eq!(fs::read_to_string(&mine).unwrap(), "mine");
    }

    #[test]
    fn staging_names_are_recognised_exactly() {
        let p = b".site.building-";
        assert_eq!(
            staging_owner(OsStr::new(".site.building-12-3"), p),
            Some(12)
        );
        assert_eq!(staging_owner(OsStr::new(".site.building-12"), p), Some(12));
        for other in [
            ".site.building-",
            ".site.building-x",
            ".site.building-1-x",
            ".site.building-1-2-3",
            ".site.building-x.building-1",
        ] {
            assert_eq!(staging_owner(OsStr::new(other), p), None, "{other}");
        }
        // An output's name need not be UTF-8, and so neither its staging's.
        let odd = OsStr::from_bytes(b".\xff.building-5-0");
        assert_eq!(staging_owner(odd, b".\xff.building-"), Some(5));
    }

    #[test]
    fn two_publishers_at_once_both_finish_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        let many: Vec<OutFile> = (0..2000)
            .map(|i| OutFile::new(format!("d{}/{i}.html", i % 7), "x"))
            .collect();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| publish(&out, &many).unwrap());
            }
        });
        assert_eq!(
            walkdir::WalkDir::new(&out)
                .into_iter()
                .flatten()
                .filter(|e| e.file_type().is_file())
                .count(),
            2001
        );
        assert_eq!(names(tmp.path()), [".site.lock", "site"]);
    }
}
