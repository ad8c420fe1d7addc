//! `cargo xtask endgame kqk|krk`: solves a chess ending by our own
//! retrograde analysis and prints its census, as perft prints counts: the
//! positions at each distance to mate, with White and with Black to move,
//! raw and up to the board's symmetries, then the draws, checkmates and
//! stalemates. The time the analysis took goes to stderr.
//!
//! Its flags live here, not in `flags.rs`: `flags.rs` names them as
//! `Command::Endgame(endgame::EndgameArgs)`.

use std::io::Write as _;
use std::time::Instant;

use anyhow::Context as _;
use tictactoe_book::games::chess::{Census, Ending, Tablebase};

/// The flags of `endgame`.
#[derive(clap::Args)]
pub struct EndgameArgs {
    /// The ending: kqk (king and queen against king) or krk (king and rook)
    #[arg(value_name = "ENDING", value_parser = parse_ending)]
    pub ending: Ending,
}

/// `kqk` or `krk`, in either case.
fn parse_ending(s: &str) -> Result<Ending, String> {
    Ending::ALL
        .into_iter()
        .find(|e| e.name().eq_ignore_ascii_case(s))
        .ok_or_else(|| "not an ending: kqk or krk".to_string())
}

pub fn run(args: &EndgameArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    let tablebase = Tablebase::solve(args.ending);
    let solved = start.elapsed();
    let text = Census::of(&tablebase).render();
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("cannot write to stdout")?;
    eprintln!(
        "{} solved in {:.3} s",
        args.ending.name(),
        solved.as_secs_f64()
    );
    Ok(())
}
