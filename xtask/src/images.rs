//! Draws the e-reader square images (`static/*.gif`) and the cover: two
//! colours, no transparency, sized to read well and be easy to tap on a
//! 6-inch 600x800 e-ink screen at their natural size. The web squares are
//! the hand-written SVGs beside them, drawn to the same proportions.

use std::path::Path;

use anyhow::Context as _;

/// Side of a square image, in pixels: three make a 540-pixel board.
const SIDE: usize = 180;

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

/// Writes the five squares and the cover into `dir`.
pub fn draw(dir: &Path) -> anyhow::Result<()> {
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
