//! The analysis edition: the two-player board with what every move is
//! worth ("win in 2", "draw", "loss in 1") on each empty square, the best
//! moves marked, and the scored positions as JSON.
//!
//! Invariant: every verdict is the solver's, from the side making the
//! move; a square links to the same board after that move, inside this
//! edition.

use crate::board::{Board, Player, Square, Status};
use crate::output::OutFile;
use crate::screen::{Edition, Link, Note, Screen, Target, Verdict, two_player_heading};
use crate::solver::Solver;

/// The edition's slug: its web folder.
pub const SLUG: &str = "analysis";

/// The file of scored positions beside the pages.
pub const JSON: &str = "positions.json";

/// Each legal move of `board` with its verdict, in square order.
pub fn verdicts(solver: &Solver, board: Board) -> Vec<(Square, Verdict)> {
    solver
        .move_scores(board)
        .into_iter()
        .map(|(s, score)| (s, Verdict::of(score)))
        .collect()
}

/// A position's value: for the side to move while the game goes on ("win
/// in 2", "draw", "loss in 1"), else the result ("X wins", "draw").
pub fn value(solver: &Solver, board: Board) -> String {
    match board.status() {
        Status::InPlay(_) => {
            Verdict::of(solver.score(board).expect("a reachable board")).to_string()
        }
        Status::Won { winner, .. } => format!("{} wins", winner.letter()),
        Status::Draw => "draw".to_string(),
    }
}

/// One board's screen: the two-player screen with a verdict on each move.
pub fn screen(solver: &Solver, board: Board) -> Screen {
    let heading = match board.status() {
        Status::InPlay(p) => format!(
            "{} to move: {} with best play",
            p.letter(),
            value(solver, board)
        ),
        _ => two_player_heading(board),
    };
    let mut s = Screen::new(Target::board(board), board, heading, |square| {
        board.play(square).ok().map(Target::board)
    });
    let moves = verdicts(solver, board);
    let best = moves.iter().map(|(_, v)| v.rank()).max();
    for (square, verdict) in moves {
        let view = &mut s.squares[square.index()];
        view.label = format!("{}, {verdict}", view.label).into();
        view.note = Some(Note {
            verdict,
            best: Some(verdict.rank()) == best,
        });
    }
    s.nav = vec![
        (
            Link::Here(Target::board(Board::start(board.rules()))),
            "New game",
        ),
        (
            Link::Across(crate::two_player::SLUG, board),
            "Play without the analysis",
        ),
        (Link::File(JSON), "All positions as JSON"),
    ];
    s
}

/// `positions.json`: every position with its value and the value of each
/// move, in id order.
pub fn positions_json(solver: &Solver) -> String {
    let mut out = String::from("{\"positions\":[\n");
    for (i, &board) in solver.graph().boards().iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        let cells: String = board
            .cells()
            .iter()
            .map(|c| match c {
                crate::board::Cell::Empty => '.',
                crate::board::Cell::Taken(Player::X) => 'X',
                crate::board::Cell::Taken(Player::O) => 'O',
            })
            .collect();
        let to_move = match board.status() {
            Status::InPlay(p) => format!("\"{}\"", p.letter()),
            _ => "null".to_string(),
        };
        let moves: Vec<String> = verdicts(solver, board)
            .into_iter()
            .map(|(square, v)| {
                let to = crate::board::anchor(board.play(square).expect("legal"));
                format!(
                    "{{\"square\":{},\"to\":\"{to}\",\"value\":\"{v}\"}}",
                    square.index()
                )
            })
            .collect();
        out.push_str(&format!(
            "{{\"id\":\"{}\",\"board\":\"{cells}\",\"to_move\":{to_move},\"value\":\"{}\",\"moves\":[{}]}}",
            crate::board::anchor(board),
            value(solver, board),
            moves.join(",")
        ));
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
pub fn tree_json(solver: &Solver, root: Board, depth: u8) -> (String, usize) {
    let mut out = String::new();
    let mut path = String::from("r");
    let nodes = tree_node(solver, root, None, depth, &mut path, &mut out);
    out.push('\n');
    (out, nodes)
}

/// Writes one node and those below it; `mov` is the square that led here
/// and what that move was worth to the player who made it (the name says
/// that; `value` is the position's, for the side now to move).
fn tree_node(
    solver: &Solver,
    board: Board,
    mov: Option<(Square, Verdict)>,
    left: u8,
    path: &mut String,
    out: &mut String,
) -> usize {
    use std::fmt::Write as _;
    let value = value(solver, board);
    let (name, square) = match mov {
        None => (
            format!("{}: {value}", two_player_heading(board)),
            "null".to_string(),
        ),
        Some((s, v)) => (format!("{}: {v}", s.name()), s.index().to_string()),
    };
    // Depth below the root is the path's length less the leading `r`.
    let step = if path.len() % 2 == 1 { "max" } else { "min" };
    let _ = write!(
        out,
        "{{\"id\":\"{path}\",\"name\":\"{name}\",\"data\":{{\"board\":\"{}\",\"square\":{square},\
\"value\":\"{value}\",\"step\":\"{step}\"}},\"children\":[",
        crate::board::anchor(board)
    );
    let mut nodes = 1;
    if left > 0 {
        for (i, (s, v)) in verdicts(solver, board).into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let next = board.play(s).expect("a legal move");
            path.push(char::from(b'0' + s.index() as u8));
            nodes += tree_node(solver, next, Some((s, v)), left - 1, path, out);
            path.pop();
        }
    }
    out.push_str("]}");
    nodes
}

/// The edition: every reachable board, breadth first, as in the
/// two-player edition.
pub fn edition(solver: &Solver) -> Edition {
    Edition {
        slug: SLUG,
        name: "Analysis",
        title: "Tic-Tac-Toe Analysed",
        about: "Every empty square says what that move is worth to the player making it, \
with best play from both sides: win in N, draw or loss in N, where N counts the winner's \
moves. The best moves are framed.",
        contents: vec![(
            "Start from the empty board".to_string(),
            Target::board(solver.graph().root()),
        )],
        screens: crate::par::map(&solver.graph().breadth_first(), |&b| screen(solver, b)),
        files: vec![OutFile::new(JSON, positions_json(solver))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::StateGraph;
    use std::collections::BTreeMap;

    #[test]
    fn verdicts_over_every_move_match_the_known_counts() {
        let solver = Solver::new(StateGraph::new());
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
        let solver = Solver::new(StateGraph::new());
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
    }

    #[test]
    fn after_a_corner_only_the_centre_draws() {
        let solver = Solver::new(StateGraph::new());
        let corner = Board::EMPTY.play(Square::new(0).unwrap()).unwrap();
        for (square, v) in verdicts(&solver, corner) {
            if square.index() == 4 {
                assert_eq!(v, Verdict::Draw);
            } else {
                assert!(matches!(v, Verdict::Loss(_)), "{}: {v}", square.name());
            }
        }
        let s = screen(&solver, corner);
        assert_eq!(s.heading, "O to move: draw with best play");
        assert_eq!(s.squares[4].label, "centre: place O, draw");
        assert!(s.squares[4].note.unwrap().best);
        assert!(!s.squares[1].note.unwrap().best);
    }
}
