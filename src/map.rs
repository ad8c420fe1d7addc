//! The map of a whole game in one [`Picture`], written out as standalone
//! SVG and drawn into the poster from the same value: for a game
//! of placing marks ([`MapStyle::Marks`]), xkcd 832's map of optimal play
//! for one side, generated from the solver; for a puzzle
//! ([`MapStyle::Graph`]), its state graph as the game lays it out (the
//! Towers of Hanoi's Sierpinski triangle), with the shortest solution in
//! the map colour. Every move of the map player, and every node of a
//! puzzle's map, is a link to its position's page in the analysis edition.
//!
//! Invariant: the map player never loses. It plays a move the solver
//! scores best (a win as soon as possible, else a draw), and among those
//! the one with the fewest boards below it ([`plan`]), so the map has the
//! fewest boards these rules allow. Every opponent reply has its map in
//! the reply's cell, or, where the reply ends the game, its mark. Links
//! never nest, and each link's clickable area is exactly its cell (a
//! puzzle node's, a disc half an edge wide, so no two touch). The same
//! solver gives the same bytes.

use rustc_hash::FxHashMap;

use crate::game::{Game, MapStyle, PLACES, Side};
use crate::markup;
use crate::picture::{Area, Layer, Link, Pen, Picture, Shapes};
use crate::screen::push_page_name;
use crate::solver::Solver;

/// The map colour, for the map player's marks and a puzzle's solution.
pub const COLOUR: &str = "#c8102e";

/// The side of a tic-tac-toe map in SVG units: 3^6, so that every cell,
/// down to the smallest (3 units, five levels down), is a whole number.
pub const SIDE: u32 = 729;

/// The ink of marks already on a board, and of a puzzle's nodes.
const INK: &str = "#222";

/// A map, made: its picture (with its links), its words, and what the
/// README and the tests count.
#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    /// The drawing, written out as SVG ([`Map::svg`]) and drawn into the
    /// poster from the same value.
    pub picture: Picture,
    /// Its title (the SVG's `<title>`).
    pub title: String,
    /// What it shows (the SVG's `<desc>`): [`Map::paper`], and where its
    /// links lead.
    pub about: String,
    /// What it shows, in words for paper (the poster's): no links.
    pub paper: String,
    /// Its marks and lines in a sentence or two, shown above it.
    pub legend: String,
    /// Words at points of the picture (in its units), shown under them:
    /// a puzzle's start and goal.
    pub labels: Vec<([f64; 2], &'static str)>,
    /// Its height over its width.
    pub aspect: f64,
    /// Boards drawn (a puzzle: its nodes).
    pub boards: usize,
    /// How a page of the map is cut into parts to zoom into on a phone.
    pub split: Split,
}

/// How a page of a map is cut into the parts a phone zooms into.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Split {
    /// Three by three, as a map of boards nests: each part a cell of the
    /// board the page shows.
    Thirds,
    /// A triangle's three halves, as the Sierpinski triangle nests: the
    /// top, the bottom left and the bottom right, each shown as far as its
    /// links reach.
    Triangle,
}

/// The width of a map's SVG in its own units, the picture scaled to it.
const FRAME: f64 = 729.0;
/// The height of the row of links above a map's words: 88 units, 47
/// pixels on a 390-pixel phone.
const NAV: f64 = 88.0;
/// The words above the picture, in the units of [`FRAME`], large enough
/// to read on a phone, where the map is 390 pixels wide: the title's
/// font size, its line height and the characters a line of it holds (the
/// row of links is above them), then the legend's.
const TITLE: (f64, f64, usize) = (28.0, 34.0, 48);
const LEGEND: (f64, f64, usize) = (22.0, 28.0, 66);

/// `text` broken at spaces into lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.len() + 1 + word.len() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The smallest side of a link a finger hits, as a part of the width of
/// the page that shows it: 44 pixels on a 390-pixel phone, where a map's
/// page is as wide as the screen.
const FINGER: f64 = 44.0 / 390.0;

impl Split {
    /// The parts of `[x, y, w, h]`, each its place in [`PLACES`] (the
    /// triangle's: the top, the bottom left and the bottom right) and where
    /// a tap zooms into it; together they cover the rectangle once.
    fn parts(self, [x, y, w, h]: [f64; 4]) -> Vec<(u8, [f64; 4])> {
        match self {
            Split::Thirds => (0..9)
                .map(|i| {
                    let (col, row) = (f64::from(i % 3), f64::from(i / 3));
                    (i, [x + col * w / 3.0, y + row * h / 3.0, w / 3.0, h / 3.0])
                })
                .collect(),
            Split::Triangle => vec![
                (1, [x, y, w, h / 2.0]),
                (6, [x, y + h / 2.0, w / 2.0, h / 2.0]),
                (8, [x + w / 2.0, y + h / 2.0, w / 2.0, h / 2.0]),
            ],
        }
    }
}

/// A phone's stylesheet for a whole map: below this width, or with a
/// finger for a pointer, the links a finger hits (`taps`) stand in for
/// the map's own.
const PHONE_STYLE: &str = "<style>.taps{display:none}@media (pointer:coarse),(max-width:640px)\
{.links{display:none}.taps{display:inline}}</style>";

/// The page of the part of a map at `path` (each step one of [`PLACES`],
/// by its index), in the map's folder: `48.svg` is the centre's bottom
/// right. This is the one place such a page is named.
fn part_page(path: &[u8]) -> String {
    let mut name: String = path.iter().map(|&i| char::from(b'0' + i)).collect();
    name.push_str(".svg");
    name
}

/// The side of a map's thumbnail on the home page, in pixels.
pub const THUMBNAIL: u32 = 240;

/// The smallest mark's square a thumbnail draws, in pixels: below it a
/// mark is a smudge.
const SMALLEST: f64 = 8.0;

/// The shortest line a thumbnail draws, in pixels: a tic-tac-toe board
/// shorter than this would be a grey blot of lines.
const SHORTEST: f64 = 12.0;

/// The narrowest line a thumbnail draws, in pixels.
const HAIRLINE: f64 = 0.6;

/// The file of the thumbnail of the map at `file` (`map/tictactoe-x.svg`):
/// `map/tictactoe-x-small.svg`, beside it. This is the one place it is
/// named; [`Map::pages`] writes it.
pub fn thumbnail_file(file: &str) -> String {
    format!("{}-small.svg", file.strip_suffix(".svg").unwrap_or(file))
}

/// One page of a map: the whole map, or a part of it shown larger.
struct Page<'a> {
    /// The map's stem (`tictactoe-x`).
    stem: &'a str,
    /// The part's path from the whole map, empty for the whole map.
    path: Vec<u8>,
    /// The part's rectangle in the map's picture.
    rect: [f64; 4],
    /// What the part is, for its title.
    name: String,
    /// The map's links inside the part, where the map has them.
    links: Vec<Link>,
    /// The part's drawing, cut from its parent's ([`Picture::crop`]),
    /// its top left the part's; none for the whole map.
    drawn: Option<Picture>,
}

impl Page<'_> {
    /// The way from this page to the maps' folder.
    fn up(&self) -> &'static str {
        if self.path.is_empty() { "" } else { "../" }
    }

    /// The address of the page of its part `i`, from this page.
    fn child_href(&self, i: u8) -> String {
        let mut path = self.path.clone();
        path.push(i);
        if self.path.is_empty() {
            format!("{}/{}", self.stem, part_page(&path))
        } else {
            part_page(&path)
        }
    }
}

impl Map {
    /// The standalone SVG documents of the map, each with its path beside
    /// `file` (the whole map's, `map/tictactoe-x.svg`): the whole map
    /// first, then a page for each part of it whose links are too small
    /// for a finger on a phone (in the folder `map/tictactoe-x/`). Each is
    /// a page a stranger understands on its own, with the map's title, its
    /// legend and links home (and out, from a part) above the picture,
    /// and its labels (a puzzle's start and goal) in it. On a phone, the
    /// whole map and every part offer only links a finger hits: a link of
    /// the map where it is large enough, else its part, to zoom in. Last,
    /// the home page's picture of it ([`Map::thumbnail`], at
    /// [`thumbnail_file`]).
    pub fn pages(&self, file: &str) -> Vec<(String, Vec<u8>)> {
        let folder = file.strip_suffix(".svg").unwrap_or(file);
        let stem = folder.rsplit('/').next().unwrap_or(folder);
        let p = &self.picture;
        // The pages, each with its taps, found one after another (each
        // part cut from its parent's drawing), then written on every core.
        let mut pages = Vec::new();
        let mut todo = vec![Page {
            stem,
            path: Vec::new(),
            rect: [0.0, 0.0, p.width, p.height],
            name: String::new(),
            links: p.links.clone(),
            drawn: None,
        }];
        while let Some(page) = todo.pop() {
            let (taps, parts) = self.taps(&page);
            todo.extend(parts.into_iter().rev());
            pages.push((page, taps));
        }
        let mut out = crate::par::map(&pages, |(page, taps)| {
            let path = if page.path.is_empty() {
                file.to_string()
            } else {
                format!("{folder}/{}", part_page(&page.path))
            };
            let deeper = taps.iter().any(|t| t.href.ends_with(".svg"));
            (path, self.svg(page, taps, deeper))
        });
        out.push((thumbnail_file(file), self.thumbnail()));
        out
    }

    /// The links a page offers a finger, in the picture's units, and the
    /// pages of its parts they zoom into: the page's drawing cut in three
    /// by three, each part holding links either those links, when all are
    /// [`FINGER`] wide, or one link to its own page.
    fn taps<'a>(&self, page: &Page<'a>) -> (Vec<Link>, Vec<Page<'a>>) {
        let [x0, y0, w, _] = page.rect;
        let (mut taps, mut parts) = (Vec::new(), Vec::new());
        for (i, rect) in self.split.parts(page.rect) {
            let part = PLACES[usize::from(i)];
            let inside: Vec<&Link> = (page.links.iter())
                .filter(|l| {
                    let [cx, cy] = l.area.centre();
                    cx >= rect[0]
                        && cx < rect[0] + rect[2]
                        && cy >= rect[1]
                        && cy < rect[1] + rect[3]
                })
                .collect();
            if inside.is_empty() {
                continue;
            }
            let fits = |l: &&Link| {
                let [_, _, bw, bh] = l.area.bounds();
                bw.min(bh) >= FINGER * w
            };
            if inside.iter().all(fits) {
                taps.extend(inside.iter().map(|l| l.moved(-x0, -y0, page.up())));
                continue;
            }
            // The part's name: the moves its links share, where that is
            // a link's own name (a tic-tac-toe map's board), else where it
            // lies.
            let first = &inside[0].title;
            let mut shared = first.len();
            for l in &inside {
                shared = shared.min(
                    first
                        .bytes()
                        .zip(l.title.bytes())
                        .take_while(|(a, b)| a == b)
                        .count(),
                );
            }
            let name = match inside.iter().find(|l| l.title.len() == shared) {
                Some(l) => l.title.clone(),
                None if page.name.is_empty() => format!("the {part} part"),
                None => format!("the {part} part of {}", page.name),
            };
            let mut path = page.path.clone();
            path.push(i);
            taps.push(Link {
                href: page.child_href(i),
                title: format!("Zoom in: {name}"),
                area: Area::Rect([rect[0] - x0, rect[1] - y0, rect[2], rect[3]]),
            });
            // What the part's page shows: the cell, or as far as its links
            // reach (a neighbour's dots stay out, the lines to them show).
            let shown = match self.split {
                Split::Thirds => rect,
                Split::Triangle => {
                    let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
                    for l in &inside {
                        let [lx, ly, lw, lh] = l.area.bounds();
                        b = [
                            b[0].min(lx),
                            b[1].min(ly),
                            b[2].max(lx + lw),
                            b[3].max(ly + lh),
                        ];
                    }
                    [b[0], b[1], b[2] - b[0], b[3] - b[1]]
                }
            };
            let from = page.drawn.as_ref().unwrap_or(&self.picture);
            let drawn = from.crop([shown[0] - x0, shown[1] - y0, shown[2], shown[3]]);
            parts.push(Page {
                stem: page.stem,
                path,
                rect: shown,
                name,
                links: inside.into_iter().cloned().collect(),
                drawn: Some(drawn),
            });
        }
        (taps, parts)
    }

    /// The SVG document of `page`, offering `taps` on a phone (`deeper`
    /// when some of them zoom in).
    fn svg(&self, page: &Page, taps: &[Link], deeper: bool) -> Vec<u8> {
        use std::fmt::Write as _;
        let whole = page.path.is_empty();
        let p = page.drawn.as_ref().unwrap_or(&self.picture);
        let scale = FRAME / p.width;
        let title = if whole {
            self.title.clone()
        } else {
            format!("{}, zoomed in: {}", self.title, page.name)
        };
        let legend = match (whole, deeper) {
            (true, true) => format!("{} On a phone, a tap on a part zooms in.", self.legend),
            (false, true) => format!("{} A tap on a part zooms in further.", self.legend),
            (_, false) => self.legend.clone(),
        };
        let (title_lines, legend) = (wrap(&title, TITLE.2), wrap(&legend, LEGEND.2));
        let head = NAV + TITLE.1 * title_lines.len() as f64 + LEGEND.1 * legend.len() as f64 + 12.0;
        let height = (head + p.height * scale).ceil();
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {FRAME} {height}\" \
preserveAspectRatio=\"xMidYMin\" role=\"img\" font-family=\"sans-serif\"><title>"
        );
        markup::escape(&mut out, &title);
        out.push_str("</title>");
        if whole {
            out.push_str("<desc>");
            markup::escape(&mut out, &self.about);
            out.push_str("</desc>");
            out.push_str(PHONE_STYLE);
        }
        let _ = write!(
            out,
            "<rect width=\"{FRAME}\" height=\"{height}\" fill=\"#fff\"/>"
        );
        // Each line of words, its class (`t` the title, `l` the legend),
        // its baseline a line's height down.
        let mut y = NAV;
        let lines = (title_lines.iter().map(|l| ("t", TITLE, l)))
            .chain(legend.iter().map(|l| ("l", LEGEND, l)));
        for (class, (size, line_height, _), line) in lines {
            y += line_height;
            let bold = if class == "t" {
                " font-weight=\"bold\""
            } else {
                ""
            };
            let _ = write!(
                out,
                "<text class=\"{class}\" x=\"8\" y=\"{}\" font-size=\"{size}\"{bold}>",
                y - 0.25 * line_height
            );
            markup::escape(&mut out, line);
            out.push_str("</text>");
        }
        // The ways out, in a row above the title: home, and from a part
        // the page it was zoomed into from; each word in an area a finger
        // finds.
        let up = page.up();
        let mut nav = vec![(format!("{up}../index.html#maps"), "Home")];
        if let Some((_, parent)) = page.path.split_last() {
            let href = if parent.is_empty() {
                format!("../{}.svg", page.stem)
            } else {
                part_page(parent)
            };
            nav.push((href, "Zoom out"));
        }
        let mut x = 0.0;
        for (href, words) in nav {
            let width = 24.0 + 16.0 * words.len() as f64;
            let _ = write!(
                out,
                "<a href=\"{href}\"><rect x=\"{x}\" y=\"0\" width=\"{width}\" height=\"{NAV}\" \
fill=\"none\" pointer-events=\"fill\"/><text x=\"{}\" y=\"{}\" font-size=\"26\" \
fill=\"#0b4fb3\" text-decoration=\"underline\">{words}</text></a>",
                x + 8.0,
                NAV * 0.6
            );
            x += width + 16.0;
        }
        // A part's picture has no links of its own: its taps are its links.
        let class = if whole { "taps" } else { "links" };
        p.push_nested_with(&mut out, 0.0, head, FRAME, &[(class, taps)]);
        let [x0, y0, w, h] = page.rect;
        for &([x, y], words) in &self.labels {
            if x < x0 || x > x0 + w || y < y0 || y > y0 + h {
                continue;
            }
            let _ = write!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"24\" font-weight=\"bold\" \
text-anchor=\"middle\">{words}</text>",
                (x - x0) * scale,
                head + (y - y0) * scale + 30.0
            );
        }
        out.push_str("</svg>\n");
        out.into_bytes()
    }

    /// The map drawn for the home page, [`THUMBNAIL`] pixels a side: the
    /// picture alone, centred, with no band, no words and no link (the
    /// home page's link round it is the one way in), and only what is
    /// large enough to see there: lines under [`SHORTEST`] pixels and
    /// marks under [`SMALLEST`] are left out (a tic-tac-toe map's deepest
    /// boards would be grey haze), and each line is drawn at least
    /// [`HAIRLINE`] wide.
    pub fn thumbnail(&self) -> Vec<u8> {
        let p = &self.picture;
        let side = f64::from(THUMBNAIL);
        let scale = side / p.width.max(p.height);
        let (seen, long) = (SMALLEST / scale, SHORTEST / scale);
        let layers = (p.layers.iter())
            .map(|layer| {
                let shapes = match &layer.shapes {
                    Shapes::Lines(pen, lines) => Shapes::Lines(
                        Pen {
                            width: pen.width.max(HAIRLINE / scale),
                            ..*pen
                        },
                        (lines.iter())
                            .filter(|[x1, y1, x2, y2]| (x2 - x1).hypot(y2 - y1) >= long)
                            .copied()
                            .collect(),
                    ),
                    Shapes::Marks(pen, strokes, squares) => Shapes::Marks(
                        *pen,
                        strokes,
                        (squares.iter())
                            .filter(|[_, _, side]| *side >= seen)
                            .copied()
                            .collect(),
                    ),
                    Shapes::Dots(..) => layer.shapes.clone(),
                };
                Layer {
                    class: layer.class,
                    shapes,
                }
            })
            .collect();
        let drawn = Picture {
            width: p.width,
            height: p.height,
            layers,
            links: Vec::new(),
        };
        let (w, h) = (p.width * scale, p.height * scale);
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{THUMBNAIL}\" \
height=\"{THUMBNAIL}\" viewBox=\"0 0 {THUMBNAIL} {THUMBNAIL}\" role=\"img\"><title>"
        );
        markup::escape(&mut out, &self.title);
        out.push_str("</title>");
        drawn.push_nested(&mut out, (side - w) / 2.0, (side - h) / 2.0, w);
        out.push_str("</svg>\n");
        out.into_bytes()
    }

    /// Links (a puzzle: its nodes; a marks map: the map player's moves).
    pub fn links(&self) -> usize {
        self.picture.links.len()
    }
}

/// For each position where the map player moves in the map: the move it
/// makes, and the boards of the map from there (that position's included).
pub struct Plan<G: Game> {
    choice: FxHashMap<G, (G::Move, usize)>,
}

impl<G: Game> Plan<G> {
    /// The move the map makes at `position` and its count of boards.
    pub fn choice(&self, position: G) -> Option<(G::Move, usize)> {
        self.choice.get(&position).copied()
    }
}

/// Plans the map from `position`, where the map player moves: its move
/// there and below (each opponent reply after it followed), memoised.
fn plan_from<G: Game>(solver: &Solver<G>, position: G, plan: &mut Plan<G>) -> usize {
    if let Some((_, boards)) = plan.choice(position) {
        return boards;
    }
    let scores = solver.move_scores(position);
    let best = scores.iter().map(|(_, s)| *s).max().expect("a move");
    let mut chosen: Option<(G::Move, usize)> = None;
    for (mov, _) in scores.into_iter().filter(|(_, s)| *s == best) {
        let after = position.play(mov).expect("a legal move");
        let below = 1 + replies_boards(solver, after, plan);
        if chosen.is_none_or(|(_, b)| below < b) {
            chosen = Some((mov, below));
        }
    }
    let chosen = chosen.expect("a best move");
    plan.choice.insert(position, chosen);
    chosen.1
}

/// The boards below `after` (the opponent to move): each reply that does
/// not end the game has the map player's map.
fn replies_boards<G: Game>(solver: &Solver<G>, after: G, plan: &mut Plan<G>) -> usize {
    crate::graph::moves(after)
        .filter(|(_, next)| !next.is_over())
        .map(|(_, next)| plan_from(solver, next, plan))
        .sum()
}

/// The map of `player`'s optimal play from the start of `solver`'s game:
/// which move it makes wherever the map shows it to move, and the count
/// of boards of the whole map.
pub fn plan<G: Game>(solver: &Solver<G>, player: Side) -> (Plan<G>, usize) {
    let mut plan = Plan {
        choice: FxHashMap::default(),
    };
    let start = solver.graph().root();
    let boards = if start.mover() == player {
        plan_from(solver, start, &mut plan)
    } else {
        // The opponent's first moves, each square holding the map after it.
        1 + replies_boards(solver, start, &mut plan)
    };
    (plan, boards)
}

/// A square of the drawing: its top left corner and its side.
#[derive(Clone, Copy)]
struct Square {
    x: u32,
    y: u32,
    side: u32,
}

impl Square {
    /// As a picture places a mark: `[x, y, side]`.
    fn place(self) -> [f64; 3] {
        [f64::from(self.x), f64::from(self.y), f64::from(self.side)]
    }

    /// Cell `index` (reading order) of a grid of `cols` columns.
    fn cell(self, index: usize, cols: usize) -> Square {
        let side = self.side / cols as u32;
        Square {
            x: self.x + side * (index % cols) as u32,
            y: self.y + side * (index / cols) as u32,
            side,
        }
    }
}

/// The drawing of a marks map as it is made: each board's grid lines by
/// the board's side, the marks already on the boards by side, the map
/// player's moves and their links, each kept apart so that each kind is
/// one layer of one pen, links on top.
struct Marks<'a, G: Game> {
    plan: &'a Plan<G>,
    player: Side,
    analysis: &'a str,
    grids: std::collections::BTreeMap<u32, Vec<[f64; 4]>>,
    /// The squares of the marks on boards, by side, and of the map
    /// player's moves.
    placed: [Vec<[f64; 3]>; 2],
    played: Vec<[f64; 3]>,
    links: Vec<Link>,
    boards: usize,
}

impl<G: Game> Marks<'_, G> {
    /// A board: its grid and the marks on it.
    fn board(&mut self, position: G, at: Square) {
        let (rows, cols) = position.grid();
        debug_assert_eq!(rows, cols, "a square grid");
        self.boards += 1;
        let cell = at.side / cols as u32;
        let lines = self.grids.entry(at.side).or_default();
        for i in 1..cols as u32 {
            let (x, y) = (f64::from(at.x + i * cell), f64::from(at.y + i * cell));
            let (x0, y0, side) = (f64::from(at.x), f64::from(at.y), f64::from(at.side));
            lines.push([x, y0, x, y0 + side]);
            lines.push([x0, y, x0 + side, y]);
        }
        for index in 0..rows * cols {
            if let Some(side) = position.holder(index) {
                self.mark(side, at.cell(index, cols));
            }
        }
    }

    fn mark(&mut self, side: Side, at: Square) {
        self.placed[usize::from(side == Side::Second)].push(at.place());
    }

    /// The map player's board at `position`: its move a link, and the map
    /// after each reply in the reply's cell.
    fn map(&mut self, position: G, at: Square, moves: &str) {
        self.board(position, at);
        let (mov, _) = self.plan.choice(position).expect("a planned position");
        let after = position.play(mov).expect("a legal move");
        let cols = position.grid().1;
        let cell = at.cell(G::cell(mov), cols);
        let moves = said::<G>(moves, self.player, mov);
        let mut href = format!("../{}/", self.analysis);
        push_page_name(&mut href, after.key());
        self.links.push(Link {
            href,
            title: moves.clone(),
            area: Area::Square(cell.place()),
        });
        self.played.push(cell.place());
        self.replies(after, at, &moves);
    }

    /// In each empty cell of `after` (the opponent to move), the map after
    /// that reply, or the reply's mark where it ends the game.
    fn replies(&mut self, after: G, at: Square, moves: &str) {
        let cols = after.grid().1;
        for (reply, next) in crate::graph::moves(after) {
            let cell = at.cell(G::cell(reply), cols);
            if next.is_over() {
                self.mark(self.player.opponent(), cell);
            } else {
                let moves = said::<G>(moves, self.player.opponent(), reply);
                self.map(next, cell, &moves);
            }
        }
    }
}

/// `moves` and then `side`'s `mov`, in words: "X centre, O top left".
fn said<G: Game>(moves: &str, side: Side, mov: G::Move) -> String {
    let sep = if moves.is_empty() { "" } else { ", " };
    format!("{moves}{sep}{} {}", G::side_name(side), G::move_name(mov))
}

/// The map of `player`'s optimal play in `solver`'s game of placing marks,
/// linking to the analysis edition at `../<analysis>/`.
///
/// # Panics
/// If the game's map is not [`MapStyle::Marks`].
pub fn marks<G: Game>(solver: &Solver<G>, player: Side, analysis: &str) -> Map {
    let Some(MapStyle::Marks(strokes)) = G::MAP else {
        panic!("not a game of marks");
    };
    let (plan, boards) = plan(solver, player);
    let mut m = Marks {
        plan: &plan,
        player,
        analysis,
        grids: Default::default(),
        placed: Default::default(),
        played: Vec::new(),
        links: Vec::new(),
        boards: 0,
    };
    let start = solver.graph().root();
    let whole = Square {
        x: 0,
        y: 0,
        side: SIDE,
    };
    if start.mover() == player {
        m.map(start, whole, "");
    } else {
        m.board(start, whole);
        m.replies(start, whole, "");
    }
    debug_assert_eq!(m.boards, boards, "the plan counts the boards drawn");
    let name = G::side_name(player);
    let other = G::side_name(player.opponent());
    let title = format!("{}: the map of optimal play for {name}", G::TEXTS.title);
    let paper = format!(
        "{name}'s move is the large mark in the map colour. When {other} answers in a \
square, that square holds the map of the game from there, a third of the size. {name} never \
loses: every move is the best the solver finds, a win as soon as possible, else a draw. \
{boards} boards."
    );
    let about =
        format!("{paper} Each of {name}'s moves links to the analysis of the board after it.");
    let legend = format!(
        "{name}'s moves are the large red marks, each a link to the analysis of its board. \
Where {other} answers in a square, that square holds the map from there, a third of the size."
    );
    // Each board's lines a hundredth of its side, the largest first.
    let mut layers: Vec<Layer> = (m.grids.into_iter().rev())
        .map(|(side, lines)| Layer {
            class: "grid",
            shapes: Shapes::Lines(
                Pen {
                    colour: "#444",
                    width: f64::from(side) / 100.0,
                    round: false,
                },
                lines,
            ),
        })
        .collect();
    // The marks: each side's in black, the map player's moves heavier, in
    // the map colour (so they stand apart in grayscale too). Stroke widths
    // are in the 100-unit cell of each mark, so they scale with it.
    let ink = Pen {
        colour: INK,
        width: 6.0,
        round: true,
    };
    let heavy = Pen {
        colour: COLOUR,
        width: 13.0,
        round: true,
    };
    let [first, second] = m.placed;
    layers.push(Layer {
        class: "m0",
        shapes: Shapes::Marks(ink, strokes[0], first),
    });
    layers.push(Layer {
        class: "m1",
        shapes: Shapes::Marks(ink, strokes[1], second),
    });
    layers.push(Layer {
        class: "p",
        shapes: Shapes::Marks(
            heavy,
            strokes[usize::from(player == Side::Second)],
            m.played,
        ),
    });
    Map {
        picture: Picture {
            width: f64::from(SIDE),
            height: f64::from(SIDE),
            layers,
            links: m.links,
        },
        title,
        about,
        paper,
        legend,
        labels: Vec::new(),
        aspect: 1.0,
        split: Split::Thirds,
        boards,
    }
}

/// The map of a puzzle: its state graph, each position a node
/// linking to its page in `../<analysis>/`, one move an edge, and the
/// shortest solution from the start in the map colour.
///
/// # Panics
/// If the game's map is not [`MapStyle::Graph`].
pub fn graph<G: Game>(solver: &Solver<G>, analysis: &str) -> Map {
    assert_eq!(G::MAP, Some(MapStyle::Graph), "not a puzzle's map");
    assert!(
        solver
            .graph()
            .boards()
            .iter()
            .all(|p| p.map_point().is_some()),
        "every position of a puzzle's map has its point"
    );
    let nodes: Vec<(G, (f64, f64))> = solver
        .graph()
        .boards()
        .iter()
        .filter_map(|&p| p.map_point().map(|at| (p, at)))
        .collect();
    let margin = 1.0;
    let width = nodes.iter().map(|(_, (x, _))| *x).fold(0.0, f64::max) + 2.0 * margin;
    let height = nodes.iter().map(|(_, (_, y))| *y).fold(0.0, f64::max) + 2.0 * margin;
    let at = |p: G| {
        let (x, y) = p.map_point().expect("a node");
        (x + margin, y + margin)
    };
    // Each edge once, whichever end it is found from (the solved position
    // has no moves of its own).
    let pairs: std::collections::BTreeSet<(G, G)> = nodes
        .iter()
        .flat_map(|&(p, _)| neighbours(p).into_iter().map(move |q| (p.min(q), p.max(q))))
        .collect();
    let line = |p: G, q: G| {
        let ((x1, y1), (x2, y2)) = (at(p), at(q));
        [x1, y1, x2, y2]
    };
    let edges = pairs.into_iter().map(|(p, q)| line(p, q)).collect();
    let solution = solution(solver);
    let route = solution.windows(2).map(|w| line(w[0], w[1])).collect();
    // Each node a dot of this radius, in the map colour on the solution;
    // its link a disc of half the length of an edge, so that a finger
    // finds it and no two touch.
    let r = 0.3;
    let mut dots: [Vec<[f64; 2]>; 2] = Default::default();
    let mut links = Vec::with_capacity(nodes.len());
    for &(p, _) in &nodes {
        let (x, y) = at(p);
        let mut title = String::new();
        p.push_title(None, &mut title);
        let mut href = format!("../{analysis}/");
        push_page_name(&mut href, p.key());
        dots[usize::from(solution.contains(&p))].push([x, y]);
        links.push(Link {
            href,
            title,
            area: Area::Disc([x, y, 0.5]),
        });
    }
    let moves = solution.len() - 1;
    let title = format!("{}: the map of every position", G::TEXTS.title);
    // What a dot and a line are, and where the solution runs, are the
    // game's words.
    let words = G::GRAPH_WORDS;
    let paper = format!(
        "{} The shortest solution, {moves} moves from Start to Goal, is the thick line in the \
map colour{}. {} positions.",
        words.shape,
        words.route,
        nodes.len()
    );
    let about = format!("{paper} Each dot links to the analysis of its position.");
    let edge = Pen {
        colour: "#777",
        width: 0.08,
        round: false,
    };
    let path = Pen {
        colour: COLOUR,
        width: 0.25,
        round: true,
    };
    let [off_path, on_path] = dots;
    let dot = |p: G| {
        let (x, y) = at(p);
        [x, y]
    };
    let layers = vec![
        Layer {
            class: "edges",
            shapes: Shapes::Lines(edge, edges),
        },
        Layer {
            class: "solution",
            shapes: Shapes::Lines(path, route),
        },
        Layer {
            class: "positions",
            shapes: Shapes::Dots(INK, r, off_path),
        },
        Layer {
            class: "on-solution",
            shapes: Shapes::Dots(COLOUR, r, on_path),
        },
    ];
    Map {
        picture: Picture {
            width,
            height,
            layers,
            links,
        },
        title,
        about,
        paper,
        legend: format!(
            "Each dot is {}, a link to its analysis; a line joins two positions one move \
apart. The thick red line is the shortest solution, from Start to Goal.",
            words.dot
        ),
        labels: vec![
            (dot(solution[0]), "Start"),
            (dot(*solution.last().expect("a goal")), "Goal"),
        ],
        aspect: height / width,
        split: Split::Triangle,
        boards: nodes.len(),
    }
}

/// The nodes of a puzzle's map one move from `p`, in order.
pub fn neighbours<G: Game>(p: G) -> Vec<G> {
    let mut out: Vec<G> = crate::graph::moves(p).map(|(_, next)| next).collect();
    out.sort();
    out.dedup();
    out
}

/// The shortest solution from the puzzle's start, by its nodes: each step
/// the first best move the solver scores, to the solved position.
pub fn solution<G: Game>(solver: &Solver<G>) -> Vec<G> {
    let mut p = solver.graph().root();
    let mut path = vec![p];
    while !p.is_over() {
        let (_, next) = solver
            .move_scores(p)
            .into_iter()
            .map(|(mov, s)| (s, p.play(mov).expect("a legal move")))
            .max_by_key(|&(s, _)| s)
            .expect("a move from an unsolved position");
        p = next;
        path.push(p);
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::Board;
    use crate::graph::StateGraph;

    /// The Towers of Hanoi of `discs` discs, solved.
    fn hanoi(discs: u8) -> Solver<crate::games::hanoi::Hanoi> {
        Solver::with_rules(crate::games::hanoi::Rules { discs })
    }

    /// A puzzle map's words for its dots and lines are its game's: the
    /// Towers of Hanoi's say what they said when the map wrote them, and
    /// the words for any other puzzle name no disc or triangle.
    #[test]
    fn a_puzzle_maps_words_are_its_games() {
        let m = graph(&hanoi(3), "hanoi-analysis");
        assert_eq!(
            m.paper,
            "Every position with no disc lifted is a dot, and a line joins two positions one \
move apart: the Sierpinski triangle. All the discs on one peg are its three corners. The \
shortest solution, 7 moves from Start to Goal, is the thick line in the map colour along one \
side. 27 positions."
        );
        assert_eq!(
            m.legend,
            "Each dot is a position with no disc lifted, a link to its analysis; a line joins \
two positions one move apart. The thick red line is the shortest solution, from Start to Goal."
        );
        let plain = crate::game::GraphWords::PLAIN;
        for words in [plain.shape, plain.route, plain.dot] {
            assert!(
                !words.contains("disc") && !words.contains("triangle"),
                "{words}"
            );
        }
    }

    #[test]
    fn every_hanoi_move_is_an_edge_of_length_one_and_the_corners_are_whole_stacks() {
        for discs in 3..=7 {
            let solver = hanoi(discs);
            for &p in solver.graph().boards() {
                let Some((x, y)) = p.map_point() else {
                    continue;
                };
                for q in neighbours(p) {
                    let (u, v) = q.map_point().unwrap();
                    let d = ((x - u).powi(2) + (y - v).powi(2)).sqrt();
                    assert!((d - 1.0).abs() < 1e-9, "{p:?} to {q:?}: {d}");
                }
            }
            let side = f64::from((1u32 << discs) - 1);
            let h = side * 3f64.sqrt() / 2.0;
            let n = usize::from(discs);
            for (peg, (cx, cy)) in [(0, (0.0, h)), (1, (side / 2.0, 0.0)), (2, (side, h))] {
                let stack = crate::games::hanoi::Hanoi::from_pegs(&vec![peg; n]).unwrap();
                let (x, y) = stack.map_point().unwrap();
                assert!(
                    (x - cx).abs() < 1e-9 && (y - cy).abs() < 1e-9,
                    "{discs} discs on {peg}"
                );
            }
            assert_eq!(solution(&solver).len(), (1 << discs) as usize);
        }
    }

    /// How many things a layer draws.
    fn drawn(layer: &Layer) -> usize {
        match &layer.shapes {
            Shapes::Lines(_, lines) => lines.len(),
            Shapes::Marks(_, _, squares) => squares.len(),
            Shapes::Dots(_, _, at) => at.len(),
        }
    }

    #[test]
    fn each_move_of_the_map_player_is_drawn_once_under_its_link() {
        let solver = Solver::new(StateGraph::<Board>::new());
        for player in [Side::First, Side::Second] {
            let m = marks(&solver, player, "analysis");
            let layers = &m.picture.layers;
            let n = layers.len();
            let grid: usize = layers[..n - 3].iter().map(drawn).sum();
            assert_eq!(grid, 4 * m.boards, "two lines each way a board");
            let Shapes::Marks(_, _, played) = &layers[n - 1].shapes else {
                panic!("the moves last");
            };
            let linked: Vec<[f64; 3]> = (m.picture.links.iter())
                .map(|l| match l.area {
                    Area::Square(at) => at,
                    Area::Disc(_) | Area::Rect(_) => panic!("a square"),
                })
                .collect();
            assert_eq!(played, &linked);
        }
        let hanoi = graph(&hanoi(4), "hanoi-analysis");
        let layers = &hanoi.picture.layers;
        assert_eq!(drawn(&layers[1]), 15, "the solution's moves");
        assert_eq!(drawn(&layers[2]) + drawn(&layers[3]), hanoi.boards);
        assert_eq!(drawn(&layers[3]), 16, "the solution's positions");
        assert_eq!(hanoi.links(), hanoi.boards);
    }

    /// A map's thumbnail is its picture alone, drawn for its size: no
    /// link, no words, no mark or line too small to see at
    /// [`THUMBNAIL`] pixels (the map for O's deepest boards, 3 pixels
    /// wide, are left out), and it is the last of the map's pages.
    #[test]
    fn a_thumbnail_has_no_link_no_words_and_nothing_too_small() {
        let solver = Solver::new(StateGraph::<Board>::new());
        let maps = [
            marks(&solver, Side::Second, "analysis"),
            graph(&hanoi(4), "hanoi-analysis"),
        ];
        for m in maps {
            let pages = m.pages("map/m.svg");
            let (file, svg) = pages.last().unwrap();
            assert_eq!(file, "map/m-small.svg");
            let svg = String::from_utf8(svg.clone()).unwrap();
            assert!(!svg.contains("<a ") && !svg.contains("<text"), "{svg}");
            assert!(svg.starts_with(&format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{THUMBNAIL}\" height=\"{THUMBNAIL}\""
            )));
            let scale = f64::from(THUMBNAIL) / m.picture.width.max(m.picture.height);
            // Every mark drawn is at least SMALLEST pixels a side.
            for part in svg.split("transform=\"matrix(").skip(1) {
                let k: f64 = part.split(' ').next().unwrap().parse().unwrap();
                assert!(k * 100.0 * scale >= SMALLEST, "{k}");
            }
            let whole = String::from_utf8(pages[0].1.clone()).unwrap();
            assert!(svg.len() < whole.len() / 4 || m.split == Split::Triangle);
        }
    }

    #[test]
    fn the_same_solver_gives_the_same_map() {
        let solver = Solver::new(StateGraph::<Board>::new());
        let a = marks(&solver, Side::First, "analysis");
        assert_eq!(a, marks(&solver, Side::First, "analysis"));
        assert_eq!(a.boards, a.links());
    }
}
