//! `cargo xtask endgame kqk|krk`: solves a chess ending by our own
//! retrograde analysis and prints its census, as perft prints counts: the
//! positions at each distance to mate, with White and with Black to move,
//! raw and up to the board's symmetries, then the draws, checkmates and
//! stalemates. The time the analysis took goes to stderr.
//!
//! Its flag, the ending, is `flags::EndgameArgs`.

use std::time::Instant;

use tictactoe_book::games::chess::{Census, Tablebase};

use crate::flags::EndgameArgs;

/// Solves the ending and prints its census.
pub fn run(args: &EndgameArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    let tablebase = Tablebase::solve(args.ending);
    let solved = start.elapsed();
    let text = Census::of(&tablebase).render();
    crate::out(text.as_bytes());
    eprintln!(
        "{} solved in {:.3} s",
        args.ending.name(),
        solved.as_secs_f64()
    );
    Ok(())
}
