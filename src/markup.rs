//! What every format's markup shares: the one escaper and the one writer
//! of a screen's grid of cells.
//!
//! Invariant: text and attribute values go out only through [`escape`];
//! a grid goes out only through [`write_grid`], row by row in reading
//! order, each linked cell's image inside its link, or, where each move
//! is a whole column, through [`write_columns`], column by column, each
//! column's images inside its one link.

use std::cell::RefCell;

use rustc_hash::FxHashMap;

use crate::screen::{CellView, Screen, Target};

/// Text or an attribute value onto `out`, with `&`, `<`, `>` and `"`
/// escaped: safe in HTML and XHTML text and in a double-quoted value.
pub fn escape(out: &mut String, s: &str) {
    if !needs_escape(s.as_bytes()) {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// Appends `s` to `out` in ASCII: any other character as a numeric
/// character reference (`&#233;`). The Kindle formats write their text so
/// (the MOBI 6 and KF8 parts alike), so that no character is ever split
/// across two of their text records.
pub fn push_ascii(out: &mut String, s: &str) {
    if s.is_ascii() {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            use std::fmt::Write as _;
            let _ = write!(out, "&#{};", u32::from(c));
        }
    }
}

/// The length of `s` once [`escape`]d, without writing it: the books
/// size their files by it.
pub fn escaped_len(s: &str) -> usize {
    if !needs_escape(s.as_bytes()) {
        return s.len();
    }
    s.bytes()
        .map(|b| match b {
            b'&' => 5,
            b'<' | b'>' => 4,
            b'"' => 6,
            _ => 1,
        })
        .sum()
}

/// The length of `s` once [`escape`]d and then put in ASCII
/// ([`push_ascii`]), without writing it: the KF8 text is laid out by it.
pub fn ascii_escaped_len(s: &str) -> usize {
    let escaped = escaped_len(s);
    if s.is_ascii() {
        return escaped;
    }
    // Escaping touches only ASCII; each other character becomes `&#N;`.
    let others = s.chars().filter(|c| !c.is_ascii());
    let refs: usize = others
        .map(|c| "&#;".len() + u32::from(c).ilog10() as usize + 1 - c.len_utf8())
        .sum();
    escaped + refs
}

/// Whether `s` holds `&`, `<`, `>` or `"`, eight bytes at a time: every
/// label, heading and link of every page and book goes through
/// [`escape`], and hardly any needs it.
fn needs_escape(s: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    // Nonzero exactly when some byte of `w` is zero.
    let has_zero = |w: u64| w.wrapping_sub(ONES) & !w & (ONES * 0x80);
    let mut words = s.chunks_exact(8);
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let found = has_zero(w ^ (ONES * u64::from(b'&')))
            | has_zero(w ^ (ONES * u64::from(b'<')))
            | has_zero(w ^ (ONES * u64::from(b'>')))
            | has_zero(w ^ (ONES * u64::from(b'"')));
        if found != 0 {
            return true;
        }
    }
    words
        .remainder()
        .iter()
        .any(|b| matches!(b, b'&' | b'<' | b'>' | b'"'))
}

/// A format's markup for the parts of a grid, called by [`write_grid`].
pub trait Grid {
    /// Before the cells of row `index` (0 for the top row).
    fn row(&mut self, index: usize);
    /// Before each cell, its link included.
    fn cell(&mut self) {}
    /// After each cell.
    fn end_cell(&mut self) {}
    /// After each row.
    fn end_row(&mut self) {}
    /// Opens a link to `target` around the next image.
    fn link(&mut self, target: Target);
    /// A cell's image.
    fn image(&mut self, cell: &CellView);
    /// Closes the link opened last.
    fn end_link(&mut self);
    /// Before the cells of column `index` (0 for the left one), its link
    /// included: only [`write_columns`] calls it.
    fn column(&mut self, _index: usize) {}
    /// After each column ([`write_columns`]).
    fn end_column(&mut self) {}
    /// Between two cells of a column, the lower one next
    /// ([`write_columns`]).
    fn stack(&mut self) {}
    /// What this grid writes onto and the rows without a link it has
    /// written, if it writes every such row the same wherever it is (its
    /// own words, not the screen's): [`write_grid`] then writes each such
    /// row a cell at a time once and copies it after.
    fn plain_rows(&mut self) -> Option<(&mut PlainRows, Written<'_>)> {
        None
    }
    /// The image of a cell under the top cell of a linked column
    /// ([`write_columns`]): the link's words are the top cell's, which
    /// name the whole column, so a format with words for its images gives
    /// these none, and a screen reader hears the column once. By default
    /// as [`Grid::image`].
    fn quiet_image(&mut self, cell: &CellView) {
        self.image(cell);
    }
}

/// Where a [`Grid`] writes: its text, or only the text's length.
pub enum Written<'a> {
    /// The text written so far.
    Text(&'a mut String),
    /// The length written so far.
    Len(&'a mut usize),
}

impl Written<'_> {
    fn len(&self) -> usize {
        match self {
            Written::Text(out) => out.len(),
            Written::Len(len) => **len,
        }
    }
}

/// The rows without a link one [`Grid`] has written, each kept by the
/// shared row's address ([`crate::screen::CellIter::plain`]): a chess
/// screen's rows are mostly such (six or seven of its nine), and the
/// same few hundred rows make up every screen of a book. A grid keeps
/// its own: each format writes a row its own way.
#[derive(Default)]
pub struct PlainRows {
    /// Each row's text: a range of `text` (for a grid that writes only
    /// the length, an empty one) and the length written.
    rows: FxHashMap<usize, (u32, u32)>,
    text: String,
}

impl PlainRows {
    /// This thread's rows of the grid that `key` names, for `f`. The key
    /// names all but the looks that a row is written from, for the life
    /// of the process: the address of a game's list of images, and the
    /// format's own name.
    pub fn of_thread<R>(key: (usize, &'static str), f: impl FnOnce(&mut PlainRows) -> R) -> R {
        thread_local! {
            static ROWS: RefCell<FxHashMap<(usize, &'static str), PlainRows>> =
                RefCell::default();
        }
        ROWS.with_borrow_mut(|rows| f(rows.entry(key).or_default()))
    }
}

/// The cells of `screen` through `grid`: row by row, each cell's image
/// wrapped in its link if it has one.
pub fn write_grid(screen: &Screen, grid: &mut impl Grid) {
    // Each row's cells side by side first: the loop over them is then
    // the formats' own, with nothing of how a screen packs its cells. On
    // the stack: every screen is written in every format, and sized for
    // two.
    const ON_STACK: usize = 16;
    let (mut stack, mut heap) = ([None; ON_STACK], Vec::new());
    for (r, row) in screen.rows().enumerate() {
        grid.row(r);
        // A row without a link this grid has written before is copied;
        // one it has not is written, and kept from where it starts.
        let plain = row.plain().filter(|_| grid.plain_rows().is_some());
        let mut start = None;
        if let Some(key) = plain {
            let (kept, out) = grid.plain_rows().expect("a grid that keeps rows");
            if let Some(&(from, len)) = kept.rows.get(&key) {
                match out {
                    Written::Text(out) => out.push_str(&kept.text[from as usize..][..len as usize]),
                    Written::Len(n) => *n += len as usize,
                }
                grid.end_row();
                continue;
            }
            start = Some(out.len());
        }
        let cells: &[Option<CellView>] = if screen.columns <= ON_STACK {
            let mut n = 0;
            for cell in row {
                stack[n] = Some(cell);
                n += 1;
            }
            &stack[..n]
        } else {
            heap.clear();
            heap.extend(row.map(Some));
            &heap
        };
        for cell in cells.iter().flatten() {
            grid.cell();
            if let Some(target) = cell.link() {
                grid.link(target);
            }
            grid.image(cell);
            if cell.link().is_some() {
                grid.end_link();
            }
            grid.end_cell();
        }
        if let (Some(key), Some(start)) = (plain, start) {
            let (kept, out) = grid.plain_rows().expect("a grid that keeps rows");
            let room = "a row's text well within 4 GB";
            let from = u32::try_from(kept.text.len()).expect(room);
            let len = u32::try_from(out.len() - start).expect(room);
            if let Written::Text(out) = out {
                kept.text.push_str(&out[start..]);
            }
            kept.rows.insert(key, (from, len));
        }
        grid.end_row();
    }
}

/// The cells of `screen` through `grid` a column at a time, for a game
/// whose every move is a whole column, its link on the column's top cell
/// ([`crate::game::Game::COLUMN_MOVES`]): column by column, left first,
/// each column's cells top first, one over the other ([`Grid::stack`]),
/// all inside the one link of the column, if it has one, the cells under
/// the top one quiet ([`Grid::quiet_image`]). A book whose reader knows
/// no stylesheet (the MOBI 6 part) lays such a board out so, a table cell
/// a column: a tap anywhere in the column, disc, peg or air, then lands in
/// its link, and a cursor that moves from link to link stops once a
/// column.
pub fn write_columns(screen: &Screen, grid: &mut impl Grid) {
    let columns = screen.columns;
    for c in 0..columns {
        let mut cells = screen.cells.column(c);
        let Some(top) = cells.next() else {
            return;
        };
        grid.column(c);
        if let Some(target) = top.link() {
            grid.link(target);
        }
        grid.image(&top);
        for cell in cells {
            debug_assert!(
                cell.link().is_none(),
                "a column's one link is its top cell's"
            );
            grid.stack();
            match top.link() {
                Some(_) => grid.quiet_image(&cell),
                None => grid.image(&cell),
            }
        }
        if top.link().is_some() {
            grid.end_link();
        }
        grid.end_column();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_escape_finds_each_of_the_four_anywhere() {
        // Every byte value at every place of strings up to 20 bytes long,
        // among bytes next to the four in value.
        for len in 1..20 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut s: Vec<u8> = (0..len)
                        .map(|i| [b'%', b'=', b'?', b'!', b'#'][i % 5])
                        .collect();
                    s[at] = b;
                    let plain = s.iter().any(|b| matches!(b, b'&' | b'<' | b'>' | b'"'));
                    assert_eq!(needs_escape(&s), plain, "{s:?}");
                }
            }
        }
        assert!(!needs_escape(b""));
    }

    #[test]
    fn escapes_the_four_characters_and_nothing_else() {
        let mut out = String::new();
        escape(&mut out, "a & b < c > d \"e\" é");
        assert_eq!(out, "a &amp; b &lt; c &gt; d &quot;e&quot; é");
        out.clear();
        escape(&mut out, "top left: place X");
        assert_eq!(out, "top left: place X");
    }

    #[test]
    fn escaped_len_is_the_length_escape_writes() {
        for s in [
            "",
            "plain",
            "a & b < c > d \"e\" é",
            "2ⁿ − 1 moves: 🂡 &",
            "&&&&&&&&&",
            "top left: place X, win in 2",
        ] {
            let mut out = String::new();
            escape(&mut out, s);
            assert_eq!(escaped_len(s), out.len(), "{s}");
            let mut ascii = String::new();
            push_ascii(&mut ascii, &out);
            assert_eq!(ascii_escaped_len(s), ascii.len(), "{s}");
        }
    }

    /// What a grid writer is asked, as text.
    struct Calls(String);

    impl Grid for Calls {
        fn row(&mut self, index: usize) {
            self.0 += &format!("row{index} ");
        }
        fn column(&mut self, index: usize) {
            self.0 += &format!("column{index} ");
        }
        fn end_column(&mut self) {
            self.0 += "| ";
        }
        fn stack(&mut self) {
            self.0 += "/ ";
        }
        fn link(&mut self, _: Target) {
            self.0 += "<a> ";
        }
        fn image(&mut self, cell: &CellView) {
            self.0 += &format!("{} ", cell.look.image);
        }
        fn quiet_image(&mut self, cell: &CellView) {
            self.0 += &format!("({}) ", cell.look.image);
        }
        fn end_link(&mut self) {
            self.0 += "</a> ";
        }
    }

    /// [`Calls`] that keeps its rows without a link, and counts the
    /// images it writes.
    struct Keeping {
        calls: Calls,
        images: usize,
        rows: PlainRows,
    }

    impl Grid for Keeping {
        fn row(&mut self, index: usize) {
            self.calls.row(index);
        }
        fn link(&mut self, target: Target) {
            self.calls.link(target);
        }
        fn image(&mut self, cell: &CellView) {
            self.images += 1;
            self.calls.image(cell);
        }
        fn end_link(&mut self) {
            self.calls.end_link();
        }
        fn plain_rows(&mut self) -> Option<(&mut PlainRows, Written<'_>)> {
            Some((&mut self.rows, Written::Text(&mut self.calls.0)))
        }
    }

    /// The length of what [`Calls`] writes, its rows without a link kept.
    #[derive(Default)]
    struct Counting {
        len: usize,
        images: usize,
        rows: PlainRows,
    }

    impl Grid for Counting {
        fn row(&mut self, index: usize) {
            self.len += format!("row{index} ").len();
        }
        fn link(&mut self, _: Target) {
            self.len += "<a> ".len();
        }
        fn image(&mut self, cell: &CellView) {
            self.images += 1;
            self.len += format!("{} ", cell.look.image).len();
        }
        fn end_link(&mut self) {
            self.len += "</a> ".len();
        }
        fn plain_rows(&mut self) -> Option<(&mut PlainRows, Written<'_>)> {
            Some((&mut self.rows, Written::Len(&mut self.len)))
        }
    }

    /// A screen of rows of two cells, with these images, the cell with
    /// image 0 a link.
    fn screen_of(images: &[usize]) -> Screen {
        let cell = |&image: &usize| {
            let look = crate::screen::Look {
                image,
                label: "",
                holds: "",
                note: None,
            };
            CellView::new((image == 0).then_some(Target::Contents), look.interned())
        };
        Screen {
            target: Target::Contents,
            title: String::new(),
            heading: String::new(),
            lines: Vec::new(),
            cells: crate::screen::Cells::new(&images.iter().map(cell).collect::<Vec<_>>(), 2),
            columns: 2,
            over: false,
            depth: 0,
            nav: Vec::new(),
        }
    }

    /// A row without a link is written a cell at a time the first time a
    /// grid meets it, and copied after, in this screen and the next; a
    /// row with a link is written every time. The text is the same.
    #[test]
    fn a_row_without_a_link_is_written_once_and_copied() {
        let first = screen_of(&[0, 1, 7, 8, 7, 8]);
        let second = screen_of(&[7, 8, 0, 1, 9, 9]);
        let mut plain = Calls(String::new());
        write_grid(&first, &mut plain);
        write_grid(&second, &mut plain);
        assert_eq!(
            plain.0,
            "row0 <a> 0 </a> 1 row1 7 8 row2 7 8 row0 7 8 row1 <a> 0 </a> 1 row2 9 9 "
        );
        let mut kept = Keeping {
            calls: Calls(String::new()),
            images: 0,
            rows: PlainRows::default(),
        };
        write_grid(&first, &mut kept);
        write_grid(&second, &mut kept);
        assert_eq!(kept.calls.0, plain.0);
        // The rows with a link, and each row without one once: [7, 8]
        // and [9, 9].
        assert_eq!(kept.images, 2 + 2 + 2 + 2);
        let mut counted = Counting::default();
        write_grid(&first, &mut counted);
        write_grid(&second, &mut counted);
        assert_eq!(
            (counted.len, counted.images),
            (plain.0.len(), 2 + 2 + 2 + 2)
        );
    }

    /// A grid of two columns of three cells, the left column's top cell
    /// linked: by rows, the link holds that cell alone; by columns, it
    /// holds the whole column, whose lower cells are quiet, and the
    /// column with no link says every cell.
    #[test]
    fn columns_go_out_top_first_each_inside_its_one_link() {
        let screen = screen_of(&[0, 1, 2, 3, 4, 5]);
        let mut rows = Calls(String::new());
        write_grid(&screen, &mut rows);
        assert_eq!(rows.0, "row0 <a> 0 </a> 1 row1 2 3 row2 4 5 ");
        let mut columns = Calls(String::new());
        write_columns(&screen, &mut columns);
        assert_eq!(
            columns.0,
            "column0 <a> 0 / (2) / (4) </a> | column1 1 / 3 / 5 | "
        );
    }
}
