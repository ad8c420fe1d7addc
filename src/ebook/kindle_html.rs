//! The Kindle source edition: the whole book as one HTML page, with
//! hex-named anchors and a CSS page break before each board, and an OPF
//! package beside it that names the cover, the start and the contents, for
//! people who convert with kindlegen, Kindle Previewer or calibre. Images
//! sit beside both.
//!
//! Invariants: every `href="#..."` names an `id` in the same file; kindlegen
//! builds the package with no warning (`tests/site/kindlegen.rs`).

use maud::{DOCTYPE, Markup, Render, html};

use super::{caption, intro};
use crate::markup::{Grid, PlainRows, Written, escape, write_columns, write_grid};
use crate::screen::{CellView, Edition, Screen, Target};

/// A link's `href`: `#` and the target's anchor. Anchors are hex digits,
/// letters and hyphens, so nothing needs escaping.
struct Href(Target);

impl Render for Href {
    fn render_to(&self, buffer: &mut String) {
        buffer.push('#');
        self.0.push_anchor(buffer);
    }
}

/// An anchor name, written the same way.
struct Id(Target);

impl Render for Id {
    fn render_to(&self, buffer: &mut String) {
        self.0.push_anchor(buffer);
    }
}

/// A screen's grid: rows split by line breaks, GIF images, `#` links.
struct KindleGrid<'a> {
    out: &'a mut String,
    images: &'a [&'static str],
    /// The rows without a link written so far, for a grid of rows.
    rows: Option<&'a mut PlainRows>,
}

impl Grid for KindleGrid<'_> {
    fn row(&mut self, index: usize) {
        if index > 0 {
            self.out.push_str("<br>");
        }
    }

    fn link(&mut self, target: Target) {
        self.out.push_str("<a href=\"");
        Href(target).render_to(self.out);
        self.out.push_str("\">");
    }

    fn image(&mut self, cell: &CellView) {
        self.out.push_str("<img src=\"");
        self.out.push_str(self.images[cell.look.image]);
        self.out.push_str(".gif\" alt=\"");
        escape(self.out, cell.look.label);
        self.out.push_str("\">");
    }

    fn end_link(&mut self) {
        self.out.push_str("</a>");
    }

    fn column(&mut self, _: usize) {
        self.out.push_str("<td>");
    }

    fn end_column(&mut self) {
        self.out.push_str("</td>");
    }

    fn stack(&mut self) {
        self.out.push_str("<br>");
    }

    fn plain_rows(&mut self) -> Option<(&mut PlainRows, Written<'_>)> {
        Some((self.rows.as_deref_mut()?, Written::Text(self.out)))
    }

    fn quiet_image(&mut self, cell: &CellView) {
        self.out.push_str("<img src=\"");
        self.out.push_str(self.images[cell.look.image]);
        self.out.push_str(".gif\" alt=\"\">");
    }
}

/// A screen's grid as markup, written straight into the page: its rows,
/// or, for a board whose every move is a column, a column a table cell
/// ([`Columns`]).
struct GridOf<'a>(&'a [&'static str], &'a Screen);

impl Render for GridOf<'_> {
    fn render_to(&self, buffer: &mut String) {
        PlainRows::of_thread((self.0.as_ptr() as usize, "Kindle source"), |rows| {
            let mut g = KindleGrid {
                out: buffer,
                images: self.0,
                rows: Some(rows),
            };
            write_grid(self.1, &mut g);
        });
    }
}

/// A board whose every move is a column (the Towers of Hanoi's pegs) as
/// a table of one row, a cell a column, its pictures one over the other in
/// the column's one link ([`write_columns`]): a tap anywhere in a peg's
/// column follows it, in a browser, in calibre and in both parts of the
/// book kindlegen makes, and a screen reader hears a column once. The
/// table has no spacing or padding, so its columns meet as a row's
/// pictures do: said as attributes, which kindlegen keeps in its MOBI 6
/// part (it drops the same said in CSS) as in its KF8 part.
struct Columns<'a>(&'a [&'static str], &'a Screen);

impl Render for Columns<'_> {
    fn render_to(&self, buffer: &mut String) {
        buffer.push_str("<table class=\"c\" cellspacing=\"0\" cellpadding=\"0\"><tr>");
        let mut g = KindleGrid {
            out: buffer,
            images: self.0,
            rows: None,
        };
        write_columns(self.1, &mut g);
        buffer.push_str("</tr></table>");
    }
}

/// The stylesheet: no first-line indent (calibre and Kindle indent a
/// `<p>`), so the rows of a board line up; each board on a page of its
/// own. kindlegen takes no `</mbp:pagebreak>`, and a browser would nest
/// the rest of the book in an unclosed `<mbp:pagebreak/>`, so the break is
/// CSS, which kindlegen and calibre turn into their own.
const CSS: &str = "p{text-indent:0}.b{page-break-before:always}";

/// What a book of boards of columns ([`Columns`]) adds to [`CSS`]: a
/// column's pictures touch, with no room under a picture for the letters'
/// descent, at any size of the text.
const COLUMN_CSS: &str = ".c td{line-height:0}.c img{vertical-align:top}";

/// The book as one HTML document, held whole: [`write_to`] into a `Vec`.
pub fn write(book: &Edition) -> Vec<u8> {
    let mut out = Vec::new();
    write_to(book, &mut out).expect("a Vec takes every write");
    out
}

/// How many bytes of screens are rendered before they go to the writer:
/// a few pieces of a file system's size, whatever the book's length.
const FLUSH: usize = 1 << 16;

/// The book as one HTML document, written into `out` a screen at a time
/// as it is rendered (a 7-disc Towers of Hanoi book is 12 MB of it), in
/// pieces of about [`FLUSH`] bytes. Not minified: maud writes no spare
/// whitespace.
pub fn write_to(book: &Edition, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    // The document's start, up to the contents; its elements open here
    // and close after the screens, so it is written as maud writes them.
    let head: Markup = html! {
        head {
            meta charset="utf-8";
            title { (&book.title) }
            style { (CSS) @if book.column_moves { (COLUMN_CSS) } }
        }
    };
    let contents: Markup = html! {
        div id=(Target::Contents.anchor()) {
            h2 { (&book.title) }
            @for p in intro(book) { p { (p) } }
            @for (line, target) in &book.contents { p { a href=(Href(*target)) { (line) } } }
        }
    };
    let mut text = String::with_capacity(2 * FLUSH);
    DOCTYPE.render_to(&mut text);
    text.push_str("<html lang=\"en\">");
    text.push_str(&head.0);
    text.push_str("<body>");
    text.push_str(&contents.0);
    for b in &book.screens {
        screen(book, b).render_to(&mut text);
        if text.len() >= FLUSH {
            out.write_all(text.as_bytes())?;
            text.clear();
        }
    }
    text.push_str("</body></html>");
    out.write_all(text.as_bytes())
}

/// A screen: a paragraph of its rows of pictures, a line break, its
/// caption and its links; or, for a board of columns, a `<div>` (a table
/// may not stand in a paragraph) of the table, then the same words.
fn screen(book: &Edition, b: &Screen) -> Markup {
    match book.column_moves {
        false => html! {
            p.b id=(Id(b.target)) {
                (GridOf(book.images, b))
                @for line in caption(b) { br; (line) }
                @for (target, words) in b.book_nav() { " " a href=(Href(target)) { (words) } }
            }
        },
        true => html! {
            div.b id=(Id(b.target)) {
                (Columns(book.images, b))
                @for (i, line) in caption(b).enumerate() { @if i > 0 { br; } (line) }
                @for (target, words) in b.book_nav() { " " a href=(Href(target)) { (words) } }
            }
        },
    }
}

/// The OPF package beside the book's HTML (its name is the HTML's with
/// `.opf` for `.html`): the HTML, its images and the cover, the start of
/// reading and the contents, which is all kindlegen asks of a book.
pub fn opf(book: &Edition) -> Vec<u8> {
    let stem = book.book_stem();
    let html = super::KINDLE_SOURCE.file_name(book);
    let mut manifest =
        format!("<item id=\"text\" href=\"{html}\" media-type=\"application/xhtml+xml\"/>");
    for name in book.used_images().iter().copied().chain([book.cover()]) {
        manifest +=
            &format!("<item id=\"i-{name}\" href=\"{name}.gif\" media-type=\"image/gif\"/>");
    }
    let mut title = String::new();
    escape(&mut title, &book.title);
    let start = format!("{html}#{}", Target::Contents.anchor());
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<package xmlns=\"http://www.idpf.org/2007/opf\" \
version=\"2.0\" unique-identifier=\"id\"><metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\
<dc:identifier id=\"id\">urn:tictactoe-book:{stem}</dc:identifier><dc:title>{title}</dc:title>\
<dc:creator>{author}</dc:creator><dc:language>en</dc:language><meta name=\"cover\" content=\"i-{cover}\"/>\
</metadata><manifest>{manifest}</manifest><spine><itemref idref=\"text\"/></spine><guide>\
<reference type=\"toc\" title=\"Contents\" href=\"{start}\"/>\
<reference type=\"text\" title=\"Start\" href=\"{start}\"/></guide></package>\n",
        author = super::AUTHOR,
        cover = book.cover(),
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hanoi::{self, Hanoi};
    use crate::solver::Solver;

    /// The book as one maud document, held whole: what [`write_to`]
    /// wrote before it streamed, kept as its yardstick.
    fn whole(book: &Edition) -> Vec<u8> {
        let page: Markup = html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    title { (&book.title) }
                    style { (CSS) @if book.column_moves { (COLUMN_CSS) } }
                }
                body {
                    div id=(Target::Contents.anchor()) {
                        h2 { (&book.title) }
                        @for p in intro(book) { p { (p) } }
                        @for (line, target) in &book.contents { p { a href=(Href(*target)) { (line) } } }
                    }
                    @for b in &book.screens { (screen(book, b)) }
                }
            }
        };
        page.0.into_bytes()
    }

    /// A writer that counts its writes and the largest.
    #[derive(Default)]
    struct Pieces {
        bytes: Vec<u8>,
        largest: usize,
        writes: usize,
    }

    impl std::io::Write for Pieces {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.largest = self.largest.max(buf.len());
            self.writes += 1;
            self.bytes.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The book written a screen at a time is byte for byte the whole
    /// document, and no piece holds much more than [`FLUSH`] bytes, however
    /// long the book (the 5-disc Towers of Hanoi's, 1.2 MB, here).
    #[test]
    fn the_streamed_book_is_the_whole_document_in_small_pieces() {
        let hanoi = Solver::<Hanoi>::with_rules(hanoi::Rules { discs: 5 });
        let book = crate::editions::two_player::edition("hanoi", hanoi.graph(), None);
        let book = book.for_books();
        let mut pieces = Pieces::default();
        write_to(&book, &mut pieces).unwrap();
        let want = whole(&book);
        assert!(pieces.bytes == want, "the streamed book differs");
        assert!(want.len() > 10 * FLUSH, "{} bytes", want.len());
        assert!(pieces.writes > 10);
        assert!(pieces.largest < FLUSH + 4096, "{}", pieces.largest);
    }

    /// A board whose every move is a column (the Towers of Hanoi's pegs)
    /// is a table of a cell a column, each column's pictures (the air and
    /// three levels) one over the other inside its one link: the top
    /// picture's words name the column and its move, the others have none,
    /// so a screen reader hears the column once; a column with no link
    /// says each cell, as a board of rows does.
    #[test]
    fn each_peg_s_column_is_one_link_around_its_pictures() {
        let hanoi = Solver::<Hanoi>::with_rules(hanoi::Rules { discs: 3 });
        let book = crate::editions::analysis::edition("hanoi-analysis", &hanoi, "hanoi");
        let page = String::from_utf8(write(&book)).unwrap();
        assert!(page.contains(COLUMN_CSS));
        let image = |cell: &CellView, alt: &str| {
            let mut out = format!("<img src=\"{}.gif\" alt=\"", book.images[cell.look.image]);
            escape(&mut out, alt);
            out + "\">"
        };
        for b in &book.screens {
            let mut want = format!(
                "<div class=\"b\" id=\"{}\"><table class=\"c\" cellspacing=\"0\" cellpadding=\"0\"><tr>",
                b.target.anchor()
            );
            for c in 0..3 {
                let column: Vec<CellView> = b.cells.column(c).collect();
                assert_eq!(column.len(), 4, "the air and three levels");
                want += "<td>";
                let pictures: Vec<String> = match column[0].link() {
                    Some(target) => {
                        want += &format!("<a href=\"#{}\">", target.anchor());
                        let quiet = column[1..].iter().map(|cell| image(cell, ""));
                        [image(&column[0], column[0].look.label)]
                            .into_iter()
                            .chain(quiet)
                            .collect()
                    }
                    None => column
                        .iter()
                        .map(|cell| image(cell, cell.look.label))
                        .collect(),
                };
                want += &pictures.join("<br>");
                if column[0].link().is_some() {
                    want += "</a>";
                }
                want += "</td>";
            }
            want += "</tr></table>";
            assert!(page.contains(&want), "{want}");
        }
    }
}
