//! Where a build's files go: the staging folder of a real build, or
//! memory for the bench and the tests.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use super::BuildError;
use crate::output::{self, OutFile, OutputError};

/// Where a build's files go as they are ready, from any thread: the
/// staging folder of a build ([`output::Staging`]), or memory
/// ([`InMemory`], for the benchmark and the tests).
pub trait Sink: Sync {
    /// Takes some files.
    fn put(&self, files: Vec<OutFile>) -> Result<(), OutputError>;
    /// Takes a copy of the file at `from` as `path`; refuses a path taken
    /// already with [`OutputError::Twice`].
    fn copy(&self, path: &str, from: &Path) -> Result<(), OutputError>;
    /// Starts the file `path`, to be taken a piece at a time and ended
    /// with [`Stream::finish`]: a book is written as it is made, never
    /// held whole. The path is taken (refused if taken already) now.
    fn stream(&self, path: &str) -> Result<Box<dyn Stream + '_>, OutputError>;
}

/// A file going into a [`Sink`] a piece at a time: what it holds is what
/// was written, in order, once it is finished (a file dropped unfinished
/// is only ever part of a failed build).
pub trait Stream {
    /// Takes the next bytes of the file.
    fn write(&mut self, bytes: &[u8]) -> Result<(), OutputError>;
    /// Ends the file.
    fn finish(self: Box<Self>) -> Result<(), OutputError>;
}

impl Stream for output::Streamed<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        output::Streamed::write(self, bytes)
    }

    fn finish(self: Box<Self>) -> Result<(), OutputError> {
        output::Streamed::finish(*self)
    }
}

impl Sink for output::Staging {
    fn put(&self, files: Vec<OutFile>) -> Result<(), OutputError> {
        self.write(&files)
    }

    fn copy(&self, path: &str, from: &Path) -> Result<(), OutputError> {
        output::Staging::copy(self, path, from)
    }

    fn stream(&self, path: &str) -> Result<Box<dyn Stream + '_>, OutputError> {
        Ok(Box::new(output::Staging::stream(self, path)?))
    }
}

/// A sink that stops taking files once any part of the build has failed
/// ([`Stopping::stop`], or the sink refusing a file): each other part
/// then stops at its next file, batch of pages or 64 KB of a book, with
/// [`OutputError::Stopped`], where it ran to its end before the build
/// reported the failure (the flags of a book too large for its format,
/// `--krk-spare 4`, took 4.1 s and 7.6 s of CPU time, most of it writing
/// pages that were then deleted; 2.0 s with the other parts stopped, 1.1
/// s with each edition's books started before its pages).
pub(super) struct Stopping<'a, S: Sink> {
    sink: &'a S,
    stopped: AtomicBool,
}

impl<'a, S: Sink> Stopping<'a, S> {
    /// `sink`, until the build fails.
    pub(super) fn new(sink: &'a S) -> Stopping<'a, S> {
        Stopping {
            sink,
            stopped: AtomicBool::new(false),
        }
    }

    /// `made`, having stopped the build if it is a failure of its own.
    pub(super) fn stop<T>(&self, made: Result<T, BuildError>) -> Result<T, BuildError> {
        if made.as_ref().is_err_and(|e| !e.is_stopped()) {
            self.stopped.store(true, Ordering::Relaxed);
        }
        made
    }

    /// Nothing while the build goes on, [`OutputError::Stopped`] once a
    /// part of it has failed.
    pub(super) fn going(&self) -> Result<(), OutputError> {
        going(&self.stopped)
    }
}

/// [`Stopping::going`], of its flag.
fn going(stopped: &AtomicBool) -> Result<(), OutputError> {
    match stopped.load(Ordering::Relaxed) {
        false => Ok(()),
        true => Err(OutputError::Stopped),
    }
}

/// `done`, having set `stopped` if it failed.
fn stopping<T>(stopped: &AtomicBool, done: Result<T, OutputError>) -> Result<T, OutputError> {
    if done.is_err() {
        stopped.store(true, Ordering::Relaxed);
    }
    done
}

impl<S: Sink> Sink for Stopping<'_, S> {
    fn put(&self, files: Vec<OutFile>) -> Result<(), OutputError> {
        self.going()?;
        stopping(&self.stopped, self.sink.put(files))
    }

    fn copy(&self, path: &str, from: &Path) -> Result<(), OutputError> {
        self.going()?;
        stopping(&self.stopped, self.sink.copy(path, from))
    }

    fn stream(&self, path: &str) -> Result<Box<dyn Stream + '_>, OutputError> {
        self.going()?;
        let file = stopping(&self.stopped, self.sink.stream(path))?;
        Ok(Box::new(StoppingFile {
            stopped: &self.stopped,
            file,
        }))
    }
}

/// A file going into a [`Stopping`] sink.
struct StoppingFile<'a> {
    stopped: &'a AtomicBool,
    file: Box<dyn Stream + 'a>,
}

impl Stream for StoppingFile<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        going(self.stopped)?;
        stopping(self.stopped, self.file.write(bytes))
    }

    fn finish(self: Box<Self>) -> Result<(), OutputError> {
        going(self.stopped)?;
        stopping(self.stopped, self.file.finish())
    }
}

/// The files of a build, kept in memory, sorted by path once taken out.
#[derive(Debug, Default)]
pub struct InMemory(Mutex<Vec<OutFile>>);

impl InMemory {
    /// Every file, sorted by path.
    pub fn into_files(self) -> Vec<OutFile> {
        let mut files = self.0.into_inner().expect("a writer panicked");
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    }
}

impl Sink for InMemory {
    fn put(&self, files: Vec<OutFile>) -> Result<(), OutputError> {
        self.0.lock().expect("a writer panicked").extend(files);
        Ok(())
    }

    fn copy(&self, path: &str, from: &Path) -> Result<(), OutputError> {
        let mut files = self.0.lock().expect("a writer panicked");
        if path == output::MARKER || files.iter().any(|f| f.path == path) {
            return Err(OutputError::Twice(path.to_string()));
        }
        let bytes = std::fs::read(from).map_err(|e| OutputError::Io(from.to_path_buf(), e))?;
        files.push(OutFile::new(path, bytes));
        Ok(())
    }

    /// Like [`InMemory::put`], keeps whatever it is given.
    fn stream(&self, path: &str) -> Result<Box<dyn Stream + '_>, OutputError> {
        Ok(Box::new(InMemoryFile {
            sink: self,
            file: OutFile::new(path, Vec::new()),
        }))
    }
}

/// A file going into [`InMemory`], kept apart until it is finished.
struct InMemoryFile<'a> {
    sink: &'a InMemory,
    file: OutFile,
}

impl Stream for InMemoryFile<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        self.file.bytes.extend_from_slice(bytes);
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<(), OutputError> {
        self.sink.put(vec![self.file])
    }
}

/// A file of a [`Sink`] as an [`std::io::Write`], for a format writing a
/// book as it makes it: started only at its first bytes (a book left out
/// takes no path), taken in pieces of at least [`Buffered::PIECE`] bytes,
/// its length counted. A failure of the sink is kept for the caller, as
/// it is, behind the plain I/O error the format sees.
pub(super) struct Buffered<'a, S: Sink> {
    sink: &'a S,
    path: &'a str,
    file: Option<Box<dyn Stream + 'a>>,
    buf: Vec<u8>,
    /// Bytes written.
    pub(super) len: usize,
    /// What the sink refused, if it did.
    pub(super) failed: Option<OutputError>,
}

impl<'a, S: Sink> Buffered<'a, S> {
    /// Bytes gathered before they go to the sink: a few file system pages.
    const PIECE: usize = 1 << 16;

    /// The file `path` of `sink`, not started yet.
    pub(super) fn new(sink: &'a S, path: &'a str) -> Buffered<'a, S> {
        Buffered {
            sink,
            path,
            file: None,
            buf: Vec::new(),
            len: 0,
            failed: None,
        }
    }

    /// Hands what is gathered to the sink, the file started if need be.
    fn send(&mut self) -> Result<(), OutputError> {
        let file = match &mut self.file {
            Some(file) => file,
            None => self.file.insert(self.sink.stream(self.path)?),
        };
        file.write(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    /// Ends the file, if it was `made` (a book left out has none).
    pub(super) fn finish(mut self, made: bool) -> Result<(), OutputError> {
        if !made {
            return Ok(());
        }
        self.send()?;
        self.file.take().expect("started").finish()
    }

    /// A sink's failure as the error a format sees, kept.
    fn fail(&mut self, e: OutputError) -> std::io::Error {
        let io = std::io::Error::other(format!("{}: {e}", self.path));
        self.failed = Some(e);
        io
    }
}

impl<S: Sink> std::io::Write for Buffered<'_, S> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.len += bytes.len();
        if self.buf.is_empty() && bytes.len() >= Self::PIECE {
            // A large piece goes as it is, not copied.
            let file = match &mut self.file {
                Some(file) => file,
                None => match self.sink.stream(self.path) {
                    Ok(file) => self.file.insert(file),
                    Err(e) => return Err(self.fail(e)),
                },
            };
            return match file.write(bytes) {
                Ok(()) => Ok(bytes.len()),
                Err(e) => Err(self.fail(e)),
            };
        }
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= Self::PIECE {
            self.send().map_err(|e| self.fail(e))?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
