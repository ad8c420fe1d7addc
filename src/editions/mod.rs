//! The editions: each makes an [`Edition`](crate::screen::Edition), a
//! screen per position, for any [`Game`](crate::game::Game). They know
//! nothing of each other; `site` names them and tells each where the
//! others are.

pub mod analysis;
pub mod gamebook;
pub mod two_player;
pub mod vs_computer;

use crate::game::Game;

/// The words of the link back to the start: a puzzle starts again, a
/// game of two starts anew.
pub fn start_again<G: Game>() -> &'static str {
    if G::PLAYERS == 1 {
        "Start again"
    } else {
        "New game"
    }
}
