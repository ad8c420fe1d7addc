//! The Towers of Hanoi through the generic editions and every format, read
//! back: each cell of each page against the puzzle, the lifted disc, the
//! counts of moves left against a search of the puzzle's own graph, the
//! solved page, and the books, at any number of discs; the default site
//! builds it with 4 (`--hanoi-discs`).

use std::collections::{BTreeMap, VecDeque};
use std::io::Read as _;

use scraper::{Html, Selector};
use tictactoe_book::assets::Assets;
use tictactoe_book::ebook::{Book, epub, kindle_html, mobi};
use tictactoe_book::editions::{analysis, two_player};
use tictactoe_book::game::Game;
use tictactoe_book::games::hanoi::{Hanoi, Rules};
use tictactoe_book::graph::StateGraph;
use tictactoe_book::screen::{Edition, page_name};
use tictactoe_book::site::{self, Budgets};
use tictactoe_book::solver::Solver;
use tictactoe_book::view::{self, View};

use crate::common::{built, repo};

/// Every screen's view (a position, or one with a disc lifted) and both
/// editions.
fn editions(discs: u8) -> (Vec<View<Hanoi>>, Edition, Edition) {
    let solver = Solver::new(StateGraph::<Hanoi>::with_rules(Rules { discs }));
    let positions = view::breadth_first(solver.graph())
        .into_iter()
        .map(|(v, _)| v)
        .collect();
    let play = two_player::edition("hanoi", solver.graph(), Some("hanoi-analysis"));
    let analysed = analysis::edition("hanoi-analysis", &solver, "hanoi");
    (positions, play, analysed)
}

/// The fewest whole moves from each position (none lifted) to the solved
/// one, by a search of the puzzle's own graph from the solved end.
fn moves_left(discs: u8, positions: &[View<Hanoi>]) -> BTreeMap<Hanoi, u32> {
    let solved = Hanoi::from_pegs(&vec![2; usize::from(discs)]).unwrap();
    let mut dist = BTreeMap::from([(solved, 0)]);
    let mut queue = VecDeque::from([solved]);
    while let Some(p) = queue.pop_front() {
        let d = dist[&p];
        for n in p.neighbours() {
            dist.entry(n).or_insert_with(|| {
                queue.push_back(n);
                d + 1
            });
        }
    }
    assert_eq!(dist.len(), 3usize.pow(u32::from(discs)));
    assert!(positions.iter().all(|v| dist.contains_key(&v.position)));
    dist
}

/// What selecting `peg` on `v` leads to, if it is a choice there, by the
/// puzzle's rules (not by the views that made the pages): a peg with a
/// disc lifts it; with a disc lifted, its own peg puts it back and a peg
/// it may go on takes it.
fn select(v: View<Hanoi>, peg: u8) -> Option<View<Hanoi>> {
    let p = v.position;
    if p.is_solved() {
        return None;
    }
    match v.picked.map(|c| c as u8) {
        None => p.top(peg).map(|_| View {
            position: p,
            picked: Some(usize::from(peg)),
        }),
        Some(from) if from == peg => Some(View::of(p)),
        Some(from) => p
            .can_move(from, peg)
            .then(|| View::of(p.play((from, peg)).unwrap())),
    }
}

/// The pegs that can be selected on `v`.
fn pegs(v: View<Hanoi>) -> impl Iterator<Item = u8> {
    (0..3).filter(move |&peg| select(v, peg).is_some())
}

/// The moves left after selecting `peg` on `v`, with best play, counting
/// the move this selection makes or completes: a drop lands on a whole
/// position, a move more; putting a lifted disc back is no move; a lift
/// goes on to the best of its drops (putting the disc back again finishes
/// nothing).
fn after(v: View<Hanoi>, peg: u8, dist: &BTreeMap<Hanoi, u32>) -> u32 {
    let next = select(v, peg).unwrap();
    match (v.picked, next.picked) {
        // A disc no peg takes: no move (never the best).
        (None, Some(from)) => (0..3)
            .filter(|&to| usize::from(to) != from)
            .filter_map(|to| select(next, to))
            .map(|down| 1 + dist[&down.position])
            .min()
            .unwrap_or(u32::MAX),
        (Some(from), None) if from == usize::from(peg) => dist[&next.position],
        _ => 1 + dist[&next.position],
    }
}

/// The count a view's heading gives: its position's fewest moves left
/// (with a disc lifted, putting it back costs nothing).
fn left_here(v: View<Hanoi>, dist: &BTreeMap<Hanoi, u32>) -> u32 {
    match v.picked {
        None => dist[&v.position],
        Some(_) => pegs(v).map(|peg| after(v, peg, dist)).min().unwrap(),
    }
}

/// Every page of both editions in the default site (4 discs), read back
/// cell by cell.
#[test]
fn every_hanoi_page_shows_the_puzzle_and_plays_it() {
    let discs = 4;
    let (positions, play, analysed) = editions(discs);
    let dist = moves_left(discs, &positions);
    let img = Selector::parse("table img").unwrap();
    let h1 = Selector::parse("h1").unwrap();
    let nav = Selector::parse("main > p a").unwrap();
    let title = Selector::parse("title").unwrap();
    let start = Hanoi::start(Rules { discs });
    for (edition, is_analysis) in [(&play, false), (&analysed, true)] {
        let files: BTreeMap<String, Vec<u8>> = crate::common::walk(&built().join(edition.slug))
            .into_iter()
            .map(|p| {
                let rel = p
                    .strip_prefix(built())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (rel, std::fs::read(&p).unwrap())
            })
            .collect();
        let mut solved_pages = 0;
        for &v in &positions {
            let p = v.position;
            let path = format!("{}/{}", edition.slug, page_name(v.key()));
            let doc = Html::parse_document(std::str::from_utf8(&files[&path]).unwrap());
            let imgs: Vec<_> = doc.select(&img).collect();
            assert_eq!(imgs.len(), 3 * (usize::from(discs) + 1), "{path}");
            let best = pegs(v).map(|peg| after(v, peg, &dist)).min();
            let mut links = 0;
            for (i, im) in imgs.iter().enumerate() {
                let peg = (i % 3) as u8;
                let src = im.value().attr("src").unwrap();
                let alt = im.value().attr("alt").unwrap();
                // Words, never the key notation of `Hanoi::text`.
                assert!(!alt.contains('/') && !alt.contains('^'), "{path}: {alt}");
                let mut want = Hanoi::IMAGES[v.face(i).image];
                let count = select(v, peg).map(|_| after(v, peg, &dist));
                if is_analysis && i < 3 && count.is_some() && count == best {
                    // The best pegs framed: the air, or the lifted disc
                    // (putting it back is always among the best).
                    if want == "ha" {
                        want = "hab";
                    } else if let Some(d) = want.strip_prefix("hl") {
                        want = Hanoi::IMAGES
                            .iter()
                            .find(|n| n[2..] == *d && n.starts_with("hf"))
                            .unwrap();
                    }
                }
                assert_eq!(src, format!("{want}.svg"), "{path} cell {i}");
                let link = im
                    .parent()
                    .and_then(scraper::ElementRef::wrap)
                    .and_then(|a| a.value().attr("href"));
                // One choice a peg: only the air above it links.
                let next = select(v, peg).filter(|_| i < 3).map(|n| page_name(n.key()));
                assert_eq!(link, next.as_deref(), "{path} cell {i}");
                if link.is_some() {
                    links += 1;
                    // The peg in words and what selecting it does.
                    let said = v.face(i).action.unwrap();
                    assert!(alt.starts_with(&*said), "{path}: {alt}");
                    let peg_name = ["left peg: ", "middle peg: ", "right peg: "][i];
                    assert!(said.starts_with(peg_name), "{path}: {said}");
                    assert!(said.contains("lift disc") || said.contains("put disc"));
                }
                if let (true, Some(_), Some(next)) = (is_analysis, count, &next) {
                    // What the peg says it leaves is what the page it
                    // leads to gives in its heading.
                    let target = format!("{}/{next}", edition.slug);
                    let doc = Html::parse_document(std::str::from_utf8(&files[&target]).unwrap());
                    let there: String = doc.select(&h1).next().unwrap().text().collect();
                    let says = match there.rsplit_once(": ") {
                        _ if there == "Solved" => "solves the puzzle".to_string(),
                        // A lift: what the best way to finish its move
                        // leaves, one move fewer than that way's count.
                        Some(_) if v.picked.is_none() && count == Some(u32::MAX) => {
                            "no move from it".to_string()
                        }
                        Some(_) if v.picked.is_none() => match count.unwrap() - 1 {
                            0 => "its move solves the puzzle".to_string(),
                            1 => "its move leaves 1 move".to_string(),
                            n => format!("its move leaves {n} moves"),
                        },
                        Some((_, left)) => {
                            let left = left.strip_suffix(" left with best play").unwrap();
                            format!("leaves {left}")
                        }
                        None => panic!("{target}: {there}"),
                    };
                    assert!(
                        alt.ends_with(&format!(", {says}")),
                        "{path}: {alt}, but {target} says {there}"
                    );
                }
            }
            // At most one link a peg, one for each peg that can be chosen.
            assert_eq!(links, pegs(v).count(), "{path}");
            assert!(links <= 3, "{path}");
            // The lifted disc shows above its peg, and nowhere on it.
            if let Some(from) = v.picked {
                let top = p.top(from as u8).unwrap();
                let src = imgs[from].value().attr("src").unwrap();
                // Framed in the analysis: putting it back is best.
                let lifted = if is_analysis { "hf" } else { "hl" };
                assert_eq!(src, format!("{lifted}{}.svg", top + 1), "{path}");
                let on_pegs = imgs[3..]
                    .iter()
                    .filter(|i| {
                        let src = i.value().attr("src");
                        src == Some(format!("hd{}.svg", top + 1).as_str())
                            || src == Some(format!("hd{}b.svg", top + 1).as_str())
                    })
                    .count();
                assert_eq!(on_pegs, 0, "{path}");
            }
            let heading: String = doc.select(&h1).next().unwrap().text().collect();
            let words: String = doc.select(&title).next().unwrap().text().collect();
            let mut want = String::new();
            v.push_title(&mut want);
            assert_eq!(words, want, "{path}");
            assert!(
                !words.contains('/') && !words.contains('^'),
                "{path}: {words}"
            );
            let text: String = doc.root_element().text().collect();
            if p.is_solved() {
                solved_pages += 1;
                assert_eq!(heading, "Solved", "{path}");
                let again = doc
                    .select(&nav)
                    .find(|a| a.text().collect::<String>() == "Start again")
                    .and_then(|a| a.value().attr("href"));
                assert_eq!(again, Some(page_name(start.key()).as_str()), "{path}");
            } else {
                assert!(
                    !text.contains("Solved") && !text.contains("solved"),
                    "{path}"
                );
                if is_analysis {
                    let n = left_here(v, &dist);
                    assert!(
                        heading.ends_with(&format!(
                            ": {n} move{} left with best play",
                            if n == 1 { "" } else { "s" }
                        )),
                        "{path}: {heading}"
                    );
                }
            }
        }
        assert_eq!(solved_pages, 1, "{}", edition.slug);
        let pages = files.keys().filter(|f| f.ends_with(".html")).count();
        assert_eq!(pages, positions.len(), "{}", edition.slug);
    }
    // From the start, the marked moves solve it in 2^N - 1 moves.
    assert_eq!(left_here(View::of(start), &dist), (1 << discs) - 1);
}

/// The books of both editions: the EPUB has a screen per position whose
/// links all land in the book, the MOBI a page per position, and the
/// Kindle HTML an anchor per position.
#[test]
fn the_hanoi_books_hold_every_position() {
    let (positions, play, analysed) = editions(3);
    let assets = Assets::load(&repo().join("static"), &site::images()).unwrap();
    for edition in [&play, &analysed] {
        let book = epub::write(&Book::new(edition, &assets)).unwrap();
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(book)).unwrap();
        let (mut ids, mut links) = (Vec::new(), Vec::new());
        for i in 0..zip.len() {
            let mut f = zip.by_index(i).unwrap();
            if !(f.name().starts_with("OEBPS/b") && f.name().ends_with(".xhtml")) {
                continue;
            }
            let mut text = String::new();
            f.read_to_string(&mut text).unwrap();
            let doc = Html::parse_document(&text);
            for div in doc.select(&Selector::parse("div[id]").unwrap()) {
                ids.push(div.value().id().unwrap().to_string());
                for a in div.select(&Selector::parse("a").unwrap()) {
                    let href = a.value().attr("href").unwrap();
                    links.push(href.rsplit('#').next().unwrap().to_string());
                }
            }
        }
        assert_eq!(ids.len(), positions.len(), "{}", edition.slug);
        for l in &links {
            assert!(ids.contains(l) || l == "contents", "{}: #{l}", edition.slug);
        }
        let text = String::from_utf8(mobi::read::text(
            &mobi::write(&Book::new(edition, &assets)).unwrap(),
        ))
        .unwrap();
        assert_eq!(text.matches("<mbp:pagebreak/>").count(), positions.len());
        let kindle = String::from_utf8(kindle_html::write(edition)).unwrap();
        for v in &positions {
            assert!(kindle.contains(&format!("id=\"{:x}\"", v.key())), "{v:?}");
        }
    }
}

/// The MOBI 6 part, whose pictures are shown at their own size, each a
/// record of its own, draws each board's bottom level with the plain
/// level pictures and the base once under the board, the board's width:
/// no picture of a level with the base drawn in is in the book.
#[test]
fn the_hanoi_mobi_boards_stand_on_one_base() {
    let (positions, play, analysed) = editions(3);
    let assets = Assets::load(&repo().join("static"), &site::images()).unwrap();
    let plain: Vec<&[u8]> = ["hp", "hd1", "hd2", "hd3"]
        .iter()
        .map(|n| assets.get(&format!("{n}.gif")))
        .collect();
    for edition in [&play, &analysed] {
        let file = mobi::write(&Book::new(edition, &assets)).unwrap();
        let records = mobi::read::records(&file);
        let first = mobi::read::u32_at(records[0], 0x6c) as usize;
        let image = |tag: &str| records[first + tag.parse::<usize>().unwrap() - 1];
        let text = String::from_utf8(mobi::read::text(&file)).unwrap();
        let screens: Vec<&str> = text.split("<mbp:pagebreak/>").skip(1).collect();
        assert_eq!(screens.len(), positions.len());
        for screen in screens {
            let tags: Vec<&str> = (screen.split("<img recindex=").skip(1))
                .map(|t| &t[..t.find('>').unwrap()])
                .collect();
            // Three pegs, a column each of the air and three levels, then
            // the base under the table of columns.
            assert_eq!(tags.len(), 3 * 4 + 1, "{screen}");
            assert_eq!(image(tags[12]), assets.get("hbase.gif"), "{screen}");
            let base = format!("</table><img recindex={}><br>", tags[12]);
            assert!(screen.contains(&base), "{screen}");
            for tag in [tags[3], tags[7], tags[11]] {
                assert!(plain.contains(&image(tag)), "{screen}");
            }
        }
        for name in ["hpb", "hd1b", "hd2b", "hd3b"] {
            let gif = assets.get(&format!("{name}.gif"));
            assert!(!records.contains(&gif), "{}: {name}", edition.slug);
        }
    }
}

/// The books' sizes at every number of discs, against the default budgets
/// (shown with `--nocapture`).
#[test]
fn hanoi_book_sizes_at_every_number_of_discs() {
    let assets = Assets::load(&repo().join("static"), &site::images()).unwrap();
    let budgets = Budgets::default();
    for discs in 3..=7 {
        let (positions, play, analysed) = editions(discs);
        for edition in [&play, &analysed] {
            let book = Book::new(edition, &assets);
            let (m, e) = (
                mobi::write(&book).unwrap().len(),
                epub::write(&book).unwrap().len(),
            );
            eprintln!(
                "{discs} discs, {}: {} screens, MOBI {m} bytes, EPUB {e} bytes{}",
                edition.slug,
                positions.len(),
                if m <= budgets.mobi && e <= budgets.epub {
                    ""
                } else {
                    " (over the default budgets)"
                }
            );
            // One choice a peg: 3 to 6 discs fit the default budgets.
            if discs <= 6 {
                assert!(m <= budgets.mobi && e <= budgets.epub, "{discs} discs");
            }
        }
    }
}
