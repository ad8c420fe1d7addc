//! The editions: each makes an [`Edition`](crate::screen::Edition), a
//! screen per position, for any [`Game`](crate::game::Game). They know
//! nothing of each other; `site` names them and tells each where the
//! others are.

pub mod analysis;
pub mod gamebook;
pub mod two_player;
pub mod vs_computer;
