//! The web format: each screen of an edition as a small HTML page, maud
//! templates that return `Markup`, and the minifier.
//!
//! Invariant: rendering is pure (no IO); every page is a complete HTML5
//! document with `lang`, `charset`, a viewport and a title, no script, and
//! only relative links, so the site works from `file://` and any sub-path.

use maud::{DOCTYPE, Markup, Render, html};

use crate::assets::Assets;
use crate::board::page_name;
use crate::output::OutFile;
use crate::screen::{Edition, Link, Screen, SquareView, Target, spoken_title};

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
    match link {
        Link::Here(Target::Board { board, .. }) | Link::Web(Target::Board { board, .. }) => {
            page_name(board)
        }
        Link::Here(Target::Contents) | Link::Web(Target::Contents) => {
            format!("{}index.html#{}", up(game), edition.slug)
        }
        Link::Across(slug, board) => format!("{}{slug}/{}", up(game), page_name(board)),
        Link::File(name) => name.to_string(),
    }
}

fn game_of(target: Target) -> u16 {
    match target {
        Target::Board { game, .. } => game,
        Target::Contents => 0,
    }
}

/// One screen as a page, minified. The title says the position in words
/// ([`spoken_title`]), so the history list (the back button is undo) tells
/// positions apart and a screen reader reads it as words. The squares are a
/// table of three rows, so assistive technology and text browsers see the
/// rows.
pub fn page(edition: &Edition, screen: &Screen) -> Vec<u8> {
    let game = game_of(screen.target);
    let mut nav = vec![(format!("{}index.html", up(game)), "Home")];
    nav.extend(
        screen
            .nav
            .iter()
            .map(|(link, words)| (href(edition, game, *link), *words)),
    );
    let body = html! {
        h1 { (screen.heading) }
        @for line in &screen.lines { p { (line) } }
        table { @for row in screen.rows() { tr { @for s in row { td { (WebSquare(s)) } } } } }
    };
    minify(&layout(&spoken_title(screen.board), false, &nav, body))
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
    let cfg = minify_html::Cfg::new();
    minify_html::minify(markup.0.as_bytes(), &cfg)
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
}
