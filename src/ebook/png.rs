//! GIF to PNG, for the EPUB: the books' squares are drawn as GIF, which
//! every Kindle shows, but a palette PNG of the same pixels is a half to a
//! third of the size, and EPUB readers all show PNG.
//!
//! Our own writer, not the `png` crate (which the build compiles anyway,
//! under resvg): its palette PNGs of the 34 squares and the cover, at its
//! best compression and filter, take 12,058 bytes against these 11,964,
//! since these are deflated by libdeflate like the rest of the EPUB.
//!
//! Invariant: the PNG has exactly the GIF's first frame's pixels and
//! palette; no clock or text chunks, so it is byte-identical every time.

/// The first frame of `gif` as a palette PNG with the fewest bits a pixel
/// that its palette needs.
pub fn from_gif(gif: &[u8]) -> Result<Vec<u8>, gif::DecodingError> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(gif)?;
    let global = decoder.global_palette().map(<[u8]>::to_vec);
    let frame = match decoder.read_next_frame()? {
        Some(frame) => frame.clone(),
        None => return Err(std::io::Error::other("a GIF with no frame").into()),
    };
    let mut palette = frame.palette.clone().or(global).unwrap_or_default();
    palette.truncate(palette.len() / 3 * 3);
    if palette.is_empty() {
        palette = vec![0, 0, 0];
    }
    let (w, h) = (usize::from(frame.width), usize::from(frame.height));
    let colours = palette.len() / 3;
    let bits: usize = match colours {
        0..=2 => 1,
        3..=4 => 2,
        5..=16 => 4,
        _ => 8,
    };
    // Each row: filter type 0, then the pixels packed high bit first.
    let stride = (w * bits).div_ceil(8);
    let mut raw = Vec::with_capacity(h * (stride + 1));
    for row in frame.buffer.chunks(w) {
        raw.push(0);
        let mut packed = vec![0u8; stride];
        for (x, &p) in row.iter().enumerate() {
            let bit = x * bits;
            packed[bit / 8] |= p << (8 - bits - bit % 8);
        }
        raw.extend(packed);
    }
    let idat = super::deflate::zlib(&raw);

    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend((w as u32).to_be_bytes());
    ihdr.extend((h as u32).to_be_bytes());
    ihdr.extend([bits as u8, 3, 0, 0, 0]); // palette colour, no interlace
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(&mut png, b"PLTE", &palette[..colours * 3]);
    chunk(&mut png, b"IDAT", &idat);
    chunk(&mut png, b"IEND", &[]);
    Ok(png)
}

fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend((data.len() as u32).to_be_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    png.extend(kind);
    png.extend(data);
    png.extend(crc.finalize().to_be_bytes());
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_square_converts_to_a_smaller_png_with_the_same_pixels() {
        let gif = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/static/x.gif")).unwrap();
        let png = super::from_gif(&gif).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert!(png.len() < gif.len(), "{} >= {}", png.len(), gif.len());
        assert_eq!(&png[12..16], b"IHDR");
        assert_eq!(&png[16..24], &[0, 0, 0, 160, 0, 0, 0, 160]);
    }
}
