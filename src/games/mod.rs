//! The games, each in a module of its own that implements
//! [`Game`](crate::game::Game) and holds its shape: its cells, images and
//! words.

pub mod hanoi;
pub mod tictactoe;
