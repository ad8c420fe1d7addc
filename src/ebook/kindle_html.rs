//! The Kindle-ready single HTML file: the whole book in one page, with
//! hex-named anchors and `<mbp:pagebreak>` between boards, for people who
//! convert with calibre or Kindle Previewer. Images sit beside it.
//!
//! Invariant: every `href="#..."` names an `id` in the same file.

use maud::{DOCTYPE, Markup, PreEscaped, Render, html};

use super::{caption, intro};
use crate::markup::{Grid, escape, write_grid};
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
    out: String,
    images: &'a [&'static str],
}

impl Grid for KindleGrid<'_> {
    fn row(&mut self, index: usize) {
        if index > 0 {
            self.out.push_str("<br>");
        }
    }

    fn link(&mut self, target: Target) {
        self.out.push_str("<a href=\"");
        Href(target).render_to(&mut self.out);
        self.out.push_str("\">");
    }

    fn image(&mut self, cell: &CellView) {
        self.out.push_str("<img src=\"");
        self.out.push_str(self.images[cell.image]);
        self.out.push_str(".gif\" alt=\"");
        escape(&mut self.out, &cell.label);
        self.out.push_str("\">");
    }

    fn end_link(&mut self) {
        self.out.push_str("</a>");
    }
}

/// A screen's grid as markup.
fn grid(images: &[&'static str], screen: &Screen) -> PreEscaped<String> {
    let mut g = KindleGrid {
        out: String::new(),
        images,
    };
    write_grid(screen, &mut g);
    PreEscaped(g.out)
}

/// The book as one HTML document.
pub fn write(book: &Edition) -> Vec<u8> {
    let page: Markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (&book.title) }
                // No first-line indent (calibre and Kindle indent a <p>),
                // so the rows of a board line up.
                style { "p{text-indent:0}" }
            }
            body {
                div id=(Target::Contents.anchor()) {
                    h2 { (&book.title) }
                    @for p in intro(book) { p { (p) } }
                    @for (line, target) in &book.contents { p { a href=(Href(*target)) { (line) } } }
                }
                @for b in &book.screens {
                    // Closed explicitly: an HTML parser takes `<mbp:pagebreak/>`
                    // as an open element and nests the rest of the book in it,
                    // five thousand levels deep, which browsers choke on.
                    (PreEscaped("<mbp:pagebreak></mbp:pagebreak>"))
                    p id=(Id(b.target)) {
                        (grid(book.images, b))
                        @for line in caption(b) { br; (line) }
                        @for (target, words) in b.book_nav() { " " a href=(Href(target)) { (words) } }
                    }
                }
            }
        }
    };
    // Not minified: maud writes no spare whitespace.
    page.0.into_bytes()
}
