//! `cargo xtask build-site`: builds the site and prints what it wrote.

use std::time::Instant;

use anyhow::Context as _;
use tictactoe_book::site::{self, Report};

use crate::flags::BuildArgs;

fn print_summary(report: &Report, seconds: f64) {
    for part in &report.parts {
        say!(
            "{:<16} {:>6} pages {:>10} bytes",
            part.name,
            part.pages,
            part.bytes
        );
    }
    for book in &report.books {
        let budget = match (book.budget, book.pages) {
            (_, Some(pages)) if book.left_out => {
                say!(
                    "{:<40} {pages:>6} pages, over --pdf-budget: left out",
                    book.file
                );
                continue;
            }
            (Some(b), _) => format!(" (budget {:.1} KB)", b as f64 / 1000.0),
            (None, Some(pages)) => format!(", {pages} pages"),
            (None, None) => String::new(),
        };
        say!(
            "{:<40} {:>8.1} KB{budget}",
            book.file,
            book.bytes as f64 / 1000.0
        );
    }
    let (largest, size) = &report.largest_page;
    let memory = peak_memory_mb().map_or(String::new(), |mb| format!(", {mb:.1} {PEAK}"));
    say!(
        "built {} pages ({} files), {} bytes; largest page {largest} ({size} bytes); {:.0} ms{memory}",
        report.pages,
        report.files,
        report.bytes,
        seconds * 1000.0
    );
}

/// How the summary names the peak memory; `cargo xtask bench` reads the
/// figure before it.
pub const PEAK: &str = "MB peak memory";

/// This process's peak resident memory, in MB (1,000,000 bytes): the
/// high-water mark of its own memory since it started (`VmHWM`, Linux
/// only). `getrusage` would not do: a child's `ru_maxrss` counts the
/// parent it was forked from, and the bench's parent holds a whole site.
fn peak_memory_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    let kb: f64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kb * 1024.0 / 1e6)
}

pub fn run(args: &BuildArgs) -> anyhow::Result<()> {
    let options = args.options();
    let start = Instant::now();
    let report = site::build(&options).context("build failed")?;
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    print_summary(&report, start.elapsed().as_secs_f64());
    if report.took_copy {
        say!(
            "{} was copied or restored from another folder, and holds exactly what its marker lists: \
             taken as this tool's output",
            options.out.display()
        );
    }
    if report.unchanged {
        say!(
            "{} already held exactly this site: left as it was",
            options.out.display()
        );
    } else {
        say!("site written to {}", options.out.display());
    }
    Ok(())
}
