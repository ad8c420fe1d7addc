//! A rebuild's unchanged files: where the old output holds a file with
//! exactly the bytes the new one needs, the staging folder gets a second
//! name for it (a hard link) instead of a new copy, or, while the build has
//! found no change at all, nothing yet (`Staging` keeps what was found, and
//! a build that changes nothing keeps the old output as it is).
//!
//! That is cheaper twice over: no data is written, and removing the old
//! output after the swap only drops names, where it would otherwise free
//! every file (about half of a rebuild's removal). An unchanged file also
//! keeps its modification time, so an upload by size and time (`rsync`)
//! sends only what changed.
//!
//! Invariant: a file is kept only if it is a regular file with no other
//! name, owned by this user, with the permissions a new file would get,
//! and holding exactly the new bytes: read and compared, or, unread, if
//! the old marker's checksum of it is the new bytes' and its inode has not
//! changed since that marker was written. What is linked or kept later is
//! the inode checked, untouched since (its number, change time and length
//! are compared before the link, and its number after, which undoes the
//! link if it differs). The old output is only read: until the swap it
//! stays exactly as it was, and a failed build drops the second names with
//! the staging folder.
//!
//! A site copied from another folder is first read whole here
//! ([`holds_listed`]): each listed file must be a regular file holding
//! bytes of its checksum before the copy is taken; its marker gives no
//! time, so every file is then read again to be kept.

use std::ffi::CStr;
use std::fs;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::Path;

/// An old output's file found to hold exactly the bytes wanted: which
/// inode it is, and its change time and length then, so that a later link
/// can tell it is still that file, untouched.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Same {
    dev: u64,
    ino: u64,
    ctime: (i64, i64),
    len: u64,
}

impl Same {
    /// The file's length when it was checked.
    pub(super) fn len(&self) -> u64 {
        self.len
    }

    fn of(st: &libc::stat) -> Same {
        Same {
            dev: st.st_dev,
            ino: st.st_ino,
            ctime: (st.st_ctime, st.st_ctime_nsec),
            len: st.st_size as u64,
        }
    }
}

/// The old output's file `name` (in `old`), open, if it passes the checks
/// above for a file of `len` bytes (`mode` is the permission bits a new
/// file gets), with what it is.
fn open_checked(old: &OwnedFd, name: &CStr, len: u64, mode: u32) -> Option<(fs::File, Same)> {
    let flags =
        libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;
    // SAFETY: `name` is NUL-terminated and `old` an open folder.
    let fd = unsafe { libc::openat(old.as_raw_fd(), name.as_ptr(), flags) };
    if fd < 0 {
        return None;
    }
    // SAFETY: `fd` was just opened and nothing else owns it.
    let file = unsafe { fs::File::from_raw_fd(fd) };
    let st = stat_of(&file)?;
    alone_and_ours(&st, len, mode).then(|| (file, Same::of(&st)))
}

/// The old output's file `name` (in `old`), open, if it passes the checks
/// above whatever its length: for a file written a piece at a time
/// ([`super::Streamed`]), whose length is known only at its end, when
/// [`Same::len`] is compared.
pub(super) fn open_any_len(old: &OwnedFd, name: &CStr, mode: u32) -> Option<(fs::File, Same)> {
    let st = stat_at(old, name)?;
    let (file, same) = open_checked(old, name, st.st_size as u64, mode)?;
    Some((file, same))
}

/// What the open file or folder `f` is.
pub(super) fn stat_of(f: &impl AsRawFd) -> Option<libc::stat> {
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: `f` is open; `st` is written by the call.
    let rc = unsafe { libc::fstat(f.as_raw_fd(), st.as_mut_ptr()) };
    // SAFETY: filled in when `fstat` succeeded.
    (rc == 0).then(|| unsafe { st.assume_init() })
}

/// Whether `st` is a regular file of `len` bytes with no other name, owned
/// by this user, with the permission bits `mode`.
fn alone_and_ours(st: &libc::stat, len: u64, mode: u32) -> bool {
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    st.st_mode & libc::S_IFMT == libc::S_IFREG
        && st.st_nlink == 1
        && st.st_uid == uid
        && st.st_mode & 0o7777 == mode
        && st.st_size as u64 == len
}

/// The old output's file `name` (in `old`), unread, if it passes the checks
/// above for a file of `len` bytes and its inode has not changed since
/// `before` (when the old output's marker was written, giving the file a
/// checksum): what it is, if so. Such a file still holds the bytes the
/// marker's checksum was taken of; one changed in the same clock tick as
/// the marker was written is not taken (the times must differ). If not,
/// whether its inode changed after `before`, in a later tick.
pub(super) fn untouched_since(
    old: &OwnedFd,
    name: &CStr,
    len: u64,
    mode: u32,
    before: (i64, i64),
) -> Result<Same, bool> {
    let st = stat_at(old, name).ok_or(false)?;
    let changed = (st.st_ctime, st.st_ctime_nsec);
    match alone_and_ours(&st, len, mode) && changed < before {
        true => Ok(Same::of(&st)),
        false => Err(changed > before),
    }
}

/// Whether the old output's file `name` (in `old`) holds exactly `bytes`
/// and passes the checks above: what it is, if so.
pub(super) fn same_bytes(old: &OwnedFd, name: &CStr, bytes: &[u8], mode: u32) -> Option<Same> {
    let (mut file, same) = open_checked(old, name, bytes.len() as u64, mode)?;
    thread_local! {
        /// Each thread's buffer for the old bytes, kept between files.
        static HAVE: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0; 1 << 16]);
    }
    HAVE.with_borrow_mut(|have| {
        // A piece at a time, asking for one byte more than is left: a
        // regular file reads short only at its end, so a small file takes
        // one read.
        let mut rest = bytes;
        loop {
            let want = (rest.len() + 1).min(have.len());
            match file.read(&mut have[..want]) {
                Ok(n) if n <= rest.len() && have[..n] == rest[..n] => {
                    rest = &rest[n..];
                    if n < want {
                        return rest.is_empty().then_some(same);
                    }
                }
                _ => return None,
            }
        }
    })
}

/// Whether the old output's file `name` (in `old`) holds exactly what the
/// file at `from` holds, and passes the checks above: what it is, if so.
/// Both are read a piece at a time, so memory stays flat whatever the
/// size.
pub(super) fn same_as_file(old: &OwnedFd, name: &CStr, from: &Path, mode: u32) -> Option<Same> {
    use std::os::unix::fs::FileExt;
    let src = super::copy::open_source(from).ok()?;
    let len = src.metadata().ok()?.len();
    let (file, same) = open_checked(old, name, len, mode)?;
    let (mut a, mut b) = (vec![0; 1 << 16], vec![0; 1 << 16]);
    let mut at = 0;
    while at < len {
        let take = a.len().min(usize::try_from(len - at).unwrap_or(usize::MAX));
        src.read_exact_at(&mut a[..take], at).ok()?;
        file.read_exact_at(&mut b[..take], at).ok()?;
        if a[..take] != b[..take] {
            return None;
        }
        at += take as u64;
    }
    Some(same)
}

/// Whether the file `name` in `dir` is a file the marker listed with the
/// checksum `sum` (`None`: a copy of `static/`'s extras, which has none):
/// a regular file, not a link, holding bytes of that checksum, read a
/// piece at a time. Anything else (a FIFO, a device, a socket) is never
/// opened: its type is looked at first, and again on the open file, which
/// is opened without waiting. If not, what is wrong, for a message.
pub(super) fn holds_listed(
    dir: &OwnedFd,
    name: &CStr,
    sum: Option<u64>,
) -> Result<(), &'static str> {
    let not_a_file = "is not a regular file";
    let st = stat_at(dir, name).ok_or("is missing")?;
    if st.st_mode & libc::S_IFMT != libc::S_IFREG {
        return Err(not_a_file);
    }
    let Some(sum) = sum else {
        return Ok(());
    };
    let flags =
        libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;
    // SAFETY: `name` is NUL-terminated and `dir` an open folder.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags) };
    if fd < 0 {
        return Err("cannot be read");
    }
    // SAFETY: `fd` was just opened and nothing else owns it.
    let mut file = unsafe { fs::File::from_raw_fd(fd) };
    let opened = stat_of(&file).ok_or("cannot be read")?;
    if opened.st_mode & libc::S_IFMT != libc::S_IFREG {
        return Err(not_a_file);
    }
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut buf = vec![0; 1 << 16];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Err("cannot be read"),
        }
    }
    match hasher.digest() == sum {
        true => Ok(()),
        false => Err("does not hold the bytes its marker lists"),
    }
}

/// The old output's file `name` in `old`, looked at without following a
/// symbolic link.
fn stat_at(dir: &OwnedFd, name: &CStr) -> Option<libc::stat> {
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: `name` is NUL-terminated, `dir` an open folder, `st` is
    // written by the call.
    let rc = unsafe {
        libc::fstatat(
            dir.as_raw_fd(),
            name.as_ptr(),
            st.as_mut_ptr(),
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    // SAFETY: filled in when `fstatat` succeeded.
    (rc == 0).then(|| unsafe { st.assume_init() })
}

/// Whether `name` in `old` is still the file `same` found, untouched since:
/// the same inode, change time and length, and no other name.
pub(super) fn unchanged(old: &OwnedFd, name: &CStr, same: &Same) -> bool {
    stat_at(old, name).is_some_and(|st| st.st_nlink == 1 && Same::of(&st) == *same)
}

/// Copies the old output's file `name` (in `old`) into `new` under the
/// same name, for a file that was found the same but cannot be linked (an
/// immutable file): if it is still the file `same` found, before and after
/// the copy. Returns whether it did; if not, nothing was made.
pub(super) fn copy(old: &OwnedFd, new: &OwnedFd, name: &CStr, same: &Same) -> io::Result<bool> {
    let flags =
        libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;
    // SAFETY: `name` is NUL-terminated and `old` an open folder.
    let fd = unsafe { libc::openat(old.as_raw_fd(), name.as_ptr(), flags) };
    if fd < 0 {
        return Ok(false);
    }
    // SAFETY: `fd` was just opened and nothing else owns it.
    let src = unsafe { fs::File::from_raw_fd(fd) };
    let is_same = |f: &fs::File| stat_of(f).is_some_and(|st| Same::of(&st) == *same);
    if !is_same(&src) {
        return Ok(false);
    }
    let dst = super::create_empty(new, name)?;
    super::copy::copy_open(&src, &dst)?;
    if is_same(&src) {
        return Ok(true);
    }
    // SAFETY: `name` is NUL-terminated and `new` an open folder.
    unsafe { libc::unlinkat(new.as_raw_fd(), name.as_ptr(), 0) };
    Ok(false)
}

/// Links the old output's file `name` (in `old`) into `new` under the
/// same name, if it is still the file `same` found ([`unchanged`]).
/// Returns whether it did; if not, nothing was made.
pub(super) fn link(old: &OwnedFd, new: &OwnedFd, name: &CStr, same: &Same) -> bool {
    unchanged(old, name, same) && link_found(old, new, name, same)
}

/// [`link`] for a file found `same` just now, not looked at again before
/// the link: the inode linked is still checked after it.
pub(super) fn link_found(old: &OwnedFd, new: &OwnedFd, name: &CStr, same: &Same) -> bool {
    // SAFETY: `name` is NUL-terminated and both folders are open.
    let linked = unsafe {
        libc::linkat(
            old.as_raw_fd(),
            name.as_ptr(),
            new.as_raw_fd(),
            name.as_ptr(),
            0,
        )
    };
    if linked != 0 {
        return false;
    }
    // The name may have been given to another file since it was checked:
    // then the link is undone.
    let same_inode =
        stat_at(new, name).is_some_and(|st| st.st_ino == same.ino && st.st_dev == same.dev);
    if !same_inode {
        // SAFETY: as above.
        unsafe { libc::unlinkat(new.as_raw_fd(), name.as_ptr(), 0) };
    }
    same_inode
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    fn open(p: &Path) -> OwnedFd {
        super::super::walk::open_folder(p).unwrap()
    }

    /// A temporary folder holding two empty folders, `old` and `new`.
    fn old_and_new() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let (old, new) = (tmp.path().join("old"), tmp.path().join("new"));
        fs::create_dir(&old).unwrap();
        fs::create_dir(&new).unwrap();
        (tmp, old, new)
    }

    #[test]
    fn links_only_a_file_that_is_the_same_and_ours_alone() {
        let (tmp, old, new) = old_and_new();
        for (name, text) in [("same", "bytes"), ("longer", "bytes!"), ("other", "BYTES")] {
            fs::write(old.join(name), text).unwrap();
        }
        fs::write(old.join("shared"), "bytes").unwrap();
        fs::hard_link(old.join("shared"), tmp.path().join("elsewhere")).unwrap();
        fs::write(old.join("private"), "bytes").unwrap();
        fs::set_permissions(old.join("private"), fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink(old.join("same"), old.join("link")).unwrap();
        let mode = fs::metadata(old.join("same")).unwrap().mode() & 0o7777;
        let (o, n) = (open(&old), open(&new));
        let linked: Vec<&str> = [
            "same", "longer", "other", "shared", "private", "link", "absent",
        ]
        .into_iter()
        .filter(|name| {
            let name = CString::new(*name).unwrap();
            same_bytes(&o, &name, b"bytes", mode).is_some_and(|same| link(&o, &n, &name, &same))
        })
        .collect();
        assert_eq!(linked, ["same"]);
        assert_eq!(fs::read(new.join("same")).unwrap(), b"bytes");
        assert_eq!(fs::metadata(old.join("same")).unwrap().nlink(), 2);
        assert_eq!(fs::read_dir(&new).unwrap().count(), 1);
    }

    #[test]
    fn a_listed_file_is_read_whole_and_nothing_else_is_opened() {
        let (tmp, old, _) = old_and_new();
        // Longer than a read's buffer, so read a piece at a time.
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
        fs::write(old.join("big"), &bytes).unwrap();
        let sum = super::super::marker::sum(&bytes);
        let o = open(&old);
        assert_eq!(holds_listed(&o, c"big", Some(sum)), Ok(()));
        assert_eq!(holds_listed(&o, c"big", None), Ok(()));
        let wrong = holds_listed(&o, c"big", Some(sum ^ 1));
        assert_eq!(wrong, Err("does not hold the bytes its marker lists"));
        assert_eq!(holds_listed(&o, c"absent", None), Err("is missing"));
        std::os::unix::fs::symlink(old.join("big"), old.join("link")).unwrap();
        fs::create_dir(old.join("dir")).unwrap();
        let fifo = CString::new(old.join("fifo").as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        for name in [c"link", c"dir", c"fifo"] {
            for sum in [None, Some(sum)] {
                assert_eq!(holds_listed(&o, name, sum), Err("is not a regular file"));
            }
        }
        drop(tmp);
    }

    #[test]
    fn a_file_changed_or_replaced_since_it_was_checked_is_not_linked() {
        let (tmp, old, new) = old_and_new();
        let from = tmp.path().join("from");
        fs::write(&from, "bytes").unwrap();
        for name in ["grown", "replaced", "kept"] {
            fs::write(old.join(name), "bytes").unwrap();
        }
        let mode = fs::metadata(old.join("kept")).unwrap().mode() & 0o7777;
        let (o, n) = (open(&old), open(&new));
        let checked: Vec<(CString, Same)> = ["grown", "replaced", "kept"]
            .into_iter()
            .map(|name| {
                let name = CString::new(name).unwrap();
                let same = same_as_file(&o, &name, &from, mode).unwrap();
                (name, same)
            })
            .collect();
        fs::write(old.join("grown"), "bytes!").unwrap();
        fs::write(tmp.path().join("other"), "bytes").unwrap();
        fs::rename(tmp.path().join("other"), old.join("replaced")).unwrap();
        let linked: Vec<&CString> = checked
            .iter()
            .filter(|(name, same)| link(&o, &n, name, same))
            .map(|(name, _)| name)
            .collect();
        assert_eq!(linked, [c"kept"]);
        assert_eq!(fs::read_dir(&new).unwrap().count(), 1);
        assert!(same_as_file(&o, c"grown", &from, mode).is_none());
    }
}
