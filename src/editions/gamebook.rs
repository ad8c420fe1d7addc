//! The print gamebook, for any two-player [`Game`]: you against a perfect
//! computer, in two halves as in Tic Tac Tome. In the first you move
//! first; in the second the book does. Every position you can face is one
//! page, however many move orders reach it, and a square names the page
//! of the position after your move and the computer's reply.
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

/// Counts the pages of a half, thousands of times in the search below.
/// A position is its place in the game's graph, and each position's
/// positions one move on are found once, so a count hashes nothing; it
/// notes the positions the book faces on the way, since a reply the
/// reader never reaches cannot change the count.
struct Counter<'g, G: Game> {
    graph: &'g StateGraph<G>,
    /// The positions one move on, in move order, of position `p`:
    /// `next[starts[p]..starts[p + 1]]`.
    next: Vec<u32>,
    starts: Vec<u32>,
    /// For each position the book faces, where its reply leads
    /// ([`NO_REPLY`] where it has none).
    reply: Vec<u32>,
    /// The count each position was last reached in.
    seen: Vec<u32>,
    count: u32,
    stack: Vec<u32>,
    /// The positions the book faced in the last count.
    faced: Vec<u32>,
}

/// Where `p` stands in `graph`, which holds every position of its game.
fn place<G: Game>(graph: &StateGraph<G>, p: G) -> usize {
    graph.position(p).expect("the graph holds every position")
}

/// A position the book does not answer: the game is over there, or it is
/// the reader's turn.
const NO_REPLY: u32 = u32::MAX;

impl<'g, G: Game> Counter<'g, G> {
    fn new(graph: &'g StateGraph<G>) -> Self {
        let (mut next, mut starts) = (Vec::new(), Vec::with_capacity(graph.len() + 1));
        for &p in graph.boards() {
            starts.push(next.len() as u32);
            next.extend(
                p.moves()
                    .map(|m| place(graph, p.play(m).expect("legal")) as u32),
            );
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
        }
    }

    /// The book answers `after` (a position in play) with `reply`.
    fn answer(&mut self, after: G, reply: G::Move) {
        let to = after.play(reply).expect("legal");
        let (at, to) = (place(self.graph, after), place(self.graph, to));
        self.reply[at] = to as u32;
    }

    /// The pages of a half from `start` with the book's answers as they
    /// stand.
    fn pages(&mut self, start: G) -> usize {
        self.count += 1;
        let count = self.count;
        let start = place(self.graph, start);
        let Counter {
            next,
            starts,
            reply,
            seen,
            stack,
            faced,
            ..
        } = self;
        faced.clear();
        seen[start] = count;
        stack.push(start as u32);
        let mut pages = 1;
        while let Some(p) = stack.pop() {
            let p = p as usize;
            for &after in &next[starts[p] as usize..starts[p + 1] as usize] {
                let to = match reply[after as usize] {
                    NO_REPLY => after,
                    to => {
                        faced.push(after);
                        to
                    }
                };
                if seen[to as usize] != count {
                    seen[to as usize] = count;
                    pages += 1;
                    stack.push(to);
                }
            }
        }
        pages
    }

    /// The positions the book faced in the last count, as a set by place.
    fn faced(&self) -> Vec<bool> {
        let mut set = vec![false; self.reply.len()];
        for &p in &self.faced {
            set[p as usize] = true;
        }
        set
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
pub fn shortest_replies<G: Game>(solver: &Solver<G>, start: G) -> Replies<G> {
    let mut replies = Replies::default();
    let mut size = FxHashMap::default();
    tree_size(solver, start, &mut size, &mut replies);
    // The positions where the book has a choice, in key order, each with
    // its best replies.
    let mut choices: Vec<(G, Vec<G::Move>)> = replies
        .keys()
        .map(|&after| (after, best_replies(solver, after)))
        .filter(|(_, best)| best.len() > 1)
        .collect();
    choices.sort_by_key(|(p, _)| p.key());
    let mut counter = Counter::new(solver.graph());
    for (&after, &r) in &replies {
        counter.answer(after, r);
    }
    let mut pages = counter.pages(start);
    // The positions the book faces with the replies as they stand.
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
            return replies;
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
    let half = |number: usize, human: Side, opening: Option<G::Move>| {
        let start = opening.map_or(root, |m| root.play(m).expect("legal"));
        let replies = shortest_replies(solver, start);
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
        slug,
        name: "Gamebook: you against a perfect computer".to_string(),
        title: format!("{} Gamebook", G::TEXTS.title),
        texts: G::TEXTS,
        images: G::IMAGES,
        cover: G::COVER,
        // The opening page gives the game's rules on paper (how a square
        // leads to its page) first: this says only what is the book's own.
        about: "You play against a computer that plays perfectly: it never loses. Each page \
is a board you face, your move made and, under the heading, the square the computer answered \
in. In the first half you move first; in the second the computer does.",
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
        files: Vec::new(),
        aspect: solver.graph().root().aspect(),
        column_moves: G::COLUMN_MOVES,
        under: G::UNDER_BOARD,
        print_only: true,
        used: Default::default(),
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
            let mut counter = Counter::new(solver.graph());
            for (&after, &r) in &replies {
                counter.answer(after, r);
            }
            counter.pages(start)
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
