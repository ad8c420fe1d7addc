//! The PalmDB container of a MOBI: record 0 (PalmDOC, MOBI and EXTH
//! headers) of each part, the text and image records, FLIS, FCIS, the
//! `BOUNDARY` between the MOBI 6 and KF8 parts, and EOF.

use super::{Compression, RECORD_SIZE, TextRecords, tbs};
use crate::ebook::{TooLarge, kf8};

/// The most records a PalmDB file numbers: its count is 16 bits.
pub const MAX_RECORDS: u64 = 0xffff;

/// A fixed date for the PalmDB header (seconds since 1970): the 2009 post,
/// so that builds are byte-identical.
pub(super) const PALM_DATE: u32 = 1_237_000_000;

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
    /// The book's own stable id, its ASIN (EXTH 113): a Kindle shows a
    /// sideloaded book's cover on its lock screen and in its library only
    /// with both 113 and 501 `EBOK` (kindling issue 26).
    pub id: &'a str,
    /// The images other than the cover and its thumbnail (EXTH 131, as
    /// kindlegen counts them).
    pub images: u32,
    /// In a combined file, the count of resources the KF8 part shares, the
    /// images and the RESC record (EXTH 125; the cover is then also named
    /// as KF8 names it, EXTH 129).
    pub shared: Option<u32>,
}

pub(super) const FLIS: [u8; 36] = [
    b'F', b'L', b'I', b'S', 0, 0, 0, 8, 0, 0x41, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 1, 0,
    3, 0, 0, 0, 3, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff,
];

pub(super) fn fcis(text_length: u32) -> Vec<u8> {
    let mut r = b"FCIS\x00\x00\x00\x14\x00\x00\x00\x10\x00\x00\x00\x02\x00\x00\x00\x00".to_vec();
    r.extend_from_slice(&text_length.to_be_bytes());
    r.extend_from_slice(
        b"\x00\x00\x00\x00\x00\x00\x00\x20\x00\x00\x00\x08\x00\x01\x00\x01\x00\x00\x00\x00",
    );
    r
}

pub(super) const EOF: [u8; 4] = [0xe9, 0x8e, 0x0d, 0x0a];

/// The creator records kindlegen 2.9 on Linux writes in both parts: its
/// platform (EXTH 204: 201), major, minor and build version (205 to 207:
/// 2, 9, 0) and its build (535). Firmware reads them to choose the KF8
/// reader (boko's notes); kindling and boko write the same values.
pub(super) const CREATOR: [(u32, &[u8]); 5] = [
    (204, &201u32.to_be_bytes()),
    (205, &2u32.to_be_bytes()),
    (206, &9u32.to_be_bytes()),
    (207, &0u32.to_be_bytes()),
    (535, b"1028-0897292"),
];

/// The EXTH header; `boundary` (EXTH 121) is the KF8 part's record 0, for
/// the MOBI 6 part of a combined file.
pub(super) fn exth(meta: &Metadata, boundary: Option<u32>) -> Vec<u8> {
    let mut recs: Vec<(u32, Vec<u8>)> = vec![
        (100, meta.author.as_bytes().to_vec()),
        (503, meta.title.as_bytes().to_vec()),
        (524, b"en".to_vec()),
        (501, b"EBOK".to_vec()),
        (113, meta.id.as_bytes().to_vec()),
        (131, meta.images.to_be_bytes().to_vec()),
        (116, meta.start_reading.to_be_bytes().to_vec()),
        (201, meta.cover.to_be_bytes().to_vec()),
        (203, 0u32.to_be_bytes().to_vec()),
    ];
    recs.extend(CREATOR.iter().map(|(kind, data)| (*kind, data.to_vec())));
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
pub(super) fn unique_id(title: &str) -> u32 {
    title.bytes().fold(0x811c_9dc5, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// NULL, for an index or record a part does not have.
pub(super) const NULL: u32 = 0xffff_ffff;

/// A part's record 0 fields that say where its other records sit, counted
/// from that record 0.
pub(super) struct Header {
    /// 6 for MOBI 6, 8 for KF8.
    version: u32,
    compression: Compression,
    text_length: usize,
    text_records: usize,
    huff_records: usize,
    first_image: usize,
    /// Where the part's records end: MOBI 6 names its last record of text
    /// and images (and the RESC), KF8 its FDST.
    end: PartEnd,
    flis: usize,
    fcis: usize,
    /// The NCX, fragment, skeleton and guide indexes (KF8 only).
    indexes: [u32; 4],
    /// What trails each text record: bit 0 the multibyte bytes, bit 1
    /// the TBS (KF8 only).
    extra_data: u32,
    boundary: Option<u32>,
}

/// What record 0 says at 0xc0 about where a part's content ends.
#[derive(Clone, Copy, Debug)]
pub(super) enum PartEnd {
    /// MOBI 6: its first and last content records (text, images, RESC).
    LastContent(usize),
    /// KF8: its FDST record, and how many flows it lists.
    Fdst(usize, usize),
}

/// The MOBI header's length: kindlegen's, with room for the KF8 indexes.
pub(super) const MOBI_HEADER: usize = 0x108;

/// Record 0: PalmDOC header, MOBI header (264 bytes), EXTH, full name.
pub(super) fn record0(meta: &Metadata, h: &Header) -> Vec<u8> {
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
    match h.end {
        PartEnd::LastContent(last) => {
            r.extend_from_slice(&be16(1)); // 0xc0 first content record
            r.extend_from_slice(&be16(last)); // 0xc2 last content record
            r.extend_from_slice(&be32(1)); // 0xc4
        }
        PartEnd::Fdst(fdst, flows) => {
            r.extend_from_slice(&be32(fdst as u32)); // 0xc0 FDST
            r.extend_from_slice(&be32(flows as u32)); // 0xc4 flows
        }
    }
    for v in [h.fcis as u32, 1, h.flis as u32, 1] {
        r.extend_from_slice(&be32(v)); // 0xc8 FCIS, 0xd0 FLIS
    }
    r.extend_from_slice(&[0; 8]); // 0xd8
    for v in [NULL, 0, NULL, NULL] {
        r.extend_from_slice(&be32(v)); // 0xe0 no SRCS
    }
    r.extend_from_slice(&be32(h.extra_data)); // 0xf0 extra data
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
pub(super) fn palm_name(title: &str) -> [u8; 32] {
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
/// same but for where reading starts). Refused if a part's text is 4 GB
/// or more (record 0 holds its length in 32 bits, and every offset into
/// it as well), or the file too large for [`palm_db`]; an index too large
/// for its records is refused by [`kf8::Part`]'s indexes.
pub fn container(
    text: TextRecords,
    images: &[&[u8]],
    meta: &Metadata,
    kf8: Option<(&kf8::Part, TextRecords)>,
) -> Result<Vec<u8>, TooLarge> {
    // Every record number is where the record goes, counted as it is
    // pushed: from the MOBI 6 part's record 0, then from the KF8 part's.
    let TextRecords {
        len: text_len,
        compression,
        records: texts,
        huff,
    } = text;
    TooLarge::check(
        "bytes of text in the MOBI 6 part",
        text_len,
        u32::MAX.into(),
    )?;
    let (text_records, huff_records) = (texts.len(), huff.len());
    let mut records = vec![Vec::new()];
    records.extend(texts);
    records.extend(huff);
    let first_image = records.len();
    records.extend(images.iter().map(|i| i.to_vec()));
    if let Some((part, _)) = &kf8 {
        // After the images, as kindlegen puts it: a resource of its own.
        records.push(part.resc());
    }
    let last_content = records.len() - 1;
    let flis = records.len();
    records.push(FLIS.to_vec());
    let fcis_at = records.len();
    records.push(fcis(text_len as u32));
    let mut head = Header {
        version: 6,
        compression,
        text_length: text_len,
        text_records,
        huff_records,
        first_image,
        end: PartEnd::LastContent(last_content),
        flis,
        fcis: fcis_at,
        indexes: [NULL; 4],
        extra_data: 1,
        boundary: None,
    };
    if let Some((part, text)) = kf8 {
        records.push(b"BOUNDARY".to_vec());
        let k = records.len();
        head.boundary = Some(k as u32);
        // A record's number in the KF8 part, were it pushed now.
        let here = |records: &Vec<Vec<u8>>| records.len() - k;
        let TextRecords {
            len,
            compression,
            records: mut texts,
            huff,
        } = text;
        TooLarge::check("bytes of text in the KF8 part", len, u32::MAX.into())?;
        TooLarge::check("bytes of text in the KF8 part", part.flow0, u32::MAX.into())?;
        // After the multibyte bytes, the TBS: a reader peels trailing
        // entries from the highest flag down.
        let trailing = tbs::trailing(&part.ncx_spans(), len, RECORD_SIZE);
        for (record, tbs) in texts.iter_mut().zip(trailing) {
            record.extend(tbs);
        }
        let (text_records, huff_records) = (texts.len(), huff.len());
        records.push(Vec::new());
        records.extend(texts);
        records.extend(huff);
        let mut add = |index: Vec<Vec<u8>>| {
            let at = here(&records) as u32;
            records.extend(index);
            at
        };
        let fragment = add(part.fragment_index()?);
        let skeleton = add(part.skeleton_index()?);
        let guide = add(part.guide_index()?);
        let ncx = add(part.ncx_index()?);
        let fdst = here(&records);
        records.push(part.fdst());
        let flis = here(&records);
        records.push(FLIS.to_vec());
        let fcis_at = here(&records);
        records.push(fcis(part.flow0 as u32));
        let h = Header {
            version: 8,
            compression,
            text_length: part.flow0,
            text_records,
            huff_records,
            // kindlegen names the FDST as the first image: the images are
            // the MOBI 6 part's, and none follow.
            first_image: fdst,
            end: PartEnd::Fdst(fdst, part.flow_count()),
            flis,
            fcis: fcis_at,
            indexes: [ncx, fragment, skeleton, guide],
            extra_data: 0b11,
            boundary: None,
        };
        let kf8_meta = Metadata {
            start_reading: part.reading_starts() as u32,
            ..meta.clone()
        };
        records[k] = record0(&kf8_meta, &h);
    }
    records.push(EOF.to_vec());
    // Every record number (each part's record 0 names its records in 16
    // or 32 bits) is below the count, checked before it is written.
    TooLarge::check("records in a PalmDB file", records.len(), MAX_RECORDS)?;
    records[0] = record0(meta, &head);
    palm_db(meta.title, &records)
}

/// Where each of records of these lengths starts in a PalmDB file, after
/// the header and the record list: refused if there are more than
/// [`MAX_RECORDS`], or if one starts past 4 GB (the list holds 32 bits).
/// Every length or offset a record keeps of the file (EXTH lengths, the
/// name's offset) is within it, so a file whose records all start below
/// 4 GB and whose last is under 4 GB long overflows none.
pub(super) fn record_offsets(lens: &[usize]) -> Result<Vec<u32>, TooLarge> {
    let n = lens.len();
    TooLarge::check("records in a PalmDB file", n, MAX_RECORDS)?;
    let mut offset = 78 + 8 * n + 2;
    let mut offsets = Vec::with_capacity(n);
    for len in lens {
        TooLarge::check(
            "bytes before a record of a PalmDB file",
            offset,
            u32::MAX.into(),
        )?;
        offsets.push(offset as u32);
        offset += len;
    }
    TooLarge::check("bytes in a PalmDB file", offset, u32::MAX.into())?;
    Ok(offsets)
}

/// The PalmDB file of `records`, named after `title`: its header, the
/// list of where each record starts ([`record_offsets`]), and the records.
pub(super) fn palm_db(title: &str, records: &[Vec<u8>]) -> Result<Vec<u8>, TooLarge> {
    let lens: Vec<usize> = records.iter().map(Vec::len).collect();
    let offsets = record_offsets(&lens)?;
    let n = records.len();
    let mut out = Vec::new();
    out.extend_from_slice(&palm_name(title));
    out.extend_from_slice(&[0; 4]); // attributes, version
    for _ in 0..3 {
        out.extend_from_slice(&PALM_DATE.to_be_bytes()); // created, modified, backed up
    }
    out.extend_from_slice(&[0; 12]); // modnum, appInfo, sortInfo
    out.extend_from_slice(b"BOOKMOBI");
    out.extend_from_slice(&(2 * n as u32 - 1).to_be_bytes()); // unique id seed
    out.extend_from_slice(&[0; 4]); // next record list
    out.extend_from_slice(&(n as u16).to_be_bytes());
    for (i, offset) in offsets.into_iter().enumerate() {
        out.extend_from_slice(&offset.to_be_bytes());
        let uid = (2 * i as u32).to_be_bytes();
        out.extend_from_slice(&[0, uid[1], uid[2], uid[3]]);
    }
    out.extend_from_slice(&[0, 0]);
    for rec in records {
        out.extend_from_slice(rec);
    }
    Ok(out)
}
