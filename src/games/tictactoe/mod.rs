//! Tic-tac-toe: the board and its rules ([`Board`]), its shape as a
//! [`Game`](crate::game::Game) (`shape`), bit-tac-toe's 32-bit state
//! ([`bitstate`]) and 23-bit game records ([`record`]).

pub mod bitstate;
mod board;
pub mod record;
mod shape;

pub use board::*;
pub use shape::{DEAD_LINE, IMAGES, RULES, draw_heading};
