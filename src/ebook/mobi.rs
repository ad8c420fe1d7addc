//! MOBI, written with no outside converter, as kindlegen writes it: a
//! combined file of two parts sharing the images.
//! - MOBI 6 ("KF7"), the one format every Kindle opens: record 0 (PalmDOC,
//!   MOBI and EXTH headers), 4,096-byte text records compressed with
//!   PalmDOC or HUFF/CDIC (whichever is smaller), GIF image records, FLIS
//!   and FCIS.
//! - A `BOUNDARY` record, which EXTH 121 names the record after.
//! - Kindle Format 8 ([`super::kf8`]), which every Kindle since 2011 and
//!   every Kindle app reads instead: its own record 0, text records, the
//!   fragment, skeleton, guide and NCX indexes, FDST, FLIS and FCIS.
//! - The EOF record.
//!
//! Layout after calibre's MOBI writers, the MobileRead wiki and kindlegen's
//! output (see `shared/notes/ebook-formats.md`).
//!
//! Invariant: the output is a pure function of the book and the images (no
//! clock, no random id), and every `filepos` holds the byte offset of the
//! `<` of its target's first element in the uncompressed text.

use rustc_hash::FxHashMap;

use super::{AUTHOR, Book, COVER, THUMB, caption, intro};
use super::{huffcdic, kf8, palmdoc};
use crate::markup::{Grid, escape, write_grid};
use crate::screen::{CellView, Edition, Target};

/// Uncompressed bytes of text per record.
pub const RECORD_SIZE: usize = 4096;

/// A fixed date for the PalmDB header (seconds since 1970): the 2009 post,
/// so that builds are byte-identical.
const PALM_DATE: u32 = 1_237_000_000;

/// HTML text with `filepos` links filled in once every target is placed.
struct Text {
    buf: Vec<u8>,
    placed: FxHashMap<Target, usize>,
    links: Vec<(usize, Target)>,
    /// Digits of every `filepos`: enough for the longest offset, the same
    /// for all, so filling them in moves nothing.
    digits: usize,
    /// Room for escaping text.
    scratch: String,
}

impl Text {
    fn push(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    /// Text content, escaped, and in ASCII: any other character as a
    /// numeric character reference, so no character is ever split across
    /// two text records (see [`huffcdic::Limits`]).
    fn text(&mut self, s: &str) {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        escape(&mut out, s);
        if out.is_ascii() {
            self.push(&out);
        } else {
            for c in out.chars() {
                if c.is_ascii() {
                    self.buf.push(c as u8);
                } else {
                    self.push(&format!("&#{};", u32::from(c)));
                }
            }
        }
        self.scratch = out;
    }

    /// `filepos=` and the digits to be filled in.
    fn filepos(&mut self, target: Target) {
        self.push("filepos=");
        self.links.push((self.buf.len(), target));
        self.buf.extend(std::iter::repeat_n(b'0', self.digits));
    }

    fn link(&mut self, target: Target) {
        self.push("<a ");
        self.filepos(target);
        self.push(">");
    }

    /// Records that `target` starts here: at the `<` about to be written.
    fn place(&mut self, target: Target) {
        self.placed.insert(target, self.buf.len());
    }

    fn finish(mut self) -> Vec<u8> {
        let d = self.digits;
        for (at, target) in &self.links {
            let mut pos = self.placed[target];
            // Zero-padded decimal, by hand: a book has tens of thousands.
            for b in self.buf[*at..*at + d].iter_mut().rev() {
                *b = b'0' + (pos % 10) as u8;
                pos /= 10;
            }
            assert_eq!(pos, 0, "an offset that fits its digits");
        }
        self.buf
    }
}

/// A screen's grid: rows split by line breaks, `filepos` links, and
/// each image's tag (`recindex[i]` for the edition's image `i`).
struct MobiGrid<'a> {
    text: &'a mut Text,
    recindex: &'a [Option<String>],
}

impl Grid for MobiGrid<'_> {
    fn row(&mut self, index: usize) {
        if index > 0 {
            self.text.push("<br>");
        }
    }

    fn link(&mut self, target: Target) {
        self.text.link(target);
    }

    fn image(&mut self, cell: &CellView) {
        let tag = self.recindex[cell.image].as_deref();
        self.text
            .push(tag.expect("the book carries every image its screens use"));
    }

    fn end_link(&mut self) {
        self.text.push("</a>");
    }
}

/// The book as one Mobipocket HTML stream, HTML 3.2 with `filepos` links,
/// `recindex` images (`images` names them in record order) and
/// `<mbp:pagebreak/>` between screens. Returns the text and the offset
/// where reading starts (the opening page).
///
/// A `filepos` has as many digits as the longest offset needs (seven for
/// these books), not the ten of Mobipocket's own tools: three bytes a link
/// that hardly compress. Readers parse the number (KindleUnpack:
/// `filepos=['"]?0*(\d+)`). The text is laid out with seven digits, the
/// number our books need, and again only if its length needs another.
pub fn markup(book: &Edition, images: &[&str]) -> (Vec<u8>, usize) {
    markup_from(book, images, 7)
}

/// [`markup`], laid out first with `digits` a link. The links are filled
/// in only once the text's length has that many digits, since an offset
/// with more would not fit.
fn markup_from(book: &Edition, images: &[&str], mut digits: usize) -> (Vec<u8>, usize) {
    loop {
        let (text, start) = layout(book, images, digits);
        let needed = text.buf.len().to_string().len();
        if needed == digits {
            return (text.finish(), start);
        }
        digits = needed;
    }
}

/// The book's text with `digits` a link, the links not yet filled in.
fn layout(book: &Edition, images: &[&str], digits: usize) -> (Text, usize) {
    let mut t = Text {
        buf: Vec::new(),
        placed: FxHashMap::default(),
        links: Vec::new(),
        digits,
        scratch: String::new(),
    };
    // Each cell image's tag, made once: `recindex` counts from 1. A Kindle
    // shows the image at its own size (160 pixels: a row of three fits its
    // 600-pixel screen), as MOBI 6 readers ignore CSS. Readers built on a
    // browser read the KF8 part, where CSS fits a row to the screen.
    let recindex: Vec<Option<String>> = book
        .images
        .iter()
        .map(|name| {
            let i = images.iter().position(|n| n == name)?;
            Some(format!("<img recindex={}>", i + 1))
        })
        .collect();
    t.push("<html><head><guide><reference type=\"text\" title=\"Start\" ");
    t.filepos(Target::Contents);
    t.push("/></guide></head><body>");
    t.place(Target::Contents);
    t.push("<h2>");
    t.text(&book.title);
    t.push("</h2>");
    for p in intro(book) {
        t.push("<p>");
        t.text(p);
        t.push("</p>");
    }
    for (line, target) in &book.contents {
        t.push("<p>");
        t.link(*target);
        t.text(line);
        t.push("</a></p>");
    }
    for b in &book.screens {
        t.push("<mbp:pagebreak/>");
        t.place(b.target);
        // A <div>, not a <p>: the Kindle and calibre indent a paragraph's
        // first line, which would push the top row right of the others.
        t.push("<div>");
        write_grid(
            b,
            &mut MobiGrid {
                text: &mut t,
                recindex: &recindex,
            },
        );
        for line in caption(b) {
            t.push("<br>");
            t.text(line);
        }
        for (target, words) in b.book_nav() {
            t.push(" ");
            t.link(target);
            t.text(words);
            t.push("</a>");
        }
        t.push("</div>");
    }
    t.push("</body></html>");
    let start = t.placed[&Target::Contents];
    (t, start)
}

/// What record 0 says about the book.
#[derive(Clone, Debug)]
pub struct Metadata<'a> {
    /// Title (EXTH 503 and the full name).
    pub title: &'a str,
    /// Author (EXTH 100).
    pub author: &'a str,
    /// Offset in the text where the reader opens (EXTH 116).
    pub start_reading: u32,
    /// Index of the cover among the images (EXTH 201).
    pub cover: u32,
    /// Index of the cover's thumbnail among the images (EXTH 202).
    pub thumb: Option<u32>,
    /// In a combined file, the count of resources the KF8 part shares, the
    /// images and the RESC record (EXTH 125; the cover is then also named
    /// as KF8 names it, EXTH 129).
    pub shared: Option<u32>,
}

/// How many bytes at the start of `next` complete a UTF-8 character that
/// `data` ends in the middle of (0 to 3).
fn overlap(data: &[u8], next: &[u8]) -> usize {
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
    fn id(self) -> u16 {
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

fn compressed(text: &[u8]) -> (Compression, Vec<Vec<u8>>, Vec<Vec<u8>>) {
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

const FLIS: [u8; 36] = [
    b'F', b'L', b'I', b'S', 0, 0, 0, 8, 0, 0x41, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 1, 0,
    3, 0, 0, 0, 3, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff,
];

fn fcis(text_length: u32) -> Vec<u8> {
    let mut r = b"FCIS\x00\x00\x00\x14\x00\x00\x00\x10\x00\x00\x00\x02\x00\x00\x00\x00".to_vec();
    r.extend_from_slice(&text_length.to_be_bytes());
    r.extend_from_slice(
        b"\x00\x00\x00\x00\x00\x00\x00\x20\x00\x00\x00\x08\x00\x01\x00\x01\x00\x00\x00\x00",
    );
    r
}

const EOF: [u8; 4] = [0xe9, 0x8e, 0x0d, 0x0a];

/// The EXTH header; `boundary` (EXTH 121) is the KF8 part's record 0, for
/// the MOBI 6 part of a combined file.
fn exth(meta: &Metadata, boundary: Option<u32>) -> Vec<u8> {
    let mut recs: Vec<(u32, Vec<u8>)> = vec![
        (100, meta.author.as_bytes().to_vec()),
        (503, meta.title.as_bytes().to_vec()),
        (524, b"en".to_vec()),
        (501, b"EBOK".to_vec()),
        (116, meta.start_reading.to_be_bytes().to_vec()),
        (201, meta.cover.to_be_bytes().to_vec()),
        (203, 0u32.to_be_bytes().to_vec()),
    ];
    if let Some(thumb) = meta.thumb {
        recs.push((202, thumb.to_be_bytes().to_vec()));
    }
    if let Some(k) = boundary {
        recs.push((121, k.to_be_bytes().to_vec()));
    }
    if let Some(n) = meta.shared {
        recs.push((125, n.to_be_bytes().to_vec()));
        let cover = kf8::embed(meta.cover as usize);
        let cover = cover.split('?').next().unwrap_or_default();
        recs.push((129, cover.as_bytes().to_vec()));
    }
    recs.sort_by_key(|r| r.0);
    let mut body = Vec::new();
    for (kind, data) in &recs {
        body.extend_from_slice(&kind.to_be_bytes());
        body.extend_from_slice(&(data.len() as u32 + 8).to_be_bytes());
        body.extend_from_slice(data);
    }
    let pad = (4 - body.len() % 4) % 4;
    let mut out = b"EXTH".to_vec();
    out.extend_from_slice(&(12 + body.len() as u32).to_be_bytes());
    out.extend_from_slice(&(recs.len() as u32).to_be_bytes());
    out.extend_from_slice(&body);
    out.extend(std::iter::repeat_n(0, pad));
    out
}

/// A stable 32-bit id from the title (FNV-1a), instead of a random one.
fn unique_id(title: &str) -> u32 {
    title.bytes().fold(0x811c_9dc5, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// NULL, for an index or record a part does not have.
const NULL: u32 = 0xffff_ffff;

/// A part's record 0 fields that say where its other records sit, counted
/// from that record 0.
struct Header {
    /// 6 for MOBI 6, 8 for KF8.
    version: u32,
    compression: Compression,
    text_length: usize,
    text_records: usize,
    huff_records: usize,
    first_image: usize,
    /// MOBI 6: the last record of text and images; KF8: the FDST record.
    last_content_or_fdst: usize,
    flis: usize,
    fcis: usize,
    /// The NCX, fragment, skeleton and guide indexes (KF8 only).
    indexes: [u32; 4],
    boundary: Option<u32>,
}

/// The MOBI header's length: kindlegen's, with room for the KF8 indexes.
const MOBI_HEADER: usize = 0x108;

/// Record 0: PalmDOC header, MOBI header (264 bytes), EXTH, full name.
fn record0(meta: &Metadata, h: &Header) -> Vec<u8> {
    let first_huff = h.text_records + 1;
    let exth = exth(meta, h.boundary);
    let be16 = |v: usize| (v as u16).to_be_bytes();
    let be32 = |v: u32| v.to_be_bytes();
    let mut r = Vec::new();
    // PalmDOC header.
    r.extend_from_slice(&be16(h.compression.id() as usize));
    r.extend_from_slice(&be16(0));
    r.extend_from_slice(&be32(h.text_length as u32));
    r.extend_from_slice(&be16(h.text_records));
    r.extend_from_slice(&be16(RECORD_SIZE));
    r.extend_from_slice(&be16(0)); // no encryption
    r.extend_from_slice(&be16(0));
    // MOBI header, from 0x10.
    r.extend_from_slice(b"MOBI");
    for v in [
        MOBI_HEADER as u32,
        2,
        65001,
        unique_id(meta.title),
        h.version,
    ] {
        r.extend_from_slice(&be32(v)); // length, book, UTF-8, id, version
    }
    r.extend(std::iter::repeat_n(0xff, 40)); // 0x28..0x50: no indexes
    r.extend_from_slice(&be32(first_huff as u32)); // 0x50 first non-text
    r.extend_from_slice(&be32((16 + MOBI_HEADER + exth.len()) as u32)); // 0x54 name offset
    r.extend_from_slice(&be32(meta.title.len() as u32)); // 0x58 name length
    r.extend_from_slice(&be32(9)); // 0x5c English
    r.extend_from_slice(&[0; 8]); // 0x60 input and output language
    r.extend_from_slice(&be32(h.version)); // 0x68 minimum reader version
    r.extend_from_slice(&be32(h.first_image as u32)); // 0x6c first image
    if h.huff_records > 0 {
        r.extend_from_slice(&be32(first_huff as u32)); // 0x70 HUFF, then CDICs
        r.extend_from_slice(&be32(h.huff_records as u32)); // 0x74 their count
    } else {
        r.extend_from_slice(&[0; 8]); // 0x70 no HUFF/CDIC
    }
    r.extend_from_slice(&[0; 8]); // 0x78 no DATP
    r.extend_from_slice(&be32(0x50)); // 0x80 EXTH present
    r.extend_from_slice(&[0; 32]); // 0x84
    for v in [NULL, NULL, 0, 0] {
        r.extend_from_slice(&be32(v)); // 0xa4 no DRM
    }
    r.extend_from_slice(&[0; 12]); // 0xb4
    if h.version == 6 {
        r.extend_from_slice(&be16(1)); // 0xc0 first content record
        r.extend_from_slice(&be16(h.last_content_or_fdst)); // 0xc2 last content record
        r.extend_from_slice(&be32(1)); // 0xc4
    } else {
        r.extend_from_slice(&be32(h.last_content_or_fdst as u32)); // 0xc0 FDST
        r.extend_from_slice(&be32(2)); // 0xc4 flows
    }
    for v in [h.fcis as u32, 1, h.flis as u32, 1] {
        r.extend_from_slice(&be32(v)); // 0xc8 FCIS, 0xd0 FLIS
    }
    r.extend_from_slice(&[0; 8]); // 0xd8
    for v in [NULL, 0, NULL, NULL] {
        r.extend_from_slice(&be32(v)); // 0xe0 no SRCS
    }
    r.extend_from_slice(&be32(1)); // 0xf0 extra data: multibyte overlap
    let [ncx, fragment, skeleton, guide] = h.indexes;
    // 0xf4 NCX, fragment, skeleton, DATP (none) and guide indexes, 0x108.
    for v in [ncx, fragment, skeleton, NULL, guide, NULL, 0, NULL, 0] {
        r.extend_from_slice(&be32(v));
    }
    debug_assert_eq!(r.len(), 16 + MOBI_HEADER);
    r.extend_from_slice(&exth);
    r.extend_from_slice(meta.title.as_bytes());
    // At least two zero bytes after the name, then pad to a multiple of 4.
    r.extend_from_slice(&[0, 0]);
    while r.len() % 4 != 0 {
        r.push(0);
    }
    r
}

/// The PalmDB name: the title in ASCII, at most 31 bytes, NUL-padded.
fn palm_name(title: &str) -> [u8; 32] {
    let mut name = [0u8; 32];
    let ascii: Vec<u8> = title
        .bytes()
        .map(|b| if b.is_ascii_alphanumeric() { b } else { b'_' })
        .take(31)
        .collect();
    name[..ascii.len()].copy_from_slice(&ascii);
    name
}

/// A whole MOBI file from its MOBI 6 text (as [`text_records`] makes
/// it), image files and metadata, with a KF8 part after them if `kf8` is
/// given, with its text as [`text_records`] makes it (its metadata is the
/// same but for where reading starts).
pub fn container(
    text: TextRecords,
    images: &[&[u8]],
    meta: &Metadata,
    kf8: Option<(&kf8::Part, TextRecords)>,
) -> Vec<u8> {
    let TextRecords {
        len: text_len,
        compression,
        records: texts,
        huff,
    } = text;
    let mut head = Header {
        version: 6,
        compression,
        text_length: text_len,
        text_records: texts.len(),
        huff_records: huff.len(),
        first_image: 1 + texts.len() + huff.len(),
        last_content_or_fdst: texts.len() + huff.len() + images.len(),
        flis: 1 + texts.len() + huff.len() + images.len(),
        fcis: 2 + texts.len() + huff.len() + images.len(),
        indexes: [NULL; 4],
        boundary: None,
    };
    let mut records = vec![Vec::new()];
    records.extend(texts);
    records.extend(huff);
    records.extend(images.iter().map(|i| i.to_vec()));
    if let Some((part, _)) = &kf8 {
        // After the images, as kindlegen puts it: a resource of its own.
        records.push(part.resc());
        head.last_content_or_fdst += 1;
        head.flis += 1;
        head.fcis += 1;
    }
    records.push(FLIS.to_vec());
    records.push(fcis(text_len as u32));
    if let Some((part, text)) = kf8 {
        records.push(b"BOUNDARY".to_vec());
        let k = records.len();
        head.boundary = Some(k as u32);
        let TextRecords {
            compression,
            records: texts,
            huff,
            ..
        } = text;
        let mut h = Header {
            version: 8,
            compression,
            text_length: part.flow0,
            text_records: texts.len(),
            huff_records: huff.len(),
            ..head
        };
        h.boundary = None;
        records.push(Vec::new());
        records.extend(texts);
        records.extend(huff);
        let mut add = |index: Vec<Vec<u8>>| {
            let at = (records.len() - k) as u32;
            records.extend(index);
            at
        };
        let fragment = add(part.fragment_index());
        let skeleton = add(part.skeleton_index());
        let guide = add(part.guide_index());
        let ncx = add(part.ncx_index());
        h.indexes = [ncx, fragment, skeleton, guide];
        // kindlegen names the FDST as the first image: the images are the
        // MOBI 6 part's, and none follow.
        h.last_content_or_fdst = records.len() - k;
        h.first_image = h.last_content_or_fdst;
        records.push(part.fdst());
        h.flis = records.len() - k;
        records.push(FLIS.to_vec());
        h.fcis = records.len() - k;
        records.push(fcis(part.flow0 as u32));
        let kf8_meta = Metadata {
            start_reading: part.reading_starts() as u32,
            ..meta.clone()
        };
        records[k] = record0(&kf8_meta, &h);
    }
    records.push(EOF.to_vec());
    records[0] = record0(meta, &head);

    let n = records.len();
    let mut out = Vec::new();
    out.extend_from_slice(&palm_name(meta.title));
    out.extend_from_slice(&[0; 4]); // attributes, version
    for _ in 0..3 {
        out.extend_from_slice(&PALM_DATE.to_be_bytes()); // created, modified, backed up
    }
    out.extend_from_slice(&[0; 12]); // modnum, appInfo, sortInfo
    out.extend_from_slice(b"BOOKMOBI");
    out.extend_from_slice(&(2 * n as u32 - 1).to_be_bytes()); // unique id seed
    out.extend_from_slice(&[0; 4]); // next record list
    out.extend_from_slice(&(n as u16).to_be_bytes());
    let mut offset = 78 + 8 * n + 2;
    for (i, rec) in records.iter().enumerate() {
        out.extend_from_slice(&(offset as u32).to_be_bytes());
        let uid = (2 * i as u32).to_be_bytes();
        out.extend_from_slice(&[0, uid[1], uid[2], uid[3]]);
        offset += rec.len();
    }
    out.extend_from_slice(&[0, 0]);
    for rec in &records {
        out.extend_from_slice(rec);
    }
    out
}

/// The book as a combined MOBI 6 and KF8 file, with its images
/// ([`super::images`]) and the cover's thumbnail, in record order.
pub fn write(book: &Book) -> Vec<u8> {
    let mut images = super::images(book.edition, book.assets);
    images.push((THUMB, book.assets.get(&format!("{THUMB}.gif"))));
    let names: Vec<&str> = images.iter().map(|(n, _)| *n).collect();
    let bytes: Vec<&[u8]> = images.iter().map(|(_, b)| *b).collect();
    // The two parts are made at once, each text dropped once compressed.
    let ((mobi6, start), (part, kf8_text)) = crate::par::join(
        || {
            let (text, start) = markup(book.edition, &names);
            (text_records(&text), start)
        },
        || {
            let part = kf8::part(book, &names);
            let text = text_records(&part.text);
            (part, text)
        },
    );
    let book = book.edition;
    let meta = Metadata {
        title: &book.title,
        author: AUTHOR,
        start_reading: start as u32,
        cover: names.iter().position(|n| *n == COVER).expect("a cover") as u32,
        thumb: names.iter().position(|n| *n == THUMB).map(|i| i as u32),
        shared: Some(names.len() as u32 + 1), // and the RESC record
    };
    container(mobi6, &bytes, &meta, Some((&part, kf8_text)))
}

/// A reader for what [`container`] writes: the records, and the text put
/// back together. Only for the tests (the `test-support` feature); honours
/// the multibyte trailing bytes.
#[cfg(any(test, feature = "test-support"))]
pub mod read {
    /// The records of a PalmDB file.
    pub fn records(file: &[u8]) -> Vec<&[u8]> {
        let n = usize::from(u16::from_be_bytes([file[76], file[77]]));
        let offsets: Vec<usize> = (0..n)
            .map(|i| {
                let at = 78 + 8 * i;
                u32::from_be_bytes(file[at..at + 4].try_into().unwrap()) as usize
            })
            .chain([file.len()])
            .collect();
        offsets.windows(2).map(|w| &file[w[0]..w[1]]).collect()
    }

    /// A big-endian u32 at `at`.
    pub fn u32_at(rec: &[u8], at: usize) -> u32 {
        u32::from_be_bytes(rec[at..at + 4].try_into().unwrap())
    }

    /// The uncompressed text of the book's MOBI 6 part, PalmDOC or
    /// HUFF/CDIC.
    pub fn text(file: &[u8]) -> Vec<u8> {
        part_text(&records(file))
    }

    /// The uncompressed text of the book's KF8 part (its flows, one after
    /// the other), if it has one.
    pub fn kf8_text(file: &[u8]) -> Option<Vec<u8>> {
        let recs = records(file);
        let boundary = recs.iter().position(|r| *r == b"BOUNDARY")?;
        Some(part_text(&recs[boundary + 1..]))
    }

    /// The text of the part whose record 0 is `recs[0]`.
    fn part_text(recs: &[&[u8]]) -> Vec<u8> {
        let r0 = recs[0];
        let count = usize::from(u16::from_be_bytes([r0[8], r0[9]]));
        let huff = match u16::from_be_bytes([r0[0], r0[1]]) {
            2 => None,
            17480 => {
                let first = u32_at(r0, 0x70) as usize;
                let n = u32_at(r0, 0x74) as usize;
                Some(super::huffcdic::Reader::new(&recs[first..first + n]).unwrap())
            }
            other => panic!("compression {other}"),
        };
        let mut text = Vec::new();
        for rec in &recs[1..=count] {
            let extra = usize::from(rec[rec.len() - 1] & 3);
            let body = &rec[..rec.len() - 1 - extra];
            text.extend(match &huff {
                None => super::palmdoc::decompress(body).unwrap(),
                Some(reader) => reader.decode(body).unwrap(),
            });
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::read::*;
    use super::*;

    fn meta() -> Metadata<'static> {
        Metadata {
            title: "A Test Book",
            author: "Someone",
            start_reading: 7,
            cover: 1,
            thumb: Some(2),
            shared: None,
        }
    }

    #[test]
    fn header_fields_sit_at_their_offsets() {
        // A short text stays PalmDOC (the HUFF tables alone cost more); a
        // long run of markup is smaller as HUFF/CDIC.
        let short = b"<html><body>hello</body></html>".to_vec();
        let mut long = Vec::new();
        for i in 0..2000 {
            long.extend_from_slice(format!("<p><a filepos={:07}>go</a></p>", i * 7919).as_bytes());
        }
        for (text, compression) in [(short, 2), (long, 17480)] {
            let file = container(
                text_records(&text),
                &[b"GIF89a-one", b"GIF89a-two"],
                &meta(),
                None,
            );
            assert_eq!(&file[60..68], b"BOOKMOBI");
            let recs = records(&file);
            let texts = text.len().div_ceil(RECORD_SIZE);
            let r0 = recs[0];
            assert_eq!(u16::from_be_bytes([r0[0], r0[1]]), compression);
            let huff = if compression == 2 {
                assert_eq!(u32_at(r0, 0x74), 0);
                0
            } else {
                assert_eq!(u32_at(r0, 0x70) as usize, texts + 1);
                assert_eq!(&recs[texts + 1][..4], b"HUFF");
                assert_eq!(&recs[texts + 2][..4], b"CDIC");
                u32_at(r0, 0x74) as usize
            };
            assert_eq!(recs.len(), 1 + texts + huff + 2 + 3);
            assert_eq!(u32_at(r0, 4) as usize, text.len());
            assert_eq!(usize::from(u16::from_be_bytes([r0[8], r0[9]])), texts);
            assert_eq!(u16::from_be_bytes([r0[10], r0[11]]), 4096);
            assert_eq!(&r0[0x10..0x14], b"MOBI");
            assert_eq!(u32_at(r0, 0x14), 0x108);
            assert_eq!(u32_at(r0, 0x1c), 65001);
            assert_eq!(u32_at(r0, 0x24), 6);
            assert_eq!(u32_at(r0, 0x50) as usize, texts + 1);
            let first_image = texts + huff + 1;
            assert_eq!(u32_at(r0, 0x6c) as usize, first_image);
            assert_eq!(u32_at(r0, 0x80), 0x50);
            assert_eq!(u32_at(r0, 0xa4), 0xffff_ffff);
            assert_eq!(u32_at(r0, 0xa8), 0xffff_ffff);
            assert_eq!(
                usize::from(u16::from_be_bytes([r0[0xc2], r0[0xc3]])),
                first_image + 1
            );
            assert_eq!(u32_at(r0, 0xc8) as usize, first_image + 3);
            assert_eq!(u32_at(r0, 0xd0) as usize, first_image + 2);
            assert_eq!(u16::from_be_bytes([r0[0xf2], r0[0xf3]]), 1);
            let name_at = u32_at(r0, 0x54) as usize;
            assert_eq!(
                &r0[name_at..name_at + u32_at(r0, 0x58) as usize],
                b"A Test Book"
            );
            assert_eq!(&r0[0x118..0x11c], b"EXTH");
            assert_eq!(recs[first_image], b"GIF89a-one");
            assert_eq!(&recs[first_image + 2][..4], b"FLIS");
            assert_eq!(&recs[first_image + 3][..4], b"FCIS");
            assert_eq!(u32_at(recs[first_image + 3], 20) as usize, text.len());
            assert_eq!(recs[first_image + 4], EOF);
            assert_eq!(super::read::text(&file), text);
        }
    }

    #[test]
    fn a_character_split_across_records_is_carried_in_trailing_bytes() {
        // "é" (2 bytes) and "€" (3 bytes) straddling the first boundary.
        for (filler, ch) in [(4095, "é"), (4094, "€"), (4095, "€")] {
            let mut text = "a".repeat(filler);
            text.push_str(ch);
            text.push_str(&"b".repeat(100));
            let recs = text_records(text.as_bytes()).records;
            let first = &recs[0];
            let extra = usize::from(*first.last().unwrap());
            let expected = filler + ch.len() - RECORD_SIZE;
            assert_eq!(extra, expected, "{ch} after {filler}");
            assert_eq!(
                &first[first.len() - 1 - extra..first.len() - 1],
                &ch.as_bytes()[ch.len() - extra..]
            );
            let file = container(text_records(text.as_bytes()), &[], &meta(), None);
            assert_eq!(super::read::text(&file), text.as_bytes());
        }
    }

    /// Text goes out as ASCII, so no character is split across records.
    #[test]
    fn text_is_ascii_with_character_references() {
        let mut t = Text {
            buf: Vec::new(),
            placed: FxHashMap::default(),
            links: Vec::new(),
            digits: 7,
            scratch: String::new(),
        };
        t.text("caf\u{e9} & \u{2014}");
        assert_eq!(t.buf, b"caf&#233; &amp; &#8212;");
    }

    #[test]
    fn links_get_as_many_digits_as_the_text_needs() {
        // A text longer than its links' digits can count is laid out
        // again, not filled in: started at one digit, this book (under
        // 100 KB of text) gets five, as it does from the usual seven.
        let hanoi = crate::site::hanoi_solver(3);
        let book = crate::editions::two_player::edition("hanoi", hanoi.graph(), None);
        let (text, start) = markup_from(&book, book.images, 1);
        assert_eq!((text.clone(), start), markup(&book, book.images));
        let digits = text.len().to_string().len();
        assert_eq!(digits, 5);
        let text = String::from_utf8(text).unwrap();
        for link in text.split("filepos=").skip(1) {
            let n = link.bytes().take_while(u8::is_ascii_digit).count();
            assert_eq!(n, digits, "{link:.20}");
        }
    }

    #[test]
    fn exth_is_padded_and_counted() {
        let e = exth(&meta(), None);
        assert_eq!(e.len() % 4, 0);
        assert_eq!(u32_at(&e, 8), 8);
        let len = u32_at(&e, 4) as usize;
        assert!(len <= e.len() && e.len() - len < 4);
    }
}
