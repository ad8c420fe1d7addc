//! The choice of compression for a part's text: 4,096-byte records in
//! PalmDOC or HUFF/CDIC, whichever makes them smaller, each with the bytes
//! that finish a character split across its end.

use crate::ebook::{huffcdic, palmdoc};

/// Uncompressed bytes of text per record.
pub const RECORD_SIZE: usize = 4096;

/// How many bytes at the start of `next` complete a UTF-8 character that
/// `data` ends in the middle of (0 to 3).
pub(super) fn overlap(data: &[u8], next: &[u8]) -> usize {
    // Find the start of the last character in `data`.
    let Some(lead_at) = data.iter().rposition(|b| b & 0xc0 != 0x80) else {
        return 0;
    };
    let lead = data[lead_at];
    let width: usize = match lead {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    let have = data.len() - lead_at;
    width.saturating_sub(have).min(next.len())
}

/// The text cut into 4,096-byte pieces, each with the bytes that finish a
/// character split across its end (carried as trailing bytes): the
/// tests' yardstick for [`each_piece`].
#[cfg(test)]
fn pieces(text: &[u8]) -> Vec<(&[u8], &[u8])> {
    text.chunks(RECORD_SIZE)
        .enumerate()
        .map(|(i, piece)| {
            let next = &text[((i + 1) * RECORD_SIZE).min(text.len())..];
            (piece, &next[..overlap(piece, next)])
        })
        .collect()
}

/// How the text records are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// PalmDOC's LZ77 (type 2): every reader since the Palm.
    PalmDoc,
    /// HUFF/CDIC (type 17480, "DH"): a dictionary of phrases and Huffman
    /// codes, in records of their own after the text.
    HuffCdic,
}

impl Compression {
    /// The number record 0 gives it.
    pub(super) fn id(self) -> u16 {
        match self {
            Compression::PalmDoc => 2,
            Compression::HuffCdic => 17480,
        }
    }
}

/// A part's text as it goes into the file: its length, and its records.
pub struct TextRecords {
    /// The length of the text, uncompressed.
    pub len: usize,
    /// How the records are compressed.
    pub compression: Compression,
    /// The text records.
    pub records: Vec<Vec<u8>>,
    /// The HUFF and CDIC records (none for PalmDOC).
    pub huff: Vec<Vec<u8>>,
}

/// The text records and the HUFF/CDIC records (none for PalmDOC), in the
/// compression that makes them smaller. Each text record is its piece,
/// compressed on its own, then the bytes that finish a character split
/// across the boundary and a byte counting them (extra-data flag bit 0).
/// The caller may drop the text then: nothing here borrows it.
pub fn text_records(text: &[u8]) -> TextRecords {
    text_records_of(text.len(), &|out: &mut dyn FnMut(&[u8])| out(text))
}

/// A text as it is made: `render` writes it, in order, in pieces of any
/// size into the function it is given, as many times as it is called, the
/// same bytes each time (a book's text, rendered a screen at a time).
pub type Render<'a> = &'a dyn Fn(&mut dyn FnMut(&[u8]));

/// [`text_records`] of the text `render` writes, `len` bytes, never held
/// whole: it is read once for HUFF/CDIC (which keeps each piece's
/// symbols, not its bytes, or of a large text only some pieces' and then
/// reads it again), and again, only if need be, for PalmDOC; 8 KB of it
/// at a time.
pub fn text_records_of(len: usize, render: Render) -> TextRecords {
    let (made, compression, records, huff) = compressed(len, render, huffcdic::HELD_SYMBOLS);
    assert_eq!(made, len, "the text is as long as said");
    TextRecords {
        len,
        compression,
        records,
        huff,
    }
}

/// The text `render` writes, in 4,096-byte pieces, each handed to `each`
/// with the bytes that finish a character it ends in the middle of.
fn each_piece(render: Render, each: &mut dyn FnMut(&[u8], &[u8])) -> usize {
    // A piece is handed on once the next is whole (its first bytes may
    // finish its last character), or the text ends.
    let (mut last, mut next) = (
        Vec::with_capacity(RECORD_SIZE),
        Vec::with_capacity(RECORD_SIZE),
    );
    let mut len = 0;
    render(&mut |mut bytes: &[u8]| {
        len += bytes.len();
        while !bytes.is_empty() {
            if next.len() == RECORD_SIZE {
                if !last.is_empty() {
                    each(&last, &next[..overlap(&last, &next)]);
                }
                std::mem::swap(&mut last, &mut next);
                next.clear();
            }
            let take = (RECORD_SIZE - next.len()).min(bytes.len());
            next.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
        }
    });
    if !last.is_empty() {
        each(&last, &next[..overlap(&last, &next)]);
    }
    if !next.is_empty() {
        each(&next, &[]);
    }
    len
}

/// The text's length, its compression, its text records and its HUFF and
/// CDIC records, of a text of `len` bytes, read again for its last parse
/// if its symbols take more than `most` `u16`s.
fn compressed(
    len: usize,
    render: Render,
    most: usize,
) -> (usize, Compression, Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let trail = |mut rec: Vec<u8>, extra: &[u8]| {
        rec.extend_from_slice(extra);
        rec.push(extra.len() as u8);
        rec
    };
    let mut cutter = huffcdic::Cutter::holding(len.div_ceil(RECORD_SIZE), most);
    let mut extras: Vec<Vec<u8>> = Vec::new();
    // PalmDOC record by record, until it cannot be smaller than HUFF/CDIC:
    // what it has made, and at least a byte for every five it has not
    // (its best, a two-byte pair standing for ten), reach HUFF/CDIC's size.
    let least = |piece: &[u8], extra: &[u8]| piece.len().div_ceil(5) + extra.len() + 1;
    let mut rest: usize = 0;
    let made = each_piece(render, &mut |piece, extra| {
        cutter.push_copied(piece);
        rest += least(piece, extra);
        extras.push(extra.to_vec());
    });
    let again = &mut |each: &mut dyn FnMut(&[u8])| {
        let again = each_piece(render, &mut |piece, _| each(piece));
        assert_eq!(again, made, "the text read again is as long");
    };
    let huff = huffcdic::compress_read(cutter, huffcdic::Limits::default(), again);
    let huff_len = huff.len() + extras.iter().map(|e| e.len() + 1).sum::<usize>();
    let mut palmdoc = Vec::with_capacity(extras.len());
    let mut palmdoc_len = 0;
    let mut done = false;
    if rest < huff_len || huff.is_empty() {
        each_piece(render, &mut |piece, extra| {
            if done || (palmdoc_len + rest >= huff_len && !huff.is_empty()) {
                done = true;
                return;
            }
            rest -= least(piece, extra);
            let rec = trail(palmdoc::compress(piece), extra);
            palmdoc_len += rec.len();
            palmdoc.push(rec);
        });
    }
    let whole = palmdoc.len() == extras.len();
    // An empty text has no phrases: PalmDOC, as every reader expects.
    if (whole && palmdoc_len < huff_len) || huff.is_empty() {
        return (made, Compression::PalmDoc, palmdoc, Vec::new());
    }
    let records = huff
        .records
        .into_iter()
        .zip(&extras)
        .map(|(rec, extra)| trail(rec, extra))
        .collect();
    (made, Compression::HuffCdic, records, huff.tables)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text too large for its symbols to be held (past `most`) is
    /// rendered twice, and gives the records of one whose symbols are.
    #[test]
    fn a_text_read_again_gives_the_records_of_one_held() {
        let mut text = Vec::new();
        for i in 0..40_000u32 {
            let link = format!("<p><a filepos={:07}>go</a></p>", i * 7919 % 9_999_991);
            text.extend_from_slice(link.as_bytes());
        }
        // Past 256 pieces, some are read only by the last parse.
        assert!(text.len() > 256 * RECORD_SIZE);
        let renders = std::cell::Cell::new(0);
        let render = |out: &mut dyn FnMut(&[u8])| {
            renders.set(renders.get() + 1);
            text.chunks(4000).for_each(&mut *out)
        };
        let held = compressed(text.len(), &render, usize::MAX);
        assert_eq!((renders.replace(0), held.1), (1, Compression::HuffCdic));
        let again = compressed(text.len(), &render, 0);
        assert_eq!(renders.get(), 2);
        assert!(again == held);
    }

    /// A text rendered in pieces of any size gives the records of the text
    /// held whole: HUFF/CDIC's the records [`huffcdic::compress`] makes of
    /// its pieces, each with its trailing bytes (a character split across
    /// a record's end among them), and a short text's PalmDOC.
    #[test]
    fn a_text_made_in_pieces_gives_the_records_of_the_whole() {
        let mut long = Vec::new();
        for i in 0..3000 {
            long.extend_from_slice(
                format!("<p><a filepos={:07}>go \u{e9}</a></p>", i * 7919).as_bytes(),
            );
        }
        let short = b"<html><body>hello \xc3\xa9</body></html>".to_vec();
        for (text, compression) in [(long, Compression::HuffCdic), (short, Compression::PalmDoc)] {
            let whole = text_records(&text);
            assert_eq!((whole.len, whole.compression), (text.len(), compression));
            // Rendered in pieces of any size, with nothing held or all.
            for (size, most) in [(1, 0), (7, 0), (4096, 0), (5000, usize::MAX), (100_000, 0)] {
                let render = |out: &mut dyn FnMut(&[u8])| text.chunks(size).for_each(&mut *out);
                let (len, compression, records, huff) = compressed(text.len(), &render, most);
                assert_eq!(len, whole.len);
                assert_eq!(compression, whole.compression);
                assert!(records == whole.records, "records, size {size}");
                assert!(huff == whole.huff, "tables, size {size}");
            }
            let pieces = pieces(&text);
            assert!(
                pieces.iter().any(|(_, extra)| !extra.is_empty())
                    || compression == Compression::PalmDoc
            );
            if compression == Compression::HuffCdic {
                let bare: Vec<&[u8]> = pieces.iter().map(|p| p.0).collect();
                let huff = huffcdic::compress(&bare);
                assert!(whole.huff == huff.tables);
                for ((rec, (_, extra)), coded) in
                    whole.records.iter().zip(&pieces).zip(&huff.records)
                {
                    assert_eq!(rec.len(), coded.len() + extra.len() + 1);
                    assert_eq!(&rec[..coded.len()], &coded[..]);
                }
            } else {
                for (rec, (piece, _)) in whole.records.iter().zip(&pieces) {
                    assert_eq!(&rec[..rec.len() - 1], &palmdoc::compress(piece)[..]);
                }
            }
        }
    }
}
