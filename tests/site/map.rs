//! The maps of whole games, read back from the built SVGs and proven: the
//! tree of each tic-tac-toe map rebuilt from its links and their squares
//! and checked against the solver (every reply covered, every map move
//! best, every link on its position's page, the fewest boards), and the
//! Towers of Hanoi's map checked against the puzzle (every
//! position once, the edges exactly the legal moves, the corners, the
//! shortest solution).

use std::collections::{BTreeMap, BTreeSet};

use std::collections::HashMap as FxHashMap;
use tictactoe_book::game::{Game, Side};
use tictactoe_book::games::hanoi::Hanoi;
use tictactoe_book::games::tictactoe::Board;
use tictactoe_book::graph::StateGraph;
use tictactoe_book::solver::Solver;

use crate::common::*;

/// The value of attribute `name` in the tag `tag` (its text up to `>`).
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&tag[at..at + tag[at..].find('"')?])
}

fn num(tag: &str, name: &str) -> f64 {
    attr(tag, name)
        .unwrap_or_else(|| panic!("{name} in {tag}"))
        .parse()
        .unwrap()
}

/// A square of the map, in whole units: x, y and side.
type Sq = (u32, u32, u32);

/// Where a map's link home leads.
const HOME: &str = "../index.html#maps";

/// A map as a page of its own: its title shown (not only in `<title>`),
/// words on its marks and lines, and one link home.
fn explains_itself(svg: &str) {
    let title = svg
        .split("<title>")
        .nth(1)
        .and_then(|t| t.split("</title>").next())
        .unwrap();
    // The words of each line of a class (`t` the title, `l` the legend).
    let shown = |class: &str| {
        let open = format!("<text class=\"{class}\" ");
        svg.split(&open)
            .skip(1)
            .map(|t| &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()])
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(shown("t"), title, "the title shown");
    assert_eq!(
        svg.matches(&format!("<a href=\"{HOME}\">")).count(),
        1,
        "one link home"
    );
    assert!(
        shown("l").contains("a link to"),
        "the legend says what a link is"
    );
}

/// The square of a mark: `transform="matrix(k 0 0 k x y)"` on its shape,
/// drawn in 100 units scaled by k.
fn mark_square(tag: &str) -> Sq {
    let m = attr(tag, "transform").unwrap();
    let v: Vec<f64> = m
        .strip_prefix("matrix(")
        .and_then(|m| m.strip_suffix(')'))
        .unwrap()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!((v[0], v[1], v[2]), (v[3], 0.0, 0.0), "{tag}");
    (v[4] as u32, v[5] as u32, (v[0] * 100.0).round() as u32)
}

fn square(tag: &str) -> Sq {
    let n = |a| num(tag, a) as u32;
    let (w, h) = (n("width"), n("height"));
    assert_eq!(w, h, "a square: {tag}");
    (n("x"), n("y"), w)
}

/// An SVG map read back: its links (the square of each, with its `href`
/// and accessible name), and the marks (their squares and the class of
/// their layer, a side each, `p` for the map player's moves).
struct MarksMap {
    links: BTreeMap<Sq, (String, String)>,
    marks: BTreeMap<Sq, String>,
}

/// The map without its phone's links (`<g class="taps">`), which
/// [`every_map_link_is_a_tap_a_finger_hits_on_a_phone`] reads.
fn without_taps(svg: &str) -> String {
    let at = svg.find("<g class=\"taps\"").expect("a phone's links");
    let end = at + svg[at..].find("</g>").unwrap() + 4;
    format!("{}{}", &svg[..at], &svg[end..])
}

fn read_marks_map(svg: &str) -> MarksMap {
    let svg: &str = &without_taps(svg);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 729 "));
    assert!(!svg[..200].contains(" width=\""), "no fixed size");
    assert!(svg.contains("<title>") && svg.contains("<desc>"));
    explains_itself(svg);
    // The picture, under the band of words, in its own units.
    assert!(svg.contains(" width=\"729\" height=\"729\" viewBox=\"0 0 729 729\">"));
    let mut links = BTreeMap::new();
    let mut marks = BTreeMap::new();
    let mut played = BTreeSet::new();
    let mut layer = String::new();
    let mut rest = svg;
    while let Some(at) = rest.find('<') {
        rest = &rest[at..];
        let tag = &rest[..rest.find('>').unwrap() + 1];
        if tag.starts_with("<a ") && attr(tag, "href") == Some(HOME) {
            rest = &rest[rest.find("</a>").unwrap()..];
        } else if tag.starts_with("<a ") {
            let end = rest.find("</a>").unwrap();
            let link = &rest[..end];
            assert!(!link[2..].contains("<a "), "links never nest");
            assert_eq!(layer, "links", "links are the top layer");
            let href = attr(tag, "href").unwrap().to_string();
            let name = link
                .split("<title>")
                .nth(1)
                .unwrap()
                .split("</title>")
                .next()
                .unwrap();
            // The clickable area: a rectangle exactly the square.
            let rect = &link[link.find("<rect").unwrap()..];
            let sq = square(&rect[..rect.find('>').unwrap() + 1]);
            assert!(
                links.insert(sq, (href, name.to_string())).is_none(),
                "one link a square"
            );
            rest = &rest[end..];
        } else if tag.starts_with("<g class=") {
            layer = attr(tag, "class").unwrap().to_string();
        } else if tag.contains(" transform=\"matrix(") {
            let sq = mark_square(tag);
            if layer == "p" {
                assert!(played.insert(sq), "one move a square");
            } else {
                assert!(
                    marks.insert(sq, layer.clone()).is_none(),
                    "one mark a square"
                );
            }
        }
        rest = &rest[1..];
    }
    // The map player's move is drawn under each link, and only there.
    assert_eq!(played, links.keys().copied().collect::<BTreeSet<Sq>>());
    MarksMap { links, marks }
}

fn cell(at: Sq, index: usize) -> Sq {
    let s = at.2 / 3;
    (
        at.0 + s * (index % 3) as u32,
        at.1 + s * (index / 3) as u32,
        s,
    )
}

fn symbol(side: Side) -> &'static str {
    if side == Side::First { "m0" } else { "m1" }
}

/// Walks a marks map as a reader does, checking every board against the
/// solver; returns the boards seen.
struct Walk<'a> {
    map: &'a MarksMap,
    solver: &'a Solver<Board>,
    player: Side,
    links_seen: usize,
    boards: usize,
}

impl Walk<'_> {
    /// The marks already on `p`, each its side's symbol in its cell.
    fn board(&mut self, p: Board, at: Sq) {
        self.boards += 1;
        for i in 0..9 {
            if let Some(side) = p.holder(i) {
                assert_eq!(
                    self.map.marks.get(&cell(at, i)).map(String::as_str),
                    Some(symbol(side)),
                    "{p:?} cell {i}"
                );
            }
        }
    }

    fn map(&mut self, p: Board, at: Sq, moves: &str) {
        self.board(p, at);
        let linked: Vec<usize> = (0..9)
            .filter(|&i| self.map.links.contains_key(&cell(at, i)))
            .collect();
        assert_eq!(
            linked.len(),
            1,
            "{moves}: one move of the map player on its board"
        );
        let m = linked[0];
        let (href, name) = &self.map.links[&cell(at, m)];
        self.links_seen += 1;
        let mov = sq(m);
        let scores = self.solver.move_scores(p);
        let best = scores.iter().map(|(_, s)| *s).max().unwrap();
        let score = scores
            .iter()
            .find(|(s, _)| *s == mov)
            .expect("a legal move")
            .1;
        assert_eq!(score, best, "{moves}: the map plays a best move");
        assert!(!score.is_loss(), "the map player never loses");
        let after = p.play(mov).unwrap();
        assert_eq!(
            href,
            &format!("../analysis/{}", page_name(after)),
            "{moves}"
        );
        let said = words(moves, self.player, m);
        assert_eq!(name, &said);
        for (reply, next) in tictactoe_book::graph::moves(after) {
            let c = cell(at, reply.index());
            if next.is_over() {
                assert_eq!(
                    self.map.marks.get(&c).map(String::as_str),
                    Some(symbol(self.player.opponent()))
                );
            } else {
                self.map(
                    next,
                    c,
                    &words(&said, self.player.opponent(), reply.index()),
                );
            }
        }
        // Where the map's move ends the game, the other squares stay empty.
        if after.is_over() {
            for i in (0..9).filter(|&i| after.holder(i).is_none()) {
                assert!(
                    !self.map.marks.contains_key(&cell(at, i))
                        && !self.map.links.contains_key(&cell(at, i))
                );
            }
        }
    }
}

fn words(moves: &str, side: Side, index: usize) -> String {
    let sep = if moves.is_empty() { "" } else { ", " };
    format!(
        "{moves}{sep}{} {}",
        Board::side_name(side),
        Board::move_name(sq(index))
    )
}

/// The fewest boards a map of `player`'s best play from `p` (the player to
/// move) can have: this board and, for each best move, the maps after the
/// replies that do not end the game, the smallest.
fn fewest(solver: &Solver<Board>, p: Board, memo: &mut FxHashMap<Board, usize>) -> usize {
    if let Some(&n) = memo.get(&p) {
        return n;
    }
    let scores = solver.move_scores(p);
    let best = scores.iter().map(|(_, s)| *s).max().unwrap();
    let n = scores
        .iter()
        .filter(|(_, s)| *s == best)
        .map(|(m, _)| {
            let after = p.play(*m).unwrap();
            1 + tictactoe_book::graph::moves(after)
                .filter(|(_, q)| !q.is_over())
                .map(|(_, q)| fewest(solver, q, memo))
                .sum::<usize>()
        })
        .min()
        .unwrap();
    memo.insert(p, n);
    n
}

#[test]
fn each_tic_tac_toe_map_is_optimal_play_with_the_fewest_boards_and_every_move_links_its_board() {
    let solver = Solver::new(StateGraph::<Board>::new());
    let start = solver.graph().root();
    let whole = (0, 0, 729);
    for (file, player) in [("tictactoe-x", Side::First), ("tictactoe-o", Side::Second)] {
        let svg = std::fs::read_to_string(built().join(format!("map/{file}.svg"))).unwrap();
        let map = read_marks_map(&svg);
        let mut walk = Walk {
            map: &map,
            solver: &solver,
            player,
            links_seen: 0,
            boards: 0,
        };
        let mut memo = FxHashMap::new();
        let least = if player == Side::First {
            walk.map(start, whole, "");
            fewest(&solver, start, &mut memo)
        } else {
            walk.board(start, whole);
            for (reply, next) in tictactoe_book::graph::moves(start) {
                walk.map(
                    next,
                    cell(whole, reply.index()),
                    &words("", Side::First, reply.index()),
                );
            }
            1 + tictactoe_book::graph::moves(start)
                .map(|(_, q)| fewest(&solver, q, &mut memo))
                .sum::<usize>()
        };
        // Every link was reached, and links only to the analysis pages.
        assert_eq!(
            walk.links_seen,
            map.links.len(),
            "{file}: a link the walk did not reach"
        );
        assert!(
            map.links
                .values()
                .all(|(h, _)| h.starts_with("../analysis/"))
        );
        assert_eq!(walk.boards, least, "{file}: the fewest boards");
        // The smallest square is 3 units of the 729 (2 mm on a 486 mm map).
        let smallest = map.links.keys().map(|s| s.2).min().unwrap();
        assert_eq!(smallest, 3, "{file}");
        eprintln!(
            "{file}: {} boards, {} links, {} bytes",
            walk.boards,
            map.links.len(),
            svg.len()
        );
        // Every link lands on an analysis page of the site.
        for (href, _) in map.links.values() {
            let page = built().join("map").join(href);
            assert!(page.is_file(), "{file}: {href}");
        }
    }
}

#[test]
fn the_hanoi_map_is_the_state_graph_as_the_sierpinski_triangle_with_the_shortest_solution() {
    let svg = std::fs::read_to_string(built().join("map/hanoi.svg")).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 "));
    assert!(svg.contains("<title>") && svg.contains("<desc>"));
    explains_itself(&svg);
    // Its start and its goal, named.
    for words in ["Start", "Goal"] {
        assert!(svg.contains(&format!(">{words}</text>")), "{words}");
    }
    let solver = Solver::<Hanoi>::with_rules(tictactoe_book::games::hanoi::Rules { discs: 4 });
    let positions: BTreeSet<Hanoi> = solver.graph().boards().iter().copied().collect();
    assert_eq!(positions.len(), 81);
    let by_key: BTreeMap<u32, Hanoi> = positions.iter().map(|p| (p.key(), *p)).collect();
    // Nodes: a link each, a disc round its point.
    let point = |x: f64, y: f64| ((x * 1000.0).round() as i64, (y * 1000.0).round() as i64);
    let mut at: BTreeMap<(i64, i64), Hanoi> = BTreeMap::new();
    for link in without_taps(&svg).split("<a ").skip(1) {
        let href = attr(&format!(" {link}"), "href").unwrap().to_string();
        if href == HOME {
            continue;
        }
        let key = href
            .strip_prefix("../hanoi-analysis/")
            .and_then(|h| h.strip_suffix(".html"))
            .map(|k| u32::from_str_radix(k, 16).unwrap())
            .unwrap_or_else(|| panic!("{href}"));
        let p = by_key[&key];
        let circle = &link[link.find("<circle").unwrap()..];
        let circle = &circle[..circle.find('>').unwrap()];
        let xy = point(num(circle, "cx"), num(circle, "cy"));
        // Half an edge: as large as a link can be without touching the next.
        assert_eq!(num(circle, "r"), 0.5);
        assert!(at.insert(xy, p).is_none(), "one node a point");
        assert!(page_exists(&href), "{href}");
    }
    let nodes: BTreeSet<Hanoi> = at.values().copied().collect();
    assert_eq!(nodes, positions, "every position once");
    // Each node a dot, the solution's in a layer of their own.
    let dots = |class: &str| -> BTreeSet<Hanoi> {
        let group = format!("<g class=\"{class}\" fill=\"");
        let layer = &svg[svg.find(&group).unwrap_or_else(|| panic!("{class}"))..];
        let layer = &layer[..layer.find("</g>").unwrap()];
        layer
            .split("<circle")
            .skip(1)
            .map(|c| at[&point(num(c, "cx"), num(c, "cy"))])
            .collect()
    };
    let solution_dots = dots("on-solution");
    assert!(dots("positions").is_disjoint(&solution_dots));
    assert_eq!(
        &dots("positions") | &solution_dots,
        positions,
        "a dot a position"
    );
    // Edges: the grey path's segments, exactly the legal moves.
    let path = |class: &str| {
        let tag = format!("<path class=\"{class}\" ");
        let p = &svg[svg.find(&tag).unwrap_or_else(|| panic!("{class}"))..];
        p[..p.find('>').unwrap()].to_string()
    };
    // A path's segments, each `Mx y` then `Lx y`, `hdx` or `vdy`.
    let segments = |d: &str| -> Vec<Vec<Hanoi>> {
        d.split('M')
            .skip(1)
            .map(|run| {
                let end = run.find(['L', 'h', 'v']).unwrap();
                let (from, to) = run.split_at(end);
                let (x, y) = from.split_once(' ').unwrap();
                let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
                let (u, v) = match (&to[..1], &to[1..]) {
                    ("L", xy) => {
                        let (u, v) = xy.split_once(' ').unwrap();
                        (u.parse().unwrap(), v.parse().unwrap())
                    }
                    ("h", dx) => (x + dx.parse::<f64>().unwrap(), y),
                    (_, dy) => (x, y + dy.parse::<f64>().unwrap()),
                };
                vec![at[&point(x, y)], at[&point(u, v)]]
            })
            .collect()
    };
    let d = |p: &str| attr(p, "d").unwrap().to_string();
    let edges: BTreeSet<(Hanoi, Hanoi)> = segments(&d(&path("edges")))
        .into_iter()
        .map(|s| {
            assert_eq!(s.len(), 2);
            (s[0].min(s[1]), s[0].max(s[1]))
        })
        .collect();
    let legal: BTreeSet<(Hanoi, Hanoi)> = positions
        .iter()
        .flat_map(|&p| p.neighbours().map(move |q| (p.min(q), p.max(q))))
        .collect();
    assert_eq!(edges, legal, "the edges are the legal moves");
    // The corners: all discs on one peg, left, top and right.
    let xs: Vec<i64> = at.keys().map(|k| k.0).collect();
    let (left, right) = (*xs.iter().min().unwrap(), *xs.iter().max().unwrap());
    let top = at.keys().map(|k| k.1).min().unwrap();
    let bottom = at.keys().map(|k| k.1).max().unwrap();
    let corner = |k: (i64, i64)| at[&k];
    assert_eq!(corner((left, bottom)), Hanoi::from_pegs(&[0; 4]).unwrap());
    assert_eq!(
        corner(((left + right) / 2, top)),
        Hanoi::from_pegs(&[1; 4]).unwrap()
    );
    assert_eq!(corner((right, bottom)), Hanoi::from_pegs(&[2; 4]).unwrap());
    // The solution, in the map colour: 15 moves from the start to solved.
    let solution: Vec<Hanoi> = segments(&d(&path("solution")))
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s[usize::from(i > 0)..].to_vec())
        .collect();
    assert_eq!(solution.len(), 16);
    assert_eq!(solution[0], Hanoi::from_pegs(&[0; 4]).unwrap());
    assert!(solution[15].is_solved());
    for w in solution.windows(2) {
        assert!(w[0].neighbours().any(|q| q == w[1]), "{w:?}: one move");
    }
    assert_eq!(
        solution_dots,
        solution.iter().copied().collect::<BTreeSet<_>>()
    );
    assert!(path("solution").contains(tictactoe_book::map::COLOUR));
    // In grayscale, where its colour is lost, the solution is told apart
    // by its width, as the legend says: three times an edge's at least.
    let width = |class: &str| num(&path(class), "stroke-width");
    assert!(width("solution") >= 3.0 * width("edges"));
    assert!(svg.contains(" thick "), "the legend names the thick line");
}

fn page_exists(href: &str) -> bool {
    built().join("map").join(href).is_file()
}

#[test]
fn the_home_page_shows_each_map_and_links_to_it() {
    let home = std::fs::read_to_string(built().join("index.html")).unwrap();
    for file in ["tictactoe-x", "tictactoe-o", "hanoi"] {
        // The picture, and under it the words that name the link.
        let link = format!("<a class=m href=map/{file}.svg><img alt ");
        let at = home.find(&link).unwrap_or_else(|| panic!("{file}"));
        let img = &home[at + link.len()..];
        let (img, words) = img.split_once('>').unwrap();
        assert!(
            img.contains(&format!(" src=map/{file}-small.svg ")),
            "{img}"
        );
        let words = &words[..words.find("</a>").unwrap()];
        assert!(words.starts_with("The map of "), "{words}");
    }
    assert!(home.contains("<a href=ebooks/map-poster.pdf>"));
}

/// `href`, followed from the page at `from` (a path in the site), as a
/// path in the site, `#` and all after it left out.
fn follow(from: &str, href: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for step in href.split('#').next().unwrap().split('/') {
        match step {
            ".." => {
                parts.pop().expect("inside the site");
            }
            _ => parts.push(step),
        }
    }
    parts.join("/")
}

/// The links of an SVG page: `(href, width, height)` of each area, in
/// the units of the picture they are drawn in, and that picture's width;
/// the page's own (home, out) are measured in the page's units.
fn areas(group: &str) -> Vec<(String, f64, f64)> {
    group
        .split("<a ")
        .skip(1)
        .map(|link| {
            let href = attr(&format!(" {link}"), "href").unwrap().to_string();
            let shape = &link[link.find("<rect").or(link.find("<circle")).unwrap()..];
            let tag = &shape[..shape.find('>').unwrap()];
            let (w, h) = if tag.starts_with("<circle") {
                (2.0 * num(tag, "r"), 2.0 * num(tag, "r"))
            } else {
                (num(tag, "width"), num(tag, "height"))
            };
            (href, w, h)
        })
        .collect()
}

/// On a 390-pixel phone, where a map's page is as wide as the screen,
/// every link of every map is a tap a finger hits (44 pixels) on some
/// page: on the whole map its phone's links (`taps`) zoom into parts
/// shown larger, each on a page of its own, until the map's links are
/// large enough; every link of the map is on exactly one page, and every
/// page is reached, has a way home and a way out.
#[test]
fn every_map_link_is_a_tap_a_finger_hits_on_a_phone() {
    let site = built();
    let finger = 44.0 / 390.0;
    for file in [
        "map/tictactoe-x.svg",
        "map/tictactoe-o.svg",
        "map/hanoi.svg",
    ] {
        let whole = std::fs::read_to_string(site.join(file)).unwrap();
        // The map's own links, as paths in the site, with how often each
        // is there (two ways to one board are two links).
        let mut wanted: BTreeMap<String, usize> = BTreeMap::new();
        for (href, _, _) in areas(&without_taps(&whole)) {
            if href != HOME {
                *wanted.entry(follow(file, &href)).or_default() += 1;
            }
        }
        let links: usize = wanted.values().sum();
        let mut reached = 0;
        let mut todo = vec![file.to_string()];
        let mut pages = 0;
        while let Some(page) = todo.pop() {
            pages += 1;
            let svg =
                std::fs::read_to_string(site.join(&page)).unwrap_or_else(|e| panic!("{page}: {e}"));
            // The picture's units: the nested SVG's view box, 729 wide.
            let nested = &svg[svg.find("<svg x=").unwrap()..];
            let view: Vec<f64> = attr(nested, "viewBox")
                .unwrap()
                .split(' ')
                .map(|v| v.parse().unwrap())
                .collect();
            assert_eq!(attr(nested, "width"), Some("729"), "{page}");
            let (band, picture) = svg.split_at(svg.find("<svg x=").unwrap());
            let taps = if page == file {
                &picture[picture.find("<g class=\"taps\"").unwrap()..]
            } else {
                &picture[picture.find("<g class=\"links\"").unwrap()..]
            };
            let taps = areas(taps);
            assert!(!taps.is_empty(), "{page}");
            for (href, w, h) in taps {
                assert!(
                    w.min(h) >= finger * view[2] - 1e-9,
                    "{page}: {href} is {w} by {h} of {}",
                    view[2]
                );
                let target = follow(&page, &href);
                if href.ends_with(".svg") {
                    assert!(
                        target.starts_with(&file[..file.len() - 4]),
                        "{page}: {href}"
                    );
                    todo.push(target);
                } else {
                    let left = wanted.get_mut(&target);
                    let left = left.unwrap_or_else(|| panic!("{page}: {href}, a link of the map"));
                    *left = left.checked_sub(1).expect("as often as in the map");
                    reached += 1;
                }
            }
            // Home, and from a part the page it came from; a finger's size.
            let own = areas(band);
            assert_eq!(
                own[0].0,
                if page == file {
                    HOME.to_string()
                } else {
                    format!("../{HOME}")
                }
            );
            assert_eq!(own.len(), if page == file { 1 } else { 2 }, "{page}");
            for (href, w, h) in own {
                assert!(w.min(h) >= finger * 729.0, "{page}: {href}");
                assert!(site.join(follow(&page, &href)).is_file(), "{page}: {href}");
            }
        }
        wanted.retain(|_, n| *n > 0);
        assert!(
            wanted.is_empty(),
            "{file}: not on any phone's page: {wanted:?}"
        );
        assert_eq!(reached, links);
        let files = walkdir::WalkDir::new(site.join(&file[..file.len() - 4]))
            .into_iter()
            .filter(|e| e.as_ref().unwrap().file_type().is_file())
            .count();
        assert_eq!(pages, files + 1, "{file}: every part's page is reached");
        eprintln!("{file}: {pages} pages on a phone, {links} links");
    }
}
