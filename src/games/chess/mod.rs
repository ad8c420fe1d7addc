//! Chess endgames: a white king and queen (KQK) or king and rook (KRK)
//! against a lone black king, their rules, FEN, and our own retrograde
//! analysis of every legal position's distance to mate.
//!
//! `board` holds the rules, `fen` reads and writes positions, `tablebase`
//! solves an ending, `census` counts the solved positions,
//! `challenge` is mate in N against a perfect defender, and `shape` makes
//! it a [`crate::game::Game`] of 64 squares.

pub mod board;
pub mod census;
pub mod challenge;
pub mod fen;
pub mod shape;
pub mod tablebase;

pub use board::{Color, Ending, Illegal, IllegalMove, Move, Moves, Position, Square, Status};
pub use census::{Census, Count};
pub use fen::FenError;
pub use shape::{Kind, Mate, MateRules, Queen, Rook};
pub use tablebase::{Dtm, Tablebase};
