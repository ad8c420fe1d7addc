//! Draws every picture of the books once, as SVG, and renders the
//! e-reader rasters (`static/*.gif`, two colours, no transparency) from
//! those SVGs with resvg, at the size the books show them: sharp and easy
//! to tap on a 6-inch 600x800 e-ink screen. The marks' SVGs are written by
//! hand (`static/{e,x,o,xw,ow,xl,ol}.svg`); the analysis squares, the Towers of
//! Hanoi's cells, the chess board's squares and file letters, and the
//! cover are written here. Nothing sets a pixel by hand: text is set in
//! the shipped DejaVu Sans (the chess pictures carry its outlines as
//! paths, read with ttf-parser, so they need no font anywhere), and a
//! pixel is black where the rendered picture is darker than middle grey,
//! so the rasters read in grayscale as the SVGs do in colour.

use std::path::Path;

use anyhow::Context as _;
use resvg::{tiny_skia, usvg};
use tictactoe_book::assets;
use tictactoe_book::game::Game;
use tictactoe_book::games::chess::{self, Ending, Position};
use tictactoe_book::games::hanoi;

/// Side of a square image, in pixels: three make a 480-pixel board, which
/// fits the first Kindles' 600x800 screen (about 520 pixels usable) with
/// its heading and caption, sharp at 167 ppi.
const SIDE: u32 = 160;

/// The marks' squares, drawn by hand in `static/`: empty, X, O, the
/// winning line's X and O, and X and O as the last move against the
/// player, framed heavily in dark blue (black in the GIFs).
const MARKS: [&str; 7] = ["e", "x", "o", "xw", "ow", "xl", "ol"];

/// How SVGs are read: `sans-serif` is the shipped DejaVu Sans, the only
/// font loaded, so no system font ever changes a picture.
fn svg_options(font: Vec<u8>) -> usvg::Options<'static> {
    let mut options = usvg::Options::default();
    let db = options.fontdb_mut();
    db.load_font_data(font);
    db.set_sans_serif_family("DejaVu Sans");
    options
}

/// `svg` rendered `width` pixels wide, as high as its own proportions
/// make it, on white: that height, and the pixels as palette indices, 1
/// (black) where darker than middle grey, else 0 (white).
fn rasterize(svg: &str, width: u32, options: &usvg::Options) -> anyhow::Result<(u32, Vec<u8>)> {
    let tree = usvg::Tree::from_str(svg, options).context("a picture's SVG does not parse")?;
    let size = tree.size();
    let height = (width as f32 * size.height() / size.width()).round() as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width, height).context("an empty picture")?;
    pixmap.fill(tiny_skia::Color::WHITE);
    let transform = tiny_skia::Transform::from_scale(
        width as f32 / size.width(),
        height as f32 / size.height(),
    );
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    let pixels = pixmap
        .pixels()
        .iter()
        .map(|p| {
            // Premultiplied over white, and opaque: the channels are the
            // colour. Rec. 601 luma, in 0..255.
            let luma =
                299 * u32::from(p.red()) + 587 * u32::from(p.green()) + 114 * u32::from(p.blue());
            u8::from(luma < 128 * 1000)
        })
        .collect();
    Ok((height, pixels))
}

fn write_gif(path: &Path, width: u32, height: u32, pixels: &[u8]) -> anyhow::Result<()> {
    let bytes = without_control(encoded(width, height, pixels)?);
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// `pixels` (0 white, 1 black) as the `gif` crate writes them.
fn encoded(width: u32, height: u32, pixels: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let palette = [0xff, 0xff, 0xff, 0x00, 0x00, 0x00];
    let mut enc = gif::Encoder::new(&mut bytes, width as u16, height as u16, &palette)?;
    enc.write_frame(&gif::Frame {
        width: width as u16,
        height: height as u16,
        buffer: std::borrow::Cow::Borrowed(pixels),
        ..Default::default()
    })?;
    drop(enc);
    Ok(bytes)
}

/// The graphic control extension after the two-colour palette, where it
/// says nothing (no transparent colour, no delay: a still picture without
/// it is drawn the same), left out: 8 bytes an image, which every MOBI
/// carries (the `gif` crate writes it for every frame).
fn without_control(mut gif: Vec<u8>) -> Vec<u8> {
    // Header 6, screen descriptor 7, palette 2 x 3.
    const AT: usize = 6 + 7 + 6;
    let silent = [0x21, 0xf9, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00];
    let says_nothing = gif.get(AT..AT + 8).is_some_and(|gce| {
        // The disposal method (bits 2-4 of the flags) means nothing for
        // one frame; any other bit, the delay or the colour would.
        gce[..3] == silent[..3] && gce[3] & !0x1c == 0 && gce[4..] == silent[4..]
    });
    if says_nothing {
        gif.drain(AT..AT + 8);
    }
    gif
}

/// What an analysis square says: "WIN 2", "DRAW" or "LOSS 1".
#[derive(Clone, Copy)]
enum Kind {
    Win,
    Draw,
    Loss,
}

/// The analysis squares: image name, kind, the number, whether best.
fn verdicts() -> Vec<(String, Kind, u8, bool)> {
    let mut out = Vec::new();
    for best in [false, true] {
        let b = if best { "b" } else { "" };
        for (kind, letter, ns) in [
            (Kind::Win, "w", 1..=3),
            (Kind::Draw, "d", 0..=0),
            (Kind::Loss, "l", 1..=3),
        ] {
            for n in ns {
                let number = if n == 0 { String::new() } else { n.to_string() };
                out.push((format!("{letter}{number}{b}"), kind, n, best));
            }
        }
    }
    out
}

fn words(kind: Kind, n: u8) -> String {
    match kind {
        Kind::Win => format!("WIN {n}"),
        Kind::Draw => "DRAW".to_string(),
        Kind::Loss => format!("LOSS {n}"),
    }
}

/// An analysis square: a win is dark (white words on green), a draw
/// plain, a loss hatched behind a white band; the best moves carry a
/// second frame; the words say the verdict, so it reads without colour.
fn verdict_svg(kind: Kind, n: u8, best: bool) -> String {
    let (fill, ink) = match kind {
        Kind::Win => ("#1b5e20", "#fff"),
        Kind::Draw | Kind::Loss => ("#fff", "#111"),
    };
    let mut svg = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" viewBox=\"0 0 100 100\">",
    );
    if let Kind::Loss = kind {
        svg += "<defs><pattern id=\"h\" width=\"9\" height=\"9\" patternUnits=\"userSpaceOnUse\" \
patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"9\" fill=\"#b71c1c\"/></pattern></defs>";
        svg += "<rect x=\"1.5\" y=\"1.5\" width=\"97\" height=\"97\" fill=\"url(#h)\" stroke=\"#333\" stroke-width=\"3\"/>";
        svg += "<rect x=\"3\" y=\"34\" width=\"94\" height=\"32\" fill=\"#fff\"/>";
    } else {
        svg += "<rect x=\"1.5\" y=\"1.5\" width=\"97\" height=\"97\" fill=\"#fff\" stroke=\"#333\" stroke-width=\"3\"/>";
        svg += &format!("<rect x=\"5\" y=\"5\" width=\"90\" height=\"90\" fill=\"{fill}\"/>");
    }
    if best {
        svg += &format!(
            "<rect x=\"11.5\" y=\"11.5\" width=\"77\" height=\"77\" fill=\"none\" stroke=\"{ink}\" stroke-width=\"5\"/>"
        );
    }
    svg += &format!(
        "<text x=\"50\" y=\"57\" fill=\"{ink}\" font-family=\"sans-serif\" font-size=\"19\" \
font-weight=\"bold\" text-anchor=\"middle\">{}</text></svg>\n",
        words(kind, n)
    );
    svg
}

/// A cell of the Towers of Hanoi, as the puzzle is drawn everywhere: the
/// air above a peg (empty, framed when its move is best, or holding the
/// lifted disc), or one level of a peg, bare or with disc `k` (1 to 7), the
/// bottom level standing on the base.
#[derive(Clone, Copy)]
enum Tower {
    Air { best: bool },
    Lifted { disc: u8, best: bool },
    Level { disc: Option<u8>, bottom: bool },
}

/// Every Hanoi cell image, with its name (as `games::hanoi` lists them).
fn towers() -> Vec<(String, Tower)> {
    let mut out = vec![
        ("ha".to_string(), Tower::Air { best: false }),
        ("hab".to_string(), Tower::Air { best: true }),
    ];
    for bottom in [false, true] {
        let b = if bottom { "b" } else { "" };
        out.push((format!("hp{b}"), Tower::Level { disc: None, bottom }));
        for k in 1..=7 {
            out.push((
                format!("hd{k}{b}"),
                Tower::Level {
                    disc: Some(k),
                    bottom,
                },
            ));
        }
    }
    for best in [false, true] {
        let name = if best { "hf" } else { "hl" };
        for k in 1..=7 {
            out.push((format!("{name}{k}"), Tower::Lifted { disc: k, best }));
        }
    }
    out
}

/// A disc's half width, in a 100-unit wide cell: 12 for disc 1 to 48 for
/// disc 7, so every disc is told apart at a glance and each is wider than
/// the one above it.
fn half_width(k: u8) -> f64 {
    6.0 + 6.0 * f64::from(k)
}

/// A cell's height, in the same units as its width of 100: the air is
/// room for a lifted disc, a level one flat disc, the bottom level a disc
/// and the base.
fn tower_height(t: Tower) -> u32 {
    match t {
        Tower::Air { .. } | Tower::Lifted { .. } => hanoi::AIR,
        Tower::Level { bottom: false, .. } => hanoi::LEVEL,
        Tower::Level { bottom: true, .. } => hanoi::BOTTOM,
    }
}

/// A disc as a flat bar from `y` down in the cell, 22 high: stacked,
/// discs touch but for a hairline.
fn disc_bar(k: u8, y: f64) -> String {
    let w = half_width(k);
    format!(
        "<rect x=\"{}\" y=\"{y}\" width=\"{}\" height=\"22\" rx=\"4\" fill=\"#1a237e\"/>",
        50.0 - w,
        2.0 * w
    )
}

/// The base, a bar `width` units wide and as high as a bottom level's
/// part under its level, from `y` down.
fn base_bar(width: u32, y: u32) -> String {
    let h = hanoi::BOTTOM - hanoi::LEVEL;
    format!("<rect x=\"0\" y=\"{y}\" width=\"{width}\" height=\"{h}\" fill=\"#5d4037\"/>")
}

/// The thick frame round the air above a peg whose choice is best, so it
/// reads in grayscale.
const AIR_FRAME: &str = "<rect x=\"4\" y=\"4\" width=\"92\" height=\"26\" fill=\"none\" stroke=\"#111\" stroke-width=\"6\"/>";

/// The frame round a lifted disc whose putting back is best: the air's
/// frame's top and bottom bars, as thick, which a disc never covers (a
/// whole frame's sides under the widest disc cost the GIF a run a row).
const LIFTED_FRAME: &str = "<rect x=\"1\" y=\"1\" width=\"98\" height=\"6\" fill=\"#111\"/><rect x=\"1\" y=\"27\" width=\"98\" height=\"6\" fill=\"#111\"/>";

/// A Hanoi cell: a peg is a bar 8 units wide down the middle of each
/// level, discs flat bars across it, the base a bar the width of the
/// cell under the bottom level; the best peg's air is framed thick, so it
/// reads in grayscale. It stretches to whatever box it is given
/// (`preserveAspectRatio="none"`): on a tall screen a page draws the board
/// taller than the cells' own shape, its discs thicker.
fn tower_svg(t: Tower) -> String {
    let h = tower_height(t);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"{h}\" viewBox=\"0 0 100 {h}\" preserveAspectRatio=\"none\">"
    );
    match t {
        Tower::Air { best } => {
            if best {
                svg += AIR_FRAME;
            }
        }
        Tower::Lifted { disc, best } => {
            // The frame under the disc: the widest disc covers its sides
            // but for the corners, its top and bottom still read.
            if best {
                svg += LIFTED_FRAME;
            }
            svg += &disc_bar(disc, 6.0);
        }
        Tower::Level { disc, bottom } => {
            svg += "<rect x=\"46\" y=\"0\" width=\"8\" height=\"23\" fill=\"#5d4037\"/>";
            if let Some(k) = disc {
                svg += &disc_bar(k, 0.5);
            }
            if bottom {
                svg += &base_bar(100, hanoi::LEVEL);
            }
        }
    }
    svg + "</svg>\n"
}

/// The base alone, the width of a board of three pegs: what each bottom
/// level draws under its level, drawn once under the board where
/// pictures are shown at their own size (`UnderBoard`).
fn base_svg() -> String {
    let h = hanoi::BOTTOM - hanoi::LEVEL;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"300\" height=\"{h}\" viewBox=\"0 0 300 {h}\">{}</svg>\n",
        base_bar(300, 0)
    )
}

/// A cover: its title's lines at the top, then `columns` of cells side
/// by side (a line round them if `framed`), each column stacked from the
/// top, each cell `(its SVG, its
/// height in units of its width of 100)`, every column `side` pixels
/// wide; the cells centred on the page `w` by `h` pixels below the
/// title. Each cell is its own SVG nested at its place and size, so the
/// cover is drawn with the very pictures the pages show; every place and
/// size is whole pixels at the page's own size, so stacked cells meet
/// with no seam (a thumbnail is laid out at its size, not scaled down
/// from the cover).
fn cover_svg(
    face: &ttf_parser::Face,
    title: &[&str],
    (columns, framed): (&[Vec<(&str, u32)>], bool),
    (w, h): (usize, usize),
    side: usize,
) -> anyhow::Result<String> {
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">"
    );
    // The title's size and lines in pixels of a 600-pixel-wide page: the
    // longest line, "against the Computer", fits with a margin.
    let scale = w as f32 / 600.0;
    let (size, line) = (40.0 * scale, 52.0 * scale);
    let mut d = PathData::new();
    for (i, words) in title.iter().enumerate() {
        let baseline = line * (i as f32 + 1.0) + 8.0 * scale;
        title_line(face, words, (w as f32 / 2.0, baseline), size, &mut d)?;
    }
    let stroke = (size * 0.03 * GRID).round();
    svg += &format!(
        "<path transform=\"scale(.25)\" d=\"{}\" stroke=\"#000\" stroke-width=\"{stroke}\" stroke-linejoin=\"round\"/>",
        d.d
    );
    let below = (line * title.len() as f32 + 30.0 * scale).round() as usize;
    let px = |units: u32| (units as usize * side + 50) / 100;
    let tallest = columns
        .iter()
        .map(|c| c.iter().map(|&(_, units)| px(units)).sum::<usize>())
        .max()
        .unwrap_or_default();
    let (left, top) = (
        (w - columns.len() * side) / 2,
        below + (h - below).saturating_sub(tallest) / 2,
    );
    if framed {
        // A line round the board, a pixel outside it at any size: a
        // thumbnail's squares are too small for a dark one's hatching.
        let (x, y) = (left as f32 - 1.5, top as f32 - 1.5);
        let wide = (columns.len() * side) as f32 + 3.0;
        let high = tallest as f32 + 3.0;
        svg += &format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{wide}\" height=\"{high}\" fill=\"none\" stroke=\"#000\" stroke-width=\"1\"/>"
        );
    }
    for (i, column) in columns.iter().enumerate() {
        let (x, mut y) = (left + i * side, top);
        for (j, &(cell, units)) in column.iter().enumerate() {
            let inner = cell
                .split_once('>')
                .and_then(|(_, rest)| rest.trim_end().strip_suffix("</svg>"))
                .unwrap_or_default();
            // Each cell's ids its own (a chess square's pattern and
            // glyph), so no cell draws another's.
            let own = format!("n{i}_{j}");
            let inner = inner
                .replace("id=\"", &format!("id=\"{own}"))
                .replace("url(#", &format!("url(#{own}"))
                .replace("href=\"#", &format!("href=\"#{own}"));
            let height = px(units);
            svg += &format!(
                "<svg x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{height}\" viewBox=\"0 0 100 {units}\">{inner}</svg>"
            );
            y += height;
        }
    }
    Ok(svg + "</svg>\n")
}

/// A line of a cover's title in DejaVu Sans, `size` pixels to the em,
/// each glyph after the last by its advance (a space too), the line
/// centred on `x`, on the baseline `y`, onto the path data `d`, in grid
/// units.
fn title_line(
    face: &ttf_parser::Face,
    text: &str,
    (x, y): (f32, f32),
    size: f32,
    d: &mut PathData,
) -> anyhow::Result<()> {
    let k = size / f32::from(face.units_per_em());
    let advance = |c: char| {
        face.glyph_index(c)
            .and_then(|id| face.glyph_hor_advance(id))
            .map(f32::from)
            .with_context(|| format!("DejaVuSans.ttf has no advance for {c}"))
    };
    let width = text.chars().map(advance).sum::<anyhow::Result<f32>>()? * k;
    let mut pen = x - width / 2.0;
    for c in text.chars() {
        if c != ' ' {
            d.glyph(
                &glyph(face, c)?,
                |_| true,
                &placing(face, (pen, y), size, 1.0),
            );
        }
        pen += advance(c)? * k;
    }
    Ok(())
}

/// A column of a cover, top down: each cell's name and its height (in
/// units of its width of 100).
type Column = Vec<(String, u32)>;

/// The games' pictures under the covers' titles, each `(its name in
/// [`assets::COVERS`], its columns' width on a 600x800 page, what it
/// shows, by cell name and height)`: tic-tac-toe's a won board, the
/// Towers of Hanoi's its start, every disc of the default puzzle on the
/// left peg, nearly as wide as the page, and each chess ending's start.
fn cover_pictures() -> Vec<(&'static str, usize, Vec<Column>)> {
    let board = ["xw", "o", "e", "o", "xw", "e", "e", "e", "xw"];
    let squares = (0..3)
        .map(|c| {
            (0..3)
                .map(|r| (board[3 * r + c].to_string(), 100))
                .collect()
        })
        .collect();
    let discs = hanoi::Rules::default().discs;
    let peg = |tower: bool| -> Column {
        (1..=discs)
            .map(|k| {
                let b = if k == discs { "b" } else { "" };
                let height = if k == discs {
                    hanoi::BOTTOM
                } else {
                    hanoi::LEVEL
                };
                match tower {
                    true => (format!("hd{k}{b}"), height),
                    false => (format!("hp{b}"), height),
                }
            })
            .collect()
    };
    vec![
        ("tictactoe", 130, squares),
        ("hanoi", 190, vec![peg(true), peg(false), peg(false)]),
        ("kqk", 64, chess_cover(Ending::Kqk)),
        ("krk", 64, chess_cover(Ending::Krk)),
    ]
}

/// A chess ending's cover: the board of its default start, file by file,
/// rank 8 first.
fn chess_cover(ending: Ending) -> Vec<Column> {
    let start =
        Position::from_fen(chess::challenge::Rules::start_fen(ending)).expect("a legal start");
    (0..8u8)
        .map(|file| {
            (0..8u8)
                .rev()
                .map(|rank| {
                    let square = chess::Square::at(file, rank).expect("on the board");
                    let content = if square == start.white_king() {
                        "k"
                    } else if Some(square) == start.piece() {
                        match ending {
                            Ending::Kqk => "q",
                            Ending::Krk => "r",
                        }
                    } else if square == start.black_king() {
                        "b"
                    } else {
                        "e"
                    };
                    let shade = if (file + rank) % 2 == 0 { "d" } else { "l" };
                    (format!("c{content}{shade}"), 100)
                })
                .collect()
        })
        .collect()
}

/// Side of a chess square's GIF, in pixels: eight make a 512-pixel
/// board, which fits a 600x800 Kindle's page with its file letters.
const CHESS_SIDE: u32 = 64;

/// The chess board's colours: light and dark squares, the lines that
/// hatch a dark square (dark enough to be black in a GIF, one pixel wide
/// every fourth at `CHESS_SIDE`, so a dark square is a grey there too),
/// and the same three tinted for the square of the piece picked up.
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const HATCH: &str = "#8d603b";
const PICKED_LIGHT: &str = "#f6f37a";
const PICKED_DARK: &str = "#bac34a";
const PICKED_HATCH: &str = "#707a1c";
/// The frame of the picked piece's square.
const PICKED_FRAME: &str = "#1d3f8f";
/// A target's dot.
const DOT: &str = "#3f5f2a";
/// A mate's number and the best moves' frames, the win's green of the
/// tic-tac-toe analysis.
const WIN: &str = "#1b5e20";
/// The too slow move's cross and the mated king's frame.
const RED: &str = "#b71c1c";

/// A piece as the font draws it: the white king, queen and rook in
/// outline, the black king filled.
#[derive(Clone, Copy)]
enum Man {
    King,
    Queen,
    Rook,
    BlackKing,
}

impl Man {
    fn glyph(self) -> char {
        match self {
            Man::King => '♔',
            Man::Queen => '♕',
            Man::Rook => '♖',
            Man::BlackKing => '♚',
        }
    }
}

/// What a chess square shows.
#[derive(Clone, Copy)]
enum Chess {
    Empty,
    Piece(Man),
    /// The piece the reader picked up.
    Picked(Man),
    /// An empty square the picked piece may move to.
    Target,
    /// A piece framed as the best one to move (the analysis).
    BestPiece(Man),
    /// A move after which mate is no longer possible in time.
    Slow,
    /// A move that draws: stalemate, or the piece left to be taken.
    Drawn,
    /// The black king checkmated.
    Mated,
    /// A move that mates in `n`, framed when it is best.
    Mate {
        n: u8,
        best: bool,
    },
}

/// The longest mate a target names.
const LONGEST_MATE: u8 = 31;

/// Every chess square's content, with its part of the name, in the order
/// the game indexes them (content * 2 + shade).
fn chess_contents() -> Vec<(String, Chess)> {
    let white = [(Man::King, "k"), (Man::Queen, "q"), (Man::Rook, "r")];
    let mut out = vec![("e".to_string(), Chess::Empty)];
    for (man, l) in white.iter().copied().chain([(Man::BlackKing, "b")]) {
        out.push((l.to_string(), Chess::Piece(man)));
    }
    for (man, l) in white {
        out.push((format!("{l}s"), Chess::Picked(man)));
    }
    out.push(("t".to_string(), Chess::Target));
    for (man, l) in white {
        out.push((format!("{l}b"), Chess::BestPiece(man)));
    }
    out.push(("x".to_string(), Chess::Slow));
    out.push(("h".to_string(), Chess::Drawn));
    out.push(("bm".to_string(), Chess::Mated));
    for best in [false, true] {
        let b = if best { "b" } else { "" };
        for n in 1..=LONGEST_MATE {
            out.push((format!("m{n}{b}"), Chess::Mate { n, best }));
        }
    }
    out
}

/// The files' letters under the board.
const FILES: std::ops::RangeInclusive<char> = 'a'..='h';

/// The chess pictures' names, in the order the game indexes them: each
/// square's content (`chess_contents`) on a light then a dark square,
/// `c` + content + `l` or `d`; the files' letters, `fa` to `fh`; then
/// each content on the a-file with its rank's digit, ranks 1 to 8, `ca` +
/// rank + content.
pub fn chess_names() -> Vec<String> {
    let squares = chess_contents()
        .into_iter()
        .flat_map(|(c, _)| [format!("c{c}l"), format!("c{c}d")]);
    let ranked = chess_contents()
        .into_iter()
        .flat_map(|(c, _)| RANKS.map(move |r| format!("ca{r}{c}")));
    squares
        .chain(FILES.map(|f| format!("f{f}")))
        .chain(ranked)
        .collect()
}

/// The ranks' digits, on the a-file.
const RANKS: std::ops::RangeInclusive<u8> = 1..=8;

/// A point of a glyph, in font units, y up.
type Pt = (f32, f32);

#[derive(Clone, Copy)]
enum Seg {
    Line(Pt),
    Quad(Pt, Pt),
    Cubic(Pt, Pt, Pt),
}

/// A closed contour of a glyph: where it starts, and its segments.
struct Contour {
    start: Pt,
    segs: Vec<Seg>,
}

impl Contour {
    /// Whether `p` is inside the polygon of the contour's points, on and
    /// off the curve: near enough the curve to tell which contours hold
    /// which, as a font's never cross.
    fn holds(&self, p: Pt) -> bool {
        let mut points = vec![self.start];
        for seg in &self.segs {
            match *seg {
                Seg::Line(a) => points.push(a),
                Seg::Quad(a, b) => points.extend([a, b]),
                Seg::Cubic(a, b, c) => points.extend([a, b, c]),
            }
        }
        let mut inside = false;
        for (i, &(x1, y1)) in points.iter().enumerate() {
            let (x0, y0) = points[(i + points.len() - 1) % points.len()];
            if (y0 > p.1) != (y1 > p.1) && p.0 < x0 + (p.1 - y0) * (x1 - x0) / (y1 - y0) {
                inside = !inside;
            }
        }
        inside
    }
}

#[derive(Default)]
struct Contours(Vec<Contour>);

impl Contours {
    fn push(&mut self, seg: Seg) {
        if let Some(c) = self.0.last_mut() {
            c.segs.push(seg);
        }
    }
}

impl ttf_parser::OutlineBuilder for Contours {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.push(Contour {
            start: (x, y),
            segs: Vec::new(),
        });
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.push(Seg::Line((x, y)));
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.push(Seg::Quad((x1, y1), (x, y)));
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.push(Seg::Cubic((x1, y1), (x2, y2), (x, y)));
    }
    fn close(&mut self) {}
}

/// A glyph of the shipped font: its contours, each with its depth (0
/// outside any other, 1 a hole in one, 2 an island in a hole, ...), and
/// its ink's box, in font units.
struct Glyph {
    contours: Vec<(Contour, usize)>,
    left: f32,
    right: f32,
    bottom: f32,
    top: f32,
}

fn glyph(face: &ttf_parser::Face, c: char) -> anyhow::Result<Glyph> {
    let id = face
        .glyph_index(c)
        .with_context(|| format!("DejaVuSans.ttf has no {c}"))?;
    let mut contours = Contours::default();
    let rect = face
        .outline_glyph(id, &mut contours)
        .with_context(|| format!("DejaVuSans.ttf has no outline for {c}"))?;
    let all = &contours.0;
    let depths: Vec<usize> = (0..all.len())
        .map(|i| {
            let others = all.iter().enumerate().filter(|&(j, _)| j != i);
            others.filter(|(_, o)| o.holds(all[i].start)).count()
        })
        .collect();
    Ok(Glyph {
        contours: contours.0.into_iter().zip(depths).collect(),
        left: rect.x_min.into(),
        right: rect.x_max.into(),
        bottom: rect.y_min.into(),
        top: rect.y_max.into(),
    })
}

/// Path data in whole units of a grid `GRID` to a square's unit (the
/// path drawn at `scale(.25)`), every command but the first relative,
/// each number as short as it can be written.
struct PathData {
    d: String,
    at: (i32, i32),
    start: (i32, i32),
    /// The last command written (the one a bare number repeats).
    command: char,
    /// The control point of the last quadratic segment, for `t`.
    control: Option<(i32, i32)>,
}

/// Grid units to a square's unit in glyphs' path data.
const GRID: f32 = 4.0;

impl PathData {
    fn new() -> Self {
        PathData {
            d: String::new(),
            at: (0, 0),
            start: (0, 0),
            command: ' ',
            control: None,
        }
    }

    fn command(&mut self, c: char) {
        if self.command != c {
            self.d.push(c);
            // A move's further pairs are lines.
            self.command = if c == 'm' { 'l' } else { c };
        }
    }

    fn number(&mut self, n: i32) {
        if n >= 0 && self.d.ends_with(|c: char| c.is_ascii_digit()) {
            self.d.push(' ');
        }
        self.d += &n.to_string();
    }

    fn to(&mut self, p: (i32, i32)) {
        self.number(p.0 - self.at.0);
        self.number(p.1 - self.at.1);
    }

    fn move_to(&mut self, p: (i32, i32)) {
        self.command = ' ';
        self.command('m');
        self.to(p);
        (self.at, self.start, self.control) = (p, p, None);
    }

    fn line_to(&mut self, p: (i32, i32)) {
        if p == self.at {
            return;
        }
        if p.1 == self.at.1 {
            self.command('h');
            self.number(p.0 - self.at.0);
        } else if p.0 == self.at.0 {
            self.command('v');
            self.number(p.1 - self.at.1);
        } else {
            self.command('l');
            self.to(p);
        }
        (self.at, self.control) = (p, None);
    }

    /// A quadratic segment, as `t` when its control point is within a
    /// grid unit of the last one's reflection (what `t` draws with).
    fn quad_to(&mut self, c: (i32, i32), p: (i32, i32)) {
        let reflected = self
            .control
            .map(|(x, y)| (2 * self.at.0 - x, 2 * self.at.1 - y));
        match reflected {
            Some(r) if (r.0 - c.0).abs() <= 1 && (r.1 - c.1).abs() <= 1 => {
                self.command('t');
                self.to(p);
                self.control = Some(r);
            }
            _ => {
                self.command('q');
                self.to(c);
                self.number(p.0 - self.at.0);
                self.number(p.1 - self.at.1);
                self.control = Some(c);
            }
        }
        self.at = p;
    }

    fn cubic_to(&mut self, c1: (i32, i32), c2: (i32, i32), p: (i32, i32)) {
        self.command('c');
        self.to(c1);
        self.to(c2);
        self.to(p);
        (self.at, self.control) = (p, None);
    }

    fn close(&mut self) {
        self.d.push('z');
        self.command = 'z';
        (self.at, self.control) = (self.start, None);
    }

    /// The contours of `glyph` at depths `depth` says, placed by `place`
    /// (font units to grid units).
    fn glyph(
        &mut self,
        glyph: &Glyph,
        depth: impl Fn(usize) -> bool,
        place: &impl Fn(Pt) -> (i32, i32),
    ) {
        for (contour, _) in glyph.contours.iter().filter(|(_, d)| depth(*d)) {
            let start = place(contour.start);
            self.move_to(start);
            for (i, seg) in contour.segs.iter().enumerate() {
                match *seg {
                    // The closing line: `z` draws it.
                    Seg::Line(p) if i + 1 == contour.segs.len() && place(p) == start => {}
                    Seg::Line(p) => self.line_to(place(p)),
                    Seg::Quad(c, p) => self.quad_to(place(c), place(p)),
                    Seg::Cubic(c1, c2, p) => self.cubic_to(place(c1), place(c2), place(p)),
                }
            }
            self.close();
        }
    }
}

/// Where a glyph's font units land in grid units: the font's origin at
/// `(x, y)` of the square, `size` square units to the em, `wide` times as
/// wide (below 1, condensed).
fn placing(
    face: &ttf_parser::Face,
    (x, y): (f32, f32),
    size: f32,
    wide: f32,
) -> impl Fn(Pt) -> (i32, i32) + use<> {
    let k = size / f32::from(face.units_per_em());
    move |(fx, fy)| {
        (
            ((x + fx * k * wide) * GRID).round() as i32,
            ((y - fy * k) * GRID).round() as i32,
        )
    }
}

/// A square's colours: its ground, and the lines that hatch it (a dark
/// square). The ground alone is light enough to be white in a GIF: it
/// is what clears the lines round a piece or a mark on a hatched square.
struct Shade {
    ground: &'static str,
    hatch: Option<&'static str>,
}

fn shade(dark: bool, picked: bool) -> Shade {
    let (ground, hatch) = match (dark, picked) {
        (false, false) => (LIGHT, None),
        (true, false) => (DARK, Some(HATCH)),
        (false, true) => (PICKED_LIGHT, None),
        (true, true) => (PICKED_DARK, Some(PICKED_HATCH)),
    };
    Shade { ground, hatch }
}

impl Shade {
    /// The square's ground: what goes in `<defs>` (the hatch, a tile of
    /// 4 by 4 pixels at `CHESS_SIDE`, its line through the pixels'
    /// centres) and the drawing.
    fn draw(&self) -> (String, String) {
        let mut svg = format!(
            "<rect width=\"100\" height=\"100\" fill=\"{}\"/>",
            self.ground
        );
        let Some(hatch) = self.hatch else {
            return (String::new(), svg);
        };
        svg += "<rect width=\"100\" height=\"100\" fill=\"url(#h)\"/>";
        let defs = format!(
            "<pattern id=\"h\" width=\"6.25\" height=\"6.25\" patternUnits=\"userSpaceOnUse\"><path d=\"M0 6.25L6.25 0M-1 1L1-1M5.25 7.25L7.25 5.25\" stroke=\"{hatch}\" stroke-width=\"1.6\"/></pattern>"
        );
        (defs, svg)
    }
}

const SQUARE_SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" viewBox=\"0 0 100 100\"";

/// A piece centred in its square, 73 units high: each depth of its
/// contours one path, the outside black, the holes in it white, any
/// island in a hole black again, every edge stroked a unit out into
/// the white (a white piece's thin lines hold at 45 pixels); given a
/// `halo` colour (on a hatched square), the outside is drawn first in
/// it, 4.5 units wider all round, so the piece stands clear of the
/// lines. Returns what goes in `<defs>` and the drawing.
fn piece_svg(
    face: &ttf_parser::Face,
    man: Man,
    halo: Option<&str>,
) -> anyhow::Result<(String, String)> {
    let g = glyph(face, man.glyph())?;
    let size = 100.0;
    let k = size / f32::from(face.units_per_em());
    let x = 50.0 - (g.left + g.right) / 2.0 * k;
    let y = 50.0 + (g.bottom + g.top) / 2.0 * k;
    let place = placing(face, (x, y), size, 1.0);
    let deepest = g.contours.iter().map(|(_, d)| *d).max().unwrap_or_default();
    let layer = |depth: usize| {
        let mut d = PathData::new();
        d.glyph(&g, |c| c == depth, &place);
        d.d
    };
    let (mut defs, mut svg) = (String::new(), String::new());
    if let Some(halo) = halo {
        defs += &format!("<path id=\"p\" d=\"{}\"/>", layer(0));
        svg += &format!(
            "<use xlink:href=\"#p\" fill=\"{halo}\" stroke=\"{halo}\" stroke-width=\"36\"/><use xlink:href=\"#p\"/>"
        );
    } else {
        svg += &format!("<path d=\"{}\"/>", layer(0));
    }
    for depth in 1..=deepest {
        // The black king's white details stay as the font draws them,
        // which the bold outline would close.
        let fill = match (depth % 2, man) {
            (1, Man::BlackKing) => " fill=\"#fff\" stroke=\"none\"",
            (1, _) => " fill=\"#fff\"",
            _ => "",
        };
        svg += &format!("<path d=\"{}\"{fill}/>", layer(depth));
    }
    Ok((
        defs,
        format!(
            "<g transform=\"scale(.25)\" stroke=\"#000\" stroke-width=\"8\" stroke-linejoin=\"round\">{svg}</g>"
        ),
    ))
}

/// A run of glyphs set tight (their ink `gap` font units apart), its ink
/// centred on `x`, on the baseline `y`: its path data and its ink's box
/// (left, top, right, bottom) in square units.
fn label(
    face: &ttf_parser::Face,
    text: &str,
    (x, y): (f32, f32),
    size: f32,
    wide: f32,
) -> anyhow::Result<(String, [f32; 4])> {
    let glyphs = (text.chars())
        .map(|c| glyph(face, c))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let gap = 120.0;
    let width: f32 = glyphs.iter().map(|g| g.right - g.left + gap).sum::<f32>() - gap;
    let bottom = glyphs.iter().map(|g| g.bottom).fold(f32::MAX, f32::min);
    let top = glyphs.iter().map(|g| g.top).fold(f32::MIN, f32::max);
    let k = size / f32::from(face.units_per_em());
    let left = x - width / 2.0 * k * wide;
    let mut pen = left;
    let mut d = PathData::new();
    for g in &glyphs {
        let place = placing(face, (pen - g.left * k * wide, y), size, wide);
        d.glyph(g, |_| true, &place);
        pen += (g.right - g.left + gap) * k * wide;
    }
    let ink = [left, y - top * k, left + width * k * wide, y - bottom * k];
    Ok((d.d, ink))
}

/// A chess square: its ground (a dark one hatched), then what it holds:
/// the picked piece on a tinted square in a thick blue frame at the
/// edge; the best piece or mate in a heavy green frame set in from the
/// edge (so two best squares side by side stay two); a target a dark
/// dot; a mate in N "#N" in bold green, condensed so that "#31" fits the
/// frame; a draw "½"; a move too slow a red cross; the mated king in a
/// heavy red frame. Everything is black or white in one bit, so the
/// GIFs read as the SVGs do.
fn chess_svg(
    face: &ttf_parser::Face,
    square: Chess,
    dark: bool,
    rank: Option<u8>,
) -> anyhow::Result<String> {
    let picked = matches!(square, Chess::Picked(_));
    let shade = shade(dark, picked);
    let halo = shade.hatch.map(|_| shade.ground);
    // A mark on a hatched square sits on the light square's colour: on
    // the dark ground, red and green read at about 2:1 in grays.
    let plate = shade.hatch.map(|_| self::shade(false, picked).ground);
    let (mut defs, mut svg) = shade.draw();
    let frame = |colour: &str, inset: f32, width: f32| {
        let at = inset + width / 2.0;
        format!(
            "<rect x=\"{at}\" y=\"{at}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{width}\"/>",
            100.0 - 2.0 * at,
            100.0 - 2.0 * at
        )
    };
    let piece = |man: Man, svg: &mut String, defs: &mut String| -> anyhow::Result<()> {
        let (d, s) = piece_svg(face, man, halo)?;
        *defs += &d;
        *svg += &s;
        Ok(())
    };
    match square {
        Chess::Empty => {}
        Chess::Piece(man) => piece(man, &mut svg, &mut defs)?,
        Chess::Picked(man) => {
            piece(man, &mut svg, &mut defs)?;
            svg += &frame(PICKED_FRAME, 0.0, 7.0);
        }
        Chess::BestPiece(man) => {
            piece(man, &mut svg, &mut defs)?;
            svg += &frame(WIN, 4.0, 6.0);
        }
        Chess::Mated => {
            piece(Man::BlackKing, &mut svg, &mut defs)?;
            svg += &frame(RED, 0.0, 8.0);
        }
        Chess::Target => {
            if let Some(halo) = plate {
                svg += &format!("<circle cx=\"50\" cy=\"50\" r=\"18\" fill=\"{halo}\"/>");
            }
            svg += &format!("<circle cx=\"50\" cy=\"50\" r=\"13\" fill=\"{DOT}\"/>");
        }
        Chess::Slow => {
            let cross = "<path d=\"M39 39l22 22m0-22l-22 22\" stroke-linecap=\"round\"";
            if let Some(halo) = plate {
                svg += &format!("{cross} stroke=\"{halo}\" stroke-width=\"16\"/>");
            }
            svg += &format!("{cross} stroke=\"{RED}\" stroke-width=\"8\"/>");
        }
        Chess::Drawn => {
            svg += &text(face, "½", plate, "#111", 62.0, 1.0)?;
        }
        Chess::Mate { n, best } => {
            if best {
                svg += &frame(WIN, 4.0, 6.0);
            }
            svg += &text(face, &format!("#{n}"), plate, WIN, 50.0, 0.82)?;
        }
    }
    if let Some(rank) = rank {
        svg += &rank_digit(face, rank, plate)?;
    }
    let xlink = if defs.contains("id=\"p\"") {
        " xmlns:xlink=\"http://www.w3.org/1999/xlink\""
    } else {
        ""
    };
    let defs = if defs.is_empty() {
        defs
    } else {
        format!("<defs>{defs}</defs>")
    };
    Ok(format!("{SQUARE_SVG}{xlink}>{defs}{svg}</svg>\n"))
}

/// Bold text centred in a square (its digits' height centred), on a
/// rounded plate of `halo`'s colour on a hatched square.
fn text(
    face: &ttf_parser::Face,
    words: &str,
    halo: Option<&str>,
    ink: &str,
    size: f32,
    wide: f32,
) -> anyhow::Result<String> {
    let digit = glyph(face, '1')?.top / f32::from(face.units_per_em()) * size;
    let (d, ink_box) = label(face, words, (50.0, 50.0 + digit / 2.0), size, wide)?;
    let stroke = (size * 0.045 * GRID).round();
    Ok(plated(&d, ink_box, halo.map(|h| (h, 5.0, 6)), ink, stroke))
}

/// Glyphs' path `d` (in quarter units) in `ink`, `stroke` thick, on a
/// plate if one is asked for: its colour, its margin round the glyphs'
/// ink box, and its corners' radius.
fn plated(
    d: &str,
    [left, top, right, bottom]: [f32; 4],
    plate: Option<(&str, f32, u8)>,
    ink: &str,
    stroke: f32,
) -> String {
    let mut svg = String::new();
    if let Some((colour, margin, round)) = plate {
        svg += &format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{round}\" fill=\"{colour}\"/>",
            (left - margin).floor(),
            (top - margin).floor(),
            (right - left + 2.0 * margin).ceil(),
            (bottom - top + 2.0 * margin).ceil(),
        );
    }
    svg += &format!(
        "<path transform=\"scale(.25)\" d=\"{d}\" fill=\"{ink}\" stroke=\"{ink}\" stroke-width=\"{stroke}\" stroke-linejoin=\"round\"/>"
    );
    svg
}

/// A rank's digit in the top left corner of an a-file square, as chess
/// boards print it, inside every frame (the picked piece's, the best
/// one's, the mated king's) and clear of the piece, on a plate of the
/// light square's colour on a hatched square; as bold as the files' letters,
/// so that it holds in one bit at `CHESS_SIDE`.
fn rank_digit(face: &ttf_parser::Face, rank: u8, halo: Option<&str>) -> anyhow::Result<String> {
    let (d, ink_box) = label(face, &rank.to_string(), (14.5, 24.0), 16.0, 1.0)?;
    Ok(plated(&d, ink_box, halo.map(|h| (h, 3.0, 3)), "#333", 4.0))
}

/// A file's letter, under its column of the board, on a common baseline,
/// a little bold so that it holds in one bit at `CHESS_SIDE`.
fn file_svg(face: &ttf_parser::Face, letter: char) -> anyhow::Result<String> {
    let (d, _) = label(face, &letter.to_string(), (50.0, 21.0), 24.0, 1.0)?;
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"28\" viewBox=\"0 0 100 28\"><rect width=\"100\" height=\"28\" fill=\"#fff\"/><path transform=\"scale(.25)\" d=\"{d}\" fill=\"#333\" stroke=\"#333\" stroke-width=\"4\" stroke-linejoin=\"round\"/></svg>\n"
    ))
}

/// Every chess picture, by name, in `chess_names`'s order.
fn chess_pictures(font: &[u8]) -> anyhow::Result<Vec<(String, String)>> {
    let face = ttf_parser::Face::parse(font, 0).context("DejaVuSans.ttf does not parse")?;
    let mut out = Vec::new();
    for (_, square) in chess_contents() {
        for dark in [false, true] {
            out.push(chess_svg(&face, square, dark, None)?);
        }
    }
    for letter in FILES {
        out.push(file_svg(&face, letter)?);
    }
    for (_, square) in chess_contents() {
        for rank in RANKS {
            // a1 is dark, a2 light.
            out.push(chess_svg(&face, square, rank % 2 == 1, Some(rank))?);
        }
    }
    Ok(chess_names().into_iter().zip(out).collect())
}

/// Writes into `dir` the analysis squares', the Hanoi cells' and the chess
/// pictures' SVGs, and every GIF the books use, each rendered from its
/// SVG; the hand-drawn marks and the font are read from `static/` in the
/// repository.
pub fn draw(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let source = crate::flags::repo_root().join("static");
    let read = |name: &str| {
        let path = source.join(name);
        std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))
    };
    let font = read("DejaVuSans.ttf")?;
    let chess = chess_pictures(&font)?;
    let options = svg_options(font.clone());
    let mut pictures: Vec<(String, String)> = Vec::new();
    for (name, kind, n, best) in verdicts() {
        pictures.push((name, verdict_svg(kind, n, best)));
    }
    for (name, t) in towers() {
        pictures.push((name, tower_svg(t)));
    }
    let base = <hanoi::Hanoi as Game>::UNDER_BOARD.expect("the base under the board");
    let base = <hanoi::Hanoi as Game>::IMAGES[base.image];
    pictures.push((base.to_string(), base_svg()));
    for (name, svg) in &pictures {
        let path = dir.join(format!("{name}.svg"));
        std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut marks = Vec::new();
    for name in MARKS {
        let svg = String::from_utf8(read(&format!("{name}.svg"))?)?;
        marks.push((name.to_string(), svg));
    }
    for (name, svg) in pictures.iter().chain(&marks) {
        // As wide as a square (the base, as a board of three), as high
        // as the picture's own proportions.
        let width = if name == base { 3 * SIDE } else { SIDE };
        let (height, pixels) = rasterize(svg, width, &options)?;
        write_gif(&dir.join(format!("{name}.gif")), width, height, &pixels)?;
    }
    for (name, svg) in &chess {
        let path = dir.join(format!("{name}.svg"));
        std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
        let (height, pixels) = rasterize(svg, CHESS_SIDE, &options)?;
        write_gif(
            &dir.join(format!("{name}.gif")),
            CHESS_SIDE,
            height,
            &pixels,
        )?;
    }
    let svg_of = |name: &str| {
        pictures
            .iter()
            .chain(&marks)
            .chain(&chess)
            .find(|(n, _)| n == name)
            .map(|(_, svg)| svg.as_str())
            .unwrap_or_default()
    };
    let face = ttf_parser::Face::parse(&font, 0).context("DejaVuSans.ttf does not parse")?;
    let pictures = cover_pictures();
    for cover in assets::COVERS {
        let (_, side, columns) = (pictures.iter())
            .find(|(name, ..)| *name == cover.picture)
            .with_context(|| format!("no picture {} for a cover", cover.picture))?;
        let columns: Vec<Vec<(&str, u32)>> = columns
            .iter()
            .map(|c| {
                c.iter()
                    .map(|(cell, units)| (svg_of(cell), *units))
                    .collect()
            })
            .collect();
        let board = (&columns[..], columns.len() == 8);
        // The cover, and the MOBI's thumbnail of it (EXTH 202), as
        // kindlegen makes one: the same drawing at two fifths.
        for (suffix, page, side) in [
            ("", (600, 800), *side),
            ("-thumb", (240, 320), side * 2 / 5),
        ] {
            let svg = cover_svg(&face, cover.title, board, page, side)?;
            let (height, pixels) = rasterize(&svg, page.0 as u32, &options)?;
            let path = dir.join(format!("{}{suffix}.gif", cover.name));
            write_gif(&path, page.0 as u32, height, &pixels)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture without its control extension is 8 bytes shorter, has
    /// no extension left, and reads back to the same pixels.
    #[test]
    fn a_gif_without_its_control_extension_reads_back_the_same() {
        let (width, height) = (16u32, 8u32);
        let pixels: Vec<u8> = (0..width * height).map(|i| u8::from(i % 3 == 0)).collect();
        let with = encoded(width, height, &pixels).unwrap();
        let bytes = without_control(with.clone());
        assert_eq!(bytes.len() + 8, with.len());
        assert!(!bytes.windows(2).any(|w| w == [0x21, 0xf9]));
        let mut decoder = gif::DecodeOptions::new();
        decoder.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = decoder.read_info(bytes.as_slice()).unwrap();
        let frame = decoder.read_next_frame().unwrap().unwrap();
        assert_eq!(frame.buffer.as_ref(), pixels.as_slice());
    }

    /// A plain level over its share of the base drawn once under the
    /// board is the bottom level's picture, its rows the same height, but
    /// for a pixel or two of a disc's rounded corner (each picture is
    /// scaled to whole pixels on its own): what the MOBI 6 part shows is
    /// what the other books show.
    #[test]
    fn a_level_over_the_base_is_the_bottom_level() {
        let options = svg_options(
            std::fs::read(crate::flags::repo_root().join("static/DejaVuSans.ttf")).unwrap(),
        );
        let (base_height, base) = rasterize(&base_svg(), 3 * SIDE, &options).unwrap();
        for disc in [None, Some(1), Some(4), Some(7)] {
            let level = |bottom| {
                rasterize(&tower_svg(Tower::Level { disc, bottom }), SIDE, &options).unwrap()
            };
            let ((h, plain), (bottom_height, bottom)) = (level(false), level(true));
            assert_eq!(h + base_height, bottom_height);
            let side = SIDE as usize;
            for column in 0..3 {
                let mut stacked = plain.clone();
                for row in base.chunks(3 * side) {
                    stacked.extend_from_slice(&row[column * side..(column + 1) * side]);
                }
                let differ = stacked.iter().zip(&bottom).filter(|(a, b)| a != b).count();
                assert!(differ <= 2, "{disc:?}: {differ} pixels");
            }
        }
    }

    /// The chess pictures' names are the game's contract: each content
    /// on a light square then a dark one, the game reading content * 2 +
    /// shade, then the files' letters, then each content on the a-file's
    /// ranks 1 to 8.
    #[test]
    fn the_chess_names_are_in_the_games_order() {
        let names = chess_names();
        assert_eq!(names.len(), 2 * 77 + 8 + 77 * 8);
        let distinct: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
        let fixed = ["e", "k", "q", "r", "b", "ks", "qs", "rs", "t"];
        let mut contents: Vec<String> = fixed.iter().map(|c| c.to_string()).collect();
        contents.extend(["kb", "qb", "rb", "x", "h", "bm"].map(String::from));
        contents.extend((1..=31).map(|n| format!("m{n}")));
        contents.extend((1..=31).map(|n| format!("m{n}b")));
        let mut expected: Vec<String> = (contents.iter())
            .flat_map(|c| [format!("c{c}l"), format!("c{c}d")])
            .collect();
        expected.extend("abcdefgh".chars().map(|f| format!("f{f}")));
        for c in &contents {
            expected.extend((1..=8).map(|r| format!("ca{r}{c}")));
        }
        assert_eq!(names, expected);
        for (i, name) in [
            (0, "cel"),
            (1, "ced"),
            (2, "ckl"),
            (9, "cbd"),
            (10, "cksl"),
            (16, "ctl"),
            (29, "cbmd"),
            (30, "cm1l"),
            (92, "cm1bl"),
            (153, "cm31bd"),
            (154, "fa"),
            (161, "fh"),
        ] {
            assert_eq!(names[i], name, "{i}");
        }
    }

    /// A glyph's path data, every number rounded to a quarter of a
    /// square's unit and its curves shortened (`t`), draws what the font
    /// draws: no pixel of ink in one is more than a pixel from ink in the
    /// other, at 2 pixels to the unit.
    #[test]
    fn a_glyphs_path_draws_what_the_font_draws() {
        let font = std::fs::read(crate::flags::repo_root().join("static/DejaVuSans.ttf")).unwrap();
        let face = ttf_parser::Face::parse(&font, 0).unwrap();
        let options = svg_options(font.clone());
        let svg = |body: String| {
            format!("{SQUARE_SVG}><rect width=\"100\" height=\"100\" fill=\"#fff\"/>{body}</svg>")
        };
        let side = 200;
        // Ink in `a` with no ink in `b` at or next to it.
        let stray = |a: &[u8], b: &[u8]| {
            let ink = |x: i32, y: i32| {
                (0..side).contains(&x) && (0..side).contains(&y) && b[(y * side + x) as usize] == 1
            };
            (0..side * side)
                .filter(|&i| a[i as usize] == 1)
                .filter(|&i| {
                    let (x, y) = (i % side, i / side);
                    !(-1..=1).any(|dy| (-1..=1).any(|dx| ink(x + dx, y + dy)))
                })
                .count()
        };
        for c in "♔♕♖♚#0123456789½abcdefgh".chars() {
            let g = glyph(&face, c).unwrap();
            let mut d = PathData::new();
            d.glyph(&g, |_| true, &placing(&face, (10.0, 85.0), 80.0, 1.0));
            let path = format!("<path transform=\"scale(.25)\" d=\"{}\"/>", d.d);
            let text = format!(
                "<text x=\"10\" y=\"85\" font-family=\"sans-serif\" font-size=\"80\">{c}</text>"
            );
            let (_, drawn) = rasterize(&svg(path), side as u32, &options).unwrap();
            let (_, set) = rasterize(&svg(text), side as u32, &options).unwrap();
            assert!(set.iter().filter(|&&p| p == 1).count() > 2000, "{c}");
            assert_eq!(stray(&drawn, &set), 0, "{c}: ink the font has not");
            assert_eq!(stray(&set, &drawn), 0, "{c}: ink the path has not");
        }
    }

    /// Every chess picture is small (it goes into every book that shows
    /// a board) and renders; the pieces' and the numbers' outlines are
    /// in the SVG, which names no font.
    #[test]
    fn the_chess_pictures_are_small_and_need_no_font() {
        let font = std::fs::read(crate::flags::repo_root().join("static/DejaVuSans.ttf")).unwrap();
        let pictures = chess_pictures(&font).unwrap();
        assert_eq!(pictures.len(), chess_names().len());
        let options = svg_options(font);
        for (name, svg) in &pictures {
            assert!(svg.len() < 2000, "{name}: {} bytes", svg.len());
            assert!(!svg.contains("<text") && !svg.contains("font"), "{name}");
            let (height, _) = rasterize(svg, CHESS_SIDE, &options).unwrap();
            let want = if name.starts_with('f') {
                18
            } else {
                CHESS_SIDE
            };
            assert_eq!(height, want, "{name}");
        }
    }

    /// A dark square, plain or picked, is one pixel in four black in its
    /// GIF, in clean diagonals (its lines dark enough to be black, thin
    /// enough to leave their neighbours white); a light one is white.
    #[test]
    fn a_dark_squares_hatch_is_a_pixel_in_four() {
        let options = svg_options(Vec::new());
        for dark in [false, true] {
            for picked in [false, true] {
                let (defs, ground) = shade(dark, picked).draw();
                let svg = format!("{SQUARE_SVG}><defs>{defs}</defs>{ground}</svg>");
                let (_, pixels) = rasterize(&svg, CHESS_SIDE, &options).unwrap();
                let side = CHESS_SIDE as usize;
                for (i, &p) in pixels.iter().enumerate() {
                    let (x, y) = (i % side, i / side);
                    let line = dark && (x + y) % 4 == 3;
                    assert_eq!(p, u8::from(line), "{dark} {picked}: ({x}, {y})");
                }
            }
        }
    }
}
