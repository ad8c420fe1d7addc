//! The screen model: what one position's page says and links to, shared
//! by every edition (two-player, vs-computer, analysis) and every format
//! (web pages, MOBI, EPUB, Kindle HTML). A screen is a grid of cells whose
//! shape comes from the game; past [`Screen::new`], nothing here knows
//! which game it is.
//!
//! Invariants: an [`Edition`] is complete before any format sees it; every
//! [`Link::Here`] names a screen of the same edition (or its contents), so
//! formats only lay out and never decide what links where; pages and
//! anchors are named by [`push_key`] alone.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::hash::BuildHasher as _;
use std::sync::{LazyLock, Mutex, OnceLock, PoisonError};
use std::thread::LocalKey;

use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};

use crate::game::{Game, Note, Texts, UnderBoard, Verdict};
use crate::output::OutFile;
use crate::view::{Choice, View};

mod cells;

pub use cells::{Cells, Iter as CellIter, Rows as CellRows};

/// The one function that names a page: a page's key in lower-case hex
/// without leading zeros (the 2009 post's anchors), onto `out`. The page
/// is that and `.html`; the anchor in a single-file book is that. A page
/// key has 64 bits: a game's key, which may count moves too, has 32, and
/// a page against the computer carries the reply that reached it, 16
/// bits, above them (so a cell's link holds any in 48: [`CellView`]).
pub fn push_key(out: &mut String, key: u64) {
    // By hand, not `write!`: every link of every page and book names one.
    for d in (0..hex_digits(key)).rev() {
        out.push(char::from(
            b"0123456789abcdef"[(key >> (4 * d) & 0xf) as usize],
        ));
    }
}

/// How many hex digits [`push_key`] writes for `key` (one for 0).
fn hex_digits(key: u64) -> u32 {
    (64 - (key | 1).leading_zeros()).div_ceil(4)
}

/// A page's name, onto `out`: [`push_key`] and `.html`.
pub fn push_page_name(out: &mut String, key: impl Into<u64>) {
    push_key(out, key.into());
    out.push_str(".html");
}

/// A page's name: `0.html`, `1a2b.html`.
pub fn page_name(key: impl Into<u64>) -> String {
    let mut out = String::with_capacity(10);
    push_page_name(&mut out, key);
    out
}

/// Where a link inside one edition goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// The edition's opening: the home page's section on the web, the
    /// rules and contents page in a book.
    Contents,
    /// A position of a game (0 in editions with one game).
    Page {
        /// The game, numbered from 1; 0 in editions with one game.
        game: u16,
        /// The page's key ([`push_key`]).
        key: u64,
    },
}

impl Target {
    /// A page of an edition with one game.
    pub fn page(key: impl Into<u64>) -> Target {
        Target::Page {
            game: 0,
            key: key.into(),
        }
    }

    /// The game a target belongs to: 0 for the contents and for editions
    /// with one game.
    pub fn game(self) -> u16 {
        match self {
            Target::Page { game, .. } => game,
            Target::Contents => 0,
        }
    }

    /// The anchor name in a single-file book: the key in hex (`1a2b`),
    /// prefixed with the game for editions with many (`g3-1a2b`).
    pub fn anchor(self) -> String {
        let mut out = String::with_capacity(12);
        self.push_anchor(&mut out);
        out
    }

    /// The length of [`Target::anchor`], without writing it.
    pub fn anchor_len(self) -> usize {
        let hex = |key: u64| hex_digits(key) as usize;
        match self {
            Target::Contents => "contents".len(),
            Target::Page { game: 0, key } => hex(key),
            Target::Page { game, key } => 2 + game.to_string().len() + hex(key),
        }
    }

    /// [`Target::anchor`], onto `out`, without an allocation of its own:
    /// the books write one for every link.
    pub fn push_anchor(self, out: &mut String) {
        use std::fmt::Write as _;
        match self {
            Target::Contents => out.push_str("contents"),
            Target::Page { game: 0, key } => push_key(out, key),
            Target::Page { game, key } => {
                out.push('g');
                let _ = write!(out, "{game}");
                out.push('-');
                push_key(out, key);
            }
        }
    }
}

/// A link below a heading or a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Link {
    /// A screen of this edition, or its contents: every format has it.
    Here(Target),
    /// A screen of this edition that only the web links to. A book shares
    /// screens that are the same in every game (see
    /// [`Edition::for_books`]), so a shared screen cannot say which game
    /// to go back to.
    Web(Target),
    /// The same view (its page key) in the edition with this slug: web
    /// pages only, since each book holds one edition.
    Across(&'static str, u64),
    /// A file beside this edition's web pages: web pages only.
    File(&'static str),
}

/// One cell as a screen shows it: where it leads, and how it looks.
///
/// A cell is 16 bytes, its link packed and its look shared: nearly all
/// of a chess edition's cells are a few dozen looks (an empty square, a
/// king), and holding each cell's words whole cost about 100 MB a build.
/// A screen holds its cells packed smaller still ([`Cells`]), and gives
/// them back as these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellView {
    /// Where selecting it leads ([`CellView::link`]), packed: a page's
    /// game above its key's 48 bits, or one of two values no page takes.
    link: u64,
    /// Its picture and words, the same value for every cell that looks
    /// and reads alike ([`Look::interned`]).
    pub look: &'static Look,
}

/// A cell's link as [`CellView`] packs it.
///
/// # Panics
/// If a page's key does not fit in 48 bits.
fn pack_link(link: Option<Target>) -> u64 {
    match link {
        None => NO_LINK,
        Some(Target::Contents) => TO_CONTENTS,
        Some(Target::Page { game, key }) => {
            assert!(key < (1 << 48) - 2, "a page key of 48 bits");
            u64::from(game) << 48 | key
        }
    }
}

/// A link [`pack_link`] packed, as it was.
fn unpack_link(packed: u64) -> Option<Target> {
    match packed {
        NO_LINK => None,
        TO_CONTENTS => Some(Target::Contents),
        packed => Some(Target::Page {
            game: (packed >> 48) as u16,
            key: packed & ((1 << 48) - 1),
        }),
    }
}

/// A packed link to nowhere, and to the contents.
const NO_LINK: u64 = u64::MAX;
const TO_CONTENTS: u64 = u64::MAX - 1;

impl CellView {
    /// A cell linking to `link`, looking as `look` says.
    ///
    /// # Panics
    /// If a page's key does not fit in 48 bits: a game's key has 32, and
    /// a reply against the computer 16 above them.
    pub fn new(link: Option<Target>, look: &'static Look) -> CellView {
        CellView {
            link: pack_link(link),
            look,
        }
    }

    /// Where selecting it leads, if anywhere.
    pub fn link(&self) -> Option<Target> {
        unpack_link(self.link)
    }

    /// The cell linking to `link` instead.
    pub fn with_link(self, link: Option<Target>) -> CellView {
        CellView::new(link, self.look)
    }
}

/// How a cell looks and what it says, apart from where it leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Look {
    /// Its image: an index into the edition's [`Edition::images`] list.
    pub image: usize,
    /// What a screen reader says, such as "top left: place X": one of a
    /// few dozen fixed phrases, or one made for this cell (the analysis
    /// adds the verdict).
    pub label: &'static str,
    /// What the cell holds, as a screen reader says it with no move in
    /// mind ("top left: empty"): the print format says this and the page
    /// to turn to.
    pub holds: &'static str,
    /// What the move is worth, in the analysis edition.
    pub note: Option<Note>,
}

impl Look {
    /// The one shared copy of this look, made the first time any screen
    /// asks for it. Looks are kept for the life of the process: there are
    /// as many as a game has ways to draw and name a cell (a few thousand
    /// for a chess analysis), however many screens show them, so memory
    /// follows the games built, never a book's size.
    pub fn interned(self) -> &'static Look {
        /// A look by where its words are, not what they say: the same
        /// `&'static` words are the same words, so a screen's 72 cells
        /// are found without hashing or comparing a string.
        #[derive(PartialEq, Eq)]
        struct ByAddress(usize, *const u8, usize, *const u8, usize, Option<Note>);
        impl std::hash::Hash for ByAddress {
            /// One word: the image, where the words are and the note
            /// tell looks apart all but always (equality compares the
            /// rest). Hashing each field, a word or a byte at a time,
            /// took 1% of a build.
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                let note = self.5.map_or(0, |n| {
                    let (kind, moves) = match n.verdict {
                        Verdict::Win(m) => (1, m),
                        Verdict::Draw => (2, 0),
                        Verdict::Loss(m) => (3, m),
                    };
                    kind << 17 | u64::from(moves) << 1 | u64::from(n.best)
                });
                state.write_u64(
                    self.0 as u64
                        ^ (self.1 as u64).rotate_left(12)
                        ^ (self.3 as u64).rotate_left(32)
                        ^ note << 44,
                );
            }
        }
        thread_local! {
            static BY_ADDRESS: RefCell<FxHashMap<ByAddress, &'static Look>> =
                RefCell::default();
            static NEAR: RefCell<FxHashSet<&'static Look>> = RefCell::default();
        }
        static ALL: LazyLock<Mutex<FxHashSet<&'static Look>>> = LazyLock::new(Mutex::default);
        let (label, holds) = (self.label, self.holds);
        let key = ByAddress(
            self.image,
            label.as_ptr(),
            label.len(),
            holds.as_ptr(),
            holds.len(),
            self.note,
        );
        if let Some(found) = BY_ADDRESS.with_borrow(|m| m.get(&key).copied()) {
            return found;
        }
        let found = kept(&NEAR, &ALL, &self, || Box::leak(Box::new(self)));
        BY_ADDRESS.with_borrow_mut(|m| m.insert(key, found));
        found
    }

    /// This look with other words, each kept once for the process, as
    /// [`Look::interned`] keeps looks.
    pub fn with_words(self, label: Cow<'static, str>, holds: Cow<'static, str>) -> Look {
        Look {
            label: words(label),
            holds: words(holds),
            ..self
        }
    }
}

/// `text` as a `&'static str`: as it is if it is one, else the one copy
/// kept of those words (the analysis makes a label a cell, from a few
/// thousand different ones).
fn words(text: Cow<'static, str>) -> &'static str {
    thread_local! {
        static NEAR: RefCell<FxHashSet<&'static str>> = RefCell::default();
    }
    static ALL: LazyLock<Mutex<FxHashSet<&'static str>>> = LazyLock::new(Mutex::default);
    match text {
        Cow::Borrowed(text) => text,
        Cow::Owned(text) => kept(&NEAR, &ALL, &text, || text.clone().leak()),
    }
}

/// The one `&'static` copy of `value` in `all`, made by `keep` the first
/// time any thread asks. Each thread looks in its own table, `near`,
/// first, so the shared one, behind a lock, is asked once a thread a
/// value.
fn kept<S: ?Sized + Eq + std::hash::Hash>(
    near: &'static LocalKey<RefCell<FxHashSet<&'static S>>>,
    all: &Mutex<FxHashSet<&'static S>>,
    value: &S,
    keep: impl FnOnce() -> &'static S,
) -> &'static S {
    if let Some(found) = near.with_borrow(|near| near.get(value).copied()) {
        return found;
    }
    let found = {
        let mut all = all.lock().unwrap_or_else(PoisonError::into_inner);
        match all.get(value) {
            Some(&found) => found,
            None => {
                let made = keep();
                all.insert(made);
                made
            }
        }
    };
    near.with_borrow_mut(|near| near.insert(found));
    found
}

/// One position's screen: a page on the web, a page in a book.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Screen {
    /// This screen's own address.
    pub target: Target,
    /// The position in words, for a page's title and screen readers.
    pub title: String,
    /// "X to move", "You win", ...
    pub heading: String,
    /// Lines of text after the heading ("The computer took the top right
    /// square. Game 3, medium.").
    pub lines: Vec<String>,
    /// The cells in reading order, [`Screen::columns`] to a row.
    pub cells: Cells,
    /// Cells in a row.
    pub columns: usize,
    /// Whether the game is over.
    pub over: bool,
    /// The fewest moves from the start to this screen's position (a
    /// piece picked up is at its position's depth): books merge screens
    /// from the deepest up ([`Edition::for_books`]).
    pub depth: u32,
    /// Links such as "New game". Books show them once the game is over,
    /// and only [`Link::Here`] ones.
    pub nav: Vec<(Link, &'static str)>,
}

impl Screen {
    /// A screen of `view`, `depth` moves into its game, at `target`: each
    /// cell as the game draws it, and each cell a choice is made on
    /// ([`View::choices`]: a move, or picking a piece up or putting it
    /// back) linking where `link` says, labelled with what it does.
    pub fn new<G: Game>(
        target: Target,
        view: View<G>,
        depth: u32,
        heading: String,
        link: impl Fn(Choice<G::Move>) -> Option<Target>,
    ) -> Screen {
        Screen::edited(target, view, depth, heading, link, |_| {})
    }

    /// [`Screen::new`], its cells changed by `edit` before they are
    /// packed ([`Cells`]): an edition that marks cells (the analysis's
    /// verdicts, the computer's last move) packs each screen once.
    pub fn edited<G: Game>(
        target: Target,
        view: View<G>,
        depth: u32,
        heading: String,
        link: impl Fn(Choice<G::Move>) -> Option<Target>,
        edit: impl FnOnce(&mut [CellView]),
    ) -> Screen {
        let position = view.position;
        let over = position.is_over();
        let (rows, columns) = position.grid();
        let mut links: Vec<Option<Target>> = vec![None; rows * columns];
        for (cell, choice) in view.choices() {
            links[cell] = link(choice);
        }
        let mut cells: Vec<CellView> = links
            .into_iter()
            .enumerate()
            .map(|(index, link)| {
                let face = view.face(index);
                let label = match (link, face.action) {
                    (Some(_), Some(said)) => said,
                    _ => face.label.clone(),
                };
                let look = Look {
                    image: face.image,
                    label: "",
                    holds: "",
                    note: None,
                };
                CellView::new(link, look.with_words(label, face.label).interned())
            })
            .collect();
        edit(&mut cells);
        // Written into the thread's scratch and copied at its length (an
        // edition holds every screen's title): one allocation, where a
        // string made roomy and shrunk took two.
        thread_local! {
            static SCRATCH: Cell<String> = const { Cell::new(String::new()) };
        }
        let mut scratch = SCRATCH.take();
        scratch.clear();
        view.push_title(&mut scratch);
        let title = String::from(scratch.as_str());
        SCRATCH.set(scratch);
        Screen {
            target,
            title,
            heading,
            lines: position.remark().into_iter().map(Cow::into_owned).collect(),
            cells: Cells::new(&cells, columns),
            columns,
            over,
            depth,
            nav: Vec::new(),
        }
    }

    /// The cells in rows, top row first.
    pub fn rows(&self) -> CellRows<'_> {
        self.cells.rows()
    }

    /// The nav links a book shows: those inside the edition, once the game
    /// is over.
    pub fn book_nav(&self) -> impl Iterator<Item = (Target, &'static str)> + '_ {
        self.nav.iter().filter_map(move |(link, words)| match link {
            Link::Here(t) if self.over => Some((*t, *words)),
            _ => None,
        })
    }
}

/// A whole edition: its screens in book order, and what the home page and
/// the book's opening page say of it.
#[derive(Clone, Debug)]
pub struct Edition {
    /// Its web folder and the stem of its books' names: `two-player`.
    pub slug: &'static str,
    /// Its name on the home page, in its list, its section and its books'
    /// line, the game named: "Tic-tac-toe for two players".
    pub name: String,
    /// The books' title.
    pub title: String,
    /// The game's words: its title, the stem of its books' names, its
    /// rules.
    pub texts: Texts,
    /// The images cells can show (and the picture under the board), as
    /// the game lists them.
    pub images: &'static [&'static str],
    /// What it is, for the home page and the book's opening page.
    pub about: &'static str,
    /// Where to start: a line and the screen it leads to.
    pub contents: Vec<(String, Target)>,
    /// Every screen, in book order.
    pub screens: Vec<Screen>,
    /// Files beside the web pages, such as `positions.json`.
    pub files: Vec<OutFile>,
    /// Each board's height over its width ([`Game::aspect`]); every board
    /// of an edition has the same shape.
    ///
    /// [`Game::aspect`]: crate::game::Game::aspect
    pub aspect: f64,
    /// Whether each move is a whole column ([`Game::COLUMN_MOVES`]).
    ///
    /// [`Game::COLUMN_MOVES`]: crate::game::Game::COLUMN_MOVES
    pub column_moves: bool,
    /// How many times its pictures' shape the EPUB and the KF8 part draw
    /// the board's height ([`Game::BOOK_STRETCH`]).
    ///
    /// [`Game::BOOK_STRETCH`]: crate::game::Game::BOOK_STRETCH
    pub book_stretch: u32,
    /// The picture its bottom row stands on in a book of pictures at
    /// their own size ([`Game::UNDER_BOARD`]).
    ///
    /// [`Game::UNDER_BOARD`]: crate::game::Game::UNDER_BOARD
    pub under: Option<UnderBoard>,
    /// Whether it is made for paper alone: no web pages, and a PDF as its
    /// only book (the gamebook).
    pub print_only: bool,
    /// Whether its books answer to the large budgets
    /// ([`crate::game::Game::LARGE_BOOKS`]).
    pub large_books: bool,
    /// [`Edition::used_images`], found the first time a format asks.
    /// Invariant: the screens do not change once it is found.
    pub(crate) used: OnceLock<Vec<&'static str>>,
}

impl Edition {
    /// An edition of game `G` at `slug` with what every edition of it
    /// shares: the game's words, pictures and shape, from its module, and
    /// its boards' aspect, from `start`. Its names, words, contents and
    /// screens are its own, set over these (`Edition { screens,
    /// ..Edition::of(slug, start) }`); it has no files beside its pages,
    /// and is not for paper alone.
    pub fn of<G: Game>(slug: &'static str, start: G) -> Edition {
        Edition {
            slug,
            name: String::new(),
            title: String::new(),
            texts: G::TEXTS,
            images: G::IMAGES,
            about: "",
            contents: Vec::new(),
            screens: Vec::new(),
            files: Vec::new(),
            aspect: start.aspect(),
            column_moves: G::COLUMN_MOVES,
            book_stretch: G::BOOK_STRETCH,
            under: G::UNDER_BOARD,
            print_only: false,
            large_books: G::LARGE_BOOKS,
            used: OnceLock::new(),
        }
    }

    /// The web folder of a game: `two-player`, `vs-computer/3`.
    pub fn web_dir(&self, game: u16) -> String {
        let mut out = String::with_capacity(16);
        self.push_web_dir(&mut out, game);
        out
    }

    /// [`Edition::web_dir`], onto `out`.
    pub fn push_web_dir(&self, out: &mut String, game: u16) {
        use std::fmt::Write as _;
        out.push_str(self.slug);
        if game != 0 {
            let _ = write!(out, "/{game}");
        }
    }

    /// The stem of the books' file names: `tictactoe-two-player`.
    pub fn book_stem(&self) -> String {
        format!("{}-{}", self.texts.stem, self.slug)
    }

    /// Its books' cover, its title over its game's picture
    /// ([`crate::assets::COVERS`], by its books' stem).
    pub fn cover(&self) -> &'static str {
        crate::assets::cover_of(&self.book_stem())
    }

    /// The name of a cell's image, without extension.
    pub fn image(&self, cell: &CellView) -> &'static str {
        self.images[cell.look.image]
    }

    /// The images the screens use, in the game's order: found once, as
    /// every format asks and an image no screen uses means reading every
    /// cell of every screen, megabytes scattered over the heap (2% of a
    /// default build, when each format looked again).
    pub fn used_images(&self) -> &[&'static str] {
        self.used.get_or_init(|| self.find_used_images())
    }

    /// [`Edition::used_images`], looked for: the look stops once every
    /// image is found, as it mostly is within a few screens.
    fn find_used_images(&self) -> Vec<&'static str> {
        let mut used = vec![false; self.images.len()];
        let mut missing = used.len();
        for c in self.screens.iter().flat_map(|s| s.cells.iter()) {
            if !std::mem::replace(&mut used[c.look.image], true) {
                missing -= 1;
                if missing == 0 {
                    break;
                }
            }
        }
        self.images
            .iter()
            .zip(used)
            .filter(|(_, u)| *u)
            .map(|(n, _)| *n)
            .collect()
    }

    /// The edition as a book shows it: the nav a book keeps (links of
    /// the edition, once a game is over), and each set of identical
    /// screens as one screen. Screens are identical when their cells,
    /// words and links are, links compared after merging; so two games
    /// that end alike share their last pages (when their screens do not
    /// name their game). Where every cell link leads
    /// one move deeper (as in tic-tac-toe), one pass from the deepest
    /// screens up finds every merge; elsewhere it may find fewer, never a
    /// wrong one.
    ///
    /// An edition of one game holds each position once, so nothing merges and
    /// it is its own book, as is one where nothing merges (formats keep
    /// only [`Screen::book_nav`]).
    pub fn for_books(&self) -> Cow<'_, Edition> {
        let one_game = self.screens.iter().all(|s| s.target.game() == 0);
        if one_game {
            return Cow::Borrowed(self);
        }
        let mut order: Vec<usize> = (0..self.screens.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.screens[i].depth));
        let mut merged: FxHashMap<Target, Target> = FxHashMap::default();
        // Screen `i` with the book's nav, its links following `merged`.
        let in_book = |i: usize, merged: &FxHashMap<Target, Target>| {
            let old = &self.screens[i];
            let follow = |t: Target| merged.get(&t).copied().unwrap_or(t);
            let mut s = old.clone();
            s.nav = old
                .book_nav()
                .map(|(t, words)| (Link::Here(follow(t)), words))
                .collect();
            s.cells.map_links(follow);
            s
        };
        // As books compare it: its target cleared too.
        let as_compared = |i: usize, merged: &FxHashMap<Target, Target>| Screen {
            target: Target::Contents,
            ..in_book(i, merged)
        };
        // The screens kept, by the hash of how they compare; a kept one is
        // made again to compare it, so no copy of the edition is held
        // while nothing merges.
        let mut kept = vec![false; self.screens.len()];
        let mut seen: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
        for i in order {
            let s = as_compared(i, &merged);
            let same = seen.entry(FxBuildHasher.hash_one(&s)).or_default();
            match same.iter().find(|&&j| as_compared(j, &merged) == s) {
                Some(&j) => {
                    merged.insert(self.screens[i].target, self.screens[j].target);
                }
                None => {
                    same.push(i);
                    kept[i] = true;
                }
            }
        }
        if merged.is_empty() {
            // Formats keep only the book's nav of each screen.
            return Cow::Borrowed(self);
        }
        // Links follow every merge, those made after the linking screen was
        // looked at (only ever a nav link back up) too.
        let follow = |t: Target| merged.get(&t).copied().unwrap_or(t);
        let kept: Vec<Screen> = (0..self.screens.len())
            .filter(|&i| kept[i])
            .map(|i| in_book(i, &merged))
            .collect();
        Cow::Owned(Edition {
            slug: self.slug,
            name: self.name.clone(),
            title: self.title.clone(),
            texts: self.texts,
            images: self.images,
            about: self.about,
            contents: self
                .contents
                .iter()
                .map(|(line, t)| (line.clone(), follow(*t)))
                .collect(),
            screens: kept,
            files: Vec::new(),
            aspect: self.aspect,
            column_moves: self.column_moves,
            book_stretch: self.book_stretch,
            under: self.under,
            print_only: self.print_only,
            large_books: self.large_books,
            used: OnceLock::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_lower_case_hex_without_leading_zeros() {
        let mut out = String::new();
        let edges = (0..64).flat_map(|b| [1u64 << b, (1u64 << b) - 1, (1u64 << b) + 1]);
        for key in (0..70_000).chain(edges).chain([u64::MAX, 0xdead_beef]) {
            out.clear();
            push_key(&mut out, key);
            assert_eq!(out, format!("{key:x}"));
        }
    }

    /// A cell's packed link reads back as it was given, at the edges of
    /// the games and keys it holds.
    #[test]
    fn a_cells_link_reads_back_as_given() {
        let look = Look {
            image: 0,
            label: "a",
            holds: "a",
            note: None,
        }
        .interned();
        let links = [
            None,
            Some(Target::Contents),
            Some(Target::page(0u32)),
            Some(Target::page(u32::MAX)),
            Some(Target::page((1u64 << 48) - 3)),
            Some(Target::Page {
                game: 7,
                key: 0x1_0000_0000,
            }),
            Some(Target::Page {
                game: u16::MAX,
                key: (1 << 48) - 3,
            }),
        ];
        for link in links {
            let cell = CellView::new(link, look);
            assert_eq!(cell.link(), link);
            assert_eq!(cell.with_link(None).link(), None);
        }
        assert_eq!(std::mem::size_of::<CellView>(), 16);
    }

    #[test]
    fn page_names_and_anchors_are_the_key_in_hex() {
        assert_eq!(page_name(0u32), "0.html");
        assert_eq!(page_name(0x19a1u32), "19a1.html");
        assert_eq!(Target::page(0x53u32).anchor(), "53");
        assert_eq!(
            Target::Page {
                game: 3,
                key: 0x1a2b
            }
            .anchor(),
            "g3-1a2b"
        );
        assert_eq!(Target::Contents.anchor(), "contents");
        for t in [
            Target::Contents,
            Target::page(0u32),
            Target::page(0xfu32),
            Target::page(0x10u32),
            Target::page(u32::MAX),
            Target::page(u64::MAX),
            Target::Page { game: 9, key: 0 },
            Target::Page {
                game: 10,
                key: 0x1a2b,
            },
            Target::Page {
                game: u16::MAX,
                key: 0x100,
            },
        ] {
            assert_eq!(t.anchor_len(), t.anchor().len(), "{t:?}");
        }
    }
}
