//! The two-player site, read back page by page.

use crate::common::page_name;
use tictactoe_book::games::tictactoe::{Board, Cell, Status};
use tictactoe_book::graph::StateGraph;

use crate::common::*;

#[test]
fn one_page_per_reachable_board_and_no_other() {
    let dir = built().join("two-player");
    let graph = StateGraph::<Board>::new();
    let ids: Vec<u32> = pages_in(&dir)
        .iter()
        .map(|p| page_id(p))
        .collect::<Vec<_>>();
    let mut expected: Vec<u32> = graph.boards().iter().map(|b| b.id()).collect();
    let mut got = ids.clone();
    got.sort_unstable();
    expected.sort_unstable();
    assert_eq!(got, expected);
    assert_eq!(got.len(), 5_478);
}

#[test]
fn every_page_shows_its_board_and_links_to_the_right_next_boards() {
    let dir = built().join("two-player");
    let mut links = 0;
    for path in pages_in(&dir) {
        let page = Page::read(&path);
        let board = page.board();
        assert_eq!(board.id(), page_id(&path), "{}", path.display());
        let text = page.text();
        for (i, (cell, link, alt)) in page.squares().into_iter().enumerate() {
            let square = sq(i);
            assert!(
                alt.starts_with(square.name()),
                "{}: alt {alt:?}",
                path.display()
            );
            match (board.status(), cell) {
                (Status::InPlay(p), Cell::Empty) => {
                    let next = board.play(square).unwrap();
                    assert_eq!(link.as_deref(), Some(page_name(next).as_str()));
                    assert!(alt.ends_with(&format!("place {}", p.letter())), "{alt}");
                    links += 1;
                }
                _ => assert_eq!(link, None, "{}: square {i} is a link", path.display()),
            }
        }
        match board.status() {
            Status::InPlay(p) => assert!(text.contains(&format!("{} to move", p.letter()))),
            Status::Won { winner, line } => {
                assert!(text.contains(&format!("{} wins", winner.letter())));
                // The winning line is drawn with its own images.
                let srcs: Vec<String> = page.select("img")[..9]
                    .iter()
                    .map(|i| i.value().attr("src").unwrap().to_string())
                    .collect();
                for (i, src) in srcs.iter().enumerate() {
                    assert_eq!(
                        src.contains('w'),
                        line.contains(sq(i)),
                        "{}",
                        path.display()
                    );
                }
            }
            Status::Draw => assert!(text.contains("Draw")),
        }
        let title = page.select("title")[0].text().collect::<String>();
        assert_eq!(title, {
            let mut t = String::new();
            tictactoe_book::game::Game::push_title(board, None, &mut t);
            t
        });
        assert!(title.ends_with(" - Tic-tac-toe") && !title.contains('/'));
        let hrefs: Vec<_> = page
            .select("a")
            .iter()
            .filter_map(|a| a.value().attr("href"))
            .map(str::to_string)
            .collect();
        assert!(hrefs.contains(&"0.html".to_string()), "new game link");
        assert!(hrefs.contains(&"../index.html".to_string()), "home link");
        let analysis = format!("../analysis/{}", page_name(board));
        assert_eq!(
            hrefs.contains(&analysis),
            !board.is_over(),
            "{}: a link to its own analysis while in play, none once over",
            path.display()
        );
        // A finished board has no move left to weigh: it offers the
        // analysis from the start.
        let study = page.select("a").into_iter().any(|a| {
            a.value().attr("href") == Some("../analysis/0.html")
                && a.text().collect::<String>() == "Study the analysis"
        });
        assert_eq!(
            study,
            board.is_over(),
            "{}: study the analysis",
            path.display()
        );
    }
    assert_eq!(links, 16_167);
}

#[test]
fn every_page_is_reachable_from_the_home_page_and_every_reference_resolves() {
    let site = built();
    let pages = crawl(&site.join("index.html"));
    for (path, page) in &pages {
        for (raw, target) in &page.references {
            assert!(
                !raw.contains("://") && !raw.starts_with('/'),
                "{raw} is not relative"
            );
            assert!(
                target.is_file(),
                "{}: {raw} does not resolve",
                path.display()
            );
            if let Some((_, fragment)) = raw.split_once('#') {
                let target_page = &pages[&normalise(target)];
                assert!(
                    target_page.ids.contains(fragment),
                    "{}: no #{fragment}",
                    path.display()
                );
            }
        }
        assert_eq!(page.scripts, 0, "{}", path.display());
    }
    for path in pages_in(site) {
        assert!(
            pages.contains_key(&normalise(&path)),
            "{} is unreachable",
            path.display()
        );
    }
}

#[test]
fn every_page_has_the_head_a_phone_and_a_screen_reader_need() {
    for path in web_pages_in(built()) {
        let page = Page::read(&path);
        assert_eq!(page.select("html[lang=en]").len(), 1, "{}", path.display());
        assert_eq!(page.select("meta[charset=utf-8]").len(), 1);
        assert_eq!(page.select("meta[name=viewport]").len(), 1);
        assert!(
            !page.select("title")[0]
                .text()
                .collect::<String>()
                .is_empty()
        );
        // Every picture has words: its own, or (a map on the home page,
        // its alt empty) those of the link that holds it.
        for img in page.select("img") {
            let alt = img.value().attr("alt").expect("an alt");
            let link_words = img
                .parent()
                .and_then(scraper::ElementRef::wrap)
                .filter(|a| a.value().name() == "a")
                .is_some_and(|a| !a.text().collect::<String>().trim().is_empty());
            assert!(!alt.is_empty() || link_words, "{}", path.display());
        }
    }
}

#[test]
fn a_rebuild_is_byte_identical() {
    let tmp = tempfile::tempdir().unwrap();
    let again = tmp.path().join("again");
    tictactoe_book::site::build(&options(&again)).unwrap();
    let a = walk(built());
    let b = walk(&again);
    let rel = |root: &std::path::Path, v: &[std::path::PathBuf]| {
        v.iter()
            .map(|p| p.strip_prefix(root).unwrap().to_path_buf())
            .collect::<Vec<_>>()
    };
    assert_eq!(rel(built(), &a), rel(&again, &b));
    for (x, y) in a.iter().zip(&b) {
        assert!(contents(x) == contents(y), "{} differs", x.display());
    }
}

#[test]
fn the_start_page_is_the_empty_board() {
    let page = Page::read(&built().join("two-player/0.html"));
    assert_eq!(page.board(), Board::EMPTY);
}

/// Pages are assembled from parts, not run through minify-html one by one;
/// minify-html must leave every page of the site as it is (the library's
/// tests check that each page is its minified template). One thing it
/// would still do: drop the `</table></div></main>` at the end of a board page.
/// The end of the file closes them for a browser, but HTML requires both
/// end tags and the Nu checker reports their absence, so pages keep them.
#[test]
fn every_page_is_a_fixed_point_of_minify_html() {
    let pages: Vec<_> = walk(built())
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        // The books' single-file HTML is not minified (see README).
        .filter(|p| !p.starts_with(built().join("ebooks")))
        .collect();
    assert!(pages.len() > 16_000, "{}", pages.len());
    const KEPT: &[u8] = b"</table></div></main>";
    for path in pages {
        let bytes = std::fs::read(&path).unwrap();
        let again = minify_html::minify(&bytes, &minify_html::Cfg::new());
        // Only end tags of the page's last elements may go.
        let same =
            again == bytes || (bytes.starts_with(&again) && KEPT.ends_with(&bytes[again.len()..]));
        assert!(same, "{} changes when minified", path.display());
    }
}
