//! Games against the computer, decided at build time, for any [`Game`]:
//! for each match, the computer's reply to every position it can face is
//! fixed, so the game is only links. Screens are addressed by match and
//! key; on the web they are `<slug>/<match>/<key>.html`.
//!
//! Invariant: within a game each board the computer faces has one reply,
//! drawn once from that board's own window of the game's ChaCha stream; a
//! player's square link goes to the board after the player's move and that
//! reply (or to the finished board if the player's move ended the game),
//! to the page that names that reply: a board two replies reach has a page
//! for each (its key carries the reply, [`REPLY_SHIFT`]).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use rand_core::SeedableRng;

use crate::game::{Game, Outcome, Side};
use crate::graph::StateGraph;
use crate::opponent::{self, Level, Rng};
use crate::screen::{CellView, Edition, Link, Look, Screen, Target};
use crate::solver::Solver;
use crate::view::{Choice, View};

/// Where a page's key keeps the computer's last move, for a position the
/// computer reaches by more than one reply: the move's cell plus one, and
/// above it, for a move of a piece and its cell, the piece's cell plus one
/// (8 bits each), in the bits from here up, or from above the game's keys
/// if they need more ([`reply_shift`]; the position's own key below). Such
/// a position has a page per reply, so each page says what the computer
/// just did.
pub const REPLY_SHIFT: u32 = 24;

/// The bit of a page key where the reply that reached it starts: above
/// every key of game `G`, and at least [`REPLY_SHIFT`].
pub fn reply_shift<G: Game>() -> u32 {
    (32 - G::KEYS.saturating_sub(1).leading_zeros()).max(REPLY_SHIFT)
}

/// A reply as [`REPLY_SHIFT`] keeps it: the cell plus one, the piece's
/// cell plus one above it.
fn reply_code<G: Game>(reply: G::Move) -> u64 {
    let cell = G::cell(reply) as u64 + 1;
    let piece = G::piece(reply).map_or(0, |p| p as u64 + 1);
    debug_assert!(cell < 256 && piece < 256, "a cell in 8 bits");
    piece << 8 | cell
}

/// What a screen reader hears after the computer's last square: "middle
/// right: O, its last move": the line under the heading has just said
/// whose.
pub const LAST_MOVE: &str = "its last move";

/// The seed used when none is given.
pub const DEFAULT_SEED: u64 = 2009;

/// How the games are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// How many games.
    pub games: usize,
    /// One level for every game, or `None` for an even mix.
    pub level: Option<Level>,
    /// Seeds every random choice.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            games: 16,
            level: None,
            seed: DEFAULT_SEED,
        }
    }
}

/// Who starts and how well the computer plays, for one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// 1-based game number: the folder name.
    pub number: usize,
    /// The player's side: the first when the player starts.
    pub human: Side,
    /// The computer's level.
    pub level: Level,
}

impl Spec {
    /// Whether the player moves first.
    pub fn human_starts(self) -> bool {
        self.human == Side::First
    }
}

/// The games to make: odd-numbered games start with the player, even ones
/// with the computer; levels go round in pairs, so each level gets both.
pub fn plan(settings: &Settings) -> Vec<Spec> {
    (0..settings.games)
        .map(|i| Spec {
            number: i + 1,
            human: if i % 2 == 0 {
                Side::First
            } else {
                Side::Second
            },
            level: settings
                .level
                .unwrap_or(Level::ALL[(i / 2) % Level::ALL.len()]),
        })
        .collect()
}

/// One match, played out against every sequence of the player's moves.
#[derive(Clone, Debug)]
pub struct Match<G: Game> {
    /// Who starts and the level.
    pub spec: Spec,
    /// The first page: the start, or the computer's opening move.
    pub start: G,
    /// The computer's opening move, when it starts.
    pub opening: Option<G::Move>,
    /// The computer's reply to each position it faced.
    pub replies: BTreeMap<G, G::Move>,
    /// Every position with a page (or, reached by several replies, a page
    /// for each): the player to move, and finished ones.
    pub pages: BTreeSet<G>,
    /// For each position a reply leads to: every reply that leads to it,
    /// in order (made once the match is played out).
    reached_by: rustc_hash::FxHashMap<G, Vec<G::Move>>,
}

impl<G: Game> Match<G> {
    /// Plays out match `spec` with its own stream of the generator seeded
    /// by `seed`, so adding matches does not change the others. The
    /// matches keep the rules of the solver's graph.
    pub fn play_out(spec: Spec, solver: &Solver<G>, seed: u64) -> Match<G> {
        let root = solver.graph().root();
        let mut rng = Rng::seed_from_u64(seed);
        rng.set_stream(spec.number as u64);
        let opening = (!spec.human_starts()).then(|| {
            // The opening is random, not always the centre.
            let moves: Vec<G::Move> = root.moves().collect();
            moves[opponent::below(&mut rng, moves.len())]
        });
        let level = spec.level;
        Match::with_replies(spec, root, opening, |after| {
            // Each board draws from its own window of the game's stream, so
            // a reply does not depend on the order boards are met in, and
            // trimming a game (early draws) leaves the other replies alone.
            let mut rng = rng.clone();
            rng.set_word_pos(u128::from(after.key() + 1) << 20);
            opponent::choose(solver, after, level, &mut rng).expect("a game in play has a move")
        })
    }

    /// Plays out match `spec` from `root`, the computer opening with
    /// `opening` (when it starts) and answering each position it faces
    /// with `reply`, asked once per position.
    pub fn with_replies(
        spec: Spec,
        root: G,
        opening: Option<G::Move>,
        mut reply: impl FnMut(G) -> G::Move,
    ) -> Match<G> {
        let start = match opening {
            Some(m) => root.play(m).expect("a legal opening"),
            None => root,
        };
        let mut game = Match {
            spec,
            start,
            opening,
            replies: BTreeMap::new(),
            pages: BTreeSet::new(),
            reached_by: Default::default(),
        };
        let mut queue = VecDeque::from([start]);
        game.pages.insert(start);
        while let Some(board) = queue.pop_front() {
            for square in board.moves() {
                let after = board.play(square).expect("legal");
                let next = if after.is_over() {
                    after
                } else {
                    let square = *game.replies.entry(after).or_insert_with(|| reply(after));
                    after.play(square).expect("the reply is legal")
                };
                if game.pages.insert(next) {
                    queue.push_back(next);
                }
            }
        }
        for (&after, &square) in &game.replies {
            let board = after.play(square).expect("the reply is legal");
            game.reached_by.entry(board).or_default().push(square);
        }
        for replies in game.reached_by.values_mut() {
            replies.sort_unstable();
            replies.dedup();
        }
        game
    }

    /// Where the player's move `square` on `board` leads, for a page.
    pub fn target(&self, board: G, square: G::Move) -> Option<G> {
        self.follow(board, square).map(|(b, _)| b)
    }

    /// Where the player's move `square` on `board` leads, and the
    /// computer's reply on the way (none if the player's move ended the
    /// game).
    fn follow(&self, board: G, square: G::Move) -> Option<(G, Option<G::Move>)> {
        let after = board.play(square).ok()?;
        if after.is_over() {
            return Some((after, None));
        }
        let reply = *self.replies.get(&after)?;
        Some((after.play(reply).ok()?, Some(reply)))
    }

    /// The computer's moves that reach `board` last, one for each of its
    /// pages: the opening on the first page when the computer starts, the
    /// replies that lead to it, or none (the player's own start, or a
    /// game the player's move ended).
    pub fn arrivals(&self, board: G) -> Vec<Option<G::Move>> {
        if board == self.start {
            return vec![self.opening];
        }
        // Whose move made a position is the position's own (see
        // [`Game::mover`]), so one the computer reaches only the computer
        // reaches.
        match self.reached_by.get(&board) {
            Some(replies) => replies.iter().map(|&r| Some(r)).collect(),
            None => vec![None],
        }
    }

    /// How the page of a position names its state, from the player's side.
    pub fn heading(&self, board: G) -> String {
        match board.outcome() {
            None => format!("Your move ({})", G::side_name(self.spec.human)),
            Some(Outcome::Won(winner)) if winner == self.spec.human => "You win".to_string(),
            Some(Outcome::Won(_)) => "The computer wins".to_string(),
            Some(Outcome::Draw | Outcome::Solved) => board.heading(None),
        }
    }

    /// The address of one of this match's positions, its first page if it
    /// has one for each reply that reaches it.
    pub fn at(&self, board: G) -> Target {
        self.reached(board, self.arrivals(board)[0])
    }

    /// The address of the page of `board` reached by the computer's move
    /// `reply`: a page of its own when more than one reply reaches
    /// `board` (see [`REPLY_SHIFT`]).
    pub fn reached(&self, board: G, reply: Option<G::Move>) -> Target {
        self.page(View::of(board), reply)
    }

    /// The address of the page of `view` (a position reached by the
    /// computer's move `reply`, maybe with the player's piece picked up):
    /// the position's page, or its piece's, each with the reply above
    /// its key as [`Match::reached`] puts it, so picking a piece up and
    /// putting it back stays on the pages of that reply.
    pub fn page(&self, view: View<G>, reply: Option<G::Move>) -> Target {
        let board = view.position;
        let key = u64::from(view.key());
        let shared = self.reached_by.get(&board).is_some_and(|r| r.len() > 1);
        let key = match reply {
            Some(r) if shared => key | reply_code::<G>(r) << reply_shift::<G>(),
            _ => key,
        };
        Target::Page {
            game: self.spec.number as u16,
            key,
        }
    }

    /// The screen of `view` (a position, maybe with the player's piece
    /// picked up) reached by the computer's move `reply` (see
    /// [`Match::arrivals`]), its line naming the game `name` ([`Match::name`]
    /// on the web and in the e-books); `graph` gives its depth. A move
    /// links past the computer's reply; where a move is two taps, a piece
    /// links to its page of targets and, picked up, back.
    pub fn screen(
        &self,
        graph: &StateGraph<G>,
        view: View<G>,
        reply: Option<G::Move>,
        name: &str,
    ) -> Screen {
        let board = view.position;
        let depth = graph.depth(board).expect("a reachable position");
        let heading = match view.picked {
            Some(_) if !board.is_over() => view.heading(),
            _ => self.heading(board),
        };
        let at = self.page(view, reply);
        let link = |choice| match choice {
            Choice::Move(square) => self.follow(board, square).map(|(b, r)| self.reached(b, r)),
            Choice::Pick(_) | Choice::Back => Some(self.page(view.after(choice), reply)),
        };
        // The computer's last move is marked on the board, and a screen
        // reader hears it on its square.
        // (Not where a piece picked up may go: that cell says so.)
        let mark = |cells: &mut [CellView]| {
            let Some(square) = reply.filter(|&m| cells[G::cell(m)].link().is_none()) else {
                return;
            };
            let index = G::cell(square);
            let cell = &mut cells[index];
            let old = *cell.look;
            let look = Look {
                image: board.last_move_image(index),
                ..old
            };
            let label = format!("{}, {LAST_MOVE}", old.label);
            let holds = format!("{}, {LAST_MOVE}", old.holds);
            cell.look = look.with_words(label.into(), holds.into()).interned();
        };
        let mut s = Screen::edited(at, view, depth, heading, link, mark);
        // The title says what the heading says ("The computer wins", not
        // "O wins"), then the position.
        if let Some(rest) = s.title.strip_prefix(board.heading(None).as_str()) {
            s.title = format!("{}{rest}", s.heading);
        }
        // One paragraph under the heading, so the board keeps the room:
        // what the computer just did, the board's remark if it has one
        // ("No one can make three in a row any more."), then which game.
        let remark = s.lines.pop();
        s.lines = vec![self.line(name, board, reply, remark.as_deref())];
        // Only the web says "Play again": the book shares a game's last
        // pages with other games that end alike, and offers the contents.
        let again = Link::Web(self.at(self.start));
        s.nav = if board.is_over() {
            vec![
                (again, "Play again"),
                (Link::Here(Target::Contents), "Choose another game"),
            ]
        } else {
            vec![(again, "Start again")]
        };
        s
    }

    /// The line under a page's heading: the computer's move that led
    /// here, or on the player's own start that the player starts (nothing
    /// once the player's move ended the game), the board's `remark`, then
    /// the game's `name`: "The computer took the middle right square.
    /// Game 3, medium." News first, for a screen reader; and each game's
    /// pages end in the same words, which the books' compression keeps as
    /// one phrase.
    pub fn line(
        &self,
        name: &str,
        board: G,
        reply: Option<G::Move>,
        remark: Option<&str>,
    ) -> String {
        let mut line = match reply {
            Some(m) => format!("The computer took {}. ", G::move_place(m)),
            None if board == self.start => "You start. ".to_string(),
            None => String::new(),
        };
        if let Some(remark) = remark {
            line.push_str(remark);
            line.push(' ');
        }
        line.push_str(name);
        line.push('.');
        line
    }

    /// Every screen of the match, by depth, then key, each line naming
    /// the game `name`: each page's board, then the board with each of
    /// the player's pieces picked up.
    pub fn screens(&self, graph: &StateGraph<G>, name: &str) -> Vec<Screen> {
        let mut order: Vec<(u32, G)> = self
            .pages
            .iter()
            .map(|&b| (graph.depth(b).expect("a reachable position"), b))
            .collect();
        order.sort_by_key(|&(depth, b)| (depth, b.key()));
        order
            .into_iter()
            .flat_map(|(_, b)| {
                let arrivals = self.arrivals(b);
                let views: Vec<View<G>> = std::iter::once(View::of(b))
                    .chain(b.pieces().map(|c| View {
                        position: b,
                        picked: Some(c),
                    }))
                    .collect();
                arrivals.into_iter().flat_map(move |r| {
                    (views.clone().into_iter()).map(move |v| self.screen(graph, v, r, name))
                })
            })
            .collect()
    }

    /// The game's short name, which ends the line under each page's
    /// heading: "Game 3, medium" (the heading says the player's side).
    pub fn name(&self) -> String {
        format!("Game {}, {}", self.spec.number, self.spec.level)
    }

    /// A line for the menu: who starts and the level.
    pub fn describe(&self) -> String {
        let side = G::side_name(self.spec.human);
        let who = if self.spec.human_starts() {
            format!("you start ({side})")
        } else {
            format!("the computer starts, you are {side}")
        };
        format!("Game {}: {who}, {}", self.spec.number, self.spec.level)
    }
}

/// The edition at `slug`: every match's screens, match by match.
pub fn edition<G: Game>(slug: &'static str, solver: &Solver<G>, games: &[Match<G>]) -> Edition {
    let screens = crate::par::map(games, |g| g.screens(solver.graph(), &g.name()));
    Edition {
        name: format!("{} against the computer", G::TEXTS.title),
        title: format!("{} against the Computer", G::TEXTS.title),
        about: "The computer's replies were decided when this was made, so even this game is \
only links. Easy games can be won; a perfect computer never loses.",
        contents: contents(games),
        screens: screens.into_iter().flatten().collect(),
        ..Edition::of(slug, solver.graph().root())
    }
}

/// Each match's line in the contents, and its first page: what
/// [`Match::describe`] says and, where other matches have the same start
/// and level (Game 1 and Game 9 of the default sixteen), what sets this
/// one apart, as a player meets it: the computer's opening, and, where
/// that is the same too, the first of the player's first moves (in the
/// game's order) it answers otherwise than every such match.
fn contents<G: Game>(games: &[Match<G>]) -> Vec<(String, Target)> {
    games
        .iter()
        .map(|g| {
            let mut line = g.describe();
            let twins: Vec<&Match<G>> = (games.iter())
                .filter(|t| t.spec.number != g.spec.number)
                .filter(|t| (t.spec.human, t.spec.level) == (g.spec.human, g.spec.level))
                .collect();
            let same_start: Vec<&&Match<G>> = twins.iter().filter(|t| t.start == g.start).collect();
            let mut apart = Vec::new();
            if let (Some(opening), false) = (g.opening, twins.is_empty()) {
                apart.push(format!("it opens {}", G::move_name(opening)));
            }
            let answer = g.start.moves().find_map(|m| {
                let after = g.start.play(m).ok()?;
                let reply = *g.replies.get(&after)?;
                (same_start.iter())
                    .all(|t| t.replies.get(&after) != Some(&reply))
                    .then_some((m, reply))
            });
            if let (Some((m, reply)), false) = (answer, same_start.is_empty()) {
                apart.push(format!(
                    "{} {} with {}",
                    if apart.is_empty() {
                        "the computer answers"
                    } else {
                        "answers"
                    },
                    G::move_name(m),
                    G::move_name(reply)
                ));
            }
            if !apart.is_empty() {
                line.push_str("; ");
                line.push_str(&apart.join(" and "));
            }
            (line, g.at(g.start))
        })
        .collect()
}

/// Plays out every match of `settings`.
pub fn games<G: Game>(settings: &Settings, solver: &Solver<G>) -> Vec<Match<G>> {
    // Each match draws from a stream of its own, so they are played on
    // every core and come back in the plan's order.
    crate::par::map(&plan(settings), |spec| {
        Match::play_out(*spec, solver, settings.seed)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game as _;
    use crate::games::tictactoe::{Board, Cell, Player, Square, Status};

    type Game = Match<Board>;

    fn solver() -> Solver<Board> {
        Solver::new(StateGraph::new())
    }

    /// Walks every sequence of the player's moves through the game's
    /// replies and checks each step.
    fn check_game(game: &Game) -> (usize, usize) {
        let computer = game.spec.human.opponent();
        let (mut human_wins, mut computer_wins) = (0, 0);
        let mut reached = BTreeSet::new();
        let mut stack = vec![game.start];
        while let Some(b) = stack.pop() {
            if !reached.insert(b) {
                continue;
            }
            match b.status() {
                Status::InPlay(p) => {
                    assert_eq!(Side::from(p), game.spec.human, "{b}: not the player's turn")
                }
                Status::Won { winner, .. } if Side::from(winner) == game.spec.human => {
                    human_wins += 1
                }
                Status::Won { .. } => computer_wins += 1,
                Status::Draw => {}
            }
            for square in b.legal_moves().iter() {
                let after = b.play(square).unwrap();
                let next = game.target(b, square).unwrap();
                if !after.is_over() {
                    // Exactly one more mark, the computer's, on an empty square.
                    let reply = game.replies[&after];
                    assert_eq!(after.play(reply), Ok(next));
                    assert_eq!(Side::from(after.to_move()), computer);
                }
                stack.push(next);
            }
        }
        assert_eq!(
            reached, game.pages,
            "every page is reachable and nothing else is a page"
        );
        (human_wins, computer_wins)
    }

    #[test]
    fn every_game_is_consistent_and_perfect_never_loses() {
        let s = solver();
        for level in Level::ALL {
            let settings = Settings {
                level: Some(level),
                ..Settings::default()
            };
            for game in games(&settings, &s) {
                let (human_wins, _) = check_game(&game);
                if level == Level::Perfect {
                    assert_eq!(human_wins, 0, "{}", game.describe());
                }
            }
        }
    }

    /// Every page names the computer's move that led to it, the one the
    /// link followed, in its one line under the heading, and marks it on
    /// the board, its square's label saying so: a position two replies
    /// reach has a page for each. Only the player's own start and the
    /// boards the player's move ends name none.
    #[test]
    fn every_page_names_and_marks_the_computers_move_that_led_to_it() {
        let s = solver();
        for game in games(&Settings::default(), &s) {
            let computer = Cell::Taken(Player::from(game.spec.human.opponent()));
            let name = game.name();
            let mut shared = 0;
            for &b in &game.pages {
                let arrivals = game.arrivals(b);
                shared += usize::from(arrivals.len() > 1);
                for reply in arrivals {
                    let screen = game.screen(s.graph(), View::of(b), reply, &name);
                    let line = match reply {
                        Some(sq) => {
                            assert_eq!(b.cell(sq), computer, "{b}");
                            let view = screen.cells.get(sq.index());
                            let mark = if computer == Cell::Taken(Player::X) {
                                "x"
                            } else {
                                "o"
                            };
                            let image = crate::games::tictactoe::IMAGES[view.look.image];
                            if b.is_over() && matches!(b.status(), Status::Won { .. }) {
                                assert_eq!(image, format!("{mark}w"), "{b}");
                            } else {
                                assert_eq!(image, format!("{mark}l"), "{b}");
                            }
                            let (letter, last) = (mark.to_uppercase(), LAST_MOVE);
                            assert!(
                                view.look
                                    .label
                                    .starts_with(&format!("{}: {letter}", sq.name()))
                                    && view.look.label.ends_with(&format!(", {last}")),
                                "{}",
                                view.look.label
                            );
                            format!("The computer took the {} square. ", sq.name())
                        }
                        None => {
                            assert!(b == game.start || b.is_over(), "{b}");
                            if b == game.start {
                                "You start. ".to_string()
                            } else {
                                String::new()
                            }
                        }
                    };
                    // One line, the board's own remark before the game.
                    let remark = b.remark().map_or(String::new(), |r| format!("{r} "));
                    let line = format!("{line}{remark}{name}.");
                    assert_eq!(screen.lines, [line], "{b}");
                    // Every other square as the board draws it.
                    let marked = reply.map(|sq| sq.index());
                    for (i, view) in screen.cells.iter().enumerate() {
                        if Some(i) != marked {
                            assert_eq!(view.look.image, b.face(None, i).image, "{b} {i}");
                            assert!(!view.look.label.contains(LAST_MOVE), "{b} {i}");
                        }
                    }
                }
            }
            // Each link lands on a page that names the mark the computer
            // added after the player's.
            let screens = game.screens(s.graph(), &name);
            let by_target: std::collections::HashMap<Target, &Screen> =
                screens.iter().map(|s| (s.target, s)).collect();
            assert_eq!(by_target.len(), screens.len(), "one page per address");
            for screen in &screens {
                let Target::Page { key, .. } = screen.target else {
                    unreachable!()
                };
                let b = Board::from_id((key & ((1 << REPLY_SHIFT) - 1)) as u32).unwrap();
                for (cell, square) in screen.cells.iter().zip(Square::ALL) {
                    let Some(to) = cell.link() else { continue };
                    let after = b.play(square).unwrap();
                    let there = by_target[&to];
                    let Target::Page { key, .. } = to else {
                        unreachable!()
                    };
                    let next = Board::from_id((key & ((1 << REPLY_SHIFT) - 1)) as u32).unwrap();
                    let added: Vec<Square> = Square::ALL
                        .into_iter()
                        .filter(|&q| after.cell(q) != next.cell(q))
                        .collect();
                    let said = (there.lines[0].strip_prefix("The computer took "))
                        .and_then(|rest| rest.split(" square.").next());
                    match added[..] {
                        [r] => assert_eq!(
                            said,
                            Some(format!("the {}", r.name()).as_str()),
                            "{b} {square:?}"
                        ),
                        [] => assert!(next.is_over() && said.is_none(), "{b} {square:?}"),
                        _ => panic!("{b} {square:?}: {added:?}"),
                    }
                }
            }
            assert!(shared > 0 || game.pages.len() < 50, "{}", game.describe());
        }
    }

    #[test]
    fn the_book_plays_every_game_the_same() {
        let s = solver();
        for level in Level::ALL {
            let settings = Settings {
                level: Some(level),
                ..Settings::default()
            };
            let games = games(&settings, &s);
            let web = edition("vs", &s, &games);
            let book = web.for_books();
            let screens: std::collections::HashMap<Target, &Screen> =
                book.screens.iter().map(|s| (s.target, s)).collect();
            assert_eq!(screens.len(), book.screens.len());
            for (game, (_, start)) in games.iter().zip(&book.contents) {
                let mut stack = vec![(game.start, *start)];
                while let Some((board, at)) = stack.pop() {
                    let screen = screens[&at];
                    let drawn: Vec<usize> = screen.cells.iter().map(|c| c.look.image).collect();
                    // Each square as the board draws it, or marked as the
                    // computer's last move: one square at most.
                    let marked = (0..9).filter(|&i| drawn[i] != board.face(None, i).image);
                    assert!(marked.clone().count() <= 1, "{board}");
                    for i in marked {
                        assert_eq!(drawn[i], board.last_move_image(i), "{board}");
                    }
                    assert_eq!(screen.heading, game.heading(board));
                    for (view, square) in screen.cells.iter().zip(Square::ALL) {
                        let next = board
                            .legal_moves()
                            .contains(square)
                            .then(|| game.target(board, square));
                        match (next.flatten(), view.link()) {
                            (Some(next), Some(at)) => stack.push((next, at)),
                            (None, None) => {}
                            other => panic!("{}: {board} {square:?}: {other:?}", game.describe()),
                        }
                    }
                    let nav: Vec<_> = screen.book_nav().collect();
                    if board.is_over() {
                        assert_eq!(nav, [(Target::Contents, "Choose another game")]);
                    } else {
                        assert!(nav.is_empty());
                    }
                }
            }
        }
    }

    /// Without the game's name at the end of their line, screens alike in several
    /// games are one screen in the books, and every link lands on a kept
    /// one.
    #[test]
    fn screens_alike_in_several_games_merge_in_books() {
        let s = solver();
        let games = games(&Settings::default(), &s);
        let mut web = edition("vs", &s, &games);
        for screen in &mut web.screens {
            let end = screen.lines[0].rfind("Game ").unwrap();
            screen.lines[0].truncate(end);
        }
        let book = web.for_books();
        assert!(book.screens.len() < web.screens.len());
        let kept: BTreeSet<Target> = book.screens.iter().map(|s| s.target).collect();
        for screen in &book.screens {
            for to in screen.cells.iter().filter_map(|c| c.link()) {
                assert!(kept.contains(&to), "{to:?}");
            }
        }
    }

    #[test]
    fn easy_games_can_be_won() {
        let settings = Settings {
            level: Some(Level::Easy),
            ..Settings::default()
        };
        let s = solver();
        let winnable = games(&settings, &s)
            .iter()
            .filter(|g| check_game(g).0 > 0)
            .count();
        assert!(winnable > 0);
    }

    #[test]
    fn the_plan_mixes_starters_and_levels_evenly() {
        let plan = plan(&Settings::default());
        assert_eq!(plan.len(), 16);
        for level in Level::ALL {
            let of_level: Vec<_> = plan.iter().filter(|s| s.level == level).collect();
            assert_eq!(of_level.len(), 4);
            assert_eq!(of_level.iter().filter(|s| s.human_starts()).count(), 2);
        }
    }

    #[test]
    fn seeds_decide_the_games() {
        let s = solver();
        let a = games(&Settings::default(), &s);
        let b = games(&Settings::default(), &s);
        let c = games(
            &Settings {
                seed: 1,
                ..Settings::default()
            },
            &s,
        );
        let replies = |g: &[Game]| g.iter().map(|g| g.replies.clone()).collect::<Vec<_>>();
        assert_eq!(replies(&a), replies(&b));
        assert_ne!(replies(&a), replies(&c));
    }

    /// Games of the same start and level read apart in the contents, and
    /// what tells them apart is what the computer does in that game: at
    /// 16 and at 40 games, where every setting comes five times.
    #[test]
    fn every_game_reads_apart_in_the_contents() {
        let s = solver();
        for n in [16, 40] {
            let games = games(
                &Settings {
                    games: n,
                    ..Settings::default()
                },
                &s,
            );
            let lines = contents(&games);
            let rest: BTreeSet<&str> = (lines.iter())
                .map(|(l, _)| l.split_once(": ").unwrap().1)
                .collect();
            assert_eq!(rest.len(), n, "{lines:#?}");
            for (g, (line, _)) in games.iter().zip(&lines) {
                assert!(line.starts_with(&g.describe()), "{line}");
                let said = |m: Square| m.name();
                if let Some(apart) = line.split_once("; ").map(|(_, a)| a) {
                    if let Some(o) = g.opening {
                        assert!(
                            apart.starts_with(&format!("it opens {}", said(o))),
                            "{line}"
                        );
                    }
                    if let Some((_, answer)) = apart.split_once("answers ") {
                        let (mov, reply) = answer.split_once(" with ").unwrap();
                        let mov = *Square::ALL.iter().find(|q| q.name() == mov).unwrap();
                        let after = g.start.play(mov).unwrap();
                        assert_eq!(said(g.replies[&after]), reply, "{line}");
                    }
                }
            }
        }
    }

    #[test]
    fn computer_openings_vary() {
        let s = solver();
        let settings = Settings {
            games: 40,
            ..Settings::default()
        };
        let openings: BTreeSet<Board> = games(&settings, &s)
            .iter()
            .filter(|g| !g.spec.human_starts())
            .map(|g| g.start)
            .collect();
        assert!(openings.len() > 3, "{openings:?}");
    }

    /// A page's reply sits above every key of its game, where tic-tac-toe
    /// has always kept it, and a move of a piece keeps both its cells.
    #[test]
    fn a_reply_has_room_above_every_key() {
        use crate::games::hanoi::Hanoi;
        assert_eq!(reply_shift::<Board>(), REPLY_SHIFT);
        assert_eq!(reply_shift::<Hanoi>(), REPLY_SHIFT);
        assert_eq!(reply_code::<Board>(Square::new(4).unwrap()), 5);
        assert_eq!(reply_code::<Hanoi>((0, 2)), (1 << 8) | 3);
    }

    /// A move of two taps against the computer: Nim of two heaps, a heap
    /// picked up by its handle and then the token to keep up to.
    mod two_taps {
        use std::borrow::Cow;
        use std::collections::BTreeMap;

        use super::super::{Match, Spec};
        use crate::game::{Face, Game, Note, Outcome, Side, Texts};
        use crate::graph::StateGraph;
        use crate::opponent::Level;
        use crate::screen::{Screen, Target};
        use crate::solver::Solver;
        use crate::view::View;

        /// Two heaps of 2 and 3 tokens, a row each: its handle, then its
        /// tokens. Whoever takes the last token wins.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        struct Heaps {
            heaps: [u8; 2],
            second: bool,
        }

        /// Each cell's words: a handle, then the token kept up to.
        const CELLS: [&str; 8] = [
            "heap 1",
            "heap 1, none",
            "heap 1, one",
            "heap 1, two",
            "heap 2",
            "heap 2, none",
            "heap 2, one",
            "heap 2, two",
        ];

        impl Game for Heaps {
            type Move = (u8, u8);
            type Rules = ();
            type Error = &'static str;
            const PLAYERS: u8 = 2;
            const IMAGES: &'static [&'static str] = &["e", "t", "h"];
            const KEYS: u32 = 3 * 4 * 2 * 9;
            const TEXTS: Texts = Texts {
                title: "Heaps",
                stem: "heaps",
                rules: "Take tokens.",
                paper_rules: "Take tokens.",
                play_about: "Two players.",
                play_start: "Start",
                analysis_about: "Each move's worth.",
                analysis_start: "Start",
                play_name: "Two players",
                play_title: "Heaps for Two",
                analysis_name: "Analysis",
                again: "New game",
            };

            fn start(_: ()) -> Heaps {
                Heaps {
                    heaps: [2, 3],
                    second: false,
                }
            }
            fn moves(self) -> impl Iterator<Item = (u8, u8)> {
                (0..2u8).flat_map(move |h| (0..self.heaps[usize::from(h)]).map(move |k| (h, k)))
            }
            fn play(self, (h, k): (u8, u8)) -> Result<Heaps, &'static str> {
                match self.heaps.get(usize::from(h)) {
                    Some(&n) if k < n => {
                        let mut next = self;
                        next.heaps[usize::from(h)] = k;
                        next.second = !self.second;
                        Ok(next)
                    }
                    _ => Err("no such move"),
                }
            }
            fn mover(self) -> Side {
                if self.second {
                    Side::Second
                } else {
                    Side::First
                }
            }
            fn outcome(self) -> Option<Outcome> {
                (self.heaps == [0, 0]).then(|| Outcome::Won(self.mover().opponent()))
            }
            fn key(self) -> u32 {
                let [a, b] = self.heaps.map(u32::from);
                ((a * 4 + b) * 2 + u32::from(self.second)) * 9
            }
            fn grid(self) -> (usize, usize) {
                (2, 4)
            }
            fn face(self, _picked: Option<usize>, index: usize) -> Face {
                let (h, c) = (index / 4, index % 4);
                let image = match c {
                    0 => 2,
                    c if c - 1 < usize::from(self.heaps[h]) => 1,
                    _ => 0,
                };
                Face {
                    image,
                    label: Cow::Borrowed(CELLS[index]),
                    action: Some(Cow::Borrowed(CELLS[index])),
                }
            }
            fn noted_image(self, picked: Option<usize>, index: usize, _note: Note) -> usize {
                self.face(picked, index).image
            }
            fn cell((h, k): (u8, u8)) -> usize {
                usize::from(h) * 4 + 1 + usize::from(k)
            }
            fn piece((h, _): (u8, u8)) -> Option<usize> {
                Some(usize::from(h) * 4)
            }
            fn pieces(self) -> impl Iterator<Item = usize> {
                let open = self.outcome().is_none();
                (0..2)
                    .filter(move |&h| open && self.heaps[h] > 0)
                    .map(|h| h * 4)
            }
            fn move_name(mov: (u8, u8)) -> &'static str {
                CELLS[Self::cell(mov)]
            }
            fn cell_name(cell: usize) -> &'static str {
                CELLS[cell]
            }
            fn side_name(side: Side) -> &'static str {
                match side {
                    Side::First => "First",
                    Side::Second => "Second",
                }
            }
            fn heading(self, picked: Option<usize>) -> String {
                match picked {
                    Some(c) => format!("Take from {}", CELLS[c]),
                    None => "Pick a heap".to_string(),
                }
            }
            fn push_title(self, _picked: Option<usize>, out: &mut String) {
                out.push_str("Heaps");
            }
            fn remark(self) -> Option<Cow<'static, str>> {
                None
            }
            fn text(self, _picked: Option<usize>) -> String {
                format!("{:?}", self.heaps)
            }
        }

        /// Each board page of the player's turn links each heap's handle
        /// to that heap picked up, and nothing else; picked up, the handle
        /// links back to its board and each token to the page after that
        /// move and the computer's reply; every link lands on a screen of
        /// the match, and every screen is reached.
        #[test]
        fn a_piece_then_its_square_against_the_computer() {
            let solver = Solver::new(StateGraph::<Heaps>::new());
            for (number, human) in [(1, Side::First), (2, Side::Second)] {
                let spec = Spec {
                    number,
                    human,
                    level: Level::Perfect,
                };
                let game = Match::play_out(spec, &solver, 7);
                let screens = game.screens(solver.graph(), &game.name());
                let by: BTreeMap<Target, &Screen> = screens.iter().map(|s| (s.target, s)).collect();
                assert_eq!(by.len(), screens.len(), "a target a screen");
                let mut picked = 0;
                for &board in &game.pages {
                    for reply in game.arrivals(board) {
                        let at = game.reached(board, reply);
                        let page = by[&at];
                        for (cell, c) in page.cells.iter().enumerate() {
                            let handle = cell % 4 == 0 && board.heaps[cell / 4] > 0;
                            let open = board.outcome().is_none();
                            assert_eq!(c.link().is_some(), open && handle, "{board:?} {cell}");
                        }
                        for h in board.pieces() {
                            picked += 1;
                            let view = View {
                                position: board,
                                picked: Some(h),
                            };
                            let up = by[&game.page(view, reply)];
                            assert_eq!(page.cells.get(h).link(), Some(up.target));
                            assert_eq!(up.cells.get(h).link(), Some(at), "back to its board");
                            let heap = (h / 4) as u8;
                            for k in 0..board.heaps[usize::from(heap)] {
                                let mov = (heap, k);
                                let next = game.target(board, mov).expect("a page after it");
                                let link = up.cells.get(Heaps::cell(mov)).link();
                                let after = board.play(mov).unwrap();
                                let reply = game.replies.get(&after).copied();
                                assert_eq!(link, Some(game.reached(next, reply)));
                                assert!(by.contains_key(&link.unwrap()), "{board:?} {mov:?}");
                            }
                        }
                    }
                }
                assert!(picked > 0);
                let boards: usize = game.pages.iter().map(|&b| game.arrivals(b).len()).sum();
                assert_eq!(screens.len(), boards + picked);
            }
        }
    }
}
