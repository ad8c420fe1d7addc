//! The home page: what this is, how to play, where to start in each
//! edition, and the books.
//!
//! Written already minified, like every other page ([`super::page`]): one
//! writer makes both the full template (every element closed, every value
//! quoted) and the minified page, so the build needs no minifier; a test
//! checks that minify-html makes the one of the other.

use maud::PreEscaped;

use super::{attr, layout, path, push_head};
use crate::ebook::{Budget, EBOOKS, FORMATS};
use crate::game::Texts;
use crate::markup::escape;
use crate::screen::Edition;

/// The home page's words and links onto one string, as the template
/// (`full`) or minified: minified, paragraphs and list items close
/// themselves and values go bare where they can.
struct Writer {
    out: String,
    full: bool,
}

impl Writer {
    fn text(&mut self, text: &str) {
        escape(&mut self.out, text);
    }

    fn bold(&mut self, text: &str) {
        self.out.push_str("<b>");
        self.text(text);
        self.out.push_str("</b>");
    }

    fn link(&mut self, href: &str, words: impl FnOnce(&mut Self)) {
        self.out.push_str("<a href=");
        self.value(href);
        self.out.push('>');
        words(self);
        self.out.push_str("</a>");
    }

    /// An attribute value: always quoted in the template.
    fn value(&mut self, v: &str) {
        if self.full {
            self.out.push('"');
            escape(&mut self.out, v);
            self.out.push('"');
        } else {
            attr(&mut self.out, v);
        }
    }

    /// A heading, `h1` or `h2`, with an `id` if given.
    fn heading(&mut self, tag: &str, id: Option<&str>, text: &str) {
        self.out.push('<');
        self.out.push_str(tag);
        if let Some(id) = id {
            self.out.push_str(" id=");
            self.value(id);
        }
        self.out.push('>');
        self.text(text);
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push('>');
    }

    /// A paragraph; minified, the next block closes it.
    fn p(&mut self, body: impl FnOnce(&mut Self)) {
        self.out.push_str("<p>");
        body(self);
        if self.full {
            self.out.push_str("</p>");
        }
    }

    /// A list, an item each; minified, the next item closes each.
    fn ul<T>(&mut self, items: &[T], mut item: impl FnMut(&mut Self, &T)) {
        self.out.push_str("<ul>");
        for i in items {
            self.out.push_str("<li>");
            item(self, i);
            if self.full {
                self.out.push_str("</li>");
            }
        }
        self.out.push_str("</ul>");
    }
}

/// What the home page says of the whole site, in words that name its
/// games: given by the site's list of games (`site::catalog::HOME`), so
/// that the page's writer names no game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SiteWords {
    /// The page's title: "Tic-tac-toe and the Towers of Hanoi".
    pub title: &'static str,
    /// Its first heading.
    pub heading: &'static str,
    /// The paragraph under it: what the site is.
    pub about: &'static str,
    /// What the maps' section says of its maps.
    pub maps: &'static str,
}

/// The picture at the top of the page, a tic-tac-toe board in play (a
/// file of `static/`, copied to the site's root), a link to the first
/// edition's start: [`PICTURE_SIDE`] pixels a side.
pub const PICTURE: &str = "home.svg";
const PICTURE_SIDE: &str = "112";

/// A map of a whole game on the home page: its path in the site and what
/// it shows, in words.
pub type MapLink<'a> = (&'a str, &'a str);

/// The ending of the books in the format whose files answer to `budget`
/// (`.mobi`, `.epub`, `.pdf`), from [`FORMATS`].
fn suffix(budget: Budget) -> &'static str {
    FORMATS
        .iter()
        .find(|f| f.budget == budget)
        .map_or("", |f| f.suffix)
}

/// The body of the home page, as the template or minified: first what the
/// site is, a picture and a link to each edition's start, all on the first
/// screen of a phone or a desktop; then each game's rules, each edition's
/// contents, the maps, the books and the PDFs. `poster_square` is the side
/// of the poster's smallest squares, in millimetres, as the poster was
/// drawn.
fn body(
    out: String,
    full: bool,
    words: &SiteWords,
    editions: &[Edition],
    books: &[&str],
    maps: &[MapLink],
    poster_square: Option<f32>,
) -> String {
    let made = |e: &Edition, suffix: &str| {
        let file = format!("{EBOOKS}/{}{suffix}", e.book_stem());
        books.contains(&file.as_str()).then_some(file)
    };
    let (print, screen): (Vec<&Edition>, Vec<&Edition>) =
        editions.iter().partition(|e| e.print_only);
    let start = |e: &Edition| e.contents.first().map(|(_, target)| path(e, *target));
    let mut w = Writer { out, full };
    w.heading("h1", None, words.heading);
    w.p(|w| w.text(words.about));
    // The picture, a link to the first edition's start, named as the
    // list's first link is.
    if let Some((e, first)) = screen.first().and_then(|e| Some((e, start(e)?))) {
        w.p(|w| {
            w.link(&first, |w| {
                w.out.push_str("<img alt=");
                w.value(&e.name);
                w.out.push_str(" height=");
                w.value(PICTURE_SIDE);
                w.out.push_str(" src=");
                w.value(PICTURE);
                w.out.push_str(" width=");
                w.value(PICTURE_SIDE);
                w.out.push('>');
            });
        });
    }
    w.p(|w| w.bold("Play:"));
    w.ul(&screen, |w, e| {
        if let Some(first) = start(e) {
            w.link(&first, |w| w.text(&e.name));
        }
    });
    // A list, not a sentence: a finger's 44 pixels a link, and links in
    // a sentence that wraps on a phone would overlap.
    w.p(|w| w.text("Below: how to play, every game against the computer, and"));
    w.ul(
        &[
            ("#maps", "maps of whole games"),
            ("#ebooks", "e-books"),
            ("#print", "books to print"),
        ],
        |w, &(href, words)| w.link(href, |w| w.text(words)),
    );
    // Each game's rules, once, in the order its editions come.
    let mut games: Vec<&Texts> = Vec::new();
    for e in &screen {
        if !games.iter().any(|t| t.title == e.texts.title) {
            games.push(&e.texts);
        }
    }
    for texts in games {
        w.heading("h2", None, &format!("{}: how to play", texts.title));
        w.p(|w| w.text(texts.rules));
    }
    for e in &screen {
        w.heading("h2", Some(e.slug), &e.name);
        w.p(|w| w.text(e.about));
        w.ul(&e.contents, |w, (line, target)| {
            w.link(&path(e, *target), |w| w.text(line));
        });
    }
    if !maps.is_empty() {
        w.heading("h2", Some("maps"), "Maps: a whole game in one picture");
        w.p(|w| w.text(words.maps));
        // Each map's thumbnail with its words under it, the link's name
        // (the picture says nothing more, so its text is empty).
        w.p(|w| {
            let side = crate::map::THUMBNAIL.to_string();
            for (i, (file, words)) in maps.iter().enumerate() {
                if i > 0 {
                    w.text(" ");
                }
                // Attributes in minify-html's order.
                w.out.push_str("<a class=");
                w.value("m");
                w.out.push_str(" href=");
                w.value(file);
                // An empty value: bare, as minify-html writes it.
                w.out.push_str(if w.full {
                    "><img alt=\"\""
                } else {
                    "><img alt"
                });
                w.out.push_str(" height=");
                w.value(&side);
                w.out.push_str(" src=");
                w.value(&crate::map::thumbnail_file(file));
                w.out.push_str(" width=");
                w.value(&side);
                w.out.push('>');
                w.text(words);
                w.out.push_str("</a>");
            }
        });
        w.p(|w| {
            w.bold("To print: ");
            w.link(&format!("{EBOOKS}/{}", crate::ebook::POSTER), |w| {
                w.text("the three maps on one poster")
            });
            w.text(
                " (PDF, A0, 841 by 1189 mm, the maps as vectors): have it printed at actual size",
            );
            match poster_square {
                Some(mm) => w.text(&format!(
                    ", where the smallest squares are {mm:.1} mm wide."
                )),
                None => w.text("."),
            }
        });
    }
    w.heading("h2", Some("ebooks"), "On a Kindle or another e-reader");
    w.p(|w| {
        w.text(
            "The same editions as books, one board per screen. Each needs nothing else installed.",
        )
    });
    w.ul(&screen, |w, e| {
        w.text(&e.name);
        w.text(": ");
        // Each format the book was made in, in the formats' order.
        let mut first = true;
        for format in crate::ebook::formats(e) {
            if let Some(file) = made(e, format.suffix) {
                if !first {
                    w.text(", ");
                }
                first = false;
                w.link(&file, |w| w.text(format.name));
                for (name, suffix) in format.also {
                    w.text(", ");
                    let stem = file.strip_suffix(format.suffix).unwrap_or(&file);
                    w.link(&format!("{stem}{suffix}"), |w| w.text(name));
                }
            }
        }
    });
    let (mobi, epub) = (suffix(Budget::Mobi), suffix(Budget::Epub));
    w.p(|w| {
        w.bold("Any Kindle, over USB: ");
        w.text("connect the Kindle, copy the ");
        w.bold(mobi);
        w.text(" file into its ");
        w.bold("documents");
        w.text(" folder, eject, and open the book. This works on every Kindle, the first generation included.");
    });
    w.p(|w| {
        w.bold("Send to Kindle: ");
        w.text("email the ");
        w.bold(epub);
        w.text(" file to your Kindle address, or use the Send to Kindle app.");
    });
    w.p(|w| {
        w.bold("Kobo and other readers: ");
        w.text("copy the ");
        w.bold(epub);
        w.text(" file onto the reader.");
    });
    if let Some(source) = FORMATS.iter().find(|f| !f.also.is_empty()) {
        w.p(|w| {
            w.text(&format!("The {} and ", source.name));
            for (name, _) in source.also {
                w.text(name);
            }
            w.text(" are for converting yourself, with kindlegen, calibre or Kindle Previewer, from a copy of this site: they sit in its ebooks folder beside the GIF images the OPF names.");
        });
    }
    w.heading("h2", Some("print"), "On paper, or as a PDF on a tablet");
    for e in &print {
        if let Some(pdf) = made(e, suffix(Budget::Pdf)) {
            w.p(|w| {
                w.link(&pdf, |w| w.bold(&e.name));
                w.text(": ");
                w.text(e.about);
            });
        }
    }
    w.p(|w| w.text("Every PDF here has a board a page, 5.5 by 8.5 inches (half letter, a standard print-on-demand size). Each square you can play prints the number of the page to turn to, and on a screen it is also a link."));
    w.p(|w| {
        w.bold("To print: ");
        w.text("print double-sided, flipping on the long edge, at actual size. On letter paper, print two pages a sheet and cut the sheets in half; or send the file to a print-on-demand service as a 5.5 by 8.5 inch book.");
    });
    w.p(|w| {
        w.bold("On a tablet or e-ink reader: ");
        w.text("open the PDF in any reader and tap a square, or turn to the page it names; go back to take a move back.");
    });
    w.out
}

/// The home page, minified: what the site is (`words`), the editions'
/// starts, the `maps`, the side of the poster's smallest squares in
/// millimetres (`poster_square`), and the books `books` made, by their
/// paths in the site (a PDF left out is not listed).
pub fn home_page(
    words: &SiteWords,
    editions: &[Edition],
    books: &[&str],
    maps: &[MapLink],
    poster_square: Option<f32>,
) -> Vec<u8> {
    let mut out = String::with_capacity(8 * 1024);
    push_head(&mut out, words.title, true);
    let mut out = body(out, false, words, editions, books, maps, poster_square);
    out.push_str("</main>");
    out.into_bytes()
}

/// The home page's template: what [`home_page`] is the minified form of.
pub fn home_markup(
    words: &SiteWords,
    editions: &[Edition],
    books: &[&str],
    maps: &[MapLink],
    poster_square: Option<f32>,
) -> maud::Markup {
    let body = body(
        String::new(),
        true,
        words,
        editions,
        books,
        maps,
        poster_square,
    );
    layout(words.title, true, &[], PreEscaped(body))
}
