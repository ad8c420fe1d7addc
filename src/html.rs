//! The web format: each screen of an edition as a small HTML page, maud
//! templates that return `Markup`, and the minifier.
//!
//! Invariant: rendering is pure (no IO); every page is a complete HTML5
//! document with `lang`, `charset`, a viewport and a title, no script, and
//! only relative links, so the site works from `file://` and any sub-path.

use maud::{DOCTYPE, Markup, Render, html};

use crate::assets::Assets;
use crate::board::{page_name, push_page_name};
use crate::output::OutFile;
use crate::screen::{Edition, Link, Screen, SquareView, Target, push_spoken_title, spoken_title};

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

/// A square as a web page draws it: its image, labelled, in a link to the
/// page after the move. Square links stay in the page's own folder.
struct WebSquare<'a>(&'a SquareView);

impl Render for WebSquare<'_> {
    fn render(&self) -> Markup {
        let s = self.0;
        let img = html! { img src={ (s.image()) ".svg" } alt=(s.label); };
        match s.link {
            Some(Target::Board { board, .. }) => html! { a href=(page_name(board)) { (img) } },
            Some(Target::Contents) | None => img,
        }
    }
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
        Link::Here(Target::Board { board, .. }) | Link::Web(Target::Board { board, .. }) => {
            push_page_name(out, board);
        }
        Link::Here(Target::Contents) | Link::Web(Target::Contents) => {
            out.push_str(up(game));
            out.push_str("index.html#");
            out.push_str(edition.slug);
        }
        Link::Across(slug, board) => {
            out.push_str(up(game));
            out.push_str(slug);
            out.push('/');
            push_page_name(out, board);
        }
        Link::File(name) => out.push_str(name),
    }
}

fn game_of(target: Target) -> u16 {
    match target {
        Target::Board { game, .. } => game,
        Target::Contents => 0,
    }
}

/// One screen as a page, unminified: the template. The title says the
/// position in words ([`spoken_title`]), so the history list (the back
/// button is undo) tells positions apart and a screen reader reads it as
/// words. The squares are a table of three rows, so assistive technology
/// and text browsers see the rows.
pub fn page_markup(edition: &Edition, screen: &Screen) -> Markup {
    let body = html! {
        h1 { (screen.heading) }
        @for line in &screen.lines { p { (line) } }
        table { @for row in screen.rows() { tr { @for s in row { td { (WebSquare(s)) } } } } }
    };
    layout(
        &spoken_title(screen.board),
        false,
        &nav(edition, screen),
        body,
    )
}

/// A page's navigation links: home, then the screen's own.
fn nav(edition: &Edition, screen: &Screen) -> Vec<(String, &'static str)> {
    let game = game_of(screen.target);
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
    let mut w = Minified(String::with_capacity(1024));
    w.0.push_str(
        "<!doctype html><html lang=en><meta charset=utf-8>\
<meta content=\"width=device-width\" name=viewport><title>",
    );
    push_spoken_title(&mut w.0, screen.board);
    w.0.push_str("</title><link href=s.css rel=stylesheet><main><p>");
    // A paragraph's end tag goes: a heading or another paragraph closes it.
    let game = game_of(screen.target);
    w.0.push_str("<a href=");
    w.0.push_str(up(game));
    w.0.push_str("index.html>Home</a>");
    let mut href = String::with_capacity(64);
    for (link, words) in &screen.nav {
        href.clear();
        push_href(&mut href, edition, game, *link);
        w.0.push_str(" <a href=");
        w.attr(&href);
        w.0.push('>');
        w.text(words);
        w.0.push_str("</a>");
    }
    w.0.push_str("<h1>");
    w.text(&screen.heading);
    w.0.push_str("</h1>");
    for line in &screen.lines {
        w.0.push_str("<p>");
        w.text(line);
    }
    // Cells and rows close themselves.
    w.0.push_str("<table>");
    for row in screen.rows() {
        w.0.push_str("<tr>");
        for s in row {
            w.0.push_str("<td>");
            let link = match s.link {
                Some(Target::Board { board, .. }) => Some(board),
                Some(Target::Contents) | None => None,
            };
            if let Some(board) = link {
                // A page name is hex digits and `.html`: never quoted.
                w.0.push_str("<a href=");
                push_page_name(&mut w.0, board);
                w.0.push('>');
            }
            w.0.push_str("<img alt=");
            w.attr(&s.label);
            w.0.push_str(" src=");
            w.0.push_str(s.image());
            w.0.push_str(".svg>");
            if link.is_some() {
                w.0.push_str("</a>");
            }
        }
    }
    w.0.push_str("</table></main>");
    w.0.into_bytes()
}

/// Markup written the way minify-html writes it.
struct Minified(String);

impl Minified {
    /// Text: only `&` and `<` need escaping.
    fn text(&mut self, s: &str) {
        if !s.bytes().any(|b| b == b'&' || b == b'<') {
            self.0.push_str(s);
            return;
        }
        for c in s.chars() {
            match c {
                '&' => self.0.push_str("&amp;"),
                '<' => self.0.push_str("&lt;"),
                c => self.0.push(c),
            }
        }
    }

    /// An attribute value: bare when nothing in it ends or quotes a value,
    /// otherwise in double quotes (our values hold no quote marks).
    fn attr(&mut self, v: &str) {
        let bare = !v.is_empty()
            && !v
                .bytes()
                .any(|b| b.is_ascii_whitespace() || b"\"'=<>`".contains(&b));
        assert!(!v.contains('"'), "an attribute with a quote mark: {v}");
        if bare {
            self.text(v);
        } else {
            self.0.push('"');
            self.text(v);
            self.0.push('"');
        }
    }
}

/// The web path of a screen, from the site root.
pub fn path(edition: &Edition, target: Target) -> String {
    match target {
        Target::Board { game, board } => format!("{}/{}", edition.web_dir(game), page_name(board)),
        Target::Contents => format!("index.html#{}", edition.slug),
    }
}

/// Every page of an edition, the stylesheet and square images beside them
/// in each of its folders, and its other files.
pub fn render(edition: &Edition, assets: &Assets) -> Vec<OutFile> {
    let mut files = crate::par::map(&edition.screens, |s| {
        OutFile::new(path(edition, s.target), page(edition, s))
    });
    let mut games: Vec<u16> = edition.screens.iter().map(|s| game_of(s.target)).collect();
    games.dedup();
    let images = edition.images();
    for game in games {
        let dir = edition.web_dir(game);
        files.push(OutFile::new(format!("{dir}/s.css"), assets.get("s.css")));
        for name in &images {
            let file = format!("{name}.svg");
            files.push(OutFile::new(format!("{dir}/{file}"), assets.get(&file)));
        }
    }
    for f in &edition.files {
        files.push(OutFile::new(
            format!("{}/{}", edition.slug, f.path),
            f.bytes.clone(),
        ));
    }
    files
}

/// Minifies one page with minify-html's spec-compliant settings.
pub fn minify(markup: &Markup) -> Vec<u8> {
    minify_bytes(markup.0.as_bytes())
}

/// Minifies HTML bytes with minify-html's spec-compliant settings.
pub fn minify_bytes(html: &[u8]) -> Vec<u8> {
    minify_html::minify(html, &minify_html::Cfg::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Square};
    use crate::graph::StateGraph;

    #[test]
    fn snapshot_of_one_page() {
        // X centre, O top left, X top right: O to move.
        let mut b = Board::EMPTY;
        for i in [4, 0, 2] {
            b = b.play(Square::new(i).unwrap()).unwrap();
        }
        let edition = crate::two_player::edition(&StateGraph::new());
        let screen = edition.screens.iter().find(|s| s.board == b).unwrap();
        let page = String::from_utf8(page(&edition, screen)).unwrap();
        expect_test::expect_file!["../tests/snapshots/two-player-page.html"].assert_eq(&page);
    }

    /// Every page of every edition, assembled directly, is byte for byte
    /// what minify-html makes of its template.
    #[test]
    fn every_page_is_its_minified_template() {
        let solver = crate::solver::Solver::new(StateGraph::new());
        let games = crate::vs_computer::games(&Default::default(), &solver);
        for edition in crate::site::editions(&solver, &games) {
            let pages = crate::par::map(&edition.screens, |s| {
                (page(&edition, s) == minify(&page_markup(&edition, s))).then_some(())
            });
            for (s, ok) in edition.screens.iter().zip(pages) {
                assert!(ok.is_some(), "{}: {:?}", edition.slug, s.target);
            }
        }
    }
}
