//! The whole site: renders every edition into memory, then hands the files
//! to [`output::publish`].
//!
//! Invariant: nothing is written until every file has been rendered, so a
//! bad input fails before the disk is touched.

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use maud::html;

use crate::assets::{AssetError, Assets};
use crate::board::Rules;
use crate::ebook;
use crate::graph::StateGraph;
use crate::html::{self, layout, minify};
use crate::output::{self, OutFile, OutputError};
use crate::screen::{Edition, IMAGES};
use crate::solver::Solver;
use crate::vs_computer::{self, Game};
use crate::{analysis, two_player};

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
}

/// The most bytes each kind of book may take; a build over budget fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Each MOBI file (the two-player book is the large one).
    pub mobi: usize,
    /// Each EPUB file.
    pub epub: usize,
}

impl Default for Budgets {
    /// 450 KB per MOBI and 150 KB per EPUB (1 KB = 1,000 bytes).
    fn default() -> Self {
        Budgets {
            mobi: 450_000,
            epub: 150_000,
        }
    }
}

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
}

/// A rendered site, not yet written.
pub struct Rendered {
    /// Every file of the site.
    pub files: Vec<OutFile>,
    /// Its figures.
    pub report: Report,
}

impl Rendered {
    /// Adds files, noting the pages of each folder as a part of the report.
    fn add_parts(&mut self, files: Vec<OutFile>) {
        for f in &files {
            let dir = f.path.rsplit_once('/').map_or("home", |(d, _)| d);
            let parts = &mut self.report.parts;
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
            if f.path.ends_with(".html") {
                parts[at].pages += 1;
                parts[at].bytes += f.bytes.len();
            }
        }
        self.files.extend(files);
    }

    fn finish(mut self) -> Rendered {
        let r = &mut self.report;
        r.files = self.files.len();
        r.bytes = self.files.iter().map(|f| f.bytes.len()).sum();
        r.pages = 0;
        for f in self.files.iter().filter(|f| f.path.ends_with(".html")) {
            r.pages += 1;
            if f.bytes.len() > r.largest_page.1 && !f.path.starts_with(EBOOKS) {
                r.largest_page = (f.path.clone(), f.bytes.len());
            }
        }
        self
    }
}

/// The editions, in the order the home page and the book list show them.
/// Adding an edition is a module that makes an [`Edition`] and a line here.
pub fn editions(solver: &Solver, games: &[Game]) -> Vec<Edition> {
    vec![
        two_player::edition(solver.graph()),
        vs_computer::edition(games),
        analysis::edition(solver),
    ]
}

/// The home page: what this is, how to play, and where to start in each
/// edition.
pub fn home_page(editions: &[Edition]) -> Vec<u8> {
    let body = html! {
        h1 { "Tic-tac-toe, the whole game in pages" }
        p { "Every board that can arise in a game of tic-tac-toe is a page of its own, and every empty square is a link to the board after that move. There is no JavaScript: it plays in any browser, from a web host or straight from disk." }
        h2 { "How to play" }
        p { "X moves first. Tap an empty square to place your mark; three in a row wins. The back button takes a move back." }
        @for e in editions {
            h2 id=(e.slug) { (e.name) }
            p { (e.about) }
            ul { @for (line, target) in &e.contents { li { a href=(html::path(e, *target)) { (line) } } } }
        }
        h2 id="ebooks" { "On a Kindle or another e-reader" }
        p { "The same editions as books, one board per screen. Each needs nothing else installed." }
        ul {
            @for e in editions {
                @let stem = format!("{EBOOKS}/{}", e.book_stem());
                li {
                    (e.name) ": "
                    a href={ (stem) ".mobi" } { "MOBI" } ", "
                    a href={ (stem) ".epub" } { "EPUB" } ", "
                    a href={ (stem) "-kindle.html" } { "single HTML file" }
                }
            }
        }
        p { b { "Any Kindle, over USB: " } "connect the Kindle, copy the " b { ".mobi" } " file into its " b { "documents" } " folder, eject, and open the book. This works on every Kindle, the first generation included." }
        p { b { "Send to Kindle: " } "email the " b { ".epub" } " file to your Kindle address, or use the Send to Kindle app." }
        p { b { "Kobo and other readers: " } "copy the " b { ".epub" } " file onto the reader." }
        p { "The single HTML file is for converting yourself, with calibre or Kindle Previewer." }
    };
    minify(&layout("Tic-tac-toe", true, &[], body))
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

/// The home page and the web assets beside it.
fn home_files(assets: &Assets, editions: &[Edition]) -> Vec<OutFile> {
    let mut home: Vec<OutFile> = ["s.css", "favicon.svg"]
        .into_iter()
        .map(|name| OutFile::new(name, assets.get(name)))
        .collect();
    home.extend(
        assets
            .extras()
            .map(|(path, bytes)| OutFile::new(path, bytes)),
    );
    home.push(OutFile::new("index.html", home_page(editions)));
    home
}

/// The two-player web pages and the assets beside them, made from the
/// graph: what `cargo xtask bench` times against a bare C writer.
pub fn two_player_files(graph: &StateGraph, assets: &Assets) -> Vec<OutFile> {
    html::render(&two_player::edition(graph), assets)
}

/// One book: an edition (as books show it) in one format, with its size
/// against its budget and the wall time its job took.
fn render_book(
    edition: &Edition,
    images: &[(&str, &[u8])],
    format: &(&str, ebook::Budget, ebook::Writer),
    budgets: Budgets,
) -> (OutFile, BookReport, Timing) {
    let (suffix, budget, write) = format;
    let start = Instant::now();
    let file = format!("{EBOOKS}/{}{suffix}", edition.book_stem());
    let bytes = write(edition, images);
    let budget = match budget {
        ebook::Budget::Mobi => Some(budgets.mobi),
        ebook::Budget::Epub => Some(budgets.epub),
        ebook::Budget::None => None,
    };
    let report = BookReport {
        file: file.clone(),
        bytes: bytes.len(),
        budget,
    };
    let timing = Timing {
        step: format!("  {file}"),
        wall: start.elapsed(),
        cpu: None,
    };
    (OutFile::new(file, bytes), report, timing)
}

/// Renders the whole site into memory: every edition in every format.
/// Each step runs on every core ([`crate::par`]): the pages screen by
/// screen, the books as one job each, the largest first.
pub fn render(options: &Options, assets: &Assets) -> Rendered {
    let mut timings = Vec::new();
    let rules = Rules {
        early_draws: options.early_draws,
    };
    let solver = timed(&mut timings, "solve", || {
        Solver::new(StateGraph::with_rules(rules))
    });
    let games = timed(&mut timings, "play out games", || {
        vs_computer::games(&options.games, &solver)
    });
    let editions = timed(&mut timings, "screens", || editions(&solver, &games));
    let mut site = Rendered {
        files: Vec::new(),
        report: Report::default(),
    };
    site.add_parts(home_files(assets, &editions));
    for e in &editions {
        let files = timed(&mut timings, &format!("{} pages", e.slug), || {
            html::render(e, assets)
        });
        site.add_parts(files);
    }
    let books = timed(&mut timings, "book screens (shared across games)", || {
        editions.iter().map(Edition::for_books).collect::<Vec<_>>()
    });
    // A book's images, in record order: the ones its screens use, the cover.
    let images: Vec<Vec<(&str, &[u8])>> = books
        .iter()
        .map(|b| {
            b.images()
                .into_iter()
                .chain([ebook::COVER])
                .map(|n| (n, assets.get(&format!("{n}.gif"))))
                .collect()
        })
        .collect();
    let mut jobs: Vec<_> = books
        .iter()
        .zip(&images)
        .flat_map(|(b, i)| ebook::FORMATS.iter().map(move |f| (&**b, i.as_slice(), f)))
        .collect();
    // The EPUBs (deflate) and MOBIs take longest; start them first.
    jobs.sort_by_key(|(_, _, (suffix, ..))| ebook::FORMATS.iter().position(|f| f.0 == *suffix));
    let made = timed(&mut timings, "books", || {
        crate::par::map(&jobs, |(edition, images, format)| {
            render_book(edition, images, format, options.budgets)
        })
    });
    let mut made: Vec<_> = made.into_iter().collect();
    // Report and write the books in edition order, whatever ran first.
    made.sort_by_key(|(file, ..)| {
        let stem = file.path.split('/').nth(1).unwrap_or_default().to_string();
        (
            editions
                .iter()
                .position(|e| stem.starts_with(&e.book_stem())),
            ebook::FORMATS.iter().position(|f| stem.ends_with(f.0)),
        )
    });
    // The GIFs beside the Kindle HTML files: every book's, the cover last.
    let mut gifs: Vec<&str> = images
        .iter()
        .flatten()
        .map(|(n, _)| *n)
        .filter(|n| *n != ebook::COVER)
        .collect();
    gifs.sort_by_key(|n| IMAGES.iter().position(|i| i == n));
    gifs.dedup();
    gifs.push(ebook::COVER);
    site.files.extend(gifs.iter().map(|n| {
        let file = format!("{n}.gif");
        OutFile::new(format!("{EBOOKS}/{file}"), assets.get(&file))
    }));
    for (file, report, timing) in made {
        site.report.books.push(report);
        site.files.push(file);
        timings.push(timing);
    }
    site.report.timings = timings;
    site.finish()
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

/// A file of `static/` copied to the root under the name of a file the
/// build makes (or of the output's marker), if any.
fn static_clash(assets: &Assets, files: &[OutFile]) -> Option<BuildError> {
    // Most sites have no extra files: nothing to count.
    assets.extras().next()?;
    let mut count: crate::hash::FastMap<&str, usize> = Default::default();
    for f in files {
        *count.entry(f.path.as_str()).or_insert(0) += 1;
    }
    assets
        .extras()
        .find(|(path, _)| *path == output::MARKER || count.get(path).is_some_and(|&n| n > 1))
        .map(|(path, _)| BuildError::StaticClash(path.to_string()))
}

/// Loads `static/`, renders, and replaces the output folder: the whole build.
pub fn build(options: &Options) -> Result<Report, BuildError> {
    output::check_target(&options.out)?;
    let mut first = Vec::new();
    let assets = timed(&mut first, "read and check static/", || {
        Assets::load(&options.static_dir)
    })?;
    let mut site = render(options, &assets);
    if let Some(e) = over_budget(&site.report).or_else(|| static_clash(&assets, &site.files)) {
        return Err(e);
    }
    let mut timings = first;
    timings.append(&mut site.report.timings);
    site.report.warnings = timed(&mut timings, "write the site (staging, swap)", || {
        output::publish(&options.out, &site.files)
    })?;
    site.report.timings = timings;
    Ok(site.report)
}
