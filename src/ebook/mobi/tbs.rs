//! Trailing byte sequences (TBS): at the end of each KF8 text record, which
//! entries of the NCX index start in it, end in it, lie within it or span
//! it. Kindlegen, calibre, kindling and boko all write them (extra-data
//! flag bit 1), and a Kindle opens a multi-section book without them as
//! "Unable to Open Item" (boko's notes; kindling issue 15).
//!
//! The encoding is calibre's `writer8/tbs.py`, for a flat NCX (every entry
//! at depth 0, none with a parent), which is what our contents are: the
//! entries touching a record are cut into strands of consecutive index
//! numbers, and each strand is one sequence, a forward variable-width
//! integer whose low bits are flags (3 bits in the first, 4 after):
//! - `0b10`, on the record's first entry: the TBS type that follows (8;
//!   5 if a strand's number runs backwards from the one before);
//! - `0b100`: how many entries the strand holds, if more than one;
//! - `0b1`: the value 0 when the strand's last entry spans the record;
//! - `0b1000`, in a later strand: its number counts back from the last
//!   entry of the strand before.
//!
//! Each record's sequences then get their own length, a backward
//! variable-width integer, and go after the multibyte bytes: a reader
//! peels the trailing entries from the highest flag down.
//! `calibre-debug --inspect-mobi` recomputes them from the NCX index and
//! warns of any record whose bytes differ.

use std::ops::Range;

use crate::ebook::indx::{push_vwi, vwi_len};

/// [`push_vwi`] into a `Vec` of its own.
#[cfg(test)]
fn vwi(value: usize, forward: bool) -> Vec<u8> {
    let mut out = Vec::new();
    push_vwi(&mut out, value, forward);
    out
}

/// One sequence: `value` with its flags in the low `flag_bits` bits, then
/// the type, the count and the span marker that those flags announce.
fn sequence(out: &mut Vec<u8>, value: usize, flag_bits: u32, seq: &Seq) {
    let mut flags = 0;
    if seq.spans {
        flags |= 0b1;
    }
    if seq.kind.is_some() {
        flags |= 0b10;
    }
    if seq.count > 1 {
        flags |= 0b100;
    }
    if seq.counts_back {
        flags |= 0b1000;
    }
    push_vwi(out, value << flag_bits | flags, true);
    if let Some(kind) = seq.kind {
        push_vwi(out, kind, true);
    }
    if seq.count > 1 {
        out.push(seq.count as u8);
    }
    if seq.spans {
        push_vwi(out, 0, true);
    }
}

/// One strand of a record, before it is bytes.
struct Seq {
    /// Its first entry's index number, or how far back it lies from the
    /// strand before.
    value: isize,
    kind: Option<usize>,
    count: usize,
    spans: bool,
    counts_back: bool,
}

/// The trailing entry of each text record: `entries` are the NCX's, each
/// the range of flow 0 it covers, in index order; the text, of `len`
/// bytes, is cut into records of `record` bytes. Each entry is the
/// sequences and their length, ready to append after the multibyte bytes.
pub(super) fn trailing(entries: &[Range<usize>], len: usize, record: usize) -> Vec<Vec<u8>> {
    // By start, as calibre sorts them; its sort is stable.
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|&i| entries[i].start);
    (0..len.div_ceil(record))
        .map(|r| {
            let at = r * record..((r + 1) * record).min(len);
            let touching: Vec<usize> = order
                .iter()
                .copied()
                .take_while(|&i| entries[i].start < at.end)
                .filter(|&i| entries[i].end > at.start)
                .collect();
            let strands = strands(&touching);
            let bytes = encode(&strands, entries, &at, 8)
                .or_else(|| encode(&strands, entries, &at, 5))
                .expect("type 5 takes a strand that runs backwards");
            with_length(bytes)
        })
        .collect()
}

/// The entries cut into strands as calibre's `populate_strand` does with
/// no parents: each strand takes, from what is left, its first entry and
/// every later one whose number is one more than the strand's last.
fn strands(touching: &[usize]) -> Vec<Vec<usize>> {
    let mut left = touching.to_vec();
    let mut out = Vec::new();
    while !left.is_empty() {
        let mut strand = vec![left.remove(0)];
        left.retain(|&i| {
            let next = i == strand[strand.len() - 1] + 1;
            if next {
                strand.push(i);
            }
            !next
        });
        out.push(strand);
    }
    out
}

/// The strands of the record `at` as sequences of TBS type `kind`, or
/// `None` if a strand runs backwards, which only type 5 can say.
fn encode(
    strands: &[Vec<usize>],
    entries: &[Range<usize>],
    at: &Range<usize>,
    kind: usize,
) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut last: Option<usize> = None;
    for (n, strand) in strands.iter().enumerate() {
        let (first, end) = (strand[0], strand[strand.len() - 1]);
        let mut seq = Seq {
            value: first as isize,
            kind: (n == 0).then_some(kind),
            count: strand.len(),
            spans: entries[end].start < at.start && entries[end].end > at.end,
            counts_back: false,
        };
        if let Some(last) = last {
            seq.value = last as isize - first as isize;
            if seq.value >= 0 {
                seq.counts_back = true;
            } else if kind == 5 {
                seq.value = -seq.value;
            } else {
                return None;
            }
        }
        last = Some(end);
        sequence(
            &mut out,
            seq.value as usize,
            if n == 0 { 3 } else { 4 },
            &seq,
        );
    }
    Some(out)
}

/// `data` and then its whole length, the length's own bytes included, as
/// a backward variable-width integer (calibre's `encode_trailing_data`).
fn with_length(mut data: Vec<u8>) -> Vec<u8> {
    let mut width = 1;
    loop {
        let size = data.len() + width;
        if vwi_len(size) as usize == width {
            push_vwi(&mut data, size, false);
            return data;
        }
        width += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_calibres() {
        // calibre's `encint` doc: 0x11111 forward is 04 22 91, backward
        // 84 22 11.
        assert_eq!(vwi(0x11111, true), [0x04, 0x22, 0x91]);
        assert_eq!(vwi(0x11111, false), [0x84, 0x22, 0x11]);
        assert_eq!(vwi(0, true), [0x80]);
        assert_eq!(vwi(0x7f, false), [0xff]);
        assert_eq!(vwi(0x80, false), [0x81, 0x00]);
        assert_eq!(vwi(0x80, true), [0x01, 0x80]);
        assert_eq!(with_length(Vec::new()), [0x81]);
        assert_eq!(with_length(vec![7; 126]).len(), 127);
        assert_eq!(with_length(vec![7; 127])[127..], [0x81, 0x01]);
    }

    /// Kindlegen's own bytes for its book of `towers-hanoi.epub` (two
    /// entries: the opening page at 310..1230, the boards after it to the
    /// end of flow 0, 400,791 bytes into a 4,096-byte record's text):
    /// `86 88 02`, then `8b 88 80` for each record the second spans, then
    /// `8a 88` where it ends, and nothing after flow 0.
    #[test]
    fn records_say_what_kindlegen_says() {
        let entries = [310..1230, 1230..401_101];
        let tbs = trailing(&entries, 405_000, 4096);
        assert_eq!(tbs[0], [0x86, 0x88, 0x02, 0x84]);
        assert_eq!(tbs[1], [0x8b, 0x88, 0x80, 0x84]);
        let ends = 401_101 / 4096;
        assert_eq!(tbs[ends - 1], [0x8b, 0x88, 0x80, 0x84]);
        assert_eq!(tbs[ends], [0x8a, 0x88, 0x83]);
        assert_eq!(tbs[ends + 1], [0x81]);
        assert_eq!(tbs.len(), 405_000usize.div_ceil(4096));
    }

    /// Strands out of order, with the bytes calibre's
    /// `apply_trailing_byte_sequences` gives: a later strand counts back
    /// from the one before, and one whose number lies after it makes the
    /// record type 5.
    #[test]
    fn a_strand_that_runs_backwards_makes_the_record_type_5() {
        // By start: 0, 2, 1. Strands [0, 1] and [2].
        let entries = [0..10, 30..40, 10..30];
        assert_eq!(strands(&[0, 2, 1]), vec![vec![0, 1], vec![2]]);
        assert_eq!(
            trailing(&entries, 40, 4096),
            [[0x86, 0x85, 0x02, 0x90, 0x85]]
        );
        // By start: 0, 1, 3, 2. Strands [0, 1, 2] and [3].
        let entries = [0..10, 10..20, 30..40, 20..30];
        assert_eq!(strands(&[0, 1, 3, 2]), vec![vec![0, 1, 2], vec![3]]);
        assert_eq!(
            trailing(&entries, 40, 4096),
            [[0x86, 0x85, 0x03, 0x90, 0x85]]
        );
        // By start: 1, 0. Strands [1] and [0], counted back by 1: type 8.
        assert_eq!(
            trailing(&[10..20, 0..10], 20, 4096),
            [[0x8a, 0x88, 0x98, 0x84]]
        );
    }
}
