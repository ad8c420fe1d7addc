//! The analysis edition, read back page by page, and its JSON, against the
//! solver.

use std::collections::BTreeMap;

use crate::common::{anchor, page_name};
use tictactoe_book::editions::analysis;
use tictactoe_book::game::Verdict;
use tictactoe_book::games::tictactoe::{Board, Cell, Status};
use tictactoe_book::graph::StateGraph;
use tictactoe_book::solver::Solver;

use crate::common::*;

#[test]
fn every_analysis_page_shows_each_moves_verdict_and_links_inside_the_edition() {
    let solver = Solver::new(StateGraph::<Board>::new());
    let dir = built().join("analysis");
    let pages = pages_in(&dir);
    assert_eq!(pages.len(), 5_478);
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for path in &pages {
        let page = Page::read(path);
        let board = page.board();
        assert_eq!(board.id(), page_id(path), "{}", path.display());
        let verdicts: BTreeMap<usize, Verdict> = analysis::verdicts(&solver, board)
            .into_iter()
            .map(|(s, v)| (s.index(), v))
            .collect();
        let best = verdicts.values().max_by_key(|v| v.rank()).copied();
        let srcs: Vec<String> = page.select("img")[..9]
            .iter()
            .map(|i| i.value().attr("src").unwrap().to_string())
            .collect();
        for (i, (cell, link, alt)) in page.squares().into_iter().enumerate() {
            assert!(alt.starts_with(sq(i).name()), "{alt}");
            match verdicts.get(&i) {
                Some(v) => {
                    assert_eq!(cell, Cell::Empty);
                    let next = board.play(sq(i)).unwrap();
                    assert_eq!(link.as_deref(), Some(page_name(next).as_str()));
                    let mover = board.to_move().letter();
                    assert_eq!(alt, format!("{}: place {mover}, {v}", sq(i).name()));
                    // Visible on the square: the image names the verdict,
                    // and the best moves' images are framed.
                    let stem = srcs[i].trim_end_matches(".svg");
                    let framed = stem.ends_with('b');
                    assert_eq!(framed, Some(*v) == best, "{}: {stem}", path.display());
                    let expect = match v {
                        Verdict::Win(n) => format!("w{n}"),
                        Verdict::Draw => "d".to_string(),
                        Verdict::Loss(n) => format!("l{n}"),
                    };
                    assert_eq!(stem.trim_end_matches('b'), expect);
                    *counts.entry(v.to_string()).or_default() += 1;
                }
                None => assert_eq!(link, None, "{}: square {i}", path.display()),
            }
        }
        let heading = page.select("h1")[0].text().collect::<String>();
        match board.status() {
            Status::InPlay(p) => assert_eq!(
                heading,
                format!(
                    "{} to move: {} with best play",
                    p.letter(),
                    analysis::value(&solver, board)
                )
            ),
            Status::Won { winner, .. } => assert_eq!(heading, format!("{} wins", winner.letter())),
            Status::Draw => assert_eq!(heading, "Draw"),
        }
        // The cross links, both ways, and the JSON.
        let hrefs: Vec<String> = page
            .select("a")
            .iter()
            .filter_map(|a| a.value().attr("href"))
            .map(str::to_string)
            .collect();
        let two = format!("../two-player/{}", page_name(board));
        assert!(hrefs.contains(&two), "{}", path.display());
        assert!(hrefs.contains(&analysis::JSON.to_string()));
        // A board still in play links back to its analysis; a finished
        // one has no move left to weigh, and links to the analysis's
        // start instead (`two_player` holds that).
        let back = Page::read(&dir.join(&two));
        assert_eq!(
            back.select("a").iter().any(|a| a.value().attr("href")
                == Some(format!("../analysis/{}", page_name(board)).as_str())),
            !board.is_over(),
            "{two} links to its analysis while in play"
        );
    }
    assert_eq!(counts["win in 1"], 2_782);
    assert_eq!(counts["loss in 1"], 7_272);
    assert_eq!(counts.values().sum::<usize>(), 16_167);
}

/// A tiny reader for the one JSON shape we write, so the check does not
/// trust the writer: splits `positions.json` into its position objects.
fn positions(text: &str) -> Vec<&str> {
    let (head, body) = text
        .trim()
        .split_once("\"positions\":[")
        .expect("the {\"squares\": ..., \"positions\": [...]} shape");
    assert!(
        head.starts_with("{\"squares\":\"a move's square is its cell, numbered from 0"),
        "{head}"
    );
    let body = body.strip_suffix("]}").expect("the positions' end");
    body.trim()
        .trim_start_matches('\n')
        .split("},\n{")
        .collect()
}

fn field<'a>(obj: &'a str, key: &str) -> &'a str {
    let at = obj.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
    let rest = &obj[at..];
    let end = if let Some(quoted) = rest.strip_prefix('"') {
        quoted.find('"').unwrap() + 2
    } else if rest.starts_with('[') {
        rest.find(']').unwrap() + 1
    } else {
        rest.find([',', '}']).unwrap()
    };
    rest[..end].trim_matches('"')
}

#[test]
fn positions_json_agrees_with_the_solver() {
    let solver = Solver::new(StateGraph::<Board>::new());
    let text = std::fs::read_to_string(built().join("analysis/positions.json")).unwrap();
    let objs = positions(&text);
    assert_eq!(objs.len(), 5_478);
    for (obj, &board) in objs.iter().zip(solver.graph().boards()) {
        assert_eq!(field(obj, "id"), anchor(board));
        let cells: String = board.to_string().replace('/', "").chars().collect();
        assert_eq!(field(obj, "board"), cells);
        let (to_move, value) = match board.status() {
            Status::InPlay(p) => (p.letter().to_string(), {
                Verdict::of::<Board>(solver.score(board).unwrap()).to_string()
            }),
            Status::Won { winner, .. } => ("null".to_string(), format!("{} wins", winner.letter())),
            Status::Draw => ("null".to_string(), "draw".to_string()),
        };
        assert_eq!(field(obj, "to_move"), to_move);
        assert_eq!(field(obj, "value"), value);
        let moves = field(obj, "moves");
        let expect: Vec<String> = analysis::verdicts(&solver, board)
            .into_iter()
            .map(|(s, v)| {
                format!(
                    "{{\"square\":{},\"to\":\"{}\",\"value\":\"{v}\"}}",
                    s.index(),
                    anchor(board.play(s).unwrap())
                )
            })
            .collect();
        assert_eq!(moves, format!("[{}]", expect.join(",")), "{board}");
    }
    let empty = objs[0];
    assert_eq!(field(empty, "board"), ".........");
    assert_eq!(field(empty, "value"), "draw");
    assert_eq!(field(empty, "id"), "0");
    assert_eq!(field(empty, "to_move"), "X");
}
