//! tictactoe-book: the whole game of tic-tac-toe as static hypertext.
//!
//! The library holds everything; `xtask/` only parses flags and calls
//! [`site::build`]. See `ARCHITECTURE.md` for the map.

pub mod board;
pub mod graph;
