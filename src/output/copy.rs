//! Copying the extra files of `static/` into the site without reading
//! them into memory, holes kept.

use std::fs;
use std::io;
use std::path::Path;

/// Copies `from` to a new file `to` without reading it into memory: a
/// reflink (`FICLONE`) where the file system shares blocks, otherwise each
/// run of data (`SEEK_DATA`/`SEEK_HOLE`) by `copy_file_range` or, where
/// that is refused, through a small buffer; holes stay holes.
pub(super) fn copy_file(from: &Path, to: &Path) -> io::Result<()> {
    let src = open_source(from)?;
    let dst = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(to)?;
    copy_open(&src, &dst)
}

/// Opens `from`, a file of `static/` to copy, without waiting: a FIFO,
/// socket or device put in its place since it was listed is refused, not
/// read (reading a FIFO waits for a writer forever).
pub(super) fn open_source(from: &Path) -> io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC)
        .open(from)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, socket or device?)",
        ));
    }
    Ok(file)
}

/// [`copy_file`] between two open files, the new one empty.
pub(super) fn copy_open(src: &fs::File, dst: &fs::File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: both descriptors are open files for the whole call.
    if unsafe { libc::ioctl(dst.as_raw_fd(), libc::FICLONE, src.as_raw_fd()) } == 0 {
        return Ok(());
    }
    let len = src.metadata()?.len();
    let seek = |at: u64, whence| {
        // SAFETY: lseek on an open descriptor; an error is returned as -1.
        let r = unsafe { libc::lseek(src.as_raw_fd(), at as libc::off_t, whence) };
        if r < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(r as u64)
        }
    };
    let mut at = 0;
    while at < len {
        let start = match seek(at, libc::SEEK_DATA) {
            Ok(start) => start,
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => break, // only a hole left
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) => at,   // no hole support
            Err(e) => return Err(e),
        };
        let end = seek(start, libc::SEEK_HOLE).unwrap_or(len).min(len);
        copy_range(src, dst, start, end)?;
        at = end;
    }
    dst.set_len(len)
}

/// Copies bytes `start..end` of `src` to the same place in `dst`.
fn copy_range(src: &fs::File, dst: &fs::File, start: u64, end: u64) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::FileExt;
    let mut at = start;
    while at < end {
        let (mut off_in, mut off_out) = (at as libc::loff_t, at as libc::loff_t);
        let want = usize::try_from(end - at).unwrap_or(usize::MAX).min(1 << 30);
        // SAFETY: both descriptors are open, the offsets are ours.
        let n = unsafe {
            libc::copy_file_range(
                src.as_raw_fd(),
                &mut off_in,
                dst.as_raw_fd(),
                &mut off_out,
                want,
                0,
            )
        };
        match n {
            n if n > 0 => at += n as u64,
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            _ => {
                let e = io::Error::last_os_error();
                if !matches!(
                    e.raw_os_error(),
                    Some(libc::EXDEV | libc::ENOSYS | libc::EINVAL | libc::EOPNOTSUPP)
                ) {
                    return Err(e);
                }
                // Through a buffer, a piece at a time.
                let mut buf = vec![0; 1 << 16];
                while at < end {
                    let take = buf.len().min((end - at) as usize);
                    src.read_exact_at(&mut buf[..take], at)?;
                    dst.write_all_at(&buf[..take], at)?;
                    at += take as u64;
                }
            }
        }
    }
    Ok(())
}
