//! Draws every picture of the books once, as SVG, and renders the
//! e-reader rasters (`static/*.gif`, two colours, no transparency) from
//! those SVGs with resvg, at the size the books show them: sharp and easy
//! to tap on a 6-inch 600x800 e-ink screen. The marks' SVGs are written by
//! hand (`static/{e,x,o,xw,ow,xl,ol}.svg`); the analysis squares, the Towers of
//! Hanoi's cells and the cover are written here. Nothing sets a pixel by
//! hand: text is set in the shipped DejaVu Sans, and a pixel is black
//! where the rendered picture is darker than middle grey, so the rasters
//! read in grayscale as the SVGs do in colour.

use std::path::Path;

use anyhow::Context as _;
use resvg::{tiny_skia, usvg};
use tictactoe_book::game::Game;
use tictactoe_book::games::hanoi;
use tictactoe_book::games::tictactoe::Board;

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

/// A cover: `columns` of cells side by side, each column stacked from
/// the top, each cell `(its SVG, its height in units of its width of
/// 100)`, every column `side` pixels wide; the whole centred on a page
/// `w` by `h` pixels. Each cell is its own SVG nested at its place and
/// size, so the cover is drawn with the very pictures the pages show;
/// every place and size is whole pixels at the page's own size, so
/// stacked cells meet with no seam (a thumbnail is laid out at its size,
/// not scaled down from the cover).
fn cover_svg(columns: &[Vec<(&str, u32)>], (w, h): (usize, usize), side: usize) -> String {
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">"
    );
    let px = |units: u32| (units as usize * side + 50) / 100;
    let tallest = columns
        .iter()
        .map(|c| c.iter().map(|&(_, units)| px(units)).sum::<usize>())
        .max()
        .unwrap_or_default();
    let (left, top) = ((w - columns.len() * side) / 2, (h - tallest) / 2);
    for (i, column) in columns.iter().enumerate() {
        let (x, mut y) = (left + i * side, top);
        for &(cell, units) in column {
            let inner = cell
                .split_once('>')
                .and_then(|(_, rest)| rest.trim_end().strip_suffix("</svg>"))
                .unwrap_or_default();
            let height = px(units);
            svg += &format!(
                "<svg x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{height}\" viewBox=\"0 0 100 {units}\">{inner}</svg>"
            );
            y += height;
        }
    }
    svg + "</svg>\n"
}

/// A column of a cover, top down: each cell's name and its height (in
/// units of its width of 100).
type Column = Vec<(String, u32)>;

/// The covers, each `(its name, its columns' width on a 600x800 page,
/// what it shows, by cell name and height)`: tic-tac-toe's a won board,
/// the Towers of Hanoi's its start, every disc of the default puzzle on
/// the left peg, nearly as wide as the page.
fn covers() -> Vec<(&'static str, usize, Vec<Column>)> {
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
        (<Board as Game>::COVER, SIDE as usize, squares),
        (
            <hanoi::Hanoi as Game>::COVER,
            190,
            vec![peg(true), peg(false), peg(false)],
        ),
    ]
}

/// Writes into `dir` the analysis squares' and the Hanoi cells' SVGs, and
/// every GIF the books use, each rendered from its SVG; the hand-drawn
/// marks and the font are read from `static/` in the repository.
pub fn draw(dir: &Path) -> anyhow::Result<()> {
    let source = crate::flags::repo_root().join("static");
    let read = |name: &str| {
        let path = source.join(name);
        std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))
    };
    let options = svg_options(read("DejaVuSans.ttf")?);
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
    let svg_of = |name: &str| {
        pictures
            .iter()
            .chain(&marks)
            .find(|(n, _)| n == name)
            .map(|(_, svg)| svg.as_str())
            .unwrap_or_default()
    };
    for (name, side, columns) in covers() {
        let columns: Vec<Vec<(&str, u32)>> = columns
            .iter()
            .map(|c| {
                c.iter()
                    .map(|(cell, units)| (svg_of(cell), *units))
                    .collect()
            })
            .collect();
        let svg = cover_svg(&columns, (600, 800), side);
        let (height, cover) = rasterize(&svg, 600, &options)?;
        write_gif(&dir.join(format!("{name}.gif")), 600, height, &cover)?;
        // The MOBI's thumbnail of it (EXTH 202), as kindlegen makes one:
        // the same drawing at two fifths.
        let svg = cover_svg(&columns, (240, 320), side * 2 / 5);
        let (height, thumb) = rasterize(&svg, 240, &options)?;
        write_gif(&dir.join(format!("{name}-thumb.gif")), 240, height, &thumb)?;
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
}
