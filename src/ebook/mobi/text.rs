//! The MOBI 6 part's text: the Mobipocket HTML stream, every screen a
//! page with `filepos` links to the `<` of its target's first element,
//! and `recindex` images at their own size (and a picture under the
//! board, if the game has one: [`crate::game::UnderBoard`]).

use rustc_hash::FxHashMap;

use crate::ebook::{caption, intro};
use crate::markup::{Grid, escape, push_ascii, write_grid};
use crate::screen::{CellView, Edition, Target};

/// Where a screen starts when a book rounds them
/// ([`crate::ebook::rounds_screens`]): at a multiple of 100, so every `filepos`
/// ends in `00`.
const ROUND: usize = 100;

/// What goes between two screens.
const PAGE_BREAK: &str = "<mbp:pagebreak/>";

/// HTML text with `filepos` links filled in once every target is placed.
pub(super) struct Text {
    buf: Vec<u8>,
    placed: FxHashMap<Target, usize>,
    links: Vec<(usize, Target)>,
    /// Digits of every `filepos`: enough for the longest offset, the same
    /// for all, so filling them in moves nothing.
    digits: usize,
    /// Room for escaping text.
    scratch: String,
}

impl Text {
    fn push(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
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

    /// `filepos=` and the digits to be filled in.
    fn filepos(&mut self, target: Target) {
        self.push("filepos=");
        self.links.push((self.buf.len(), target));
        self.buf.extend(std::iter::repeat_n(b'0', self.digits));
    }

    fn link(&mut self, target: Target) {
        self.push("<a ");
        self.filepos(target);
        self.push(">");
    }

    /// Records that `target` starts here: at the `<` about to be written.
    fn place(&mut self, target: Target) {
        self.placed.insert(target, self.buf.len());
    }

    fn finish(mut self) -> Vec<u8> {
        let d = self.digits;
        for (at, target) in &self.links {
            let mut pos = self.placed[target];
            // Zero-padded decimal, by hand: a book has tens of thousands.
            for b in self.buf[*at..*at + d].iter_mut().rev() {
                *b = b'0' + (pos % 10) as u8;
                pos /= 10;
            }
            assert_eq!(pos, 0, "an offset that fits its digits");
        }
        self.buf
    }
}

/// A screen's grid: rows split by line breaks, `filepos` links, and
/// each image's tag (`recindex[i]` for the edition's image `i`).
pub(super) struct MobiGrid<'a> {
    text: &'a mut Text,
    recindex: &'a [Option<String>],
}

impl Grid for MobiGrid<'_> {
    fn row(&mut self, index: usize) {
        if index > 0 {
            self.text.push("<br>");
        }
    }

    fn link(&mut self, target: Target) {
        self.text.link(target);
    }

    fn image(&mut self, cell: &CellView) {
        let tag = self.recindex[cell.image].as_deref();
        self.text
            .push(tag.expect("the book carries every image its screens use"));
    }

    fn end_link(&mut self) {
        self.text.push("</a>");
    }
}

/// The book as one Mobipocket HTML stream, HTML 3.2 with `filepos` links,
/// `recindex` images (`images` names them in record order) and
/// `<mbp:pagebreak/>` between screens. Returns the text and the offset
/// where reading starts (the opening page).
///
/// A `filepos` has as many digits as the longest offset needs (seven for
/// these books), not the ten of Mobipocket's own tools: three bytes a link
/// that hardly compress. Readers parse the number (KindleUnpack:
/// `filepos=['"]?0*(\d+)`). The text is laid out with seven digits, the
/// number our books need, and again only if its length needs another.
pub fn markup(book: &Edition, images: &[&str]) -> (Vec<u8>, usize) {
    markup_from(book, images, 7)
}

/// [`markup`], laid out first with `digits` a link. The links are filled
/// in only once the text's length has that many digits, since an offset
/// with more would not fit.
pub(super) fn markup_from(book: &Edition, images: &[&str], mut digits: usize) -> (Vec<u8>, usize) {
    loop {
        let (text, start) = layout(book, images, digits);
        let needed = text.buf.len().to_string().len();
        if needed == digits {
            return (text.finish(), start);
        }
        digits = needed;
    }
}

/// The book's text with `digits` a link, the links not yet filled in.
pub(super) fn layout(book: &Edition, images: &[&str], digits: usize) -> (Text, usize) {
    let mut t = Text {
        buf: Vec::new(),
        placed: FxHashMap::default(),
        links: Vec::new(),
        digits,
        scratch: String::new(),
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
        let at = t.buf.len() + PAGE_BREAK.len();
        t.buf
            .extend(std::iter::repeat_n(b' ', (round - at % round) % round));
        t.push(PAGE_BREAK);
        t.place(b.target);
        // A <div>, not a <p>: the Kindle and calibre indent a paragraph's
        // first line, which would push the top row right of the others.
        t.push("<div>");
        write_grid(
            b,
            &mut MobiGrid {
                text: &mut t,
                recindex: &recindex,
            },
        );
        if let Some(tag) = under {
            t.push("<br>");
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
    }
    t.push("</body></html>");
    let start = t.placed[&Target::Contents];
    (t, start)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text goes out as ASCII, so no character is split across records.
    #[test]
    fn text_is_ascii_with_character_references() {
        let mut t = Text {
            buf: Vec::new(),
            placed: FxHashMap::default(),
            links: Vec::new(),
            digits: 7,
            scratch: String::new(),
        };
        t.text("caf\u{e9} & \u{2014}");
        assert_eq!(t.buf, b"caf&#233; &amp; &#8212;");
    }

    #[test]
    fn links_get_as_many_digits_as_the_text_needs() {
        // A text longer than its links' digits can count is laid out
        // again, not filled in: started at one digit, this book (under
        // 100 KB of text) gets five, as it does from the usual seven.
        let hanoi = crate::site::hanoi_solver(3);
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
}
