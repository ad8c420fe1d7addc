//! The Towers of Hanoi, the one-player puzzle: three pegs and 3 to 7
//! discs, all starting on the left peg, solved when all are on the right
//! peg. A disc may never lie on a smaller one.
//!
//! A move is a disc from one peg to another, tapped in two: a peg is
//! selected to lift its top disc (its view, a page of its own, shows it
//! lifted: [`crate::view::View`]), then a peg to drop it on, or the same
//! peg to put it back. The grid has a column a peg: above each peg the
//! air, where a lifted disc shows, then the peg's levels, top first.
//!
//! Invariant: a position is a `Copy` value of a disc count and each
//! disc's peg; [`Hanoi::play`] never lays a disc on a smaller one, and
//! refuses a move that would, leaving the position as it was.

use std::borrow::Cow;
use std::fmt;

use crate::game::{
    Face, Game, MapStyle, Note, Outcome, Side, Texts, UnderBoard, Verdict, Weighing,
};

/// The fewest discs `--hanoi-discs` takes.
pub const MIN_DISCS: u8 = 3;

/// The most discs: 3^7 = 2,187 positions.
pub const MAX_DISCS: u8 = 7;

/// The height of a cell of the air above a peg, in the units of its width
/// of 100: room for a lifted disc.
pub const AIR: u32 = 34;
/// The height of a level of a peg, one flat disc.
pub const LEVEL: u32 = 23;
/// The height of a peg's bottom level: a disc and the base.
pub const BOTTOM: u32 = 33;

/// Which puzzle: how many discs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Discs, [`MIN_DISCS`] to [`MAX_DISCS`].
    pub discs: u8,
}

impl Default for Rules {
    /// Four discs: 81 positions, solved in 15 moves.
    fn default() -> Self {
        Rules { discs: 4 }
    }
}

/// The pegs, left to right.
const PEGS: [&str; 3] = ["left peg", "middle peg", "right peg"];

/// A position: each disc's peg, in base 3 with the smallest disc the
/// lowest digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hanoi {
    discs: u8,
    pegs: u16,
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// There is no such peg.
    NoPeg(u8),
    /// Nothing to lift: the peg is empty.
    Empty(u8),
    /// The disc is larger than the top disc of that peg.
    Larger(u8),
    /// A disc cannot move onto its own peg.
    Same(u8),
    /// The puzzle is solved.
    Solved,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::NoPeg(p) => write!(f, "there is no peg {p}"),
            PlayError::Empty(p) => write!(f, "the {} is empty", PEGS[usize::from(*p)]),
            PlayError::Larger(p) => write!(
                f,
                "the disc is larger than the top disc of the {}",
                PEGS[usize::from(*p)]
            ),
            PlayError::Same(p) => write!(f, "the disc is on the {} already", PEGS[usize::from(*p)]),
            PlayError::Solved => f.write_str("the puzzle is solved"),
        }
    }
}

impl std::error::Error for PlayError {}

/// 3^n.
fn pow3(n: u8) -> u16 {
    3u16.pow(u32::from(n))
}

impl Hanoi {
    /// All `rules.discs` discs on the left peg.
    pub fn start(rules: Rules) -> Hanoi {
        Hanoi {
            discs: rules.discs.clamp(1, MAX_DISCS),
            pegs: 0,
        }
    }

    /// The position with each disc's peg from `pegs` (smallest disc
    /// first), if every peg is below 3.
    pub fn from_pegs(pegs: &[u8]) -> Option<Hanoi> {
        if pegs.is_empty() || pegs.len() > usize::from(MAX_DISCS) || pegs.iter().any(|&p| p > 2) {
            return None;
        }
        let code = pegs
            .iter()
            .rev()
            .fold(0u16, |acc, &p| acc * 3 + u16::from(p));
        Some(Hanoi {
            discs: pegs.len() as u8,
            pegs: code,
        })
    }

    /// How many discs.
    pub fn discs(self) -> u8 {
        self.discs
    }

    /// The peg of disc `d` (0 the smallest).
    pub fn peg_of(self, d: u8) -> u8 {
        (self.pegs / pow3(d) % 3) as u8
    }

    /// The smallest disc on `peg`, if any: the one that can be lifted.
    pub fn top(self, peg: u8) -> Option<u8> {
        (0..self.discs).find(|&d| self.peg_of(d) == peg)
    }

    /// The discs on `peg`, bottom (largest) first.
    pub fn stack(self, peg: u8) -> Vec<u8> {
        (0..self.discs)
            .rev()
            .filter(|&d| self.peg_of(d) == peg)
            .collect()
    }

    /// The discs standing on `peg`, bottom first, with the top disc of
    /// `lifted` in the air: its stack without a disc lifted from it.
    fn standing(self, lifted: Option<u8>, peg: u8) -> Vec<u8> {
        let mut stack = self.stack(peg);
        if lifted == Some(peg) {
            stack.pop();
        }
        stack
    }

    /// Whether every disc is on the right peg.
    pub fn is_solved(self) -> bool {
        self.pegs == pow3(self.discs) - 1
    }

    /// Whether the top disc of `from` may go onto `to`: `from` holds a
    /// disc, and `to` is empty or its top disc is larger.
    pub fn can_move(self, from: u8, to: u8) -> bool {
        match (self.top(from), self.top(to)) {
            (Some(_), _) if from == to => false,
            (Some(a), Some(b)) => a < b,
            (Some(_), None) => true,
            (None, _) => false,
        }
    }

    /// The top disc of `from` moved onto `to`; the caller has checked
    /// [`Hanoi::can_move`].
    fn moved(self, from: u8, to: u8) -> Hanoi {
        let d = self.top(from).expect("a disc to move");
        let unit = pow3(d);
        Hanoi {
            discs: self.discs,
            pegs: self.pegs - u16::from(from) * unit + u16::from(to) * unit,
        }
    }

    /// The positions one move away, ignoring whether the puzzle is
    /// solved: the puzzle's own graph.
    pub fn neighbours(self) -> impl Iterator<Item = Hanoi> {
        (0..3u8).flat_map(move |from| {
            (0..3u8)
                .filter(move |&to| self.can_move(from, to))
                .map(move |to| self.moved(from, to))
        })
    }

    /// The disc shown in cell `index` of the grid with the top disc of
    /// `lifted` in the air, and whether it is lifted: row 0 is the air
    /// above the pegs, rows 1 to `discs` the levels of each peg, top
    /// first.
    fn disc_at(self, lifted: Option<u8>, index: usize) -> (u8, Option<(u8, bool)>) {
        let (row, peg) = (index / 3, (index % 3) as u8);
        if row == 0 {
            return (
                peg,
                (lifted == Some(peg)).then(|| (self.top(peg).expect("a lifted disc"), true)),
            );
        }
        let stack = self.standing(lifted, peg);
        let level = usize::from(self.discs) - row;
        (peg, stack.get(level).map(|&d| (d, false)))
    }
}

/// A peg's discs in words, top first: "empty", "disc 1", "discs 1, 2
/// and 4"; `stack` is bottom first, discs numbered from 0.
fn push_discs(out: &mut String, stack: &[u8]) {
    let numbers: Vec<String> = stack.iter().rev().map(|d| (d + 1).to_string()).collect();
    match numbers.as_slice() {
        [] => out.push_str("empty"),
        [one] => {
            out.push_str("disc ");
            out.push_str(one);
        }
        [rest @ .., last] => {
            out.push_str("discs ");
            out.push_str(&rest.join(", "));
            out.push_str(" and ");
            out.push_str(last);
        }
    }
}

impl Hanoi {
    /// What selecting `peg` says, the top disc of `from` lifted: the
    /// peg's discs, top first, and what the selection does: "left peg:
    /// discs 2, 3 and 4; lift disc 2".
    fn choice_label(self, from: Option<u8>, peg: u8) -> String {
        let lifted = from.map(|from| self.top(from).expect("a lifted disc") + 1);
        let mut out = format!("{}: ", PEGS[usize::from(peg)]);
        push_discs(&mut out, &self.standing(from, peg));
        match (from, lifted) {
            (Some(from), Some(d)) if from == peg => {
                out.push_str(&format!("; disc {d} lifted above it; put disc {d} back"));
            }
            (Some(_), Some(d)) => out.push_str(&format!("; put disc {d} here")),
            _ => {
                let top = self.top(peg).expect("a peg that can be chosen has a disc") + 1;
                out.push_str(&format!("; lift disc {top}"));
            }
        }
        out
    }
}

/// The peg of a top row's cell: the air above it, where a peg's one link
/// is.
fn peg(cell: usize) -> Option<u8> {
    (cell < 3).then_some(cell as u8)
}

impl Game for Hanoi {
    /// The top disc of a peg moved onto another: from, to.
    type Move = (u8, u8);
    type Rules = Rules;
    type Error = PlayError;

    const PLAYERS: u8 = 1;
    /// The air above a peg, a peg's level with no disc, disc 1 to 7 on a
    /// peg, disc 1 to 7 lifted, the air framed as a best move, and the
    /// bottom level (on the base) bare and with disc 1 to 7. The air is
    /// 100 by 34, a level 100 by 23 and the bottom level 100 by 33, so the
    /// board is drawn as the puzzle is: flat discs stacked on pegs that
    /// stand on a base. Then the base alone, 300 by 10, which no cell
    /// shows ([`Hanoi::UNDER_BOARD`]), and last disc 1 to 7 lifted and
    /// framed: putting it back is a best choice.
    const IMAGES: &'static [&'static str] = &[
        "ha", "hp", "hd1", "hd2", "hd3", "hd4", "hd5", "hd6", "hd7", "hl1", "hl2", "hl3", "hl4",
        "hl5", "hl6", "hl7", "hab", "hpb", "hd1b", "hd2b", "hd3b", "hd4b", "hd5b", "hd6b", "hd7b",
        "hbase", "hf1", "hf2", "hf3", "hf4", "hf5", "hf6", "hf7",
    ];
    const KEYS: u32 = 4 * 2187;
    const TEXTS: Texts = Texts {
        title: "The Towers of Hanoi",
        stem: "towers",
        paper_rules: "Move every disc from the left peg to the right peg, one at a time, never a \
larger disc on a smaller one. Choose a peg to lift its top disc, then the peg to put it on: each \
peg you may choose prints the number of the page after that choice (on a screen, it is also a \
link). To take a move back, turn back to the page you came from.",
        rules: "Move every disc from the left peg to the right peg, one at a time, never a \
larger disc on a smaller one. Select a peg to lift its top disc, then select the peg to put \
it on. To take a move back, go back.",
        play_about: "Solve it yourself: every position is a page, and every move a link.",
        play_start: "Start the puzzle",
        analysis_about: "The heading gives the fewest moves left, and each peg says how \
many moves are left after selecting it. The best pegs are framed: follow them and the puzzle \
is solved in the fewest moves, 2ⁿ − 1 for n discs.",
        analysis_start: "Start the puzzle",
        play_name: "The Towers of Hanoi",
        play_title: "The Towers of Hanoi",
        analysis_name: "The Towers of Hanoi, analysed",
        again: "Start again",
    };
    const MAP: Option<MapStyle> = Some(MapStyle::Graph);
    const WEIGHING: Weighing = Weighing::MovesLeft;
    /// Its graph is the Sierpinski triangle, and the shortest solution
    /// one of its sides.
    const GRAPH_WORDS: crate::game::GraphWords = crate::game::GraphWords {
        shape: "Every position with no disc lifted is a dot, and a line joins two positions \
one move apart: the Sierpinski triangle. All the discs on one peg are its three corners.",
        route: " along one side",
        dot: "a position with no disc lifted",
    };
    const COLUMN_MOVES: bool = true;
    /// The books draw the board twice its pictures' height, the most a
    /// web page stretches it (past that a disc looks like a block): on a
    /// tall page it fills the width, not a strip at the top.
    const BOOK_STRETCH: u32 = 2;
    /// Where each picture is a record of its own (a MOBI 6 part), the
    /// bottom level is a plain level over the base drawn once, the
    /// board's width: the bottom level's own pictures, the base drawn in,
    /// are a second copy of each level's.
    const UNDER_BOARD: Option<UnderBoard> = Some(UnderBoard {
        image: 25,
        plain: &[
            (17, 1),
            (18, 2),
            (19, 3),
            (20, 4),
            (21, 5),
            (22, 6),
            (23, 7),
            (24, 8),
        ],
    });

    fn start(rules: Rules) -> Hanoi {
        Hanoi::start(rules)
    }

    /// The Sierpinski triangle: the largest disc's peg picks a corner's
    /// half-size triangle (left peg bottom left, middle peg the top, right
    /// peg bottom right), and so on down to the smallest disc. Inside the
    /// triangle of a disc on one peg, the other two pegs' corners swap,
    /// so the position that lets that disc move to a peg (every smaller
    /// disc on the third) is the corner nearest that peg's triangle: each
    /// move is an edge of length 1, and all discs on one peg a corner.
    fn map_point(self) -> Option<(f64, f64)> {
        let height = 3f64.sqrt() / 2.0;
        let corners = [(0.0, 2.0 * height), (1.0, 0.0), (2.0, 2.0 * height)];
        let mut corner_of = [0usize, 1, 2];
        let (mut x, mut y) = (0.0, 0.0);
        for disc in (0..self.discs).rev() {
            let peg = usize::from(self.peg_of(disc));
            let scale = f64::from(1u32 << disc) / 2.0;
            let (cx, cy) = corners[corner_of[peg]];
            x += cx * scale;
            y += cy * scale;
            corner_of.swap((peg + 1) % 3, (peg + 2) % 3);
        }
        Some((x, y))
    }

    /// By the peg lifted from, then the peg dropped on.
    fn moves(self) -> impl Iterator<Item = (u8, u8)> {
        (0..3u8)
            .flat_map(|from| (0..3u8).map(move |to| (from, to)))
            .filter(move |&m| self.play(m).is_ok())
    }

    fn play(self, (from, to): (u8, u8)) -> Result<Hanoi, PlayError> {
        if self.is_solved() {
            return Err(PlayError::Solved);
        }
        if let Some(peg) = [from, to].into_iter().find(|&p| p > 2) {
            return Err(PlayError::NoPeg(peg));
        }
        match (self.top(from), self.top(to)) {
            (None, _) => Err(PlayError::Empty(from)),
            _ if from == to => Err(PlayError::Same(to)),
            (Some(a), Some(b)) if a > b => Err(PlayError::Larger(to)),
            _ => Ok(self.moved(from, to)),
        }
    }

    fn mover(self) -> Side {
        Side::First
    }

    fn outcome(self) -> Option<Outcome> {
        self.is_solved().then_some(Outcome::Solved)
    }

    /// The pegs' number, times four, so each peg's top disc lifted has a
    /// key of its own after it ([`Game::picked_key`]: plus the peg plus
    /// one).
    fn key(self) -> u32 {
        u32::from(self.pegs) * 4
    }

    /// A move is lifted from the air above its peg...
    fn piece((from, _): (u8, u8)) -> Option<usize> {
        Some(usize::from(from))
    }

    /// ... and dropped on the air above another.
    fn cell((_, to): (u8, u8)) -> usize {
        usize::from(to)
    }

    /// Any peg with a disc, even one no peg takes: its page says so.
    fn pieces(self) -> impl Iterator<Item = usize> {
        let open = !self.is_solved();
        (0..3u8)
            .filter(move |&peg| open && self.top(peg).is_some())
            .map(usize::from)
    }

    fn grid(self) -> (usize, usize) {
        (usize::from(self.discs) + 1, 3)
    }

    /// The air, the levels above the bottom one and the bottom level, over
    /// three cells of 100.
    fn aspect(self) -> f64 {
        let levels = u32::from(self.discs) - 1;
        f64::from(AIR + LEVEL * levels + BOTTOM) / 300.0
    }

    fn face(self, picked: Option<usize>, index: usize) -> Face {
        let lifted = picked.and_then(peg);
        let (peg, disc) = self.disc_at(lifted, index);
        let name = PEGS[usize::from(peg)];
        // The bottom level stands on the base.
        let on_base = index / 3 == usize::from(self.discs);
        let image = match (disc, on_base) {
            (None, _) if index < 3 => 0,
            (None, false) => 1,
            (None, true) => 17,
            (Some((d, true)), _) => 9 + usize::from(d),
            (Some((d, false)), false) => 2 + usize::from(d),
            (Some((d, false)), true) => 18 + usize::from(d),
        };
        let label = match disc {
            None if index < 3 => format!("above the {name}: nothing"),
            None => format!("{name}: no disc here"),
            Some((d, false)) => format!("{name}: disc {}", d + 1),
            Some((d, true)) => format!("above the {name}: disc {}, lifted", d + 1),
        };
        // One choice a peg: the air above it, labelled with the whole peg
        // and what selecting it does; the levels below are only seen.
        let action = (index < 3 && (lifted.is_some() || self.top(peg).is_some()))
            .then(|| Cow::Owned(self.choice_label(lifted, peg)));
        Face {
            image,
            label: Cow::Owned(label),
            action,
        }
    }

    /// The air above the peg, framed when the move is best, and so is a
    /// lifted disc when putting it back is (it costs no move, so it
    /// always is: a best way on never needs more moves than putting it
    /// back).
    fn noted_image(self, picked: Option<usize>, index: usize, note: Note) -> usize {
        match self.face(picked, index).image {
            0 if note.best => 16,
            lifted @ 9..=15 if note.best => lifted + 17,
            image => image,
        }
    }

    /// "left peg to right peg".
    fn move_name((from, to): (u8, u8)) -> &'static str {
        const NAMES: [&str; 9] = [
            "left peg to left peg",
            "left peg to middle peg",
            "left peg to right peg",
            "middle peg to left peg",
            "middle peg to middle peg",
            "middle peg to right peg",
            "right peg to left peg",
            "right peg to middle peg",
            "right peg to right peg",
        ];
        NAMES[usize::from(from) * 3 + usize::from(to)]
    }

    fn cell_name(cell: usize) -> &'static str {
        PEGS[cell]
    }

    fn side_name(_: Side) -> &'static str {
        "You"
    }

    /// Every move is the player's: "3 moves left".
    fn push_verdict(verdict: Verdict, out: &mut String) {
        use std::fmt::Write as _;
        let _ = match verdict {
            Verdict::Win(1) => out.write_str("1 move left"),
            Verdict::Win(n) => write!(out, "{n} moves left"),
            _ => out.write_str("no way to the goal"),
        };
    }

    /// "Select a peg to lift its top disc: 15 moves left with best play".
    fn analysis_heading(self, picked: Option<usize>, value: &str) -> String {
        format!("{}: {value} with best play", self.heading(picked))
    }

    fn heading(self, picked: Option<usize>) -> String {
        match picked {
            _ if self.is_solved() => "Solved".to_string(),
            None => "Select a peg to lift its top disc".to_string(),
            Some(_) => "Select a peg to put the disc on".to_string(),
        }
    }

    /// The position in words, so a screen reader and the history list
    /// say it: the lifted disc first, then each peg's discs, top first.
    fn push_title(self, picked: Option<usize>, out: &mut String) {
        use std::fmt::Write as _;
        let start = out.len();
        let lifted = picked.and_then(peg);
        if self.is_solved() {
            out.push_str("Solved: every disc on the right peg");
        } else {
            if let Some(from) = lifted {
                let disc = self.top(from).expect("a lifted disc") + 1;
                let _ = write!(
                    out,
                    "Disc {disc} lifted from the {}; ",
                    PEGS[usize::from(from)]
                );
            }
            for peg in 0..3u8 {
                if peg > 0 {
                    out.push_str("; ");
                }
                out.push_str(PEGS[usize::from(peg)]);
                out.push_str(": ");
                push_discs(out, &self.standing(lifted, peg));
            }
        }
        // A title starts with a capital: "Left peg: ...".
        out[start..start + 1].make_ascii_uppercase();
        out.push_str(" - The Towers of Hanoi");
    }

    fn remark(self) -> Option<Cow<'static, str>> {
        None
    }

    /// Each peg's discs, bottom first, numbered from 1 (the smallest),
    /// pegs split by `/`, a lifted disc after a `^`: `43/2^1/`.
    fn text(self, picked: Option<usize>) -> String {
        let mut out = String::new();
        for peg in 0..3u8 {
            if peg > 0 {
                out.push('/');
            }
            let mut stack = self.stack(peg);
            let lifted = (picked == Some(usize::from(peg))).then(|| stack.pop());
            for d in stack {
                out.push(char::from(b'1' + d));
            }
            if let Some(Some(d)) = lifted {
                out.push('^');
                out.push(char::from(b'1' + d));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    //! Known answers for 3 to 7 discs, checked by walking every position.
    use std::collections::VecDeque;

    use super::*;
    use crate::graph::StateGraph;
    use crate::solver::Solver;

    fn every_position(discs: u8) -> Vec<Hanoi> {
        (0..pow3(discs)).map(|pegs| Hanoi { discs, pegs }).collect()
    }

    /// The fewest whole moves from every position to the solved one, by
    /// a breadth-first search of the puzzle's own graph.
    fn bfs_from_solved(discs: u8) -> Vec<u32> {
        let solved = pow3(discs) - 1;
        let mut dist = vec![u32::MAX; usize::from(pow3(discs))];
        dist[usize::from(solved)] = 0;
        let mut queue = VecDeque::from([Hanoi {
            discs,
            pegs: solved,
        }]);
        while let Some(p) = queue.pop_front() {
            let d = dist[usize::from(p.pegs)];
            for n in p.neighbours() {
                if dist[usize::from(n.pegs)] == u32::MAX {
                    dist[usize::from(n.pegs)] = d + 1;
                    queue.push_back(n);
                }
            }
        }
        dist
    }

    #[test]
    fn positions_moves_and_distances_match_the_known_answers() {
        for discs in MIN_DISCS..=MAX_DISCS {
            let n = u32::from(pow3(discs));
            let positions = every_position(discs);
            // 3(3^N - 1) moves between positions.
            let moves: u32 = positions
                .iter()
                .map(|p| p.neighbours().count() as u32)
                .sum();
            assert_eq!(moves, 3 * (n - 1), "{discs} discs");
            // Every position is reachable: the graph's positions number
            // 3^N (2,187 at 7 discs), a disc lifted being no position.
            let graph = StateGraph::<Hanoi>::with_rules(Rules { discs });
            let whole: Vec<Hanoi> = graph.boards().to_vec();
            assert_eq!(whole.len() as u32, n, "{discs} discs");
            // The start is 2^N - 1 moves from the end, and nothing further;
            // every distance agrees with the search from the solved end.
            let solver = Solver::new(graph);
            let bfs = bfs_from_solved(discs);
            let moves_left = |p: Hanoi| solver.score(p).unwrap().plies();
            let start = Hanoi::start(Rules { discs });
            assert_eq!(u32::from(moves_left(start)), (1 << discs) - 1);
            for p in whole {
                assert_eq!(u32::from(moves_left(p)), bfs[usize::from(p.pegs)], "{p:?}");
                assert!(u32::from(moves_left(p)) < 1 << discs);
                assert!(solver.score(p).unwrap().is_win());
            }
        }
    }

    #[test]
    fn a_larger_disc_never_goes_on_a_smaller_one() {
        // Discs 1 and 2 (0 and 1) on the middle peg, 3 on the left.
        let p = Hanoi::from_pegs(&[1, 1, 0]).unwrap();
        assert_eq!(p.play((0, 1)), Err(PlayError::Larger(1)));
        assert_eq!(p.play((0, 0)), Err(PlayError::Same(0)));
        assert_eq!(p.play((2, 0)), Err(PlayError::Empty(2)));
        assert_eq!(p.play((3, 0)), Err(PlayError::NoPeg(3)));
        let dropped = p.play((0, 2)).unwrap();
        assert_eq!(dropped.text(None), "/21/3");
        assert_eq!(p.moves().collect::<Vec<_>>(), [(0, 2), (1, 0), (1, 2)]);
        // Each move is lifted on its peg and dropped on another.
        assert_eq!((Hanoi::piece((0, 2)), Hanoi::cell((0, 2))), (Some(0), 2));
        assert_eq!(p.pieces().collect::<Vec<_>>(), [0, 1]);
    }

    #[test]
    fn only_the_solved_position_says_solved_and_has_no_moves() {
        let graph = StateGraph::<Hanoi>::with_rules(Rules { discs: 3 });
        for &p in graph.boards() {
            let solved = p.stack(2).len() == 3;
            assert_eq!(p.is_over(), solved, "{p:?}");
            assert_eq!(p.heading(None) == "Solved", solved);
            assert_eq!(p.moves().count() == 0, solved);
            assert_eq!(p.pieces().count() == 0, solved);
        }
    }

    #[test]
    fn the_grid_shows_each_peg_top_first_and_the_lifted_disc_above() {
        let p = Hanoi::from_pegs(&[0, 2, 0]).unwrap();
        let lifted = Some(0);
        let (rows, columns) = p.grid();
        assert_eq!((rows, columns), (4, 3));
        let images: Vec<&str> = (0..rows * columns)
            .map(|i| Hanoi::IMAGES[p.face(lifted, i).image])
            .collect();
        assert_eq!(
            images,
            [
                "hl1", "ha", "ha", "hp", "hp", "hp", "hp", "hp", "hp", "hd3b", "hpb", "hd2b"
            ]
        );
        assert_eq!(
            p.face(lifted, 0).label,
            "above the left peg: disc 1, lifted"
        );
        let put_back = p.face(lifted, 0).action.unwrap();
        assert_eq!(
            put_back,
            "left peg: disc 3; disc 1 lifted above it; put disc 1 back"
        );
        let drop = p.face(lifted, 2).action.unwrap();
        assert_eq!(drop, "right peg: disc 2; put disc 1 here");
        // One choice a peg: only the air above it has words to link.
        assert!((3..12).all(|i| p.face(lifted, i).action.is_none()));
        let whole = Hanoi::start(Rules { discs: 4 });
        let lift = whole.face(None, 0).action.unwrap();
        assert_eq!(lift, "left peg: discs 1, 2, 3 and 4; lift disc 1");
        assert_eq!(p.text(lifted), "3^1//2");
        let mut title = String::new();
        p.push_title(lifted, &mut title);
        assert_eq!(
            title,
            "Disc 1 lifted from the left peg; left peg: disc 3; middle peg: empty; \
right peg: disc 2 - The Towers of Hanoi"
        );
    }

    /// The picture under the board is the base alone, which no cell
    /// shows; each bottom level with the base drawn in stands for its
    /// plain level, and every bottom level has one.
    #[test]
    fn the_base_under_the_board_stands_for_the_bottom_levels_base() {
        let under = Hanoi::UNDER_BOARD.unwrap();
        assert_eq!(Hanoi::IMAGES[under.image], "hbase");
        let graph = StateGraph::<Hanoi>::with_rules(Rules { discs: 4 });
        for (v, _) in crate::view::breadth_first(&graph) {
            let (rows, columns) = v.position.grid();
            for i in 0..rows * columns {
                let image = v.face(i).image;
                assert_ne!(image, under.image);
                let name = Hanoi::IMAGES[image];
                let plain = Hanoi::IMAGES[under.above(image)];
                if i >= (rows - 1) * columns {
                    assert_eq!(name, format!("{plain}b"), "{v:?} cell {i}");
                } else {
                    assert_eq!(name, plain, "{v:?} cell {i}");
                }
            }
        }
    }

    /// The home page and the books speak of the puzzle in its own words:
    /// nothing of squares, marks, wins or draws.
    #[test]
    fn the_words_are_the_puzzles() {
        let t = Hanoi::TEXTS;
        for words in [
            t.rules,
            t.play_about,
            t.play_start,
            t.analysis_about,
            t.analysis_start,
        ] {
            let lower = words.to_lowercase();
            for other in ["square", "mark", "win", "draw", "board"] {
                assert!(!lower.contains(other), "{other}: {words}");
            }
        }
    }

    #[test]
    fn titles_are_words_and_tell_positions_apart() {
        let graph = StateGraph::<Hanoi>::with_rules(Rules { discs: 4 });
        let mut seen = std::collections::HashSet::new();
        for (v, _) in crate::view::breadth_first(&graph) {
            let mut title = String::new();
            v.push_title(&mut title);
            assert!(!title.contains('/') && !title.contains('^'), "{title}");
            assert!(seen.insert(title.clone()), "{title} twice");
        }
        let mut title = String::new();
        Hanoi::start(Rules { discs: 4 }).push_title(None, &mut title);
        assert_eq!(
            title,
            "Left peg: discs 1, 2, 3 and 4; middle peg: empty; right peg: empty - The Towers of Hanoi"
        );
    }
}
