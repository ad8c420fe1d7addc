//! The Kindle-ready single HTML file: the whole book in one page, with
//! hex-named anchors and `<mbp:pagebreak/>` between boards, for people who
//! convert with calibre or Kindle Previewer. Images sit beside it.
//!
//! Invariant: every `href="#..."` names an `id` in the same file.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::{Book, Target};

fn href(t: Target) -> String {
    format!("#{}", t.anchor())
}

/// The book as one HTML document.
pub fn write(book: &Book) -> Vec<u8> {
    let page: Markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (book.title) }
            }
            body {
                div id=(Target::Contents.anchor()) {
                    h2 { (book.title) }
                    @for p in &book.intro { p { (p) } }
                    @for (line, target) in &book.contents { p { a href=(href(*target)) { (line) } } }
                }
                @for b in &book.boards {
                    (PreEscaped("<mbp:pagebreak/>"))
                    @let hrefs = b.hrefs(href);
                    p id=(b.target.anchor()) {
                        @for (i, s) in b.squares(&hrefs).iter().enumerate() {
                            @if i > 0 && i % 3 == 0 { br; }
                            @let img = html! { img src={ (s.image()) ".gif" } alt=(s.label()); };
                            @if let Some(h) = s.link { a href=(h) { (img) } } @else { (img) }
                        }
                        br;
                        (b.caption)
                        @for (target, words) in &b.nav { " " a href=(href(*target)) { (words) } }
                    }
                }
            }
        }
    };
    // Not minified: maud writes no spare whitespace, and an HTML parser
    // nests everything after an `<mbp:pagebreak/>` (an unknown element
    // whose `/>` it ignores), five thousand levels deep.
    page.0.into_bytes()
}
