//! Deleting what the tool made, and only that: an old output after the
//! swap, a failed build's staging folder, and what killed builds left.
//! Nothing here follows a symbolic link.

use std::ffi::{CString, OsStr, OsString};
use std::fs;
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use super::Place;
use super::marker::{Identity, List, MARKER, Made, is_staging_start, read_staging};
use super::walk::{Entry, Folder, open_below, rename_at};

/// What a removal left: each path (folders ending in `/`) that was not
/// made by the tool, and each that could not be removed, with why.
#[derive(Debug, Default)]
pub(super) struct Left {
    /// Paths the marker does not list, left as they are.
    pub(super) foreign: Vec<String>,
    /// Paths of the tool's own that stay, each with its error.
    pub(super) failed: Vec<(String, io::Error)>,
}

impl Left {
    /// Whether nothing was left.
    pub(super) fn is_empty(&self) -> bool {
        self.foreign.is_empty() && self.failed.is_empty()
    }

    /// One line for all of it, naming `dir`, where it is, and the count.
    pub(super) fn warning(&self, dir: &Path) -> Option<String> {
        let dir = dir.display();
        // An empty key is the leftover folder itself.
        let first = |k: &str| match k.trim_end_matches('/') {
            "" => "the folder itself".to_string(),
            k => k.to_string(),
        };
        let paths = |n: usize| format!("{n} path{}", if n == 1 { "" } else { "s" });
        match (&self.foreign[..], &self.failed[..]) {
            ([], []) => None,
            ([], [(k, e), ..]) => Some(format!(
                "cannot remove {} of the old site, left in {dir} \
                 (the first, {}: {e}); the next build tries again",
                paths(self.failed.len()),
                first(k)
            )),
            ([k, ..], _) => Some(format!(
                "kept {} not made by this tool in {dir} (the first, {}){}",
                paths(self.foreign.len() + self.failed.len()),
                first(k),
                match self.failed.len() {
                    0 => String::new(),
                    n => format!(", {n} of them the tool's own that could not be removed"),
                }
            )),
        }
    }
}

/// The process id in a staging folder's name, if the rest of the name is
/// `<prefix><pid>` or `<prefix><pid>-<n>` (digits only). The prefix holds
/// the output's name, which need not be UTF-8.
pub(super) fn staging_owner(name: &OsStr, prefix: &[u8]) -> Option<u32> {
    let rest = std::str::from_utf8(name.as_bytes().strip_prefix(prefix)?).ok()?;
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
/// builds into `place` that were killed: only real folders with our name
/// pattern, whose process is gone, and whose marker proves the tool made
/// them there for this output. A user's file one holds (written into the
/// output during a build that was then killed) is put back into the output,
/// or the folder is given a visible name, as after a build. Called under
/// the lock, so no live build into the same output has one.
pub(super) fn sweep_stale_staging(place: &Place) -> Vec<String> {
    let Ok(entries) = fs::read_dir(&place.parent) else {
        return Vec::new();
    };
    let prefix = place.staging_prefix();
    let mut warnings = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = staging_owner(&entry.file_name(), &prefix) else {
            continue;
        };
        let is_real_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !is_real_dir || !is_gone(pid) {
            continue;
        }
        match read_staging(&entry.path(), place.name_bytes()) {
            // A staging folder's marker is always a list: no new paths
            // are needed to read it.
            Ok(Some(made)) => {
                warnings.extend(remove_old(&entry.path(), &made, &List::default(), place));
            }
            // Killed between making the folder and writing all of its
            // marker: nothing else of ours can be inside yet. An empty
            // folder, or one holding only the start of our marker, goes.
            Ok(None) => remove_unmarked(&entry.path(), place.name_bytes()),
            Err(_) => {}
        }
    }
    warnings
}

/// Removes a staging folder that a killed build left before its marker
/// was whole: only if it holds nothing, or nothing but the start of the
/// marker a build into the output `name` writes in this very folder.
fn remove_unmarked(dir: &Path, name: &[u8]) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let names: Vec<_> = entries.flatten().map(|e| e.file_name()).collect();
    let only_marker = names.len() == 1
        && names[0] == MARKER
        && fs::symlink_metadata(dir.join(MARKER)).is_ok_and(|m| m.is_file() && m.len() < 4096);
    let started = || {
        let text = fs::read(dir.join(MARKER)).unwrap_or_default();
        Identity::of_path(dir).is_ok_and(|id| is_staging_start(&text, id, name))
    };
    if only_marker && started() {
        let _ = fs::remove_file(dir.join(MARKER));
    }
    // Fails, leaving it, unless the folder is empty now.
    let _ = fs::remove_dir(dir);
}

/// Removes an old output, or a killed build's staging folder, now at
/// `old_at`, which its marker says holds `old`, the new build having made
/// `new` at `place`. A path it holds that the marker does not list (only
/// one written into the output during a build can be) is put back into the
/// output; if one cannot be, the folder gets a name that is not hidden,
/// beside the output, and is never swept. Returns a warning line for what
/// stays, if anything does.
pub(super) fn remove_old(old_at: &Path, old: &Made, new: &List, place: &Place) -> Vec<String> {
    let mut left = remove_made_by(old_at, old, new);
    if !left.foreign.is_empty() {
        let stayed = put_back(old_at, &place.out, &left.foreign);
        left = remove_made_by(old_at, old, new);
        left.foreign.retain(|k| stayed.contains(k));
    }
    let mut at = old_at.to_path_buf();
    if !left.foreign.is_empty()
        && let Some(visible) = rename_visible(old_at, place)
    {
        at = visible;
    }
    left.warning(&at).into_iter().collect()
}

/// Gives the folder at `dir` a visible name beside the output,
/// `<name>.kept-<pid>-<n>`, never replacing anything: where it went.
fn rename_visible(dir: &Path, place: &Place) -> Option<PathBuf> {
    let from = CString::new(dir.as_os_str().as_bytes()).ok()?;
    for n in 0u32..1000 {
        let mut name = OsString::from_vec(place.name_bytes().to_vec());
        name.push(format!(".kept-{}-{n}", std::process::id()));
        let to = place.parent.join(name);
        let target = CString::new(to.as_os_str().as_bytes()).ok()?;
        let at = libc::AT_FDCWD;
        match rename_at((at, &from), (at, &target), libc::RENAME_NOREPLACE) {
            Ok(()) => return Some(to),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(_) => return None,
        }
    }
    None
}

/// Deletes a folder this build made, listed by `made`.
pub(super) fn remove_made(dir: &Path, made: &List) {
    let _ = remove_made_by(dir, &Made::Listed(made.clone()), made);
}

/// Deletes what `made` lists below `dir`, deepest first, without following
/// symbolic links, then the marker and `dir` itself if nothing else is
/// left. Returns what stays.
///
/// Each top-level entry is one job, so that both cores work and folders
/// apart never wait on each other's locks in the kernel.
pub(super) fn remove_made_by(dir: &Path, made: &Made, new: &List) -> Left {
    let cannot_read = |e| Left {
        failed: vec![(String::new(), e)],
        ..Left::default()
    };
    let root = match Folder::open(dir) {
        Ok(root) => root,
        Err(e) => return cannot_read(e),
    };
    let tops = match root.entries() {
        Ok(tops) => tops,
        Err(e) => return cannot_read(e),
    };
    let mut left = Left::default();
    for part in crate::par::map(&tops, |top| remove_subtree(&root, top, made, new)) {
        left.foreign.extend(part.foreign);
        left.failed.extend(part.failed);
    }
    if left.is_empty() {
        // An empty folder that was `--out` has no marker.
        let marker = match fs::remove_file(dir.join(MARKER)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
        if let Err(e) = marker.and_then(|()| fs::remove_dir(dir)) {
            left.failed.push((String::new(), e));
        }
    }
    left
}

/// [`remove_made_by`] for `top`, an entry of `root`.
fn remove_subtree(root: &Folder, top: &Entry, made: &Made, new: &List) -> Left {
    // Both callbacks below add to it, one at a time.
    let left = std::cell::RefCell::new(Left::default());
    let _ = root.walk::<std::convert::Infallible>(
        top,
        "",
        &mut |folder, entry, k| {
            if k == MARKER {
                return Ok(());
            }
            let mut left = left.borrow_mut();
            if !made.contains(k, new) {
                left.foreign.push(k.to_string());
                return Ok(());
            }
            match folder.remove(entry) {
                Ok(()) => {}
                // A folder that still holds a leftover was named already.
                Err(_) if entry.is_dir() && !left.is_empty() => {}
                Err(e) => left.failed.push((k.to_string(), e)),
            }
            Ok(())
        },
        &mut |k, e| {
            left.borrow_mut().failed.push((k.to_string(), e));
            Ok(())
        },
    );
    left.into_inner()
}

/// Puts back into the new output at `out` each of `foreign`, paths the old
/// output at `old` held though its marker did not list them (only a file a
/// user wrote into the output during the build, after the check for
/// foreign files, can be one): each goes to the same path in the new
/// output, where that path is free and its folder there. Returns those
/// that could not go back. Nothing is replaced, and no symbolic link on
/// either side is followed.
pub(super) fn put_back(old: &Path, out: &Path, foreign: &[String]) -> Vec<String> {
    use std::os::fd::AsRawFd;
    let mut keys: Vec<&str> = foreign.iter().map(String::as_str).collect();
    // Outermost first: a folder put back takes what is inside it along.
    keys.sort_unstable();
    let mut stayed = Vec::new();
    let mut moved: Option<&str> = None;
    for k in keys {
        if moved.is_some_and(|m| k.starts_with(m)) {
            continue;
        }
        let (folder, name) = k.trim_end_matches('/').rsplit_once('/').unwrap_or(("", k));
        let name = name.trim_end_matches('/');
        let put = || -> io::Result<()> {
            let from = open_below(old, folder)?;
            let to = open_below(out, folder)?;
            let name = std::ffi::CString::new(name)?;
            let (from, to) = ((from.as_raw_fd(), &*name), (to.as_raw_fd(), &*name));
            rename_at(from, to, libc::RENAME_NOREPLACE)
        };
        match put() {
            Ok(()) => moved = Some(k),
            Err(_) => stayed.push(k.to_string()),
        }
    }
    stayed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warning_counts_in_words_and_names_the_folder_itself() {
        let dir = Path::new("site.old");
        let denied = || io::Error::from(io::ErrorKind::PermissionDenied);
        let one = Left {
            foreign: vec!["a/b.txt".into()],
            failed: vec![],
        };
        let line = one.warning(dir).unwrap();
        assert!(line.starts_with("kept 1 path not made"), "{line}");
        assert!(line.contains("(the first, a/b.txt)"), "{line}");
        let itself = Left {
            foreign: vec![],
            failed: vec![(String::new(), denied())],
        };
        let line = itself.warning(dir).unwrap();
        assert!(
            line.starts_with("cannot remove 1 path of the old site"),
            "{line}"
        );
        assert!(line.contains("(the first, the folder itself: "), "{line}");
        let two = Left {
            foreign: vec![],
            failed: vec![("x/".into(), denied()), ("y".into(), denied())],
        };
        let line = two.warning(dir).unwrap();
        assert!(
            line.contains("2 paths") && line.contains("the first, x:"),
            "{line}"
        );
        assert!(Left::default().warning(dir).is_none());
    }
}
