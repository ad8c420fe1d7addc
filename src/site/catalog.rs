//! The one list of what the site holds: the games, their editions and
//! slugs, the images `static/` must hold, and the books' folder. A new
//! game or edition is added here.

use crate::editions::vs_computer::{self, Match};
use crate::editions::{analysis, gamebook, two_player};
use crate::game::{Game, Side};
use crate::games::hanoi::{self, Hanoi};
use crate::games::tictactoe::Board;
use crate::graph::StateGraph;
use crate::html::SiteWords;
use crate::map::{self, Map};
use crate::screen::Edition;
use crate::solver::Solver;

/// The two-player edition's slug: its web folder and its books' names.
pub const TWO_PLAYER: &str = "two-player";

/// The games against the computer's slug: a folder per game inside.
pub const VS_COMPUTER: &str = "vs-computer";

/// The analysis edition's slug.
pub const ANALYSIS: &str = "analysis";

/// The Towers of Hanoi's slug.
pub const HANOI: &str = "hanoi";

/// The Towers of Hanoi analysed: its slug.
pub const HANOI_ANALYSIS: &str = "hanoi-analysis";

/// The print gamebook's slug: its PDF is `ebooks/tictactoe-gamebook.pdf`.
pub const GAMEBOOK: &str = "gamebook";

/// The maps' folder.
pub const MAPS: &str = "map";

/// What the home page says of the site as a whole: its games by name, so
/// they are named here, beside the list of them, and not by the page's
/// writer.
pub const HOME: SiteWords = SiteWords {
    title: "Tic-tac-toe and the Towers of Hanoi",
    heading: "Tic-tac-toe and the Towers of Hanoi, a page for every position",
    about: "Every board of tic-tac-toe and every position of the Towers of Hanoi is a page of \
its own, and every move is a link to the page after it. No JavaScript: it plays in any \
browser, from a web host or straight from disk.",
    maps: "Each map is one drawing of a whole game, generated from the solver: the map of \
optimal tic-tac-toe for X and for O, after xkcd 832 (your move is the large red mark; when the \
other side answers in a square, that square holds the map from there), and every position of \
the Towers of Hanoi. Zoom in as far as you like; every move in the map is a link to its board.",
};

/// The maps of whole games: each file's path in the site, what it shows
/// in words (the home page's picture of it), and the map. A game's map
/// is listed here and drawn by `map` from its [`Game::MAP`].
pub fn maps(solver: &Solver<Board>, hanoi: &Solver<Hanoi>) -> Vec<(String, &'static str, Map)> {
    let makers: [(&str, &'static str, &(dyn Fn() -> Map + Sync)); 3] = [
        (
            "tictactoe-x",
            "The map of optimal tic-tac-toe for X",
            &|| map::marks(solver, Side::First, ANALYSIS),
        ),
        (
            "tictactoe-o",
            "The map of optimal tic-tac-toe for O",
            &|| map::marks(solver, Side::Second, ANALYSIS),
        ),
        (
            "hanoi",
            "The map of every position of the Towers of Hanoi",
            &|| map::graph(hanoi, HANOI_ANALYSIS),
        ),
    ];
    crate::par::map(&makers, |(name, words, make)| {
        (format!("{MAPS}/{name}.svg"), *words, make())
    })
}

/// The images every game of the site draws its cells (and what stands
/// under a board) with: what `static/` must hold, as `.svg` and `.gif`.
pub fn images() -> Vec<&'static str> {
    [<Board as Game>::IMAGES, <Hanoi as Game>::IMAGES].concat()
}

/// The editions, in the order the home page and the book list show them.
/// Adding an edition is a module that makes an [`Edition`] and a line here;
/// the slugs are named here, so editions that link to each other are told
/// where the other is.
pub fn editions(
    solver: &Solver<Board>,
    games: &[Match<Board>],
    hanoi: &Solver<Hanoi>,
) -> Vec<Edition> {
    each_edition(solver, games, hanoi, |e| e)
}

/// [`editions`], each handed to `then` as soon as it is made, on the job
/// that made it: what the build does with an edition need not wait for
/// the others. The results are in the editions' order.
pub fn each_edition<R: Send>(
    solver: &Solver<Board>,
    games: &[Match<Board>],
    hanoi: &Solver<Hanoi>,
    then: impl Fn(Edition) -> R + Sync + Send,
) -> Vec<R> {
    let makers: [&(dyn Fn() -> Edition + Sync); 6] = [
        &|| two_player::edition(TWO_PLAYER, solver.graph(), Some(ANALYSIS)),
        &|| vs_computer::edition(VS_COMPUTER, solver, games),
        &|| analysis::edition(ANALYSIS, solver, TWO_PLAYER),
        &|| two_player::edition(HANOI, hanoi.graph(), Some(HANOI_ANALYSIS)),
        &|| analysis::edition(HANOI_ANALYSIS, hanoi, HANOI),
        &|| gamebook::edition(GAMEBOOK, solver),
    ];
    // Each edition on its own job, on every core.
    crate::par::map(&makers, |make| then(make()))
}

/// The Towers of Hanoi of `discs` discs, solved.
pub fn hanoi_solver(discs: u8) -> Solver<Hanoi> {
    Solver::new(StateGraph::with_rules(hanoi::Rules { discs }))
}
