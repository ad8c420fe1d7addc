//! tictactoe-book: the whole game of tic-tac-toe as static hypertext.
//!
//! The library holds everything; `xtask/` only parses flags and calls
//! [`site::build`]. See `ARCHITECTURE.md` for the map.

pub mod analysis;
pub mod assets;
pub mod bitstate;
pub mod board;
pub mod ebook;
pub mod graph;
pub mod hash;
pub mod html;
pub mod opponent;
pub mod output;
pub mod par;
pub mod record;
pub mod screen;
pub mod site;
pub mod solver;
pub mod two_player;
pub mod vs_computer;
