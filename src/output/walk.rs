//! Walking a folder through open descriptors: every entry below it,
//! contents first, in name order, never through a symbolic link.
//!
//! Each step names one entry relative to its open folder (`openat`,
//! `unlinkat`), so the kernel looks up one name, not the whole path, and a
//! folder swapped for a symbolic link during the walk is refused
//! (`O_NOFOLLOW`), not followed.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// A folder, open for the walk.
pub(super) struct Folder(OwnedFd);

/// One entry of a folder: its name and whether it is a folder itself (a
/// symbolic link never is).
pub(super) struct Entry {
    name: CString,
    is_dir: bool,
}

impl Entry {
    /// The entry's name.
    pub(super) fn name(&self) -> &CStr {
        &self.name
    }

    /// Whether the entry is a folder (not a symbolic link to one).
    pub(super) fn is_dir(&self) -> bool {
        self.is_dir
    }
}

fn check(rc: libc::c_int) -> io::Result<libc::c_int> {
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(rc)
    }
}

const OPEN_FLAGS: libc::c_int =
    libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;

/// Opens the folder at `path`; fails if it is a symbolic link.
pub(super) fn open_folder(path: &Path) -> io::Result<OwnedFd> {
    let path = CString::new(path.as_os_str().as_bytes())?;
    // SAFETY: `path` is a valid NUL-terminated string for the call.
    let fd = check(unsafe { libc::open(path.as_ptr(), OPEN_FLAGS) })?;
    // SAFETY: `fd` was just opened and nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Opens the folder `name` inside the open folder `parent`; fails if it is
/// a symbolic link.
pub(super) fn open_folder_in(parent: &OwnedFd, name: &CStr) -> io::Result<OwnedFd> {
    // SAFETY: `name` is NUL-terminated and `parent` an open folder.
    let fd = check(unsafe { libc::openat(parent.as_raw_fd(), name.as_ptr(), OPEN_FLAGS) })?;
    // SAFETY: `fd` was just opened and nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Renames `from` in the folder `from_dir` to `to` in `to_dir` (either may
/// be `AT_FDCWD`, for a path), with `renameat2`'s `flags`.
pub(super) fn rename_at(
    (from_dir, from): (libc::c_int, &CStr),
    (to_dir, to): (libc::c_int, &CStr),
    flags: libc::c_uint,
) -> io::Result<()> {
    // SAFETY: both names are NUL-terminated and outlive the call; each
    // folder is open or `AT_FDCWD`.
    check(unsafe { libc::renameat2(from_dir, from.as_ptr(), to_dir, to.as_ptr(), flags) })
        .map(|_| ())
}

/// Opens the folder `rel` (`/`-separated, `""` for `root` itself) below
/// `root`, one name a step; fails if any step is a symbolic link.
pub(super) fn open_below(root: &Path, rel: &str) -> io::Result<OwnedFd> {
    let mut folder = open_folder(root)?;
    for name in rel.split('/').filter(|n| !n.is_empty()) {
        folder = open_folder_in(&folder, &CString::new(name)?)?;
    }
    Ok(folder)
}

impl Folder {
    /// Opens the folder at `path`; fails if it is a symbolic link.
    pub(super) fn open(path: &Path) -> io::Result<Folder> {
        open_folder(path).map(Folder)
    }

    fn open_in(&self, name: &CStr) -> io::Result<Folder> {
        open_folder_in(&self.0, name).map(Folder)
    }

    /// The folder's entries (without `.` and `..`), sorted by name.
    pub(super) fn entries(&self) -> io::Result<Vec<Entry>> {
        // The listing gets a descriptor of its own, which `closedir`
        // closes; it shares the offset, so it starts from the top.
        // SAFETY: duplicating an open descriptor.
        let fd = check(unsafe { libc::fcntl(self.0.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 0) })?;
        // SAFETY: `fd` is an open folder that the stream now owns.
        let dir = unsafe { libc::fdopendir(fd) };
        if dir.is_null() {
            let e = io::Error::last_os_error();
            // SAFETY: the stream did not take `fd`.
            unsafe { libc::close(fd) };
            return Err(e);
        }
        let mut entries = Vec::new();
        let mut failed = None;
        // SAFETY: `dir` is a valid stream until `closedir` below, and each
        // entry is read before the next `readdir`.
        unsafe {
            libc::rewinddir(dir);
            loop {
                *libc::__errno_location() = 0;
                let d = libc::readdir(dir);
                if d.is_null() {
                    let errno = *libc::__errno_location();
                    if errno != 0 {
                        failed = Some(io::Error::from_raw_os_error(errno));
                    }
                    break;
                }
                let name = CStr::from_ptr((*d).d_name.as_ptr());
                if matches!(name.to_bytes(), b"." | b"..") {
                    continue;
                }
                let is_dir = match (*d).d_type {
                    libc::DT_DIR => true,
                    libc::DT_UNKNOWN => match self.is_dir_at(name) {
                        Ok(is_dir) => is_dir,
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                    },
                    _ => false,
                };
                entries.push(Entry {
                    name: name.to_owned(),
                    is_dir,
                });
            }
            libc::closedir(dir);
        }
        if let Some(e) = failed {
            return Err(e);
        }
        entries.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    /// Whether `name` here is a folder, not following a symbolic link: for
    /// file systems whose listing does not say.
    fn is_dir_at(&self, name: &CStr) -> io::Result<bool> {
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: `name` is NUL-terminated, `st` is written by the call.
        check(unsafe {
            libc::fstatat(
                self.0.as_raw_fd(),
                name.as_ptr(),
                st.as_mut_ptr(),
                libc::AT_SYMLINK_NOFOLLOW,
            )
        })?;
        // SAFETY: `fstatat` succeeded, so `st` is filled in.
        let mode = unsafe { st.assume_init() }.st_mode;
        Ok(mode & libc::S_IFMT == libc::S_IFDIR)
    }

    /// Removes `entry` from this folder: a file or link, or an empty folder.
    pub(super) fn remove(&self, entry: &Entry) -> io::Result<()> {
        let flags = if entry.is_dir { libc::AT_REMOVEDIR } else { 0 };
        // SAFETY: `entry.name` is NUL-terminated and `self` an open folder.
        check(unsafe { libc::unlinkat(self.0.as_raw_fd(), entry.name.as_ptr(), flags) })?;
        Ok(())
    }

    /// Walks `entry` of this folder, whose key is `key` (the folder's key,
    /// `""` at the root, then the name, and `/` after a folder's): first
    /// everything inside it, in name order, then `entry` itself.
    ///
    /// `visit` sees each entry with its folder and key; `unreadable` sees
    /// the key of each folder that could not be opened or listed, whose
    /// contents are then skipped. Either may stop the walk with an error.
    pub(super) fn walk<E>(
        &self,
        entry: &Entry,
        key: &str,
        visit: &mut impl FnMut(&Folder, &Entry, &str) -> Result<(), E>,
        unreadable: &mut impl FnMut(&str, io::Error) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut key = key.to_string();
        push_name(&mut key, &entry.name);
        if entry.is_dir {
            key.push('/');
            match self
                .open_in(&entry.name)
                .and_then(|sub| Ok((sub.entries()?, sub)))
            {
                Ok((inside, sub)) => {
                    for e in &inside {
                        sub.walk(e, &key, visit, unreadable)?;
                    }
                }
                Err(e) => unreadable(&key, e)?,
            }
        }
        visit(self, entry, &key)
    }
}

/// Appends `name` to the key `key`. A name that is not UTF-8 is written
/// as far as it reads, followed by a NUL: a key no list holds (no path the
/// build makes has a NUL, nor any name a marker lists), so such a name is
/// never taken for one of the tool's, whatever it looks like.
pub(super) fn push_name(key: &mut String, name: &CStr) {
    match name.to_str() {
        Ok(name) => key.push_str(name),
        Err(_) => {
            key.push_str(&String::from_utf8_lossy(name.to_bytes()));
            key.push('\0');
        }
    }
}

/// The path of `key` below `root`, for a message.
pub(super) fn path_of(root: &Path, key: &str) -> std::path::PathBuf {
    root.join(key.trim_end_matches('/').replace('\0', ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks everything below `root` with `visit`; an unreadable folder
    /// fails the test.
    fn walk_all<E>(
        root: &Path,
        mut visit: impl FnMut(&Folder, &Entry, &str) -> Result<(), E>,
    ) -> Result<(), E> {
        let folder = Folder::open(root).unwrap();
        for e in folder.entries().unwrap() {
            folder.walk(&e, "", &mut visit, &mut |k, e| panic!("{k}: {e}"))?;
        }
        Ok(())
    }

    fn keys(root: &Path) -> Vec<String> {
        let mut keys = Vec::new();
        walk_all(root, |_, _, k| {
            keys.push(k.to_string());
            Ok::<(), ()>(())
        })
        .unwrap();
        keys
    }

    #[test]
    fn walks_contents_first_in_name_order_without_following_links() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("root");
        std::fs::create_dir_all(root.join("b/c")).unwrap();
        std::fs::write(root.join("b/c/f"), "").unwrap();
        std::fs::write(root.join("a"), "").unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("precious"), "").unwrap();
        std::os::unix::fs::symlink(&elsewhere, root.join("link")).unwrap();
        assert_eq!(keys(&root), ["a", "b/c/f", "b/c/", "b/", "link"]);
        // The root itself is never opened through a link (ENOTDIR, as
        // O_NOFOLLOW with O_DIRECTORY fails on Linux), nor a folder in it.
        assert!(Folder::open(&root.join("link")).is_err());
        let opened = open_folder(&root).unwrap();
        assert!(open_folder_in(&opened, c"link").is_err());
        assert!(open_folder_in(&opened, c"b").is_ok());
    }

    #[test]
    fn removes_a_link_not_what_it_points_to() {
        let tmp = tempfile::tempdir().unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("precious"), "").unwrap();
        std::os::unix::fs::symlink(&elsewhere, tmp.path().join("link")).unwrap();
        walk_all(tmp.path(), |f, e, k| {
            if k == "link" {
                f.remove(e)?;
            }
            Ok::<(), io::Error>(())
        })
        .unwrap();
        assert!(!tmp.path().join("link").exists());
        assert!(elsewhere.join("precious").exists());
    }
}
