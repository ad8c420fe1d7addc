//! The one module that writes to the disk.
//!
//! Invariant: the output folder is replaced whole or not at all. Files are
//! written into a staging folder beside it, which is then swapped into place
//! (atomically on Linux); a failed or killed build leaves the previous
//! output exactly as it was. A folder is only ever deleted if it carries the
//! marker file that this module writes into everything it makes, or is
//! empty.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

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

/// The file that marks a folder as this tool's output, so that a later build
/// may replace it.
pub const MARKER: &str = ".tictactoe-book";
const MARKER_TEXT: &str =
    "Made by tictactoe-book: `cargo xtask build-site` may replace this folder.\n";

/// Why the output could not be written.
#[derive(Debug)]
pub enum OutputError {
    /// `--out` names something that is not a folder.
    NotADirectory(PathBuf),
    /// `--out` names a non-empty folder that this tool did not make.
    NotOurs(PathBuf),
    /// The disk refused: the path and the error.
    Io(PathBuf, io::Error),
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::NotADirectory(p) => {
                write!(f, "output {} exists and is not a folder", p.display())
            }
            OutputError::NotOurs(p) => write!(
                f,
                "output folder {} is not empty and was not made by this tool (no {MARKER} file); \
                 refusing to replace it",
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

/// Whether `dir` may be replaced: it is empty, or it carries the marker.
fn is_ours_or_empty(dir: &Path) -> Result<bool, OutputError> {
    if dir.join(MARKER).is_file() {
        return Ok(true);
    }
    Ok(fs::read_dir(dir).map_err(io_err(dir))?.next().is_none())
}

/// Checks that `out` may be written to, without writing anything.
pub fn check_target(out: &Path) -> Result<(), OutputError> {
    match fs::symlink_metadata(out) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(OutputError::Io(out.to_path_buf(), e)),
        Ok(m) if !m.is_dir() => Err(OutputError::NotADirectory(out.to_path_buf())),
        Ok(_) if is_ours_or_empty(out)? => Ok(()),
        Ok(_) => Err(OutputError::NotOurs(out.to_path_buf())),
    }
}

/// Writes `files` as the whole new content of `out`, replacing an earlier
/// output there. On error nothing at `out` has changed.
pub fn publish(out: &Path, files: &[OutFile]) -> Result<(), OutputError> {
    check_target(out)?;
    let name = out
        .file_name()
        .ok_or_else(|| OutputError::NotADirectory(out.to_path_buf()))?
        .to_string_lossy()
        .into_owned();
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).map_err(io_err(&parent))?;
    remove_stale_staging(&parent, &name);
    let staging = parent.join(format!(".{name}.building-{}", std::process::id()));
    let result = write_tree(&staging, files).and_then(|()| swap_into_place(&staging, out));
    if result.is_err() {
        let _ = remove_ours(&staging);
    }
    result
}

/// Removes staging folders left by builds that were killed.
fn remove_stale_staging(parent: &Path, name: &str) {
    let prefix = format!(".{name}.building-");
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = remove_ours(&entry.path());
        }
    }
}

/// Deletes `dir` only if it carries the marker (or is empty). The marker
/// goes last, so a deletion cut short by a kill leaves a folder that the
/// next build still knows as its own.
fn remove_ours(dir: &Path) -> io::Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    if dir.join(MARKER).is_file() {
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            if entry.file_name() == MARKER {
                continue;
            }
            if entry.file_type()?.is_dir() {
                fs::remove_dir_all(entry.path())?;
            } else {
                fs::remove_file(entry.path())?;
            }
        }
        fs::remove_file(dir.join(MARKER))?;
    }
    fs::remove_dir(dir)
}

fn write_tree(root: &Path, files: &[OutFile]) -> Result<(), OutputError> {
    fs::create_dir(root).map_err(io_err(root))?;
    fs::write(root.join(MARKER), MARKER_TEXT).map_err(io_err(root))?;
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

/// Puts the finished `staging` folder at `out`, then deletes what was there.
fn swap_into_place(staging: &Path, out: &Path) -> Result<(), OutputError> {
    if !out.exists() {
        return fs::rename(staging, out).map_err(io_err(out));
    }
    exchange(staging, out).map_err(io_err(out))?;
    // `staging` now holds the previous output, marker and all.
    remove_ours(staging).map_err(io_err(staging))
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
        let err = io::Error::last_os_error();
        // Filesystems without RENAME_EXCHANGE: fall back to two renames.
        if err.raw_os_error() == Some(libc::EINVAL) || err.raw_os_error() == Some(libc::ENOSYS) {
            exchange_by_renames(a, b)
        } else {
            Err(err)
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    exchange_by_renames(a, b)
}

/// Two renames through a third name: briefly no output at `b`.
fn exchange_by_renames(a: &Path, b: &Path) -> io::Result<()> {
    let aside = a.with_extension("old");
    fs::rename(b, &aside)?;
    if let Err(e) = fs::rename(a, b) {
        fs::rename(&aside, b)?;
        return Err(e);
    }
    fs::rename(&aside, a)
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

    #[test]
    fn publishes_and_replaces_its_own_output() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        publish(&out, &files("one")).unwrap();
        assert_eq!(fs::read_to_string(out.join("a/b/c.html")).unwrap(), "one");
        publish(&out, &[OutFile::new("index.html", "two")]).unwrap();
        assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "two");
        assert!(!out.join("a").exists(), "the old tree is gone");
        let names: Vec<_> = fs::read_dir(tmp.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "no staging folder is left behind");
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
    fn refuses_a_file() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f");
        fs::write(&file, "x").unwrap();
        assert!(matches!(
            publish(&file, &files("x")),
            Err(OutputError::NotADirectory(_))
        ));
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
        let names: Vec<_> = fs::read_dir(tmp.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "the staging folder was removed");
    }

    #[test]
    fn stale_staging_from_a_killed_build_is_cleared() {
        let tmp = tempfile::tempdir().unwrap();
        let stale = tmp.path().join(".site.building-999999");
        fs::create_dir(&stale).unwrap();
        fs::write(stale.join(MARKER), MARKER_TEXT).unwrap();
        let foreign = tmp.path().join(".site.building-not-ours");
        fs::create_dir(&foreign).unwrap();
        fs::write(foreign.join("keep"), "x").unwrap();
        publish(&tmp.path().join("site"), &files("x")).unwrap();
        assert!(!stale.exists());
        assert!(foreign.join("keep").exists());
    }
}
