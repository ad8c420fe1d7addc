//! The analysis edition, for any [`Game`]: the two-player screen with
//! what every move is worth ("win in 2", "draw", "loss in 1") on each
//! cell that makes one, the best moves marked, and the scored positions
//! as JSON.
//!
//! Invariant: every verdict is the solver's, from the side making the
//! move; a square links to the same board after that move, inside this
//! edition.

use rustc_hash::FxHashMap;

use crate::game::{Game, Note, Verdict, Weighing};
use crate::output::OutFile;
use crate::screen::{CellView, Edition, Link, Look, Screen, Target};
use crate::solver::Solver;
use crate::view::{self, Choice, View};

/// The file of scored positions beside the pages.
pub const JSON: &str = "positions.json";

/// Each legal move of `board` with its verdict, in square order.
pub fn verdicts<G: Game>(solver: &Solver<G>, board: G) -> Vec<(G::Move, Verdict)> {
    solver
        .move_scores(board)
        .into_iter()
        .map(|(s, score)| (s, Verdict::of::<G>(score)))
        .collect()
}

/// Every position's moves with their verdicts ([`verdicts`]), by the
/// position's key, each worked out once, on every core; none for a
/// finished position.
fn weighed<G: Game>(solver: &Solver<G>) -> FxHashMap<u32, Vec<(G::Move, Verdict)>> {
    let boards = solver.graph().boards();
    let each = crate::par::map(boards, |&b| match b.is_over() {
        true => Vec::new(),
        false => verdicts(solver, b),
    });
    boards.iter().map(|b| b.key()).zip(each).collect()
}

/// Each choice of `view` with the cell it is made on and its verdict, in
/// cell order: a move's own; picking a piece up, the best of that
/// piece's moves (a draw if it has none); putting it back, the
/// position's value, as if the choice were the best move from there.
pub fn choice_verdicts<G: Game>(
    solver: &Solver<G>,
    view: View<G>,
) -> Vec<(usize, Choice<G::Move>, Verdict)> {
    choice_verdicts_of(solver, view, &verdicts(solver, view.board()))
}

/// [`choice_verdicts`], given every legal move of the view's board with
/// its verdict ([`verdicts`]): worked out once a position, not once for
/// each of its views and again for `positions.json` (replaying a chess
/// move is most of what weighing it costs).
fn choice_verdicts_of<G: Game>(
    solver: &Solver<G>,
    view: View<G>,
    moves: &[(G::Move, Verdict)],
) -> Vec<(usize, Choice<G::Move>, Verdict)> {
    let p = view.board();
    let of = |m: G::Move| {
        moves
            .iter()
            .find(|&&(n, _)| n == m)
            .map(|&(_, v)| v)
            .expect("a legal move")
    };
    view.choices()
        .into_iter()
        .map(|(cell, choice)| {
            let verdict = match choice {
                Choice::Move(m) => of(m),
                Choice::Pick(c) => moves
                    .iter()
                    .filter(|&&(m, _)| G::piece(m) == Some(c))
                    .map(|&(_, v)| v)
                    .max_by_key(|v| v.rank())
                    .unwrap_or(Verdict::Draw),
                Choice::Back => Verdict::of::<G>(solver.score(p).expect("a reachable position")),
            };
            (cell, choice, verdict)
        })
        .collect()
}

/// A verdict in the game's words ([`Game::push_verdict`]): "win in 2",
/// "draw" or "loss in 1"; in a puzzle, "3 moves left".
pub fn words<G: Game>(verdict: Verdict) -> String {
    let mut out = String::with_capacity(16);
    G::push_verdict(verdict, &mut out);
    out
}

/// A position's value: for the side to move while the game goes on ("win
/// in 2", "draw", "loss in 1", or in a puzzle "3 moves left"), else the
/// result in the game's words ("X wins", "draw", "solved"; a chess
/// challenge's "mate" and "too slow").
pub fn value<G: Game>(solver: &Solver<G>, board: G) -> String {
    match board.outcome() {
        None => words::<G>(Verdict::of::<G>(
            solver.score(board).expect("a reachable position"),
        )),
        Some(outcome) => G::result_words(outcome).into_owned(),
    }
}

/// What a choice in a puzzle leaves, as the page it leads to counts it:
/// "leaves 14 moves", or "solves the puzzle"; putting a piece back says
/// so ("undo, leaves 2 moves"); picking one up gives what the best way to
/// finish its move leaves ("its move leaves 6 moves": what that page says
/// of its best choice), since the page it leads to counts putting it
/// back. So every figure a page gives agrees with the page its link
/// leads to, and the choices a page frames are exactly those whose own
/// cost plus what they leave is its heading's count.
fn push_leaves<G: Game>(
    out: &mut String,
    solver: &Solver<G>,
    view: View<G>,
    choice: Choice<G::Move>,
    verdict: Verdict,
) {
    use std::fmt::Write as _;
    let target = view.after(choice).position;
    if target.is_over() {
        out.push_str("solves the puzzle");
        return;
    }
    let (prefix, left) = match (choice, verdict) {
        // Starts a move: the verdict counts that move, then what is left.
        (Choice::Pick(_), Verdict::Win(n)) => ("its move ", Some(n - 1)),
        // Starts a move that cannot be finished (a disc no peg takes).
        (Choice::Pick(_), _) => {
            out.push_str(NO_MOVE);
            return;
        }
        (Choice::Back, _) => (TAKES_BACK, target_left(solver, target)),
        (Choice::Move(_), _) => ("", target_left(solver, target)),
    };
    out.push_str(prefix);
    let _ = match left {
        Some(0) => out.write_str("solves the puzzle"),
        Some(1) => out.write_str("leaves 1 move"),
        Some(n) => write!(out, "leaves {n} moves"),
        None => out.write_str("leaves no way to the goal"),
    };
}

/// What a puzzle's choice says that starts a move it cannot finish.
const NO_MOVE: &str = "no move from it";

/// What a puzzle's choice that takes a selection back says first.
const TAKES_BACK: &str = "undo, ";

/// The whole moves left that `target`'s page gives, if it can be solved.
fn target_left<G: Game>(solver: &Solver<G>, target: G) -> Option<u16> {
    match Verdict::of::<G>(solver.score(target).expect("a reachable position")) {
        Verdict::Win(n) => Some(n),
        _ => None,
    }
}

/// The look of a cell whose choice the analysis notes: the picture
/// `image`, the `note`, and the label of the `old` look with what the
/// choice is worth, `said`, after it.
fn noted_look(old: &'static Look, image: usize, note: Note, said: &str) -> &'static Look {
    // The cell's own label already says what putting a piece back does
    // ("put disc 2 back").
    let count = said.strip_prefix(TAKES_BACK).unwrap_or(said);
    let mut label = String::with_capacity(old.label.len() + 2 + count.len());
    label.push_str(old.label);
    label.push_str(", ");
    label.push_str(count);
    let look = Look {
        image,
        note: Some(note),
        ..*old
    };
    look.with_words(label.into(), old.holds.into()).interned()
}

/// [`noted_look`] where what the choice is worth follows from `note`
/// alone (`say` writes it), kept by this thread for the next cell of the
/// same old look, picture and note.
fn noted(
    old: &'static Look,
    image: usize,
    note: Note,
    say: impl FnOnce(&mut String),
) -> &'static Look {
    type Key = (*const Look, usize, Note);
    thread_local! {
        static NOTED: std::cell::RefCell<rustc_hash::FxHashMap<Key, &'static Look>> =
            Default::default();
    }
    let key = (std::ptr::from_ref(old), image, note);
    if let Some(look) = NOTED.with_borrow(|m| m.get(&key).copied()) {
        return look;
    }
    let mut said = String::with_capacity(24);
    say(&mut said);
    let look = noted_look(old, image, note, &said);
    NOTED.with_borrow_mut(|m| m.insert(key, look));
    look
}

/// One view's screen, `depth` taps in: the two-player screen with a
/// verdict on each choice, and a link to the same view in the edition at
/// `plain`.
pub fn screen<G: Game>(
    solver: &Solver<G>,
    view: View<G>,
    depth: u32,
    plain: &'static str,
) -> Screen {
    screen_of(solver, view, depth, plain, &verdicts(solver, view.board()))
}

/// [`screen`], given every legal move of the view's board with its
/// verdict.
fn screen_of<G: Game>(
    solver: &Solver<G>,
    view: View<G>,
    depth: u32,
    plain: &'static str,
    moves: &[(G::Move, Verdict)],
) -> Screen {
    let board = view.position;
    let heading = if board.is_over() {
        view.heading()
    } else {
        board.analysis_heading(view.picked, &value(solver, board))
    };
    let choices = choice_verdicts_of(solver, view, moves);
    // Picking up a piece that cannot move is never the best choice.
    let stuck = |c: Choice<G::Move>| match c {
        Choice::Pick(cell) => !view.board().moves().any(|m| G::piece(m) == Some(cell)),
        _ => false,
    };
    let best = (choices.iter())
        .filter(|(_, c, _)| !stuck(*c))
        .map(|(_, _, v)| v.rank())
        .max();
    let mut counts = Vec::new();
    let note_cells = |cells: &mut [CellView]| {
        for (cell, choice, verdict) in choices {
            let note = Note {
                verdict,
                best: Some(verdict.rank()) == best && !stuck(choice),
            };
            let image = view.noted_image(cell, note);
            let cell_view = &mut cells[cell];
            let old = cell_view.look;
            if G::WEIGHING == Weighing::Verdict {
                // A verdict's words follow from the note alone, so its look
                // does from the cell's old look, the picture and the note:
                // worked out once a thread (a chess analysis notes tens of
                // thousands of cells with a few thousand looks).
                cell_view.look = noted(old, image, note, |said| G::push_verdict(verdict, said));
                continue;
            }
            // What a puzzle's choice leaves.
            let mut said = String::with_capacity(24);
            push_leaves(&mut said, solver, view, choice, verdict);
            cell_view.look = noted_look(old, image, note, &said);
            let best = if note.best { ", the best" } else { "" };
            counts.push(format!("{}: {said}{best}", G::cell_name(cell)));
        }
    };
    let link = |c| Some(Target::page(view.after(c).key()));
    let mut s = Screen::edited(
        Target::page(view.key()),
        view,
        depth,
        heading,
        link,
        note_cells,
    );
    if !counts.is_empty() {
        // A puzzle's counts run past what a cell's picture can say: they
        // are one line too, short enough to leave the board on the screen.
        let line = counts.join("; ") + ".";
        let mut chars = line.chars();
        let first = chars.next().map(|c| c.to_ascii_uppercase());
        s.lines
            .push(first.into_iter().chain(chars).collect::<String>());
    }
    s.nav = vec![
        (
            Link::Here(Target::page(solver.graph().root().key())),
            G::TEXTS.again,
        ),
        (
            Link::Across(plain, view.key().into()),
            "Play without the analysis",
        ),
        (Link::File(JSON), "All positions as JSON"),
    ];
    s
}

/// How `positions.json` numbers a move's square, said in the file itself,
/// and then the game's own [`Game::CELL_NOTE`], if it has one.
pub const SQUARES: &str = "a move's square is its cell, numbered from 0 in reading order \
(0 at the top left)";

/// `text` onto `out` as the inside of a JSON string: a quote, a
/// backslash and a control character escaped, so a game's note can say
/// anything.
fn escape_json(out: &mut String, text: &str) {
    use std::fmt::Write as _;
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
}

/// `positions.json`: how it numbers squares ([`SQUARES`]), then every
/// view (a position, or one with a piece picked up) with its position's
/// value and the value of each choice, in id order (in a puzzle, what
/// each choice leaves: the value of the position it leads to, as the
/// pages say it).
pub fn positions_json<G: Game>(solver: &Solver<G>) -> String {
    positions_json_of(
        solver,
        view::breadth_first(solver.graph()),
        &weighed(solver),
    )
}

/// [`positions_json`] of `views`, the graph's ([`view::breadth_first`]),
/// and every position's moves weighed ([`weighed`]): the edition has
/// both for its screens already.
fn positions_json_of<G: Game>(
    solver: &Solver<G>,
    mut views: Vec<(View<G>, u32)>,
    weighed: &FxHashMap<u32, Vec<(G::Move, Verdict)>>,
) -> String {
    use std::fmt::Write as _;
    // Written straight into the file: it holds every position and move.
    let mut out = String::with_capacity(200 * solver.graph().boards().len());
    out.push_str("{\"squares\":\"");
    out.push_str(SQUARES);
    if let Some(note) = G::CELL_NOTE {
        out.push_str("; ");
        escape_json(&mut out, note);
    }
    out.push_str("\",\"positions\":[\n");
    views.sort_unstable_by_key(|(v, _)| v.key());
    for (i, &(view, _)) in views.iter().enumerate() {
        let board = view.position;
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str("{\"id\":\"");
        Target::page(view.key()).push_anchor(&mut out);
        out.push_str("\",\"board\":\"");
        out.push_str(&view.text());
        out.push_str("\",\"to_move\":");
        if board.is_over() {
            out.push_str("null");
        } else {
            out.push('"');
            out.push_str(G::side_name(board.mover()));
            out.push('"');
        }
        out.push_str(",\"value\":\"");
        out.push_str(&value(solver, board));
        out.push_str("\",\"moves\":[");
        // A finished page has no moves: one tried again from another
        // position shows that one's pieces, whose moves are its own.
        let choices = match board.is_over() {
            true => Vec::new(),
            false => choice_verdicts_of(solver, view, &weighed[&view.board().key()]),
        };
        for (j, (cell, choice, v)) in choices.into_iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            let _ = write!(out, "{{\"square\":{cell},\"to\":\"");
            Target::page(view.after(choice).key()).push_anchor(&mut out);
            out.push_str("\",\"value\":\"");
            // A puzzle's choice: what it leaves, as its page says.
            if G::WEIGHING == Weighing::MovesLeft {
                push_leaves(&mut out, solver, view, choice, v);
            } else {
                G::push_verdict(v, &mut out);
            }
            out.push_str("\"}");
        }
        out.push_str("]}");
    }
    out.push_str("\n]}\n");
    out
}

/// The scored game tree below `root`, `depth` moves deep, as JSON in the
/// JavaScript InfoVis Toolkit's tree shape: every node is `{"id", "name",
/// "data", "children"}`, its id the path of squares from the root (`r`,
/// `r4`, `r40`, ...), so a board that recurs on many paths has a node on
/// each. `data` holds the board's page id, the square that led here, the
/// value as in `positions.json`, and whether the node is a max step (the
/// root's side to move) or a min step. Returns the JSON and the node count.
pub fn tree_json<G: Game>(solver: &Solver<G>, root: G, depth: u8) -> (String, usize) {
    let mut out = String::new();
    let mut path = String::from("r");
    let nodes = tree_node(solver, root, None, depth, &mut path, &mut out);
    out.push('\n');
    (out, nodes)
}

/// Writes one node and those below it; `mov` is the square that led here
/// and what that move was worth to the player who made it (the name says
/// that; `value` is the position's, for the side now to move).
fn tree_node<G: Game>(
    solver: &Solver<G>,
    board: G,
    mov: Option<(G::Move, Verdict)>,
    left: u8,
    path: &mut String,
    out: &mut String,
) -> usize {
    use std::fmt::Write as _;
    let value = value(solver, board);
    let (name, square) = match mov {
        // A finished board's heading is its value ("O wins"): once.
        None if board.outcome().is_some() => (value.clone(), "null".to_string()),
        None => (
            format!("{}: {value}", board.heading(None)),
            "null".to_string(),
        ),
        Some((s, v)) => (format!("{}: {v}", G::move_name(s)), G::cell(s).to_string()),
    };
    // Depth below the root is the path's length less the leading `r`.
    let step = if path.len() % 2 == 1 { "max" } else { "min" };
    let _ = write!(
        out,
        "{{\"id\":\"{path}\",\"name\":\"{name}\",\"data\":{{\"board\":\"{}\",\"square\":{square},\
\"value\":\"{value}\",\"step\":\"{step}\"}},\"children\":[",
        Target::page(board.key()).anchor()
    );
    let mut nodes = 1;
    if left > 0 {
        for (i, (s, v)) in verdicts(solver, board).into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let next = board.play(s).expect("a legal move");
            let len = path.len();
            path.push_str(&G::cell(s).to_string());
            nodes += tree_node(solver, next, Some((s, v)), left - 1, path, out);
            path.truncate(len);
        }
    }
    out.push_str("]}");
    nodes
}

/// The edition at `slug`: every reachable position, breadth first, as in
/// the two-player edition (at `plain`).
pub fn edition<G: Game>(slug: &'static str, solver: &Solver<G>, plain: &'static str) -> Edition {
    let views = view::breadth_first(solver.graph());
    let weighed = weighed(solver);
    let moves = |v: View<G>| &weighed[&v.board().key()];
    Edition {
        name: G::TEXTS.analysis_name.to_string(),
        title: format!("{} Analysed", G::TEXTS.title),
        about: G::TEXTS.analysis_about,
        contents: vec![(
            G::TEXTS.analysis_start.to_string(),
            Target::page(solver.graph().root().key()),
        )],
        screens: crate::par::map(&views, |&(v, depth)| {
            screen_of(solver, v, depth, plain, moves(v))
        }),
        files: vec![OutFile::new(
            JSON,
            positions_json_of(solver, views, &weighed),
        )],
        ..Edition::of(slug, solver.graph().root())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::{Board, Square};
    use crate::graph::StateGraph;
    use std::collections::BTreeMap;

    /// `positions.json`'s first line says how it numbers squares, and
    /// then what the game adds: tic-tac-toe its game records' numbering,
    /// from its own module; the generic words name no game.
    #[test]
    fn positions_json_says_the_games_own_note() {
        let solver = Solver::new(StateGraph::<Board>::new());
        let json = positions_json(&solver);
        assert_eq!(
            json.lines().next().unwrap(),
            "{\"squares\":\"a move's square is its cell, numbered from 0 in reading order (0 at \
the top left); a game record numbers tic-tac-toe's squares from 1 to 9\",\"positions\":["
        );
        assert!(!SQUARES.contains("tic-tac-toe"), "{SQUARES}");
        let mut out = String::new();
        escape_json(&mut out, "a \"b\" c\\d\n");
        assert_eq!(out, "a \\\"b\\\" c\\\\d\\u000a");
    }

    /// What a puzzle's choice says, parsed: the whole moves it costs and
    /// the figure it gives ("leaves N moves", "solves the puzzle").
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Said {
        /// "leaves N": a whole move, and N left after it.
        Leaves(u16),
        /// "undo, leaves N": no move.
        Back(u16),
        /// "its move leaves N": the best way to finish the move.
        Starts(u16),
        /// "no move from it": a move that cannot be finished.
        Stuck,
    }

    fn parse_said(words: &str) -> Said {
        let count = |w: &str| match w {
            "solves the puzzle" => 0,
            "leaves 1 move" => 1,
            w => w
                .strip_prefix("leaves ")
                .and_then(|w| w.strip_suffix(" moves"))
                .unwrap_or_else(|| panic!("{w:?}"))
                .parse()
                .unwrap(),
        };
        if words == NO_MOVE {
            Said::Stuck
        } else if let Some(w) = words.strip_prefix(TAKES_BACK) {
            Said::Back(count(w))
        } else if let Some(w) = words.strip_prefix("its move ") {
            Said::Starts(count(w))
        } else {
            Said::Leaves(count(words))
        }
    }

    /// The moves left a puzzle's heading gives: "...: 3 moves left with
    /// best play", or none once solved.
    fn heading_count(heading: &str) -> u16 {
        if heading == "Solved" {
            return 0;
        }
        let n = heading.rsplit(": ").next().unwrap();
        n.split(' ').next().unwrap().parse().unwrap()
    }

    /// A choice on a view of the Towers of Hanoi.
    type HanoiChoice = Choice<(u8, u8)>;

    /// Every figure of the Towers of Hanoi's analysis is one truth, at 3,
    /// 4 and 7 discs, over every position, every lifted one included: each
    /// choice's words (in the line under the heading, its cell's label and
    /// `positions.json`) give what the page it leads to gives (a start of
    /// a move, what the best way to finish it leaves there), and the
    /// choices framed as best are exactly those whose cost plus what they
    /// leave is the heading's count. With a disc lifted, putting it back is
    /// no move and always among the best.
    #[test]
    fn every_hanoi_figure_agrees_with_the_page_its_choice_leads_to() {
        use crate::games::hanoi::Hanoi;
        for discs in [3, 4, 7] {
            let solver = Solver::<Hanoi>::with_rules(crate::games::hanoi::Rules { discs });
            let json = positions_json(&solver);
            let json_said: BTreeMap<String, Vec<String>> = json
                .lines()
                .filter(|l| l.starts_with("{\"id\""))
                .map(|l| {
                    let id = l.split("\"id\":\"").nth(1).unwrap().split('"').next();
                    let said = l
                        .split("{\"square\":")
                        .skip(1)
                        .map(|m| m.split("\"value\":\"").nth(1).unwrap().split('"').next())
                        .map(|w| w.unwrap().to_string())
                        .collect();
                    (id.unwrap().to_string(), said)
                })
                .collect();
            let views = view::breadth_first(solver.graph());
            let screens: BTreeMap<View<Hanoi>, Screen> = views
                .iter()
                .map(|&(v, depth)| (v, screen(&solver, v, depth, "p")))
                .collect();
            let at = |v: View<Hanoi>| &screens[&v];
            // Each view's heading count and its choices' words.
            let said = |b: View<Hanoi>| -> Vec<(HanoiChoice, Said, bool)> {
                let s = at(b);
                let Some(line) = s.lines.last() else {
                    return Vec::new();
                };
                let parts: Vec<&str> = line.trim_end_matches('.').split("; ").collect();
                b.choices()
                    .into_iter()
                    .zip(parts)
                    .map(|((_, m), part)| {
                        let words = part.split_once(": ").unwrap().1;
                        let (words, best) = match words.strip_suffix(", the best") {
                            Some(w) => (w, true),
                            None => (words, false),
                        };
                        (m, parse_said(words), best)
                    })
                    .collect()
            };
            let mut lifted = 0;
            for &(p, _) in views.iter().filter(|(v, _)| !v.position.is_over()) {
                let s = at(p);
                let here = heading_count(&s.heading);
                let choices = said(p);
                assert_eq!(choices.len(), p.choices().len(), "{p:?}");
                let mut key = String::new();
                Target::page(p.key()).push_anchor(&mut key);
                let in_json = &json_said[&key];
                assert_eq!(in_json.len(), choices.len());
                for (i, &(m, words, best)) in choices.iter().enumerate() {
                    let t = p.after(m);
                    let there = heading_count(&at(t).heading);
                    let total = match words {
                        Said::Leaves(n) => {
                            assert_eq!(n, there, "{p:?} -> {t:?}");
                            n + 1
                        }
                        Said::Back(n) => {
                            assert!(p.picked.is_some() && t.picked.is_none());
                            assert_eq!(n, there, "{p:?} -> {t:?}");
                            n
                        }
                        Said::Stuck => {
                            // Only putting the disc back is left there.
                            assert!(p.picked.is_none() && t.picked.is_some());
                            let there = said(t);
                            assert!(there.iter().all(|c| matches!(c.1, Said::Back(_))), "{t:?}");
                            u16::MAX
                        }
                        Said::Starts(n) => {
                            // What the best way to finish the move leaves,
                            // as that page says it of its best drop.
                            let finish = said(t)
                                .into_iter()
                                .filter_map(|(_, w, _)| match w {
                                    Said::Leaves(k) => Some(k),
                                    _ => None,
                                })
                                .min()
                                .unwrap();
                            assert_eq!(n, finish, "{p:?} -> {t:?}");
                            n + 1
                        }
                    };
                    assert_eq!(best, total == here, "{p:?}: {words:?}, heading {here}");
                    let cell = s.cells.get(p.choices()[i].0);
                    assert_eq!(cell.look.note.unwrap().best, best);
                    let image = Hanoi::IMAGES[cell.look.image];
                    assert_eq!(best, image == "hab" || image.starts_with("hf"), "{image}");
                    let part = s.lines.last().unwrap().split("; ").nth(i).unwrap();
                    let words_text = part.split_once(": ").unwrap().1;
                    let words_text = words_text.trim_end_matches('.');
                    let words_text = words_text.strip_suffix(", the best").unwrap_or(words_text);
                    assert_eq!(in_json[i], words_text);
                    let count = words_text.strip_prefix(TAKES_BACK).unwrap_or(words_text);
                    assert!(
                        cell.look.label.ends_with(&format!(", {count}")),
                        "{}",
                        cell.look.label
                    );
                    if let Said::Back(_) = words {
                        assert!(best, "putting a disc back is always among the best");
                    }
                }
                assert!(choices.iter().any(|c| c.2), "{p:?}: nothing framed");
                if p.picked.is_some() {
                    lifted += 1;
                    // Putting the disc back costs nothing, so the heading
                    // is the position's with the disc down.
                    let down = choices
                        .iter()
                        .find(|c| matches!(c.1, Said::Back(_)))
                        .unwrap();
                    assert_eq!(heading_count(&at(p.after(down.0)).heading), here);
                }
            }
            // Every lifted position was walked: 194 at four discs.
            let every = views.iter().filter(|(v, _)| v.picked.is_some()).count();
            assert_eq!(lifted, every);
            assert!(lifted > 3usize.pow(discs.into()));
            // The puzzle's own graph: 3^N positions, none half moved.
            assert_eq!(solver.graph().len(), 3usize.pow(discs.into()));
        }
    }

    #[test]
    fn verdicts_over_every_move_match_the_known_counts() {
        let solver = Solver::new(StateGraph::<Board>::new());
        let mut counts = BTreeMap::new();
        for &b in solver.graph().boards() {
            for (_, v) in verdicts(&solver, b) {
                *counts.entry(v.to_string()).or_insert(0) += 1;
            }
        }
        let expect = [
            ("win in 1", 2_782),
            ("win in 2", 1_604),
            ("win in 3", 272),
            ("draw", 3_173),
            ("loss in 1", 7_272),
            ("loss in 2", 868),
            ("loss in 3", 196),
        ];
        for (k, n) in expect {
            assert_eq!(counts.get(k), Some(&n), "{k}");
        }
        assert_eq!(counts.values().sum::<i32>(), 16_167);
        assert_eq!(value(&solver, Board::EMPTY), "draw");
    }

    #[test]
    fn the_whole_tree_has_every_prefix_of_every_game() {
        let solver = Solver::new(StateGraph::<Board>::new());
        let (json, nodes) = tree_json(&solver, Board::EMPTY, 9);
        assert_eq!(nodes, 549_946);
        // Every id once; max at even depth below the root, min at odd.
        let mut ids = std::collections::HashSet::new();
        for node in json.split("{\"id\":\"").skip(1) {
            let id = &node[..node.find('"').unwrap()];
            assert!(ids.insert(id), "{id} twice");
            let step = node.split("\"step\":\"").nth(1).unwrap();
            let depth = id.len() - 1;
            let want = if depth.is_multiple_of(2) {
                "max\""
            } else {
                "min\""
            };
            assert!(step.starts_with(want), "{id}: {}", &step[..4]);
        }
        assert_eq!(ids.len(), nodes);
        let (small, n) = tree_json(&solver, Board::EMPTY, 1);
        assert_eq!(n, 10);
        assert!(small.starts_with("{\"id\":\"r\",\"name\":\"X to move: draw\",\"data\":{\"board\":\"0\",\"square\":null,\"value\":\"draw\",\"step\":\"max\"},\"children\":[{\"id\":\"r0\","), "{small}");
        assert!(small.contains("\"step\":\"min\"},\"children\":[]}"));
        // A finished board is named by its value alone.
        let won = Board::from_id(0x1004).expect("O has won");
        let (done, n) = tree_json(&solver, won, 9);
        assert_eq!(n, 1);
        assert!(
            done.starts_with("{\"id\":\"r\",\"name\":\"O wins\","),
            "{done}"
        );
    }

    #[test]
    fn after_a_corner_only_the_centre_draws() {
        let solver = Solver::new(StateGraph::<Board>::new());
        let corner = Board::EMPTY.play(Square::new(0).unwrap()).unwrap();
        for (square, v) in verdicts(&solver, corner) {
            if square.index() == 4 {
                assert_eq!(v, Verdict::Draw);
            } else {
                assert!(matches!(v, Verdict::Loss(_)), "{}: {v}", square.name());
            }
        }
        let s = screen(&solver, View::of(corner), 0, "two-player");
        assert_eq!(s.heading, "O to move: draw with best play");
        assert_eq!(s.cells.get(4).look.label, "centre: place O, draw");
        assert!(s.cells.get(4).look.note.unwrap().best);
        assert!(!s.cells.get(1).look.note.unwrap().best);
    }
}
