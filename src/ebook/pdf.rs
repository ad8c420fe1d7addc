//! The print format: an edition as a tagged PDF that plays on paper and
//! on a screen. Each screen is one page; every linked cell prints the
//! number of the page to turn to, inside its link, so one file works with
//! a finger and with a pencil.
//!
//! Invariants: pages are numbered from 1 in print order and every page
//! prints its own number; each cell is one structure element whose `/Alt`
//! names the cell and what it holds (and the page to turn to), and owns
//! its link; the only text is in the shipped font, embedded as a subset;
//! the same edition gives the same bytes (no clock, no random id).
//!
//! The trim is 5.5 x 8.5 inches (US digest, half letter): a standard size
//! at print-on-demand services, two pages print side by side on one
//! letter sheet, and a board of three cells a row fills the width with
//! squares about an inch and a half wide, easy to write a page number in.

use std::collections::BTreeSet;

use pdf_writer::types::{
    ActionType, AnnotationFlags, AnnotationType, ArtifactType, CidFontType, FontFlags,
    LineCapStyle, StructRole, SystemInfo, UnicodeCmap,
};
use pdf_writer::{Chunk, Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};
use rustc_hash::FxHashMap;

use super::{caption, deflate, intro_on_paper};
use crate::assets::{Assets, FONT};
use crate::game::Stroke;
use crate::picture::{Pen, Picture, Shapes};
use crate::screen::{Edition, Screen, Target};

/// The page's width and height in points (5.5 x 8.5 inches).
pub const PAGE: (f32, f32) = (396.0, 612.0);

/// The margin on every side, in points.
const MARGIN: f32 = 36.0;

/// What a book in this format is drawn with: the shipped font, and the
/// SVG of each image the edition's cells can show, by image index.
pub struct Drawing<'a> {
    /// The TrueType font file.
    pub font: &'a [u8],
    /// Each of the edition's images as SVG, in [`Edition::images`] order;
    /// `None` for those no screen uses.
    pub svgs: Vec<Option<&'a [u8]>>,
    /// Each image's height over its width, from its SVG (1 for a square):
    /// a row of cells is as high as its tallest image at the cells' width.
    pub aspects: Vec<f32>,
}

/// An SVG's height over its width, from its root's `width` and `height`;
/// 1 when it does not say.
fn aspect(svg: &[u8]) -> f32 {
    let size = || {
        let doc = roxmltree::Document::parse(std::str::from_utf8(svg).ok()?).ok()?;
        let number = |name| doc.root_element().attribute(name)?.parse::<f32>().ok();
        Some(number("height")? / number("width")?)
    };
    size().filter(|a| a.is_finite() && *a > 0.0).unwrap_or(1.0)
}

impl<'a> Drawing<'a> {
    /// What `book` is drawn with, from `static/`.
    pub fn new(book: &Edition, assets: &'a Assets) -> Drawing<'a> {
        let used = book.used_images();
        let svgs: Vec<Option<&[u8]>> = book
            .images
            .iter()
            .map(|n| used.contains(n).then(|| assets.get(&format!("{n}.svg"))))
            .collect();
        Drawing {
            font: assets.get(FONT),
            aspects: svgs.iter().map(|s| s.map_or(1.0, aspect)).collect(),
            svgs,
        }
    }
}

/// How many pages `book` (as books show it) takes: its opening, then a
/// page a screen.
pub fn pages(book: &Edition) -> usize {
    book.screens.len() + 1
}

/// A line of text to set: where its baseline starts, its size, and it.
struct Run {
    x: f32,
    y: f32,
    size: f32,
    text: String,
}

/// The shipped font, measured, and the glyphs a book uses.
struct Font<'a> {
    face: ttf_parser::Face<'a>,
    data: &'a [u8],
    /// Original glyph id to its id in the subset.
    remapper: subsetter::GlyphRemapper,
    /// The characters the book sets, in order, each with its glyph in the
    /// whole font and its advance in font units: looked up once, as a
    /// book sets thousands of lines.
    chars: Vec<(char, u16, u16)>,
}

impl<'a> Font<'a> {
    fn new(data: &'a [u8]) -> Font<'a> {
        let face = ttf_parser::Face::parse(data, 0).expect("the font was checked when loaded");
        Font {
            face,
            data,
            remapper: subsetter::GlyphRemapper::new(),
            chars: Vec::new(),
        }
    }

    /// Takes the characters a book sets: the subset holds their glyphs.
    fn set_chars(&mut self, chars: impl IntoIterator<Item = char>) {
        self.chars = chars
            .into_iter()
            .map(|c| {
                let g = self.face.glyph_index(c).map_or(0, |g| g.0);
                let advance = self.face.glyph_hor_advance(ttf_parser::GlyphId(g));
                (c, g, advance.unwrap_or(0))
            })
            .collect();
        self.chars.sort_unstable();
        let mut glyphs: Vec<u16> = self.chars.iter().map(|c| c.1).collect();
        glyphs.sort_unstable();
        glyphs.dedup();
        for g in glyphs {
            self.remapper.remap(g);
        }
    }

    /// A character's glyph in the whole font and its advance.
    fn glyph(&self, c: char) -> (u16, u16) {
        match self.chars.binary_search_by_key(&c, |e| e.0) {
            Ok(i) => (self.chars[i].1, self.chars[i].2),
            Err(_) => (0, 0),
        }
    }

    /// The width of `text` at `size` points.
    fn width(&self, text: &str, size: f32) -> f32 {
        self.points(self.units(text), size)
    }

    /// The advance of `text` in font units.
    fn units(&self, text: &str) -> u32 {
        text.chars().map(|c| u32::from(self.glyph(c).1)).sum()
    }

    /// `units` of the font at `size` points.
    fn points(&self, units: u32, size: f32) -> f32 {
        units as f32 * size / f32::from(self.face.units_per_em())
    }

    /// Words of `text` in lines no wider than `width` at `size`; a line
    /// always takes its first word. Each word is measured once.
    fn wrap(&self, text: &str, size: f32, width: f32) -> Vec<String> {
        let space = self.units(" ");
        let mut lines: Vec<String> = Vec::new();
        let (mut line, mut line_units) = (String::new(), 0);
        for word in text.split_whitespace() {
            let units = self.units(word);
            if line.is_empty() {
                (line_units, line) = (units, word.to_string());
            } else if self.points(line_units + space + units, size) > width {
                lines.push(std::mem::replace(&mut line, word.to_string()));
                line_units = units;
            } else {
                line.push(' ');
                line.push_str(word);
                line_units += space + units;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }

    /// `text` in the subset's glyph ids, two bytes each (Identity-H).
    fn encode(&self, text: &str) -> Vec<u8> {
        text.chars()
            .flat_map(|c| {
                let g = self.remapper.get(self.glyph(c).0).unwrap_or(0);
                g.to_be_bytes()
            })
            .collect()
    }
}

/// One page as laid out: its content stream and what its structure
/// elements and links need.
struct Page {
    content: Vec<u8>,
    /// Each structure element: its role, alt text, marked-content ids and
    /// the index of its link in `links`, if it has one.
    elements: Vec<Element>,
    /// Each link: its rectangle and the page index it lands on.
    links: Vec<(Rect, usize)>,
}

/// A structure element of a page: a paragraph, a cell or a text link.
struct Element {
    role: StructRole,
    alt: Option<String>,
    mcid: i32,
    link: Option<usize>,
}

/// Places the texts of the opening page and of each screen, given the
/// page of every target (so every "turn to" number is known).
struct Layout<'a, 'f> {
    font: &'a Font<'f>,
    /// The page index of every target.
    pages: &'a FxHashMap<Target, usize>,
    /// Each image's height over its width.
    aspects: &'a [f32],
}

/// The name of the font and of image `i` in a page's resources.
const FONT_NAME: Name = Name(b"F");

fn image_name(i: usize) -> String {
    format!("I{i}")
}

/// A page number as printed: counted from 1.
fn number(page: usize) -> String {
    (page + 1).to_string()
}

/// Sets `run` in the font.
fn set(content: &mut Content, font: &Font, run: &Run) {
    content
        .begin_text()
        .set_font(FONT_NAME, run.size)
        .next_line(run.x, run.y)
        .show(Str(&font.encode(&run.text)))
        .end_text();
}

impl Layout<'_, '_> {
    /// `text` wrapped to the page's width at `size` points, a line a run
    /// from `y` down, and a gap after it; `y` ends below the gap.
    fn paragraph(&self, text: &str, size: f32, y: &mut f32, runs: &mut Vec<Run>) {
        for line in self.font.wrap(text, size, PAGE.0 - 2.0 * MARGIN) {
            runs.push(Run {
                x: MARGIN,
                y: *y,
                size,
                text: line,
            });
            *y -= size * 1.35;
        }
        *y -= size * 0.6;
    }

    /// The opening page: the title, the rules, what the edition is, and
    /// each line of the contents with the page it starts on.
    fn opening(&self, book: &Edition) -> (Vec<Run>, Vec<(Run, Target)>) {
        let mut y = PAGE.1 - MARGIN - 20.0;
        let mut runs = Vec::new();
        self.paragraph(&book.title, 20.0, &mut y, &mut runs);
        for paragraph in intro_on_paper(book) {
            self.paragraph(paragraph, 11.0, &mut y, &mut runs);
        }
        let mut links = Vec::new();
        for (line, target) in &book.contents {
            y -= 8.0;
            let text = format!("{line}: turn to page {}", number(self.pages[target]));
            links.push((
                Run {
                    x: MARGIN,
                    y,
                    size: 12.0,
                    text,
                },
                *target,
            ));
            y -= 16.0;
        }
        (runs, links)
    }

    /// The texts of a screen, placed: the heading and lines at the top,
    /// the nav lines under the grid, and the grid's cell size and origin.
    fn screen_text(&self, screen: &Screen) -> (Vec<Run>, Vec<(Run, Target)>, Grid) {
        let width = PAGE.0 - 2.0 * MARGIN;
        let mut y = PAGE.1 - MARGIN - 16.0;
        let mut runs = Vec::new();
        for (i, line) in caption(screen).enumerate() {
            let size = if i == 0 { 16.0 } else { 11.0 };
            self.paragraph(line, size, &mut y, &mut runs);
        }
        let top = y + 4.0;
        let nav: Vec<(Target, &str)> = screen.book_nav().collect();
        // Room below the grid: the nav lines, then the page number.
        let bottom = MARGIN + 24.0 + nav.len() as f32 * 20.0;
        // Each row as high as its tallest image, for a cell's width of 1.
        let rows: Vec<f32> = screen
            .rows()
            .map(|row| row.map(|c| self.aspects[c.look.image]).fold(0.0, f32::max))
            .collect();
        let high: f32 = rows.iter().sum();
        // As large as the page allows: the grid fills the width inside the
        // margins, or the height between the words, whichever is less.
        let cell = (width / screen.columns as f32).min((top - bottom) / high);
        let grid = Grid {
            x: (PAGE.0 - cell * screen.columns as f32) / 2.0,
            top,
            cell,
            rows,
        };
        let mut links = Vec::new();
        let mut y = top - cell * high - 22.0;
        for (target, words) in nav {
            let text = format!("{words}: turn to page {}", number(self.pages[&target]));
            links.push((
                Run {
                    x: MARGIN,
                    y,
                    size: 12.0,
                    text,
                },
                target,
            ));
            y -= 20.0;
        }
        (runs, links, grid)
    }
}

/// Where a screen's grid goes: its left edge, its top, a cell's width and
/// each row's height over that width.
struct Grid {
    x: f32,
    top: f32,
    cell: f32,
    rows: Vec<f32>,
}

/// Draws a run of text as one structure element of `role`, with `alt`
/// text and the link at `link` in the page's links, if any.
fn tagged_run(
    page: &mut Page,
    content: &mut Content,
    font: &Font,
    run: &Run,
    (role, tag): (StructRole, Name),
    link: Option<usize>,
) {
    let mcid = page.elements.len() as i32;
    content
        .begin_marked_content_with_properties(tag)
        .properties()
        .identify(mcid);
    set(content, font, run);
    content.end_marked_content();
    page.elements.push(Element {
        role,
        alt: link.map(|_| run.text.clone()),
        mcid,
        link,
    });
}

/// Draws a run of text as a link to `target`, tagged, with its link's
/// rectangle around it.
fn text_link(page: &mut Page, content: &mut Content, font: &Font, run: &Run, target: usize) {
    let w = font.width(&run.text, run.size);
    let rect = Rect::new(run.x - 2.0, run.y - 4.0, run.x + w + 2.0, run.y + run.size);
    page.links.push((rect, target));
    let link = Some(page.links.len() - 1);
    tagged_run(
        page,
        content,
        font,
        run,
        (StructRole::Link, Name(b"Link")),
        link,
    );
}

/// Draws runs of plain text, one paragraph element each.
fn paragraphs(page: &mut Page, content: &mut Content, font: &Font, runs: &[Run]) {
    for run in runs {
        tagged_run(page, content, font, run, (StructRole::P, Name(b"P")), None);
    }
}

/// The page number at the foot of page `index`, as a pagination artifact.
fn folio(content: &mut Content, font: &Font, index: usize) {
    let text = number(index);
    let size = 10.0;
    let run = Run {
        x: (PAGE.0 - font.width(&text, size)) / 2.0,
        y: MARGIN - 12.0,
        size,
        text,
    };
    content
        .begin_marked_content_with_properties(Name(b"Artifact"))
        .properties()
        .artifact()
        .kind(ArtifactType::Pagination);
    set(content, font, &run);
    content.end_marked_content();
}

/// Every text the book sets, for the font subset.
fn all_text(book: &Edition) -> BTreeSet<char> {
    let mut chars: BTreeSet<char> = "0123456789: turn to page".chars().collect();
    let mut add = |s: &str| chars.extend(s.chars());
    add(&book.title);
    for p in intro_on_paper(book) {
        add(p);
    }
    for (line, _) in &book.contents {
        add(line);
    }
    for s in &book.screens {
        for line in caption(s) {
            add(line);
        }
        for (_, words) in &s.nav {
            add(words);
        }
    }
    chars
}

/// Writes `book` (as books show it) as a PDF, its cells drawn from
/// `drawing`.
pub fn write(book: &Edition, drawing: &Drawing) -> Result<Vec<u8>, Undrawable> {
    let mut font = Font::new(drawing.font);
    font.set_chars(all_text(book));
    let font = font;

    // Page 0 is the opening; screen i is page i + 1.
    let pages: FxHashMap<Target, usize> = std::iter::once((Target::Contents, 0))
        .chain(
            book.screens
                .iter()
                .enumerate()
                .map(|(i, s)| (s.target, i + 1)),
        )
        .collect();
    let layout = Layout {
        font: &font,
        pages: &pages,
        aspects: &drawing.aspects,
    };

    let mut laid: Vec<Page> = Vec::with_capacity(book.screens.len() + 1);
    let (runs, links) = layout.opening(book);
    laid.push(lay_out(&font, 0, &runs, &links, &pages, |_, _| {}));
    let screen_pages = crate::par::map(&book.screens, |screen| {
        let index = pages[&screen.target];
        let (runs, links, grid) = layout.screen_text(screen);
        lay_out(&font, index, &runs, &links, &pages, |page, content| {
            draw_cells(page, content, &font, &pages, screen, &grid)
        })
    });
    laid.extend(screen_pages);
    let doc = Doc {
        title: &book.title,
        size: PAGE,
        svgs: &drawing.svgs,
        pictures: &[],
        font: drawing.font,
    };
    assemble(&doc, &font, laid).map_err(|(image, why)| Undrawable {
        name: format!("{}.svg", book.images[image]),
        why,
    })
}

/// A picture of `static/` that a PDF cannot draw: its SVG's name, and
/// what usvg says of it. `static/` is checked when it is read for SVGs
/// usvg reads, so that the build fails before it writes; this is the
/// line the build fails with if one is met all the same, not a panic.
#[derive(Debug)]
pub struct Undrawable {
    /// The SVG's name in `static/`.
    pub name: String,
    /// Why it cannot be drawn.
    pub why: String,
}

/// Page `index`: its `runs` of text, what `cells` draws, its text `links`
/// and its number.
fn lay_out(
    font: &Font,
    index: usize,
    runs: &[Run],
    links: &[(Run, Target)],
    pages: &FxHashMap<Target, usize>,
    cells: impl FnOnce(&mut Page, &mut Content),
) -> Page {
    let mut page = Page {
        content: Vec::new(),
        elements: Vec::new(),
        links: Vec::new(),
    };
    let mut content = Content::new();
    paragraphs(&mut page, &mut content, font, runs);
    cells(&mut page, &mut content);
    for (run, target) in links {
        text_link(&mut page, &mut content, font, run, pages[target]);
    }
    folio(&mut content, font, index);
    page.content = content.finish();
    page
}

/// A screen's cells on `grid`: each image, and in each linked cell the
/// number of the page it links to; one structure element a cell.
fn draw_cells(
    page: &mut Page,
    content: &mut Content,
    font: &Font,
    pages: &FxHashMap<Target, usize>,
    screen: &Screen,
    grid: &Grid,
) {
    // How far down each row's bottom lies, over a cell's width: for
    // square cells, row r's is r + 1.
    let below: Vec<f32> = grid
        .rows
        .iter()
        .scan(0.0, |sum, r| {
            *sum += r;
            Some(*sum)
        })
        .collect();
    for (i, cell) in screen.cells.iter().enumerate() {
        let (row, column) = (i / screen.columns, i % screen.columns);
        let (w, h) = (grid.cell, grid.cell * grid.rows[row]);
        let x = grid.x + column as f32 * w;
        let y = grid.top - below[row] * grid.cell;
        let mcid = page.elements.len() as i32;
        let role = if cell.link().is_some() {
            StructRole::Link
        } else {
            StructRole::Figure
        };
        content
            .begin_marked_content_with_properties(if cell.link().is_some() {
                Name(b"Link")
            } else {
                Name(b"Figure")
            })
            .properties()
            .identify(mcid);
        content
            .save_state()
            .transform([w, 0.0, 0.0, h, x, y])
            .x_object(Name(image_name(cell.look.image).as_bytes()))
            .restore_state();
        let mut alt = cell.look.holds.to_string();
        let mut link = None;
        if let Some(target) = cell.link() {
            let to = pages[&target];
            let text = number(to);
            // The number sits in a white box low in the cell, inside
            // the link, so it reads over any image.
            let size = (w.min(h) * 0.2).clamp(9.0, 18.0);
            let tw = font.width(&text, size);
            let (bw, bh) = (tw + size * 0.8, size * 1.3);
            let (bx, by) = (x + (w - bw) / 2.0, y + h * 0.08);
            content
                .save_state()
                .set_fill_gray(1.0)
                .set_stroke_gray(0.0)
                .set_line_width(0.75)
                .rect(bx, by, bw, bh)
                .fill_nonzero_and_stroke()
                .set_fill_gray(0.0)
                .restore_state();
            set(
                content,
                font,
                &Run {
                    x: bx + (bw - tw) / 2.0,
                    y: by + size * 0.32,
                    size,
                    text: text.clone(),
                },
            );
            alt.push_str(", turn to page ");
            alt.push_str(&text);
            page.links.push((Rect::new(x, y, x + w, y + h), to));
            link = Some(page.links.len() - 1);
        }
        content.end_marked_content();
        page.elements.push(Element {
            role,
            alt: Some(alt),
            mcid,
            link,
        });
    }
}

/// What a file is made of besides its pages: its title, its page size in
/// points, its images as SVG (by image index; `None` for one not drawn)
/// and the shipped font.
struct Doc<'a> {
    title: &'a str,
    size: (f32, f32),
    svgs: &'a [Option<&'a [u8]>],
    /// Drawn after the SVGs, numbered on from them.
    pictures: &'a [&'a Picture],
    font: &'a [u8],
}

/// The file: catalog, pages, structure tree, the font subset and the
/// images as form XObjects.
/// An SVG that cannot be drawn is an error: its index and why.
fn assemble(doc: &Doc, font: &Font, pages: Vec<Page>) -> Result<Vec<u8>, (usize, String)> {
    let mut next = Ref::new(1);
    let mut alloc = || next.bump();
    let catalog = alloc();
    let tree = alloc();
    let struct_root = alloc();
    let document = alloc();
    let type0 = alloc();
    let cid = alloc();
    let descriptor = alloc();
    let cmap = alloc();
    let font_file = alloc();
    let info = alloc();

    let mut pdf = Pdf::new();
    // The images, each a form XObject drawn from its SVG, then the
    // pictures.
    let mut images: Vec<Option<Ref>> = vec![None; doc.svgs.len()];
    let mut svg_chunks = Chunk::new();
    let svg_options = std::cell::OnceCell::new();
    for (i, svg) in doc.svgs.iter().enumerate() {
        let Some(svg) = svg else { continue };
        let svg_options = svg_options.get_or_init(|| svg_options_for(doc.font));
        let tree = usvg::Tree::from_data(svg, svg_options)
            .map_err(|e| (i, format!("not an SVG image ({e})")))?;
        let options = svg2pdf::ConversionOptions {
            embed_text: false,
            ..Default::default()
        };
        let (chunk, id) = svg2pdf::to_chunk(&tree, options)
            .map_err(|e| (i, format!("an SVG image the PDF cannot draw ({e})")))?;
        let mut map = FxHashMap::default();
        let chunk = chunk.renumber(|old| *map.entry(old).or_insert_with(&mut alloc));
        images[i] = Some(map[&id]);
        svg_chunks.extend(&chunk);
    }
    for picture in doc.pictures {
        images.push(Some(picture_form(&mut svg_chunks, picture, &mut alloc)));
    }

    let page_ids: Vec<Ref> = pages.iter().map(|_| alloc()).collect();
    {
        let mut c = pdf.catalog(catalog);
        c.pages(tree)
            .lang(TextStr("en"))
            .pair(Name(b"StructTreeRoot"), struct_root);
        c.mark_info().marked(true);
        c.viewer_preferences().display_doc_title(true);
    }
    pdf.pages(tree)
        .kids(page_ids.iter().copied())
        .count(page_ids.len() as i32);

    let mut parent_entries: Vec<(i32, Ref)> = Vec::new();
    let mut annotation_key = pages.len() as i32;
    let mut document_kids = Vec::new();
    for (index, page) in pages.iter().enumerate() {
        let page_id = page_ids[index];
        let content_id = alloc();
        let element_ids: Vec<Ref> = page.elements.iter().map(|_| alloc()).collect();
        let link_ids: Vec<Ref> = page.links.iter().map(|_| alloc()).collect();
        let link_keys: Vec<i32> = page
            .links
            .iter()
            .map(|_| {
                annotation_key += 1;
                annotation_key - 1
            })
            .collect();
        {
            let mut p = pdf.page(page_id);
            p.media_box(Rect::new(0.0, 0.0, doc.size.0, doc.size.1))
                .parent(tree)
                .contents(content_id)
                .struct_parents(index as i32)
                .tab_order(pdf_writer::types::TabOrder::StructureOrder)
                .annotations(link_ids.iter().copied());
            let mut resources = p.resources();
            resources.fonts().pair(FONT_NAME, type0);
            let mut x = resources.x_objects();
            for (i, r) in images.iter().enumerate() {
                if let Some(r) = r {
                    x.pair(Name(image_name(i).as_bytes()), *r);
                }
            }
        }
        pdf.stream(content_id, &deflate::zlib_quick(&page.content))
            .filter(Filter::FlateDecode);
        for (l, (rect, to)) in page.links.iter().enumerate() {
            let mut a = pdf.annotation(link_ids[l]);
            a.subtype(AnnotationType::Link)
                .rect(*rect)
                .flags(AnnotationFlags::PRINT)
                .border(0.0, 0.0, 0.0, None)
                .struct_parent(link_keys[l]);
            let alt = page.elements.iter().find(|e| e.link == Some(l));
            if let Some(alt) = alt.and_then(|e| e.alt.as_ref()) {
                a.contents(TextStr(alt));
            }
            a.action()
                .action_type(ActionType::GoTo)
                .destination()
                .page(page_ids[*to])
                .fit();
        }
        for (e, element) in page.elements.iter().enumerate() {
            let mut s = pdf.struct_element(element_ids[e]);
            s.kind(element.role).parent(document).page(page_id);
            if let Some(alt) = &element.alt {
                s.alt(TextStr(alt));
            }
            let mut kids = s.children();
            kids.marked_content_id(element.mcid);
            if let Some(l) = element.link {
                kids.object_ref().page(page_id).object(link_ids[l]);
                parent_entries.push((link_keys[l], element_ids[e]));
            }
        }
        // The page's marked-content ids are its elements in order.
        let array = alloc();
        pdf.indirect(array)
            .array()
            .items(element_ids.iter().copied());
        parent_entries.push((index as i32, array));
        document_kids.extend(element_ids);
    }
    parent_entries.sort_by_key(|e| e.0);

    {
        let mut root = pdf
            .indirect(struct_root)
            .start::<pdf_writer::writers::StructTreeRoot>();
        root.child(document);
        let mut tree = root.parent_tree();
        let mut nums = tree.nums();
        for (key, r) in &parent_entries {
            nums.insert(*key, *r);
        }
        nums.finish();
        tree.finish();
        root.parent_tree_next_key(annotation_key);
    }
    {
        let mut d = pdf.struct_element(document);
        d.kind(StructRole::Document).parent(struct_root);
        let mut kids = d.children();
        for k in document_kids {
            kids.struct_element(k);
        }
    }

    write_font(&mut pdf, font, type0, cid, descriptor, cmap, font_file);
    pdf.document_info(info)
        .title(TextStr(doc.title))
        .author(TextStr(super::AUTHOR))
        .producer(TextStr("tictactoe-book"));
    pdf.extend(&svg_chunks);
    Ok(pdf.finish())
}

/// `colour` (`#rgb` or `#rrggbb`) as PDF's red, green and blue.
fn rgb(colour: &str) -> [f32; 3] {
    let hex = colour.trim_start_matches('#');
    let short = hex.len() == 3;
    let channel = |i: usize| {
        let digits = if short {
            hex[i..=i].repeat(2)
        } else {
            hex[2 * i..2 * i + 2].to_string()
        };
        f32::from(u8::from_str_radix(&digits, 16).expect("a colour in hex")) / 255.0
    };
    [channel(0), channel(1), channel(2)]
}

/// Sets `pen` for the strokes that follow.
fn set_pen(c: &mut Content, pen: &Pen) {
    let [r, g, b] = rgb(pen.colour);
    c.set_stroke_rgb(r, g, b).set_line_width(pen.width as f32);
    c.set_line_cap(if pen.round {
        LineCapStyle::RoundCap
    } else {
        LineCapStyle::ButtCap
    });
}

/// A circle as four Bézier curves, as a path to stroke or fill.
fn circle(c: &mut Content, x: f32, y: f32, r: f32) {
    let k = 0.552_284_8 * r;
    c.move_to(x + r, y);
    c.cubic_to(x + r, y + k, x + k, y + r, x, y + r);
    c.cubic_to(x - k, y + r, x - r, y + k, x - r, y);
    c.cubic_to(x - r, y - k, x - k, y - r, x, y - r);
    c.cubic_to(x + k, y - r, x + r, y - k, x + r, y);
    c.close_path();
}

/// A map's picture as a form XObject on the unit square (as svg2pdf makes
/// an SVG's), into `chunk`: flipped to the picture's units, y down, on
/// white. Each kind of mark is a form of its own in its 100-unit cell,
/// drawn once a square, so a mark's strokes are written once.
fn picture_form(chunk: &mut Chunk, picture: &Picture, alloc: &mut impl FnMut() -> Ref) -> Ref {
    let (w, h) = (picture.width as f32, picture.height as f32);
    let mut c = Content::new();
    c.transform([1.0 / w, 0.0, 0.0, -1.0 / h, 0.0, 1.0]);
    c.set_fill_rgb(1.0, 1.0, 1.0)
        .rect(0.0, 0.0, w, h)
        .fill_nonzero();
    let mut marks = Vec::new();
    for layer in &picture.layers {
        c.save_state();
        match &layer.shapes {
            Shapes::Lines(pen, lines) => {
                set_pen(&mut c, pen);
                for &[x1, y1, x2, y2] in lines {
                    c.move_to(x1 as f32, y1 as f32)
                        .line_to(x2 as f32, y2 as f32);
                }
                c.stroke();
            }
            Shapes::Marks(pen, strokes, squares) => {
                let mut m = Content::new();
                set_pen(&mut m, pen);
                for s in *strokes {
                    match *s {
                        Stroke::Line(x1, y1, x2, y2) => {
                            m.move_to(f32::from(x1), f32::from(y1));
                            m.line_to(f32::from(x2), f32::from(y2));
                        }
                        Stroke::Circle(x, y, r) => {
                            circle(&mut m, f32::from(x), f32::from(y), f32::from(r));
                        }
                    }
                }
                m.stroke();
                let id = alloc();
                chunk
                    .form_xobject(id, &m.finish())
                    .bbox(Rect::new(0.0, 0.0, 100.0, 100.0));
                let name = format!("M{}", marks.len());
                marks.push((name.clone(), id));
                for &[x, y, side] in squares {
                    let k = (side / 100.0) as f32;
                    c.save_state()
                        .transform([k, 0.0, 0.0, k, x as f32, y as f32])
                        .x_object(Name(name.as_bytes()))
                        .restore_state();
                }
            }
            Shapes::Dots(colour, r, at) => {
                let [red, g, b] = rgb(colour);
                c.set_fill_rgb(red, g, b);
                for &[x, y] in at {
                    circle(&mut c, x as f32, y as f32, *r as f32);
                }
                c.fill_nonzero();
            }
        }
        c.restore_state();
    }
    let id = alloc();
    let content = deflate::zlib_quick(&c.finish());
    let mut form = chunk.form_xobject(id, &content);
    form.filter(Filter::FlateDecode);
    form.bbox(Rect::new(0.0, 0.0, 1.0, 1.0));
    let mut resources = form.resources();
    let mut names = resources.x_objects();
    for (name, mark) in &marks {
        names.pair(Name(name.as_bytes()), *mark);
    }
    names.finish();
    resources.finish();
    form.finish();
    id
}

/// How a book's SVGs are read: their text set in the shipped font (the
/// only one the converter knows, so no system font is ever read), loaded
/// once for all of them.
fn svg_options_for(font: &[u8]) -> usvg::Options<'static> {
    let mut options = usvg::Options::default();
    let db = options.fontdb_mut();
    db.load_font_data(font.to_vec());
    db.set_sans_serif_family(FONT_FAMILY);
    options
}

/// The shipped font's family name, which SVG text in `sans-serif` maps to.
const FONT_FAMILY: &str = "DejaVu Sans";

/// The font as a CID-keyed Type 0 font: the subset as `FontFile2`, the
/// widths of its glyphs, and a `ToUnicode` map so text extraction reads it.
fn write_font(
    pdf: &mut Pdf,
    font: &Font,
    type0: Ref,
    cid: Ref,
    descriptor: Ref,
    cmap: Ref,
    file: Ref,
) {
    // A subset's name starts with six capitals; fixed, as nothing here may vary.
    let name = Name(b"TTTBKA+DejaVuSans");
    pdf.type0_font(type0)
        .base_font(name)
        .encoding_predefined(Name(b"Identity-H"))
        .descendant_font(cid)
        .to_unicode(cmap);
    let scale = 1000.0 / f32::from(font.face.units_per_em());
    let originals: Vec<u16> = font.remapper.remapped_gids().collect();
    {
        let mut c = pdf.cid_font(cid);
        c.subtype(CidFontType::Type2)
            .base_font(name)
            .system_info(SYSTEM_INFO)
            .font_descriptor(descriptor)
            .default_width(0.0)
            .cid_to_gid_map_predefined(Name(b"Identity"));
        c.widths().consecutive(
            0,
            originals.iter().map(|&g| {
                f32::from(
                    font.face
                        .glyph_hor_advance(ttf_parser::GlyphId(g))
                        .unwrap_or(0),
                ) * scale
            }),
        );
    }
    let bbox = font.face.global_bounding_box();
    pdf.font_descriptor(descriptor)
        .name(name)
        .flags(FontFlags::NON_SYMBOLIC)
        .bbox(Rect::new(
            f32::from(bbox.x_min) * scale,
            f32::from(bbox.y_min) * scale,
            f32::from(bbox.x_max) * scale,
            f32::from(bbox.y_max) * scale,
        ))
        .italic_angle(0.0)
        .ascent(f32::from(font.face.ascender()) * scale)
        .descent(f32::from(font.face.descender()) * scale)
        .cap_height(f32::from(font.face.capital_height().unwrap_or(font.face.ascender())) * scale)
        .stem_v(80.0)
        .font_file2(file);
    let mut unicode = UnicodeCmap::new(Name(b"Custom"), SYSTEM_INFO);
    for &(c, g, _) in &font.chars {
        if let Some(g) = font.remapper.get(g).filter(|&g| g != 0) {
            unicode.pair(g, c);
        }
    }
    pdf.cmap(cmap, &unicode.finish());
    let subset = subsetter::subset(font.data, 0, &font.remapper).expect("the font subsets");
    pdf.stream(file, &deflate::zlib_quick(&subset))
        .filter(Filter::FlateDecode);
}

const SYSTEM_INFO: SystemInfo = SystemInfo {
    registry: Str(b"Adobe"),
    ordering: Str(b"Identity"),
    supplement: 0,
};

/// A0, portrait, in points (841 x 1189 mm): a standard poster size.
pub const POSTER: (f32, f32) = (2383.94, 3370.39);

/// One map on the poster: its heading, what it shows, and its drawing.
pub struct PosterMap<'a> {
    /// The heading printed above it.
    pub title: &'a str,
    /// What it shows, in words for paper, printed under the heading and
    /// its alternative text.
    pub about: &'a str,
    /// The map's drawing.
    pub picture: &'a Picture,
    /// Its height over its width.
    pub aspect: f32,
    /// Words at points of the drawing (in its units), printed under them:
    /// a puzzle's start and goal.
    pub labels: &'a [([f64; 2], &'static str)],
}

/// The poster made: the PDF, and what it prints at actual size, for the
/// words that tell a reader how to print it.
pub struct Poster {
    /// The PDF.
    pub pdf: Vec<u8>,
    /// The side of the smallest square drawn on it (the cell of a
    /// tic-tac-toe map's deepest board), in millimetres; none if no map
    /// draws marks.
    pub smallest_square_mm: Option<f32>,
}

/// The maps of whole games as one tagged page of [`POSTER`] size, each a
/// vector form drawn from its [`Picture`], with `title` across the top;
/// the map with the most links (the most to see) alone across the foot,
/// as large as the page allows, and the others side by side above it,
/// their drawings as tall as each other; every text in the shipped
/// `font_data`.
pub fn poster(title: &str, maps: &[PosterMap], font_data: &[u8]) -> Poster {
    let mm = 72.0 / 25.4;
    let (margin, gap) = (15.0 * mm, 15.0 * mm);
    let inner = POSTER.0 - 2.0 * margin;
    let mut font = Font::new(font_data);
    let mut chars: BTreeSet<char> = title.chars().collect();
    for m in maps {
        chars.extend(m.title.chars().chain(m.about.chars()));
        chars.extend(m.labels.iter().flat_map(|(_, w)| w.chars()));
    }
    font.set_chars(chars);
    let font = font;
    let mut page = Page {
        content: Vec::new(),
        elements: Vec::new(),
        links: Vec::new(),
    };
    let mut content = Content::new();
    let top = POSTER.1 - margin;
    let heading = Run {
        x: margin,
        y: top - 60.0,
        size: 60.0,
        text: title.to_string(),
    };
    tagged_run(
        &mut page,
        &mut content,
        &font,
        &heading,
        (StructRole::H1, Name(b"H1")),
        None,
    );
    // Where each map goes: `(x, width)` and its row.
    let largest = (0..maps.len())
        .max_by_key(|&i| (maps[i].picture.links.len(), std::cmp::Reverse(i)))
        .expect("a map");
    let others: Vec<usize> = (0..maps.len()).filter(|&i| i != largest).collect();
    // Side by side, each as wide as makes the drawings equally tall.
    let height = (inner - gap * (others.len() as f32 - 1.0))
        / others.iter().map(|&i| 1.0 / maps[i].aspect).sum::<f32>();
    let mut place = vec![(0.0, 0.0); maps.len()];
    let mut x = margin;
    for &i in &others {
        place[i] = (x, height / maps[i].aspect);
        x += height / maps[i].aspect + gap;
    }
    // The words of a map: its heading, then what it shows.
    let words = |m: &PosterMap, x: f32, w: f32, y: f32| {
        let mut runs = vec![Run {
            x,
            y: y - 32.0,
            size: 32.0,
            text: m.title.to_string(),
        }];
        let mut y = y - 64.0;
        for line in font.wrap(m.about, 18.0, w) {
            runs.push(Run {
                x,
                y,
                size: 18.0,
                text: line,
            });
            y -= 24.0;
        }
        (runs, y)
    };
    let row_top = top - 100.0;
    let mut rows: Vec<(usize, Vec<Run>, f32)> = Vec::new();
    for &i in &others {
        let (x, w) = place[i];
        let (runs, y) = words(&maps[i], x, w, row_top);
        rows.push((i, runs, y));
    }
    // The top row's drawings start under its longest words; the foot's
    // map is as large as the rest of the page (its words narrower than
    // the page, so a second try fits them).
    let drawn_top = rows.iter().map(|r| r.2).fold(row_top, f32::min) + 10.0;
    let foot_top = drawn_top - height - 2.0 * gap;
    let mut side = inner;
    for _ in 0..2 {
        let (_, end) = words(&maps[largest], margin, side, foot_top);
        side = inner.min(end + 10.0 - margin);
    }
    let foot_x = margin + (inner - side) / 2.0;
    place[largest] = (foot_x, side);
    let (runs, end) = words(&maps[largest], foot_x, side, foot_top);
    rows.push((largest, runs, end));
    let mut smallest: Option<f32> = None;
    for (i, runs, end) in &rows {
        paragraphs(&mut page, &mut content, &font, runs);
        let m = &maps[*i];
        let (x, w) = place[*i];
        // Its smallest mark's square, printed.
        for layer in &m.picture.layers {
            if let Shapes::Marks(_, _, squares) = &layer.shapes {
                for &[_, _, side] in squares {
                    let printed = side as f32 / m.picture.width as f32 * w / mm;
                    smallest = Some(smallest.map_or(printed, |s| s.min(printed)));
                }
            }
        }
        let h = w * m.aspect;
        let y = if *i == largest { end + 10.0 } else { drawn_top } - h;
        assert!(y >= margin - 0.5, "the poster holds its maps");
        let mcid = page.elements.len() as i32;
        content
            .begin_marked_content_with_properties(Name(b"Figure"))
            .properties()
            .identify(mcid);
        content
            .save_state()
            .transform([w, 0.0, 0.0, h, x, y])
            .x_object(Name(image_name(*i).as_bytes()))
            .restore_state();
        content.end_marked_content();
        page.elements.push(Element {
            role: StructRole::Figure,
            alt: Some(format!("{}. {}", m.title, m.about)),
            mcid,
            link: None,
        });
        // Its labels, under their points.
        let (pw, ph) = (m.picture.width as f32, m.picture.height as f32);
        let label_runs: Vec<Run> = (m.labels.iter())
            .map(|&([lx, ly], words)| Run {
                x: x + lx as f32 / pw * w - font.width(words, 28.0) / 2.0,
                y: y + h - ly as f32 / ph * h - 40.0,
                size: 28.0,
                text: words.to_string(),
            })
            .collect();
        paragraphs(&mut page, &mut content, &font, &label_runs);
    }
    page.content = content.finish();
    let pictures: Vec<&Picture> = maps.iter().map(|m| m.picture).collect();
    let doc = Doc {
        title,
        size: POSTER,
        svgs: &[],
        pictures: &pictures,
        font: font_data,
    };
    Poster {
        pdf: assemble(&doc, &font, vec![page]).expect("a poster draws no SVG"),
        smallest_square_mm: smallest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture the PDF cannot draw is an error that names it, not a
    /// panic (`static/` is checked so that none is met).
    #[test]
    fn a_picture_usvg_cannot_read_is_named() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
        let assets = Assets::load(&dir, &crate::site::images()).unwrap();
        let editions = crate::site::Solved::defaults(3).editions();
        let edition = editions.iter().find(|e| e.slug == crate::site::HANOI);
        let book = edition.expect("the Towers of Hanoi").for_books();
        let mut drawing = Drawing::new(&book, &assets);
        assert!(write(&book, &drawing).is_ok());
        let first = drawing.svgs.iter().position(Option::is_some).unwrap();
        drawing.svgs[first] = Some(b"<svg width=\"0\" height=\"1\"/>");
        let e = write(&book, &drawing).unwrap_err();
        assert_eq!(e.name, format!("{}.svg", book.images[first]));
        assert!(e.why.starts_with("not an SVG image"), "{}", e.why);
    }
}
