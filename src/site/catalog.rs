//! The one list of what the site holds: the games ([`GAMES`]), their
//! editions and slugs, their maps, the images `static/` must hold, and
//! the maps' folder. A new game is its module in `games/` and one entry
//! here; a new edition is its module in `editions/` and a line in its
//! game's entry.
//!
//! Invariant: the build names no game; it walks [`GAMES`] (through
//! [`Solved`]), so the editions, maps and images come in the list's
//! order.

use super::Options;
use super::report::Steps;
use crate::editions::vs_computer::{self, Match};
use crate::editions::{analysis, gamebook, two_player};
use crate::game::{Game, Side};
#[cfg(test)]
use crate::games::chess::{Ending, challenge};
use crate::games::chess::{Mate, MateRules, Queen, Rook};
use crate::games::hanoi::{self, Hanoi};
use crate::games::tictactoe::{Board, Rules};
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

/// Mate with king and queen: its slug.
pub const KQK: &str = "kqk";

/// Mate with king and queen, analysed: its slug.
pub const KQK_ANALYSIS: &str = "kqk-analysis";

/// Mate with king and rook: its slug.
pub const KRK: &str = "krk";

/// Mate with king and rook, analysed: its slug.
pub const KRK_ANALYSIS: &str = "krk-analysis";

/// The print gamebook's slug: its PDF is `ebooks/tictactoe-gamebook.pdf`.
pub const GAMEBOOK: &str = "gamebook";

/// The maps' folder.
pub const MAPS: &str = "map";

/// What the home page says of the site as a whole: its games by name, so
/// they are named here, beside the list of them, and not by the page's
/// writer.
pub const HOME: SiteWords = SiteWords {
    title: "Tic-tac-toe, the Towers of Hanoi and the first chess mates",
    heading: "Tic-tac-toe, the Towers of Hanoi and the first chess mates, a page for every \
position",
    about: "Every board of tic-tac-toe, every position of the Towers of Hanoi and every \
position of a chess mate in which mate can still be forced in time against a perfect defender \
is a page of its own, and every move is a \
link to the page after it. No JavaScript: it plays in any browser, from a web host or straight \
from disk.",
    maps: "Each map is one drawing of a whole game, generated from the solver: the map of \
optimal tic-tac-toe for X and for O, after xkcd 832 (your move is the large red mark; when the \
other side answers in a square, that square holds the map from there), and every position of \
the Towers of Hanoi. Zoom in as far as you like; every move in the map is a link to its board.",
};

/// One game of the site: the images its cells draw with, and how a
/// build solves it. Each game is a unit struct implementing it, listed
/// once in [`GAMES`]; everything the build makes of a game comes from
/// here, so adding one touches no other part of the build.
pub trait Entry: Sync {
    /// The images its cells (and what stands under a board) draw with:
    /// what `static/` must hold for it, as `.svg` and `.gif`.
    fn images(&self) -> &'static [&'static str];

    /// Solves it as `options` ask (its variant, its rules), each step
    /// named and timed in `steps`, one a solve: what its editions and
    /// maps are then made from.
    fn solve(&self, options: &Options, steps: &mut Steps) -> Box<dyn SolvedGame>;
}

/// A game solved for a build: it makes its editions and its maps, each
/// on a job of its own ([`crate::par`]), so it is shared between threads.
pub trait SolvedGame: Send + Sync {
    /// Its editions, in the order the home page and the book list show
    /// them (a print-only edition goes after every other game's anyway:
    /// [`Solved::each_edition`]). The slugs are the catalog's constants,
    /// so editions that link to each other are told where the other is.
    fn editions(&self) -> Vec<EditionMaker<'_>>;

    /// Its maps of the whole game, in the home page's order; none for a
    /// game without one.
    fn maps(&self) -> Vec<MapMaker<'_>>;
}

/// Makes one edition, from what its game solved.
pub struct EditionMaker<'a> {
    /// About how much making and writing it costs, to start the largest
    /// first ([`crate::par::map_heaviest_first`]): the cells of its
    /// graph's positions, each drawn on a board's grid (a chess ending's
    /// few thousand positions of 72 cells outweigh tic-tac-toe's 5,478 of
    /// nine).
    pub weight: u64,
    /// Makes it.
    pub make: Box<dyn Fn() -> Edition + Send + Sync + 'a>,
}

/// Makes one map of a whole game, drawn by `map` from its [`Game::MAP`].
pub struct MapMaker<'a> {
    /// Its file's stem in the maps' folder ([`MAPS`]).
    pub stem: &'static str,
    /// What it shows, in words: the home page's picture of it.
    pub words: &'static str,
    /// Draws it.
    pub make: Box<dyn Fn() -> Map + Send + Sync + 'a>,
}

/// [`EditionMaker`] of a closure making an edition of `graph`: spares
/// each entry the box, its type and its weight.
fn edition<'a, G: Game>(
    graph: &StateGraph<G>,
    make: impl Fn() -> Edition + Send + Sync + 'a,
) -> EditionMaker<'a> {
    let (rows, columns) = graph.root().grid();
    EditionMaker {
        weight: (graph.len() * rows * columns) as u64,
        make: Box::new(make),
    }
}

/// The games of the site, in the order the home page, the book list and
/// the maps show them. A new game is one line here.
pub static GAMES: &[&dyn Entry] = &[&TicTacToe, &TowersOfHanoi, &ChessEndings];

/// The images every game of the site draws its cells (and what stands
/// under a board) with: what `static/` must hold, as `.svg` and `.gif`.
pub fn images() -> Vec<&'static str> {
    GAMES
        .iter()
        .flat_map(|game| game.images())
        .copied()
        .collect()
}

/// Every game of [`GAMES`] solved, in the list's order: what the
/// editions and maps are made from.
pub struct Solved {
    games: Vec<Box<dyn SolvedGame>>,
}

impl Solved {
    /// Solves every game as `options` ask.
    pub fn new(options: &Options) -> Solved {
        Solved::timed(options, &mut Steps::new(&mut Vec::new(), false))
    }

    /// [`Solved::new`], each game's steps noted in `steps`.
    pub(super) fn timed(options: &Options, steps: &mut Steps) -> Solved {
        let games = GAMES.iter().map(|game| game.solve(options, steps));
        Solved {
            games: games.collect(),
        }
    }

    /// The editions, in the order the home page and the book list show
    /// them: [`Solved::each_edition`], kept whole.
    pub fn editions(&self) -> Vec<Edition> {
        self.each_edition(|e| e)
    }

    /// Every game's editions, each handed to `then` as soon as it is
    /// made, on the job that made it: what the build does with an
    /// edition need not wait for the others. The results are in the
    /// editions' order: each game's in [`GAMES`] order, the print-only
    /// ones (the gamebook) after all the rest, whose books a reader
    /// reaches first.
    pub fn each_edition<R: Send>(&self, then: impl Fn(Edition) -> R + Sync + Send) -> Vec<R> {
        let makers: Vec<EditionMaker> = self.games.iter().flat_map(|g| g.editions()).collect();
        // Each edition on its own job, on every core, the largest first.
        let mut made = crate::par::map_heaviest_first(
            &makers,
            |m| m.weight,
            |m| {
                let edition = (m.make)();
                (edition.print_only, then(edition))
            },
        );
        // A stable sort: each group keeps the list's order.
        made.sort_by_key(|(print_only, _)| *print_only);
        made.into_iter().map(|(_, r)| r).collect()
    }

    /// The maps of whole games, each on its own job: each file's path in
    /// the site, what it shows in words (the home page's picture of it),
    /// and the map.
    pub fn maps(&self) -> Vec<(String, &'static str, Map)> {
        let makers: Vec<MapMaker> = self.games.iter().flat_map(|g| g.maps()).collect();
        crate::par::map(&makers, |m| {
            (format!("{MAPS}/{}.svg", m.stem), m.words, (m.make)())
        })
    }
}

/// Tic-tac-toe: two players, against the computer, analysed, and the
/// print gamebook; a map for X and one for O.
pub struct TicTacToe;

impl Entry for TicTacToe {
    fn images(&self) -> &'static [&'static str] {
        Board::IMAGES
    }

    fn solve(&self, options: &Options, steps: &mut Steps) -> Box<dyn SolvedGame> {
        let rules = Rules {
            early_draws: options.early_draws,
        };
        let solver = steps.time("solve tic-tac-toe", || Solver::with_rules(rules));
        let games = steps.time("play out games", || {
            vs_computer::games(&options.games, &solver)
        });
        Box::new(SolvedTicTacToe { solver, games })
    }
}

/// Tic-tac-toe solved, and the games against the computer played out.
struct SolvedTicTacToe {
    solver: Solver<Board>,
    games: Vec<Match<Board>>,
}

impl SolvedGame for SolvedTicTacToe {
    fn editions(&self) -> Vec<EditionMaker<'_>> {
        let SolvedTicTacToe { solver, games } = self;
        vec![
            edition(solver.graph(), || {
                two_player::edition(TWO_PLAYER, solver.graph(), Some(ANALYSIS))
            }),
            edition(solver.graph(), || {
                vs_computer::edition(VS_COMPUTER, solver, games)
            }),
            edition(solver.graph(), || {
                analysis::edition(ANALYSIS, solver, TWO_PLAYER)
            }),
            edition(solver.graph(), || gamebook::edition(GAMEBOOK, solver)),
        ]
    }

    fn maps(&self) -> Vec<MapMaker<'_>> {
        let solver = &self.solver;
        vec![
            MapMaker {
                stem: "tictactoe-x",
                words: "The map of optimal tic-tac-toe for X",
                make: Box::new(|| map::marks(solver, Side::First, ANALYSIS)),
            },
            MapMaker {
                stem: "tictactoe-o",
                words: "The map of optimal tic-tac-toe for O",
                make: Box::new(|| map::marks(solver, Side::Second, ANALYSIS)),
            },
        ]
    }
}

/// The Towers of Hanoi, of `--hanoi-discs` discs: to play, and analysed;
/// a map of every position.
pub struct TowersOfHanoi;

impl Entry for TowersOfHanoi {
    fn images(&self) -> &'static [&'static str] {
        Hanoi::IMAGES
    }

    fn solve(&self, options: &Options, steps: &mut Steps) -> Box<dyn SolvedGame> {
        let rules = hanoi::Rules {
            discs: options.hanoi_discs,
        };
        let solver = steps.time("solve the Towers of Hanoi", || Solver::with_rules(rules));
        Box::new(SolvedHanoi(solver))
    }
}

/// The Towers of Hanoi solved.
struct SolvedHanoi(Solver<Hanoi>);

impl SolvedGame for SolvedHanoi {
    fn editions(&self) -> Vec<EditionMaker<'_>> {
        let solver = &self.0;
        vec![
            edition(solver.graph(), || {
                two_player::edition(HANOI, solver.graph(), Some(HANOI_ANALYSIS))
            }),
            edition(solver.graph(), || {
                analysis::edition(HANOI_ANALYSIS, solver, HANOI)
            }),
        ]
    }

    fn maps(&self) -> Vec<MapMaker<'_>> {
        let solver = &self.0;
        vec![MapMaker {
            stem: "hanoi",
            words: "The map of every position of the Towers of Hanoi",
            make: Box::new(|| map::graph(solver, HANOI_ANALYSIS)),
        }]
    }
}

/// Mate in N against a perfect defender, with king and queen and with
/// king and rook: each to play, and analysed; no map.
pub struct ChessEndings;

impl Entry for ChessEndings {
    /// Both endings draw with the same squares.
    fn images(&self) -> &'static [&'static str] {
        Mate::<Queen>::IMAGES
    }

    /// # Panics
    /// If the options' starts do not start a challenge: the command line
    /// checks them first ([`MateRules::new`]).
    fn solve(&self, options: &Options, steps: &mut Steps) -> Box<dyn SolvedGame> {
        // Each ending whole on its own job: its tablebase (the retrograde
        // analysis, a third of its time), then its challenge.
        let (queen, rook) = steps.time("solve the chess endings", || {
            crate::par::join(
                || Solver::with_rules(MateRules::<Queen>::new(options.kqk).expect("KQK, checked")),
                || Solver::with_rules(MateRules::<Rook>::new(options.krk).expect("KRK, checked")),
            )
        });
        Box::new(SolvedChess { queen, rook })
    }
}

/// Both chess endings solved.
struct SolvedChess {
    queen: Solver<Mate<Queen>>,
    rook: Solver<Mate<Rook>>,
}

impl SolvedGame for SolvedChess {
    fn editions(&self) -> Vec<EditionMaker<'_>> {
        let SolvedChess { queen, rook } = self;
        vec![
            edition(queen.graph(), || {
                two_player::edition(KQK, queen.graph(), Some(KQK_ANALYSIS))
            }),
            edition(queen.graph(), || {
                analysis::edition(KQK_ANALYSIS, queen, KQK)
            }),
            edition(rook.graph(), || {
                two_player::edition(KRK, rook.graph(), Some(KRK_ANALYSIS))
            }),
            edition(rook.graph(), || analysis::edition(KRK_ANALYSIS, rook, KRK)),
        ]
    }

    fn maps(&self) -> Vec<MapMaker<'_>> {
        Vec::new()
    }
}

#[cfg(test)]
impl Solved {
    /// The default build's games, the Towers of Hanoi of `discs` discs:
    /// every edition and map, for the tests that read them all.
    pub(crate) fn defaults(discs: u8) -> Solved {
        Solved::new(&Options {
            static_dir: Default::default(),
            out: Default::default(),
            games: Default::default(),
            budgets: Default::default(),
            early_draws: false,
            hanoi_discs: discs,
            kqk: challenge::Rules::default_for(Ending::Kqk, 0),
            krk: challenge::Rules::default_for(Ending::Krk, 0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chess endings, whose books take longest, start first: their
    /// editions weigh the most, then tic-tac-toe's, then the Towers of
    /// Hanoi's at four discs.
    #[test]
    fn the_chess_editions_weigh_the_most() {
        let solved = Solved::defaults(4);
        let weights: Vec<Vec<u64>> = (solved.games.iter())
            .map(|g| g.editions().iter().map(|m| m.weight).collect())
            .collect();
        let [tictactoe, hanoi, chess] = &weights[..] else {
            panic!("three games: {weights:?}");
        };
        let lightest_chess = chess.iter().min().unwrap();
        assert!(
            tictactoe.iter().chain(hanoi).all(|w| w < lightest_chess),
            "{weights:?}"
        );
        assert!(hanoi.iter().all(|w| w < &tictactoe[0]), "{weights:?}");
    }
}
