//! The build itself: renders every edition in every format and streams
//! the files into a staging folder ([`output::Staging`]) as they are
//! ready, then swaps it in. What it builds is listed in `catalog`; its
//! options, errors, report and sinks have a file each beside this one.
//!
//! Invariant: bad flags and a bad `static/` fail before the disk is
//! touched; any later failure (a book over budget, a clash) drops the
//! staging folder, so the output changes only when every file is written.

mod catalog;
mod error;
mod options;
mod report;
mod sink;

pub use crate::ebook::EBOOKS;
pub use catalog::{
    ANALYSIS, EditionMaker, Entry, GAMEBOOK, GAMES, HANOI, HANOI_ANALYSIS, HOME, KQK, KQK_ANALYSIS,
    KRK, KRK_ANALYSIS, MAPS, MapMaker, Solved, SolvedGame, TWO_PLAYER, VS_COMPUTER, images,
};
pub use error::BuildError;
pub use options::{Budgets, Options, PDF_PAGES};
pub use report::{BookReport, PartReport, Report, Steps, Timing};
pub use sink::{InMemory, Sink, Stream};

use std::path::Path;
use std::time::Instant;

use report::{count, count_file, timed, timed_wall};
use sink::Stopping;

use crate::assets::{AssetError, Assets};
use crate::ebook;
use crate::editions::two_player;
use crate::games::tictactoe::Board;
use crate::graph::StateGraph;
use crate::html;
use crate::output::{self, OutFile, OutputError};
use crate::screen::Edition;

/// The home page and the web assets beside it (the extra files of
/// `static/` are copied after everything else), with the `maps` it shows.
fn home_files(
    assets: &Assets,
    editions: &[Edition],
    books: &[BookReport],
    maps: &[html::MapLink],
    poster_square: Option<f32>,
) -> Vec<OutFile> {
    let mut home: Vec<OutFile> = ["s.css", "favicon.svg"]
        .into_iter()
        .map(|name| OutFile::new(name, assets.get(name)))
        .collect();
    let made: Vec<&str> = books
        .iter()
        .filter(|b| !b.left_out)
        .map(|b| b.file.as_str())
        .collect();
    home.push(OutFile::new(
        "index.html",
        html::home_page(&HOME, editions, &made, maps, poster_square),
    ));
    home
}

/// The maps on one page to print ([`ebook::pdf::poster`]), as the build
/// draws it (the home page gives its smallest squares).
pub fn poster(maps: &[(String, &str, crate::map::Map)], assets: &Assets) -> ebook::pdf::Poster {
    let on_poster: Vec<ebook::pdf::PosterMap> = maps
        .iter()
        .map(|(_, _, m)| ebook::pdf::PosterMap {
            title: &m.title,
            about: &m.paper,
            picture: &m.picture,
            aspect: m.aspect as f32,
            labels: &m.labels,
        })
        .collect();
    ebook::pdf::poster(
        "The maps of perfect play",
        &on_poster,
        assets.get(crate::assets::FONT),
    )
}

/// The two-player web pages and the assets beside them, made from the
/// graph: what `cargo xtask bench` times against a bare C writer.
pub fn two_player_files(graph: &StateGraph<Board>, assets: &Assets) -> Vec<OutFile> {
    html::render(
        &two_player::edition(TWO_PLAYER, graph, Some(ANALYSIS)),
        assets,
    )
}

/// One book: an edition (as books show it) in one format. Returns the
/// files shared with other books, to be written once, a report line for
/// each of its own files (the book itself first, with its budget), and the
/// wall time its job took; its own files go to `sink` as soon as they are
/// made.
fn render_book(
    book: &ebook::Book,
    format: &ebook::Format,
    budgets: Budgets,
    sink: &Stopping<impl Sink>,
) -> Result<(Vec<ebook::BookFile>, Vec<BookReport>, Timing), BuildError> {
    // A book that has not started when the build fails is not made: a
    // MOBI goes to the sink only once it is whole.
    sink.going()?;
    let start = Instant::now();
    let file = format!("{EBOOKS}/{}", format.file_name(book.edition));
    // The book goes to the sink as it is made.
    let mut out = sink::Buffered::new(sink, &file);
    let kind = format.budget.for_books(book.edition.large_books);
    let made = match format.make_into(book, &budgets, &mut out) {
        Ok(made) => made,
        Err(ebook::WriteError::TooLarge(error)) => {
            return Err(BuildError::TooLarge {
                file: file.clone(),
                error,
            });
        }
        Err(ebook::WriteError::Undrawable(e)) => {
            let path = book.assets.path(&e.name);
            return Err(AssetError::Corrupt(path, e.why).into());
        }
        Err(ebook::WriteError::Io(e)) => {
            return Err(match out.failed {
                Some(e) => e.into(),
                None => BuildError::Output(OutputError::Io(file.clone().into(), e)),
            });
        }
    };
    let bytes = out.len;
    out.finish(made.made)?;
    let main = BookReport {
        file,
        bytes,
        budget: kind.limit(&budgets),
        kind,
        pages: made.pages,
        left_out: !made.made,
    };
    let (shared, own): (Vec<_>, Vec<_>) = made.files.into_iter().partition(|f| f.shared);
    let mut reports = vec![main];
    for f in &own {
        reports.push(BookReport {
            file: format!("{EBOOKS}/{}", f.name),
            bytes: f.bytes.len(),
            budget: None,
            kind: ebook::Budget::None,
            pages: None,
            left_out: false,
        });
    }
    let timing = Timing {
        step: format!("    {}", reports[0].file),
        wall: start.elapsed(),
        cpu: None,
    };
    let own = own
        .into_iter()
        .map(|f| OutFile::new(format!("{EBOOKS}/{}", f.name), f.bytes))
        .collect::<Vec<_>>();
    if !own.is_empty() {
        sink.put(own)?;
    }
    Ok((shared, reports, timing))
}

/// What one edition made: its pages' report, and its books' (as books
/// show it, in [`ebook::FORMATS`] order), each format's files with its
/// job's time.
struct EditionWork {
    pages: Report,
    books: Vec<(Vec<BookReport>, Timing)>,
    /// The files its books share with other books' (the Kindle source's
    /// images), not written yet.
    shared: Vec<ebook::BookFile>,
}

/// One edition's web pages (none for a print-only edition) and books, at
/// once, each file put into `sink` as soon as it is made, so that the
/// pages do not wait for every edition's screens and finished books do
/// not pile up in memory.
fn edition_work(
    edition: &Edition,
    beside: Vec<OutFile>,
    assets: &Assets,
    budgets: Budgets,
    sink: &Stopping<impl Sink>,
) -> Result<EditionWork, BuildError> {
    // Its files beside the pages first, so that they are not held while
    // the pages and books are made.
    let mut pages = Report::default();
    if !edition.print_only {
        let beside = html::beside_pages(edition.slug, beside);
        count(&mut pages, &beside);
        sink.stop(sink.put(beside).map_err(BuildError::from))?;
    }
    // The books first, on this thread, the pages when a thread is free:
    // the MOBI lays its texts out first thing, so a book too large for
    // its format stops the build before its pages are written
    // (`--krk-spare 4` fails after 1.1 s, where it took 2.0 s; a whole
    // build takes the same time, at a peak 3 MB lower).
    let (books, pages) = crate::par::join(
        || {
            let book = edition.for_books();
            let shared = ebook::Book::new(&book, assets);
            // The MOBI and the EPUB (deflate) take longest; they start first.
            crate::par::map(ebook::formats(&book), |format| {
                sink.stop(render_book(&shared, format, budgets, sink))
            })
        },
        || {
            let made = move || {
                if !edition.print_only {
                    let step = format!("  {} pages, rendered and written", edition.slug);
                    let mut timings = Vec::new();
                    timed_wall(&mut timings, &step, || {
                        html::render_in_batches(edition, assets, |files| {
                            count(&mut pages, &files);
                            sink.put(files)
                        })
                    })?;
                    pages.timings = timings;
                }
                Ok::<_, BuildError>(pages)
            };
            sink.stop(made())
        },
    );
    let mut failed = Vec::new();
    let mut work = EditionWork {
        pages: pages.unwrap_or_else(|e| {
            failed.push(e);
            Report::default()
        }),
        books: Vec::new(),
        shared: Vec::new(),
    };
    for book in books {
        match book {
            Ok((shared, reports, timing)) => {
                work.shared.extend(shared);
                work.books.push((reports, timing));
            }
            Err(e) => failed.push(e),
        }
    }
    first_failure(failed).map_or(Ok(work), Err)
}

/// The failure a build reports of `failed`, in the list's order: the
/// first that is not a part stopping for another's
/// ([`BuildError::is_stopped`]), if there is one. (When two parts fail at
/// once, one may stop the other before its own failure: the build names
/// the one that failed first.)
fn first_failure(failed: impl IntoIterator<Item = BuildError>) -> Option<BuildError> {
    let mut first: Option<BuildError> = None;
    for e in failed {
        if first
            .as_ref()
            .is_none_or(|f| f.is_stopped() && !e.is_stopped())
        {
            first = Some(e);
        }
    }
    first
}

/// The books' report (`books` in edition order), once every book is
/// within its budget, and then the files books share (`shared`, in any
/// order, each written once).
fn books_report(
    books: Vec<(Vec<BookReport>, Timing)>,
    shared: Vec<ebook::BookFile>,
    sink: &impl Sink,
) -> Result<Report, BuildError> {
    let mut report = Report::default();
    for (reports, timing) in books {
        for book in reports {
            if !book.left_out {
                count_file(&mut report, &book.file, book.bytes);
            }
            report.books.push(book);
        }
        report.timings.push(timing);
    }
    if let Some(e) = over_budget(&report) {
        return Err(e);
    }
    let once: std::collections::BTreeMap<String, Vec<u8>> =
        shared.into_iter().map(|f| (f.name, f.bytes)).collect();
    let files: Vec<OutFile> = once
        .into_iter()
        .map(|(name, bytes)| OutFile::new(format!("{EBOOKS}/{name}"), bytes))
        .collect();
    count(&mut report, &files);
    sink.put(files)?;
    Ok(report)
}

/// Renders the whole site, every edition in every format, into `sink`.
/// Each edition is one job from its screens to its last file: its web
/// pages go to the sink while its books are made beside them, all on the
/// one thread pool ([`crate::par`]), so no edition's files wait for
/// another's screens. The home page and the extra files of `static/`
/// come last, so an extra with the name of a file the build makes is
/// refused ([`BuildError::StaticClash`]).
pub fn render(options: &Options, assets: &Assets, sink: &impl Sink) -> Result<Report, BuildError> {
    let mut timings = Vec::new();
    let solved = Solved::timed(options, &mut Steps::new(&mut timings, false));
    let mut report = render_solved(options, assets, &solved, sink)?;
    timings.append(&mut report.timings);
    report.timings = timings;
    Ok(report)
}

/// [`render`], from what is solved already.
fn render_solved(
    options: &Options,
    assets: &Assets,
    solved: &Solved,
    sink: &impl Sink,
) -> Result<Report, BuildError> {
    let mut report = Report::default();
    let timings = &mut report.timings;
    // Once a part fails, the others stop at their next file.
    let stopping = Stopping::new(sink);
    // The maps and their poster beside the editions, on the same pool.
    let (made, (map_links, maps_written)) =
        timed(timings, "screens, pages, books and maps, at once", || {
            crate::par::join(
                || {
                    solved.each_edition(|mut edition| {
                        let beside = std::mem::take(&mut edition.files);
                        let work =
                            edition_work(&edition, beside, assets, options.budgets, &stopping);
                        // Only the home page needs it from here on, and not its
                        // screens: they go now, not once every edition is done.
                        edition.screens = Vec::new();
                        (edition, work)
                    })
                },
                || {
                    // The maps and the poster go out as soon as they are made,
                    // not after every edition: only the home page waits, and
                    // keeps each map's file name and words.
                    let maps = solved.maps();
                    let poster = poster(&maps, assets);
                    let mut files = Vec::new();
                    let mut links: Vec<(String, &str)> = Vec::new();
                    for (f, w, m) in maps {
                        let pages = m.pages(&f);
                        files.extend(pages.into_iter().map(|(p, svg)| OutFile::new(p, svg)));
                        links.push((f, w));
                    }
                    files.push(OutFile::new(
                        format!("{EBOOKS}/{}", ebook::POSTER),
                        poster.pdf,
                    ));
                    let mut written = Report::default();
                    count(&mut written, &files);
                    let links = (links, poster.smallest_square_mm);
                    let put = stopping.put(files).map_err(BuildError::from);
                    (links, stopping.stop(put).map(|()| written))
                },
            )
        });
    let mut failed = Vec::new();
    let maps_written = maps_written.unwrap_or_else(|e| {
        failed.push(e);
        Report::default()
    });
    let (mut editions, mut pages, mut books, mut shared) =
        (Vec::new(), Report::default(), Vec::new(), Vec::new());
    for (edition, work) in made {
        editions.push(edition);
        match work {
            Ok(work) => {
                pages.absorb(work.pages);
                books.extend(work.books);
                shared.extend(work.shared);
            }
            Err(e) => failed.push(e),
        }
    }
    if let Some(e) = first_failure(failed) {
        return Err(e);
    }
    let books = books_report(books, shared, sink)?;
    let mut home = maps_written;
    let (map_links, poster_square) = map_links;
    let links: Vec<html::MapLink> = map_links.iter().map(|(f, w)| (f.as_str(), *w)).collect();
    let home_files = home_files(assets, &editions, &books.books, &links, poster_square);
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
            flag: b.kind.flag().unwrap_or("--mobi-budget"),
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
    // `static/` is read beside the solving, which touches no disk.
    let (mut solving, mut reading) = (Vec::new(), Vec::new());
    let (solved, assets) = crate::par::join(
        || Solved::timed(options, &mut Steps::new(&mut solving, true)),
        || {
            timed_wall(&mut reading, "read and check static/", || {
                Assets::load(&options.static_dir, &images())
            })
        },
    );
    first.append(&mut reading);
    first.append(&mut solving);
    let assets = assets?;
    check_extras_outside(&options.static_dir, &options.out, &assets)?;
    let staging = timed(&mut first, "lock, and make the staging folder", || {
        output::Staging::begin(&options.out)
    })?;
    let mut report = render_solved(options, &assets, &solved, &staging)?;
    let mut timings = first;
    timings.append(&mut report.timings);
    let committed = timed(
        &mut timings,
        "swap in and remove the old site (or keep it)",
        || staging.commit(),
    )?;
    report.unchanged = committed.unchanged;
    report.took_copy = committed.took_copy;
    report.warnings = committed.warnings;
    report.timings = timings;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// A sink that refuses the first file under `refuse`, and counts the
    /// files it is offered after that.
    struct Refusing {
        refuse: &'static str,
        refused: Mutex<Option<usize>>,
    }

    impl Sink for Refusing {
        fn put(&self, files: Vec<OutFile>) -> Result<(), OutputError> {
            let mut refused = self.refused.lock().unwrap();
            if let Some(after) = refused.as_mut() {
                *after += files.len();
                return Ok(());
            }
            match files.iter().find(|f| f.path.starts_with(self.refuse)) {
                Some(f) => {
                    *refused = Some(0);
                    let full = std::io::Error::from_raw_os_error(libc::ENOSPC);
                    Err(OutputError::Io(f.path.clone().into(), full))
                }
                None => Ok(()),
            }
        }

        fn copy(&self, _: &str, _: &Path) -> Result<(), OutputError> {
            self.put(Vec::new())
        }

        fn stream(&self, _: &str) -> Result<Box<dyn Stream + '_>, OutputError> {
            // Each book counts once, when it starts.
            if let Some(after) = self.refused.lock().unwrap().as_mut() {
                *after += 1;
            }
            Ok(Box::new(Ignored))
        }
    }

    struct Ignored;

    impl Stream for Ignored {
        fn write(&mut self, _: &[u8]) -> Result<(), OutputError> {
            Ok(())
        }

        fn finish(self: Box<Self>) -> Result<(), OutputError> {
            Ok(())
        }
    }

    /// Once a part of the build fails, the others stop at their next
    /// file: the sink is offered at most a batch of pages a thread after
    /// the failure, where it was offered the rest of the site (thousands
    /// of files), and the build reports that failure, not the parts that
    /// stopped for it.
    #[test]
    fn a_failure_stops_the_other_parts_and_is_the_one_reported() {
        let mut options = Options {
            static_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("static"),
            out: std::path::PathBuf::from("unused"),
            games: Default::default(),
            budgets: Default::default(),
            early_draws: false,
            hanoi_discs: 3,
            kqk: crate::games::chess::challenge::Rules::default_for(
                crate::games::chess::Ending::Kqk,
                0,
            ),
            krk: crate::games::chess::challenge::Rules::default_for(
                crate::games::chess::Ending::Krk,
                0,
            ),
        };
        (options.kqk.spare, options.krk.spare) = (0, 0);
        let assets = Assets::load(&options.static_dir, &images()).unwrap();
        let whole = InMemory::default();
        render(&options, &assets, &whole).unwrap();
        let files = whole.into_files().len();
        // A two-player page is refused: its pages go out a batch at a
        // time, beside the other editions' pages and books.
        let sink = Refusing {
            refuse: "two-player/",
            refused: Mutex::new(None),
        };
        let err = render(&options, &assets, &sink).unwrap_err();
        assert!(
            matches!(&err, BuildError::Output(OutputError::Io(p, _)) if p.starts_with("two-player/")),
            "{err}"
        );
        let after = sink.refused.into_inner().unwrap().unwrap();
        let most = rayon::current_num_threads() * html::BATCH;
        assert!(after <= most, "{after} files after the failure, of {files}");
        assert!(files > 4 * most, "{files}");
    }

    /// The failure reported is the first in order that is not a part
    /// stopping for another's.
    #[test]
    fn the_first_failure_of_its_own_is_reported() {
        let stopped = || BuildError::Output(OutputError::Stopped);
        let clash = |p: &str| BuildError::StaticClash(p.to_string());
        let first = first_failure([stopped(), clash("a"), stopped(), clash("b")]);
        assert!(matches!(first, Some(BuildError::StaticClash(p)) if p == "a"));
        assert!(first_failure([stopped()]).is_some_and(|e| e.is_stopped()));
        assert!(first_failure([]).is_none());
    }
}
