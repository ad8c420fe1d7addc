//! The census of a solved ending: how many positions there are at each
//! distance to mate, with White and with Black to move, and the draws,
//! checkmates and stalemates; each count raw and again with the positions
//! that the board's eight symmetries map onto each other counted once.
//! [`Census::render`] writes it as plain text, as perft prints counts.
//!
//! Counting convention (the one that gives the published figures): a
//! position is legal when its three pieces stand on distinct squares, the
//! kings do not touch, and the side not to move is not in check. With
//! Black to move that is every placement of the two kings apart (3,612)
//! times the piece's 62 squares, 223,944 in both endings, Black in check
//! or not; with White to move, those with Black not in check. Checkmates
//! and stalemates have Black to move. A position is counted once however
//! many symmetries fix it.
//!
//! Invariant: the raw counts of each side sum to its legal positions;
//! figures only, nothing here changes what the tablebase holds.

use std::fmt::Write as _;

use super::board::{Color, Position, Status};
use super::tablebase::{Dtm, Tablebase};

/// A count of positions, raw and up to the board's symmetries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Every position.
    pub raw: u32,
    /// The positions that no symmetry maps onto a position of lower key:
    /// one for each set the eight symmetries map onto each other.
    pub unique: u32,
}

impl Count {
    fn add(&mut self, unique: bool) {
        self.raw += 1;
        self.unique += u32::from(unique);
    }
}

/// What [`Census::of`] counts, each entry as `[White to move, Black to
/// move]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    /// The ending's name, `KQK`.
    pub name: &'static str,
    /// Positions by DTM, index `d` for mate in `d`.
    pub mates: Vec<[Count; 2]>,
    /// Positions drawn.
    pub draws: [Count; 2],
    /// Legal positions.
    pub legal: [Count; 2],
    /// Checkmates (Black to move).
    pub checkmates: Count,
    /// Stalemates (Black to move).
    pub stalemates: Count,
}

/// Whether `position` stands for its set of symmetric positions: no
/// symmetry gives it a lower key.
fn is_canonical(position: Position) -> bool {
    let key = position.key();
    (1..8).all(|t| position.transformed(t).key() >= key)
}

impl Census {
    /// Counts every position of `tablebase`.
    pub fn of(tablebase: &Tablebase) -> Census {
        let mut census = Census {
            name: tablebase.ending().name(),
            mates: Vec::new(),
            draws: [Count::default(); 2],
            legal: [Count::default(); 2],
            checkmates: Count::default(),
            stalemates: Count::default(),
        };
        for (position, dtm) in tablebase.positions() {
            let side = usize::from(position.turn() == Color::Black);
            let unique = is_canonical(position);
            census.legal[side].add(unique);
            match dtm {
                Dtm::Mate(d) => {
                    let d = usize::from(d);
                    if census.mates.len() <= d {
                        census.mates.resize(d + 1, [Count::default(); 2]);
                    }
                    census.mates[d][side].add(unique);
                }
                Dtm::Draw => census.draws[side].add(unique),
            }
            match position.status() {
                Status::Checkmate => census.checkmates.add(unique),
                Status::Stalemate => census.stalemates.add(unique),
                Status::Ongoing | Status::Taken => {}
            }
        }
        census
    }

    /// The longest mate with `side` to move: its DTM and how many
    /// positions have it.
    pub fn longest(&self, side: Color) -> Option<(u8, Count)> {
        let side = usize::from(side == Color::Black);
        let d = self.mates.iter().rposition(|c| c[side].raw > 0)?;
        Some((u8::try_from(d).ok()?, self.mates[d][side]))
    }

    /// The census as plain text: a line for each DTM with its four counts
    /// (White to move raw and unique, Black to move raw and unique), then
    /// the draws, the totals, the checkmates and the stalemates.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let row = |out: &mut String, label: &str, c: &[Count; 2]| {
            let _ = writeln!(
                out,
                "{label:>6} {:>9} {:>9} {:>9} {:>9}",
                c[0].raw, c[0].unique, c[1].raw, c[1].unique
            );
        };
        let _ = writeln!(
            out,
            "{}: distance to mate (DTM), White's moves until mate, the mating move included",
            self.name
        );
        let _ = writeln!(
            out,
            "unique: positions the board's 8 symmetries map onto each other counted once"
        );
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{:>6} {:>19} {:>19}",
            "", "White to move", "Black to move"
        );
        let _ = writeln!(
            out,
            "{:>6} {:>9} {:>9} {:>9} {:>9}",
            "DTM", "raw", "unique", "raw", "unique"
        );
        for (d, counts) in self.mates.iter().enumerate() {
            row(&mut out, &d.to_string(), counts);
        }
        row(&mut out, "draw", &self.draws);
        row(&mut out, "legal", &self.legal);
        let _ = writeln!(out);
        for (label, c) in [
            ("checkmates", self.checkmates),
            ("stalemates", self.stalemates),
        ] {
            let _ = writeln!(out, "{label}: {} ({} unique)", c.raw, c.unique);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::board::Ending;

    fn census(ending: Ending) -> Census {
        Census::of(&Tablebase::solve(ending))
    }

    #[test]
    fn kqk_known_answers() {
        let c = census(Ending::Kqk);
        let text = c.render();
        assert!(
            text.contains("\n    10         8         1        56         8\n"),
            "{text}"
        );
        assert!(
            text.contains("\n legal    144508     18081    223944     28056\n"),
            "{text}"
        );
        assert!(
            text.ends_with("checkmates: 364 (46 unique)\nstalemates: 872 (109 unique)\n"),
            "{text}"
        );
        assert_eq!(c.legal[0].raw, 144_508);
        assert_eq!(c.legal[1].raw, 223_944);
        assert_eq!(
            c.longest(Color::White).map(|(d, n)| (d, n.raw)),
            Some((10, 8))
        );
        assert_eq!(c.draws[0].raw, 0);
        assert_eq!(c.checkmates.raw, 364);
        assert_eq!(c.stalemates.raw, 872);
    }

    #[test]
    fn krk_known_answers() {
        let c = census(Ending::Krk);
        let text = c.render();
        assert!(
            text.contains("\n    16       916       121      3056       390\n"),
            "{text}"
        );
        assert!(
            text.contains("\n  draw         0         0     22244      2796\n"),
            "{text}"
        );
        assert_eq!(c.legal[0].raw, 175_168);
        assert_eq!(c.legal[1].raw, 223_944);
        assert_eq!(
            c.longest(Color::White).map(|(d, n)| (d, n.raw)),
            Some((16, 916))
        );
        assert_eq!(c.draws[0].raw, 0);
        assert_eq!(c.checkmates.raw, 216);
        assert_eq!(c.stalemates.raw, 68);
    }
}
