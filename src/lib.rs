//! tictactoe-book: whole games, tic-tac-toe first, as static hypertext.
//!
//! The library holds everything; `xtask/` only parses flags and calls
//! [`site::build`]. See `ARCHITECTURE.md` for the map.

pub mod assets;
pub mod ebook;
pub mod editions;
pub mod game;
pub mod games;
pub mod graph;
pub mod html;
pub mod map;
pub mod markup;
pub mod opponent;
pub mod output;
pub mod par;
pub mod picture;
pub mod screen;
pub mod site;
pub mod solver;
pub mod view;
