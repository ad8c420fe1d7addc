//! Where a build's files go: the staging folder of a real build, or
//! memory for the bench and the tests.

use std::path::Path;
use std::sync::Mutex;

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
}

impl Sink for output::Staging {
    fn put(&self, files: Vec<OutFile>) -> Result<(), OutputError> {
        self.write(&files)
    }

    fn copy(&self, path: &str, from: &Path) -> Result<(), OutputError> {
        output::Staging::copy(self, path, from)
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
}
