//! The XHTML of the books' pages, which the EPUB and a MOBI's KF8 part
//! share: the stylesheet, the content document around a body, the opening
//! page's body, a screen as a `<div>`, each square's SVG as the books draw
//! it ([`svg`]), and the [`Layout`] of screens into
//! files of at most [`MAX_FILE_BYTES`], worked out once a book
//! ([`super::Book::layout`]).
//!
//! Invariant: pure; each file's size is known before it is written
//! ([`board_len`] is exactly what [`board`] writes, every link taken as
//! one to another file).

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use super::{Book, caption, intro};
use crate::markup::{Grid, PlainRows, Written, escape as escape_onto, escaped_len, write_grid};
use crate::screen::{CellView, Edition, Screen, Target};

/// The most bytes of boards in one content file: well under the 300 KB
/// that older readers choke on, and as large as that allows, since links
/// within a file are shorter and a larger file compresses better.
pub const MAX_FILE_BYTES: usize = 250_000;

/// The package's last-modified date, fixed so that builds are identical.
pub(super) const MODIFIED: &str = "2009-03-14T00:00:00Z";

/// The stylesheet of `book`, whose boards all have the first one's
/// columns and [`Edition::aspect`].
///
/// One screen a page: each starts a new page and is kept whole, its cells
/// scaled to the page, and no paragraph is indented, so the rows line up.
///
/// Readers that paginate with CSS columns (epub.js, and so many apps)
/// ignore a page break inside columns, and would set two or three short
/// boards (the Towers of Hanoi's) on one screen. So each screen is also at
/// least as tall as its page (`min-height:100%` of the body, which such a
/// reader sizes to the page; elsewhere the body's height is `auto` and it
/// does nothing), and `flow-root` keeps the first paragraph's margin
/// inside it, so that a screen is never a little taller than its page.
///
/// A reader that paginates with columns and does not rewrite page breaks
/// as column breaks (foliate-js does for an EPUB, not for a MOBI's KF8
/// part, whose stylesheet this also is) sets `column-width` in the `style`
/// of the `<html>`: there a screen breaks before the column too. A Kindle
/// sets no such style and keeps the page break (a `column` break would
/// replace it: both are `break-before`).
///
/// The board is as large as the page allows: a cell is a little under a
/// column's share of the width (`31%` for three), and no wider than lets
/// the board and [`CAPTION_ROOM`] fit the page's height. The height is
/// `100vmin`: in a paginating reader the content's frame is one page high
/// and many pages wide, so its smaller side is the page's height (and in
/// a portrait page the width's share is the smaller one anyway). Not
/// `vh`: foliate-js rewrites `vh` in an EPUB into its window's pixels,
/// not the page's. Each size follows a plain percentage for a reader that
/// drops it; kindlegen keeps all of them (and drops `max-width`, W28001,
/// so none is used). Cells sit on the top of their line, so that a row's
/// line box is exactly its images and the rows touch.
pub(super) fn css(book: &Edition) -> String {
    let columns = book.screens.first().map_or(3, |s| s.columns);
    let share = (93 / columns.max(1)).max(1);
    // The board's height over one cell's width, as the books draw it
    // ([`svg`]).
    let per_cell = columns as f64 * book.aspect * f64::from(book.book_stretch);
    // Room for the caption: a line more for each line of text past the
    // first, counting a line as long as it wraps on a narrow page (the
    // games against the computer say the computer's move and the game in
    // one line that wraps).
    let lines = book
        .screens
        .iter()
        .map(|s| {
            s.lines
                .iter()
                .map(|l| l.len().div_ceil(WRAP))
                .sum::<usize>()
        })
        .max()
        .unwrap_or(0);
    let room = CAPTION_ROOM + LINE_ROOM * lines.saturating_sub(1) as f64;
    let cell =
        format!("width:{share}%;width:min({share}%,calc((100vmin - {room}em)/{per_cell:.3}))");
    let mut css = format!(
        "body{{margin:0;text-align:center}}\
body>div{{page-break-before:always;break-before:page;page-break-inside:avoid;break-inside:avoid;min-height:100%;display:flow-root}}\
[style*=column-width]>body>div{{break-before:column}}\
p{{text-indent:0;margin:.3em 0}}\
img{{{cell};height:auto;border:0;vertical-align:top}}\
h1{{font-size:1.4em}}"
    );
    if book.column_moves {
        css.push_str(&column_css(&cell));
    }
    css
}

/// The SVG of the square `name` in `book`'s EPUB and KF8 part: the web's,
/// its height drawn [`Edition::book_stretch`] times its own
/// ([`stretched`]).
pub(super) fn svg<'a>(book: &Book<'a>, name: &str) -> Cow<'a, [u8]> {
    let web = book.assets.get(&format!("{name}.svg"));
    match book.edition.book_stretch {
        1 => Cow::Borrowed(web),
        by => stretched(web, by).map_or(Cow::Borrowed(web), Cow::Owned),
    }
}

/// `svg` with the `height` of its root element `by` times its own, its
/// `viewBox` kept: drawn to stretch (`preserveAspectRatio="none"`), its
/// picture is then `by` times as tall for its width wherever a reader
/// keeps a picture's own shape. `None` for a picture not drawn so, or
/// whose height is not a plain number (one of a `--static` of one's
/// own): it keeps its shape.
fn stretched(svg: &[u8], by: u32) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(svg).ok()?;
    let start = text.find("<svg")?;
    let root = &text[..start + text[start..].find('>')?];
    if !root.contains(" preserveAspectRatio=\"none\"") {
        return None;
    }
    let at = start + root[start..].find(" height=\"")? + " height=\"".len();
    let len = root[at..].find('"')?;
    let height: f64 = root[at..at + len].parse().ok()?;
    let mut out = String::with_capacity(text.len() + 4);
    out.push_str(&text[..at]);
    out.push_str(&(height * f64::from(by)).to_string());
    out.push_str(&text[at + len..]);
    Some(out.into_bytes())
}

/// The rules of a board whose moves are columns (the Towers of Hanoi's
/// pegs, whose one link is the top cell's), so that a tap anywhere in a
/// column follows its link, with no link more (a link in every cell made
/// the 7-disc books twice as large) and no markup more (the books stay
/// the size they were, and so does kindlegen's book of the EPUB, against
/// which the MOBI is measured): the top cell's link is a block in its
/// line, a `cell` wide, whose padding reaches down the whole column,
/// its negative margin the same, so the rows below do not move; its
/// `opacity` a hair under 1 (no colour changes) makes it a stacking
/// context, which paints, and so takes taps, above the lines after its
/// own (over which a tap would otherwise land on the paragraph); the
/// board's paragraph (a screen's first) clips it, so nothing under the
/// board is the link; and the pictures let a tap through, to the link
/// under the ones below it. No `position`, which kindlegen warns Kindles
/// do not support (W28003); kindlegen keeps every rule here.
fn column_css(cell: &str) -> String {
    format!(
        "div>p:first-child{{overflow:hidden}}\
div>p:first-child a{{display:inline-block;{cell};padding-bottom:100vmin;margin-bottom:-100vmin;opacity:.999;vertical-align:top}}\
div>p:first-child a img{{width:100%}}\
div>p:first-child img{{pointer-events:none}}"
    )
}

/// The height, in ems, a screen keeps below its board: two lines of
/// caption (its heading and a line of text), the links after it, and the
/// paragraphs' margins.
const CAPTION_ROOM: f64 = 4.5;

/// The characters of caption a narrow page (a column of epub.js's
/// two-page spread at 800x600) shows on one line.
const WRAP: usize = 48;

/// The height, in ems, of each further line of caption.
const LINE_ROOM: f64 = 1.5;

/// A content document: `title`, the stylesheet at `css`, and `body` in a
/// `<body>` with `body_attrs` (each with a space before it).
pub(super) fn page(title: &str, css: &str, body_attrs: &str, body: &str) -> String {
    let mut out = String::with_capacity(400 + body.len());
    page_onto(&mut out, title, css, body_attrs, |out| out.push_str(body));
    out
}

/// [`page`] onto `out`, its body written by `body`, so that a file of
/// boards is never copied whole.
pub(super) fn page_onto(
    out: &mut String,
    title: &str,
    css: &str,
    body_attrs: &str,
    body: impl FnOnce(&mut String),
) {
    out.push_str(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" \
xmlns:epub=\"http://www.idpf.org/2007/ops\" lang=\"en\" xml:lang=\"en\"><head><meta charset=\"utf-8\"/><title>",
    );
    escape_onto(out, title);
    out.push_str("</title><link rel=\"stylesheet\" type=\"text/css\" href=\"");
    out.push_str(css);
    out.push_str("\"/></head><body");
    out.push_str(body_attrs);
    out.push('>');
    body(out);
    out.push_str("</body></html>");
}

/// The content files of a book: the opening page, then the boards, packed
/// in book order into files of at most [`MAX_FILE_BYTES`].
pub(crate) struct Layout {
    /// The file of each screen, and of the contents.
    files: FxHashMap<Target, File>,
    /// The screens of each file of boards.
    pub(super) chunks: Vec<std::ops::Range<usize>>,
}

impl Layout {
    pub(super) fn new(book: &Edition) -> Layout {
        Layout::within(book, MAX_FILE_BYTES)
    }

    /// The layout of `book` in files of at most `max` bytes of boards
    /// (a file of one screen may be larger). Each link to another file is
    /// sized with a name as long as the book's longest ([`name_digits`]):
    /// the names are laid out with three digits first and, if the files
    /// need more, again with as many as they need, until the count fits
    /// the digits it was sized with. More digits only make screens
    /// longer, so files never fewer, and this ends.
    fn within(book: &Edition, max: usize) -> Layout {
        let srcs = srcs(book, ".png");
        let mut digits = name_digits(0);
        loop {
            let layout = Layout::pack(book, &srcs, max, digits);
            let needed = name_digits(layout.chunks.len());
            if needed <= digits {
                return layout;
            }
            digits = needed;
        }
    }

    /// Screens packed in book order into files of at most `max` bytes,
    /// each link to another file sized with a name of `digits` digits.
    fn pack(book: &Edition, srcs: &[String], max: usize, digits: usize) -> Layout {
        let mut rows = PlainRows::default();
        let mut files = FxHashMap::default();
        files.insert(Target::Contents, File::Front);
        let mut chunks: Vec<std::ops::Range<usize>> = Vec::new();
        let mut bytes = 0;
        for (i, b) in book.screens.iter().enumerate() {
            let size = board_len(srcs, b, digits, &mut rows);
            match chunks.last_mut() {
                Some(c) if bytes + size <= max => {
                    c.end = i + 1;
                    bytes += size;
                }
                _ => {
                    chunks.push(i..i + 1);
                    bytes = size;
                }
            }
            files.insert(b.target, File::Boards(chunks.len() as u32 - 1));
        }
        Layout { files, chunks }
    }

    /// A link to `target` from the file `from`.
    pub(super) fn href(&self, from: File, target: Target) -> String {
        let mut out = String::new();
        self.href_onto(&mut out, from, target);
        out
    }

    /// [`Layout::href`], onto `out`.
    pub(super) fn href_onto(&self, out: &mut String, from: File, target: Target) {
        let file = self.files[&target];
        if file != from {
            file.push_name(out);
        }
        if file == from || target != Target::Contents {
            out.push('#');
            target.push_anchor(out);
        }
    }
}

/// A content file of the package.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum File {
    /// The nav document.
    Nav,
    /// The opening page.
    Front,
    /// A file of boards, by its place among them.
    Boards(u32),
}

impl File {
    /// Its name, onto `out`.
    pub(super) fn push_name(self, out: &mut String) {
        use std::fmt::Write as _;
        match self {
            File::Nav => out.push_str("nav.xhtml"),
            File::Front => out.push_str("front.xhtml"),
            File::Boards(chunk) => {
                let _ = write!(out, "b{:03}.xhtml", chunk + 1);
            }
        }
    }
}

pub(super) fn board_file(chunk: usize) -> String {
    let mut out = String::with_capacity(12);
    File::Boards(chunk as u32).push_name(&mut out);
    out
}

/// The opening page's body onto `out`, the cover at `cover`; `href`
/// writes a link's address.
pub(super) fn front_body(
    out: &mut String,
    book: &Edition,
    cover: &str,
    href: &impl Fn(&mut String, Target),
) {
    out.push_str("<section id=\"contents\"><p><img class=\"cover\" src=\"");
    out.push_str(cover);
    out.push_str("\" alt=\"\"/></p><h1>");
    escape_onto(out, &book.title);
    out.push_str("</h1>");
    for p in intro(book) {
        out.push_str("<p>");
        escape_onto(out, p);
        out.push_str("</p>");
    }
    out.push_str("<ul>");
    for (line, target) in &book.contents {
        out.push_str("<li><a href=\"");
        href(out, *target);
        out.push_str("\">");
        escape_onto(out, line);
        out.push_str("</a></li>");
    }
    out.push_str("</ul></section>");
}

/// Each of the edition's images' `src`: its name and `ending`.
pub(super) fn srcs(book: &Edition, ending: &str) -> Vec<String> {
    book.images.iter().map(|n| format!("{n}{ending}")).collect()
}

/// A screen's grid in XHTML: rows split by line breaks, each image at its
/// `src` (by the edition's image index).
struct EpubGrid<'a, H> {
    out: &'a mut String,
    srcs: &'a [String],
    href: &'a H,
    rows: &'a mut PlainRows,
}

impl<H: Fn(&mut String, Target)> Grid for EpubGrid<'_, H> {
    fn row(&mut self, index: usize) {
        if index > 0 {
            self.out.push_str("<br/>");
        }
    }

    fn link(&mut self, target: Target) {
        self.out.push_str("<a href=\"");
        (self.href)(self.out, target);
        self.out.push_str("\">");
    }

    fn image(&mut self, cell: &CellView) {
        self.out.push_str("<img alt=\"");
        escape_onto(self.out, cell.look.label);
        self.out.push_str("\" src=\"");
        self.out.push_str(&self.srcs[cell.look.image]);
        self.out.push_str("\"/>");
    }

    fn end_link(&mut self) {
        self.out.push_str("</a>");
    }

    fn plain_rows(&mut self) -> Option<(&mut PlainRows, Written<'_>)> {
        Some((self.rows, Written::Text(self.out)))
    }
}

/// The digits of the longest name of a book of `files` files of boards:
/// three, as [`File::push_name`] pads them (`b001.xhtml`), or as many as
/// the last file's number has (`b1000.xhtml`).
fn name_digits(files: usize) -> usize {
    (files.max(1).ilog10() as usize + 1).max(3)
}

/// A link's length as [`Layout::new`] sizes it: as if to another file,
/// whose name has `digits` digits (a file of boards; the opening page's
/// name, `front.xhtml`, is no longer than three), an upper bound.
pub(super) fn far_len(target: Target, digits: usize) -> usize {
    "b.xhtml#".len() + digits + target.anchor_len()
}

/// How [`board_len_with`] sizes what [`board`] writes without writing
/// it: the images' addresses, each link's length, and each text's once
/// escaped (and, in a KF8 text, in ASCII).
pub(super) struct Sizes<'a> {
    /// Each image's `src`.
    pub srcs: &'a [String],
    /// A link's address's length.
    pub link: &'a dyn Fn(Target) -> usize,
    /// A text's length as written.
    pub text: fn(&str) -> usize,
}

/// Counts what [`EpubGrid`] writes, each link and text as `sizes` says.
struct EpubGridLen<'a> {
    len: usize,
    sizes: &'a Sizes<'a>,
    rows: &'a mut PlainRows,
}

impl Grid for EpubGridLen<'_> {
    fn row(&mut self, index: usize) {
        if index > 0 {
            self.len += "<br/>".len();
        }
    }

    fn link(&mut self, target: Target) {
        self.len += "<a href=\"\">".len() + (self.sizes.link)(target);
    }

    fn image(&mut self, cell: &CellView) {
        self.len += "<img alt=\"\" src=\"\"/>".len()
            + (self.sizes.text)(cell.look.label)
            + self.sizes.srcs[cell.look.image].len();
    }

    fn end_link(&mut self) {
        self.len += "</a>".len();
    }

    fn plain_rows(&mut self) -> Option<(&mut PlainRows, Written<'_>)> {
        Some((self.rows, Written::Len(&mut self.len)))
    }
}

/// The length [`board`] writes for `b`, every link as long as
/// [`far_len`] with names of `digits` digits, without writing it: the
/// files are sized by it, and rendering every screen once more only to
/// size it cost about as much as writing it. `rows` are the rows without
/// a link sized so far with these `srcs`.
pub(super) fn board_len(srcs: &[String], b: &Screen, digits: usize, rows: &mut PlainRows) -> usize {
    let sizes = Sizes {
        srcs,
        link: &|t| far_len(t, digits),
        text: escaped_len,
    };
    board_len_with(b, b.target.anchor_len(), &sizes, rows)
}

/// The length [`board`] writes for `b` with an id of `id_len` bytes, each
/// link and text as long as `sizes` says; `rows` are the rows without a
/// link sized so far with these `sizes`.
pub(super) fn board_len_with(
    b: &Screen,
    id_len: usize,
    sizes: &Sizes,
    rows: &mut PlainRows,
) -> usize {
    let mut g = EpubGridLen {
        len: 0,
        sizes,
        rows,
    };
    write_grid(b, &mut g);
    let caption: usize = caption(b)
        .enumerate()
        .map(|(i, line)| if i > 0 { "<br/>".len() } else { 0 } + (sizes.text)(line))
        .sum();
    let nav: usize = b
        .book_nav()
        .map(|(t, words)| {
            " <a href=\"\">".len() + (sizes.link)(t) + (sizes.text)(words) + "</a>".len()
        })
        .sum();
    "<div id=\"\"><p>".len() + id_len + g.len + "</p><p>".len() + caption + nav + "</p></div>".len()
}

/// One screen onto `out`, its `<div>` named `id` (the EPUB's is the
/// screen's anchor): its cells in rows, then its caption and, once the
/// game is over, its links. `srcs` are the images' addresses, `href`
/// writes a link's, and `rows` are the rows without a link written so
/// far with these `srcs`.
pub(super) fn board(
    out: &mut String,
    id: &str,
    srcs: &[String],
    b: &Screen,
    href: &impl Fn(&mut String, Target),
    rows: &mut PlainRows,
) {
    out.push_str("<div id=\"");
    out.push_str(id);
    out.push_str("\"><p>");
    write_grid(
        b,
        &mut EpubGrid {
            out,
            srcs,
            href,
            rows,
        },
    );
    out.push_str("</p><p>");
    for (i, line) in caption(b).enumerate() {
        if i > 0 {
            out.push_str("<br/>");
        }
        escape_onto(out, line);
    }
    for (target, words) in b.book_nav() {
        out.push_str(" <a href=\"");
        href(out, target);
        out.push_str("\">");
        escape_onto(out, words);
        out.push_str("</a>");
    }
    out.push_str("</p></div>");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files are sized by [`board_len`]: for every screen of every
    /// edition's book, it is the length [`board`] writes with every link
    /// to another file.
    #[test]
    fn board_len_is_what_board_writes_with_far_links() {
        let far = |out: &mut String, t: Target| {
            out.push_str("b001.xhtml#");
            t.push_anchor(out);
        };
        let (mut out, mut checked) = (String::new(), 0);
        for edition in crate::site::Solved::defaults(3).editions() {
            let book = edition.for_books();
            let srcs = srcs(&book, ".png");
            let (mut written, mut sized) = (PlainRows::default(), PlainRows::default());
            for b in &book.screens {
                out.clear();
                board(&mut out, &b.target.anchor(), &srcs, b, &far, &mut written);
                let len = board_len(&srcs, b, 3, &mut sized);
                assert_eq!(len, out.len(), "{}: {out}", book.slug);
                checked += 1;
            }
        }
        // Two editions of each tic-tac-toe position, the games, Hanoi's.
        assert!(checked > 2 * 5_478, "{checked}");
    }

    /// Past 999 files of boards, names grow a digit (`b1000.xhtml`), and
    /// the files are sized with it: in a layout of more than 999 files
    /// (tic-tac-toe's play edition, 5,478 screens, in files a two
    /// hundredth of the usual size), every screen is at most as long as
    /// it was sized, links and all, and so every file of more than one
    /// screen holds at most its bytes. Sized with three digits, as it
    /// once was, some screens are longer than sized.
    #[test]
    fn a_layout_past_999_files_sizes_links_with_the_longer_names() {
        use crate::games::tictactoe::Board;
        use crate::graph::StateGraph;
        let graph = StateGraph::<Board>::new();
        let edition = crate::editions::two_player::edition("two-player", &graph, None);
        let book = edition.for_books();
        let srcs = srcs(&book, ".svg");
        let max = MAX_FILE_BYTES / 200;
        let layout = Layout::within(&book, max);
        assert!(layout.chunks.len() > 999, "{}", layout.chunks.len());
        let digits = name_digits(layout.chunks.len());
        assert_eq!(digits, 4);
        let (mut out, mut longer) = (String::new(), 0);
        let mut rows: [PlainRows; 3] = Default::default();
        for (c, range) in layout.chunks.iter().enumerate() {
            let file = File::Boards(c as u32);
            let mut bytes = 0;
            for b in &book.screens[range.clone()] {
                out.clear();
                board(
                    &mut out,
                    &b.target.anchor(),
                    &srcs,
                    b,
                    &|out: &mut String, t| layout.href_onto(out, file, t),
                    &mut rows[0],
                );
                assert!(
                    out.len() <= board_len(&srcs, b, digits, &mut rows[1]),
                    "{out}"
                );
                longer += usize::from(out.len() > board_len(&srcs, b, 3, &mut rows[2]));
                bytes += out.len();
            }
            assert!(bytes <= max || range.len() == 1, "file {c}: {bytes}");
        }
        assert!(longer > 0);
        assert_eq!(name_digits(0), 3);
        assert_eq!(name_digits(999), 3);
        assert_eq!(name_digits(1000), 4);
    }

    /// A book whose moves are columns (the Towers of Hanoi's) stretches
    /// each column's link down it by its stylesheet alone, with nothing
    /// Kindles lack (epub.js and foliate-js follow a tap anywhere in the
    /// column: tests/e2e/readers.test.mjs); no other book's stylesheet
    /// changes.
    #[test]
    fn only_a_book_of_column_moves_stretches_its_links_down_the_column() {
        let mut columns = 0;
        for edition in crate::site::Solved::defaults(4).editions() {
            let css = css(&edition.for_books());
            let stretched = css.contains(
                "div>p:first-child a{display:inline-block;width:31%;width:min(31%,calc((100vmin - ",
            ) && css
                .contains("padding-bottom:100vmin;margin-bottom:-100vmin;opacity:.999;")
                && css.contains("div>p:first-child img{pointer-events:none}");
            assert_eq!(stretched, edition.column_moves, "{}: {css}", edition.slug);
            assert!(!css.contains("position"), "{css}");
            columns += usize::from(stretched);
        }
        assert_eq!(columns, 2, "the Towers of Hanoi and its analysis");
    }

    /// A picture drawn to stretch is drawn `by` times as tall: its root's
    /// `height`, not its `viewBox`, nor any other `height`.
    #[test]
    fn a_stretched_svg_is_taller_for_its_width() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"23\" \
viewBox=\"0 0 100 23\" preserveAspectRatio=\"none\"><rect x=\"46\" y=\"0\" width=\"8\" height=\"23\"/></svg>";
        let want = svg.replacen("height=\"23\"", "height=\"46\"", 1);
        assert_eq!(
            String::from_utf8(stretched(svg.as_bytes(), 2).unwrap()).unwrap(),
            want
        );
        // After a prolog too; a picture not drawn to stretch, or whose
        // height is not a plain number, keeps its shape.
        let prolog = format!("<?xml version=\"1.0\"?><!-- a > b -->{svg}");
        let want = prolog.replacen("height=\"23\"", "height=\"46\"", 1);
        let got = stretched(prolog.as_bytes(), 2).unwrap();
        assert_eq!(String::from_utf8(got).unwrap(), want);
        for kept in [
            svg.replace(" preserveAspectRatio=\"none\"", ""),
            svg.replacen("height=\"23\"", "height=\"23px\"", 1),
            svg.replacen("height=\"23\"", "height='23'", 1),
            "<svg/>".to_string(),
            String::new(),
        ] {
            assert_eq!(stretched(kept.as_bytes(), 2), None, "{kept}");
        }
    }

    /// The Towers of Hanoi's books draw its pictures twice as tall
    /// ([`crate::game::Game::BOOK_STRETCH`]), and size a cell for the
    /// board so drawn; every other book draws the web's SVGs as they are.
    #[test]
    fn only_the_towers_of_hanoi_s_books_draw_their_pictures_taller() {
        let assets = crate::assets::Assets::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static"),
            &crate::site::images(),
        )
        .unwrap();
        for edition in crate::site::Solved::defaults(4).editions() {
            let book = edition.for_books();
            let shared = Book::new(&book, &assets);
            let columns = book.screens[0].columns as f64;
            let per_cell = columns * book.aspect * f64::from(book.book_stretch);
            assert!(
                css(&book).contains(&format!("/{per_cell:.3}))")),
                "{}",
                book.slug
            );
            for name in book.used_images() {
                let web = assets.get(&format!("{name}.svg"));
                let drawn = svg(&shared, name);
                assert_eq!(
                    *drawn == *web,
                    book.book_stretch == 1,
                    "{}: {name}",
                    book.slug
                );
            }
            assert_eq!(book.book_stretch, if book.column_moves { 2 } else { 1 });
        }
    }
}
