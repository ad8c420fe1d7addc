//! Mate in N against a perfect defender: the reader plays White from a
//! start, with that start's distance to mate plus a few spare moves to
//! mate in; Black answers every move from the tablebase, with a reply that
//! puts mate off longest (a draw, if it has one), equal replies broken by
//! the seed. So every state is a White-to-move position and the moves left
//! (or an end), no state repeats (the moves left fall by one each move),
//! and the state graph is finite. Where Black's king came from is not part
//! of a state: two ways into one position with the same moves left are
//! one page. A move too slow to mate in the moves
//! left, and one that leaves the queen or rook to be taken, each lead to
//! one state of their own, whatever the position: a page that says so.
//!
//! Invariant: a state's position is legal; while the challenge goes on,
//! White is to move and its distance to mate is at most the moves left;
//! Black's reply is a function of the position it faces, the moves left
//! and the seed, the same on every run.

use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::{Color, Dtm, Ending, Move, Position, Square, Status, Tablebase};

/// Black's replies worked out for one seed: a byte each ([`pack_reply`]),
/// 0 while not known, in a table for each ending and count of moves left,
/// indexed by the position's key (Black to move, the queen or rook on the
/// board: 18 bits). A build asks for a reply a million times, from every
/// thread: a byte is read or written with one atomic access, where a hash
/// map missed the cache (a build spent 1.5% of its time finding
/// replies). A table is made a page at a time, a page for each square of
/// White's king (4 KB), the first time one of its positions is asked for:
/// a default build makes 834 pages in 23 tables (3.3 MB).
struct Replies {
    seed: u64,
    pages: Box<[OnceLock<Box<[AtomicU8]>>]>,
}

/// The positions a page of [`Replies`] holds: one square of White's king,
/// every square of the queen or rook and of Black's king.
const PAGE: usize = 1 << 12;

/// The pages of [`Replies`]: a table of 64 for each ending and count of
/// moves left.
const PAGES: usize = 2 * (MAX_LEFT as usize + 1) * 64;

impl Replies {
    /// The replies of `seed`, made the first time it is asked for, then
    /// kept for the process (a build has one seed; the tests a few).
    fn of(seed: u64) -> &'static Replies {
        thread_local! {
            static LAST: Cell<Option<&'static Replies>> = const { Cell::new(None) };
        }
        static ALL: Mutex<Vec<&'static Replies>> = Mutex::new(Vec::new());
        if let Some(last) = LAST.get().filter(|r| r.seed == seed) {
            return last;
        }
        let mut all = ALL.lock().unwrap_or_else(PoisonError::into_inner);
        let replies = match all.iter().find(|r| r.seed == seed) {
            Some(r) => *r,
            None => {
                let made: &'static Replies = Box::leak(Box::new(Replies {
                    seed,
                    pages: (0..PAGES).map(|_| OnceLock::new()).collect(),
                }));
                all.push(made);
                made
            }
        };
        LAST.set(Some(replies));
        replies
    }

    /// The slot of the reply to `after` with `left` moves left.
    fn slot(&self, after: Position, left: u8) -> &AtomicU8 {
        debug_assert!(after.turn() == Color::Black && after.piece().is_some());
        // The key's low 18 bits: White's king, then the piece and Black's
        // king, 6 bits each.
        let key = after.key() as usize;
        let table = after.ending() as usize * (usize::from(MAX_LEFT) + 1) + usize::from(left);
        let page = self.pages[table * 64 + (key / PAGE) % 64]
            .get_or_init(|| (0..PAGE).map(|_| AtomicU8::new(0)).collect());
        &page[key % PAGE]
    }
}

/// A reply in a byte: one more than the square Black's king goes to (it
/// comes from the king's square), or all ones for none; never 0.
fn pack_reply(reply: Option<Move>) -> u8 {
    reply.map_or(u8::MAX, |m| m.to.index() as u8 + 1)
}

/// A reply [`pack_reply`] packed, as it was, in `after`.
fn unpack_reply(after: Position, packed: u8) -> Option<Move> {
    (packed != u8::MAX).then(|| Move {
        from: after.black_king(),
        to: Square::new(packed - 1).expect("below 64"),
    })
}

/// The most moves left a challenge allows: KRK's longest mate, 16, and
/// 15 spare.
pub const MAX_LEFT: u8 = 31;

/// `ending`'s tablebase, solved the first time it is asked for (about
/// 0.02 s), then shared.
pub fn tablebase(ending: Ending) -> &'static Tablebase {
    static TABLES: [OnceLock<Tablebase>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[ending as usize].get_or_init(|| Tablebase::solve(ending))
}

/// How a challenge ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum End {
    /// White mated Black in time.
    Mated,
    /// Black, not in check, has no move: a draw.
    Stalemate,
    /// Black took the queen or rook: a draw.
    Taken,
    /// Mate is no longer possible within the moves left.
    TooSlow,
}

/// A challenge: where it starts, how many spare moves it gives, and the
/// seed breaking ties between Black's equal replies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The start, White to move, not a draw.
    pub start: Position,
    /// Moves beyond the start's distance to mate.
    pub spare: u8,
    /// Breaks ties between Black's equal replies.
    pub seed: u64,
}

impl Rules {
    /// The start a challenge of `ending` has by default: KQK from Ke1 Qd1
    /// ke8 (mate in 8), KRK from Ke1 Ra1 ke8 (mate in 12).
    pub const fn start_fen(ending: Ending) -> &'static str {
        match ending {
            Ending::Kqk => "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
            Ending::Krk => "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        }
    }

    /// The spare moves a challenge of `ending` gives by default: as many
    /// as keep each of its books within its budget.
    pub const fn default_spare(ending: Ending) -> u8 {
        match ending {
            Ending::Kqk => 1,
            Ending::Krk => 2,
        }
    }

    /// The default challenge of `ending`, its ties broken by `seed`.
    pub fn default_for(ending: Ending, seed: u64) -> Rules {
        Rules {
            start: Position::from_fen(Rules::start_fen(ending)).expect("a legal start"),
            spare: Rules::default_spare(ending),
            seed,
        }
    }
}

/// A state of a challenge: the position and White's moves left, or one of
/// the two ends every position shares (`lost`: too slow, or the piece
/// taken). `total` is the moves to mate in at the start, the same for
/// every state of a challenge; `end` is how it ended, worked out once
/// from the rest (every page asks it of every square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Challenge {
    position: Position,
    left: u8,
    total: u8,
    lost: Option<Lost>,
    start: Position,
    seed: u64,
    end: Option<End>,
}

/// The ends a challenge collapses into one state each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Lost {
    TooSlow,
    Taken,
}

/// Why a challenge cannot start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartError {
    /// Black is to move: White starts.
    BlackToMove,
    /// The start is of the other ending than this one.
    Ending(Ending),
    /// The start is a draw.
    Drawn,
    /// The start's mate and the spare moves come to more than
    /// [`MAX_LEFT`].
    TooLong(u8),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::BlackToMove => f.write_str("the start has Black to move; White starts"),
            StartError::Ending(e) => write!(f, "the start is not a {} position", e.name()),
            StartError::Drawn => f.write_str("the start is a draw: White cannot force mate"),
            StartError::TooLong(n) => {
                write!(f, "{n} moves to mate in is more than {MAX_LEFT}")
            }
        }
    }
}

impl std::error::Error for StartError {}

/// The distance to mate of a position, `None` for a draw.
fn dtm(position: Position) -> Option<u8> {
    match tablebase(position.ending()).dtm(position) {
        Some(Dtm::Mate(n)) => Some(n),
        _ => None,
    }
}

/// A 64-bit mix (splitmix64's finaliser), for breaking ties by the seed.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Challenge {
    /// The challenge of `rules`: its start, with its mate plus the spare
    /// moves to mate in.
    pub fn new(rules: Rules) -> Result<Challenge, StartError> {
        if rules.start.turn() != Color::White {
            return Err(StartError::BlackToMove);
        }
        let mate = dtm(rules.start).ok_or(StartError::Drawn)?;
        let left = mate.saturating_add(rules.spare);
        if left > MAX_LEFT {
            return Err(StartError::TooLong(left));
        }
        Ok(Challenge {
            position: rules.start,
            left,
            total: left,
            lost: None,
            start: rules.start,
            seed: rules.seed,
            end: None,
        }
        .ended())
    }

    /// The position (the start, on a page every position shares: too
    /// slow, or the piece taken).
    pub fn position(self) -> Position {
        self.position
    }

    /// The challenge from its start again, on a page every position
    /// shares (too slow, or the piece taken), which shows that start; or
    /// `None`.
    pub fn again(self) -> Option<Challenge> {
        self.lost.map(|_| {
            Challenge {
                position: self.start,
                left: self.total,
                lost: None,
                end: None,
                ..self
            }
            .ended()
        })
    }

    /// White's moves left to mate in.
    pub fn left(self) -> u8 {
        self.left
    }

    /// The moves to mate in at the start.
    pub fn total(self) -> u8 {
        self.total
    }

    /// Whether Black's king has just moved: White has moved, and the
    /// challenge goes on.
    pub fn black_moved(self) -> bool {
        self.left < self.total && self.end().is_none()
    }

    /// How the challenge ended, or `None` while it goes on.
    pub fn end(self) -> Option<End> {
        self.end
    }

    /// This state with its `end` worked out.
    fn ended(self) -> Challenge {
        Challenge {
            end: self.work_out_end(),
            ..self
        }
    }

    /// How the challenge ended, from the position, the moves left and
    /// `lost`.
    fn work_out_end(self) -> Option<End> {
        match self.lost {
            Some(Lost::TooSlow) => return Some(End::TooSlow),
            Some(Lost::Taken) => return Some(End::Taken),
            None => {}
        }
        match self.position.status() {
            Status::Checkmate => Some(End::Mated),
            Status::Stalemate => Some(End::Stalemate),
            Status::Taken => Some(End::Taken),
            Status::Ongoing => match dtm(self.position) {
                Some(n) if n <= self.left => None,
                _ => Some(End::TooSlow),
            },
        }
    }

    /// White's legal moves while the challenge goes on.
    pub fn moves(self) -> impl Iterator<Item = Move> {
        let open = self.end().is_none();
        self.position
            .legal_moves()
            .into_iter()
            .filter(move |_| open)
    }

    /// Black's answer to `after` (Black to move, not over), White having
    /// moved from this state: of its moves, one that puts mate off
    /// longest (a draw first); among equals, one that leaves White the
    /// fewest moves still in time (so the challenge has fewer pages, a
    /// book of KQK with a spare move about a sixth smaller), then the
    /// seed's choice.
    pub fn reply(self, after: Position) -> Option<Move> {
        // Every consumer of the game (the graph, the solver, each
        // edition's walk and analysis) plays each move again, and a reply
        // weighs a few hundred positions: a reply is worked out once a
        // run, whichever thread asks first, and kept for all of them
        // (`Replies`, a function of the position, the moves left and the
        // seed, so the same whoever works it out; two threads that ask at
        // once both work it out and write the same byte).
        let slot = Replies::of(self.seed).slot(after, self.left);
        let known = match slot.load(Ordering::Relaxed) {
            0 => {
                let reply = pack_reply(self.work_out_reply(after));
                slot.store(reply, Ordering::Relaxed);
                reply
            }
            known => known,
        };
        unpack_reply(after, known)
    }

    /// [`Challenge::reply`], worked out. Every move it plays came out of
    /// `legal_moves`, so it plays them unchecked.
    fn work_out_reply(self, after: Position) -> Option<Move> {
        let moves = after.legal_moves();
        // A king has at most eight moves.
        let mut far = [0u16; 8];
        for (far, &m) in far.iter_mut().zip(moves.iter()) {
            *far = dtm(after.play_legal(m)).map_or(u16::MAX, u16::from);
        }
        let far = &far[..moves.len()];
        let longest = far.iter().copied().max()?;
        // White's moves after the reply that leave it `within` moves or
        // more: each a page of its own.
        let within = self.left.saturating_sub(2);
        let open = |m: Move| {
            let next = after.play_legal(m);
            // A move in time needs no status: the table lookup first.
            let slow = |w: Move| {
                let p = next.play_legal(w);
                dtm(p).is_none_or(|n| n > within) && p.status() == Status::Ongoing
            };
            next.legal_moves().into_iter().filter(|&w| !slow(w)).count()
        };
        let rank = |m: Move| {
            let key = u64::from(after.key()) << 16 | u64::from(m.from.index() as u8) << 8;
            let tie = mix(self.seed ^ key ^ m.to.index() as u64);
            (std::cmp::Reverse(open(m)), tie)
        };
        moves
            .into_iter()
            .zip(far)
            .filter(|&(_, &far)| far == longest)
            .max_by_key(|&(m, _)| rank(m))
            .map(|(m, _)| m)
    }

    /// The state after White's `mov` and Black's reply, or `None` if the
    /// move is not legal here or the challenge is over.
    pub fn play(self, mov: Move) -> Option<Challenge> {
        if self.end().is_some() {
            return None;
        }
        let after = self.position.play(mov).ok()?;
        let left = self.left - 1;
        let position = match after.status() {
            Status::Ongoing => {
                let reply = self.reply(after).expect("Black has a move");
                after.play_legal(reply)
            }
            _ => after,
        };
        let next = Challenge {
            position,
            left,
            lost: None,
            ..self
        }
        .ended();
        // One page for each way to lose the chance of mate.
        let lost = match next.end() {
            Some(End::TooSlow) => Some(Lost::TooSlow),
            Some(End::Taken) => Some(Lost::Taken),
            _ => None,
        };
        Some(match lost {
            None => next,
            Some(_) => Challenge {
                position: self.start,
                left: 0,
                lost,
                ..next
            }
            .ended(),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashSet, VecDeque};

    use super::*;

    /// Every reply, and none, packs into a byte that is not 0 and comes
    /// back; the replies of one seed are kept apart from another's, and
    /// those of one count of moves left from another's.
    #[test]
    fn replies_pack_and_keep_to_their_seed() {
        let square = |i| Square::new(i).unwrap();
        // White: Ke1, Ra1; Black: Kc3, to move.
        let after = Position::new(Ending::Krk, square(4), square(0), square(18), Color::Black);
        let after = after.unwrap();
        for to in (0..64).map(square) {
            let m = Some(Move {
                from: after.black_king(),
                to,
            });
            assert_ne!(pack_reply(m), 0);
            assert_eq!(unpack_reply(after, pack_reply(m)), m);
        }
        assert_eq!(unpack_reply(after, pack_reply(None)), None);
        // Seeds no build uses.
        let (one, two) = (u64::MAX - 1, u64::MAX - 2);
        Replies::of(one).slot(after, 3).store(7, Ordering::Relaxed);
        assert_eq!(Replies::of(two).slot(after, 3).load(Ordering::Relaxed), 0);
        assert_eq!(Replies::of(one).slot(after, 4).load(Ordering::Relaxed), 0);
        assert_eq!(Replies::of(one).slot(after, 3).load(Ordering::Relaxed), 7);
        assert!(std::ptr::eq(Replies::of(one), Replies::of(one)));
    }

    fn start(fen: &str, spare: u8) -> Challenge {
        let start = Position::from_fen(fen).unwrap();
        Challenge::new(Rules {
            start,
            spare,
            seed: 0,
        })
        .unwrap()
    }

    /// Every state reachable from `c`, with how it ended.
    fn reachable(c: Challenge) -> Vec<Challenge> {
        let mut seen = HashSet::from([c]);
        let mut queue = VecDeque::from([c]);
        let mut out = Vec::new();
        while let Some(s) = queue.pop_front() {
            out.push(s);
            for m in s.moves() {
                let next = s.play(m).unwrap();
                if seen.insert(next) {
                    queue.push_back(next);
                }
            }
        }
        out
    }

    /// The defaults: KQK from Ke1 Qd1 ke8 is mate in 8, KRK from
    /// Ke1 Ra1 ke8 mate in 12; with no spare move only the best moves
    /// stay in the challenge, and with best play White mates in exactly
    /// that many moves, whatever Black does.
    #[test]
    fn the_default_starts_are_mate_in_8_and_12() {
        for (fen, mate) in [
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 8),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 12),
        ] {
            let c = start(fen, 0);
            assert_eq!(c.left(), mate, "{fen}");
            let states = reachable(c);
            let mated = states
                .iter()
                .filter(|s| s.end() == Some(End::Mated))
                .count();
            assert!(mated > 0, "{fen}");
            for s in &states {
                if s.end().is_none() {
                    assert!(dtm(s.position()).unwrap() <= s.left(), "{s:?}");
                }
                if s.end() == Some(End::Mated) {
                    assert_eq!(s.left(), 0, "mate comes on the last move: {s:?}");
                }
            }
        }
    }

    /// Black always defends perfectly: its reply has the largest distance
    /// to mate of all its replies, and a draw when it has one.
    #[test]
    fn black_puts_mate_off_longest() {
        let c = start("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 2);
        for s in reachable(c).into_iter().filter(|s| s.end().is_none()) {
            for m in s.moves() {
                let after = s.position().play(m).unwrap();
                if after.status() != Status::Ongoing {
                    continue;
                }
                let reply = s.reply(after).unwrap();
                let got = dtm(after.play(reply).unwrap()).map_or(u16::MAX, u16::from);
                let best = after
                    .legal_moves()
                    .into_iter()
                    .map(|r| dtm(after.play(r).unwrap()).map_or(u16::MAX, u16::from))
                    .max()
                    .unwrap();
                assert_eq!(got, best, "{after:?}");
            }
        }
    }

    /// How many states each default challenge has, by spare moves (shown
    /// with `--nocapture`), and how they end: a mate needs no more moves
    /// than given, and every end is one of the four.
    #[test]
    fn the_challenges_are_finite_and_end_four_ways() {
        for (fen, name) in [
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "KQK"),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "KRK"),
        ] {
            for spare in 0..=2 {
                let states = reachable(start(fen, spare));
                let mut ends: BTreeMap<String, usize> = BTreeMap::new();
                for s in &states {
                    *ends.entry(format!("{:?}", s.end())).or_default() += 1;
                }
                eprintln!("{name}, {spare} spare: {} states, {ends:?}", states.len());
                // Too slow and taken are a state each.
                assert!(ends.get("Some(TooSlow)").is_none_or(|&n| n == 1));
                assert!(ends.get("Some(Taken)").is_none_or(|&n| n == 1));
                if spare > 0 {
                    assert!(ends.contains_key("Some(TooSlow)"), "{name} {spare}");
                }
            }
        }
    }

    #[test]
    fn a_start_must_be_white_to_move_and_won() {
        let black = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
        // A FEN of a start is White to move; build Black to move by hand.
        assert!(black.is_err());
        let rules = |spare| Rules {
            start: Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap(),
            spare,
            seed: 0,
        };
        assert_eq!(Challenge::new(rules(20)), Err(StartError::TooLong(32)));
        assert!(Challenge::new(rules(19)).is_ok());
    }
}
