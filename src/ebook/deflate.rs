//! Deflate for the EPUB's zip entries and the PNGs' image data, by
//! libdeflate at [`LEVEL`], and for the PDFs' streams at [`QUICK_LEVEL`].
//!
//! Invariant: the same input gives the same bytes for a given libdeflate
//! version (pinned by `Cargo.lock`; the golden test in `tests/site/golden.rs`
//! fails loudly if that ever changes). Each function uses one level.

use std::cell::RefCell;

use libdeflater::{CompressionLvl, Compressor};

/// libdeflate's level. 6, the middle of its lazy parses: on the books'
/// markup, level 7 (a search three times as deep) makes the EPUBs about
/// 10% smaller (the analysis book 147 KB against 162 KB) for 1.7 times
/// the time (deflating the three tic-tac-toe EPUBs takes 45 ms of CPU
/// time at 7, 26 ms at 6: a sixteenth of a whole build, 10 ms of its wall
/// time); at 5 they are 18% larger than at 6 for 20% less time; above 9
/// the near-optimal parse is many times slower.
pub const LEVEL: i32 = 6;

/// libdeflate's fastest level, for the PDFs' page and form streams and
/// their font: their budget is in pages, not bytes, and at level 7 they
/// were less than 1% smaller (the gamebook 986 KB against 995 KB) for
/// twice the instructions (151 M against 72 M over a default build).
pub const QUICK_LEVEL: i32 = 1;

thread_local! {
    /// One compressor a thread and a level: its tables are large, so they
    /// are reused.
    static COMPRESSOR: RefCell<Compressor> = RefCell::new(Compressor::new(
        CompressionLvl::new(LEVEL).expect("a level libdeflate has"),
    ));
    static QUICK: RefCell<Compressor> = RefCell::new(Compressor::new(
        CompressionLvl::new(QUICK_LEVEL).expect("a level libdeflate has"),
    ));
}

/// Raw deflate, as a zip entry holds it.
pub fn raw(input: &[u8]) -> Vec<u8> {
    COMPRESSOR.with_borrow_mut(|c| {
        let mut out = vec![0; c.deflate_compress_bound(input.len())];
        let n = c.deflate_compress(input, &mut out).expect("the bound fits");
        out.truncate(n);
        out
    })
}

/// Deflate in a zlib wrapper, as a PNG's image data holds it.
pub fn zlib(input: &[u8]) -> Vec<u8> {
    COMPRESSOR.with_borrow_mut(|c| zlib_with(c, input))
}

/// [`zlib`] at [`QUICK_LEVEL`], as a PDF stream with `FlateDecode` holds it.
pub fn zlib_quick(input: &[u8]) -> Vec<u8> {
    QUICK.with_borrow_mut(|c| zlib_with(c, input))
}

fn zlib_with(c: &mut Compressor, input: &[u8]) -> Vec<u8> {
    let mut out = vec![0; c.zlib_compress_bound(input.len())];
    let n = c.zlib_compress(input, &mut out).expect("the bound fits");
    out.truncate(n);
    out
}

#[cfg(test)]
mod tests {
    use std::io::Read as _;

    #[test]
    fn both_forms_inflate_back() {
        let text: Vec<u8> = (0..20_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let mut back = Vec::new();
        flate2::read::DeflateDecoder::new(&super::raw(&text)[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, text);
        back.clear();
        flate2::read::ZlibDecoder::new(&super::zlib(&text)[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, text);
        back.clear();
        flate2::read::ZlibDecoder::new(&super::zlib_quick(&text)[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, text);
        assert!(super::raw(b"").len() < 8);
    }
}
