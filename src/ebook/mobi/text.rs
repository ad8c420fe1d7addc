//! The MOBI 6 part's text: the Mobipocket HTML stream, every screen a
//! page with `filepos` links to the `<` of its target's first element,
//! and `recindex` images at their own size (and a picture under the
//! board, if the game has one: [`crate::game::UnderBoard`]).

use rustc_hash::FxHashMap;

use crate::ebook::{caption, intro};
use crate::markup::{Grid, escape, push_ascii, write_columns, write_grid};
use crate::screen::{CellView, Edition, Target};

/// Where a screen starts when a book rounds them
/// ([`crate::ebook::rounds_screens`]): at a multiple of 100, so every `filepos`
/// ends in `00`.
const ROUND: usize = 100;

/// What goes between two screens.
const PAGE_BREAK: &str = "<mbp:pagebreak/>";

/// HTML text with `filepos` links, written a screen at a time: laid out
/// first with every link's digits left as zeros, only to place every
/// target ([`plan`]), then again with each link's digits written as it
/// goes, from the places found ([`render`]), so the text is never held
/// whole.
pub(super) struct Text<'a> {
    /// The text not yet handed on.
    buf: Vec<u8>,
    /// Bytes handed on before `buf`.
    base: usize,
    placed: FxHashMap<Target, usize>,
    /// Where each target starts, once laid out: the links' digits.
    known: Option<&'a FxHashMap<Target, usize>>,
    /// Digits of every `filepos`: enough for the longest offset, the same
    /// for all, so the places the layout found hold.
    digits: usize,
    /// Room for escaping text.
    scratch: String,
    /// Where the text goes, a screen or more at a time.
    out: &'a mut dyn FnMut(&[u8]),
}

/// Bytes of text gathered before they are handed on.
const PIECE: usize = 1 << 13;

impl Text<'_> {
    fn push(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    /// The offset of the next byte in the whole text.
    fn len(&self) -> usize {
        self.base + self.buf.len()
    }

    /// Hands on what is gathered, once it is a piece.
    fn flush(&mut self, all: bool) {
        if all || self.buf.len() >= PIECE {
            (self.out)(&self.buf);
            self.base += self.buf.len();
            self.buf.clear();
        }
    }

    /// Text content, escaped, and in ASCII: any other character as a
    /// numeric character reference, so no character is ever split across
    /// two text records (see [`huffcdic::Limits`]).
    fn text(&mut self, s: &str) {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        escape(&mut out, s);
        if out.is_ascii() {
            self.push(&out);
        } else {
            let mut ascii = String::with_capacity(out.len() + 16);
            push_ascii(&mut ascii, &out);
            self.push(&ascii);
        }
        self.scratch = out;
    }

    /// `filepos=` and the digits: its target's offset once laid out,
    /// zeros until then.
    fn filepos(&mut self, target: Target) {
        self.push("filepos=");
        let at = self.buf.len();
        self.buf.extend(std::iter::repeat_n(b'0', self.digits));
        let Some(known) = self.known else {
            return;
        };
        let mut pos = known[&target];
        // Zero-padded decimal, by hand: a book has tens of thousands.
        for b in self.buf[at..].iter_mut().rev() {
            *b = b'0' + (pos % 10) as u8;
            pos /= 10;
        }
        assert_eq!(pos, 0, "an offset that fits its digits");
    }

    fn link(&mut self, target: Target) {
        self.push("<a ");
        self.filepos(target);
        self.push(">");
    }

    /// Records that `target` starts here: at the `<` about to be written.
    fn place(&mut self, target: Target) {
        let at = self.len();
        self.placed.insert(target, at);
    }
}

/// Where a book's text puts every target, with links of `digits` digits:
/// what [`render`] needs to write each link as it goes.
pub struct Plan {
    digits: usize,
    placed: FxHashMap<Target, usize>,
    /// The text's length.
    pub len: usize,
    /// Where reading starts: the opening page.
    pub start: usize,
}

/// A screen's grid: rows split by line breaks, `filepos` links, and
/// each image's tag (`recindex[i]` for the edition's image `i`).
pub(super) struct MobiGrid<'a, 'b> {
    text: &'a mut Text<'b>,
    recindex: &'a [Option<String>],
}

impl Grid for MobiGrid<'_, '_> {
    fn row(&mut self, index: usize) {
        if index > 0 {
            self.text.push("<br>");
        }
    }

    fn link(&mut self, target: Target) {
        self.text.link(target);
    }

    fn image(&mut self, cell: &CellView) {
        let tag = self.recindex[cell.look.image].as_deref();
        self.text
            .push(tag.expect("the book carries every image its screens use"));
    }

    fn end_link(&mut self) {
        self.text.push("</a>");
    }

    fn column(&mut self, _: usize) {
        self.text.push("<td>");
    }

    fn end_column(&mut self) {
        self.text.push("</td>");
    }

    fn stack(&mut self) {
        self.text.push("<br>");
    }
}

/// Where a board whose every move is a column starts and ends
/// ([`write_columns`]): a table of one row, a cell a column, with no
/// spacing or padding, so the columns meet as the pictures of a row do.
const COLUMNS: (&str, &str) = ("<table cellspacing=0 cellpadding=0><tr>", "</tr></table>");

/// The book as one Mobipocket HTML stream, HTML 3.2 with `filepos` links,
/// `recindex` images (`images` names them in record order) and
/// `<mbp:pagebreak/>` between screens, held whole: for the tests; a book
/// is written by [`plan`] and [`render`]. Returns the text and the offset
/// where reading starts (the opening page).
#[cfg(any(test, feature = "test-support"))]
pub fn markup(book: &Edition, images: &[&str]) -> (Vec<u8>, usize) {
    markup_from(book, images, 7)
}

/// [`markup`], laid out first with `digits` a link.
#[cfg(any(test, feature = "test-support"))]
pub(super) fn markup_from(book: &Edition, images: &[&str], digits: usize) -> (Vec<u8>, usize) {
    let plan = plan_from(book, images, digits);
    let mut text = Vec::new();
    render(book, images, &plan, &mut |piece| {
        text.extend_from_slice(piece)
    });
    (text, plan.start)
}

/// Where the book's text puts every target: see [`Plan`].
///
/// A `filepos` has as many digits as the longest offset needs (seven for
/// these books), not the ten of Mobipocket's own tools: three bytes a link
/// that hardly compress. Readers parse the number (KindleUnpack:
/// `filepos=['"]?0*(\d+)`). The text is laid out with seven digits, the
/// number our books need, and again only if its length needs another.
pub fn plan(book: &Edition, images: &[&str]) -> Plan {
    plan_from(book, images, 7)
}

/// [`plan`], laid out first with `digits` a link. The links can be written
/// only once the text's length has that many digits, since an offset with
/// more would not fit.
fn plan_from(book: &Edition, images: &[&str], mut digits: usize) -> Plan {
    loop {
        let (placed, len) = layout(book, images, digits, None, &mut |_| {});
        if len.to_string().len() == digits {
            let start = placed[&Target::Contents];
            return Plan {
                digits,
                placed,
                len,
                start,
            };
        }
        digits = needed(len);
    }
}

/// The digits an offset below `len` takes, as the text of that length
/// needs them.
fn needed(len: usize) -> usize {
    len.to_string().len()
}

/// Writes the book's text, laid out as `plan` found, into `out` a few
/// screens at a time, each link written as it goes.
pub fn render(book: &Edition, images: &[&str], plan: &Plan, out: &mut dyn FnMut(&[u8])) {
    let (_, len) = layout(book, images, plan.digits, Some(&plan.placed), out);
    debug_assert_eq!(len, plan.len);
}

/// The book's text with `digits` a link, into `out`: each link's digits
/// from `known`, or zeros if the targets are not placed yet. Returns where
/// each target starts and the text's length.
fn layout(
    book: &Edition,
    images: &[&str],
    digits: usize,
    known: Option<&FxHashMap<Target, usize>>,
    out: &mut dyn FnMut(&[u8]),
) -> (FxHashMap<Target, usize>, usize) {
    let mut t = Text {
        buf: Vec::with_capacity(2 * PIECE),
        base: 0,
        placed: FxHashMap::default(),
        known,
        digits,
        scratch: String::new(),
        out,
    };
    // Each cell image's tag, made once: `recindex` counts from 1. A Kindle
    // shows the image at its own size (160 pixels: a row of three fits its
    // 600-pixel screen), as MOBI 6 readers ignore CSS. Readers built on a
    // browser read the KF8 part, where CSS fits a row to the screen.
    // With a picture under the board, the bottom row's images are the
    // plain ones the rows above show.
    let shown = |i: usize| book.under.map_or(i, |u| u.above(i));
    let recindex: Vec<Option<String>> = (0..book.images.len())
        .map(|i| {
            let at = images.iter().position(|n| *n == book.images[shown(i)])?;
            Some(format!("<img recindex={}>", at + 1))
        })
        .collect();
    let under = book.under.map(|u| {
        let tag = recindex[u.image].as_deref();
        tag.expect("the book carries the picture under the board")
    });
    t.push("<html><head><guide><reference type=\"text\" title=\"Start\" ");
    t.filepos(Target::Contents);
    t.push("/></guide></head><body>");
    t.place(Target::Contents);
    t.push("<h2>");
    t.text(&book.title);
    t.push("</h2>");
    for p in intro(book) {
        t.push("<p>");
        t.text(p);
        t.push("</p>");
    }
    for (line, target) in &book.contents {
        t.push("<p>");
        t.link(*target);
        t.text(line);
        t.push("</a></p>");
    }
    let round = match crate::ebook::rounds_screens(book) {
        true => ROUND,
        false => 1,
    };
    for b in &book.screens {
        // Spaces after the screen before, so this one starts at a round
        // offset.
        let at = t.len() + PAGE_BREAK.len();
        t.buf
            .extend(std::iter::repeat_n(b' ', (round - at % round) % round));
        t.push(PAGE_BREAK);
        t.place(b.target);
        // A <div>, not a <p>: the Kindle and calibre indent a paragraph's
        // first line, which would push the top row right of the others.
        t.push("<div>");
        let mut grid = MobiGrid {
            text: &mut t,
            recindex: &recindex,
        };
        if book.column_moves {
            // A column a table cell, its pictures in its one link: a tap
            // anywhere in a peg's column follows it, and the cursor stops
            // once a column.
            grid.text.push(COLUMNS.0);
            write_columns(b, &mut grid);
            grid.text.push(COLUMNS.1);
        } else {
            write_grid(b, &mut grid);
        }
        if let Some(tag) = under {
            // A table ends its line.
            if !book.column_moves {
                t.push("<br>");
            }
            t.push(tag);
        }
        for line in caption(b) {
            t.push("<br>");
            t.text(line);
        }
        for (target, words) in b.book_nav() {
            t.push(" ");
            t.link(target);
            t.text(words);
            t.push("</a>");
        }
        t.push("</div>");
        t.flush(false);
    }
    t.push("</body></html>");
    t.flush(true);
    let len = t.len();
    (t.placed, len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hanoi::{self, Hanoi};
    use crate::solver::Solver;

    /// Text goes out as ASCII, so no character is split across records.
    #[test]
    fn text_is_ascii_with_character_references() {
        let mut out = |_: &[u8]| {};
        let mut t = Text {
            buf: Vec::new(),
            base: 0,
            placed: FxHashMap::default(),
            known: None,
            digits: 7,
            scratch: String::new(),
            out: &mut out,
        };
        t.text("caf\u{e9} & \u{2014}");
        assert_eq!(t.buf, b"caf&#233; &amp; &#8212;");
    }

    #[test]
    fn links_get_as_many_digits_as_the_text_needs() {
        // A text longer than its links' digits can count is laid out
        // again, not filled in: started at one digit, this book (under
        // 100 KB of text) gets five, as it does from the usual seven.
        let hanoi = Solver::<Hanoi>::with_rules(hanoi::Rules { discs: 3 });
        let book = crate::editions::two_player::edition("hanoi", hanoi.graph(), None);
        let (text, start) = markup_from(&book, book.images, 1);
        assert_eq!((text.clone(), start), markup(&book, book.images));
        let digits = text.len().to_string().len();
        assert_eq!(digits, 5);
        let text = String::from_utf8(text).unwrap();
        for link in text.split("filepos=").skip(1) {
            let n = link.bytes().take_while(u8::is_ascii_digit).count();
            assert_eq!(n, digits, "{link:.20}");
        }
    }

    /// The text goes out a few screens at a time, however long the book
    /// (the 5-disc Towers of Hanoi's, 0.6 MB, here): no piece much over
    /// [`PIECE`] bytes, and all of them the text laid out whole, whose
    /// length and start the plan knew.
    #[test]
    fn the_text_is_handed_on_in_pieces_that_do_not_grow_with_the_book() {
        let hanoi = Solver::<Hanoi>::with_rules(hanoi::Rules { discs: 5 });
        let book = crate::editions::two_player::edition("hanoi", hanoi.graph(), None);
        let plan = plan(&book, book.images);
        let (mut text, mut largest, mut pieces) = (Vec::new(), 0, 0);
        render(&book, book.images, &plan, &mut |piece| {
            text.extend_from_slice(piece);
            largest = largest.max(piece.len());
            pieces += 1;
        });
        assert_eq!(text.len(), plan.len);
        assert!(text.len() > 20 * PIECE, "{} bytes", text.len());
        assert!(pieces > 20 && largest < PIECE + 4096, "{pieces} {largest}");
        assert!((text, plan.start) == markup(&book, book.images));
    }

    /// A board whose every move is a column (the Towers of Hanoi's pegs)
    /// is a table of a cell a column, each column's pictures, the air and
    /// the three levels, one over the other inside its one `filepos`
    /// link, which lands on the `<` of its target's screen: a tap on the
    /// disc, the peg or the air follows it, and a cursor moving from link
    /// to link stops once a column. The base follows the table.
    #[test]
    fn each_peg_s_column_is_one_link_around_its_pictures() {
        let hanoi = Solver::<Hanoi>::with_rules(hanoi::Rules { discs: 3 });
        let book = crate::editions::analysis::edition("hanoi-analysis", &hanoi, "hanoi");
        let (text, _) = markup(&book, book.images);
        let text = String::from_utf8(text).unwrap();
        let mut starts = FxHashMap::default();
        for ((at, _), b) in text.match_indices(PAGE_BREAK).zip(&book.screens) {
            starts.insert(b.target, at + PAGE_BREAK.len());
        }
        assert_eq!(starts.len(), book.screens.len());
        let (mut links, mut unlinked) = (0, 0);
        for b in &book.screens {
            let screen = &text[starts[&b.target]..];
            let board = screen.strip_prefix("<div>").unwrap();
            let board = board.strip_prefix(COLUMNS.0).unwrap();
            let (board, after) = board.split_once(COLUMNS.1).unwrap();
            assert!(after.starts_with("<img recindex="), "the base: {after:.40}");
            let columns: Vec<&str> = (board.strip_prefix("<td>").unwrap())
                .strip_suffix("</td>")
                .unwrap()
                .split("</td><td>")
                .collect();
            assert_eq!(columns.len(), 3, "{board}");
            for (c, column) in columns.iter().enumerate() {
                let pictures = match b.cells.get(c).link() {
                    Some(target) => {
                        let rest = column.strip_prefix("<a filepos=").unwrap();
                        let (at, rest) = rest.split_once('>').unwrap();
                        assert_eq!(at.parse::<usize>().unwrap(), starts[&target], "{column}");
                        links += 1;
                        rest.strip_suffix("</a>").unwrap()
                    }
                    None => {
                        unlinked += 1;
                        column
                    }
                };
                let pictures: Vec<&str> = pictures.split("<br>").collect();
                assert_eq!(pictures.len(), 4, "the air and three levels: {column}");
                for p in pictures {
                    let n = p.strip_prefix("<img recindex=").unwrap();
                    let n = n.strip_suffix('>').unwrap();
                    assert!(n.parse::<usize>().is_ok(), "{column}");
                }
            }
        }
        // Pegs that link and pegs that do not (an empty one, with no disc
        // lifted).
        assert!(links > 0 && unlinked > 0, "{links} {unlinked}");
    }
}
