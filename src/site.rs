//! The whole site: renders every edition into memory, then hands the files
//! to [`output::publish`].
//!
//! Invariant: nothing is written until every file has been rendered, so a
//! bad input fails before the disk is touched.

use std::fmt;
use std::path::PathBuf;

use maud::html;

use crate::assets::{AssetError, Assets, WEB_ASSETS};
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
}

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// `static/` is missing or incomplete.
    Assets(AssetError),
    /// The output could not be written.
    Output(OutputError),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Assets(e) => e.fmt(f),
            BuildError::Output(e) => e.fmt(f),
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
    /// HTML pages.
    pub pages: usize,
    /// Bytes of all files.
    pub bytes: usize,
    /// The largest HTML page and its size.
    pub largest_page: (String, usize),
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
            if f.bytes.len() > r.largest_page.1 {
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
    };
    minify(&layout("Tic-tac-toe", true, &[], body))
}

/// Renders the whole site into memory.
pub fn render(options: &Options, assets: &Assets) -> Rendered {
    let solver = Solver::new(StateGraph::new());
    let games = vs_computer::games(&options.games, &solver);
    let mut site = Rendered {
        files: Vec::new(),
        report: Report::default(),
    };
    let mut home = web_assets(assets, "");
    home.push(OutFile::new("favicon.svg", assets.get("favicon.svg")));
    home.push(OutFile::new("index.html", home_page(&games)));
    site.add_part("home", home);
    let mut two = two_player::render(solver.graph());
    two.extend(web_assets(assets, &format!("{}/", two_player::DIR)));
    site.add_part(two_player::DIR, two);
    for game in &games {
        let mut files = game.render();
        files.extend(web_assets(assets, &format!("{}/", game.dir())));
        site.add_part(&game.dir(), files);
    }
    site.finish()
}

/// Loads `static/`, renders, and replaces the output folder: the whole build.
pub fn build(options: &Options) -> Result<Report, BuildError> {
    output::check_target(&options.out)?;
    let assets = Assets::load(&options.static_dir)?;
    let site = render(options, &assets);
    output::publish(&options.out, &site.files)?;
    Ok(site.report)
}
