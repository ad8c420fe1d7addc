//! The PDFs read back by lopdf (a reader that is not ours) as a checker
//! would: the tags, the printed numbers, the links; and the gamebook
//! played through every line of the reader's moves. Then the outside
//! programs: qpdf, pdffonts, pdftotext, mutool, pdf.js and Chromium's own
//! PDF viewer.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use lopdf::{Document, Object, ObjectId};
use tictactoe_book::games::tictactoe::{Board, Cell, Player, Square, Status};
use tictactoe_book::graph::StateGraph;
use tictactoe_book::solver::Solver;

use crate::common::built;
use crate::tools::{have, run, runs, text};

/// A PDF page as a checker reads it.
#[derive(Debug)]
struct Page {
    /// Every text shown, with where its baseline starts.
    texts: Vec<(f32, f32, String)>,
    /// Each link: its rectangle and the page number (from 1) it lands on.
    links: Vec<([f32; 4], u32)>,
    /// The alt text of each cell element (Figure or Link), in order.
    cells: Vec<String>,
}

/// A PDF read back: its pages, numbered from 1.
struct Pdf {
    pages: BTreeMap<u32, Page>,
}

fn string(o: &Object) -> String {
    let bytes = o.as_str().unwrap();
    match bytes.strip_prefix(&[0xfe, 0xff]) {
        Some(utf16) => String::from_utf16(
            &utf16
                .chunks(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect::<Vec<_>>(),
        )
        .unwrap(),
        None => String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

/// An array of numbers, such as a rectangle.
fn numbers(o: &Object) -> Vec<f32> {
    o.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_float().unwrap())
        .collect()
}

fn deref<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    doc.dereference(o).unwrap().1
}

fn read(path: &Path) -> Pdf {
    let doc = Document::load(path).unwrap();
    let catalog = doc.catalog().unwrap();
    let mark = deref(&doc, catalog.get(b"MarkInfo").unwrap())
        .as_dict()
        .unwrap();
    assert!(
        mark.get(b"Marked").unwrap().as_bool().unwrap(),
        "not tagged"
    );
    let ids: BTreeMap<u32, ObjectId> = doc.get_pages();
    let number: BTreeMap<ObjectId, u32> = ids.iter().map(|(n, id)| (*id, *n)).collect();
    assert!(
        catalog.get(b"PageLabels").is_err(),
        "labels would change the numbers"
    );

    // The structure tree: every element with /Alt, by the page it is on
    // (its own /Pg or an ancestor's).
    let mut cells: BTreeMap<ObjectId, Vec<String>> = BTreeMap::new();
    let root = deref(&doc, catalog.get(b"StructTreeRoot").unwrap())
        .as_dict()
        .unwrap();
    let mut stack: Vec<(Object, Option<ObjectId>)> = vec![(root.get(b"K").unwrap().clone(), None)];
    while let Some((kid, page)) = stack.pop() {
        let kid = deref(&doc, &kid);
        match kid {
            Object::Array(items) => {
                // Reversed, so elements come off the stack in order.
                for item in items.iter().rev() {
                    stack.push((item.clone(), page));
                }
            }
            Object::Dictionary(d) => {
                let page = d
                    .get(b"Pg")
                    .ok()
                    .map(|p| p.as_reference().unwrap())
                    .or(page);
                let role = d.get(b"S").ok().map(|s| s.as_name().unwrap().to_vec());
                if matches!(role.as_deref(), Some(b"Figure" | b"Link"))
                    && let Ok(alt) = d.get(b"Alt")
                {
                    let page = page.expect("every element has /Pg, itself or above");
                    // A text link (the contents) has alt text too; cells are
                    // the ones naming a cell ("top left: ...").
                    cells.entry(page).or_default().push(string(alt));
                }
                if let Ok(k) = d.get(b"K") {
                    stack.push((k.clone(), page));
                }
            }
            _ => {}
        }
    }

    let mut pages = BTreeMap::new();
    for (&n, &id) in &ids {
        let fonts = doc.get_page_fonts(id).unwrap();
        let mut texts = Vec::new();
        let (mut font, mut at) = (None, (0.0, 0.0));
        for op in doc.get_and_decode_page_content(id).unwrap().operations {
            match op.operator.as_str() {
                "Tf" => font = Some(op.operands[0].as_name().unwrap().to_vec()),
                "Td" => {
                    at = (
                        op.operands[0].as_float().unwrap(),
                        op.operands[1].as_float().unwrap(),
                    )
                }
                "Tj" => {
                    let f = fonts[font.as_ref().unwrap()];
                    let encoding = f.get_font_encoding(&doc).unwrap();
                    let s =
                        Document::decode_text(&encoding, op.operands[0].as_str().unwrap()).unwrap();
                    texts.push((at.0, at.1, s));
                }
                _ => {}
            }
        }
        let mut links = Vec::new();
        for a in doc.get_page_annotations(id).unwrap() {
            assert_eq!(a.get(b"Subtype").unwrap().as_name().unwrap(), b"Link");
            let rect = numbers(a.get(b"Rect").unwrap());
            let action = deref(&doc, a.get(b"A").unwrap()).as_dict().unwrap();
            assert_eq!(action.get(b"S").unwrap().as_name().unwrap(), b"GoTo");
            let dest = action.get(b"D").unwrap().as_array().unwrap();
            let to = number[&dest[0].as_reference().unwrap()];
            links.push(([rect[0], rect[1], rect[2], rect[3]], to));
        }
        pages.insert(
            n,
            Page {
                texts,
                links,
                cells: cells.remove(&id).unwrap_or_default(),
            },
        );
    }
    Pdf { pages }
}

impl Page {
    /// The texts inside a rectangle.
    fn texts_in(&self, r: [f32; 4]) -> Vec<&str> {
        self.texts
            .iter()
            .filter(|(x, y, _)| *x >= r[0] && *x <= r[2] && *y >= r[1] && *y <= r[3])
            .map(|t| t.2.as_str())
            .collect()
    }
}

/// Every PDF of the site.
/// The books as PDFs (the maps' poster is no book: it has no pages to
/// turn to).
fn pdfs() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(built().join("ebooks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .filter(|p| !p.ends_with(tictactoe_book::ebook::POSTER))
        .collect();
    found.sort();
    found
}

/// The maps' poster: one tagged A0 page, read back by lopdf: a heading,
/// and each map a Figure whose alternative text says what it shows, drawn
/// as a vector form; the maps of tic-tac-toe wide enough that their
/// smallest square (a 243rd) prints at least 1.5 mm wide, the densest
/// (O's, 601 boards) 2.5 mm; and the page filled: the drawings cover
/// two thirds of it. Its words are for paper: no links.
#[test]
fn the_poster_is_one_tagged_a0_page_of_the_three_maps() {
    let path = built().join("ebooks").join(tictactoe_book::ebook::POSTER);
    let pdf = read(&path);
    assert_eq!(pdf.pages.len(), 1);
    let page = &pdf.pages[&1];
    assert_eq!(page.cells.len(), 3, "{:?}", page.cells);
    assert!(page.cells[0].contains("optimal play for X"));
    // In reading order: the top row, then the foot.
    assert!(page.cells[1].contains("Towers of Hanoi"));
    assert!(page.cells[2].contains("optimal play for O"));
    assert!(page.texts.iter().any(|t| t.2 == "The maps of perfect play"));
    for t in &page.texts {
        assert!(!t.2.contains("link"), "words for paper: {}", t.2);
    }
    for words in ["Start", "Goal"] {
        assert!(page.texts.iter().any(|t| t.2 == words), "{words}");
    }
    let doc = Document::load(&path).unwrap();
    let (_, id) = doc.get_pages().into_iter().next().unwrap();
    let media = numbers(doc.get_dictionary(id).unwrap().get(b"MediaBox").unwrap());
    // A0: 841 x 1189 mm.
    let mm = |pt: f32| pt * 25.4 / 72.0;
    assert!((mm(media[2]) - 841.0).abs() < 0.5 && (mm(media[3]) - 1189.0).abs() < 0.5);
    // Each map: the scale of the form it draws (the `cm` before its `Do`).
    let mut sizes = Vec::new();
    let mut scale = (0.0, 0.0);
    for op in doc.get_and_decode_page_content(id).unwrap().operations {
        match op.operator.as_str() {
            "cm" => {
                scale = (
                    op.operands[0].as_float().unwrap(),
                    op.operands[3].as_float().unwrap(),
                )
            }
            "Do" => sizes.push(scale),
            _ => {}
        }
    }
    assert_eq!(sizes.len(), 3);
    for (i, least) in [(0, 1.5), (2, 2.5)] {
        let w = sizes[i].0;
        assert!(
            mm(w) / 243.0 >= least,
            "map {i}: the smallest square is {} mm",
            mm(w) / 243.0
        );
        assert!(mm(w) <= 841.0);
    }
    let covered: f32 = sizes.iter().map(|(w, h)| w * h).sum();
    assert!(
        covered >= 2.0 / 3.0 * media[2] * media[3],
        "the drawings cover {:.0}% of the page",
        100.0 * covered / (media[2] * media[3])
    );
}

#[test]
fn every_pdf_prints_its_page_numbers_and_the_numbers_of_its_links() {
    let found = pdfs();
    let names: Vec<String> = found
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    // The editions of a page per tic-tac-toe position are over the page
    // budget and left out.
    assert_eq!(
        names,
        [
            "tictactoe-gamebook.pdf",
            "towers-hanoi-analysis.pdf",
            "towers-hanoi.pdf"
        ]
    );
    for path in found {
        let pdf = read(&path);
        for (n, page) in &pdf.pages {
            // Its own number, printed (the folio, alone on its line).
            assert!(
                page.texts
                    .iter()
                    .any(|t| t.2 == n.to_string() && t.1 < 36.0),
                "{}: page {n} does not print its number",
                path.display()
            );
            for (rect, to) in &page.links {
                let inside = page.texts_in(*rect);
                let numbers: Vec<String> = inside
                    .iter()
                    .flat_map(|t| {
                        t.split(|c: char| !c.is_ascii_digit())
                            .filter(|s| !s.is_empty())
                            .map(String::from)
                    })
                    .collect();
                assert_eq!(
                    numbers,
                    [to.to_string()],
                    "{}: page {n}: a link to page {to} prints {inside:?}",
                    path.display()
                );
            }
            // Every cell link is a cell element's, and says where it goes.
            let turn_tos: BTreeSet<u32> = page
                .cells
                .iter()
                .filter_map(|a| a.split("turn to page ").nth(1))
                .map(|n| n.parse().unwrap())
                .collect();
            let linked: BTreeSet<u32> = page.links.iter().map(|l| l.1).collect();
            assert!(turn_tos.is_subset(&linked), "{}: page {n}", path.display());
        }
    }
}

/// The Towers of Hanoi on paper, one choice a peg: a page prints a page
/// number only in the space above a peg that can be chosen (at most
/// three), inside that peg's link, and no other number on the board. The
/// board is as large as the page allows: its three columns fill the
/// width inside the margins (the rows are short, so width is the limit).
#[test]
fn a_hanoi_page_prints_one_number_for_each_peg_it_can_choose() {
    let hanoi: Vec<PathBuf> = pdfs()
        .into_iter()
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("towers-hanoi")
        })
        .collect();
    assert_eq!(hanoi.len(), 2);
    for path in hanoi {
        let pdf = read(&path);
        let mut choices = 0;
        // Page 1 is the opening page.
        for (n, page) in pdf.pages.iter().filter(|(n, _)| **n > 1) {
            // The board's links (a nav line, "Start again: turn to page
            // 2", is one too, and names no peg).
            let linked: Vec<&String> = page
                .cells
                .iter()
                .filter(|a| a.contains("turn to page") && a.contains(" peg"))
                .collect();
            assert!(linked.len() <= 3, "{}: page {n}", path.display());
            for alt in &linked {
                assert!(
                    alt.starts_with("above the"),
                    "{}: page {n}: {alt}",
                    path.display()
                );
            }
            // The numbers printed above the folio: one a linked peg.
            let printed = page
                .texts
                .iter()
                .filter(|t| t.1 >= 36.0 && t.2.chars().all(|c| c.is_ascii_digit()))
                .count();
            assert_eq!(printed, linked.len(), "{}: page {n}", path.display());
            // A peg's link is its column: a third of the width inside the
            // half-inch margins of a 396 pt page.
            let column = (396.0 - 2.0 * 36.0) / 3.0;
            let columns = page
                .links
                .iter()
                .filter(|(r, _)| {
                    (r[2] - r[0] - column).abs() < 0.5 && r[0] >= 35.5 && r[2] <= 360.5
                })
                .count();
            assert_eq!(
                columns,
                linked.len(),
                "{}: page {n}: {:?}",
                path.display(),
                page.links
            );
            choices += linked.len();
        }
        assert!(choices > 0, "{}", path.display());
    }
}

/// A board page's nine cells, read from their alt text: `X`, `O` or
/// empty (with the page to turn to).
fn board_of(page: &Page) -> ([Cell; 9], [Option<u32>; 9]) {
    let cells: Vec<&String> = page
        .cells
        .iter()
        .filter(|a| {
            Square::ALL
                .iter()
                .any(|s| a.starts_with(&format!("{}:", s.name())))
        })
        .collect();
    assert_eq!(cells.len(), 9, "{page:?}");
    let mut board = [Cell::Empty; 9];
    let mut links = [None; 9];
    for (i, (alt, square)) in cells.iter().zip(Square::ALL).enumerate() {
        let rest = alt
            .strip_prefix(&format!("{}: ", square.name()))
            .unwrap_or_else(|| panic!("{alt} does not name {}", square.name()));
        let holds = rest.split(',').next().unwrap();
        board[i] = match holds {
            "X" => Cell::Taken(Player::X),
            "O" => Cell::Taken(Player::O),
            "empty" => Cell::Empty,
            other => panic!("{alt}: {other}"),
        };
        links[i] = rest
            .split("turn to page ")
            .nth(1)
            .map(|n| n.parse().unwrap());
    }
    (board, links)
}

fn cells(board: Board) -> [Cell; 9] {
    Square::ALL.map(|s| board.cell(s))
}

#[test]
fn the_gamebook_plays_every_line_and_never_loses() {
    let path = built().join("ebooks/tictactoe-gamebook.pdf");
    let pdf = read(&path);
    let solver = Solver::new(StateGraph::<Board>::new());
    // Tic Tac Tome has 1,444 pages; the issue asks for under 400.
    assert!(pdf.pages.len() < 400, "{} pages", pdf.pages.len());
    // The opening page names where each half starts.
    let opening = &pdf.pages[&1];
    let starts: Vec<u32> = opening.links.iter().map(|l| l.1).collect();
    assert_eq!(starts.len(), 2);
    let empty: Vec<u32> = pdf
        .pages
        .iter()
        .filter(|(_, p)| p.cells.len() == 9 && board_of(p).0 == [Cell::Empty; 9])
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(
        empty,
        [starts[0]],
        "one page has the empty board: the first half's start"
    );
    let (first, _) = board_of(&pdf.pages[&starts[1]]);
    let xs = first
        .iter()
        .filter(|c| **c == Cell::Taken(Player::X))
        .count();
    assert_eq!(
        (xs, first.iter().filter(|c| **c == Cell::Empty).count()),
        (1, 8)
    );
    let opening_square = Square::ALL[first.iter().position(|c| *c != Cell::Empty).unwrap()];

    let mut all_pages = BTreeSet::new();
    for (start, board, reader) in [
        (starts[0], Board::EMPTY, Player::X),
        (
            starts[1],
            Board::EMPTY.play(opening_square).unwrap(),
            Player::O,
        ),
    ] {
        let mut queue = VecDeque::from([(start, board, None)]);
        // Within a half, each board is one page, whatever the move order,
        // but for one the book reaches by two moves: a page for each.
        let mut reached: BTreeMap<(Board, Option<Square>), u32> = BTreeMap::new();
        while let Some((n, board, reply)) = queue.pop_front() {
            if let Some(&page) = reached.get(&(board, reply)) {
                assert_eq!(page, n, "{board:?} has two pages for one move");
                continue;
            }
            reached.insert((board, reply), n);
            all_pages.insert(n);
            let page = &pdf.pages[&n];
            let words: String = page
                .texts
                .iter()
                .map(|t| t.2.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            if let Some(reply) = reply {
                let said = format!("The computer took the {} square.", reply.name());
                assert!(words.contains(&said), "page {n}: not {said}: {words}");
            }
            let half = if reader == Player::X {
                "First half"
            } else {
                "Second half"
            };
            assert!(words.contains(half), "page {n}: {words}");
            let (drawn, links) = board_of(page);
            assert_eq!(drawn, cells(board), "page {n}");
            match board.status() {
                Status::Won { winner, .. } => {
                    assert_ne!(winner, reader, "page {n}: the book lost");
                    assert_eq!(links, [None; 9], "page {n}: a finished board links");
                    continue;
                }
                Status::Draw => {
                    assert_eq!(links, [None; 9], "page {n}: a finished board links");
                    continue;
                }
                Status::InPlay(p) => assert_eq!(p, reader, "page {n}: not the reader's turn"),
            }
            for (i, square) in Square::ALL.into_iter().enumerate() {
                let Ok(after) = board.play(square) else {
                    assert_eq!(links[i], None, "page {n}: a taken square links");
                    continue;
                };
                let to = links[i].unwrap_or_else(|| panic!("page {n}: {square:?} has no link"));
                let landed = board_of(&pdf.pages[&to]).0;
                let mut made = None;
                let next = if after.is_over() {
                    after
                } else {
                    // Exactly one more mark, the book's, a best reply.
                    let reply = Square::ALL
                        .into_iter()
                        .find(|&s| after.cell(s) == Cell::Empty && landed[s.index()] != Cell::Empty)
                        .unwrap_or_else(|| panic!("page {n} -> {to}: no reply"));
                    let scores = solver.move_scores(after);
                    let best = scores.iter().map(|m| m.1).max();
                    let score = scores.iter().find(|m| m.0 == reply).map(|m| m.1);
                    assert_eq!(score, best, "page {n} -> {to}: not a best reply");
                    made = Some(reply);
                    after.play(reply).unwrap()
                };
                assert_eq!(landed, cells(next), "page {n} -> {to}");
                queue.push_back((to, next, made));
            }
        }
    }
    assert_eq!(
        all_pages.len(),
        pdf.pages.len() - 1,
        "every page but the opening is a board played to"
    );
}

#[test]
fn qpdf_pdffonts_pdftotext_and_mutool_read_every_pdf() {
    let tools = [
        ("qpdf", runs("qpdf", &["--version"])),
        ("pdffonts", runs("pdffonts", &["-v"])),
        ("pdftotext", runs("pdftotext", &["-v"])),
        (
            "mutool",
            runs("mutool", &["-v"]) || Path::new("/usr/bin/mutool").exists(),
        ),
    ];
    let poster = built().join("ebooks").join(tictactoe_book::ebook::POSTER);
    for path in pdfs().into_iter().chain([poster]) {
        let file = path.to_str().unwrap();
        if have("qpdf", tools[0].1) {
            let o = run("qpdf", &["--check", file]);
            let out = text(&o);
            assert!(o.status.success(), "{file}: {out}");
            assert!(!out.to_lowercase().contains("warning"), "{file}: {out}");
        }
        if have("pdffonts", tools[1].1) {
            let o = run("pdffonts", &[file]);
            let out = text(&o);
            let rows: Vec<&str> = out.lines().skip(2).collect();
            assert!(!rows.is_empty(), "{file}: no fonts");
            for row in rows {
                // name, type..., emb sub uni, object id: emb is "yes".
                let cols: Vec<&str> = row.split_whitespace().collect();
                assert_eq!(cols[cols.len() - 5], "yes", "{file}: not embedded: {row}");
            }
        }
        if have("pdftotext", tools[2].1) {
            let pdf = read(&path);
            let o = run("pdftotext", &["-layout", file, "-"]);
            assert!(o.status.success(), "{file}: {}", text(&o));
            // Pages end in form feeds.
            let out = String::from_utf8(o.stdout).unwrap();
            let texts: Vec<&str> = out.split('\x0c').collect();
            for (n, page) in &pdf.pages {
                let words: BTreeSet<&str> = texts[*n as usize - 1]
                    .split(|c: char| !c.is_ascii_digit())
                    .collect();
                for (_, to) in &page.links {
                    assert!(
                        words.contains(to.to_string().as_str()),
                        "{file}: page {n}: pdftotext lacks {to}: {}",
                        texts[*n as usize - 1]
                    );
                }
            }
        }
        if have("mutool", tools[3].1) {
            let tmp = tempfile::tempdir().unwrap();
            let png = tmp.path().join("p%d.png");
            let o = run(
                "mutool",
                &["draw", "-q", "-r", "36", "-o", png.to_str().unwrap(), file],
            );
            // Debian's MuPDF is built without ICC colour management and
            // says so before it opens any file, even a missing one.
            let out: Vec<String> = text(&o)
                .lines()
                .filter(|l| *l != "warning: ICC support is not available")
                .map(String::from)
                .collect();
            assert!(o.status.success(), "{file}: {out:?}");
            assert!(out.is_empty(), "{file}: mutool warns: {out:?}");
        }
    }
}

#[test]
fn pdf_js_and_chromium_follow_the_links_to_the_pages_they_print() {
    let e2e = crate::common::repo().join("tests/e2e");
    let ready = runs("node", &["--version"])
        && Path::new("/usr/bin/chromium").is_file()
        && e2e.join("node_modules/pdfjs-dist/package.json").is_file()
        && e2e
            .join("node_modules/playwright-core/package.json")
            .is_file();
    if !have(
        "node, Chromium and pdf.js (npm ci --prefix tests/e2e)",
        ready,
    ) {
        return;
    }
    let o = std::process::Command::new("node")
        .args(["--test", "--test-concurrency=1"])
        .arg(e2e.join("pdf.test.mjs"))
        .env("SITE_DIR", built())
        .output()
        .expect("node runs");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("# fail 0") && t.contains("# pass 6"), "{t}");
}
