//! Draws the e-reader square images (`static/*.gif`) and the cover: two
//! colours, no transparency, sized to read well and be easy to tap on a
//! 6-inch 600x800 e-ink screen at their natural size. The web squares of
//! the marks are the hand-written SVGs beside them, drawn to the same
//! proportions; the analysis squares (a verdict on an empty square) are
//! drawn here in both forms, with the verdict in words, so it reads in
//! grayscale and without colour.

use std::path::Path;

use anyhow::Context as _;

/// Side of a square image, in pixels: three make a 480-pixel board, which
/// fits the first Kindles' 600x800 screen (about 520 pixels usable) with
/// its heading and caption, sharp at 167 ppi.
const SIDE: usize = 160;

#[derive(Clone, Copy, PartialEq)]
enum Mark {
    Empty,
    X,
    O,
}

/// Whether pixel (px, py) of a square is dark. Proportions follow the SVGs
/// (a 100-unit square): border 3, X from 27 to 73 with stroke 11, O radius
/// 25 with stroke 11; a winning square is inverted.
fn dark(mark: Mark, winning: bool, px: usize, py: usize) -> bool {
    let u = |p: usize| (p as f64 + 0.5) * 100.0 / SIDE as f64;
    let (x, y) = (u(px), u(py));
    if x < 3.0 || y < 3.0 || x > 97.0 || y > 97.0 {
        return true;
    }
    let on_mark = match mark {
        Mark::Empty => false,
        Mark::X => {
            let seg = |ax: f64, ay: f64, bx: f64, by: f64| {
                let (dx, dy) = (bx - ax, by - ay);
                let t = (((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
                ((x - ax - t * dx).powi(2) + (y - ay - t * dy).powi(2)).sqrt()
            };
            seg(27.0, 27.0, 73.0, 73.0).min(seg(73.0, 27.0, 27.0, 73.0)) <= 5.5
        }
        Mark::O => (((x - 50.0).powi(2) + (y - 50.0).powi(2)).sqrt() - 25.0).abs() <= 5.5,
    };
    on_mark != winning
}

fn write_gif(path: &Path, width: usize, height: usize, pixels: &[u8]) -> anyhow::Result<()> {
    let mut bytes = Vec::new();
    {
        let palette = [0xff, 0xff, 0xff, 0x00, 0x00, 0x00];
        let mut enc = gif::Encoder::new(&mut bytes, width as u16, height as u16, &palette)?;
        let frame = gif::Frame {
            width: width as u16,
            height: height as u16,
            buffer: std::borrow::Cow::Borrowed(pixels),
            ..Default::default()
        };
        enc.write_frame(&frame)?;
    }
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

fn square(mark: Mark, winning: bool) -> Vec<u8> {
    let mut px = vec![0u8; SIDE * SIDE];
    for y in 0..SIDE {
        for x in 0..SIDE {
            px[y * SIDE + x] = u8::from(dark(mark, winning, x, y));
        }
    }
    px
}

/// A 5x7 bitmap font: the letters and digits the verdicts need.
fn glyph(c: char) -> [u8; 7] {
    match c {
        'W' => [17, 17, 17, 21, 21, 21, 10],
        'I' => [14, 4, 4, 4, 4, 4, 14],
        'N' => [17, 25, 21, 19, 17, 17, 17],
        'D' => [30, 17, 17, 17, 17, 17, 30],
        'R' => [30, 17, 17, 30, 20, 18, 17],
        'A' => [14, 17, 17, 31, 17, 17, 17],
        'L' => [16, 16, 16, 16, 16, 16, 31],
        'O' => [14, 17, 17, 17, 17, 17, 14],
        'S' => [15, 16, 16, 14, 1, 1, 30],
        '1' => [4, 12, 4, 4, 4, 4, 14],
        '2' => [14, 17, 1, 2, 4, 8, 31],
        '3' => [30, 1, 1, 14, 1, 1, 30],
        _ => [0; 7],
    }
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

/// Pixels of an analysis square. A win is inverted (white words on
/// black), a draw plain, a loss hatched behind a white band; the best moves
/// carry a second frame. The words sit in the middle, 3 pixels a dot.
fn verdict_square(kind: Kind, n: u8, best: bool) -> Vec<u8> {
    const DOT: usize = 3;
    let text: Vec<char> = words(kind, n).chars().collect();
    let (tw, th) = (text.len() * 6 * DOT - DOT, 7 * DOT);
    let (tx, ty) = ((SIDE - tw) / 2, (SIDE - th) / 2);
    let mut px = vec![0u8; SIDE * SIDE];
    for y in 0..SIDE {
        for x in 0..SIDE {
            let u = |p: usize| (p as f64 + 0.5) * 100.0 / SIDE as f64;
            let (ux, uy) = (u(x), u(y));
            let edge = ux.min(uy).min(100.0 - ux).min(100.0 - uy);
            let border = edge < 3.0;
            // A white gap inside the border keeps dark squares apart.
            let gap = edge < 5.0;
            let ring = best && (9.0..14.0).contains(&edge);
            let in_band = y + 14 >= ty && y < ty + th + 14;
            let background = match kind {
                Kind::Win => true,
                Kind::Draw => false,
                Kind::Loss => !in_band && y % 12 < 3,
            };
            let ink = !matches!(kind, Kind::Win);
            let on_text = y >= ty && y < ty + th && x >= tx && x < tx + tw && {
                let (cx, cy) = ((x - tx) / DOT, (y - ty) / DOT);
                let (i, col) = (cx / 6, cx % 6);
                col < 5 && glyph(text[i])[cy] & (16 >> col) != 0
            };
            let dark = if border {
                true
            } else if gap {
                false
            } else if on_text || ring {
                ink
            } else {
                background
            };
            px[y * SIDE + x] = u8::from(dark);
        }
    }
    px
}

/// The web form of an analysis square, drawn to the same plan as the GIF.
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

/// A cell of the Towers of Hanoi: the air above a peg (framed when its
/// move is best), a bare level of a peg, disc `k` (1 to 7) on a peg, or
/// lifted above it.
#[derive(Clone, Copy)]
enum Tower {
    Air { best: bool },
    Peg,
    Disc(u8),
    Lifted(u8),
}

/// Every Hanoi cell image, with its name (as `games::hanoi` lists them).
fn towers() -> Vec<(String, Tower)> {
    let mut out = vec![
        ("ha".to_string(), Tower::Air { best: false }),
        ("hab".to_string(), Tower::Air { best: true }),
        ("hp".to_string(), Tower::Peg),
    ];
    for k in 1..=7 {
        out.push((format!("hd{k}"), Tower::Disc(k)));
    }
    for k in 1..=7 {
        out.push((format!("hl{k}"), Tower::Lifted(k)));
    }
    out
}

/// A disc's half width, in the 100-unit square: 11 for disc 1 to 47 for
/// disc 7, so every disc is told apart at a glance.
fn half_width(k: u8) -> f64 {
    5.0 + 6.0 * f64::from(k)
}

/// Whether pixel (px, py) of a Hanoi cell is dark: a peg is a bar 8 units
/// wide down the middle, a disc a bar 44 units high across it (filled on
/// a peg, outlined when lifted, so it reads in grayscale); cells have no
/// border, so a peg's levels join into one peg.
fn tower_dark(t: Tower, px: usize, py: usize) -> bool {
    let u = |p: usize| (p as f64 + 0.5) * 100.0 / SIDE as f64;
    let (x, y) = (u(px), u(py));
    let peg = (x - 50.0).abs() <= 4.0;
    let disc = |k: u8| (x - 50.0).abs() <= half_width(k) && (28.0..=72.0).contains(&y);
    let edge =
        |k: u8| disc(k) && ((x - 50.0).abs() > half_width(k) - 5.0 || !(33.0..=67.0).contains(&y));
    match t {
        Tower::Air { best } => {
            best && {
                let e = x.min(y).min(100.0 - x).min(100.0 - y);
                (3.0..9.0).contains(&e)
            }
        }
        Tower::Peg => peg,
        Tower::Disc(k) => peg || disc(k),
        Tower::Lifted(k) => edge(k),
    }
}

/// The web form of a Hanoi cell, drawn to the same plan as the GIF.
fn tower_svg(t: Tower) -> String {
    let mut svg = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" viewBox=\"0 0 100 100\">",
    );
    let bar = |k: u8| {
        let w = half_width(k);
        (50.0 - w, 2.0 * w)
    };
    match t {
        Tower::Air { best } => {
            if best {
                svg += "<rect x=\"6\" y=\"6\" width=\"88\" height=\"88\" fill=\"none\" stroke=\"#111\" stroke-width=\"6\"/>";
            }
        }
        Tower::Peg => svg += "<rect x=\"46\" y=\"0\" width=\"8\" height=\"100\" fill=\"#5d4037\"/>",
        Tower::Disc(k) => {
            let (x, w) = bar(k);
            svg += "<rect x=\"46\" y=\"0\" width=\"8\" height=\"100\" fill=\"#5d4037\"/>";
            svg +=
                &format!("<rect x=\"{x}\" y=\"28\" width=\"{w}\" height=\"44\" fill=\"#1a237e\"/>");
        }
        Tower::Lifted(k) => {
            let (x, w) = bar(k);
            svg += &format!(
                "<rect x=\"{}\" y=\"30.5\" width=\"{}\" height=\"39\" fill=\"#fff\" stroke=\"#1a237e\" stroke-width=\"5\"/>",
                x + 2.5,
                w - 5.0
            );
        }
    }
    svg + "</svg>\n"
}

/// Writes the squares (and the analysis squares' SVGs) and the cover into
/// `dir`.
pub fn draw(dir: &Path) -> anyhow::Result<()> {
    for (name, kind, n, best) in verdicts() {
        write_gif(
            &dir.join(format!("{name}.gif")),
            SIDE,
            SIDE,
            &verdict_square(kind, n, best),
        )?;
        let svg = dir.join(format!("{name}.svg"));
        std::fs::write(&svg, verdict_svg(kind, n, best))
            .with_context(|| format!("cannot write {}", svg.display()))?;
    }
    for (name, t) in towers() {
        let mut px = vec![0u8; SIDE * SIDE];
        for y in 0..SIDE {
            for x in 0..SIDE {
                px[y * SIDE + x] = u8::from(tower_dark(t, x, y));
            }
        }
        write_gif(&dir.join(format!("{name}.gif")), SIDE, SIDE, &px)?;
        let svg = dir.join(format!("{name}.svg"));
        std::fs::write(&svg, tower_svg(t))
            .with_context(|| format!("cannot write {}", svg.display()))?;
    }
    let squares = [
        ("e", Mark::Empty, false),
        ("x", Mark::X, false),
        ("o", Mark::O, false),
        ("xw", Mark::X, true),
        ("ow", Mark::O, true),
    ];
    for (name, mark, winning) in squares {
        write_gif(
            &dir.join(format!("{name}.gif")),
            SIDE,
            SIDE,
            &square(mark, winning),
        )?;
    }
    // The cover: a won board, centred on a 600x800 page.
    let (w, h) = (600, 800);
    let mut cover = vec![0u8; w * h];
    let board = [
        (Mark::X, true),
        (Mark::O, false),
        (Mark::Empty, false),
        (Mark::O, false),
        (Mark::X, true),
        (Mark::Empty, false),
        (Mark::Empty, false),
        (Mark::Empty, false),
        (Mark::X, true),
    ];
    let (left, top) = ((w - 3 * SIDE) / 2, (h - 3 * SIDE) / 2);
    for (i, &(mark, winning)) in board.iter().enumerate() {
        let sq = square(mark, winning);
        let (ox, oy) = (left + (i % 3) * SIDE, top + (i / 3) * SIDE);
        for y in 0..SIDE {
            cover[(oy + y) * w + ox..(oy + y) * w + ox + SIDE]
                .copy_from_slice(&sq[y * SIDE..(y + 1) * SIDE]);
        }
    }
    write_gif(&dir.join("cover.gif"), w, h, &cover)
}
