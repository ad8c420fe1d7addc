//! The map of a whole game in one picture, as standalone SVG: for a game
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
//! never nest, and each link's clickable area is exactly its cell. The
//! same solver gives the same bytes.

use rustc_hash::FxHashMap;

use crate::game::{Game, MapStyle, Side, Stroke};
use crate::markup;
use crate::screen::push_page_name;
use crate::solver::Solver;

/// `text` escaped for SVG's text and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    markup::escape(&mut out, text);
    out
}

/// The map colour, for the map player's marks and a puzzle's solution.
pub const COLOUR: &str = "#c8102e";

/// The side of a tic-tac-toe map in SVG units: 3^6, so that every cell,
/// down to the smallest (3 units, five levels down), is a whole number.
pub const SIDE: u32 = 729;

/// The ink of marks already on a board, and of a puzzle's nodes.
const INK: &str = "#222";

/// A pen: its colour (`#rgb` or `#rrggbb`), its width, and whether its
/// lines end round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pen {
    /// The colour, as SVG writes it.
    pub colour: &'static str,
    /// The width, in the units of what it draws.
    pub width: f64,
    /// Round ends, or square cut ones.
    pub round: bool,
}

/// One layer of a [`Picture`]; layers are drawn in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Layer {
    /// Straight lines, each `[x1, y1, x2, y2]`.
    Lines(Pen, Vec<[f64; 4]>),
    /// One mark, drawn in each square `[x, y, side]`: its strokes scaled
    /// from their 100-unit cell, the pen's width in the cell's units.
    Marks(Pen, &'static [Stroke], Vec<[f64; 3]>),
    /// Filled dots of one colour and radius, each at `[x, y]`.
    Dots(&'static str, f64, Vec<[f64; 2]>),
}

/// A map as plain vector shapes on white, in its SVG's units (y down):
/// what the SVG draws, without the links, made beside it from the same
/// walk, for print.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// Its width.
    pub width: f64,
    /// Its height.
    pub height: f64,
    /// What it draws, bottom first.
    pub layers: Vec<Layer>,
}

/// A map, made: its SVG, its words, and what the README and the tests
/// count.
#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    /// The standalone SVG document.
    pub svg: Vec<u8>,
    /// The same drawing as shapes, for print.
    pub picture: Picture,
    /// Its title (the SVG's `<title>`).
    pub title: String,
    /// What it shows (the SVG's `<desc>`).
    pub about: String,
    /// Its height over its width.
    pub aspect: f64,
    /// Boards drawn (a puzzle: its nodes).
    pub boards: usize,
    /// Links (a puzzle: its nodes; a marks map: the map player's moves).
    pub links: usize,
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

/// The drawing of a marks map as it is made: the grids, the marks
/// already on the boards, and the links, each kept apart so that each
/// kind is drawn with one style, links on top.
struct Marks<'a, G: Game> {
    plan: &'a Plan<G>,
    /// Each side's mark in SVG.
    shapes: [String; 2],
    player: Side,
    analysis: &'a str,
    /// Each board's grid lines, by the board's side: as SVG path data,
    /// and as lines.
    grids: std::collections::BTreeMap<u32, (String, Vec<[f64; 4]>)>,
    marks: String,
    links: String,
    /// The squares of the marks on boards, by side, and of the map
    /// player's moves.
    placed: [Vec<[f64; 3]>; 2],
    played: Vec<[f64; 3]>,
    boards: usize,
    link_count: usize,
}

impl<G: Game> Marks<'_, G> {
    /// A board: its grid and the marks on it.
    fn board(&mut self, position: G, at: Square) {
        use std::fmt::Write as _;
        let (rows, cols) = position.grid();
        debug_assert_eq!(rows, cols, "a square grid");
        self.boards += 1;
        let cell = at.side / cols as u32;
        let (grids, lines) = self.grids.entry(at.side).or_default();
        for i in 1..cols as u32 {
            let (x, y) = (f64::from(at.x + i * cell), f64::from(at.y + i * cell));
            let (x0, y0, side) = (f64::from(at.x), f64::from(at.y), f64::from(at.side));
            lines.push([x, y0, x, y0 + side]);
            lines.push([x0, y, x0 + side, y]);
            let _ = write!(
                grids,
                "M{} {}v{}M{} {}h{}",
                at.x + i * cell,
                at.y,
                at.side,
                at.x,
                at.y + i * cell,
                at.side
            );
        }
        for index in 0..rows * cols {
            if let Some(side) = position.holder(index) {
                self.mark(side, at.cell(index, cols));
            }
        }
    }

    fn mark(&mut self, side: Side, at: Square) {
        let class = if side == Side::First { "m0" } else { "m1" };
        push_mark(&mut self.marks, class, &self.shapes, side, at);
        self.placed[usize::from(side == Side::Second)].push(at.place());
    }

    /// The map player's board at `position`: its move a link, and the map
    /// after each reply in the reply's cell.
    fn map(&mut self, position: G, at: Square, moves: &str) {
        use std::fmt::Write as _;
        self.board(position, at);
        let (mov, _) = self.plan.choice(position).expect("a planned position");
        let after = position.play(mov).expect("a legal move");
        let cols = position.grid().1;
        let cell = at.cell(G::cell(mov), cols);
        let moves = said::<G>(moves, self.player, mov);
        self.link_count += 1;
        let mut href = format!("../{}/", self.analysis);
        push_page_name(&mut href, after.key());
        let _ = write!(
            self.links,
            "<a href=\"{href}\"><title>{}</title><rect x=\"{x}\" y=\"{y}\" width=\"{s}\" height=\"{s}\"/>",
            escape(&moves),
            x = cell.x,
            y = cell.y,
            s = cell.side
        );
        push_mark(&mut self.links, "p", &self.shapes, self.player, cell);
        self.links.push_str("</a>");
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

/// `side`'s mark in the square `at`, of `class`: the game's shape, drawn
/// in a 100-unit cell, scaled into it (with its stroke). Inline, not a
/// `<use>` of a symbol, which SVG readers resolve by id each time.
fn push_mark(out: &mut String, class: &str, shapes: &[String; 2], side: Side, at: Square) {
    use std::fmt::Write as _;
    let shape = &shapes[usize::from(side == Side::Second)];
    let scale = f64::from(at.side) / 100.0;
    let _ = write!(
        out,
        "<g class=\"{class}\" transform=\"matrix({scale} 0 0 {scale} {} {})\">{shape}</g>",
        at.x, at.y
    );
}

/// A mark's strokes as SVG: its lines one path, each circle a circle.
fn strokes_svg(strokes: &[Stroke]) -> String {
    use std::fmt::Write as _;
    let (mut path, mut circles) = (String::new(), String::new());
    for s in strokes {
        let _ = match *s {
            Stroke::Line(x1, y1, x2, y2) => write!(path, "M{x1} {y1}L{x2} {y2}"),
            Stroke::Circle(x, y, r) => {
                write!(circles, "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\"/>")
            }
        };
    }
    if path.is_empty() {
        circles
    } else {
        format!("<path d=\"{path}\"/>{circles}")
    }
}

/// `moves` and then `side`'s `mov`, in words: "X centre, O top left".
fn said<G: Game>(moves: &str, side: Side, mov: G::Move) -> String {
    let sep = if moves.is_empty() { "" } else { ", " };
    format!("{moves}{sep}{} {}", G::side_name(side), G::move_name(mov))
}

/// The start of a standalone SVG document of `width` by `height` units,
/// with its title and description.
fn svg_head(width: f64, height: f64, title: &str, desc: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" role=\"img\">\
<title>{}</title><desc>{}</desc>",
        escape(title),
        escape(desc)
    )
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
        shapes: strokes.map(strokes_svg),
        player,
        analysis,
        grids: Default::default(),
        marks: String::new(),
        links: String::new(),
        placed: Default::default(),
        played: Vec::new(),
        boards: 0,
        link_count: 0,
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
    let about = format!(
        "{name}'s move is the large mark in the map colour. When {other} answers in a \
square, that square holds the map of the game from there, a third of the size. {name} never \
loses: every move is the best the solver finds, a win as soon as possible, else a draw. Each \
of {name}'s moves links to the analysis of the board after it. {boards} boards."
    );
    let mut svg = svg_head(f64::from(SIDE), f64::from(SIDE), &title, &about);
    // The marks: each side's in black, the map player's heavier, in the
    // map colour (so it stands apart in grayscale too). Stroke widths are
    // in the 100-unit cell of each mark, so they scale with it.
    let (ink, heavy) = (
        Pen {
            colour: INK,
            width: 6.0,
            round: true,
        },
        Pen {
            colour: COLOUR,
            width: 13.0,
            round: true,
        },
    );
    svg += &format!(
        "<style>.m0,.m1,.p{{fill:none;stroke:{};stroke-width:{};stroke-linecap:round}}\
.p{{stroke:{};stroke-width:{}}}</style>",
        ink.colour, ink.width, heavy.colour, heavy.width
    );
    svg += &format!("<rect width=\"{SIDE}\" height=\"{SIDE}\" fill=\"#fff\"/>");
    let mut layers = Vec::new();
    // Each board's lines a hundredth of its side.
    for (side, (d, lines)) in m.grids.into_iter().rev() {
        let pen = Pen {
            colour: "#444",
            width: f64::from(side) / 100.0,
            round: false,
        };
        svg += &format!(
            "<path fill=\"none\" stroke=\"{}\" stroke-width=\"{:.2}\" d=\"{d}\"/>",
            pen.colour, pen.width
        );
        layers.push(Layer::Lines(pen, lines));
    }
    let [first, second] = m.placed;
    layers.push(Layer::Marks(ink, strokes[0], first));
    layers.push(Layer::Marks(ink, strokes[1], second));
    layers.push(Layer::Marks(
        heavy,
        strokes[usize::from(player == Side::Second)],
        m.played,
    ));
    // A link's rectangle is unpainted but takes the pointer (no opacity,
    // which svg2pdf would name by a hash map's order in the poster).
    svg += &format!(
        "<g>{}</g><g fill=\"none\" pointer-events=\"all\">{}</g></svg>\n",
        m.marks, m.links
    );
    Map {
        svg: svg.into_bytes(),
        picture: Picture {
            width: f64::from(SIDE),
            height: f64::from(SIDE),
            layers,
        },
        title,
        about,
        aspect: 1.0,
        boards,
        links: m.link_count,
    }
}

/// The map of a puzzle: its state graph, each resting position a node
/// linking to its page in `../<analysis>/`, one move an edge, and the
/// shortest solution from the start in the map colour.
///
/// # Panics
/// If the game's map is not [`MapStyle::Graph`].
pub fn graph<G: Game>(solver: &Solver<G>, analysis: &str) -> Map {
    use std::fmt::Write as _;
    assert_eq!(G::MAP, Some(MapStyle::Graph), "not a puzzle's map");
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
        .flat_map(|&(p, _)| {
            resting_neighbours(p)
                .into_iter()
                .map(move |q| (p.min(q), p.max(q)))
        })
        .collect();
    let mut edges = String::new();
    let mut edge_lines = Vec::new();
    for (p, q) in pairs {
        let ((x1, y1), (x2, y2)) = (at(p), at(q));
        let _ = write!(edges, "M{x1:.3} {y1:.3}L{x2:.3} {y2:.3}");
        edge_lines.push([x1, y1, x2, y2]);
    }
    let solution = solution(solver);
    let mut path = String::new();
    for (i, &p) in solution.iter().enumerate() {
        let (x, y) = at(p);
        let _ = write!(path, "{}{x:.3} {y:.3}", if i == 0 { "M" } else { "L" });
    }
    let path_lines = solution
        .windows(2)
        .map(|w| {
            let ((x1, y1), (x2, y2)) = (at(w[0]), at(w[1]));
            [x1, y1, x2, y2]
        })
        .collect();
    let mut links = String::new();
    // Each node a dot of this radius, in the map colour on the solution.
    let r = 0.3;
    let mut dots: [Vec<[f64; 2]>; 2] = Default::default();
    for &(p, _) in &nodes {
        let (x, y) = at(p);
        let mut title = String::new();
        p.push_title(&mut title);
        let mut href = format!("../{analysis}/");
        push_page_name(&mut href, p.key());
        let on_path = solution.contains(&p);
        dots[usize::from(on_path)].push([x, y]);
        let _ = write!(
            links,
            "<a href=\"{href}\"><title>{}</title><circle cx=\"{x:.3}\" cy=\"{y:.3}\" r=\"{r}\"{}/></a>",
            escape(&title),
            if on_path { " class=\"s\"" } else { "" }
        );
    }
    let moves = solution.len() - 1;
    let title = format!("{}: the map of every position", G::TEXTS.title);
    let about = format!(
        "Every position with no disc lifted is a dot, and a line joins two positions one \
move apart: the Sierpinski triangle. All the discs on one peg are its three corners. The \
shortest solution, {moves} moves from the start to the solved position, is drawn in the map \
colour along one side. Each dot links to the analysis of its position. {} positions.",
        nodes.len()
    );
    let (edge, route) = (
        Pen {
            colour: "#777",
            width: 0.08,
            round: false,
        },
        Pen {
            colour: COLOUR,
            width: 0.25,
            round: true,
        },
    );
    let mut svg = svg_head(width, height, &title, &about);
    let _ = writeln!(
        svg,
        "<style>.s{{fill:{COLOUR}}}</style><rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>\
<path fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" d=\"{edges}\"/>\
<path fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\" d=\"{path}\"/>\
<g fill=\"{INK}\">{links}</g></svg>",
        edge.colour, edge.width, route.colour, route.width
    );
    let [off_path, on_path] = dots;
    let layers = vec![
        Layer::Lines(edge, edge_lines),
        Layer::Lines(route, path_lines),
        Layer::Dots(INK, r, off_path),
        Layer::Dots(COLOUR, r, on_path),
    ];
    Map {
        svg: svg.into_bytes(),
        picture: Picture {
            width,
            height,
            layers,
        },
        title,
        about,
        aspect: height / width,
        boards: nodes.len(),
        links: nodes.len(),
    }
}

/// The nodes of a puzzle's map one move from `p`: directly, or through a
/// position that is no node (a disc lifted), never back to `p`.
pub fn resting_neighbours<G: Game>(p: G) -> Vec<G> {
    let mut out = Vec::new();
    for (_, next) in crate::graph::moves(p) {
        if next.map_point().is_some() {
            out.push(next);
            continue;
        }
        for (_, then) in crate::graph::moves(next) {
            if then != p && then.map_point().is_some() {
                out.push(then);
            }
        }
    }
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
        let scores = solver.move_scores(p);
        let (mov, _) = *scores
            .iter()
            .max_by_key(|(_, s)| *s)
            .expect("a move from an unsolved position");
        p = p.play(mov).expect("a legal move");
        if p.map_point().is_some() {
            path.push(p);
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::Board;
    use crate::graph::StateGraph;

    #[test]
    fn every_hanoi_move_is_an_edge_of_length_one_and_the_corners_are_whole_stacks() {
        for discs in 3..=7 {
            let solver = crate::site::hanoi_solver(discs);
            for &p in solver.graph().boards() {
                let Some((x, y)) = p.map_point() else {
                    continue;
                };
                for q in resting_neighbours(p) {
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
        match layer {
            Layer::Lines(_, lines) => lines.len(),
            Layer::Marks(_, _, squares) => squares.len(),
            Layer::Dots(_, _, at) => at.len(),
        }
    }

    #[test]
    fn the_picture_draws_what_the_svg_draws() {
        let solver = Solver::new(StateGraph::<Board>::new());
        for player in [Side::First, Side::Second] {
            let m = marks(&solver, player, "analysis");
            let svg = String::from_utf8(m.svg.clone()).unwrap();
            let layers = &m.picture.layers;
            let n = layers.len();
            let grid: usize = layers[..n - 3].iter().map(drawn).sum();
            assert_eq!(grid, 4 * m.boards, "two lines each way a board");
            for (i, class) in ["m0", "m1", "p"].iter().enumerate() {
                let in_svg = svg.matches(&format!("class=\"{class}\" ")).count();
                assert_eq!(drawn(&layers[n - 3 + i]), in_svg, "{class}");
            }
            assert_eq!(drawn(&layers[n - 1]), m.links);
        }
        let hanoi = graph(&crate::site::hanoi_solver(4), "hanoi-analysis");
        let layers = &hanoi.picture.layers;
        assert_eq!(drawn(&layers[1]), 15, "the solution's moves");
        assert_eq!(drawn(&layers[2]) + drawn(&layers[3]), hanoi.boards);
        assert_eq!(drawn(&layers[3]), 16, "the solution's positions");
    }

    #[test]
    fn the_same_solver_gives_the_same_map() {
        let solver = Solver::new(StateGraph::<Board>::new());
        let a = marks(&solver, Side::First, "analysis");
        assert_eq!(a, marks(&solver, Side::First, "analysis"));
        assert_eq!(a.boards, a.links);
    }
}
