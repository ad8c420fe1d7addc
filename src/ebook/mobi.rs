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

mod compress;
mod container;
mod tbs;
mod text;

pub use compress::{Compression, RECORD_SIZE, Render, TextRecords, text_records, text_records_of};
pub use container::{Metadata, container};
#[cfg(any(test, feature = "test-support"))]
pub use text::markup;
pub use text::{Plan, plan, render};

use super::{AUTHOR, Book, THUMB, TooLarge, kf8};
use crate::assets::Assets;
use crate::screen::Edition;

/// The book as a combined MOBI 6 and KF8 file, with its images
/// ([`pictures`]) and the cover's thumbnail (a PNG), in record order;
/// refused if the book has more records than a PalmDB file numbers, or
/// any other count past its field ([`container`]).
pub fn write(book: &Book) -> Result<Vec<u8>, TooLarge> {
    write_with(book, container::MAX_RECORDS, &text_records_of)
}

/// How a part's text of the given length, as `Render` writes it, becomes
/// its records: [`text_records_of`], or in the tests one that counts.
type Compress<'a> = &'a (dyn Fn(usize, Render) -> TextRecords + Sync);

/// [`write`], refusing before any text is compressed a book whose texts
/// and pictures take more than `most` records.
fn write_with(book: &Book, most: u64, compress: Compress) -> Result<Vec<u8>, TooLarge> {
    let mut images = pictures(book.edition, book.assets);
    // The thumbnail a Kindle installs as the book's tile (EXTH 202) is a
    // PNG, as kindling's file check wants it (a JPEG or a PNG): the
    // GIF's own pixels, drawn by resvg from the cover's SVG.
    let cover = book.edition.cover();
    images.push((THUMB, book.assets.png(&format!("{cover}-thumb.gif"))));
    let names: Vec<&str> = images.iter().map(|(n, _)| *n).collect();
    let bytes: Vec<&[u8]> = images.iter().map(|(_, b)| *b).collect();
    // The two parts are made at once, each text laid out once to place
    // its links' targets, then compressed as it is written again: neither
    // is ever held whole.
    let (plan, part) = crate::par::join(
        || text::plan(book.edition, &names),
        || kf8::part(book, &names),
    );
    fits_its_records(&[plan.len, part.text_len()], names.len(), most)?;
    let ((mobi6, start), kf8_text) = crate::par::join(
        || {
            let render =
                |out: &mut dyn FnMut(&[u8])| text::render(book.edition, &names, &plan, out);
            (compress(plan.len, &render), plan.start)
        },
        || {
            let render = |out: &mut dyn FnMut(&[u8])| part.render(book, &names, out);
            compress(part.text_len(), &render)
        },
    );
    let id = book_id(&book.edition.title, [&mobi6, &kf8_text], &bytes);
    let book = book.edition;
    let meta = Metadata {
        title: &book.title,
        id: &id,
        images: names.iter().filter(|n| ![cover, THUMB].contains(n)).count() as u32,
        author: AUTHOR,
        start_reading: start as u32,
        cover: names.iter().position(|n| *n == cover).expect("a cover") as u32,
        thumb: names.iter().position(|n| *n == THUMB).map(|i| i as u32),
        shared: Some(names.len() as u32 + 1), // and the RESC record
    };
    container(mobi6, &bytes, &meta, Some((&part, kf8_text)))
}

/// Refuses a book whose texts of `lens` bytes and `pictures` pictures
/// alone take more than `most` records (a PalmDB file numbers
/// [`container::MAX_RECORDS`]): before any text is compressed, so flags
/// that ask for a book too large (`--kqk-spare 3`) are refused about 1.5
/// s sooner, at a peak about 65 MB lower, than by [`container`]'s count
/// of every record.
fn fits_its_records(lens: &[usize], pictures: usize, most: u64) -> Result<(), TooLarge> {
    let texts: usize = lens.iter().map(|len| len.div_ceil(RECORD_SIZE)).sum();
    TooLarge::check(
        "records in a PalmDB file, counting only its texts and pictures",
        texts + pictures,
        most,
    )
}

/// The pictures the MOBI 6 part shows, then the cover ([`super::images`]),
/// in record order: with a picture under the board
/// ([`Edition::under`]), the bottom row's images as the rows above draw
/// them, and that picture.
pub fn pictures<'a>(book: &Edition, assets: &'a Assets) -> Vec<(&'static str, &'a [u8])> {
    let Some(under) = book.under else {
        return super::images(book, assets);
    };
    let mut shown = vec![false; book.images.len()];
    for name in book.used_images() {
        let i = book.images.iter().position(|n| n == name);
        shown[under.above(i.expect("one of the game's images"))] = true;
    }
    shown[under.image] = true;
    let names = book.images.iter().zip(shown).filter(|(_, s)| *s);
    (names.map(|(n, _)| *n).chain([book.cover()]))
        .map(|n| (n, assets.get(&format!("{n}.gif"))))
        .collect()
}

/// The book's stable id (EXTH 113), shaped as the UUID calibre writes
/// there: a hash of its title, its text records and its images, so the
/// same flags give the same id and another book another.
fn book_id(title: &str, texts: [&TextRecords; 2], images: &[&[u8]]) -> String {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(title.as_bytes());
    for text in texts {
        for record in text.records.iter().chain(&text.huff) {
            h.update(record);
        }
    }
    for image in images {
        h.update(image);
    }
    let hex = format!("{:032x}", h.digest128());
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
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

    /// The EXTH records of the part whose record 0 is `r0`, in order.
    pub fn exth(r0: &[u8]) -> Vec<(u32, &[u8])> {
        let at = 16 + u32_at(r0, 20) as usize;
        assert_eq!(&r0[at..at + 4], b"EXTH");
        let mut p = at + 12;
        (0..u32_at(r0, at + 8))
            .map(|_| {
                let (kind, len) = (u32_at(r0, p), u32_at(r0, p + 4) as usize);
                p += len;
                (kind, &r0[p - len + 8..p])
            })
            .collect()
    }

    /// The record 0 of each part: the MOBI 6 part's, then the KF8 part's
    /// if there is one.
    pub fn parts(file: &[u8]) -> Vec<&[u8]> {
        let recs = records(file);
        let mut out = vec![recs[0]];
        if let Some(b) = recs.iter().position(|r| *r == b"BOUNDARY") {
            out.push(recs[b + 1]);
        }
        out
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

    /// A text record without its trailing entries, as calibre's
    /// `get_trailing_data` peels them (the highest flag first, each
    /// ending in its backward-coded length; the multibyte bytes last), and
    /// its TBS (flag bit 1) without its length, if it has one.
    pub fn trailing(rec: &[u8], flags: u32) -> (&[u8], Option<&[u8]>) {
        let mut rec = rec;
        let mut tbs = None;
        for bit in (1..32).rev().filter(|b| flags >> b & 1 == 1) {
            // A backward variable-width integer: the high bit marks its
            // first byte, read from the end.
            let (mut size, mut width) = (0usize, 0);
            for &b in rec.iter().rev().take(4) {
                size |= usize::from(b & 0x7f) << (7 * width);
                width += 1;
                if b & 0x80 != 0 {
                    break;
                }
            }
            if bit == 1 {
                tbs = Some(&rec[rec.len() - size..rec.len() - width]);
            }
            rec = &rec[..rec.len() - size];
        }
        if flags & 1 == 1 {
            let extra = usize::from(rec[rec.len() - 1] & 3);
            rec = &rec[..rec.len() - 1 - extra];
        }
        (rec, tbs)
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
                Some(crate::ebook::huffcdic::Reader::new(&recs[first..first + n]).unwrap())
            }
            other => panic!("compression {other}"),
        };
        let flags = u32_at(r0, 0xf0);
        let mut text = Vec::new();
        for rec in &recs[1..=count] {
            let (body, _) = trailing(rec, flags);
            text.extend(match &huff {
                None => crate::ebook::palmdoc::decompress(body).unwrap(),
                Some(reader) => reader.decode(body).unwrap(),
            });
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::container::*;
    use super::read::*;
    use super::*;

    fn meta() -> Metadata<'static> {
        Metadata {
            title: "A Test Book",
            author: "Someone",
            start_reading: 7,
            id: "0123",
            images: 0,
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
            )
            .unwrap();
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
            let file = container(text_records(text.as_bytes()), &[], &meta(), None).unwrap();
            assert_eq!(super::read::text(&file), text.as_bytes());
        }
    }

    #[test]
    fn exth_is_padded_and_counted() {
        let e = super::container::exth(&meta(), None);
        assert_eq!(e.len() % 4, 0);
        assert_eq!(u32_at(&e, 8), 15);
        let len = u32_at(&e, 4) as usize;
        assert!(len <= e.len() && e.len() - len < 4);
    }

    /// A book of more records than a PalmDB file numbers (65,535: its
    /// count is 16 bits) is refused, not written with its count wrapped
    /// round; 65,535 records are written, the count whole.
    #[test]
    fn more_records_than_a_palm_db_numbers_are_refused() {
        let empty = |n: usize| TextRecords {
            len: 0,
            compression: Compression::PalmDoc,
            records: vec![Vec::new(); n],
            huff: Vec::new(),
        };
        // Record 0, the texts, FLIS, FCIS and EOF.
        let err = container(empty(65_535 - 3), &[], &meta(), None).unwrap_err();
        assert_eq!(
            err,
            TooLarge {
                what: "records in a PalmDB file",
                count: 65_536,
                most: 65_535
            }
        );
        assert_eq!(
            err.to_string(),
            "65536 records in a PalmDB file, past the format's most of 65535"
        );
        // Its texts and pictures alone are counted before anything is
        // compressed.
        let texts = [30_000 * RECORD_SIZE, 35_000 * RECORD_SIZE - 1];
        assert!(fits_its_records(&texts, 535, MAX_RECORDS).is_ok());
        let err = fits_its_records(&texts, 536, MAX_RECORDS).unwrap_err();
        assert_eq!(
            err.to_string(),
            "65536 records in a PalmDB file, counting only its texts and pictures, \
             past the format's most of 65535"
        );
        assert!(
            fits_its_records(
                &[30_000 * RECORD_SIZE, 35_000 * RECORD_SIZE + 1],
                535,
                MAX_RECORDS
            )
            .is_err()
        );
        let file = container(empty(65_535 - 4), &[], &meta(), None).unwrap();
        assert_eq!(records(&file).len(), 65_535);
        assert_eq!(u16::from_be_bytes([file[76], file[77]]), 0xffff);
    }

    /// `write` counts a book's text and picture records before it
    /// compresses either text: a book past the limit is refused with
    /// nothing compressed (a compressor here that is called fails the
    /// test), and one within it has both texts compressed once.
    #[test]
    fn a_book_past_its_records_is_refused_before_it_is_compressed() {
        use crate::solver::Solver;
        let hanoi = Solver::<crate::games::hanoi::Hanoi>::with_rules(crate::games::hanoi::Rules {
            discs: 3,
        });
        let edition = crate::editions::two_player::edition("hanoi", hanoi.graph(), None);
        let static_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
        let assets = crate::assets::Assets::load(&static_dir, &crate::site::images()).unwrap();
        let book = Book::new(&edition, &assets);
        use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
        let compressed = AtomicUsize::new(0);
        let counted = |len: usize, render: Render| {
            compressed.fetch_add(1, Relaxed);
            text_records_of(len, render)
        };
        let calls = || compressed.swap(0, Relaxed);
        let whole = write_with(&book, MAX_RECORDS, &counted).unwrap();
        assert_eq!(calls(), 2);
        assert!(whole == write(&book).unwrap());
        // Its texts and pictures take this many records, the others (the
        // headers, HUFF and CDIC, FLIS, FCIS, ...) more.
        let mut names: Vec<&str> = pictures(book.edition, book.assets)
            .iter()
            .map(|(n, _)| *n)
            .collect();
        names.push(THUMB);
        let (plan, part) = (text::plan(book.edition, &names), kf8::part(&book, &names));
        let texts = plan.len.div_ceil(RECORD_SIZE) + part.text_len().div_ceil(RECORD_SIZE);
        let least = (texts + names.len()) as u64;
        assert!(records(&whole).len() as u64 > least);
        let Err(err) = write_with(&book, least - 1, &counted) else {
            panic!("a book past its records is written");
        };
        assert_eq!(calls(), 0, "nothing is compressed");
        assert_eq!(
            (err.what, err.count),
            (
                "records in a PalmDB file, counting only its texts and pictures",
                least
            )
        );
        // At the limit, the texts are compressed (and the whole file is
        // held to the format's own limit).
        assert!(write_with(&book, least, &counted).unwrap() == whole);
        assert_eq!(calls(), 2);
    }

    /// A record that would start at 4 GB or past it, or a file that would
    /// end past it, is refused: the record list holds 32-bit offsets.
    #[test]
    fn a_palm_db_past_4_gb_is_refused() {
        let max = u32::MAX as usize;
        let head = 78 + 8 * 2 + 2;
        assert_eq!(
            record_offsets(&[10, 20]).unwrap(),
            [head as u32, head as u32 + 10]
        );
        let err = record_offsets(&[max - head + 1, 0]).unwrap_err();
        assert_eq!(err.what, "bytes before a record of a PalmDB file");
        assert_eq!(err.count, u32::MAX as u64 + 1);
        let err = record_offsets(&[10, max]).unwrap_err();
        assert_eq!(err.what, "bytes in a PalmDB file");
        assert!(record_offsets(&[10, max - head - 10]).is_ok());
    }

    /// A part whose text is 4 GB or more is refused: record 0 and FCIS
    /// hold its length in 32 bits.
    #[test]
    fn a_text_of_4_gb_is_refused() {
        let text = TextRecords {
            len: u32::MAX as usize + 1,
            compression: Compression::PalmDoc,
            records: Vec::new(),
            huff: Vec::new(),
        };
        let err = container(text, &[], &meta(), None).unwrap_err();
        assert_eq!(err.what, "bytes of text in the MOBI 6 part");
    }
}
