//! `cargo xtask build-site`: builds the site and prints what it wrote.

use std::time::Instant;

use anyhow::Context as _;
use tictactoe_book::site::{self, Report};

use crate::flags::BuildArgs;

fn print_summary(report: &Report, seconds: f64) {
    for part in &report.parts {
        println!(
            "{:<16} {:>6} pages {:>10} bytes",
            part.name, part.pages, part.bytes
        );
    }
    for book in &report.books {
        let budget = match (book.budget, book.pages) {
            (_, Some(pages)) if book.left_out => {
                println!(
                    "{:<40} {pages:>6} pages, over --pdf-budget: left out",
                    book.file
                );
                continue;
            }
            (Some(b), _) => format!(" (budget {:.1} KB)", b as f64 / 1000.0),
            (None, Some(pages)) => format!(", {pages} pages"),
            (None, None) => String::new(),
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

pub fn run(args: &BuildArgs) -> anyhow::Result<()> {
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
