//! Our MOBI against Amazon's kindlegen 2.9 building the same book from our
//! EPUB: the time to make it, and the sizes (kindlegen's whole file and
//! the MOBI 6 and KF8 deliverables it reports).

use std::path::{Path, PathBuf};
use std::time::Instant;

use tictactoe_book::assets::Assets;
use tictactoe_book::ebook::{Book, Budgets, EPUB, Format, MOBI};
use tictactoe_book::site::{self, Options};

use crate::flags::repo_root;

/// kindlegen: on `PATH`, or where `.ci/install-tools` puts it.
fn kindlegen() -> Option<PathBuf> {
    let installed = repo_root()
        .join("tests/e2e/node_modules/@hakuneko/kindlegen-binaries/bin/linux/amd64/kindlegen");
    [PathBuf::from("kindlegen"), installed]
        .into_iter()
        .find(|k| {
            std::process::Command::new(k)
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// A number of KB from one of kindlegen's `... file size :   0002941KB`
/// lines, found by its message code.
fn reported_kb(log: &str, code: &str) -> Option<u64> {
    let line = log.lines().find(|l| l.contains(code))?;
    line.rsplit(':')
        .next()?
        .trim()
        .trim_end_matches("KB")
        .parse()
        .ok()
}

/// Each default book (not the print ones): our MOBI's time (the writer
/// alone, in this process, median of 3) and size, against kindlegen `-c2`
/// from our EPUB (one run, as a process) and its sizes. Writes into `dir`.
pub fn bench(dir: &Path, options: &Options, assets: &Assets) -> anyhow::Result<()> {
    let Some(kindlegen) = kindlegen() else {
        say!("kindlegen: not installed, not compared (.ci/install-tools installs it)");
        return Ok(());
    };
    std::fs::create_dir_all(dir)?;
    let solved = site::Solved::new(options);
    say!(
        "our MOBI against kindlegen -c2 from our EPUB (its file, and the deliverables it reports):"
    );
    say!(
        "  {:<24} {:>9} {:>9} {:>10} {:>9} {:>9} {:>9}",
        "book",
        "ours KB",
        "ours ms",
        "kindlegen",
        "KB",
        "MOBI 6",
        "KF8"
    );
    for edition in solved.editions() {
        let book = edition.for_books();
        if book.print_only {
            continue;
        }
        // The one file each of these formats makes.
        let write = |format: &Format| -> anyhow::Result<Vec<u8>> {
            let made = format.make(&Book::new(&book, assets), &Budgets::default())?;
            Ok(made.files.into_iter().next().expect("made").bytes)
        };
        let mut times = Vec::new();
        let mut mobi = Vec::new();
        for _ in 0..3 {
            let start = Instant::now();
            mobi = write(&MOBI)?;
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        let (ours_ms, _) = super::stats(times);
        let stem = book.book_stem();
        let epub = dir.join(EPUB.file_name(&book));
        std::fs::write(&epub, write(&EPUB)?)?;
        // kindlegen's, beside ours: `<stem>.kindlegen.mobi`.
        let out = format!("{stem}.kindlegen{}", MOBI.suffix);
        let start = Instant::now();
        let run = std::process::Command::new(&kindlegen)
            .arg(&epub)
            .args(["-c2", "-dont_append_source", "-o", &out])
            .output()?;
        let secs = start.elapsed().as_secs_f64();
        let log = String::from_utf8_lossy(&run.stdout);
        let theirs = std::fs::metadata(dir.join(&out))
            .map(|m| m.len())
            .unwrap_or(0);
        let kb = |n: Option<u64>| n.map_or("?".to_string(), |n| n.to_string());
        say!(
            "  {:<24} {:>9.1} {:>9.1} {:>8.1} s {:>9.1} {:>9} {:>9}{}",
            stem.trim_start_matches("tictactoe-"),
            mobi.len() as f64 / 1000.0,
            ours_ms,
            secs,
            theirs as f64 / 1000.0,
            kb(reported_kb(&log, "I15000")),
            kb(reported_kb(&log, "I15001")),
            if run.status.success() {
                ""
            } else {
                "  (kindlegen: not clean)"
            }
        );
    }
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}
