//! The whole site: renders every edition into memory, then hands the files
//! to [`output::publish`].
//!
//! Invariant: nothing is written until every file has been rendered, so a
//! bad input fails before the disk is touched.

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use maud::html;

use crate::assets::{AssetError, Assets, WEB_ASSETS};
use crate::ebook::{self, IMAGES, epub, kindle_html, mobi};
use crate::graph::StateGraph;
use crate::html::{layout, minify};
use crate::output::{self, OutFile, OutputError};
use crate::solver::Solver;
use crate::two_player;
use crate::vs_computer::{self, Game};

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
                "{file} is {bytes} bytes, over its budget of {budget} bytes \
                 (raise it with --mobi-budget or --epub-budget, in KB)"
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
    /// How long each step of rendering took (books run beside the web
    /// pages, on a second thread).
    pub timings: Vec<(String, Duration)>,
    /// What the build could not tidy away, such as a file of the old
    /// output that could not be deleted: one line each.
    pub warnings: Vec<String>,
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
    fn add_part(&mut self, name: &str, files: Vec<OutFile>) {
        let pages: Vec<&OutFile> = files.iter().filter(|f| f.path.ends_with(".html")).collect();
        self.report.parts.push(PartReport {
            name: name.to_string(),
            pages: pages.len(),
            bytes: pages.iter().map(|f| f.bytes.len()).sum(),
        });
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

/// The web assets copied into a folder of pages (`""` for the site root).
fn web_assets(assets: &Assets, dir: &str) -> Vec<OutFile> {
    WEB_ASSETS
        .iter()
        .map(|name| OutFile::new(format!("{dir}{name}"), assets.get(name)))
        .collect()
}

/// The home page: what this is, how to play, and where to start.
pub fn home_page(games: &[Game]) -> Vec<u8> {
    let body = html! {
        h1 { "Tic-tac-toe, the whole game in pages" }
        p { "Every board that can arise in a game of tic-tac-toe is a page of its own, and every empty square is a link to the board after that move. There is no JavaScript: it plays in any browser, from a web host or straight from disk." }
        h2 { "How to play" }
        p { "X moves first. Tap an empty square to place your mark; three in a row wins. The back button takes a move back." }
        h2 { "Two players" }
        p { a href=(two_player::start()) { "Start a game for two players" } }
        h2 id="games" { "Against the computer" }
        p { "The computer's replies were decided when this site was built, so even this game is only links. Easy games can be won; a perfect computer never loses." }
        ul { @for g in games { li { a href=(g.start_page()) { (g.describe()) } } } }
        h2 id="ebooks" { "On a Kindle or another e-reader" }
        p { "The same games as books, one board per screen. Each needs nothing else installed." }
        ul {
            @for slug in ["tictactoe-two-player", "tictactoe-vs-computer"] {
                li {
                    (if slug.ends_with("two-player") { "Two players: " } else { "Against the computer: " })
                    a href={ (EBOOKS) "/" (slug) ".mobi" } { "MOBI" } ", "
                    a href={ (EBOOKS) "/" (slug) ".epub" } { "EPUB" } ", "
                    a href={ (EBOOKS) "/" (slug) "-kindle.html" } { "single HTML file" }
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
fn timed<T>(timings: &mut Vec<(String, Duration)>, name: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    timings.push((name.to_string(), start.elapsed()));
    out
}

/// The two-player pages and the assets beside them.
pub fn two_player_files(graph: &StateGraph, assets: &Assets) -> Vec<OutFile> {
    let mut two = two_player::render(graph);
    two.extend(web_assets(assets, &format!("{}/", two_player::DIR)));
    two
}

/// The web pages: home, two-player, and each game against the computer.
fn render_web(assets: &Assets, graph: &StateGraph, games: &[Game], site: &mut Rendered) {
    let mut home = web_assets(assets, "");
    home.push(OutFile::new("favicon.svg", assets.get("favicon.svg")));
    home.extend(
        assets
            .extras()
            .map(|(path, bytes)| OutFile::new(path, bytes)),
    );
    home.push(OutFile::new("index.html", home_page(games)));
    site.add_part("home", home);
    let two = timed(&mut site.report.timings, "two-player pages", || {
        two_player_files(graph, assets)
    });
    site.add_part(two_player::DIR, two);
    let start = Instant::now();
    for game in games {
        let mut files = game.render();
        files.extend(web_assets(assets, &format!("{}/", game.dir())));
        site.add_part(&game.dir(), files);
    }
    let vs = start.elapsed();
    site.report
        .timings
        .push(("vs-computer pages".to_string(), vs));
}

/// A book format: writes a book given the images in [`IMAGES`] order.
type Writer = fn(&ebook::Book, &[&[u8]]) -> Vec<u8>;

/// One book in every format, with each file's size against its budget.
fn render_book(
    book: &ebook::Book,
    images: &[&[u8]],
    budgets: Budgets,
    timings: &mut Vec<(String, Duration)>,
) -> Vec<(OutFile, BookReport)> {
    let formats: [(&str, Option<usize>, Writer); 3] = [
        (".mobi", Some(budgets.mobi), mobi::write),
        (".epub", Some(budgets.epub), epub::write),
        ("-kindle.html", None, |book, _| kindle_html::write(book)),
    ];
    formats
        .into_iter()
        .map(|(suffix, budget, write)| {
            let file = format!("{EBOOKS}/{}{suffix}", book.slug);
            let bytes = timed(timings, &file, || write(book, images));
            let report = BookReport {
                file: file.clone(),
                bytes: bytes.len(),
                budget,
            };
            (OutFile::new(file, bytes), report)
        })
        .collect()
}

/// Renders the whole site into memory. The books and the web pages are
/// made on two threads: the machine this is built for has two cores.
pub fn render(options: &Options, assets: &Assets) -> Rendered {
    let mut timings = Vec::new();
    let solver = timed(&mut timings, "solve", || Solver::new(StateGraph::new()));
    let games = timed(&mut timings, "play out games", || {
        vs_computer::games(&options.games, &solver)
    });
    let images: Vec<&[u8]> = IMAGES
        .iter()
        .map(|n| assets.get(&format!("{n}.gif")))
        .collect();
    let mut site = Rendered {
        files: Vec::new(),
        report: Report::default(),
    };
    let (books, book_timings) = std::thread::scope(|scope| {
        let books = scope.spawn(|| {
            let mut t = Vec::new();
            let two = ebook::two_player(solver.graph());
            let vs = ebook::vs_computer(&games);
            let mut made = render_book(&two, &images, options.budgets, &mut t);
            made.extend(render_book(&vs, &images, options.budgets, &mut t));
            (made, t)
        });
        render_web(assets, solver.graph(), &games, &mut site);
        books.join().expect("book thread panicked")
    });
    timings.append(&mut site.report.timings);
    timings.extend(book_timings);
    site.files.extend(
        IMAGES
            .iter()
            .map(|n| OutFile::new(format!("{EBOOKS}/{n}.gif"), assets.get(&format!("{n}.gif")))),
    );
    for (file, report) in books {
        site.report.books.push(report);
        site.files.push(file);
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
    let mut count = std::collections::HashMap::new();
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
    let assets = Assets::load(&options.static_dir)?;
    let mut site = render(options, &assets);
    if let Some(e) = over_budget(&site.report).or_else(|| static_clash(&assets, &site.files)) {
        return Err(e);
    }
    site.report.warnings = output::publish(&options.out, &site.files)?;
    Ok(site.report)
}
