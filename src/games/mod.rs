//! The games, each in a module of its own that implements
//! [`Game`](crate::game::Game) and holds its shape: its cells, images and
//! words. The chess endings have, so far, only their rules and their
//! retrograde analysis: no `Game` yet, so no edition.

pub mod chess;
pub mod hanoi;
pub mod tictactoe;
