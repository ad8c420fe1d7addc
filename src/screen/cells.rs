//! A screen's cells, held small. An edition holds every screen while its
//! formats read them, and a chess edition has tens of thousands of
//! screens of 72 cells: as [`CellView`]s, 16 bytes each, they were the
//! largest part of a build's memory (59 MB of 151 for KRK with 3 spare
//! moves). Most rows of a board look alike from screen to screen (an
//! empty rank, a rank with the king), and few cells are links, so a
//! screen keeps each row's looks as one shared row and only its links
//! beside them: about a quarter of the bytes (KRK with 3 spare moves:
//! 13 MB of cells and 7 MB of shared rows, against 59 MB).
//!
//! Invariant: [`Cells::iter`] gives back exactly the cells
//! [`Cells::new`] was given, in reading order; every row has the same
//! number of cells.

use std::cell::RefCell;
use std::hash::{BuildHasher as _, Hasher as _};
use std::sync::{LazyLock, Mutex, PoisonError};

use rustc_hash::{FxBuildHasher, FxHashMap};

use super::{CellView, Look, NO_LINK, Target, pack_link, unpack_link};

/// A row of looks, as a screen shares it.
type Row = &'static [&'static Look];

/// A screen's cells: each row's looks, one shared copy of each different
/// row, and the cells that link somewhere.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cells {
    /// Each row's looks, top row first.
    rows: Box<[Row]>,
    /// Each cell with a link, in reading order: its index and its link,
    /// packed as [`CellView`] packs it.
    links: Box<[(u32, u64)]>,
}

impl Cells {
    /// `cells`, in reading order, `columns` to a row.
    ///
    /// # Panics
    /// If `columns` is 0 while there are cells, or the cells do not fill
    /// their last row.
    pub fn new(cells: &[CellView], columns: usize) -> Cells {
        if cells.is_empty() {
            return Cells {
                rows: Box::new([]),
                links: Box::new([]),
            };
        }
        assert!(
            columns > 0 && cells.len().is_multiple_of(columns),
            "whole rows"
        );
        let rows = cells.chunks(columns).map(shared_row).collect();
        // Counted first, so the links are allocated once, at their size.
        let linked = || (cells.iter().enumerate()).filter(|(_, c)| c.link != NO_LINK);
        let mut links = Vec::with_capacity(linked().count());
        links.extend(linked().map(|(i, c)| (i as u32, c.link)));
        Cells {
            rows,
            links: links.into_boxed_slice(),
        }
    }

    /// How many cells there are.
    pub fn len(&self) -> usize {
        self.rows.len() * self.columns()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Cells in a row (0 when there are none).
    pub fn columns(&self) -> usize {
        self.rows.first().map_or(0, |r| r.len())
    }

    /// How many cells link somewhere.
    pub fn link_count(&self) -> usize {
        self.links.len()
    }

    /// Cell `index`, in reading order.
    ///
    /// # Panics
    /// If there is no such cell.
    pub fn get(&self, index: usize) -> CellView {
        let columns = self.columns();
        assert!(index < self.len(), "cell {index} of {}", self.len());
        let look = self.rows[index / columns][index % columns];
        let link = match self.links.binary_search_by_key(&(index as u32), |l| l.0) {
            Ok(at) => self.links[at].1,
            Err(_) => NO_LINK,
        };
        CellView { link, look }
    }

    /// Every cell, in reading order.
    pub fn iter(&self) -> Iter<'_> {
        Iter::new(self.rows.iter(), [].iter(), 0, &self.links)
    }

    /// Each row's cells, top row first.
    pub fn rows(&self) -> Rows<'_> {
        Rows {
            rows: self.rows.iter(),
            at: 0,
            columns: self.columns() as u32,
            links: &self.links,
        }
    }

    /// Column `column`'s cells, top first.
    pub fn column(&self, column: usize) -> impl Iterator<Item = CellView> + '_ {
        self.iter().skip(column).step_by(self.columns().max(1))
    }

    /// The same cells, each link replaced by what `follow` makes of it.
    pub fn map_links(&mut self, mut follow: impl FnMut(Target) -> Target) {
        for (_, link) in self.links.iter_mut() {
            let target = unpack_link(*link).expect("a kept link leads somewhere");
            *link = pack_link(Some(follow(target)));
        }
    }
}

/// The rows of a [`Cells`], top first, each an [`Iter`] of its cells.
pub struct Rows<'a> {
    rows: std::slice::Iter<'a, Row>,
    /// The index of the next row's first cell.
    at: u32,
    columns: u32,
    /// The links from the next row on: each row takes its own off the
    /// front, so no row searches for them.
    links: &'a [(u32, u64)],
}

impl<'a> Iterator for Rows<'a> {
    type Item = Iter<'a>;

    fn next(&mut self) -> Option<Iter<'a>> {
        let row = self.rows.next()?;
        let (at, end) = (self.at, self.at + self.columns);
        let here = self.links.iter().take_while(|l| l.0 < end).count();
        let (links, rest) = self.links.split_at(here);
        (self.at, self.links) = (end, rest);
        Some(Iter::new([].iter(), row.iter(), at, links))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.rows.size_hint()
    }
}

impl ExactSizeIterator for Rows<'_> {}

/// The cells of a [`Cells`], or of one of its rows, in reading order.
pub struct Iter<'a> {
    /// The rows after the current one.
    rows: std::slice::Iter<'a, Row>,
    /// What is left of the current row.
    row: std::slice::Iter<'static, &'static Look>,
    /// The index of the next cell.
    at: u32,
    /// The links from the next cell on.
    links: &'a [(u32, u64)],
    /// The index of the first of `links` (`u32::MAX`: none): every cell
    /// of every screen is read this way several times a build, so a cell
    /// without a link costs one comparison.
    next_link: u32,
}

impl<'a> Iter<'a> {
    fn new(
        rows: std::slice::Iter<'a, Row>,
        row: std::slice::Iter<'static, &'static Look>,
        at: u32,
        links: &'a [(u32, u64)],
    ) -> Iter<'a> {
        let next_link = links.first().map_or(u32::MAX, |l| l.0);
        Iter {
            rows,
            row,
            at,
            links,
            next_link,
        }
    }
}

impl Iter<'_> {
    /// What names this row's cells, if they are one whole row none of
    /// whose cells is a link (as [`Cells::rows`] gives them): the shared
    /// row's address. Rows are kept for the life of the process, so two
    /// rows with one name show the same looks, wherever they are.
    pub fn plain(&self) -> Option<usize> {
        (self.next_link == u32::MAX && self.rows.as_slice().is_empty())
            .then_some(self.row.as_slice().as_ptr() as usize)
    }
}

impl Iterator for Iter<'_> {
    type Item = CellView;

    #[inline]
    fn next(&mut self) -> Option<CellView> {
        let look = match self.row.next() {
            Some(&look) => look,
            None => {
                self.row = self.rows.next()?.iter();
                *self.row.next()?
            }
        };
        let link = if self.at == self.next_link {
            let link = self.links[0].1;
            self.links = &self.links[1..];
            self.next_link = self.links.first().map_or(u32::MAX, |l| l.0);
            link
        } else {
            NO_LINK
        };
        self.at += 1;
        Some(CellView { link, look })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.row.len() + self.rows.as_slice().iter().map(|r| r.len()).sum::<usize>();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// The one shared copy of a row of looks, found by its looks' addresses
/// alone: looks are interned ([`Look::interned`]), so looks that are
/// equal are one look, and no row's words are hashed or compared. Each
/// thread looks in its own table first, so the shared one, behind a
/// lock, is asked once a thread a row. Like looks, rows are kept for the
/// life of the process: there are as many as a game has ways to draw a
/// row, however many screens show them.
fn shared_row(cells: &[CellView]) -> Row {
    thread_local! {
        /// The last row met of each hash: nearly every row a thread asks
        /// for is one it has made before.
        static NEAR: RefCell<FxHashMap<u64, Row>> = RefCell::default();
    }
    /// Every row of each hash.
    static ALL: LazyLock<Mutex<FxHashMap<u64, Vec<Row>>>> = LazyLock::new(Mutex::default);
    let key = {
        let mut h = FxBuildHasher.build_hasher();
        (cells.iter()).for_each(|c| h.write_usize(std::ptr::from_ref(c.look) as usize));
        h.finish()
    };
    let same = |row: &Row| {
        row.len() == cells.len() && row.iter().zip(cells).all(|(a, b)| std::ptr::eq(*a, b.look))
    };
    if let Some(found) = NEAR.with_borrow(|m| m.get(&key).copied().filter(same)) {
        return found;
    }
    let found = {
        let mut all = ALL.lock().unwrap_or_else(PoisonError::into_inner);
        let rows = all.entry(key).or_default();
        match rows.iter().copied().find(same) {
            Some(found) => found,
            None => {
                let made: Row = Box::leak(cells.iter().map(|c| c.look).collect());
                rows.push(made);
                made
            }
        }
    };
    NEAR.with_borrow_mut(|m| m.insert(key, found));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn look(image: usize) -> &'static Look {
        Look {
            image,
            label: "a cell",
            holds: "held",
            note: None,
        }
        .interned()
    }

    /// Cells of three rows of four: a few looks, a link every few cells.
    fn some_cells(seed: usize) -> Vec<CellView> {
        (0..12)
            .map(|i| {
                let link = (i % (2 + seed) == 1).then_some(Target::page((i * 7 + seed) as u64));
                CellView::new(link, look(i % 3 + usize::from(i == 11 && seed > 0)))
            })
            .collect()
    }

    #[test]
    fn cells_read_back_as_given_by_cell_row_and_column() {
        for seed in 0..4 {
            let given = some_cells(seed);
            let cells = Cells::new(&given, 4);
            assert_eq!((cells.len(), cells.columns()), (12, 4));
            assert_eq!(cells.iter().collect::<Vec<_>>(), given);
            assert_eq!(cells.iter().len(), 12);
            for (i, c) in given.iter().enumerate() {
                assert_eq!(cells.get(i), *c, "cell {i}");
            }
            let rows: Vec<Vec<CellView>> = cells.rows().map(Iterator::collect).collect();
            assert_eq!(rows.len(), 3);
            assert_eq!(rows.concat(), given);
            for c in 0..4 {
                let column: Vec<CellView> = cells.column(c).collect();
                let want: Vec<CellView> = given[c..].iter().step_by(4).copied().collect();
                assert_eq!(column, want, "column {c}");
            }
            let links = given.iter().filter(|c| c.link().is_some()).count();
            assert_eq!(cells.link_count(), links);
        }
        let none = Cells::new(&[], 3);
        assert!(none.is_empty() && none.iter().next().is_none() && none.rows().len() == 0);
    }

    /// Rows that look alike are one row, however many screens show them,
    /// and links are kept apart from them: what keeps an edition small.
    #[test]
    fn rows_that_look_alike_are_held_once() {
        let (a, b) = (Cells::new(&some_cells(0), 4), Cells::new(&some_cells(1), 4));
        for (x, y) in a.rows.iter().zip(&b.rows).take(2) {
            assert!(std::ptr::eq(*x, *y), "the same looks, other links: one row");
        }
        assert!(
            !std::ptr::eq(a.rows[2], b.rows[2]),
            "another look: another row"
        );
        assert_ne!(a, b);
        assert_eq!(a, Cells::new(&some_cells(0), 4));
    }

    #[test]
    fn following_links_changes_only_the_links() {
        let given = some_cells(1);
        let mut cells = Cells::new(&given, 4);
        let moved = |t: Target| match t {
            Target::Page { game, key } => Target::Page {
                game: game + 1,
                key: key + 1000,
            },
            Target::Contents => Target::Contents,
        };
        cells.map_links(moved);
        for (c, g) in cells.iter().zip(&given) {
            assert!(std::ptr::eq(c.look, g.look));
            assert_eq!(c.link(), g.link().map(moved));
        }
    }
}
