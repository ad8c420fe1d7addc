//! A rebuild's unchanged files: where the old output holds a file with
//! exactly the bytes the new one needs, the staging folder gets a second
//! name for it (a hard link) instead of a new copy.
//!
//! That is cheaper twice over: no data is written, and removing the old
//! output after the swap only drops names, where it would otherwise free
//! every file (about half of a rebuild's removal). An unchanged file also
//! keeps its modification time, so an upload by size and time (`rsync`)
//! sends only what changed.
//!
//! Invariant: a file is linked only if it is a regular file with no other
//! name, owned by this user, with the permissions a new file would get,
//! and holding exactly the new bytes; the inode linked is the one checked
//! (its number is compared after the link, which is undone if it is not).
//! The old output is only read: until the swap it stays exactly as it
//! was, and a failed build drops the second names with the staging folder.

use std::ffi::CStr;
use std::fs;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;

const FOLDER: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;

/// The old output's folder `name` inside its folder `parent`, if it is a
/// real folder (not a symbolic link).
pub(super) fn old_folder(parent: &OwnedFd, name: &CStr) -> Option<OwnedFd> {
    // SAFETY: `name` is NUL-terminated and `parent` an open folder.
    let fd = unsafe { libc::openat(parent.as_raw_fd(), name.as_ptr(), FOLDER) };
    // SAFETY: `fd` was just opened and nothing else owns it.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Links the old output's file `name` (in `old`) into `new` under the
/// same name, if it holds exactly `bytes` and passes the checks above
/// (`mode` is the permission bits a new file gets). Returns whether it
/// did; if not, nothing was made.
pub(super) fn link_if_same(
    old: &OwnedFd,
    new: &OwnedFd,
    name: &CStr,
    bytes: &[u8],
    mode: u32,
) -> bool {
    let flags =
        libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;
    // SAFETY: `name` is NUL-terminated and `old` an open folder.
    let fd = unsafe { libc::openat(old.as_raw_fd(), name.as_ptr(), flags) };
    if fd < 0 {
        return false;
    }
    // SAFETY: `fd` was just opened and nothing else owns it.
    let mut file = unsafe { fs::File::from_raw_fd(fd) };
    let Ok(meta) = file.metadata() else {
        return false;
    };
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    let alone_and_ours = meta.is_file()
        && meta.nlink() == 1
        && meta.uid() == uid
        && meta.mode() & 0o7777 == mode
        && meta.len() == bytes.len() as u64;
    if !alone_and_ours {
        return false;
    }
    // One byte more than expected, in one read: a regular file reads short
    // only at its end.
    let mut have = vec![0; bytes.len() + 1];
    if !file.read(&mut have).is_ok_and(|n| have[..n] == *bytes) {
        return false;
    }
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
    // then the link is undone, and the file is written afresh.
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: `name` is NUL-terminated, `st` is written by the call.
    let rc = unsafe {
        libc::fstatat(
            new.as_raw_fd(),
            name.as_ptr(),
            st.as_mut_ptr(),
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    // SAFETY: filled in when `fstatat` succeeded.
    let same = rc == 0 && {
        let st = unsafe { st.assume_init() };
        st.st_ino == meta.ino() && st.st_dev == meta.dev()
    };
    if !same {
        // SAFETY: as above.
        unsafe { libc::unlinkat(new.as_raw_fd(), name.as_ptr(), 0) };
    }
    same
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    fn open(p: &Path) -> OwnedFd {
        let c = CString::new(p.to_str().unwrap()).unwrap();
        // SAFETY: a valid path string; the descriptor is owned below.
        let fd = unsafe { libc::open(c.as_ptr(), FOLDER) };
        assert!(fd >= 0);
        // SAFETY: just opened.
        unsafe { OwnedFd::from_raw_fd(fd) }
    }

    #[test]
    fn links_only_a_file_that_is_the_same_and_ours_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let (old, new) = (tmp.path().join("old"), tmp.path().join("new"));
        fs::create_dir(&old).unwrap();
        fs::create_dir(&new).unwrap();
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
        .filter(|name| link_if_same(&o, &n, &CString::new(*name).unwrap(), b"bytes", mode))
        .collect();
        assert_eq!(linked, ["same"]);
        assert_eq!(fs::read(new.join("same")).unwrap(), b"bytes");
        assert_eq!(fs::metadata(old.join("same")).unwrap().nlink(), 2);
        assert_eq!(fs::read_dir(&new).unwrap().count(), 1);
        // A symbolic link to a folder is not a folder of the old output.
        std::os::unix::fs::symlink(&old, tmp.path().join("to-old")).unwrap();
        let root = open(tmp.path());
        assert!(old_folder(&root, c"to-old").is_none());
        assert!(old_folder(&root, c"old").is_some());
    }
}
