//! `cargo xtask tree`: the scored game tree below a position, as JSON for
//! a tree viewer (the Hive posts' "visually debugging a Minimax engine").

use anyhow::Context as _;
use tictactoe_book::editions::analysis;
use tictactoe_book::game::Game as _;
use tictactoe_book::games::tictactoe::Board;
use tictactoe_book::graph::StateGraph;
use tictactoe_book::output;
use tictactoe_book::solver::Solver;

use crate::flags::TreeArgs;

pub fn run(args: &TreeArgs) -> anyhow::Result<()> {
    let solver = Solver::new(StateGraph::<Board>::new());
    let root = u32::from_str_radix(&args.from, 16)
        .ok()
        .and_then(Board::from_id)
        .filter(|b| solver.graph().contains(*b))
        .with_context(|| {
            format!(
                "--from {}: not the hex id of a board that can arise in a game (the empty board is 0)",
                args.from
            )
        })?;
    let (json, nodes) = analysis::tree_json(&solver, root, args.depth);
    match &args.out {
        Some(path) => output::write_file(path, json.as_bytes())?,
        None => crate::out(json.as_bytes()),
    }
    if root.outcome().is_some() {
        eprintln!("1 node: the game is over at {root} (id {:x})", root.id());
    } else {
        eprintln!(
            "{nodes} node{}, {} move{} deep below {root} (id {:x})",
            if nodes == 1 { "" } else { "s" },
            args.depth,
            if args.depth == 1 { "" } else { "s" },
            root.id()
        );
    }
    Ok(())
}
