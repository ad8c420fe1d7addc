//! The command line: parses flags and calls the library. All flag parsing
//! lives here; nothing here knows how a page is made.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use clap::{Parser, Subcommand};
use tictactoe_book::assets::Assets;
use tictactoe_book::graph::StateGraph;
use tictactoe_book::opponent::Level;
use tictactoe_book::output;
use tictactoe_book::site::{self, Budgets, Options, Report};
use tictactoe_book::vs_computer;

mod images;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Build and check the tic-tac-toe book")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The largest book budget a flag takes: a gigabyte, far past any book.
const MAX_BUDGET_KB: i64 = 1_000_000;

#[derive(clap::Args, Clone)]
struct BuildArgs {
    /// Output folder, replaced whole [default: site/ in the repository]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Folder of images and the stylesheet [default: static/ in the repository]
    #[arg(long = "static", value_name = "DIR")]
    static_dir: Option<PathBuf>,
    /// Games against the computer (half start with the player's move)
    #[arg(long, value_name = "N",
          default_value_t = vs_computer::Settings::default().games as u16,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    games: u16,
    /// One level for every game: easy, medium, hard or perfect [default: an even mix]
    #[arg(long, value_name = "LEVEL", value_parser = |s: &str| s.parse::<Level>())]
    level: Option<Level>,
    /// Seeds every random choice; the same seed gives the same site
    #[arg(long, value_name = "N", default_value_t = vs_computer::DEFAULT_SEED)]
    seed: u64,
    /// Largest allowed MOBI file, in KB (1,000 bytes), 1 to 1000000
    #[arg(long, value_name = "KB",
          default_value_t = (Budgets::default().mobi / 1000) as u32,
          value_parser = clap::value_parser!(u32).range(1..=MAX_BUDGET_KB))]
    mobi_budget: u32,
    /// Largest allowed EPUB file, in KB (1,000 bytes), 1 to 1000000
    #[arg(long, value_name = "KB",
          default_value_t = (Budgets::default().epub / 1000) as u32,
          value_parser = clap::value_parser!(u32).range(1..=MAX_BUDGET_KB))]
    epub_budget: u32,
}

#[derive(Subcommand)]
enum Command {
    /// Write the whole site (web game, games against the computer, e-books).
    BuildSite(BuildArgs),
    /// Time the build and report pages per second and bytes per page.
    Bench(BuildArgs),
    /// Redraw the e-reader square images and cover in static/.
    DrawImages {
        /// Where to write them [default: static/ in the repository]
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Build the site (into target/screenshots-site unless --out says
    /// otherwise) and take the README's screenshots into docs/ (needs node,
    /// Chromium and `npm ci --prefix tests/e2e`).
    Screenshots(BuildArgs),
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
                level: self.level,
                seed: self.seed,
            },
            budgets: Budgets {
                mobi: self.mobi_budget as usize * 1000,
                epub: self.epub_budget as usize * 1000,
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
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    print_summary(&report, start.elapsed().as_secs_f64());
    println!("site written to {}", options.out.display());
    Ok(())
}

/// Median and minimum of some timings, in milliseconds.
fn stats(mut ms: Vec<f64>) -> (f64, f64) {
    ms.sort_by(f64::total_cmp);
    (ms[ms.len() / 2], ms[0])
}

/// The two-player build alone (render, then publish), against a bare C
/// program writing the same files, on the filesystem of `dir`.
fn bench_two_player(dir: &Path, assets: &Assets, runs: usize) -> anyhow::Result<()> {
    let graph = StateGraph::new();
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let out = dir.join("two-player-site");
    let c_out = dir.join("c-baseline");
    // The C baseline, compiled for this run.
    let c_src = repo_root().join("xtask/bench/write_files.c");
    let c_bin = dir.join("write_files");
    let status = std::process::Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&c_bin)
        .arg(&c_src)
        .status()
        .context("gcc is needed for the C baseline")?;
    anyhow::ensure!(status.success(), "gcc failed");
    let files = site::two_player_files(&graph, assets);
    let mut manifest = Vec::new();
    // The C program writes into an existing folder's subfolder.
    for f in &files {
        let path = f.path.replace('/', "-");
        manifest.extend((path.len() as u32).to_le_bytes());
        manifest.extend(path.as_bytes());
        manifest.extend((f.bytes.len() as u32).to_le_bytes());
        manifest.extend(&f.bytes);
    }
    let manifest_path = dir.join("manifest.bin");
    std::fs::write(&manifest_path, &manifest)?;
    let (mut ours, mut c) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let _ = std::fs::remove_dir_all(&c_out);
        let run = std::process::Command::new(&c_bin)
            .arg(&manifest_path)
            .arg(&c_out)
            .output()?;
        anyhow::ensure!(
            run.status.success(),
            "C baseline failed: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        c.push(String::from_utf8_lossy(&run.stdout).trim().parse::<f64>()?);
        // Like the C program, a first build into a new folder; replacing an
        // earlier build also deletes its files (timed below, once).
        let _ = std::fs::remove_dir_all(&out);
        let start = Instant::now();
        let files = site::two_player_files(&graph, assets);
        output::publish(&out, &files)?;
        ours.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let start = Instant::now();
    output::publish(&out, &site::two_player_files(&graph, assets))?;
    let rebuild = start.elapsed().as_secs_f64() * 1000.0;
    let start = Instant::now();
    let rendered = site::two_player_files(&graph, assets);
    let render = start.elapsed().as_secs_f64() * 1000.0;
    drop(rendered);
    let (ours_med, ours_min) = stats(ours);
    let (c_med, c_min) = stats(c);
    let pages: Vec<usize> = files
        .iter()
        .filter(|f| f.path.ends_with(".html"))
        .map(|f| f.bytes.len())
        .collect();
    let total: usize = pages.iter().sum();
    println!("two-player build on {}:", dir.display());
    println!(
        "  ours (render + write {} files): median {ours_med:.1} ms (min {ours_min:.1}); {:.0} pages/s",
        files.len(),
        pages.len() as f64 / (ours_med / 1000.0)
    );
    println!(
        "  bare C writing the same files:  median {c_med:.1} ms (min {c_min:.1}); ratio {:.2}x",
        ours_med / c_med
    );
    println!(
        "  of which rendering: {render:.1} ms; a rebuild over the previous output: {rebuild:.1} ms"
    );
    println!(
        "  pages {}: mean {:.1} bytes, max {} bytes, total {} bytes",
        pages.len(),
        total as f64 / pages.len() as f64,
        pages.iter().max().unwrap_or(&0),
        total
    );
    for p in [out, c_out] {
        let _ = std::fs::remove_dir_all(p);
    }
    let _ = std::fs::remove_file(manifest_path);
    let _ = std::fs::remove_file(c_bin);
    Ok(())
}

fn bench(args: &BuildArgs) -> anyhow::Result<()> {
    let options = args.options();
    let runs = 5;
    let assets = Assets::load(&options.static_dir)?;
    let disk = repo_root().join("target/bench");
    bench_two_player(&disk, &assets, runs)?;
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        bench_two_player(
            &shm.join(format!("tictactoe-bench-{}", std::process::id())),
            &assets,
            runs,
        )?;
    }
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        last = Some(site::build(&options).context("build failed")?);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let (median, min) = stats(times);
    let report = last.expect("at least one run");
    println!(
        "whole site into {}: median {median:.1} ms (min {min:.1})",
        options.out.display()
    );
    for part in report
        .parts
        .iter()
        .filter(|p| !p.name.starts_with("vs-computer/"))
    {
        let mean = part.bytes as f64 / part.pages.max(1) as f64;
        println!(
            "  {:<14} {:>6} pages, mean {mean:.1} bytes/page, total {} bytes",
            part.name, part.pages, part.bytes
        );
    }
    for part in report
        .parts
        .iter()
        .filter(|p| p.name.starts_with("vs-computer/"))
    {
        println!(
            "  {:<14} {:>6} pages, total {} bytes",
            part.name, part.pages, part.bytes
        );
    }
    println!("  books (2009 Kindle edition: about 480 KB):");
    for book in &report.books {
        println!(
            "    {:<40} {:>8.1} KB",
            book.file,
            book.bytes as f64 / 1000.0
        );
    }
    println!("  steps of the last run:");
    for (step, time) in &report.timings {
        println!("    {step:<40} {:>8.1} ms", time.as_secs_f64() * 1000.0);
    }
    Ok(())
}

fn screenshots(args: &BuildArgs) -> anyhow::Result<()> {
    let root = repo_root();
    let mut options = args.options();
    if args.out.is_none() {
        options.out = root.join("target/screenshots-site");
    }
    site::build(&options).context("build failed")?;
    let status = std::process::Command::new("node")
        .arg(root.join("tests/e2e/screenshots.mjs"))
        .env("SITE_DIR", &options.out)
        .env("OUT_DIR", root.join("docs"))
        .status()
        .context("cannot run node")?;
    anyhow::ensure!(status.success(), "the screenshot script failed");
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
        Command::DrawImages { out } => {
            images::draw(&out.clone().unwrap_or_else(|| repo_root().join("static")))
        }
        Command::Screenshots(args) => screenshots(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
