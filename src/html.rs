//! The web format: each screen of an edition as a small HTML page, maud
//! templates that return `Markup`, and the minifier.
//!
//! Invariant: rendering is pure (no IO); every page is a complete HTML5
//! document with `lang`, `charset`, a viewport and a title, no script, and
//! only relative links, so the site works from `file://` and any sub-path.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::assets::Assets;
use crate::markup::{Grid, PlainRows, Written, escape, write_grid};
use crate::output::OutFile;
use crate::screen::{CellView, Edition, Link, Screen, Target, push_page_name};

mod home;

pub use home::{MapLink, SiteWords, home_markup, home_page};

/// The shared page frame: head, a row of navigation links, then `body`.
///
/// The stylesheet sits beside every page. `head` and `body` are left for the
/// parser to infer (valid HTML5, and bytes on every one of thousands of
/// pages); `icon` links the favicon, which only the home page does.
pub fn layout(title: &str, icon: bool, nav: &[(String, &str)], body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width";
            title { (title) }
            link rel="stylesheet" href="s.css";
            @if icon {
                link rel="icon" href="favicon.svg";
            }
            // One landmark holds everything, for screen readers' landmark
            // navigation (axe's `region` and `landmark-one-main` rules).
            main {
                @if !nav.is_empty() {
                    p { @for (i, (href, text)) in nav.iter().enumerate() {
                        @if i > 0 { " " }
                        a href=(href) { (text) }
                    } }
                }
                (body)
            }
        }
    }
}

/// A page's grid: a table, a row a line of cells, each cell's image
/// labelled, in a link to the page after the move. Cell links stay in the
/// page's own folder. Minified, cells and rows close themselves; the
/// template (`full`) closes them, as maud would write it.
struct WebGrid<'a> {
    out: &'a mut String,
    edition: &'a Edition,
    game: u16,
    full: bool,
    rows: &'a mut PlainRows,
}

impl Grid for WebGrid<'_> {
    fn row(&mut self, _: usize) {
        self.out.push_str("<tr>");
    }

    fn cell(&mut self) {
        self.out.push_str("<td>");
    }

    fn link(&mut self, target: Target) {
        // A page name is hex digits and `.html`: never quoted.
        self.out.push_str("<a href=");
        push_href(self.out, self.edition, self.game, Link::Here(target));
        self.out.push('>');
    }

    fn image(&mut self, cell: &CellView) {
        self.out.push_str("<img alt=");
        attr(self.out, cell.look.label);
        self.out.push_str(" src=");
        self.out.push_str(self.edition.image(cell));
        self.out.push_str(".svg>");
    }

    fn end_link(&mut self) {
        self.out.push_str("</a>");
    }

    fn end_cell(&mut self) {
        if self.full {
            self.out.push_str("</td>");
        }
    }

    fn end_row(&mut self) {
        if self.full {
            self.out.push_str("</tr>");
        }
    }

    fn plain_rows(&mut self) -> Option<(&mut PlainRows, Written<'_>)> {
        Some((self.rows, Written::Text(self.out)))
    }
}

/// The grid of `screen` as a table in the box that sizes it (`b`, which
/// the stylesheet makes the room the page leaves below its heading and
/// lines): minified, or `full` for the template. A board that is not
/// square says its height over its width (`--a`, rounded up, so that the
/// board never overflows its box), for the stylesheet to fit it.
fn grid(out: &mut String, edition: &Edition, screen: &Screen, full: bool) {
    use std::fmt::Write as _;
    // A game whose moves are columns: each top-row link covers its column
    // (the stylesheet's `.c`).
    out.push_str(if edition.column_moves {
        "<div class=\"b c\""
    } else {
        "<div class=b"
    });
    if edition.aspect != 1.0 {
        let thousandths = (edition.aspect * 1000.0).ceil() as u32;
        let _ = write!(
            out,
            " style=--a:{}.{:03}",
            thousandths / 1000,
            thousandths % 1000
        );
    }
    out.push_str("><table>");
    let game = screen.target.game();
    let key = (
        edition.images.as_ptr() as usize,
        if full { "web, full" } else { "web" },
    );
    PlainRows::of_thread(key, |rows| {
        let mut grid = WebGrid {
            out,
            edition,
            game,
            full,
            rows,
        };
        write_grid(screen, &mut grid);
    });
    out.push_str("</table></div>");
}

/// The way back up to the site root from a game's folder: `two-player/`
/// is one level down, `vs-computer/3/` two.
fn up(game: u16) -> &'static str {
    if game == 0 { "../" } else { "../../" }
}

/// A nav link's `href` from a page of `edition`'s game `game`.
fn href(edition: &Edition, game: u16, link: Link) -> String {
    let mut out = String::new();
    push_href(&mut out, edition, game, link);
    out
}

/// [`href`], onto `out`.
fn push_href(out: &mut String, edition: &Edition, game: u16, link: Link) {
    match link {
        Link::Here(Target::Page { key, .. }) | Link::Web(Target::Page { key, .. }) => {
            push_page_name(out, key);
        }
        Link::Here(Target::Contents) | Link::Web(Target::Contents) => {
            out.push_str(up(game));
            out.push_str("index.html#");
            out.push_str(edition.slug);
        }
        Link::Across(slug, key) => {
            out.push_str(up(game));
            out.push_str(slug);
            out.push('/');
            push_page_name(out, key);
        }
        Link::File(name) => out.push_str(name),
    }
}

/// One screen as a page, unminified: the template. The title says the
/// position in words ([`Screen::title`]), so the history list (the back
/// button is undo) tells positions apart and a screen reader reads it as
/// words. The cells are a table of rows, so assistive technology and text
/// browsers see the rows.
pub fn page_markup(edition: &Edition, screen: &Screen) -> Markup {
    let mut table = String::new();
    grid(&mut table, edition, screen, true);
    let body = html! {
        h1 { (screen.heading) }
        @for line in &screen.lines { p { (line) } }
        (PreEscaped(table))
    };
    layout(&screen.title, false, &nav(edition, screen), body)
}

/// A page's navigation links: home, then the screen's own.
fn nav(edition: &Edition, screen: &Screen) -> Vec<(String, &'static str)> {
    let game = screen.target.game();
    let mut nav = vec![(format!("{}index.html", up(game)), "Home")];
    nav.extend(
        screen
            .nav
            .iter()
            .map(|(link, words)| (href(edition, game, *link), *words)),
    );
    nav
}

/// One screen as a page, minified: [`page_markup`] as minify-html writes
/// it, assembled directly. Minifying each of thousands of pages cost more
/// than everything else a page takes; the tests check on every page that
/// these bytes are what minify-html makes of the template, and that
/// minify-html leaves them as they are.
pub fn page(edition: &Edition, screen: &Screen) -> Vec<u8> {
    let mut w = String::with_capacity(1024);
    push_head(&mut w, &screen.title, false);
    w.push_str("<p>");
    // A paragraph's end tag goes: a heading or another paragraph closes it.
    let game = screen.target.game();
    w.push_str("<a href=");
    w.push_str(up(game));
    w.push_str("index.html>Home</a>");
    let mut href = String::with_capacity(64);
    for (link, words) in &screen.nav {
        href.clear();
        push_href(&mut href, edition, game, *link);
        w.push_str(" <a href=");
        attr(&mut w, &href);
        w.push('>');
        escape(&mut w, words);
        w.push_str("</a>");
    }
    w.push_str("<h1>");
    escape(&mut w, &screen.heading);
    w.push_str("</h1>");
    for line in &screen.lines {
        w.push_str("<p>");
        escape(&mut w, line);
    }
    grid(&mut w, edition, screen, false);
    w.push_str("</main>");
    w.into_bytes()
}

/// The start of a minified page, up to its `<main>`: [`layout`]'s head as
/// minify-html writes it.
fn push_head(w: &mut String, title: &str, icon: bool) {
    w.push_str(
        "<!doctype html><html lang=en><meta charset=utf-8>\
<meta content=\"width=device-width\" name=viewport><title>",
    );
    escape(w, title);
    w.push_str("</title><link href=s.css rel=stylesheet>");
    if icon {
        w.push_str("<link href=favicon.svg rel=icon>");
    }
    w.push_str("<main>");
}

/// An attribute value as minify-html writes it: bare when nothing in it
/// ends or quotes a value, otherwise in double quotes.
fn attr(out: &mut String, v: &str) {
    let bare = !v.is_empty()
        && !v.bytes().any(|b| {
            b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b'=' | b'<' | b'>' | b'`')
        });
    if bare {
        escape(out, v);
    } else {
        out.push('"');
        escape(out, v);
        out.push('"');
    }
}

/// The web path of a screen, from the site root.
pub fn path(edition: &Edition, target: Target) -> String {
    match target {
        Target::Page { game, key } => {
            let mut out = String::with_capacity(32);
            edition.push_web_dir(&mut out, game);
            out.push('/');
            push_page_name(&mut out, key);
            out
        }
        Target::Contents => format!("index.html#{}", edition.slug),
    }
}

/// Pages made at a time by [`render_in_batches`]: each batch goes out
/// before the next is made, so an edition's pages are never all in
/// memory at once.
pub(crate) const BATCH: usize = 512;

/// Every page of an edition and the stylesheet and square images beside
/// them in each of its folders, handed to `put` a batch at a time; stops
/// at the first error `put` returns. Its other files are
/// [`beside_pages`].
pub fn render_in_batches<E>(
    edition: &Edition,
    assets: &Assets,
    mut put: impl FnMut(Vec<OutFile>) -> Result<(), E>,
) -> Result<(), E> {
    for screens in edition.screens.chunks(BATCH) {
        put(crate::par::map(screens, |s| {
            OutFile::new(path(edition, s.target), page(edition, s))
        }))?;
    }
    let mut files = Vec::new();
    let mut games: Vec<u16> = edition.screens.iter().map(|s| s.target.game()).collect();
    games.dedup();
    let images = edition.used_images();
    for game in games {
        let dir = edition.web_dir(game);
        files.push(OutFile::new(format!("{dir}/s.css"), assets.get("s.css")));
        for name in images {
            let file = format!("{name}.svg");
            files.push(OutFile::new(format!("{dir}/{file}"), assets.get(&file)));
        }
    }
    put(files)
}

/// An edition's files beside its pages (its [`Edition::files`], such as
/// `positions.json`), taken from it, in its web folder: moved, not copied,
/// since the analysis's `positions.json` of a chess ending is megabytes.
pub fn beside_pages(slug: &str, files: Vec<OutFile>) -> Vec<OutFile> {
    (files.into_iter())
        .map(|f| OutFile::new(format!("{slug}/{}", f.path), f.bytes))
        .collect()
}

/// Every file of [`render_in_batches`] and [`beside_pages`], at once.
pub fn render(edition: &Edition, assets: &Assets) -> Vec<OutFile> {
    let mut files = beside_pages(edition.slug, edition.files.clone());
    let all = render_in_batches(edition, assets, |batch| {
        files.extend(batch);
        Ok::<(), std::convert::Infallible>(())
    });
    match all {
        Ok(()) => files,
        Err(never) => match never {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What minify-html, with its spec-compliant settings, makes of a
    /// template: the reference the pages are written to match.
    fn minify(markup: &Markup) -> Vec<u8> {
        minify_html::minify(markup.0.as_bytes(), &minify_html::Cfg::new())
    }
    use crate::games::tictactoe::{Board, Square};
    use crate::graph::StateGraph;

    #[test]
    fn snapshot_of_one_page() {
        // X centre, O top left, X top right: O to move.
        let mut b = Board::EMPTY;
        for i in [4, 0, 2] {
            b = b.play(Square::new(i).unwrap()).unwrap();
        }
        let edition = crate::editions::two_player::edition(
            "two-player",
            &StateGraph::<Board>::new(),
            Some("analysis"),
        );
        let screen = edition
            .screens
            .iter()
            .find(|s| s.target == Target::page(b.id()))
            .unwrap();
        let page = String::from_utf8(page(&edition, screen)).unwrap();
        expect_test::expect_file!["../tests/snapshots/two-player-page.html"].assert_eq(&page);
    }

    /// The home page's writer names no game: what the page says of the
    /// games comes from the site's list of them (`site::HOME`), which
    /// the page shows word for word.
    #[test]
    fn the_home_pages_writer_names_no_game() {
        let code = include_str!("html/home.rs");
        let code = &code[..code.find("#[cfg(test)]").unwrap_or(code.len())];
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for game in ["tic-tac-toe", "hanoi", "disc", "peg"] {
                assert!(!line.to_lowercase().contains(game), "{line}");
            }
        }
        let words = crate::site::HOME;
        let page = home_page(&words, &[], &[], &[("map/a.svg", "A")], None);
        let page = String::from_utf8(page).unwrap();
        for said in [words.title, words.heading, words.about, words.maps] {
            assert!(page.contains(said), "{said}");
        }
    }

    /// The home page, written directly, is what minify-html makes of its
    /// template, with every edition and book listed.
    #[test]
    fn the_home_page_is_its_minified_template() {
        let editions = crate::site::Solved::defaults(4).editions();
        let books: Vec<String> = editions
            .iter()
            .map(|e| {
                format!(
                    "{}/{}",
                    crate::ebook::EBOOKS,
                    crate::ebook::PDF.file_name(e)
                )
            })
            .collect();
        let books: Vec<&str> = books.iter().map(String::as_str).collect();
        let maps = [("map/a.svg", "A map of a game"), ("map/b.svg", "B")];
        let words = crate::site::HOME;
        let page = home_page(&words, &editions, &books, &maps, Some(1.5));
        assert_eq!(
            String::from_utf8_lossy(&page),
            String::from_utf8_lossy(&minify(&home_markup(
                &words,
                &editions,
                &books,
                &maps,
                Some(1.5)
            )))
        );
        let text = String::from_utf8(page).unwrap();
        for e in &editions {
            assert!(text.contains(&e.book_stem()), "{}", e.slug);
        }
    }

    /// Every page of every edition, assembled directly, is byte for byte
    /// what minify-html makes of its template.
    #[test]
    fn every_page_is_its_minified_template() {
        for edition in crate::site::Solved::defaults(4).editions() {
            let pages = crate::par::map(&edition.screens, |s| {
                (page(&edition, s) == minify(&page_markup(&edition, s))).then_some(())
            });
            for (s, ok) in edition.screens.iter().zip(pages) {
                assert!(
                    ok.is_some(),
                    "{}: {:?}\n{}\n{}",
                    edition.slug,
                    s.target,
                    String::from_utf8_lossy(&page(&edition, s)),
                    String::from_utf8_lossy(&minify(&page_markup(&edition, s)))
                );
            }
        }
    }
}
