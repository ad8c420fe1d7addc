//! How a chess book's cost grows with its screens: KRK with 1, 2 and 3
//! spare moves, its books' budgets lifted. For each, the whole build as a
//! process, for its peak memory, and each KRK book's writer alone in this
//! process: its time, its MB made a second and its time a screen. A cost
//! that grows with the screens keeps the last two flat.

use std::path::Path;
use std::time::Instant;

use tictactoe_book::assets::Assets;
use tictactoe_book::ebook::{Book, Budgets, EPUB, Format, MOBI};
use tictactoe_book::site;

use crate::flags::BuildArgs;

/// The spare moves of each KRK build.
const SPARES: [u8; 3] = [1, 2, 3];

/// Prints, for each of [`SPARES`], the build's peak memory and each KRK
/// book's time (median of 3), size, MB/s and time a screen. Builds into
/// `dir`.
pub fn bench(dir: &Path, args: &BuildArgs, assets: &Assets) -> anyhow::Result<()> {
    say!("chess books by their screens: KRK by its spare moves, the budgets lifted:");
    say!(
        "  {:>5} {:>9} {:<26} {:>8} {:>9} {:>8} {:>6} {:>10}",
        "spare",
        "peak MB",
        "book",
        "screens",
        "KB",
        "ms",
        "MB/s",
        "us/screen"
    );
    let lifted = Budgets {
        large_mobi: usize::MAX,
        large_epub: usize::MAX,
        ..Budgets::default()
    };
    for spare in SPARES {
        let args = BuildArgs {
            krk_spare: spare,
            large_mobi_budget: crate::flags::MAX_BUDGET_KB as u32,
            large_epub_budget: crate::flags::MAX_BUDGET_KB as u32,
            ..args.clone()
        };
        let peak = peak_mb(dir, &args)?;
        let solved = site::Solved::new(&args.options());
        let krk = solved.each_edition(|e| {
            [site::KRK, site::KRK_ANALYSIS]
                .contains(&e.slug)
                .then_some(e)
        });
        for edition in krk.into_iter().flatten() {
            let book = edition.for_books();
            let screens = book.screens.len();
            for format in [&MOBI, &EPUB] {
                let (ms, bytes) = writer_alone(format, &Book::new(&book, assets), &lifted)?;
                say!(
                    "  {spare:>5} {peak:>9.1} {:<26} {screens:>8} {:>9.1} {ms:>8.1} {:>6.2} {:>10.1}",
                    format.file_name(&book),
                    bytes as f64 / 1000.0,
                    bytes as f64 / 1000.0 / ms,
                    ms * 1000.0 / screens as f64
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

/// The peak memory of the whole build with `args`, as a process, into a
/// fresh folder in `dir`.
fn peak_mb(dir: &Path, args: &BuildArgs) -> anyhow::Result<f64> {
    let out = dir.join("chess-site");
    let _ = std::fs::remove_dir_all(&out);
    let mut flags: Vec<std::ffi::OsString> = vec!["build-site".into()];
    flags.extend(args.to_flags(&out, &args.options().static_dir));
    let run =
        super::timed_process(std::process::Command::new(std::env::current_exe()?).args(&flags))?;
    let _ = std::fs::remove_dir_all(&out);
    Ok(run.peak_mb)
}

/// The median time of three runs of `format`'s writer on `book`, in ms,
/// and the size of the file it makes.
fn writer_alone(format: &Format, book: &Book, budgets: &Budgets) -> anyhow::Result<(f64, usize)> {
    let mut times = Vec::new();
    let mut bytes = 0;
    for _ in 0..3 {
        let start = Instant::now();
        let made = format.make(book, budgets)?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        bytes = made.files.first().map_or(0, |f| f.bytes.len());
    }
    Ok((super::stats(times).0, bytes))
}
