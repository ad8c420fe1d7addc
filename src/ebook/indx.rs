//! Mobipocket index records (INDX), the tables a KF8 book is found by: its
//! skeletons, fragments, guide and NCX. An index is a header record (the
//! tag table, TAGX, and where each data record ends), data records of
//! entries, and CNCX records holding the entries' strings.
//!
//! Layout after calibre's `writer8/index.py` and KindleUnpack's
//! `mobi_index.py`, checked against kindlegen's output (see
//! `shared/notes/ebook-formats.md`).
//!
//! Invariant: every entry fits its tags (each tag's count of values is a
//! whole number of its groups, and that number fits the tag's mask without
//! filling a mask of more than one bit, which readers take to mean a byte
//! count instead), and no
//! record is larger than 64 KB: an index that would need a larger one (a
//! key, an entry or a string too long, too many data or CNCX records) is
//! refused ([`TooLarge`]), since its 16-bit offsets would wrap round.

use rustc_hash::FxHashMap;

use super::TooLarge;

/// The most bytes of an INDX or CNCX record: their offsets are 16 bits.
const MAX_RECORD: u64 = 0x10000;

/// The length of every INDX record's header.
const HEADER: usize = 192;

/// Bytes of entries (and their IDXT offsets) a data record holds at most,
/// kindlegen's margin below 64 KB.
const RECORD_LIMIT: usize = 0x10000 - HEADER - 1048;

/// Bytes of strings a CNCX record holds at most.
const CNCX_LIMIT: usize = 0x10000 - 1024;

/// One kind of value an entry may carry: its number, how many values make
/// one group, and its bits in the entry's control byte.
#[derive(Clone, Copy, Debug)]
pub struct Tag {
    /// The tag's number (1 offset, 6 position, ...).
    pub number: u8,
    /// Values in one group.
    pub per_group: u8,
    /// The bits of the control byte that count its groups.
    pub mask: u8,
}

/// An entry: its key and, for each of the index's tags in order, its
/// values (none when the entry does not carry the tag).
#[derive(Clone, Debug)]
pub struct Entry {
    /// The key, at most 255 bytes.
    pub key: Vec<u8>,
    /// Values, one list for each tag.
    pub values: Vec<Vec<u32>>,
}

/// Strings stored once each in CNCX records, named by offset: the record's
/// number times 64 KB plus the offset in it.
#[derive(Default)]
pub struct Cncx {
    records: Vec<Vec<u8>>,
    current: Vec<u8>,
    offsets: FxHashMap<Vec<u8>, u32>,
    /// The first string that had no room: [`write`] refuses the index.
    too_large: Option<TooLarge>,
}

impl Cncx {
    /// The offset of `s`, stored the first time it is asked for. A string
    /// longer than a CNCX record holds, or past the 65,536th record (an
    /// offset is 32 bits), is not stored: [`write`] refuses the index.
    pub fn offset(&mut self, s: &str) -> u32 {
        if let Some(&at) = self.offsets.get(s.as_bytes()) {
            return at;
        }
        // At most five bytes of length (a varint of 32 bits).
        let fits = TooLarge::check(
            "bytes of a string in an index",
            s.len() + 5,
            CNCX_LIMIT as u64,
        );
        if let Err(e) = fits {
            self.too_large.get_or_insert(e);
            return 0;
        }
        let mut raw = varint(s.len() as u32);
        raw.extend_from_slice(s.as_bytes());
        if self.current.len() + raw.len() > CNCX_LIMIT {
            let full = std::mem::take(&mut self.current);
            self.records.push(aligned(full));
        }
        match cncx_offset(self.records.len(), self.current.len()) {
            Ok(at) => {
                self.current.extend_from_slice(&raw);
                self.offsets.insert(s.as_bytes().to_vec(), at);
                at
            }
            Err(e) => {
                self.too_large.get_or_insert(e);
                0
            }
        }
    }

    fn into_records(mut self) -> Result<Vec<Vec<u8>>, TooLarge> {
        if let Some(e) = self.too_large {
            return Err(e);
        }
        if !self.current.is_empty() {
            self.records.push(aligned(self.current));
        }
        Ok(self.records)
    }
}

/// A string's offset, `at` bytes into CNCX record `record`: the record's
/// number times 64 KB plus `at`, refused past 32 bits (65,536 records).
fn cncx_offset(record: usize, at: usize) -> Result<u32, TooLarge> {
    TooLarge::check("CNCX records of an index", record + 1, 0x10000)?;
    Ok((record * 0x10000 + at) as u32)
}

/// `v` in the forward variable-width form: seven bits a byte, most
/// significant first, the last byte's high bit set.
pub fn varint(v: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(5);
    push_vwi(&mut out, v as usize, true);
    out
}

/// How many bytes [`push_vwi`] writes `value` in.
pub(crate) fn vwi_len(value: usize) -> u32 {
    (usize::BITS - value.leading_zeros()).div_ceil(7).max(1)
}

/// A variable-width integer of 7 bits a byte onto `out`, most significant
/// first: the high bit marks its last byte if `forward` (an index's
/// values, [`varint`]), its first if not (read from the end, as a text
/// record's trailing entries end). Every entry and text record has a few.
pub(crate) fn push_vwi(out: &mut Vec<u8>, value: usize, forward: bool) {
    let len = vwi_len(value);
    for g in (0..len).rev() {
        let byte = (value >> (7 * g)) as u8 & 0x7f;
        let marked = if forward { g == 0 } else { g == len - 1 };
        out.push(if marked { byte | 0x80 } else { byte });
    }
}

fn aligned(mut block: Vec<u8>) -> Vec<u8> {
    block.resize(block.len().next_multiple_of(4), 0);
    block
}

fn be32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_be_bytes());
}

/// One entry's bytes: key length, key, control byte, values; refused if
/// its key is longer than its one byte of length counts.
fn entry_bytes(tags: &[Tag], e: &Entry) -> Result<Vec<u8>, TooLarge> {
    TooLarge::check("bytes in an index key", e.key.len(), 255)?;
    assert_eq!(e.values.len(), tags.len(), "a value list for every tag");
    let mut control = 0u8;
    for (tag, values) in tags.iter().zip(&e.values) {
        let per = usize::from(tag.per_group);
        let groups = values.len() / per;
        assert_eq!(
            groups * per,
            values.len(),
            "tag {}: whole groups",
            tag.number
        );
        let shift = tag.mask.trailing_zeros();
        let field = (groups as u32) << shift;
        assert!(
            field & !u32::from(tag.mask) == 0
                && (tag.mask.count_ones() == 1 || field != u32::from(tag.mask)),
            "tag {}: {groups} groups do not fit its mask",
            tag.number
        );
        control |= field as u8;
    }
    let mut out = vec![e.key.len() as u8];
    out.extend_from_slice(&e.key);
    out.push(control);
    for v in e.values.iter().flatten() {
        push_vwi(&mut out, *v as usize, true);
    }
    Ok(out)
}

/// The records of an index: its header record, its data records, then its
/// CNCX records. Refused if a record would pass 64 KB: an entry too
/// large for a data record, so many data records that the header's list
/// of them does not fit, or a string [`Cncx::offset`] had no room for.
pub fn write(tags: &[Tag], entries: &[Entry], cncx: Cncx) -> Result<Vec<Vec<u8>>, TooLarge> {
    // Data records: entries, then IDXT, the offset of each.
    struct Block {
        entries: Vec<u8>,
        idxt: Vec<u8>,
        count: usize,
        last: Vec<u8>,
    }
    let mut blocks: Vec<Block> = Vec::new();
    for e in entries {
        let raw = entry_bytes(tags, e)?;
        // With its IDXT offset.
        TooLarge::check(
            "bytes in an index entry",
            raw.len() + 2,
            RECORD_LIMIT as u64,
        )?;
        let fits = blocks
            .last()
            .is_some_and(|b| b.entries.len() + b.idxt.len() + raw.len() + 2 <= RECORD_LIMIT);
        if !fits {
            blocks.push(Block {
                entries: Vec::new(),
                idxt: Vec::new(),
                count: 0,
                last: Vec::new(),
            });
        }
        let b = blocks.last_mut().expect("a block");
        b.idxt
            .extend_from_slice(&((HEADER + b.entries.len()) as u16).to_be_bytes());
        b.entries.extend_from_slice(&raw);
        b.count += 1;
        b.last = e.key.clone();
    }
    let mut records = vec![Vec::new()];
    let mut geometry = Vec::new();
    let mut geometry_at = Vec::new();
    let mut tagx = b"TAGX".to_vec();
    be32(&mut tagx, 12 + 4 * (tags.len() as u32 + 1));
    be32(&mut tagx, 1); // one control byte
    for t in tags {
        tagx.extend_from_slice(&[t.number, t.per_group, t.mask, 0]);
    }
    tagx.extend_from_slice(&[0, 0, 0, 1]);
    let tagx = aligned(tagx);
    for b in &blocks {
        let body = aligned(b.entries.clone());
        let mut idxt = b"IDXT".to_vec();
        idxt.extend_from_slice(&b.idxt);
        let mut r = b"INDX".to_vec();
        for v in [
            HEADER as u32,
            0,
            1,
            0,
            (HEADER + body.len()) as u32,
            b.count as u32,
        ] {
            be32(&mut r, v);
        }
        r.extend([0xff; 8]);
        r.resize(HEADER, 0);
        r.extend_from_slice(&body);
        r.extend(aligned(idxt));
        records.push(r);
        geometry_at.push((HEADER + tagx.len() + geometry.len()) as u16);
        geometry.push(b.last.len() as u8);
        geometry.extend_from_slice(&b.last);
        geometry.extend_from_slice(&(b.count as u16).to_be_bytes());
    }
    let geometry = aligned(geometry);
    let cncx = cncx.into_records()?;
    let idxt_at = HEADER + tagx.len() + geometry.len();
    let mut h = b"INDX".to_vec();
    for v in [
        HEADER as u32,
        0,
        0,
        2,
        idxt_at as u32,
        blocks.len() as u32,
        65001,
    ] {
        be32(&mut h, v);
    }
    be32(&mut h, 0xffff_ffff);
    be32(&mut h, entries.len() as u32);
    for _ in 0..3 {
        be32(&mut h, 0); // no ORDT, no LIGT
    }
    be32(&mut h, cncx.len() as u32);
    h.resize(180, 0);
    be32(&mut h, HEADER as u32); // TAGX right after the header
    h.resize(HEADER, 0);
    h.extend_from_slice(&tagx);
    h.extend_from_slice(&geometry);
    h.extend_from_slice(b"IDXT");
    for at in geometry_at {
        h.extend_from_slice(&at.to_be_bytes());
    }
    // Every offset in it (`geometry_at`, 16 bits) is below its end.
    TooLarge::check("bytes in an index's header record", h.len(), MAX_RECORD)?;
    records[0] = aligned(h);
    records.extend(cncx);
    Ok(records)
}

/// A reader for what [`write`] writes, after KindleUnpack's: each entry's
/// key and values by tag number, and the CNCX strings by offset. Only for
/// the tests.
#[cfg(any(test, feature = "test-support"))]
pub mod read {
    use std::collections::BTreeMap;

    fn u32_at(r: &[u8], at: usize) -> usize {
        u32::from_be_bytes(r[at..at + 4].try_into().unwrap()) as usize
    }

    fn varint(data: &[u8], at: &mut usize) -> u32 {
        let mut v = 0;
        loop {
            let b = data[*at];
            *at += 1;
            v = (v << 7) | u32::from(b & 0x7f);
            if b & 0x80 != 0 {
                return v;
            }
        }
    }

    /// The entries of the index whose header is `records[0]`, and its
    /// strings.
    pub type Table = (
        Vec<(Vec<u8>, BTreeMap<u8, Vec<u32>>)>,
        BTreeMap<u32, String>,
    );

    /// Reads the index starting at `records[0]`.
    pub fn index(records: &[&[u8]]) -> Table {
        let h = records[0];
        assert_eq!(&h[..4], b"INDX");
        let data_records = u32_at(h, 24);
        let cncx_records = u32_at(h, 52);
        let tagx_at = u32_at(h, 180);
        assert_eq!(&h[tagx_at..tagx_at + 4], b"TAGX");
        let tagx_len = u32_at(h, tagx_at + 4);
        let tags: Vec<&[u8]> = h[tagx_at + 12..tagx_at + tagx_len].chunks(4).collect();
        let mut strings = BTreeMap::new();
        for (n, rec) in records[1 + data_records..1 + data_records + cncx_records]
            .iter()
            .enumerate()
        {
            let mut at = 0;
            while at < rec.len() && rec[at] != 0 {
                let start = at;
                let len = varint(rec, &mut at) as usize;
                let s = String::from_utf8(rec[at..at + len].to_vec()).unwrap();
                strings.insert((n * 0x10000 + start) as u32, s);
                at += len;
            }
        }
        let mut entries = Vec::new();
        for rec in &records[1..=data_records] {
            let idxt = u32_at(rec, 20);
            let count = u32_at(rec, 24);
            assert_eq!(&rec[idxt..idxt + 4], b"IDXT");
            for i in 0..count {
                let at = idxt + 4 + 2 * i;
                let mut pos = usize::from(u16::from_be_bytes([rec[at], rec[at + 1]]));
                let key_len = usize::from(rec[pos]);
                let key = rec[pos + 1..pos + 1 + key_len].to_vec();
                pos += 1 + key_len;
                let control = rec[pos];
                pos += 1;
                let mut values = BTreeMap::new();
                for t in tags.iter().filter(|t| t[3] == 0) {
                    let groups = (control & t[2]) >> t[2].trailing_zeros();
                    let full = t[2] >> t[2].trailing_zeros();
                    assert!(t[2].count_ones() == 1 || groups != full, "a byte count");
                    let vals: Vec<u32> = (0..usize::from(groups) * usize::from(t[1]))
                        .map(|_| varint(rec, &mut pos))
                        .collect();
                    if !vals.is_empty() {
                        values.insert(t[0], vals);
                    }
                }
                entries.push((key, values));
            }
        }
        (entries, strings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_are_seven_bits_a_byte_the_last_marked() {
        assert_eq!(varint(0), [0x80]);
        assert_eq!(varint(0x7f), [0xff]);
        assert_eq!(varint(0x80), [0x01, 0x80]);
        assert_eq!(varint(0x3fff), [0x7f, 0xff]);
        assert_eq!(varint(0x4000), [0x01, 0x00, 0x80]);
        assert_eq!(varint(u32::MAX), [0x0f, 0x7f, 0x7f, 0x7f, 0xff]);
    }

    /// Many entries spill over several data records and strings over
    /// several CNCX records, and all read back as written.
    #[test]
    fn an_index_reads_back_across_records() {
        let tags = [
            Tag {
                number: 2,
                per_group: 1,
                mask: 1,
            },
            Tag {
                number: 6,
                per_group: 2,
                mask: 2,
            },
        ];
        let mut cncx = Cncx::default();
        let long = "x".repeat(400);
        let entries: Vec<Entry> = (0..20_000u32)
            .map(|i| Entry {
                key: format!("{i:010}").into_bytes(),
                values: vec![
                    vec![cncx.offset(&format!("{long}{}", i % 300))],
                    vec![i, i * 7],
                ],
            })
            .collect();
        let records = write(&tags, &entries, cncx).unwrap();
        assert!(
            records
                .iter()
                .all(|r| r.len() <= 0x10000 && r.len() % 4 == 0)
        );
        let refs: Vec<&[u8]> = records.iter().map(Vec::as_slice).collect();
        let (read, strings) = read::index(&refs);
        assert_eq!(read.len(), entries.len());
        assert!(records.len() > 4, "{} records", records.len());
        for (i, (key, values)) in read.iter().enumerate() {
            assert_eq!(key, &entries[i].key);
            assert_eq!(values[&6], [i as u32, i as u32 * 7]);
            assert_eq!(strings[&values[&2][0]], format!("{long}{}", i % 300));
        }
    }

    #[test]
    #[should_panic(expected = "do not fit")]
    fn a_count_that_fills_its_mask_is_refused() {
        let tags = [Tag {
            number: 1,
            per_group: 1,
            mask: 3,
        }];
        let e = Entry {
            key: b"k".to_vec(),
            values: vec![vec![1, 2, 3]],
        };
        let _ = write(&tags, &[e], Cncx::default());
    }

    const KEY: Tag = Tag {
        number: 1,
        per_group: 1,
        mask: 1,
    };

    /// A key longer than its byte of length counts is refused, not cut.
    #[test]
    fn a_key_of_256_bytes_is_refused() {
        let e = |n: usize| Entry {
            key: vec![b'k'; n],
            values: vec![vec![]],
        };
        assert!(write(&[KEY], &[e(255)], Cncx::default()).is_ok());
        let err = write(&[KEY], &[e(256)], Cncx::default()).unwrap_err();
        assert_eq!(
            (err.what, err.count, err.most),
            ("bytes in an index key", 256, 255)
        );
    }

    /// Many values: 100 groups of 255 values of 5 bytes each.
    const WIDE: Tag = Tag {
        number: 1,
        per_group: 255,
        mask: 0xfe,
    };

    fn wide_entry(key: Vec<u8>, groups: usize) -> Entry {
        Entry {
            key,
            values: vec![vec![u32::MAX; 255 * groups]],
        }
    }

    /// An entry larger than a data record holds is refused: its record
    /// would pass 64 KB.
    #[test]
    fn an_entry_larger_than_a_record_is_refused() {
        let err = write(&[WIDE], &[wide_entry(b"k".to_vec(), 100)], Cncx::default()).unwrap_err();
        assert_eq!(err.what, "bytes in an index entry");
        assert!(err.count > 0x10000, "{err}");
    }

    /// So many data records, each named by its last key in the header
    /// record, that the header would pass 64 KB: refused.
    #[test]
    fn a_header_record_past_64_kb_is_refused() {
        // An entry a data record (47 groups, 60 KB), 255-byte keys.
        let entries = |n: usize| -> Vec<Entry> {
            (0..n)
                .map(|i| wide_entry(format!("{i:0255}").into_bytes(), 47))
                .collect()
        };
        let records = write(&[WIDE], &entries(200), Cncx::default()).unwrap();
        assert!(records.iter().all(|r| r.len() <= 0x10000));
        let err = write(&[WIDE], &entries(260), Cncx::default()).unwrap_err();
        assert_eq!(err.what, "bytes in an index's header record");
    }

    /// A string longer than a CNCX record, or past the 65,536th record,
    /// is refused by the index it was stored for.
    #[test]
    fn a_cncx_string_or_record_past_its_limit_is_refused() {
        let mut cncx = Cncx::default();
        cncx.offset(&"x".repeat(CNCX_LIMIT));
        let e = Entry {
            key: b"k".to_vec(),
            values: vec![vec![]],
        };
        let err = write(&[KEY], std::slice::from_ref(&e), cncx).unwrap_err();
        assert_eq!(err.what, "bytes of a string in an index");
        assert_eq!(cncx_offset(0xffff, 0xff00), Ok(0xffff_ff00));
        let err = cncx_offset(0x10000, 0).unwrap_err();
        assert_eq!((err.what, err.count), ("CNCX records of an index", 0x10001));
    }
}
