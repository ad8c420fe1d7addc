//! The one module that writes to the disk.
//!
//! Invariants:
//! - The output folder is replaced whole or not at all. Files are written
//!   into a staging folder beside it, which is then swapped into place in
//!   one step; a failed or killed build leaves the previous output exactly
//!   as it was, and removes the parent folders it created.
//! - Only what this tool made is ever deleted. Every folder it makes holds
//!   the marker file, which lists every file and folder the build put
//!   there; a deletion removes listed paths only, never follows a symbolic
//!   link, and takes the marker last, so a deletion cut short is finished
//!   by the next build.
//! - One build at a time per output folder: a build holds an advisory lock
//!   (`flock`) on `.<name>.lock` beside the output from before it looks at
//!   the folder until it has swapped; a second build waits for it.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

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

/// The file that marks a folder as this tool's output. Its first line says
/// so; the lines after [`LIST_HEADER`] name every file and folder (folders
/// end in `/`) that the build made, and so may be deleted by the next one.
pub const MARKER: &str = ".tictactoe-book";
const MARKER_TEXT: &str = "Made by tictactoe-book: `cargo xtask build-site` may delete the paths \
listed below, and nothing else, when it replaces this folder.\n";
const LIST_HEADER: &str = "made:\n";

/// Why the output could not be written.
#[derive(Debug)]
pub enum OutputError {
    /// `--out` names something that is not a folder.
    NotADirectory(PathBuf),
    /// `--out` is a symbolic link: replacing it would replace the link.
    Symlink(PathBuf),
    /// `--out` names no folder of its own (`.`, `..`, `/`): a build
    /// replaces its output folder, and cannot replace these.
    OddPath(PathBuf),
    /// `--out` names a non-empty folder that this tool did not make.
    NotOurs(PathBuf),
    /// The output folder holds something the last build did not make.
    Foreign(PathBuf),
    /// The disk refused: the path and the error.
    Io(PathBuf, io::Error),
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
            OutputError::OddPath(p) => write!(
                f,
                "output {} names no folder of its own: the build replaces its output folder whole, \
                 so name a new or earlier output folder, such as `--out site`",
                p.display()
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
            OutputError::Io(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for OutputError {}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> OutputError + '_ {
    move |e| OutputError::Io(path.to_path_buf(), e)
}

/// An output folder split into the folder it sits in and its own name.
struct Place {
    out: PathBuf,
    parent: PathBuf,
    name: OsString,
}

impl Place {
    fn new(out: &Path) -> Result<Place, OutputError> {
        let Some(Component::Normal(name)) = out.components().next_back() else {
            return Err(OutputError::OddPath(out.to_path_buf()));
        };
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Ok(Place {
            out: out.to_path_buf(),
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

    /// The prefix of this output's staging folders' names.
    fn staging_prefix(&self) -> String {
        format!(".{}.building-", self.name.to_string_lossy())
    }
}

/// What a folder's marker says the tool made there.
enum Made {
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
    fn read(dir: &Path) -> io::Result<Option<Made>> {
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

    fn contains(&self, key: &str, new: &HashSet<String>) -> bool {
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

/// Every file and folder that writing `files` makes, folders ending in `/`.
fn made_paths(files: &[OutFile]) -> HashSet<String> {
    let mut paths = HashSet::new();
    for f in files {
        let mut dir = f.path.as_str();
        while let Some((d, _)) = dir.rsplit_once('/') {
            if !paths.insert(format!("{d}/")) {
                break;
            }
            dir = d;
        }
        paths.insert(f.path.clone());
    }
    paths
}

/// The marker's text for a folder holding `files`, in sorted order so it is
/// the same on every machine.
fn marker_text(made: &HashSet<String>) -> String {
    let mut list: Vec<&String> = made.iter().collect();
    list.sort();
    let mut text = format!("{MARKER_TEXT}{LIST_HEADER}");
    for p in list {
        text.push_str(p);
        text.push('\n');
    }
    text
}

/// The key of a path below `root` in a marker's list.
fn key(root: &Path, entry: &walkdir::DirEntry) -> String {
    let rel = entry
        .path()
        .strip_prefix(root)
        .expect("walkdir stays below its root");
    let mut k = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    if entry.file_type().is_dir() {
        k.push('/');
    }
    k
}

/// Checks that `out` may be written to, without writing anything: it is a
/// real folder that is empty or carries the marker, or is not there yet.
pub fn check_target(out: &Path) -> Result<(), OutputError> {
    Place::new(out)?;
    match fs::symlink_metadata(out) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(OutputError::Io(out.to_path_buf(), e)),
        Ok(m) if m.file_type().is_symlink() => Err(OutputError::Symlink(out.to_path_buf())),
        Ok(m) if !m.is_dir() => Err(OutputError::NotADirectory(out.to_path_buf())),
        Ok(_) => {
            let marked = Made::read(out).map_err(io_err(out))?.is_some();
            if marked || fs::read_dir(out).map_err(io_err(out))?.next().is_none() {
                Ok(())
            } else {
                Err(OutputError::NotOurs(out.to_path_buf()))
            }
        }
    }
}

/// Under the lock: the existing output's record of what it holds, after
/// checking that it holds nothing else. `None` when there is no output yet
/// or it is an empty folder.
fn check_contents(out: &Path, new: &HashSet<String>) -> Result<Option<Made>, OutputError> {
    check_target(out)?;
    if !out.exists() {
        return Ok(None);
    }
    let Some(made) = Made::read(out).map_err(io_err(out))? else {
        return Ok(None); // empty, as check_target found
    };
    for entry in walkdir::WalkDir::new(out).min_depth(1).sort_by_file_name() {
        let entry = entry.map_err(|e| OutputError::Io(out.to_path_buf(), e.into()))?;
        let k = key(out, &entry);
        if k != MARKER && !made.contains(&k, new) {
            return Err(OutputError::Foreign(entry.into_path()));
        }
    }
    Ok(Some(made))
}

/// Writes `files` as the whole new content of `out`, replacing an earlier
/// output there. On error nothing at `out` has changed. On success, returns
/// a warning for each path of the old output that could not be removed.
pub fn publish(out: &Path, files: &[OutFile]) -> Result<Vec<String>, OutputError> {
    let place = Place::new(out)?;
    let created = create_parents(&place.parent)?;
    let result = publish_locked(&place, files);
    if result.is_err() && !created.is_empty() {
        // Nothing of ours is left in them but the lock file.
        let _ = fs::remove_file(place.beside(".lock"));
        for dir in created.iter().rev() {
            let _ = fs::remove_dir(dir);
        }
    }
    result
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

fn publish_locked(place: &Place, files: &[OutFile]) -> Result<Vec<String>, OutputError> {
    let lock_path = place.beside(".lock");
    let lock = open_lock(&lock_path).map_err(io_err(&lock_path))?;
    lock.lock().map_err(io_err(&lock_path))?;
    let made = made_paths(files);
    let old = check_contents(&place.out, &made)?;
    let mut warnings = sweep_stale_staging(place, &made);
    // The marker's text is ready before the folder exists, so a kill
    // leaves the folder unmarked only for the moment of one write.
    let text = marker_text(&made);
    let staging = make_staging(place).map_err(io_err(&place.parent))?;
    let written = fs::write(staging.join(MARKER), text)
        .map_err(io_err(&staging))
        .and_then(|()| write_tree(&staging, files));
    if let Err(e) = written {
        remove_made(&staging, &made);
        return Err(e);
    }
    match swap(&staging, &place.out, place) {
        Ok(None) => {}
        Ok(Some(old_at)) => {
            let old = old.unwrap_or(Made::Listed(HashSet::new()));
            warnings.extend(remove_made_by(&old_at, &old, &made));
        }
        Err(e) => {
            remove_made(&staging, &made);
            return Err(OutputError::Io(place.out.clone(), e));
        }
    }
    drop(lock);
    Ok(warnings)
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

/// Opens the lock file without following a symbolic link.
fn open_lock(path: &Path) -> io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
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

/// The process id in a staging folder's name, if the rest of the name is
/// `<prefix><pid>` or `<prefix><pid>-<n>` (digits only).
fn staging_owner(name: &OsStr, prefix: &str) -> Option<u32> {
    let rest = name.to_str()?.strip_prefix(prefix)?;
    let (pid, n) = rest.split_once('-').unwrap_or((rest, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n)).then(|| pid.parse().ok())?
}

/// Whether process `pid` is gone.
fn is_gone(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 only asks whether the process exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc != 0 && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}

/// Removes staging folders (and old outputs waiting for deletion) left by
/// builds that were killed: only real folders with our name pattern and
/// marker, whose process is gone. Called under the lock, so no live build
/// into the same output has one.
fn sweep_stale_staging(place: &Place, new: &HashSet<String>) -> Vec<String> {
    let prefix = place.staging_prefix();
    let Ok(entries) = fs::read_dir(&place.parent) else {
        return Vec::new();
    };
    let mut warnings = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = staging_owner(&entry.file_name(), &prefix) else {
            continue;
        };
        let is_real_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !is_real_dir || !is_gone(pid) {
            continue;
        }
        match Made::read(&entry.path()) {
            Ok(Some(made)) => warnings.extend(remove_made_by(&entry.path(), &made, new)),
            // Killed between making the folder and writing all of its
            // marker: nothing else of ours can be inside yet. An empty
            // folder, or one holding only the start of our marker, goes.
            _ => remove_unmarked(&entry.path()),
        }
    }
    warnings
}

/// Removes a staging folder that a killed build left before its marker
/// was whole: only if it holds nothing, or nothing but a marker file.
fn remove_unmarked(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let names: Vec<_> = entries.flatten().map(|e| e.file_name()).collect();
    let only_marker = names.len() == 1
        && names[0] == MARKER
        && fs::symlink_metadata(dir.join(MARKER)).is_ok_and(|m| m.is_file());
    if only_marker {
        let _ = fs::remove_file(dir.join(MARKER));
    }
    // Fails, leaving it, unless the folder is empty now.
    let _ = fs::remove_dir(dir);
}

/// Deletes a folder this build made, listed by `made`.
fn remove_made(dir: &Path, made: &HashSet<String>) {
    let _ = remove_made_by(dir, &Made::Listed(made.clone()), made);
}

/// Deletes what `made` lists below `dir`, deepest first, without following
/// symbolic links, then the marker and `dir` itself if nothing else is
/// left. Returns a line for each path that stays.
fn remove_made_by(dir: &Path, made: &Made, new: &HashSet<String>) -> Vec<String> {
    let mut left = Vec::new();
    let walk = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .contents_first(true)
        .sort_by_file_name();
    for entry in walk {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                left.push(format!("cannot read {}: {e}", dir.display()));
                continue;
            }
        };
        let k = key(dir, &entry);
        if k == MARKER {
            continue;
        }
        if !made.contains(&k, new) {
            left.push(format!(
                "kept {}: not made by this tool",
                entry.path().display()
            ));
            continue;
        }
        let removed = if entry.file_type().is_dir() {
            fs::remove_dir(entry.path())
        } else {
            fs::remove_file(entry.path())
        };
        match removed {
            Ok(()) => {}
            // A folder that still holds a leftover was named already.
            Err(_) if entry.file_type().is_dir() && !left.is_empty() => {}
            Err(e) => left.push(format!("cannot remove {}: {e}", entry.path().display())),
        }
    }
    if left.is_empty() {
        // An empty folder that was `--out` has no marker.
        let marker = match fs::remove_file(dir.join(MARKER)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
        if let Err(e) = marker.and_then(|()| fs::remove_dir(dir)) {
            left.push(format!("cannot remove {}: {e}", dir.display()));
        }
    }
    left
}

fn write_tree(root: &Path, files: &[OutFile]) -> Result<(), OutputError> {
    let mut dirs: Vec<&str> = files
        .iter()
        .filter_map(|f| f.path.rsplit_once('/').map(|(d, _)| d))
        .collect();
    dirs.sort_unstable();
    dirs.dedup();
    for d in dirs {
        let path = root.join(d);
        fs::create_dir_all(&path).map_err(io_err(&path))?;
    }
    // Two writers: file creation is most of the build, and the machine has
    // two cores.
    let half = files.len().div_ceil(2);
    std::thread::scope(|scope| {
        let workers: Vec<_> = files
            .chunks(half.max(1))
            .map(|chunk| scope.spawn(move || write_files(root, chunk)))
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().expect("writer thread panicked"))
    })
}

fn write_files(root: &Path, files: &[OutFile]) -> Result<(), OutputError> {
    for f in files {
        let path = root.join(&f.path);
        fs::write(&path, &f.bytes).map_err(io_err(&path))?;
    }
    Ok(())
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
    // SAFETY: both are valid NUL-terminated paths that outlive the call.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::Error::from_raw_os_error(libc::ENOSYS))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(
            text.ends_with("made:\na/\na/b/\na/b/c.html\nindex.html\n"),
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
    fn an_output_of_the_older_unlisted_kind_is_replaced_but_user_files_are_not() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        fs::create_dir_all(out.join("a/old-game")).unwrap();
        fs::write(out.join(MARKER), MARKER_TEXT).unwrap();
        fs::write(out.join("index.html"), "old").unwrap();
        fs::write(out.join("a/old-game/1.html"), "old").unwrap();
        fs::write(out.join("CNAME"), "mine").unwrap();
        let e = publish(&out, &files("new")).unwrap_err();
        assert!(e.to_string().contains("CNAME"), "{e}");
        fs::remove_file(out.join("CNAME")).unwrap();
        assert!(publish(&out, &files("new")).unwrap().is_empty());
        assert!(!out.join("a/old-game").exists());
        assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "new");
    }

    #[test]
    fn a_symlink_named_like_staging_is_never_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let precious = tmp.path().join("precious");
        fs::create_dir(&precious).unwrap();
        fs::write(precious.join("KEEP"), "mine").unwrap();
        fs::write(precious.join(MARKER), MARKER_TEXT).unwrap();
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
        fs::write(stale.join(MARKER), marker_text(&made)).unwrap();
        fs::write(stale.join("a/b/c.html"), "x").unwrap();
        let foreign = tmp.path().join(".site.building-not-ours");
        fs::create_dir(&foreign).unwrap();
        fs::write(foreign.join("keep"), "x").unwrap();
        // A live process's staging is not touched, marker or not.
        let live = tmp
            .path()
            .join(format!(".site.building-{}-7", std::process::id()));
        fs::create_dir(&live).unwrap();
        fs::write(live.join(MARKER), marker_text(&made)).unwrap();
        // Killed before the marker was written, or while writing it.
        let empty = tmp.path().join(".site.building-999999-1");
        fs::create_dir(&empty).unwrap();
        let half = tmp.path().join(".site.building-999999-2");
        fs::create_dir(&half).unwrap();
        fs::write(half.join(MARKER), "tictactoe-bo").unwrap();
        // Unmarked but holding something else: not provably ours.
        let odd = tmp.path().join(".site.building-999999-3");
        fs::create_dir(&odd).unwrap();
        fs::write(odd.join("keep"), "x").unwrap();
        publish(&tmp.path().join("site"), &files("x")).unwrap();
        assert!(!stale.exists());
        assert!(!empty.exists());
        assert!(!half.exists());
        assert!(odd.join("keep").exists());
        assert!(foreign.join("keep").exists());
        assert!(live.join(MARKER).exists());
    }

    #[test]
    fn staging_names_are_recognised_exactly() {
        let p = ".site.building-";
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
