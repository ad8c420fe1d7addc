//! The whole site: renders every edition in every format and streams the
//! files into a staging folder ([`output::Staging`]) as they are ready,
//! then swaps it in.
//!
//! Invariant: bad flags and a bad `static/` fail before the disk is
//! touched; any later failure (a book over budget, a clash) drops the
//! staging folder, so the output changes only when every file is written.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::assets::{AssetError, Assets};
use crate::ebook;
use crate::editions::vs_computer::{self, Match};
use crate::editions::{analysis, gamebook, two_player};
use crate::game::Game;
use crate::games::hanoi::{self, Hanoi};
use crate::games::tictactoe::{Board, Rules};
use crate::graph::StateGraph;
use crate::html;
use crate::output::{self, OutFile, OutputError};
use crate::screen::Edition;
use crate::solver::Solver;

/// What to build and where.
#[derive(Clone, Debug)]
pub struct Options {
    /// The folder of images and the stylesheet.
    pub static_dir: PathBuf,
    /// The output folder, replaced whole.
    pub out: PathBuf,
    /// The games against the computer.
    pub games: vs_computer::Settings,
    /// Size limits of the books.
    pub budgets: Budgets,
    /// End every game as soon as nobody can make three in a row.
    pub early_draws: bool,
    /// Discs of the Towers of Hanoi ([`hanoi::MIN_DISCS`] to
    /// [`hanoi::MAX_DISCS`]).
    pub hanoi_discs: u8,
}

/// The most bytes each kind of book may take; a build over budget fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Each MOBI file (the two-player book is the large one).
    pub mobi: usize,
    /// Each EPUB file.
    pub epub: usize,
    /// The most pages a PDF may have: a longer one is left out of the
    /// site, not made (see [`ebook::Budget::Pdf`]).
    pub pdf_pages: usize,
}

impl Default for Budgets {
    /// 450 KB per MOBI and 150 KB per EPUB (1 KB = 1,000 bytes), and 828
    /// pages per PDF: the most Amazon's print-on-demand binds in one
    /// paperback, so every PDF made can be printed as one book. The
    /// editions of a page per position (thousands of pages) are left out.
    fn default() -> Self {
        Budgets {
            mobi: 450_000,
            epub: 150_000,
            pdf_pages: PDF_PAGES,
        }
    }
}

/// The default most pages of a PDF: see [`Budgets::default`].
pub const PDF_PAGES: usize = 828;

/// The folder of the books.
pub const EBOOKS: &str = "ebooks";

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// `static/` is missing or incomplete.
    Assets(AssetError),
    /// The output could not be written.
    Output(OutputError),
    /// A file in `static/` would be copied over a file the build makes.
    StaticClash(String),
    /// `--static` and `--out` overlap: why, in words.
    Overlap(String),
    /// A book came out larger than its budget.
    OverBudget {
        /// The book's path in the site.
        file: String,
        /// Its size.
        bytes: usize,
        /// The limit.
        budget: usize,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Assets(e) => e.fmt(f),
            BuildError::Output(e) => e.fmt(f),
            BuildError::Overlap(why) => f.write_str(why),
            BuildError::StaticClash(path) => write!(
                f,
                "static/{path} has the name of a file the build makes; rename or remove it"
            ),
            BuildError::OverBudget {
                file,
                bytes,
                budget,
            } => write!(
                f,
                "{file} is {bytes} bytes, {} bytes ({:.1}%) over its budget of {budget} bytes \
                 (raise it with --{}-budget, in KB)",
                bytes - budget,
                (bytes - budget) as f64 * 100.0 / *budget as f64,
                if file.ends_with(".epub") {
                    "epub"
                } else {
                    "mobi"
                },
            ),
        }
    }
}

impl std::error::Error for BuildError {}

impl From<AssetError> for BuildError {
    fn from(e: AssetError) -> Self {
        BuildError::Assets(e)
    }
}

impl From<OutputError> for BuildError {
    fn from(e: OutputError) -> Self {
        BuildError::Output(e)
    }
}

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
}

impl Report {
    /// Adds the figures of `other`, after this report's own.
    fn absorb(&mut self, other: Report) {
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
    /// A PDF's pages.
    pub pages: Option<usize>,
    /// Whether it was left out of the site, not made, for having more
    /// pages than its budget (only a PDF is: see [`ebook::Budget::Pdf`]).
    pub left_out: bool,
}

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

/// The figures of some files of the site: what [`Report`] counts.
fn count(report: &mut Report, files: &[OutFile]) {
    for f in files {
        count_file(report, &f.path, f.bytes.len());
    }
}

/// [`count`] for one file, of `len` bytes.
fn count_file(report: &mut Report, path: &str, len: usize) {
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

/// The two-player edition's slug: its web folder and its books' names.
pub const TWO_PLAYER: &str = "two-player";

/// The games against the computer's slug: a folder per game inside.
pub const VS_COMPUTER: &str = "vs-computer";

/// The analysis edition's slug.
pub const ANALYSIS: &str = "analysis";

/// The Towers of Hanoi's slug.
pub const HANOI: &str = "hanoi";

/// The Towers of Hanoi analysed: its slug.
pub const HANOI_ANALYSIS: &str = "hanoi-analysis";

/// The print gamebook's slug: its PDF is `ebooks/tictactoe-gamebook.pdf`.
pub const GAMEBOOK: &str = "gamebook";

/// The images every game of the site draws its cells with: what
/// `static/` must hold, as `.svg` and `.gif`.
pub fn images() -> Vec<&'static str> {
    [<Board as Game>::IMAGES, <Hanoi as Game>::IMAGES].concat()
}

/// The editions, in the order the home page and the book list show them.
/// Adding an edition is a module that makes an [`Edition`] and a line here;
/// the slugs are named here, so editions that link to each other are told
/// where the other is.
pub fn editions(
    solver: &Solver<Board>,
    games: &[Match<Board>],
    hanoi: &Solver<Hanoi>,
) -> Vec<Edition> {
    let makers: [&(dyn Fn() -> Edition + Sync); 6] = [
        &|| two_player::edition(TWO_PLAYER, solver.graph(), Some(ANALYSIS)),
        &|| vs_computer::edition(VS_COMPUTER, solver, games),
        &|| analysis::edition(ANALYSIS, solver, TWO_PLAYER),
        &|| two_player::edition(HANOI, hanoi.graph(), Some(HANOI_ANALYSIS)),
        &|| analysis::edition(HANOI_ANALYSIS, hanoi, HANOI),
        &|| gamebook::edition(GAMEBOOK, solver),
    ];
    // Each edition on its own job, on every core.
    crate::par::map(&makers, |make| make())
}

/// The Towers of Hanoi of `discs` discs, solved.
pub fn hanoi_solver(discs: u8) -> Solver<Hanoi> {
    Solver::new(StateGraph::with_rules(hanoi::Rules { discs }))
}

/// Runs `f`, noting how long it took under `name`.
fn timed<T>(timings: &mut Vec<Timing>, step: &str, f: impl FnOnce() -> T) -> T {
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
fn timed_wall<T>(timings: &mut Vec<Timing>, step: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    timings.push(Timing {
        step: step.to_string(),
        wall: start.elapsed(),
        cpu: None,
    });
    out
}

/// The home page and the web assets beside it (the extra files of
/// `static/` are copied after everything else).
fn home_files(assets: &Assets, editions: &[Edition], books: &[BookReport]) -> Vec<OutFile> {
    let mut home: Vec<OutFile> = ["s.css", "favicon.svg"]
        .into_iter()
        .map(|name| OutFile::new(name, assets.get(name)))
        .collect();
    home.push(OutFile::new("index.html", html::home_page(editions, books)));
    home
}

/// The two-player web pages and the assets beside them, made from the
/// graph: what `cargo xtask bench` times against a bare C writer.
pub fn two_player_files(graph: &StateGraph<Board>, assets: &Assets) -> Vec<OutFile> {
    html::render(
        &two_player::edition(TWO_PLAYER, graph, Some(ANALYSIS)),
        assets,
    )
}

/// One book: an edition (as books show it) in one format, with its size
/// against its budget and the wall time its job took.
fn render_book(
    edition: &Edition,
    format: &(&str, ebook::Budget, ebook::Writer),
    assets: &Assets,
    budgets: Budgets,
) -> (OutFile, BookReport, Timing) {
    let (suffix, budget, write) = format;
    let start = Instant::now();
    let file = format!("{EBOOKS}/{}{suffix}", edition.book_stem());
    let pages = (*budget == ebook::Budget::Pdf).then(|| ebook::pdf::pages(edition));
    let left_out = pages.is_some_and(|p| p > budgets.pdf_pages);
    let bytes = if left_out {
        Vec::new()
    } else {
        write(edition, assets)
    };
    let budget = match budget {
        ebook::Budget::Mobi => Some(budgets.mobi),
        ebook::Budget::Epub => Some(budgets.epub),
        ebook::Budget::Pdf | ebook::Budget::None => None,
    };
    let report = BookReport {
        file: file.clone(),
        bytes: bytes.len(),
        budget,
        pages,
        left_out,
    };
    let timing = Timing {
        step: format!("    {file}"),
        wall: start.elapsed(),
        cpu: None,
    };
    (OutFile::new(file, bytes), report, timing)
}

/// The books of the editions: each edition (as books show it) in each
/// format, as one job each, the largest first, each put into `sink` as
/// soon as it is made, so finished books do not pile up in memory; then
/// the GIFs the Kindle HTML files use. Fails on the first book over its
/// budget (the caller drops what the sink holds).
fn books(
    editions: &[Edition],
    assets: &Assets,
    budgets: Budgets,
    report: &mut Report,
    sink: &impl Sink,
) -> Result<(), BuildError> {
    let books = timed_wall(
        &mut report.timings,
        "  book screens (shared across games)",
        || editions.iter().map(Edition::for_books).collect::<Vec<_>>(),
    );
    let mut jobs: Vec<_> = books
        .iter()
        .flat_map(|b| ebook::formats(b).iter().map(move |f| (&**b, f)))
        .collect();
    // The EPUBs (deflate) and MOBIs take longest; start them first.
    jobs.sort_by_key(|(_, (suffix, ..))| ebook::FORMATS.iter().position(|f| f.0 == *suffix));
    let made = timed_wall(&mut report.timings, "  books (one job each)", || {
        crate::par::map(&jobs, |(edition, format)| {
            let (file, book, timing) = render_book(edition, format, assets, budgets);
            let put = if book.left_out {
                Ok(())
            } else {
                sink.put(vec![file])
            };
            put.map(|()| (book, timing))
        })
    });
    let mut made = made.into_iter().collect::<Result<Vec<_>, _>>()?;
    // Report the books in edition order, whatever ran first.
    made.sort_by_key(|(book, _)| {
        let name = book.file.split('/').nth(1).unwrap_or_default();
        editions.iter().enumerate().find_map(|(e, edition)| {
            let format = ebook::FORMATS
                .iter()
                .position(|f| name.strip_suffix(f.0) == Some(edition.book_stem().as_str()))?;
            Some((e, format))
        })
    });
    for (book, timing) in made {
        if !book.left_out {
            count_file(report, &book.file, book.bytes);
        }
        report.books.push(book);
        report.timings.push(timing);
    }
    if let Some(e) = over_budget(report) {
        return Err(e);
    }
    // The GIFs beside the Kindle HTML files: every book's, the cover last.
    let mut gifs: Vec<&str> = books
        .iter()
        .filter(|b| !b.print_only)
        .flat_map(|b| b.used_images())
        .collect();
    let order = images();
    gifs.sort_by_key(|n| order.iter().position(|i| i == n));
    gifs.dedup();
    gifs.push(ebook::COVER);
    let files: Vec<OutFile> = gifs
        .iter()
        .map(|n| {
            let file = format!("{n}.gif");
            OutFile::new(format!("{EBOOKS}/{file}"), assets.get(&file))
        })
        .collect();
    count(report, &files);
    Ok(sink.put(files)?)
}

/// Renders the whole site, every edition in every format, into `sink`.
/// The web pages go to the sink edition by edition while the books are
/// made beside them, all on the one thread pool ([`crate::par`]); the home
/// page and the extra files of `static/` come last, so an extra with the
/// name of a file the build makes is refused ([`BuildError::StaticClash`]).
pub fn render(options: &Options, assets: &Assets, sink: &impl Sink) -> Result<Report, BuildError> {
    let mut report = Report::default();
    let timings = &mut report.timings;
    let rules = Rules {
        early_draws: options.early_draws,
    };
    let solver = timed(timings, "solve", || {
        Solver::new(StateGraph::<Board>::with_rules(rules))
    });
    let games = timed(timings, "play out games", || {
        vs_computer::games(&options.games, &solver)
    });
    let hanoi = timed(timings, "solve the Towers of Hanoi", || {
        hanoi_solver(options.hanoi_discs)
    });
    let editions = timed(timings, "screens", || editions(&solver, &games, &hanoi));
    let (pages, books) = timed(timings, "pages and books, at once", || {
        crate::par::join(
            || {
                let (mut pages, mut timings) = (Report::default(), Vec::new());
                for e in editions.iter().filter(|e| !e.print_only) {
                    let step = format!("  {} pages, rendered and written", e.slug);
                    timed_wall(&mut timings, &step, || {
                        html::render_in_batches(e, assets, |files| {
                            count(&mut pages, &files);
                            sink.put(files)
                        })
                    })?;
                }
                pages.timings = timings;
                Ok::<_, BuildError>(pages)
            },
            || {
                let mut books_report = Report::default();
                books(&editions, assets, options.budgets, &mut books_report, sink)?;
                Ok::<_, BuildError>(books_report)
            },
        )
    });
    let (pages, books) = (pages?, books?);
    let mut home = Report::default();
    let home_files = home_files(assets, &editions, &books.books);
    count(&mut home, &home_files);
    sink.put(home_files)?;
    for (path, from) in assets.extras() {
        sink.copy(path, from).map_err(|e| match e {
            OutputError::Twice(path) => BuildError::StaticClash(path),
            e => BuildError::Output(e),
        })?;
        home.files += 1;
        home.bytes += std::fs::metadata(from).map_or(0, |m| m.len() as usize);
    }
    // Home first, then each edition's folders, as the site reads.
    report.absorb(home);
    report.absorb(pages);
    report.absorb(books);
    Ok(report)
}

/// The first book over its budget, if any.
fn over_budget(report: &Report) -> Option<BuildError> {
    report.books.iter().find_map(|b| match b.budget {
        Some(budget) if b.bytes > budget => Some(BuildError::OverBudget {
            file: b.file.clone(),
            bytes: b.bytes,
            budget,
        }),
        _ => None,
    })
}

/// Refuses `--static` and `--out` that overlap, before anything is read
/// or written: the same folder, or either inside the other. Each build
/// would copy the last site into the next, or replace `static/`.
fn check_apart(static_dir: &Path, out: &Path) -> Result<(), BuildError> {
    let (real_static, real_out) = (output::resolve(static_dir), output::resolve(out));
    let (s, o) = (static_dir.display(), out.display());
    if real_out == real_static {
        Err(format!("--static {s} and --out {o} are the same folder"))
    } else if real_out.starts_with(&real_static) {
        Err(format!(
            "--out {o} is inside --static {s}: every build would copy the last site into the next"
        ))
    } else if real_static.starts_with(&real_out) {
        Err(format!(
            "--static {s} is inside --out {o}, which every build replaces"
        ))
    } else {
        Ok(())
    }
    .map_err(BuildError::Overlap)
}

/// Refuses an extra file of `static/` that leads, through a symbolic
/// link, into the output: each build would copy the last site into the
/// next.
fn check_extras_outside(static_dir: &Path, out: &Path, assets: &Assets) -> Result<(), BuildError> {
    let real_out = output::resolve(out);
    match assets
        .extras()
        .find(|(_, from)| output::resolve(from).starts_with(&real_out))
    {
        Some((path, _)) => Err(BuildError::Overlap(format!(
            "{}/{path} leads into --out {}: every build would copy the last site into the next",
            static_dir.display(),
            out.display()
        ))),
        None => Ok(()),
    }
}

/// Loads `static/`, then renders every file into a staging folder beside
/// the output as it is ready, and swaps it in: the whole build.
pub fn build(options: &Options) -> Result<Report, BuildError> {
    // The name first (`--out /` holds every folder), then the overlap
    // (`--out` at `static/` itself is refused as that, not as a stranger).
    output::check_name(&options.out)?;
    check_apart(&options.static_dir, &options.out)?;
    output::check_target(&options.out)?;
    let mut first = Vec::new();
    let assets = timed(&mut first, "read and check static/", || {
        Assets::load(&options.static_dir, &images())
    })?;
    check_extras_outside(&options.static_dir, &options.out, &assets)?;
    let staging = timed(&mut first, "lock, and make the staging folder", || {
        output::Staging::begin(&options.out)
    })?;
    let mut report = render(options, &assets, &staging)?;
    let mut timings = first;
    timings.append(&mut report.timings);
    report.warnings = timed(&mut timings, "swap in, remove the old site", || {
        staging.commit()
    })?;
    report.timings = timings;
    Ok(report)
}
