//! The Kindle-ready single HTML file: the whole book in one page, with
//! hex-named anchors and `<mbp:pagebreak>` between boards, for people who
//! convert with calibre or Kindle Previewer. Images sit beside it.
//!
//! Invariant: every `href="#..."` names an `id` in the same file.

use maud::{DOCTYPE, Markup, PreEscaped, Render, html};

use super::{caption, intro};
use crate::screen::{Edition, Target};

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

/// The book as one HTML document.
pub fn write(book: &Edition) -> Vec<u8> {
    let page: Markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (book.title) }
                // No first-line indent (calibre and Kindle indent a <p>),
                // so the rows of a board line up.
                style { "p{text-indent:0}" }
            }
            body {
                div id=(Target::Contents.anchor()) {
                    h2 { (book.title) }
                    @for p in intro(book) { p { (p) } }
                    @for (line, target) in &book.contents { p { a href=(Href(*target)) { (line) } } }
                }
                @for b in &book.screens {
                    // Closed explicitly: an HTML parser takes `<mbp:pagebreak/>`
                    // as an open element and nests the rest of the book in it,
                    // five thousand levels deep, which browsers choke on.
                    (PreEscaped("<mbp:pagebreak></mbp:pagebreak>"))
                    p id=(Id(b.target)) {
                        @for (r, row) in b.rows().enumerate() {
                            @if r > 0 { br; }
                            @for s in row {
                                @if let Some(t) = s.link {
                                    a href=(Href(t)) { img src={ (PreEscaped(s.image())) ".gif" } alt=(s.label); }
                                } @else {
                                    img src={ (PreEscaped(s.image())) ".gif" } alt=(s.label);
                                }
                            }
                        }
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
