//! The print gamebook, for any two-player [`Game`]: you against a perfect
//! computer, in two halves as in Tic Tac Tome. In the first you move
//! first; in the second the book does. Every position you can face is one
//! page, however many move orders reach it, and a square names the page
//! of the position after your move and the book's reply.
//!
//! Invariant: the book only ever plays a best move (the solver's top
//! score), so it never loses; among equally good replies it takes the one
//! [`shortest_replies`] picks to keep the book short, the same on every
//! run.

use rustc_hash::{FxHashMap, FxHashSet};

use super::vs_computer::{Match, Spec};
use crate::game::{Game, Side};
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

/// Counts the pages of a half, thousands of times in the search below,
/// reusing its buffers; and notes the positions the book faces on the
/// way, since a reply the reader never reaches cannot change the count.
struct Counter<G> {
    seen: FxHashSet<G>,
    stack: Vec<G>,
    /// The positions the book faced in the last count.
    faced: FxHashSet<G>,
}

impl<G: Game> Counter<G> {
    fn new() -> Self {
        Counter {
            seen: FxHashSet::default(),
            stack: Vec::new(),
            faced: FxHashSet::default(),
        }
    }

    /// The pages of a half from `start` when the book answers with
    /// `replies`.
    fn pages(&mut self, start: G, replies: &Replies<G>) -> usize {
        let Counter { seen, stack, faced } = self;
        seen.clear();
        faced.clear();
        seen.insert(start);
        stack.push(start);
        while let Some(p) = stack.pop() {
            for m in p.moves() {
                let after = p.play(m).expect("legal");
                let next = match replies.get(&after) {
                    Some(&r) if !after.is_over() => {
                        faced.insert(after);
                        after.play(r).expect("legal")
                    }
                    _ => after,
                };
                if seen.insert(next) {
                    stack.push(next);
                }
            }
        }
        seen.len()
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
    let mut counter = Counter::new();
    let mut pages = counter.pages(start, &replies);
    // The positions the book faces with the replies as they stand.
    let mut faced = counter.faced.clone();
    loop {
        let mut changed = false;
        for (after, best) in &choices {
            if !faced.contains(after) {
                continue;
            }
            for &r in best {
                let kept = replies[after];
                if r == kept {
                    continue;
                }
                replies.insert(*after, r);
                let n = counter.pages(start, &replies);
                if n < pages {
                    pages = n;
                    changed = true;
                    faced.clone_from(&counter.faced);
                } else {
                    replies.insert(*after, kept);
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
    let mut screens = Vec::new();
    for half in &halves {
        for mut s in half.screens(solver.graph()) {
            // Paper has no "play again" for one half; the opening page
            // has both.
            s.nav = vec![(Link::Here(Target::Contents), "Back to the start")];
            screens.push(s);
        }
    }
    let side = |h: &Match<G>| G::side_name(h.spec.human);
    Edition {
        slug,
        name: "Gamebook: you against a perfect computer".to_string(),
        title: format!("{} Gamebook", G::TEXTS.title),
        texts: G::TEXTS,
        images: G::IMAGES,
        about: "Play on paper: each page is a board you face. Choose an empty square and turn \
to the page printed in it; there you find your move and the book's reply. On a screen, the \
square is also a link. The book plays perfectly: it never loses. In the first half you move \
first; in the second the book does.",
        contents: vec![
            (
                format!("You move first ({})", side(&halves[0])),
                halves[0].at(halves[0].start),
            ),
            (
                format!("The book moves first, you are {}", side(&halves[1])),
                halves[1].at(halves[1].start),
            ),
        ],
        screens,
        files: Vec::new(),
        print_only: true,
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
            Counter::new().pages(start, &replies)
        };
        let naive = [lowest(halves[0].start), lowest(halves[1].start)];
        // The figures the closing note gives: 223 and 62 pages, against
        // 350 and 72 for the first best reply in cell order.
        assert_eq!(pages, [223, 62], "against {naive:?}");
        assert_eq!(naive, [350, 72]);
    }
}
