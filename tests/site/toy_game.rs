//! A third game proves the seam: Nim with heaps of 1, 2 and 3 tokens,
//! written here against the library's public API alone. The two-player
//! and analysis editions make its screens and the web and EPUB writers
//! render them, with no change to any of them; the tests read the pages
//! and the book back and check every cell against the game.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read as _;

use scraper::{ElementRef, Html, Selector};
use tictactoe_book::assets::Assets;
use tictactoe_book::ebook::{Book, epub};
use tictactoe_book::editions::{analysis, two_player};
use tictactoe_book::game::{Face, Game, Note, Outcome, Side, Texts};
use tictactoe_book::graph::StateGraph;
use tictactoe_book::html;
use tictactoe_book::screen::{Edition, page_name};
use tictactoe_book::solver::Solver;

use crate::common::repo;

/// Nim: heaps of tokens, one heap a row; a move takes one or more tokens
/// from one heap, and whoever takes the last token wins. Selecting token
/// `k` of a heap keeps the `k` before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Nim {
    heaps: [u8; 3],
    second: bool,
}

/// The tokens a heap starts with: heap `h` holds at most `h + 1`.
const START: [u8; 3] = [1, 2, 3];

/// A move in words, by the cell that makes it: `h * 3 + k` is token `k`
/// of heap `h`, and selecting it keeps the `k` tokens before it.
const MOVES: [&str; 9] = [
    "heap 1, down to 0",
    "heap 1, down to 1",
    "heap 1, down to 2",
    "heap 2, down to 0",
    "heap 2, down to 1",
    "heap 2, down to 2",
    "heap 3, down to 0",
    "heap 3, down to 1",
    "heap 3, down to 2",
];

impl Nim {
    fn at(self, index: usize) -> (usize, u8) {
        (index / 3, (index % 3) as u8)
    }
}

impl Game for Nim {
    /// The heap and how many tokens it keeps.
    type Move = (usize, u8);
    type Rules = ();
    type Error = String;

    const PLAYERS: u8 = 2;
    // Tic-tac-toe's drawings stand in: an empty place, a token, a token
    // whose move is best.
    const IMAGES: &'static [&'static str] = &["e", "x", "o"];
    const KEYS: u32 = 128;
    const TEXTS: Texts = Texts {
        title: "Nim",
        stem: "nim",
        rules: "Take one or more tokens from one heap; whoever takes the last token wins.",
        paper_rules: "Take one or more tokens from one heap; whoever takes the last token wins.",
        play_about: "Play with a friend: take turns taking tokens.",
        play_start: "Start a game",
        analysis_about: "Every heap says what taking from it is worth.",
        analysis_start: "Start from the full heaps",
        play_name: "Two players",
        play_title: "Nim for Two Players",
        analysis_name: "Analysis",
        again: "New game",
    };

    fn start((): ()) -> Nim {
        Nim {
            heaps: START,
            second: false,
        }
    }

    fn moves(self) -> impl Iterator<Item = (usize, u8)> {
        (0..3).flat_map(move |h| (0..self.heaps[h]).map(move |k| (h, k)))
    }

    fn play(self, (h, keep): (usize, u8)) -> Result<Nim, String> {
        if h >= 3 || keep >= self.heaps[h] {
            return Err(format!("heap {h} cannot keep {keep}"));
        }
        let mut next = self;
        next.heaps[h] = keep;
        next.second = !self.second;
        Ok(next)
    }

    fn mover(self) -> Side {
        if self.second {
            Side::Second
        } else {
            Side::First
        }
    }

    fn outcome(self) -> Option<Outcome> {
        (self.heaps == [0; 3]).then(|| Outcome::Won(self.mover().opponent()))
    }

    fn key(self) -> u32 {
        let [a, b, c] = self.heaps.map(u32::from);
        (a * 16 + b * 4 + c) * 2 + u32::from(self.second)
    }

    fn grid(self) -> (usize, usize) {
        (3, 3)
    }

    fn face(self, _: Option<usize>, index: usize) -> Face {
        let (h, k) = self.at(index);
        if k < self.heaps[h] {
            let take = self.heaps[h] - k;
            Face {
                image: 1,
                label: Cow::Owned(format!("heap {}: a token", h + 1)),
                action: Some(Cow::Owned(format!("heap {}: take {take}", h + 1))),
            }
        } else {
            Face {
                image: 0,
                label: Cow::Owned(format!("heap {}: empty", h + 1)),
                action: None,
            }
        }
    }

    fn noted_image(self, _: Option<usize>, _: usize, note: Note) -> usize {
        if note.best { 2 } else { 1 }
    }

    fn cell((h, k): (usize, u8)) -> usize {
        h * 3 + usize::from(k)
    }

    fn move_name(mov: (usize, u8)) -> &'static str {
        MOVES[<Nim as Game>::cell(mov)]
    }

    fn cell_name(cell: usize) -> &'static str {
        MOVES[cell]
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "A",
            Side::Second => "B",
        }
    }

    fn heading(self, _: Option<usize>) -> String {
        match self.outcome() {
            Some(Outcome::Won(w)) => format!("{} wins", Self::side_name(w)),
            Some(Outcome::Draw | Outcome::Solved) => "Draw".to_string(),
            None => format!("{} to move", Self::side_name(self.mover())),
        }
    }

    fn push_title(self, _: Option<usize>, out: &mut String) {
        out.push_str(&self.heading(None));
        out.push_str(&format!(" - Nim {}", self.text(None)));
    }

    fn remark(self) -> Option<std::borrow::Cow<'static, str>> {
        None
    }

    fn text(self, _: Option<usize>) -> String {
        self.heaps.iter().map(|h| h.to_string()).collect()
    }
}

/// Every position from its key, brute force: the key's inverse.
fn position(key: u32) -> Nim {
    let second = key % 2 == 1;
    let h = key / 2;
    Nim {
        heaps: [(h / 16) as u8, (h / 4 % 4) as u8, (h % 4) as u8],
        second,
    }
}

/// Nim's known answer: the side to move loses exactly when the heaps'
/// nim-sum (their XOR) is zero.
fn mover_loses(p: Nim) -> bool {
    p.heaps.iter().fold(0, |x, h| x ^ h) == 0
}

/// A plain negamax, independent of the solver: positive when the side to
/// move wins, 100 less the plies to the end with best play.
fn negamax(p: Nim) -> i32 {
    if p.heaps == [0; 3] {
        return -100;
    }
    p.moves().map(|m| after(p, m)).max().unwrap()
}

/// What move `m` on `p` is worth to the side making it.
fn after(p: Nim, m: (usize, u8)) -> i32 {
    let v = negamax(p.play(m).unwrap());
    -(v - v.signum())
}

fn editions() -> (Edition, Edition, Assets) {
    let solver = Solver::new(StateGraph::<Nim>::new());
    let plain = two_player::edition("nim", solver.graph(), Some("nim-analysis"));
    let analysed = analysis::edition("nim-analysis", &solver, "nim");
    let assets = Assets::load(&repo().join("static"), Nim::IMAGES).unwrap();
    (plain, analysed, assets)
}

/// One cell as a page shows it: its image, link and label.
fn cells(doc: &Html, root: Option<ElementRef<'_>>) -> Vec<(String, Option<String>, String)> {
    let img = Selector::parse("img").unwrap();
    let imgs: Vec<ElementRef<'_>> = match root {
        Some(r) => r.select(&img).collect(),
        None => doc.select(&img).collect(),
    };
    imgs.iter()
        .map(|i| {
            let src = i.value().attr("src").unwrap();
            let stem = src.split('.').next().unwrap().to_string();
            let link = i
                .parent()
                .and_then(ElementRef::wrap)
                .filter(|a| a.value().name() == "a")
                .and_then(|a| a.value().attr("href"))
                .map(str::to_string);
            (stem, link, i.value().attr("alt").unwrap().to_string())
        })
        .collect()
}

/// What every cell of `p` must show: its image, where it links (the
/// key of the position after the move) and its label's start.
fn expected(p: Nim, analysed: bool) -> Vec<(&'static str, Option<u32>, String)> {
    (0..9)
        .map(|i| {
            let (h, k) = (i / 3, (i % 3) as u8);
            if k >= p.heaps[h] {
                return ("e", None, format!("heap {}: empty", h + 1));
            }
            let next = p.play((h, k)).unwrap();
            let worth = after(p, (h, k));
            let best = p.moves().map(|m| after(p, m)).max() == Some(worth);
            let image = if analysed && best { "o" } else { "x" };
            let mut label = format!("heap {}: take {}", h + 1, p.heaps[h] - k);
            if analysed {
                // The known answer and the search agree.
                assert_eq!(worth > 0, mover_loses(next), "{p:?} {i}");
                label += if worth > 0 { ", win in" } else { ", loss in" };
            }
            (image, Some(next.key()), label)
        })
        .collect()
}

fn check(
    p: Nim,
    got: &[(String, Option<String>, String)],
    analysed: bool,
    href: impl Fn(u32) -> String,
) {
    assert_eq!(got.len(), 9, "{p:?}");
    for (i, ((stem, link, alt), (image, next, label))) in
        got.iter().zip(expected(p, analysed)).enumerate()
    {
        assert_eq!(stem, image, "{p:?} cell {i}");
        assert_eq!(link.clone(), next.map(&href), "{p:?} cell {i}");
        assert!(alt.starts_with(&label), "{p:?} cell {i}: {alt} / {label}");
    }
}

/// Both editions' web pages, read back: a page for every reachable
/// position and nothing else, each cell as the game says, and every
/// position reached from the start by the pages' own links.
#[test]
fn nim_renders_to_web_pages_that_play_it() {
    let (plain, analysed, assets) = editions();
    for (edition, is_analysis) in [(&plain, false), (&analysed, true)] {
        let files: BTreeMap<String, Vec<u8>> = html::render(edition, &assets)
            .into_iter()
            .map(|f| (f.path, f.bytes))
            .collect();
        let dir = edition.slug;
        let mut reached = BTreeSet::new();
        let mut stack = vec![Nim::start(()).key()];
        while let Some(key) = stack.pop() {
            if !reached.insert(key) {
                continue;
            }
            let path = format!("{dir}/{}", page_name(key));
            let text = String::from_utf8(files[&path].clone()).unwrap();
            let doc = Html::parse_document(&text);
            let p = position(key);
            let got = cells(&doc, None);
            check(p, &got, is_analysis, page_name);
            let h1 = Selector::parse("h1").unwrap();
            let heading: String = doc.select(&h1).next().unwrap().text().collect();
            match p.outcome() {
                Some(_) => assert!(heading.ends_with("wins"), "{heading}"),
                None if is_analysis => {
                    let value = if mover_loses(p) { "loss" } else { "win" };
                    assert!(heading.contains(value), "{p:?}: {heading}");
                }
                None => assert_eq!(heading, p.heading(None)),
            }
            stack.extend(got.iter().filter_map(|(_, l, _)| {
                let l = l.as_deref()?.strip_suffix(".html")?;
                u32::from_str_radix(l, 16).ok()
            }));
        }
        let pages: BTreeSet<u32> = files
            .keys()
            .filter_map(|f| f.strip_prefix(&format!("{dir}/"))?.strip_suffix(".html"))
            .map(|k| u32::from_str_radix(k, 16).unwrap())
            .collect();
        assert_eq!(
            pages, reached,
            "{dir}: every page reachable, and only those"
        );
        assert_eq!(pages.len(), StateGraph::<Nim>::new().len());
    }
}

/// The analysis edition's EPUB, read back with the `zip` crate: every
/// position a screen, each cell as the game says, every link landing on
/// a screen in the book.
#[test]
fn nim_renders_to_an_epub_that_plays_it() {
    let (_, analysed, assets) = editions();
    let book = epub::write(&Book::new(&analysed, &assets)).unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(book)).unwrap();
    let mut screens = BTreeMap::new();
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        let name = f.name().to_string();
        if !(name.starts_with("OEBPS/b") && name.ends_with(".xhtml")) {
            continue;
        }
        let mut text = String::new();
        f.read_to_string(&mut text).unwrap();
        let doc = Html::parse_document(&text);
        for div in doc.select(&Selector::parse("div[id]").unwrap()) {
            let key = u32::from_str_radix(div.value().id().unwrap(), 16).unwrap();
            screens.insert(key, cells(&doc, Some(div)));
        }
    }
    assert_eq!(screens.len(), StateGraph::<Nim>::new().len());
    for (&key, got) in &screens {
        check(position(key), got, true, |k| format!("#{k:x}"));
        for (_, link, _) in got {
            if let Some(l) = link {
                let k = u32::from_str_radix(l.trim_start_matches('#'), 16).unwrap();
                assert!(screens.contains_key(&k), "{l}");
            }
        }
    }
}
