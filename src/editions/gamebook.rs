//! The print gamebook, for any two-player [`Game`]: you against a perfect
//! computer, in two halves as in Tic Tac Tome. In the first you move
//! first; in the second the book does. Every position you can face is one
//! page, however many move orders reach it (where a move is two taps, with
//! a page of each of your pieces picked up, as against the computer: the
//! book is kept short by its positions, not its pages), and a square
//! names the page of the position after your move and the computer's
//! reply.
//!
//! Invariant: the book only ever plays a best move (the solver's top
//! score), so it never loses; among equally good replies it takes the one
//! [`shortest_replies`] picks to keep the book short, the same on every
//! run.

use rustc_hash::FxHashMap;

use super::vs_computer::{Match, Spec};
use crate::game::{Game, Side};
use crate::graph::StateGraph;
use crate::opponent::Level;
use crate::screen::{Edition, Link, Target};
use crate::solver::Solver;

/// The best replies to `after`, in cell order: every move with the
/// solver's top score.
fn best_replies<G: Game>(solver: &Solver<G>, after: G) -> Vec<G::Move> {
    let scores = solver.move_scores(after);
    let top = scores.iter().map(|m| m.1).max();
    scores
        .into_iter()
        .filter(|m| Some(m.1) == top)
        .map(|m| m.0)
        .collect()
}

/// The book's replies for a half that starts at `start`: for each
/// position the book faces, one of its best replies.
type Replies<G> = FxHashMap<G, <G as Game>::Move>;

/// The pages of a half as the book's replies change one at a time.
///
/// A position is its place in the game's graph, and stands twice: as a
/// page (`p`), which leads to each position one move on as a position
/// after the reader's move (`after`); and as such a position (`n + p`,
/// for the `n` positions), which leads to the page its reply reaches, or
/// is that page itself where the book does not answer (the game is over).
/// `refs` counts, for each, the reached ones that lead to it (the start's
/// page counts one more, so it is always reached). A two-player game
/// never returns to a position, so these links form no cycle and one is
/// reached exactly when its count is above zero: a change of reply adds
/// a link and drops one, and only what goes from or to zero is visited,
/// the positions below the change that nothing else reaches. A change
/// costs what it changes, not a count of the whole half, and a change of
/// a reply the reader never reaches costs nothing.
struct Reach<'g, G: Game> {
    graph: &'g StateGraph<G>,
    moves: &'g Moves,
    /// For each position the book faces, the page its reply reaches
    /// ([`NO_REPLY`] where it has none).
    reply: Vec<u32>,
    /// How many reached ones lead to each page, then to each position
    /// after the reader's move.
    refs: Vec<u32>,
    /// The pages reached.
    pages: usize,
    /// Ones whose count is to go up (`true`) or down.
    stack: Vec<(u32, bool)>,
    /// The ones visited, over all changes: the work done.
    #[cfg(test)]
    visits: usize,
}

/// Where `p` stands in `graph`, which holds every position of its game.
fn place<G: Game>(graph: &StateGraph<G>, p: G) -> usize {
    graph.position(p).expect("the graph holds every position")
}

/// A position the book does not answer: the game is over there, or it is
/// the reader's turn.
const NO_REPLY: u32 = u32::MAX;

/// The positions one move on of every position of a game, by place:
/// found once for all the halves a book tries (playing every move of
/// every position again for each half cost more than the search).
struct Moves {
    /// The positions one move on, in move order, of position `p`:
    /// `next[starts[p]..starts[p + 1]]`.
    next: Vec<u32>,
    starts: Vec<u32>,
}

impl Moves {
    fn new<G: Game>(graph: &StateGraph<G>) -> Moves {
        let (mut next, mut starts) = (Vec::new(), Vec::with_capacity(graph.len() + 1));
        for &p in graph.boards() {
            starts.push(next.len() as u32);
            next.extend(
                p.moves()
                    .map(|m| place(graph, p.play(m).expect("legal")) as u32),
            );
        }
        starts.push(next.len() as u32);
        Moves { next, starts }
    }

    /// The positions one move on from `p`.
    fn from(&self, p: usize) -> &[u32] {
        &self.next[self.starts[p] as usize..self.starts[p + 1] as usize]
    }
}

impl<'g, G: Game> Reach<'g, G> {
    /// The half from `start` with the book's `replies`, in `graph`, whose
    /// `moves` these are.
    fn new(graph: &'g StateGraph<G>, moves: &'g Moves, start: G, replies: &Replies<G>) -> Self {
        let n = graph.len();
        let mut reach = Reach {
            graph,
            moves,
            reply: vec![NO_REPLY; n],
            refs: vec![0; 2 * n],
            pages: 0,
            stack: Vec::new(),
            #[cfg(test)]
            visits: 0,
        };
        for (&after, &r) in replies {
            let to = place(graph, after.play(r).expect("legal"));
            reach.reply[place(graph, after)] = to as u32;
        }
        reach.link(place(graph, start) as u32, true);
        reach
    }

    /// Whether the reader can face the book with `after`, the replies as
    /// they stand.
    fn faced(&self, after: G) -> bool {
        self.refs[self.reply.len() + place(self.graph, after)] > 0
    }

    /// The book answers `after` with `reply` from now on.
    fn answer(&mut self, after: G, reply: G::Move) {
        let to = place(self.graph, after.play(reply).expect("legal")) as u32;
        let at = place(self.graph, after);
        let was = std::mem::replace(&mut self.reply[at], to);
        if self.refs[self.reply.len() + at] > 0 && was != to {
            // The new link first, so that what both replies reach is
            // never dropped and reached again.
            self.link(to, true);
            self.link(if was == NO_REPLY { at as u32 } else { was }, false);
        }
    }

    /// One more (`up`) or one fewer reached one leads to page `p`, and so
    /// on below it for every one that becomes reached or not.
    fn link(&mut self, p: u32, up: bool) {
        let n = self.reply.len() as u32;
        let Reach {
            moves,
            reply,
            refs,
            pages,
            stack,
            ..
        } = self;
        #[cfg(test)]
        let mut visited = 0;
        stack.push((p, up));
        while let Some((q, up)) = stack.pop() {
            #[cfg(test)]
            {
                visited += 1;
            }
            let count = &mut refs[q as usize];
            if up {
                *count += 1;
                if *count != 1 {
                    continue;
                }
            } else {
                *count -= 1;
                if *count != 0 {
                    continue;
                }
            }
            // `q` became reached, or stopped being reached.
            match q.checked_sub(n) {
                // A page: each position after the reader's move from it.
                None => {
                    if up {
                        *pages += 1;
                    } else {
                        *pages -= 1;
                    }
                    stack.extend(moves.from(q as usize).iter().map(|&a| (n + a, up)));
                }
                // A position after the reader's move: the page its reply
                // reaches, or its own.
                Some(after) => match reply[after as usize] {
                    NO_REPLY => stack.push((after, up)),
                    to => stack.push((to, up)),
                },
            }
        }
        #[cfg(test)]
        {
            self.visits += visited;
        }
    }
}

/// The replies that keep a half from `start` short.
///
/// First, children first, each position the book faces takes the best
/// reply whose subtree, counted as a tree (a position reached twice
/// counted twice), is smallest, the first in cell order on a tie. Then,
/// since positions reached by several move orders are one page, each
/// reply still in play is changed to each other best reply in turn, in
/// key order, and the change is kept when the whole half, counted as
/// pages, gets smaller; until a pass changes nothing. Every step is in a
/// fixed order, so the result is the same on every machine.
///
/// The half's pages are kept counted as replies change (`Reach`), so a
/// change tried visits only what it adds or drops: the positions whose
/// every way from the start, the replies as they stand, passes through
/// the position changed. With the replies as they stand a position has at
/// most its depth of such positions above it, so trying each reply once
/// costs about the positions times the game's length (and its replies),
/// where counting the whole half for each change cost the positions
/// squared. Over tic-tac-toe's ten halves (both rules)
/// it follows 159,348 links where counting afresh followed 755,152, and
/// after the first replies takes 31 million instructions against 115
/// (callgrind; `timing` below).
pub fn shortest_replies<G: Game>(solver: &Solver<G>, start: G) -> Replies<G> {
    search(solver, &Moves::new(solver.graph()), start).0
}

/// The positions where the book has a choice among `replies`' positions,
/// in key order, each with its best replies.
fn choices<G: Game>(solver: &Solver<G>, replies: &Replies<G>) -> Vec<(G, Vec<G::Move>)> {
    let mut choices: Vec<(G, Vec<G::Move>)> = replies
        .keys()
        .map(|&after| (after, best_replies(solver, after)))
        .filter(|(_, best)| best.len() > 1)
        .collect();
    choices.sort_by_key(|(p, _)| p.key());
    choices
}

/// [`shortest_replies`] in `solver`'s game, whose `moves` these are, with
/// the count as it ends.
fn search<'g, G: Game>(
    solver: &'g Solver<G>,
    moves: &'g Moves,
    start: G,
) -> (Replies<G>, Reach<'g, G>) {
    let mut replies = Replies::default();
    let mut size = FxHashMap::default();
    tree_size(solver, start, &mut size, &mut replies);
    let choices = choices(solver, &replies);
    let mut reach = Reach::new(solver.graph(), moves, start, &replies);
    loop {
        let mut changed = false;
        for (after, best) in &choices {
            // A reply the reader never reaches cannot change the count;
            // and changing its own reply never changes whether it is
            // reached (the game never returns to it).
            if !reach.faced(*after) {
                continue;
            }
            for &r in best {
                let kept = replies[after];
                if r == kept {
                    continue;
                }
                let pages = reach.pages;
                reach.answer(*after, r);
                if reach.pages < pages {
                    replies.insert(*after, r);
                    changed = true;
                } else {
                    reach.answer(*after, kept);
                }
            }
        }
        if !changed {
            return (replies, reach);
        }
    }
}

/// The pages below `page` (one the reader faces, or a finished one),
/// counted as a tree, choosing each reply on the way.
fn tree_size<G: Game>(
    solver: &Solver<G>,
    page: G,
    size: &mut FxHashMap<G, usize>,
    replies: &mut Replies<G>,
) -> usize {
    if let Some(&n) = size.get(&page) {
        return n;
    }
    let mut n = 1;
    for m in page.moves() {
        let after = page.play(m).expect("legal");
        if after.is_over() {
            n += 1;
            continue;
        }
        let (reply, below) = best_replies(solver, after)
            .into_iter()
            .map(|r| {
                let next = after.play(r).expect("legal");
                (r, tree_size(solver, next, size, replies))
            })
            .min_by_key(|&(_, below)| below)
            .expect("a position in play has a move");
        replies.insert(after, reply);
        n += below;
    }
    size.insert(page, n);
    n
}

/// The two halves: you move first, then the book does, opening with the
/// best first move that makes its half shortest.
pub fn halves<G: Game>(solver: &Solver<G>) -> [Match<G>; 2] {
    let root = solver.graph().root();
    let moves = Moves::new(solver.graph());
    let half = |number: usize, human: Side, opening: Option<G::Move>| {
        let start = opening.map_or(root, |m| root.play(m).expect("legal"));
        let (replies, _) = search(solver, &moves, start);
        let spec = Spec {
            number,
            human,
            level: Level::Perfect,
        };
        Match::with_replies(spec, root, opening, |after| replies[&after])
    };
    let first = half(1, Side::First, None);
    let second = crate::par::map(&best_replies(solver, root), |&m| {
        half(2, Side::Second, Some(m))
    })
    .into_iter()
    .min_by_key(|m| m.pages.len())
    .expect("the start has a move");
    [first, second]
}

/// The gamebook at `slug`: both halves' screens, the first half first.
pub fn edition<G: Game>(slug: &'static str, solver: &Solver<G>) -> Edition {
    let halves = halves(solver);
    let side = |h: &Match<G>| G::side_name(h.spec.human);
    let mut screens = Vec::new();
    for (half, name) in halves.iter().zip(["First half", "Second half"]) {
        for mut s in half.screens(solver.graph(), name) {
            // Paper has no "play again" for one half; the opening page
            // has both. Each page's line names its half, where a game's
            // pages name the game and its level.
            s.nav = vec![(Link::Here(Target::Contents), "Back to the start")];
            screens.push(s);
        }
    }
    Edition {
        name: "Gamebook: you against a perfect computer".to_string(),
        title: format!("{} Gamebook", G::TEXTS.title),
        // The opening page gives the game's rules on paper (how a square
        // leads to its page) first: this says only what is the book's own.
        // Its name says whom you play; this, how the book goes.
        about: "Each page is a board you face, your move made and, under the heading, the \
square the computer answered in; it never loses. In the first half you move first; in the \
second the computer does.",
        contents: vec![
            (
                format!("You move first ({})", side(&halves[0])),
                halves[0].at(halves[0].start),
            ),
            (
                format!("The computer moves first, you are {}", side(&halves[1])),
                halves[1].at(halves[1].start),
            ),
        ],
        screens,
        print_only: true,
        ..Edition::of(slug, solver.graph().root())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::games::tictactoe::Board;
    use crate::graph::StateGraph;

    #[test]
    fn the_book_never_loses_and_is_short() {
        let solver = Solver::new(StateGraph::<Board>::new());
        let halves = halves(&solver);
        let pages: Vec<usize> = halves.iter().map(|h| h.pages.len()).collect();
        for h in &halves {
            for p in &h.pages {
                assert_ne!(p.outcome(), Some(Outcome::Won(h.spec.human)), "{p:?}");
            }
        }
        let lowest = |start: Board| {
            let mut replies = Replies::default();
            for &after in solver.graph().boards() {
                if !after.is_over() {
                    replies.insert(after, best_replies(&solver, after)[0]);
                }
            }
            Reach::new(solver.graph(), &Moves::new(solver.graph()), start, &replies).pages
        };
        let naive = [lowest(halves[0].start), lowest(halves[1].start)];
        // The figures the closing note gives: 223 and 62 pages, against
        // 350 and 72 for the first best reply in cell order.
        assert_eq!(pages, [223, 62], "against {naive:?}");
        assert_eq!(naive, [350, 72]);
        // A position the computer reaches by two moves has a page for each,
        // so every page says the move that led to it.
        let screens: Vec<usize> = halves
            .iter()
            .map(|h| h.screens(solver.graph(), "").len())
            .collect();
        assert_eq!(screens, [274, 77]);
    }

    /// Counts the pages of a half afresh, as the search was first written:
    /// every change tried counts the whole half again.
    pub(super) struct Counter<'g, G: Game> {
        graph: &'g StateGraph<G>,
        next: Vec<u32>,
        starts: Vec<u32>,
        reply: Vec<u32>,
        seen: Vec<u32>,
        count: u32,
        stack: Vec<u32>,
        faced: Vec<u32>,
        /// The links followed, over all counts (a move and a reply, or a
        /// move to a finished page, two: as [`Reach`] counts them): the
        /// work done.
        visits: usize,
    }

    impl<'g, G: Game> Counter<'g, G> {
        fn new(graph: &'g StateGraph<G>) -> Self {
            let (mut next, mut starts) = (Vec::new(), Vec::with_capacity(graph.len() + 1));
            for &p in graph.boards() {
                starts.push(next.len() as u32);
                next.extend(p.moves().map(|m| place(graph, p.play(m).unwrap()) as u32));
            }
            starts.push(next.len() as u32);
            Counter {
                graph,
                next,
                starts,
                reply: vec![NO_REPLY; graph.len()],
                seen: vec![0; graph.len()],
                count: 0,
                stack: Vec::new(),
                faced: Vec::new(),
                visits: 0,
            }
        }

        fn answer(&mut self, after: G, reply: G::Move) {
            let to = after.play(reply).unwrap();
            let (at, to) = (place(self.graph, after), place(self.graph, to));
            self.reply[at] = to as u32;
        }

        fn pages(&mut self, start: G) -> usize {
            self.count += 1;
            let count = self.count;
            let start = place(self.graph, start);
            self.faced.clear();
            self.seen[start] = count;
            self.stack.push(start as u32);
            let mut pages = 1;
            while let Some(p) = self.stack.pop() {
                let p = p as usize;
                for &after in &self.next[self.starts[p] as usize..self.starts[p + 1] as usize] {
                    self.visits += 2;
                    let to = match self.reply[after as usize] {
                        NO_REPLY => after,
                        to => {
                            self.faced.push(after);
                            to
                        }
                    };
                    if self.seen[to as usize] != count {
                        self.seen[to as usize] = count;
                        pages += 1;
                        self.stack.push(to);
                    }
                }
            }
            pages
        }

        fn faced(&self) -> Vec<bool> {
            let mut set = vec![false; self.reply.len()];
            for &p in &self.faced {
                set[p as usize] = true;
            }
            set
        }
    }

    /// [`shortest_replies`] as it was first written, counting the whole
    /// half afresh for every change tried: the reference it must agree
    /// with, change for change. Returns the replies and the links the
    /// counts followed.
    pub(super) fn by_recount<G: Game>(solver: &Solver<G>, start: G) -> (Replies<G>, usize) {
        let mut replies = Replies::default();
        tree_size(solver, start, &mut FxHashMap::default(), &mut replies);
        let choices = super::choices(solver, &replies);
        let mut counter = Counter::new(solver.graph());
        for (&after, &r) in &replies {
            counter.answer(after, r);
        }
        let mut pages = counter.pages(start);
        let mut faced = counter.faced();
        loop {
            let mut changed = false;
            for (after, best) in &choices {
                if !faced[place(solver.graph(), *after)] {
                    continue;
                }
                for &r in best {
                    let kept = replies[after];
                    if r == kept {
                        continue;
                    }
                    replies.insert(*after, r);
                    counter.answer(*after, r);
                    let n = counter.pages(start);
                    if n < pages {
                        pages = n;
                        changed = true;
                        faced = counter.faced();
                    } else {
                        replies.insert(*after, kept);
                        counter.answer(*after, kept);
                    }
                }
            }
            if !changed {
                return (replies, counter.visits);
            }
        }
    }

    /// Keeping the count as replies change picks exactly the replies that
    /// counting afresh picks, for both rules and every half the book can
    /// open, so the book is the same; and it visits a small part of the
    /// positions counting afresh does.
    #[test]
    fn counting_as_replies_change_picks_what_counting_afresh_picks() {
        use crate::games::tictactoe::Rules;
        for early_draws in [false, true] {
            let graph = StateGraph::<Board>::with_rules(Rules { early_draws });
            let solver = Solver::new(graph);
            let root = solver.graph().root();
            let starts = std::iter::once(root).chain(
                best_replies(&solver, root)
                    .into_iter()
                    .map(|m| root.play(m).unwrap()),
            );
            let (mut visits, mut afresh) = (0, 0);
            for start in starts {
                let moves = Moves::new(solver.graph());
                let (replies, reach) = search(&solver, &moves, start);
                let (reference, work) = by_recount(&solver, start);
                // Only the replies the reader reaches are printed, but
                // the two agree on every one.
                let mut ours: Vec<_> = replies.iter().map(|(p, r)| (p.key(), *r)).collect();
                let mut theirs: Vec<_> = reference.iter().map(|(p, r)| (p.key(), *r)).collect();
                ours.sort();
                theirs.sort();
                assert_eq!(ours, theirs, "{start:?}, early draws {early_draws}");
                visits += reach.visits;
                afresh += work;
            }
            eprintln!("early draws {early_draws}: {visits} visits against {afresh}");
            assert!(visits < afresh, "{visits} against {afresh}");
        }
    }

    /// The opening page gives the rules once: one sentence says that a
    /// square prints the page to turn to, and one that it is a link on a
    /// screen.
    #[test]
    fn the_opening_page_says_each_thing_once() {
        let solver = Solver::new(StateGraph::<Board>::new());
        let opening = crate::ebook::intro_on_paper(&edition("gamebook", &solver)).join(" ");
        let said = |words: &str| opening.matches(words).count();
        assert_eq!(said("link"), 1, "{opening}");
        assert_eq!(said("Choose"), 1, "{opening}");
        assert_eq!(
            said("prints the number") + said("page printed"),
            1,
            "{opening}"
        );
    }
}

#[cfg(test)]
mod timing {
    //! Not tests: the work of the search, each alone, for callgrind or a
    //! clock (`cargo test --lib gamebook::timing -- --ignored`).
    use super::*;
    use crate::games::tictactoe::{Board, Rules};

    /// Every half the book can open, in both rules, and what `search`
    /// does with each (given the table of moves, made once a game),
    /// `times` over.
    fn each(search: impl Fn(&Solver<Board>, &Moves, Board), times: u32) {
        for early_draws in [false, true] {
            let solver = Solver::new(StateGraph::<Board>::with_rules(Rules { early_draws }));
            let moves = Moves::new(solver.graph());
            let root = solver.graph().root();
            let starts: Vec<Board> = std::iter::once(root)
                .chain(
                    best_replies(&solver, root)
                        .into_iter()
                        .map(|m| root.play(m).unwrap()),
                )
                .collect();
            let t = std::time::Instant::now();
            for _ in 0..times {
                for &s in &starts {
                    search(&solver, &moves, s);
                }
            }
            eprintln!(
                "early draws {early_draws}: {:?} for {} halves",
                t.elapsed() / times,
                starts.len()
            );
        }
    }

    fn times() -> u32 {
        std::env::var("TIMES").map_or(1, |t| t.parse().unwrap())
    }

    /// The search as `halves` runs it, the table of moves shared.
    #[test]
    #[ignore]
    fn time_counting_as_replies_change() {
        each(
            |solver, moves, s| drop(std::hint::black_box(search(solver, moves, s))),
            times(),
        );
    }

    /// The search as it was, a table of moves made for each half.
    #[test]
    #[ignore]
    fn time_counting_afresh() {
        each(
            |solver, _, s| drop(std::hint::black_box(tests::by_recount(solver, s))),
            times(),
        );
    }

    /// What both do first: the replies by tree size.
    #[test]
    #[ignore]
    fn time_setup() {
        each(
            |solver, _, s| {
                let mut replies = Replies::default();
                tree_size(solver, s, &mut FxHashMap::default(), &mut replies);
                drop(std::hint::black_box(replies));
            },
            times(),
        );
    }
}
