//! The command line: parses flags and calls the library. All flag parsing
//! lives here; nothing here knows how a page is made.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use clap::{Parser, Subcommand};
use tictactoe_book::site::{self, Budgets, Options, Report};
use tictactoe_book::vs_computer;

mod images;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Build and check the tic-tac-toe book")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Clone)]
struct BuildArgs {
    /// Output folder, replaced whole [default: site/ in the repository]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Folder of images and the stylesheet [default: static/ in the repository]
    #[arg(long = "static", value_name = "DIR")]
    static_dir: Option<PathBuf>,
    /// Games against the computer (half start with the player's move)
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=256))]
    games: u16,
    /// One level for every game [default: an even mix]
    #[arg(long, value_name = "LEVEL", value_parser = ["easy", "medium", "hard", "perfect"])]
    level: Option<String>,
    /// Seeds every random choice; the same seed gives the same site
    #[arg(long, value_name = "N", default_value_t = vs_computer::DEFAULT_SEED)]
    seed: u64,
    /// Largest allowed MOBI file, in KB (1,000 bytes)
    #[arg(long, value_name = "KB", default_value_t = 450)]
    mobi_budget: usize,
    /// Largest allowed EPUB file, in KB (1,000 bytes)
    #[arg(long, value_name = "KB", default_value_t = 150)]
    epub_budget: usize,
}

#[derive(Subcommand)]
enum Command {
    /// Write the whole site (web game, games against the computer, e-books).
    BuildSite(BuildArgs),
    /// Time the build and report pages per second and bytes per page.
    Bench(BuildArgs),
    /// Redraw the e-reader square images and cover in static/.
    DrawImages,
}

/// The repository root: xtask lives one folder below it.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask has a parent folder")
        .to_path_buf()
}

impl BuildArgs {
    fn options(&self) -> Options {
        let root = repo_root();
        Options {
            static_dir: self
                .static_dir
                .clone()
                .unwrap_or_else(|| root.join("static")),
            out: self.out.clone().unwrap_or_else(|| root.join("site")),
            games: vs_computer::Settings {
                games: usize::from(self.games),
                level: self
                    .level
                    .as_deref()
                    .map(|l| l.parse().expect("clap checked the name")),
                seed: self.seed,
            },
            budgets: Budgets {
                mobi: self.mobi_budget * 1000,
                epub: self.epub_budget * 1000,
            },
        }
    }
}

fn print_summary(report: &Report, seconds: f64) {
    for part in &report.parts {
        println!(
            "{:<16} {:>6} pages {:>10} bytes",
            part.name, part.pages, part.bytes
        );
    }
    for book in &report.books {
        let budget = match book.budget {
            Some(b) => format!(" (budget {:.1} KB)", b as f64 / 1000.0),
            None => String::new(),
        };
        println!(
            "{:<40} {:>8.1} KB{budget}",
            book.file,
            book.bytes as f64 / 1000.0
        );
    }
    let (largest, size) = &report.largest_page;
    println!(
        "wrote {} pages ({} files), {} bytes; largest page {largest} ({size} bytes); {:.0} ms",
        report.pages,
        report.files,
        report.bytes,
        seconds * 1000.0
    );
}

fn build_site(args: &BuildArgs) -> anyhow::Result<()> {
    let options = args.options();
    let start = Instant::now();
    let report = site::build(&options).context("build failed")?;
    print_summary(&report, start.elapsed().as_secs_f64());
    println!("site written to {}", options.out.display());
    Ok(())
}

fn bench(args: &BuildArgs) -> anyhow::Result<()> {
    let options = args.options();
    let runs = 5;
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        last = Some(site::build(&options).context("build failed")?);
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let report = last.expect("at least one run");
    let median = times[runs / 2];
    println!(
        "build into {}: median of {runs} runs {:.1} ms (min {:.1} ms)",
        options.out.display(),
        median * 1000.0,
        times[0] * 1000.0
    );
    for part in &report.parts {
        let mean = part.bytes as f64 / part.pages.max(1) as f64;
        println!(
            "{:<12} {:>6} pages, mean {:.1} bytes/page, total {} bytes",
            part.name, part.pages, mean, part.bytes
        );
    }
    println!("{:.0} pages/s overall", report.pages as f64 / median);
    Ok(())
}

/// Parses the command line. A usage error is one line on stderr (clap's
/// first line, which names the problem) and exit code 2.
fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|e| {
        if !e.use_stderr() {
            // --help and --version: print as clap would, and succeed.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        let text = e.to_string();
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("error");
        eprintln!("{first} (see `cargo xtask --help`)");
        ExitCode::from(2)
    })
}

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match &cli.command {
        Command::BuildSite(args) => build_site(args),
        Command::Bench(args) => bench(args),
        Command::DrawImages => images::draw(&repo_root().join("static")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
