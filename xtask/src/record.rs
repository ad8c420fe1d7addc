//! `cargo xtask record`: 23-bit game records, after minimal-tictactoe.

use tictactoe_book::games::tictactoe::bitstate::BitState;
use tictactoe_book::games::tictactoe::{Square, Status, record};
use tictactoe_book::screen::page_name;
use tictactoe_book::site;

use crate::flags::RecordCommand;

pub fn run(cmd: &RecordCommand) -> anyhow::Result<()> {
    match cmd {
        RecordCommand::Encode { squares } => {
            let squares: Vec<Square> = squares
                .iter()
                .map(|&n| Square::new(usize::from(n) - 1).expect("clap keeps squares in 1-9"))
                .collect();
            let code = record::encode(&squares)?;
            // A record may hold moves past the end (minimal-tictactoe's do,
            // and `decode` reads them), but a game given here is played.
            if let (board, Some(n)) = record::ended_at(&squares) {
                let result = match board.status() {
                    Status::Won { winner, .. } => format!("{} wins", winner.letter()),
                    _ => "a draw".to_string(),
                };
                anyhow::bail!(
                    "the game ends on move {n} ({result}), so square {} cannot be played after it; \
                     give the squares up to move {n}",
                    squares[n].index() + 1
                );
            }
            say!("{code}");
        }
        RecordCommand::Decode { code } => {
            let squares = record::decode(*code)?;
            let (board, ended) = record::ended_at(&squares);
            let played: Vec<String> = squares
                .iter()
                .map(|s| (s.index() + 1).to_string())
                .collect();
            say!("{}", played.join(" "));
            for row in board.to_string().split('/') {
                let cells: Vec<String> = row.chars().map(String::from).collect();
                say!("{}", cells.join(" "));
            }
            let result = match board.status() {
                Status::InPlay(p) => format!("{} to move", p.letter()),
                Status::Won { winner, .. } => format!("{} wins", winner.letter()),
                Status::Draw => "Draw".to_string(),
            };
            say!("Result: {result}");
            if let Some(n) = ended {
                match squares.len() - n {
                    1 => say!("The game ended on move {n}; the move after it is not played."),
                    k => say!("The game ended on move {n}; the {k} moves after it are not played."),
                }
            }
            say!("Page: {}/{}", site::TWO_PLAYER, page_name(board.id()));
            say!("bit-tac-toe state: 0x{:08x}", BitState::from_board(board).0);
        }
    }
    Ok(())
}
