//! What every format's markup shares: the one escaper and the one writer
//! of a screen's grid of cells.
//!
//! Invariant: text and attribute values go out only through [`escape`];
//! a grid goes out only through [`write_grid`], row by row in reading
//! order, each linked cell's image inside its link, or, where each move
//! is a whole column, through [`write_columns`], column by column, each
//! column's images inside its one link.

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
    /// The image of a cell under the top cell of a linked column
    /// ([`write_columns`]): the link's words are the top cell's, which
    /// name the whole column, so a format with words for its images gives
    /// these none, and a screen reader hears the column once. By default
    /// as [`Grid::image`].
    fn quiet_image(&mut self, cell: &CellView) {
        self.image(cell);
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
        grid.row(r);
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

    /// A grid of two columns of three cells, the left column's top cell
    /// linked: by rows, the link holds that cell alone; by columns, it
    /// holds the whole column, whose lower cells are quiet, and the
    /// column with no link says every cell.
    #[test]
    fn columns_go_out_top_first_each_inside_its_one_link() {
        let cell = |image: usize| {
            let look = crate::screen::Look {
                image,
                label: "",
                holds: "",
                note: None,
            };
            CellView::new((image == 0).then_some(Target::Contents), look.interned())
        };
        let screen = Screen {
            target: Target::Contents,
            title: String::new(),
            heading: String::new(),
            lines: Vec::new(),
            cells: crate::screen::Cells::new(&(0..6).map(cell).collect::<Vec<_>>(), 2),
            columns: 2,
            over: false,
            depth: 0,
            nav: Vec::new(),
        };
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
