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
/// character split across its end (carried as trailing bytes).
pub(super) fn pieces(text: &[u8]) -> Vec<(&[u8], &[u8])> {
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
    let (compression, records, huff) = compressed(text);
    TextRecords {
        len: text.len(),
        compression,
        records,
        huff,
    }
}

pub(super) fn compressed(text: &[u8]) -> (Compression, Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let pieces = pieces(text);
    let trail = |mut rec: Vec<u8>, extra: &[u8]| {
        rec.extend_from_slice(extra);
        rec.push(extra.len() as u8);
        rec
    };
    let bare: Vec<&[u8]> = pieces.iter().map(|p| p.0).collect();
    let huff = huffcdic::compress(&bare);
    let huff_len = huff.len() + pieces.iter().map(|p| p.1.len() + 1).sum::<usize>();
    // PalmDOC record by record, until it cannot be smaller than HUFF/CDIC:
    // what it has made, and at least a byte for every five it has not
    // (its best, a two-byte pair standing for ten), reach HUFF/CDIC's size.
    let least = |(piece, extra): &(&[u8], &[u8])| piece.len().div_ceil(5) + extra.len() + 1;
    let mut rest: usize = pieces.iter().map(least).sum();
    let mut palmdoc = Vec::with_capacity(pieces.len());
    let mut palmdoc_len = 0;
    for p @ (piece, extra) in &pieces {
        if palmdoc_len + rest >= huff_len && !huff.is_empty() {
            break;
        }
        rest -= least(p);
        let rec = trail(palmdoc::compress(piece), extra);
        palmdoc_len += rec.len();
        palmdoc.push(rec);
    }
    let whole = palmdoc.len() == pieces.len();
    // An empty text has no phrases: PalmDOC, as every reader expects.
    if (whole && palmdoc_len < huff_len) || huff.is_empty() {
        return (Compression::PalmDoc, palmdoc, Vec::new());
    }
    let records = huff
        .records
        .into_iter()
        .zip(&pieces)
        .map(|(rec, (_, extra))| trail(rec, extra))
        .collect();
    (Compression::HuffCdic, records, huff.tables)
}
