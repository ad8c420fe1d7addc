//! Shared helpers: one built site for all tests, and an HTML reader.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once, OnceLock, PoisonError};

use scraper::{Html, Selector};
use tictactoe_book::editions::vs_computer;
use tictactoe_book::games::chess::Ending;
use tictactoe_book::games::chess::challenge::Rules;
use tictactoe_book::games::tictactoe::{Board, Cell, Player, Square};
use tictactoe_book::site::{self, Options};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn options(out: &Path) -> Options {
    Options {
        static_dir: repo().join("static"),
        out: out.to_path_buf(),
        games: Default::default(),
        budgets: Default::default(),
        early_draws: false,
        hanoi_discs: 4,
        // KRK with a spare move fewer than its default: the site's crawls
        // stay short (the default books are tested on their own, in
        // `ebooks.rs`); KQK as it is by default, whose thousands of pages
        // leave its PDFs out, as at the defaults.
        kqk: Rules::default_for(Ending::Kqk, vs_computer::DEFAULT_SEED),
        krk: Rules {
            spare: 1,
            ..Rules::default_for(Ending::Krk, vs_computer::DEFAULT_SEED)
        },
    }
}

/// A new directory for something built once and shared by the tests of
/// this binary, removed when the binary exits.
///
/// A `TempDir` kept in a `static` is never dropped, so each run used to
/// leave its shared sites behind (up to 2 GB a run in `/tmp`, until a disk
/// filled up). These are removed by an `atexit` handler instead, and they
/// live in the target's own temporary folder, so even a killed run's go
/// with `cargo clean`.
pub fn shared_dir() -> PathBuf {
    static DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    static AT_EXIT: Once = Once::new();
    extern "C" fn remove_all() {
        for dir in DIRS.lock().unwrap_or_else(PoisonError::into_inner).iter() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    // SAFETY: `remove_all` is an `extern "C"` function that cannot unwind.
    AT_EXIT.call_once(|| assert_eq!(unsafe { libc::atexit(remove_all) }, 0));
    let dir = tempfile::Builder::new()
        .prefix("shared-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
        .keep();
    DIRS.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(dir.clone());
    dir
}

/// The site built once, shared by every test of this binary.
pub fn built() -> &'static Path {
    static SITE: OnceLock<PathBuf> = OnceLock::new();
    SITE.get_or_init(|| {
        let out = shared_dir().join("site");
        site::build(&options(&out)).unwrap();
        out
    })
}

/// A page read back: its links and images, in document order.
pub struct Page {
    pub path: PathBuf,
    pub doc: Html,
}

impl Page {
    pub fn read(path: &Path) -> Page {
        let text = std::fs::read_to_string(path).unwrap();
        Page {
            path: path.to_path_buf(),
            doc: Html::parse_document(&text),
        }
    }

    pub fn text(&self) -> String {
        self.doc.root_element().text().collect()
    }

    pub fn select(&self, css: &str) -> Vec<scraper::ElementRef<'_>> {
        let sel = Selector::parse(css).unwrap();
        self.doc.select(&sel).collect()
    }

    /// The first nine images: the squares. Returns each square's cell, read
    /// from the image file's first letter, and its link if it is in one.
    pub fn squares(&self) -> Vec<(Cell, Option<String>, String)> {
        let imgs = self.select("img");
        assert!(
            imgs.len() >= 9,
            "{}: fewer than nine images",
            self.path.display()
        );
        imgs[..9]
            .iter()
            .map(|img| {
                let src = img.value().attr("src").unwrap();
                let name = src.rsplit('/').next().unwrap();
                let cell = match name.as_bytes()[0] {
                    b'x' => Cell::Taken(Player::X),
                    b'o' => Cell::Taken(Player::O),
                    // Empty: plain, or an analysis verdict.
                    b'e' | b'w' | b'd' | b'l' => Cell::Empty,
                    _ => panic!("{}: unknown square image {src}", self.path.display()),
                };
                let link = img
                    .parent()
                    .and_then(scraper::ElementRef::wrap)
                    .filter(|p| p.value().name() == "a")
                    .and_then(|a| a.value().attr("href"))
                    .map(str::to_string);
                let alt = img.value().attr("alt").unwrap_or_default().to_string();
                (cell, link, alt)
            })
            .collect()
    }

    /// The board the squares show.
    pub fn board(&self) -> Board {
        let mut id = 0;
        for (cell, _, _) in self.squares() {
            id = id * 3
                + match cell {
                    Cell::Empty => 0,
                    Cell::Taken(Player::X) => 1,
                    Cell::Taken(Player::O) => 2,
                };
        }
        Board::from_id(id).unwrap()
    }

    /// Every `href` and `src` as written, resolved against the page's
    /// folder without its `#fragment`.
    pub fn references(&self) -> Vec<(String, PathBuf)> {
        let dir = self.path.parent().unwrap();
        let mut out = Vec::new();
        for el in self.select("[href], [src]") {
            for attr in ["href", "src"] {
                if let Some(v) = el.value().attr(attr) {
                    let file = v.split('#').next().unwrap();
                    let target = if file.is_empty() {
                        self.path.clone()
                    } else {
                        dir.join(file)
                    };
                    out.push((v.to_string(), target));
                }
            }
        }
        out
    }

    /// Whether an element has this id.
    pub fn has_id(&self, id: &str) -> bool {
        self.doc
            .root_element()
            .descendants()
            .filter_map(scraper::ElementRef::wrap)
            .any(|e| e.value().id() == Some(id))
    }
}

/// The id a page's file name names.
pub fn page_id(path: &Path) -> u32 {
    let stem = path.file_stem().unwrap().to_str().unwrap();
    u32::from_str_radix(stem, 16).unwrap()
}

/// The web pages below `dir`: every `.html` file but the single-file
/// books in `ebooks/`, which are Kindle sources, not web pages.
pub fn web_pages_in(dir: &Path) -> BTreeSet<PathBuf> {
    pages_in(dir)
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "ebooks"))
        .collect()
}

/// Every `.html` file below `dir`.
pub fn pages_in(dir: &Path) -> BTreeSet<PathBuf> {
    walk(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect()
}

/// Every file below `dir`, sorted.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect()
}

/// What the crawl keeps of a page: its references, the ids its elements
/// have, and how many scripts it holds. Not the page itself: a site's
/// tens of thousands of parsed documents took 2 GB, and looking an id up
/// by walking the target's elements took most of two minutes.
pub struct Crawled {
    pub references: Vec<(String, PathBuf)>,
    pub ids: std::collections::HashSet<String>,
    pub scripts: usize,
}

impl Crawled {
    fn of(page: &Page) -> Crawled {
        let ids = (page.doc.root_element().descendants())
            .filter_map(scraper::ElementRef::wrap)
            .filter_map(|e| e.value().id().map(str::to_string))
            .collect();
        Crawled {
            references: page.references(),
            ids,
            scripts: page.select("script").len(),
        }
    }
}

/// Every page reachable from `start` by following links, with what the
/// tests read of it ([`Crawled`]), keyed by normalised path.
pub fn crawl(start: &Path) -> BTreeMap<PathBuf, Crawled> {
    let mut seen = BTreeMap::new();
    let mut queue = VecDeque::from([normalise(start)]);
    while let Some(p) = queue.pop_front() {
        if seen.contains_key(&p) || p.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let page = Crawled::of(&Page::read(&p));
        for (_, target) in &page.references {
            let t = normalise(target);
            if !seen.contains_key(&t) {
                queue.push_back(t);
            }
        }
        seen.insert(p, page);
    }
    seen
}

/// Removes `.` and `..` parts without touching the disk.
pub fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// The square of an index.
/// A board's page name: its id in hex and `.html`.
pub fn page_name(board: Board) -> String {
    tictactoe_book::screen::page_name(board.id())
}

/// A board's anchor: its id in hex.
pub fn anchor(board: Board) -> String {
    tictactoe_book::screen::Target::page(board.id()).anchor()
}

pub fn sq(i: usize) -> Square {
    Square::new(i).unwrap()
}

/// A built file's bytes; of the marker, only its list, as the time the
/// build wrote the site, and the check over it, differ from build to build.
pub fn contents(p: &Path) -> Vec<u8> {
    let bytes = std::fs::read(p).unwrap();
    if p.file_name() != Some(std::ffi::OsStr::new(tictactoe_book::output::MARKER)) {
        return bytes;
    }
    let text = String::from_utf8(bytes).unwrap();
    text.split_once("\nmade:\n").unwrap().1.as_bytes().to_vec()
}
