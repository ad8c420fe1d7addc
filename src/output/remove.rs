//! Deleting what the tool made, and only that: an old output after the
//! swap, a failed build's staging folder, and what killed builds left.
//! Nothing here follows a symbolic link.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::Path;

use super::marker::{List, MARKER, Made, OldMarker};
use super::walk::{Entry, Folder, path_of};

/// The process id in a staging folder's name, if the rest of the name is
/// `<prefix><pid>` or `<prefix><pid>-<n>` (digits only).
pub(super) fn staging_owner(name: &OsStr, prefix: &str) -> Option<u32> {
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
pub(super) fn sweep_stale_staging(parent: &Path, prefix: &str) -> Vec<String> {
    let Ok(entries) = fs::read_dir(parent) else {
        return Vec::new();
    };
    let mut warnings = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = staging_owner(&entry.file_name(), prefix) else {
            continue;
        };
        let is_real_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !is_real_dir || !is_gone(pid) {
            continue;
        }
        match OldMarker::read(&entry.path()).map(|old| old.map(|old| old.made)) {
            // A staging folder's marker is always a list: no new paths
            // are needed to read it.
            Ok(Some(made)) => {
                warnings.extend(remove_made_by(&entry.path(), &made, &List::default()))
            }
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
pub(super) fn remove_made(dir: &Path, made: &List) {
    let _ = remove_made_by(dir, &Made::Listed(made.clone()), made);
}

/// Deletes what `made` lists below `dir`, deepest first, without following
/// symbolic links, then the marker and `dir` itself if nothing else is
/// left. Returns a line for each path that stays.
///
/// Each top-level entry is one job, so that both cores work and folders
/// apart never wait on each other's locks in the kernel.
pub(super) fn remove_made_by(dir: &Path, made: &Made, new: &List) -> Vec<String> {
    let cannot_read = |e| vec![format!("cannot read {}: {e}", dir.display())];
    let root = match Folder::open(dir) {
        Ok(root) => root,
        Err(e) => return cannot_read(e),
    };
    let tops = match root.entries() {
        Ok(tops) => tops,
        Err(e) => return cannot_read(e),
    };
    let mut left: Vec<String> =
        crate::par::map(&tops, |top| remove_subtree(dir, &root, top, made, new))
            .into_iter()
            .flatten()
            .collect();
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

/// [`remove_made_by`] for `top`, an entry of `root` (the folder `dir`).
fn remove_subtree(dir: &Path, root: &Folder, top: &Entry, made: &Made, new: &List) -> Vec<String> {
    // Both callbacks below add to it, one at a time.
    let left = std::cell::RefCell::new(Vec::new());
    let _ = root.walk::<std::convert::Infallible>(
        top,
        "",
        &mut |folder, entry, k| {
            if k == MARKER {
                return Ok(());
            }
            let mut left = left.borrow_mut();
            if !made.contains(k, new) {
                left.push(format!(
                    "kept {}: not made by this tool",
                    path_of(dir, k).display()
                ));
                return Ok(());
            }
            match folder.remove(entry) {
                Ok(()) => {}
                // A folder that still holds a leftover was named already.
                Err(_) if entry.is_dir() && !left.is_empty() => {}
                Err(e) => left.push(format!("cannot remove {}: {e}", path_of(dir, k).display())),
            }
            Ok(())
        },
        &mut |_, e| {
            left.borrow_mut()
                .push(format!("cannot read {}: {e}", dir.display()));
            Ok(())
        },
    );
    left.into_inner()
}
