//! What a build wrote and what each step cost: the report the command
//! line prints and the bench reads.

use std::time::{Duration, Instant};

use crate::ebook::EBOOKS;
use crate::output::OutFile;

/// Pages and bytes of one part of the site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartReport {
    /// Such as "two-player".
    pub name: String,
    /// HTML pages written.
    pub pages: usize,
    /// Bytes of those pages.
    pub bytes: usize,
}

/// What a build wrote.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Each part in the order built.
    pub parts: Vec<PartReport>,
    /// Every file, pages and assets.
    pub files: usize,
    /// HTML files: the web pages and the single-file books.
    pub pages: usize,
    /// Bytes of all files.
    pub bytes: usize,
    /// The largest web page and its size.
    pub largest_page: (String, usize),
    /// Each book file, its size and its budget.
    pub books: Vec<BookReport>,
    /// How long each step of rendering took, in wall time and in CPU
    /// time over all threads. Steps run one after another, each on every
    /// core; a book's own line is the wall time of its job within "books".
    pub timings: Vec<Timing>,
    /// What the build could not tidy away, such as a file of the old
    /// output that could not be deleted: one line each.
    pub warnings: Vec<String>,
    /// Whether the output folder already held exactly this build, and was
    /// left as it was.
    pub unchanged: bool,
    /// Whether the output folder was a copy of a whole site built in
    /// another folder, holding exactly what its marker lists, and was
    /// taken as this tool's output.
    pub took_copy: bool,
}

impl Report {
    /// Adds the figures of `other`, after this report's own.
    pub(super) fn absorb(&mut self, other: Report) {
        self.parts.extend(other.parts);
        self.files += other.files;
        self.pages += other.pages;
        self.bytes += other.bytes;
        if other.largest_page.1 > self.largest_page.1 {
            self.largest_page = other.largest_page;
        }
        self.books.extend(other.books);
        self.timings.extend(other.timings);
        self.warnings.extend(other.warnings);
    }
}

/// One step of a build and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// What the step made.
    pub step: String,
    /// Wall time.
    pub wall: Duration,
    /// CPU time of the whole process (all threads) during the step, if
    /// measured.
    pub cpu: Option<Duration>,
}

/// CPU time the process has used so far, all threads together.
fn process_cpu() -> Duration {
    // SAFETY: getrusage fills the struct it is given and nothing else.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut u);
        u
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// One book file's size against its budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookReport {
    /// Path in the site.
    pub file: String,
    /// Size in bytes.
    pub bytes: usize,
    /// Its budget, if it has one.
    pub budget: Option<usize>,
    /// Which budget that is ([`crate::ebook::Budget::None`] for a file
    /// that answers to none).
    pub kind: crate::ebook::Budget,
    /// A PDF's pages.
    pub pages: Option<usize>,
    /// Whether it was left out of the site, not made, for having more
    /// pages than its budget (only a PDF is: see [`crate::ebook::Budget::Pdf`]).
    pub left_out: bool,
}

/// The figures of some files of the site: what [`Report`] counts.
pub(super) fn count(report: &mut Report, files: &[OutFile]) {
    for f in files {
        count_file(report, &f.path, f.bytes.len());
    }
}

/// [`count`] for one file, of `len` bytes.
pub(super) fn count_file(report: &mut Report, path: &str, len: usize) {
    report.files += 1;
    report.bytes += len;
    if !path.ends_with(".html") {
        return;
    }
    report.pages += 1;
    if len > report.largest_page.1 && !path.starts_with(EBOOKS) {
        report.largest_page = (path.to_string(), len);
    }
    if path.starts_with(EBOOKS) {
        return;
    }
    let dir = path.rsplit_once('/').map_or("home", |(d, _)| d);
    let parts = &mut report.parts;
    let at = match parts.iter().rposition(|p| p.name == dir) {
        Some(at) => at,
        None => {
            parts.push(PartReport {
                name: dir.to_string(),
                pages: 0,
                bytes: 0,
            });
            parts.len() - 1
        }
    };
    parts[at].pages += 1;
    parts[at].bytes += len;
}

/// Runs `f`, noting how long it took under `name`.
pub(super) fn timed<T>(timings: &mut Vec<Timing>, step: &str, f: impl FnOnce() -> T) -> T {
    let (start, cpu) = (Instant::now(), process_cpu());
    let out = f();
    timings.push(Timing {
        step: step.to_string(),
        wall: start.elapsed(),
        cpu: Some(process_cpu() - cpu),
    });
    out
}

/// Runs `f`, noting its wall time under `name`: for a step that runs
/// beside others, whose CPU time cannot be told apart.
pub(super) fn timed_wall<T>(timings: &mut Vec<Timing>, step: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    timings.push(Timing {
        step: step.to_string(),
        wall: start.elapsed(),
        cpu: None,
    });
    out
}

/// Where a game's solving notes its steps ([`crate::site::Entry::solve`]):
/// a game names and times its own steps, one a solve, and the build
/// reports them in the order they ran.
pub struct Steps<'a> {
    timings: &'a mut Vec<Timing>,
    /// Whether the steps run beside other work, whose CPU time theirs
    /// cannot be told apart from: then only their wall time is noted.
    beside: bool,
}

impl<'a> Steps<'a> {
    /// Steps noted in `timings`, with their CPU time unless `beside`
    /// other work.
    pub(super) fn new(timings: &'a mut Vec<Timing>, beside: bool) -> Steps<'a> {
        Steps { timings, beside }
    }

    /// Runs `f`, noting how long it took under `step`.
    pub fn time<T>(&mut self, step: &str, f: impl FnOnce() -> T) -> T {
        if self.beside {
            timed_wall(self.timings, step, f)
        } else {
            timed(self.timings, step, f)
        }
    }
}
