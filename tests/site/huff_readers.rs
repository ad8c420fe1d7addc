//! Every MOBI the site writes, both parts of it (the MOBI 6 text and the
//! KF8 text), decoded the way each desktop reader's own
//! HUFF/CDIC decoder does it (SumatraPDF, libmobi, Okular, FBReader,
//! foliate-js and calibre), from the limits each is known to have: each
//! must give back exactly the text that went in (FBReader the MOBI 6 text
//! only: it never reads a KF8 part). And two books made past
//! those limits, to show the checks catch them.

use tictactoe_book::ebook::huffcdic::{self, Limits};
use tictactoe_book::ebook::{self, Book, mobi};
use tictactoe_book::opponent::Level;
use tictactoe_book::site;

/// How one reader decodes HUFF/CDIC: the limits and habits of its code.
#[derive(Clone, Copy, Debug)]
struct Habits {
    name: &'static str,
    /// Reads the little-endian tables, at the offsets in bytes 16 and 20
    /// of the HUFF record (Okular, FBReader), not the big-endian ones at
    /// 8 and 12.
    little_endian: bool,
    /// Refuses a dictionary entry longer than this and drops the rest of
    /// the record (SumatraPDF: 127).
    max_entry: Option<usize>,
    /// At most this many CDIC records (SumatraPDF: 32).
    max_cdic: Option<usize>,
    /// Each CDIC record's data must be larger than 2^bits bytes
    /// (SumatraPDF).
    cdic_larger_than_index: bool,
    /// Every CDIC record must give the same phrase count and index bits,
    /// and recursion goes at most 15 deep (libmobi).
    same_cdic_headers: bool,
    /// Takes the index width from the first CDIC record, and finds a
    /// phrase at `16 + offset` in 16 bits (Okular).
    sixteen_bit_offsets: bool,
    /// Decodes the whole record, trailing entry included, ignoring the
    /// extra-data flags (FBReader); and a record's text must stay below
    /// 8,192 bytes.
    ignores_trailing: bool,
    /// No table entry of code length 0, every code of 8 bits or less
    /// terminal, and a CDIC header of exactly 16 bytes (calibre).
    strict_tables: bool,
    /// Reads the KF8 part of a combined file. FBReader does not: it reads
    /// the file's record 0, the MOBI 6 part's (`PalmDocStream::
    /// processZeroRecord`), and never follows EXTH 121 to the boundary.
    reads_kf8: bool,
}

const PLAIN: Habits = Habits {
    name: "",
    little_endian: false,
    max_entry: None,
    max_cdic: None,
    cdic_larger_than_index: false,
    same_cdic_headers: false,
    sixteen_bit_offsets: false,
    ignores_trailing: false,
    strict_tables: false,
    reads_kf8: true,
};

const READERS: [Habits; 6] = [
    Habits {
        name: "SumatraPDF",
        max_entry: Some(127),
        max_cdic: Some(32),
        cdic_larger_than_index: true,
        ..PLAIN
    },
    Habits {
        name: "libmobi",
        same_cdic_headers: true,
        ..PLAIN
    },
    Habits {
        name: "Okular",
        little_endian: true,
        sixteen_bit_offsets: true,
        ..PLAIN
    },
    Habits {
        name: "FBReader",
        little_endian: true,
        ignores_trailing: true,
        reads_kf8: false,
        ..PLAIN
    },
    Habits {
        name: "foliate-js",
        ..PLAIN
    },
    Habits {
        name: "calibre",
        strict_tables: true,
        ..PLAIN
    },
];

fn be32(r: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(r[at..at + 4].try_into().unwrap())
}

fn u32_in(r: &[u8], at: usize, little: bool) -> u32 {
    let b: [u8; 4] = r[at..at + 4].try_into().unwrap();
    if little {
        u32::from_le_bytes(b)
    } else {
        u32::from_be_bytes(b)
    }
}

/// A decoder as one reader builds it from the HUFF and CDIC records, or
/// why that reader refuses them.
struct Decoder {
    habits: Habits,
    /// Per 8-bit prefix: code length, terminal, max code (shifted).
    table: Vec<(u32, bool, u64)>,
    min_code: Vec<u64>,
    max_code: Vec<u64>,
    phrases: Vec<(Vec<u8>, bool)>,
}

impl Decoder {
    fn new(habits: Habits, huff: &[u8], cdics: &[&[u8]]) -> Result<Decoder, String> {
        let (off1, off2) = if habits.little_endian {
            (be32(huff, 16) as usize, be32(huff, 20) as usize)
        } else {
            (be32(huff, 8) as usize, be32(huff, 12) as usize)
        };
        let mut table = Vec::with_capacity(256);
        for i in 0..256 {
            let v = u32_in(huff, off1 + 4 * i, habits.little_endian);
            let (len, term) = (v & 0x1f, v & 0x80 != 0);
            if habits.strict_tables && len == 0 {
                return Err(format!("table entry {i} has code length 0"));
            }
            if habits.strict_tables && len <= 8 && !term {
                return Err(format!(
                    "table entry {i}: a code of {len} bits is not terminal"
                ));
            }
            let max = ((u64::from(v >> 8) + 1) << (32 - len)) - 1;
            table.push((len, term, max));
        }
        let (mut min_code, mut max_code) = (vec![0u64], vec![0u64]);
        for len in 1..=32u32 {
            let at = off2 + 8 * (len as usize - 1);
            let min = u64::from(u32_in(huff, at, habits.little_endian));
            let max = u64::from(u32_in(huff, at + 4, habits.little_endian));
            min_code.push(min << (32 - len));
            max_code.push(((max + 1) << (32 - len)) - 1);
        }
        if habits.max_cdic.is_some_and(|m| cdics.len() > m) {
            return Err(format!("{} CDIC records", cdics.len()));
        }
        let first_bits = be32(cdics[0], 12);
        let first_total = be32(cdics[0], 8);
        let mut phrases = Vec::new();
        for cdic in cdics {
            if habits.strict_tables && be32(cdic, 4) != 16 {
                return Err("a CDIC header that is not 16 bytes".to_string());
            }
            let (total, bits) = (be32(cdic, 8), be32(cdic, 12));
            if habits.same_cdic_headers && (total, bits) != (first_total, first_bits) {
                return Err("CDIC records with different headers".to_string());
            }
            let bits = if habits.sixteen_bit_offsets {
                first_bits
            } else {
                bits
            };
            if habits.cdic_larger_than_index && cdic.len() - 16 <= 1 << bits {
                return Err(format!(
                    "a CDIC record of {} bytes of data, not above 2^{bits}",
                    cdic.len() - 16
                ));
            }
            let n = (1usize << bits).min(total as usize - phrases.len());
            for i in 0..n {
                let off = u16::from_be_bytes([cdic[16 + 2 * i], cdic[17 + 2 * i]]);
                let at = if habits.sixteen_bit_offsets {
                    usize::from(16u16.wrapping_add(off))
                } else {
                    16 + usize::from(off)
                };
                let blen = u16::from_be_bytes([cdic[at], cdic[at + 1]]);
                let len = usize::from(blen & 0x7fff);
                phrases.push((cdic[at + 2..at + 2 + len].to_vec(), blen & 0x8000 != 0));
            }
        }
        Ok(Decoder {
            habits,
            table,
            min_code,
            max_code,
            phrases,
        })
    }

    /// One record's data decoded: the readers' 32-bit window loop.
    fn decode(&self, data: &[u8], depth: usize, out: &mut Vec<u8>) -> Result<(), String> {
        if self.habits.same_cdic_headers && depth > 15 {
            return Err("recursion deeper than 15".to_string());
        }
        let mut bits_left = data.len() as i64 * 8;
        let mut padded = data.to_vec();
        padded.extend_from_slice(&[0; 8]);
        let (mut pos, mut n) = (0usize, 32i64);
        let mut x = u64::from_be_bytes(padded[0..8].try_into().unwrap());
        loop {
            if n <= 0 {
                pos += 4;
                x = u64::from_be_bytes(padded[pos..pos + 8].try_into().unwrap());
                n += 32;
            }
            let code = (x >> n) & 0xffff_ffff;
            let (mut len, term, mut max) = self.table[(code >> 24) as usize];
            if !term {
                while code < self.min_code[len as usize] {
                    len += 1;
                }
                max = self.max_code[len as usize];
            }
            n -= i64::from(len);
            bits_left -= i64::from(len);
            if bits_left < 0 {
                return Ok(());
            }
            let index = ((max - code) >> (32 - len)) as usize;
            let (phrase, literal) = self
                .phrases
                .get(index)
                .ok_or_else(|| format!("phrase {index} of {}", self.phrases.len()))?;
            if self.habits.max_entry.is_some_and(|m| phrase.len() > m) {
                // SumatraPDF gives up on the rest of the record.
                return Ok(());
            }
            if *literal {
                out.extend_from_slice(phrase);
            } else {
                self.decode(phrase, depth + 1, out)?;
            }
        }
    }
}

/// The record 0 of each part of a combined MOBI: the MOBI 6 part's, and
/// the KF8 part's, after the boundary that EXTH 121 names.
fn parts(file: &[u8]) -> [usize; 2] {
    let recs = mobi::read::records(file);
    let boundary = recs
        .iter()
        .position(|r| *r == b"BOUNDARY")
        .expect("a KF8 part");
    [0, boundary + 1]
}

/// The text of a MOBI's part whose record 0 is `part` as `habits` reads
/// it, or why it cannot.
fn read_as(habits: Habits, file: &[u8], part: usize) -> Result<Vec<u8>, String> {
    let recs = &mobi::read::records(file)[part..];
    let r0 = recs[0];
    assert_eq!(
        u16::from_be_bytes([r0[0], r0[1]]),
        17480,
        "a HUFF/CDIC book"
    );
    let count = usize::from(u16::from_be_bytes([r0[8], r0[9]]));
    let (first, n) = (be32(r0, 0x70) as usize, be32(r0, 0x74) as usize);
    let decoder = Decoder::new(habits, recs[first], &recs[first + 1..first + n])?;
    let flags = be32(r0, 0xf0);
    let mut text = Vec::new();
    for rec in &recs[1..=count] {
        let data = if habits.ignores_trailing {
            &rec[..]
        } else {
            mobi::read::trailing(rec, flags).0
        };
        let mut out = Vec::new();
        decoder.decode(data, 0, &mut out)?;
        if habits.ignores_trailing && out.len() >= 8192 {
            return Err(format!("a record of {} bytes", out.len()));
        }
        text.extend(out);
    }
    Ok(text)
}

/// Checks one part of a book under every reader: each must give back
/// `text`.
fn every_reader_reads(label: &str, file: &[u8], part: usize, text: &[u8]) {
    for habits in READERS.into_iter().filter(|h| part == 0 || h.reads_kf8) {
        let got =
            read_as(habits, file, part).unwrap_or_else(|e| panic!("{label}: {}: {e}", habits.name));
        assert!(
            got == text,
            "{label}: {} reads {} bytes, not the {} that went in",
            habits.name,
            got.len(),
            text.len()
        );
    }
}

/// The figures the closing note gives: the longest dictionary entry, the
/// longest code of a book, and how many entries are stored as codes.
fn entry_and_code(file: &[u8], part: usize) -> (usize, u32, usize) {
    let recs = &mobi::read::records(file)[part..];
    let r0 = recs[0];
    let (first, n) = (be32(r0, 0x70) as usize, be32(r0, 0x74) as usize);
    let d = Decoder::new(PLAIN, recs[first], &recs[first + 1..first + n]).unwrap();
    let longest_entry = d.phrases.iter().map(|(p, _)| p.len()).max().unwrap();
    let as_codes = d.phrases.iter().filter(|(_, raw)| !raw).count();
    let huff = recs[first];
    let off2 = be32(huff, 12) as usize;
    let longest_code = (1..=32u32)
        .filter(|&len| {
            let at = off2 + 8 * (len as usize - 1);
            be32(huff, at + 4) != 0 || be32(huff, at) != 0
        })
        .max()
        .unwrap();
    (longest_entry, longest_code, as_codes)
}

/// Every MOBI of the site at every level and the mix, with and without
/// early draws: each of the three books, read by every reader.
#[test]
fn every_reader_decodes_every_mobi_whole() {
    let assets = tictactoe_book::assets::Assets::load(
        &crate::common::repo().join("static"),
        &site::images(),
    )
    .unwrap();
    let mut cases = Vec::new();
    for early_draws in [false, true] {
        for level in [None].into_iter().chain(Level::ALL.map(Some)) {
            cases.push((early_draws, level));
        }
    }
    tictactoe_book::par::map(&cases, |&(early_draws, level)| {
        let mut options = crate::common::options(std::path::Path::new("unused"));
        options.early_draws = early_draws;
        options.games.level = level;
        for edition in site::Solved::new(&options).editions() {
            let book = edition.for_books();
            let mut names: Vec<&str> = mobi::pictures(&book, &assets)
                .iter()
                .map(|(n, _)| *n)
                .collect();
            names.push(ebook::THUMB);
            let book = Book::new(&book, &assets);
            let file = mobi::write(&book).unwrap();
            let (mobi6, _) = mobi::markup(book.edition, &names);
            let kf8 = ebook::kf8::part(&book, &names).text(&book, &names);
            let label = format!("{} {level:?} early draws {early_draws}", edition.slug);
            for (part, (name, text)) in parts(&file)
                .into_iter()
                .zip([("MOBI 6", mobi6), ("KF8", kf8)])
            {
                let label = format!("{label} {name}");
                let (entry, code, as_codes) = entry_and_code(&file, part);
                // Shown with `--nocapture`: the figures of the closing note.
                eprintln!(
                    "{label}: {} bytes, entry {entry}, code {code}, {as_codes} entries as codes",
                    file.len()
                );
                every_reader_reads(&label, &file, part, &text);
                assert!(entry <= 127, "{label}: an entry of {entry} bytes");
                // Every reader decodes entries stored as codes, in turn.
                assert!(as_codes > 0, "{label}: no entry stored as codes");
            }
        }
    });
}

/// A tiny text in a MOBI-like record set: HUFF/CDIC within `limits`, each
/// record with the trailing entry 0.
fn tiny_book(pieces: &[&[u8]], limits: Limits) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let c = huffcdic::compress_within(pieces, limits);
    let records = c
        .records
        .into_iter()
        .map(|mut r| {
            r.push(0);
            r
        })
        .collect();
    (records, c.tables)
}

/// Decodes records made by [`tiny_book`] as `habits` would.
fn read_tiny(habits: Habits, records: &[Vec<u8>], tables: &[Vec<u8>]) -> Result<Vec<u8>, String> {
    let cdics: Vec<&[u8]> = tables[1..].iter().map(Vec::as_slice).collect();
    let d = Decoder::new(habits, &tables[0], &cdics)?;
    let mut text = Vec::new();
    for rec in records {
        let data = if habits.ignores_trailing {
            &rec[..]
        } else {
            &rec[..rec.len() - 1]
        };
        d.decode(data, 0, &mut text)?;
    }
    Ok(text)
}

/// The checks bite: a 128-byte entry loses text in SumatraPDF, and a
/// small book whose longest code is 8 bits gains text in FBReader; with
/// the default limits, both read whole.
#[test]
fn the_reader_checks_catch_a_long_entry_and_a_decodable_tail() {
    let sumatra = READERS[0];
    let fbreader = READERS[3];
    // A run of 128 bytes between digits, one tag (no `<` in it), met
    // often enough to be one phrase if allowed.
    let run = [b'x'; 128];
    let mut text = Vec::new();
    for _ in 0..4 {
        text.extend_from_slice(b"1");
        text.extend_from_slice(&run);
    }
    let loose = Limits {
        max_phrase: 4096,
        ..Limits::default()
    };
    let (records, tables) = tiny_book(&[&text], loose);
    assert_ne!(read_tiny(sumatra, &records, &tables).unwrap(), text);
    let (records, tables) = tiny_book(&[&text], Limits::default());
    assert_eq!(read_tiny(sumatra, &records, &tables).unwrap(), text);
    // A few phrases: Huffman gives short codes, the all-zero one 8 bits
    // long, and FBReader's tail (padding and the byte 0) spells it.
    let small: &[u8] = b"<a>1<b>2";
    let short = Limits {
        min_longest: 8,
        ..Limits::default()
    };
    let (records, tables) = tiny_book(&[small], short);
    assert_ne!(read_tiny(fbreader, &records, &tables).unwrap(), small);
    let (records, tables) = tiny_book(&[small], Limits::default());
    assert_eq!(read_tiny(fbreader, &records, &tables).unwrap(), small);
    for habits in READERS {
        assert_eq!(
            read_tiny(habits, &records, &tables).unwrap(),
            small,
            "{}",
            habits.name
        );
    }
}
