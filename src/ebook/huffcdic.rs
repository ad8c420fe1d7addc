//! HUFF/CDIC, the dictionary compression of Amazon's own MOBI books: the
//! text is cut into phrases, each phrase is a Huffman code, and the
//! phrases sit in CDIC records. Our books are mostly the same few runs of
//! markup between `filepos` digits: each tag of a run is one phrase,
//! which the pairs below join back into one code for the whole run, where
//! PalmDOC spends a byte on each digit. A phrase is stored as is or,
//! as kindlegen's own books store most of theirs, as the codes of other
//! phrases ([`Grammar`], [`Entries`]): the markup of a whole square, its
//! link's leading zeros and the digits it shares with other links become
//! one code.
//!
//! Layout after the readers we test with (KindleUnpack's and calibre's
//! `HuffcdicReader`, libmobi's `mobi_decompress_huffman`):
//! - the HUFF record: `HUFF`, 24, offsets of two tables in big-endian
//!   and of the same two in little-endian; the 256-entry table of 8-bit
//!   prefixes (code length, terminal flag, max code) and 32 pairs of
//!   min and max codes, one per code length;
//! - the CDIC records: `CDIC`, 16, the number of phrases in all, the bits
//!   of a phrase index held by one record; then 16-bit offsets and the
//!   phrases, each a 16-bit length whose top bit says "stored as is".
//!
//! A reader takes a 32-bit window, looks its top byte up, and for a long
//! code walks up the lengths while the window is below that length's
//! smallest code. So longer codes must be numerically smaller: codes are
//! assigned from the longest length down, each length starting where the
//! longer ones ended. The phrase of a code is `max_code[len] - code`.
//!
//! Invariant: [`decode`] of each record gives back the piece it was made
//! from, with the readers' own loop; a phrase is stored in at most 127
//! bytes (SumatraPDF stops a record at a longer one), and a phrase stored
//! as codes nests at most [`MAX_DEPTH`] deep; the zero bits after a
//! record's or a phrase's last code are never a whole code, even counting
//! the trailing entry (the all-zero code is the longest, and at least 16
//! bits long; see [`Limits`]).

use std::borrow::Cow;

use rustc_hash::FxHashMap;

/// Longest code: the readers take up to 32 bits; fewer keeps the tables
/// sane.
const MAX_LEN: u8 = 24;

/// What every reader can decode: the longest phrase a dictionary entry
/// holds, and the shortest the longest code may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes of one phrase: SumatraPDF refuses an entry over 127
    /// bytes and drops the rest of the record; longer runs are split.
    pub max_phrase: usize,
    /// The shortest the longest code may be. A record's last code is
    /// followed by up to seven zero bits of padding and then by the
    /// trailing entry, the byte 0 (MOBI text is ASCII, so no character is
    /// ever split across records and the entry has no other bytes).
    /// FBReader ignores the extra-data flags and decodes all of that as
    /// text (it reads the MOBI 6 part only, whose records have no TBS);
    /// the all-zero code is the longest, so with 16 bits or more no 15
    /// zero bits spell a code, in any book however small.
    pub min_longest: u8,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_phrase: 127,
            min_longest: 16,
        }
    }
}

/// A tag (a run's piece from one `<` to the next) seen at least this often
/// is one phrase; a rarer one is spelt byte by byte, cheaper than storing
/// it whole (at 4, rather than 2, the tic-tac-toe KF8 texts are 2 to 3 KB
/// smaller).
const MIN_TAG_COUNT: u32 = 4;

/// [`MIN_TAG_COUNT`] in a small text ([`is_small`]): a tag there stands
/// for more of the text, and a pair made of it that does not pay for its
/// entry is pruned ([`pruned`]); 0.3 KB less a Towers of Hanoi book.
const MIN_TAG_COUNT_SMALL: u32 = 3;

/// The dictionary and the Huffman tables, as records, and the text
/// records coded with them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compressed {
    /// The HUFF record, then the CDIC records.
    pub tables: Vec<Vec<u8>>,
    /// Each piece of text, coded.
    pub records: Vec<Vec<u8>>,
}

impl Compressed {
    /// Bytes of every record, tables included.
    pub fn len(&self) -> usize {
        self.tables.iter().chain(&self.records).map(Vec::len).sum()
    }

    /// Whether there is nothing at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Whether `b` may go on a number that starts with a digit: a digit, or a
/// letter of KF8's base 32 (`0-9A-V`) or of a hex anchor (`a-f`).
fn continues_number(b: u8) -> bool {
    b.is_ascii_digit() || (b'A'..=b'V').contains(&b) || (b'a'..=b'f').contains(&b)
}

/// Where the first ASCII digit of `s` is, eight bytes at a time: the runs
/// between numbers are most of a book's text, and this is most of the
/// time spent cutting them.
fn first_digit(s: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    let mut words = s.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        // A byte is a digit when it is below 10 once '0' is taken off
        // (xor, since '0' is 0x30 and the digits 0x30 to 0x39). The
        // classic "has a byte below n" test marks each such byte's top
        // bit; a borrow can mark bytes after the first, never before it.
        let t = u64::from_le_bytes(word.try_into().expect("eight bytes")) ^ (ONES * 0x30);
        let below_ten = t.wrapping_sub(ONES * 10) & !t & (ONES * 0x80);
        if below_ten != 0 {
            return Some(at + below_ten.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(u8::is_ascii_digit)
        .map(|p| at + p)
}

/// A run cut before each `<`, and around each run of spaces (two or
/// more): its tags, its text and its padding; with `words`, also before
/// each space, so that tags that differ in a word share the rest.
fn tags(run: &[u8], words: bool) -> impl Iterator<Item = &[u8]> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = &run[at..];
        rest.first()?;
        let len = if is_padding(rest) {
            rest.iter().take_while(|&&b| b == b' ').count()
        } else {
            (1..rest.len())
                .find(|&i| rest[i] == b'<' || (words && rest[i] == b' ') || is_padding(&rest[i..]))
                .unwrap_or(rest.len())
        };
        at += len;
        Some(&rest[..len])
    })
}

/// Whether `s` starts with padding: two spaces or more, which a MOBI puts
/// between two screens to start the second at a round offset
/// ([`super::rounds_screens`]).
fn is_padding(s: &[u8]) -> bool {
    s.starts_with(b"  ")
}

/// A run of padding as phrases of 1, 2, 4, ... spaces, the longest
/// first: a few short phrases spell every length, and the pairs join the
/// lengths met often, where a phrase of each length would be stored
/// whole.
fn padding_parts(pad: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = pad;
    std::iter::from_fn(move || {
        let len = 1 << rest.len().checked_ilog2()?;
        let (part, tail) = rest.split_at(len);
        rest = tail;
        Some(part)
    })
}

/// A run of text as a key: hashed by its length and its first and last
/// eight bytes, not every byte (a run is most often one of a few hundred
/// runs of markup, met again and again), and compared whole.
#[derive(Clone, Copy, Eq)]
struct Run<'a>(&'a [u8]);

impl PartialEq for Run<'_> {
    /// Word by word: the first and last eight bytes, then the middle
    /// eight at a time (the last of those may overlap the last eight).
    /// Most runs are short and found again, so this is cheaper than a
    /// `memcmp` call for a word or two.
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.0, other.0);
        if a.len() != b.len() {
            return false;
        }
        match (a.first_chunk::<8>(), a.last_chunk::<8>()) {
            (Some(first), Some(last)) => {
                let word = |w: &[u8; 8]| u64::from_ne_bytes(*w);
                let (other_first, other_last) = (b.first_chunk::<8>(), b.last_chunk::<8>());
                let at = |s: &[u8], i: usize| s[i..].first_chunk::<8>().map(word);
                other_first.map(word) == Some(word(first))
                    && other_last.map(word) == Some(word(last))
                    && (8..a.len().saturating_sub(8))
                        .step_by(8)
                        .all(|i| at(a, i) == at(b, i))
            }
            _ => a == b,
        }
    }
}

impl std::hash::Hash for Run<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let s = self.0;
        match (s.first_chunk::<8>(), s.last_chunk::<8>()) {
            (Some(first), Some(last)) => {
                state.write_u64(u64::from_le_bytes(*first));
                state.write_u64(u64::from_le_bytes(*last) ^ s.len() as u64);
            }
            _ => state.write(s),
        }
    }
}

/// A symbol that is one byte, not a run: the byte is in the low bits.
const BYTE: u32 = 1 << 31;

/// Pieces of numbers, packed in `u16`s: a number below `u16::MAX` is one,
/// any other `u16::MAX` and its two halves. A book's text is millions of
/// symbols, and then of phrases, held while it is coded (the symbols
/// until its last parse, which frees each piece's as it goes), nearly all
/// of them below 65,535: packed, they take half the memory of `u32`s, so
/// a large book's coding peaks about 15 MB lower.
#[derive(Default)]
struct Packed {
    /// Each piece, allocated to its size: one vector of them all would
    /// hold up to twice the text's numbers as it grows.
    pieces: Vec<Box<[u16]>>,
    /// The piece being packed.
    scratch: Vec<u16>,
    /// How many `u16`s the pieces hold.
    held: usize,
}

impl Packed {
    /// Adds a piece.
    fn push(&mut self, piece: impl IntoIterator<Item = u32>) {
        self.scratch.clear();
        for n in piece {
            match u16::try_from(n) {
                Ok(small) if small != u16::MAX => self.scratch.push(small),
                _ => {
                    let [a, b, c, d] = n.to_be_bytes();
                    let halves = [u16::from_be_bytes([a, b]), u16::from_be_bytes([c, d])];
                    self.scratch.push(u16::MAX);
                    self.scratch.extend(halves);
                }
            }
        }
        self.held += self.scratch.len();
        self.pieces.push(self.scratch.as_slice().into());
    }

    /// Lets go of every piece but those `keep` keeps (by their place),
    /// which stay where they are: the others are left empty.
    fn keep_only(&mut self, keep: impl Fn(usize) -> bool) {
        for (i, piece) in self.pieces.iter_mut().enumerate() {
            if !keep(i) {
                self.held -= piece.len();
                *piece = Box::default();
            }
        }
    }

    /// How many pieces it holds.
    fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Each piece's numbers.
    fn iter(&self) -> impl Iterator<Item = Unpacked<'_>> + '_ {
        self.pieces.iter().map(|p| Unpacked(p.iter()))
    }

    /// Each piece's numbers, each piece freed once it is read: a text's
    /// symbols go as its last parse makes its phrases, so the two are
    /// never held whole at once.
    fn into_pieces(self) -> impl Iterator<Item = OwnedUnpacked> {
        (self.pieces.into_iter()).map(|piece| OwnedUnpacked { piece, at: 0 })
    }
}

/// One piece of a [`Packed`], its numbers as they were pushed, the piece
/// freed when this is dropped.
struct OwnedUnpacked {
    piece: Box<[u16]>,
    at: usize,
}

impl Iterator for OwnedUnpacked {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let mut rest = Unpacked(self.piece.get(self.at..)?.iter());
        let n = rest.next()?;
        self.at = self.piece.len() - rest.0.len();
        Some(n)
    }
}

/// One piece of a [`Packed`], its numbers as they were pushed.
#[derive(Clone)]
struct Unpacked<'a>(std::slice::Iter<'a, u16>);

impl Iterator for Unpacked<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let n = *self.0.next()?;
        if n != u16::MAX {
            return Some(u32::from(n));
        }
        let (hi, lo) = (*self.0.next()?, *self.0.next()?);
        Some(u32::from(hi) << 16 | u32::from(lo))
    }
}

/// A symbol as [`Packed`] keeps it, small: a byte as itself, a run's id
/// past the 256 bytes.
fn pack_symbol(symbol: u32) -> u32 {
    if symbol & BYTE != 0 {
        symbol & 0xff
    } else {
        symbol + 256
    }
}

/// A symbol [`pack_symbol`] packed, as it was.
fn unpack_symbol(packed: u32) -> u32 {
    match packed.checked_sub(256) {
        Some(id) => id,
        None => BYTE | packed,
    }
}

/// The phrases and how each piece spells them.
struct Tokens<'a> {
    phrases: Vec<Cow<'a, [u8]>>,
    /// Each piece's symbols: a byte (`BYTE` and the byte) or the id of a
    /// run of more than one byte, packed ([`pack_symbol`]): a book's text
    /// has a million or more, held until its last parse ([`coded`]).
    symbols: Packed,
    /// The phrase of each byte that is one (`u32::MAX` if none).
    bytes: [u32; 256],
    /// Each run's phrases: a range of `found`.
    spelling: Vec<(u32, u32)>,
    found: Vec<u32>,
    /// How many raw phrases spell the whole text.
    whole: usize,
    /// The runs, to read the text again, if `symbols` holds only the
    /// pieces read before the last parse ([`HELD_SYMBOLS`]).
    again: Option<Runs<'a>>,
}

impl Tokens<'_> {
    /// Each piece's symbols.
    fn pieces(&self) -> impl Iterator<Item = impl Iterator<Item = u32>> {
        self.symbols.iter().map(|s| s.map(unpack_symbol))
    }

    /// The phrases a symbol is spelt with.
    fn phrases_of(&self, symbol: u32) -> &[u32] {
        if symbol & BYTE != 0 {
            std::slice::from_ref(&self.bytes[(symbol & 0xff) as usize])
        } else {
            let (from, len) = self.spelling[symbol as usize];
            &self.found[from as usize..(from + len) as usize]
        }
    }

    /// A piece (its symbols) as the phrases that spell it, into `out`.
    fn spell(&self, symbols: impl IntoIterator<Item = u32>, out: &mut Vec<u32>) {
        out.clear();
        for s in symbols {
            // Most symbols are one phrase: pushed, where a slice's copy
            // is a call of its own.
            match self.phrases_of(s) {
                &[one] => out.push(one),
                many => out.extend_from_slice(many),
            }
        }
    }
}

/// A run's place in [`Cutter`]'s table: its hash as [`Run`] hashes it.
fn run_hash(run: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(Run(run))
}

/// A text's pieces cut into runs, as [`Cutter`] reads them: each
/// character of a number a run of its own (its zeros in a row one run),
/// and the text between numbers one run.
fn each_run<'p>(piece: &'p [u8], mut each: impl FnMut(&'p [u8])) {
    let mut at = 0;
    let mut in_number = false;
    while let Some(&first) = piece.get(at) {
        in_number = first.is_ascii_digit() || (in_number && continues_number(first));
        let len = if in_number {
            if first == b'0' {
                // A number's zeros, one symbol: most are the leading
                // zeros of a fixed-width number.
                piece[at..].iter().take_while(|&&b| b == b'0').count()
            } else {
                1
            }
        } else {
            first_digit(&piece[at..]).unwrap_or(piece.len() - at)
        };
        each(&piece[at..at + len]);
        at += len;
    }
}

/// Every distinct run of more than one byte a [`Cutter`] has met, each
/// found again by its hash.
struct Runs<'a> {
    /// The last run of each hash, and before each run the one before it
    /// of the same hash.
    heads: FxHashMap<u64, u32>,
    chain: Vec<u32>,
    /// Each distinct run and how often it is seen.
    seen: Vec<(Stored<'a>, u32)>,
    /// The runs copied, one after another.
    arena: Vec<u8>,
}

impl Runs<'_> {
    /// The id of `run`, whose hash is `hash`, if it has been met.
    fn find(&self, run: &[u8], hash: u64) -> Option<u32> {
        let mut found = self.heads.get(&hash).copied();
        while let Some(id) = found {
            if Run(self.seen[id as usize].0.bytes(&self.arena)) == Run(run) {
                return Some(id);
            }
            found = Some(self.chain[id as usize]).filter(|&p| p != u32::MAX);
        }
        None
    }

    /// The symbols of `piece`, every run of which has been met, into
    /// `out`: what [`Cutter`] made of it when it read it.
    fn symbols(&self, piece: &[u8], out: &mut Vec<u32>) {
        out.clear();
        each_run(piece, |run| {
            out.push(match run {
                [b] => BYTE | u32::from(*b),
                _ => {
                    (self.find(run, run_hash(run))).expect("a run met when the text was first read")
                }
            })
        });
    }
}

/// How many `u16`s of a text's symbols (one a symbol, three for a run
/// numbered past 65,279) a [`Cutter`] that knows the text's length holds,
/// at most, before it lets go of all but the pieces that the pairs are
/// learnt from and pruned by: past that, the text is read again for its
/// last parse. 8 MB, a KF8 text of about 50 MB: the largest of the
/// default books' holds 7 MB.
pub(crate) const HELD_SYMBOLS: usize = 1 << 22;

/// The first reading of a text, a piece at a time: each piece's symbols
/// (each character of a number, its zeros in a row one symbol, and each
/// run of one byte, a symbol of its own; each distinct longer run an id,
/// counted), and each symbol where it is first met. Runs are borrowed
/// from a text held whole ([`Cutter::push`]), or copied, once each, from
/// pieces that go as they come ([`Cutter::push_copied`]), so that a book's
/// text need not be held to be coded. A cutter told how many pieces are
/// coming ([`Cutter::holding`]) holds the symbols of a large text only
/// where the pairs are learnt and pruned ([`HELD_SYMBOLS`]), so that the
/// symbols it holds do not grow with the text (its table of distinct
/// runs does, as they are met).
pub(crate) struct Cutter<'a> {
    runs: Runs<'a>,
    byte_seen: [bool; 256],
    /// How often each byte is a symbol of its own.
    byte_counts: [u32; 256],
    /// Each piece's symbols, and the piece's being read.
    symbols: Packed,
    current: Vec<u32>,
    /// Each symbol where it is first met, in text order: what the phrases
    /// are numbered by.
    firsts: Vec<u32>,
    /// How many pieces the text has, if told: the pieces read before the
    /// last parse are known, and only theirs need be held.
    expected: Option<usize>,
    /// How many `u16`s of symbols may be held; past it, only those
    /// pieces' are.
    most: usize,
    /// Whether only those pieces' symbols are held.
    thinned: bool,
}

impl<'a> Cutter<'a> {
    /// A cutter of a text of unknown length, which holds every piece's
    /// symbols.
    pub(crate) fn new() -> Cutter<'a> {
        Cutter {
            runs: Runs {
                heads: FxHashMap::default(),
                chain: Vec::new(),
                seen: Vec::new(),
                arena: Vec::new(),
            },
            byte_seen: [false; 256],
            byte_counts: [0; 256],
            symbols: Packed::default(),
            current: Vec::new(),
            firsts: Vec::new(),
            expected: None,
            most: usize::MAX,
            thinned: false,
        }
    }

    /// A cutter of a text of `pieces` pieces, which holds at most `most`
    /// `u16`s of symbols ([`HELD_SYMBOLS`]) but those of the pieces read
    /// before the last parse.
    pub(crate) fn holding(pieces: usize, most: usize) -> Cutter<'a> {
        Cutter {
            expected: Some(pieces),
            most,
            ..Cutter::new()
        }
    }

    /// Reads the next piece, of a text held whole.
    fn push(&mut self, piece: &'a [u8]) {
        self.scan(piece, |run, _| Stored::Text(run));
    }

    /// Reads the next piece, which may go once read: a run met for the
    /// first time is copied.
    pub(crate) fn push_copied(&mut self, piece: &[u8]) {
        self.scan(piece, |run, arena| {
            let at = arena.len();
            arena.extend_from_slice(run);
            Stored::Copied(at, run.len())
        });
    }

    fn scan<'p>(&mut self, piece: &'p [u8], keep: impl Fn(&'p [u8], &mut Vec<u8>) -> Stored<'a>) {
        let Cutter {
            runs,
            byte_seen,
            byte_counts,
            current,
            firsts,
            ..
        } = self;
        each_run(piece, |run| {
            if let [b] = run {
                let b = usize::from(*b);
                if !byte_seen[b] {
                    firsts.push(BYTE | b as u32);
                }
                byte_seen[b] = true;
                byte_counts[b] += 1;
                current.push(BYTE | b as u32);
                return;
            }
            let hash = run_hash(run);
            let id = runs.find(run, hash).unwrap_or_else(|| {
                let id = runs.seen.len() as u32;
                let before = runs.heads.insert(hash, id);
                runs.chain.push(before.unwrap_or(u32::MAX));
                let stored = keep(run, &mut runs.arena);
                runs.seen.push((stored, 0));
                firsts.push(id);
                id
            });
            runs.seen[id as usize].1 += 1;
            current.push(id);
        });
        let at = self.symbols.len();
        match self.expected {
            Some(pieces) if self.thinned && !read_early(at, pieces) => {
                self.current.clear();
                self.symbols.push([]);
            }
            _ => self.symbols.push(self.current.drain(..).map(pack_symbol)),
        }
        if let Some(pieces) = self.expected
            && !self.thinned
            && self.symbols.held > self.most
            && !read_early(1, pieces)
        {
            // (A text so short that every piece is read early, as the
            // second is then, is held whole.)
            self.thinned = true;
            self.symbols.keep_only(|i| read_early(i, pieces));
        }
    }

    /// How many pieces have been read.
    pub(crate) fn pieces(&self) -> usize {
        self.symbols.len()
    }
}

/// Whether piece `at` of a text of `pieces` pieces is read before the
/// last parse: the pairs are learnt from it ([`Grammar::learn`]), or
/// pruned by it ([`pruned`]).
fn read_early(at: usize, pieces: usize) -> bool {
    at.is_multiple_of(sample_step(pieces)) || at.is_multiple_of(prune_step(pieces))
}

/// Where a [`Cutter`] keeps a run: in the text, held whole, or copied
/// into its arena (its place and length there), with no allocation of
/// its own.
#[derive(Clone, Copy)]
enum Stored<'a> {
    Text(&'a [u8]),
    Copied(usize, usize),
}

impl<'a> Stored<'a> {
    /// The run's bytes, given the arena.
    fn bytes<'s>(self, arena: &'s [u8]) -> &'s [u8]
    where
        'a: 's,
    {
        match self {
            Stored::Text(run) => run,
            Stored::Copied(at, len) => &arena[at..at + len],
        }
    }

    /// `part` of the run (a slice of its bytes) as a [`Tokens`] phrase:
    /// borrowed from the text, or its own copy.
    fn part(self, part: &[u8]) -> Cow<'a, [u8]> {
        match self {
            Stored::Text(whole) => {
                let from = part.as_ptr() as usize - whole.as_ptr() as usize;
                Cow::Borrowed(&whole[from..from + part.len()])
            }
            Stored::Copied(..) => Cow::Owned(part.to_vec()),
        }
    }
}

impl<'a> Tokens<'a> {
    /// Cuts `pieces` into phrases of at most `max_phrase` bytes, reading
    /// the text once ([`Cutter`]).
    #[cfg(test)]
    fn cut(pieces: &[&'a [u8]], max_phrase: usize) -> Tokens<'a> {
        let mut cutter = Cutter::new();
        for piece in pieces {
            cutter.push(piece);
        }
        Tokens::spelt(cutter, max_phrase)
    }

    /// The phrases of what `cutter` read, at most `max_phrase` bytes each:
    /// each run is spelt once, in text order, as its tags, a tag seen often
    /// enough one phrase and a rare one its bytes (the pairs join the tags
    /// of a frequent run again, and runs that differ share their tags);
    /// phrases are numbered as first met, so ties in the code break the
    /// same way every time.
    fn spelt(cutter: Cutter<'a>, max_phrase: usize) -> Tokens<'a> {
        if let Some(pieces) = cutter.expected {
            assert_eq!(
                cutter.pieces(),
                pieces,
                "the text has the pieces it was said to"
            );
        }
        let Cutter {
            runs,
            symbols,
            firsts,
            byte_counts,
            thinned,
            ..
        } = cutter;
        let (seen, arena) = (&runs.seen, &runs.arena);
        // A small text's tags are cut into words too: its dictionary is a
        // large part of it, and a pair of words costs a few bytes there
        // where a whole tag is stored as is (0.5 KB less a Towers of Hanoi
        // book; the tic-tac-toe books, whose tags repeat more, grow).
        let words = is_small(symbols.len());
        let min_tag = if words {
            MIN_TAG_COUNT_SMALL
        } else {
            MIN_TAG_COUNT
        };
        let mut tag_counts: FxHashMap<&[u8], u32> = FxHashMap::default();
        for &(run, n) in seen {
            for tag in tags(run.bytes(arena), words).filter(|t| t.len() > 1) {
                *tag_counts.entry(tag).or_default() += n;
            }
        }
        let mut t = Tokens {
            phrases: Vec::new(),
            symbols,
            bytes: [u32::MAX; 256],
            spelling: vec![(0, 0); seen.len()],
            found: Vec::new(),
            whole: 0,
            again: None,
        };
        let mut ids: FxHashMap<&[u8], u32> = FxHashMap::default();
        // The phrase of `phrase` (a part of `run`), made the first time it
        // is asked for.
        fn phrase_id<'a, 's>(
            t: &mut Tokens<'a>,
            ids: &mut FxHashMap<&'s [u8], u32>,
            run: Stored<'a>,
            phrase: &'s [u8],
        ) -> u32 {
            let slot = if phrase.len() == 1 {
                &mut t.bytes[usize::from(phrase[0])]
            } else {
                ids.entry(phrase).or_insert(u32::MAX)
            };
            if *slot == u32::MAX {
                *slot = t.phrases.len() as u32;
                t.phrases.push(match phrase.len() {
                    1 => Cow::Borrowed(std::slice::from_ref(&BYTE_VALUES[usize::from(phrase[0])])),
                    _ => run.part(phrase),
                });
            }
            *slot
        }
        // Each run is spelt when first met; a byte's phrase is made when
        // first met.
        let none = Stored::Text(&[]);
        for symbol in firsts {
            if symbol & BYTE != 0 {
                let b = (symbol & 0xff) as u8;
                let byte = std::slice::from_ref(&BYTE_VALUES[usize::from(b)]);
                phrase_id(&mut t, &mut ids, none, byte);
                continue;
            }
            let run = seen[symbol as usize].0;
            let from = t.found.len();
            for tag in tags(run.bytes(arena), words) {
                let whole = tag.len() > 1 && tag_counts[tag] >= min_tag;
                if is_padding(tag) {
                    for phrase in padding_parts(tag) {
                        let p = phrase_id(&mut t, &mut ids, run, phrase);
                        t.found.push(p);
                    }
                    continue;
                }
                let parts = if whole {
                    tag.chunks(max_phrase)
                } else {
                    tag.chunks(1)
                };
                for phrase in parts {
                    let p = phrase_id(&mut t, &mut ids, run, phrase);
                    t.found.push(p);
                }
            }
            t.spelling[symbol as usize] = (from as u32, (t.found.len() - from) as u32);
        }
        // Each byte met alone is one phrase; each run, its spelling.
        let bytes: usize = byte_counts.iter().map(|&n| n as usize).sum();
        let runs_spelt = seen.iter().zip(&t.spelling);
        t.whole = bytes
            + runs_spelt
                .map(|(&(_, n), &(_, len))| n as usize * len as usize)
                .sum::<usize>();
        t.again = thinned.then_some(runs);
        t
    }
}

/// Every byte value as a slice: the phrase of a symbol of one byte,
/// which keeps the byte but not where the text holds it.
static BYTE_VALUES: [u8; 256] = {
    let mut all = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        all[i] = i as u8;
        i += 1;
    }
    all
};

/// How deep a phrase stored as codes may nest: kindlegen's own books nest
/// theirs up to 10 deep, and libmobi refuses more than 15.
pub const MAX_DEPTH: u8 = 10;

/// A pair of phrases met this often in the whole text becomes a phrase of
/// its own. Its place in the dictionary (its offset, its length and its
/// two codes) is about 7 bytes, and each use saves a code; below about 32
/// uses the default books grew, or shrank by less than the time it took.
const MIN_PAIR_COUNT: usize = 32;

/// In a small text ([`is_small`]), a pair met this often becomes a
/// phrase: the Towers of Hanoi's KF8 texts shrink by about 1.1 KB (their
/// MOBI 6 texts grow by 0.2 KB), against 32; with the pairs that do not
/// pay for their entries pruned ([`pruned`]), 8 rather than 12 saves 0.3
/// KB more a book (6 and 10 less).
const MIN_PAIR_COUNT_SMALL: usize = 8;

/// Each round joins every pair met at least this share (in percent) of
/// the most frequent one's count: Re-Pair joins one pair a round, and
/// half keeps the rounds few in a large text.
const SHARE: i32 = 50;

/// [`SHARE`] in a small text ([`is_small`]): nearer Re-Pair, about 3 ms
/// more a Towers of Hanoi text, for 0.4 to 0.9 KB less (all of Re-Pair,
/// 100, saves 0.1 KB more for 10 ms more).
const SHARE_SMALL: i32 = 95;

/// The pairs are learnt from about this many pieces, spread over the
/// text: a book's pages repeat, so a sample finds its pairs nearly as well
/// as the whole text, at a fraction of the time.
const SAMPLE_PIECES: usize = 96;

/// Every how many pieces of a text of `pieces` pieces the pairs are
/// learnt from: about [`SAMPLE_PIECES`] of them.
fn sample_step(pieces: usize) -> usize {
    (pieces / SAMPLE_PIECES).max(1)
}

/// Every how many pieces of a text of `pieces` pieces the pairs that do
/// not pay are found by: about [`PRUNE_PIECES`] of them.
fn prune_step(pieces: usize) -> usize {
    (pieces / PRUNE_PIECES).max(1)
}

/// Whether a text of `pieces` pieces is small: its sample is the whole
/// text, learnt in a few milliseconds.
fn is_small(pieces: usize) -> bool {
    pieces < 2 * SAMPLE_PIECES
}

/// The pair `(a, b)` as one key.
fn pair(a: u32, b: u32) -> u64 {
    u64::from(a) << 32 | u64::from(b)
}

/// Phrases made of two phrases, as Re-Pair makes them: in rounds, every
/// pair of adjacent phrases seen at least [`SHARE`] (in a small text,
/// [`SHARE_SMALL`]) as often as the most frequent one becomes a phrase,
/// replacing it left to right, until no pair is frequent enough. A
/// dictionary entry is then either a run of bytes (a raw phrase, below
/// `raw`) or the codes of its pair, which the readers decode in turn.
struct Grammar {
    /// How many raw phrases there are: pair `i` is phrase `raw + i`.
    raw: u32,
    pairs: Vec<[u32; 2]>,
    /// The sample as the pairs left it: phrases for a first guess of each
    /// one's code length.
    sample: Vec<Vec<u32>>,
}

impl Grammar {
    /// Learns the pairs of the pieces (each spelt as its raw phrases) from
    /// a sample of them, made in a fixed order (by count, then by pair), so
    /// the same text always gives the same phrases. Each pair's count is
    /// counted once and kept up to date as pairs are joined.
    fn learn(tokens: &Tokens) -> Grammar {
        let raw = tokens.phrases.len();
        let step = sample_step(tokens.symbols.len());
        let mut sample: Vec<Vec<u32>> = tokens
            .pieces()
            .step_by(step)
            .map(|symbols| {
                let mut spelt = Vec::new();
                tokens.spell(symbols, &mut spelt);
                spelt
            })
            .collect();
        // As often in the sample as MIN_PAIR_COUNT in the whole text; in
        // a text small enough to be its own sample, MIN_PAIR_COUNT_SMALL.
        let (least, share) = if is_small(tokens.symbols.len()) {
            (MIN_PAIR_COUNT_SMALL as i32, SHARE_SMALL)
        } else {
            let whole = tokens.whole;
            let sampled: usize = sample.iter().map(Vec::len).sum();
            (
                (MIN_PAIR_COUNT * sampled / whole.max(1)).max(2) as i32,
                SHARE,
            )
        };
        let mut depth = vec![0u8; raw];
        let mut pairs: Vec<[u32; 2]> = Vec::new();
        // Every adjacent pair's count.
        let mut counts: FxHashMap<u64, i32> = FxHashMap::default();
        for s in &sample {
            for w in s.windows(2) {
                *counts.entry(pair(w[0], w[1])).or_default() += 1;
            }
        }
        let mut made: FxHashMap<u64, u32> = FxHashMap::default();
        // Whether a phrase is the first of a pair being joined: most places
        // are not, and are passed over without a lookup.
        let mut first = vec![false; raw];
        loop {
            let shallow =
                |k: u64| depth[(k >> 32) as usize].max(depth[k as u32 as usize]) < MAX_DEPTH;
            let top = counts
                .iter()
                .filter(|&(&k, _)| shallow(k))
                .map(|(_, &c)| c)
                .max()
                .unwrap_or(0);
            if top < least {
                break;
            }
            let mut new: Vec<(i32, u64)> = counts
                .iter()
                .filter(|&(&k, &c)| c >= (top * share / 100).max(least) && shallow(k))
                .map(|(&k, &c)| (c, k))
                .collect();
            new.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
            made.clear();
            first.resize(raw + pairs.len() + new.len(), false);
            for (_, k) in new {
                let (a, b) = ((k >> 32) as u32, k as u32);
                made.insert(k, (raw + pairs.len()) as u32);
                depth.push(depth[a as usize].max(depth[b as usize]) + 1);
                pairs.push([a, b]);
                first[a as usize] = true;
                counts.remove(&k);
            }
            let mut add = |k: u64, n: i32| *counts.entry(k).or_default() += n;
            for s in &mut sample {
                let (mut from, mut to) = (0, 0);
                while from < s.len() {
                    let joined = match s.get(from + 1) {
                        Some(&b) if first[s[from] as usize] => made.get(&pair(s[from], b)).copied(),
                        _ => None,
                    };
                    let Some(x) = joined else {
                        s[to] = s[from];
                        from += 1;
                        to += 1;
                        continue;
                    };
                    // The pairs on either side now hold the new phrase.
                    if to > 0 {
                        add(pair(s[to - 1], s[from]), -1);
                        add(pair(s[to - 1], x), 1);
                    }
                    if let Some(&next) = s.get(from + 2) {
                        add(pair(s[from + 1], next), -1);
                        add(pair(x, next), 1);
                    }
                    s[to] = x;
                    from += 2;
                    to += 1;
                }
                s.truncate(to);
            }
            // Dropped again: the neighbours' updates above bring a joined
            // pair back with a small count (joining the first `aa` of
            // `aaa` takes one off the second, its neighbour), and a pair
            // is joined once.
            for (&k, _) in made.iter() {
                counts.remove(&k);
                first[(k >> 32) as usize] = false;
            }
        }
        Grammar {
            raw: raw as u32,
            pairs,
            sample,
        }
    }

    /// Appends the raw phrases that `phrase` stands for to `out`.
    fn expand(&self, phrase: u32, out: &mut Vec<u32>) {
        match phrase.checked_sub(self.raw) {
            None => out.push(phrase),
            Some(i) => {
                let [a, b] = self.pairs[i as usize];
                self.expand(a, out);
                self.expand(b, out);
            }
        }
    }
}

/// Every pair's raw phrases in a trie, last first: a pass over a piece
/// from its end finds, on reaching each place, the pairs that spell what
/// follows it.
struct Trie {
    /// The nodes just below the root, by raw phrase.
    root: Vec<u32>,
    /// Every node, all a step needs in one place: every place of the
    /// text steps through the trie (the cheapest parse is the function
    /// of a default build that takes the most CPU, a sixth), and a
    /// node's fields in one array share a line of the cache where an
    /// array each took a line each.
    nodes: Vec<Node>,
    /// Each node's children after its first, sorted by raw phrase, as (raw
    /// phrase, node): those of node `n` are `others[nodes[n].others..
    /// nodes[n + 1].others]`, the last node's up to the end. A few
    /// children side by side are found faster than by a hash lookup.
    others: Vec<(u32, u32)>,
}

/// A node of the [`Trie`], with Aho–Corasick's links, so that one pass
/// over a piece finds every match. A walk from every place visited each
/// match's whole length (9 raw phrases on average in a chess book, for
/// 2 to 3 matches); the pass visits about one node a place, and each
/// match once. The pass runs from the end, as the cheapest parse does,
/// so each match comes just when the parse weighs its place.
#[derive(Clone, Copy)]
struct Node {
    /// The first child, as (raw phrase, node): most nodes are a link in
    /// the chain of one long phrase, with one child, found without a
    /// search.
    first: (u32, u32),
    /// Where this node's other children start in [`Trie::others`].
    others: u32,
    /// The phrase this node spells, if any.
    end: u32,
    /// The node of the longest proper suffix of this node's raw phrases
    /// that is a node (`NONE`: the root).
    fail: u32,
    /// The longest such suffix that spells a phrase, if any.
    dict: u32,
    /// How many raw phrases this node spells.
    depth: u32,
}

impl Trie {
    const NONE: u32 = u32::MAX;

    fn new(grammar: &Grammar) -> Trie {
        let mut root = vec![Self::NONE; grammar.raw as usize];
        let mut nodes: Vec<Node> = Vec::new();
        // A node's children after the first, while the trie is made.
        let mut next: FxHashMap<u64, u32> = FxHashMap::default();
        let mut raw = Vec::new();
        for p in grammar.raw..grammar.raw + grammar.pairs.len() as u32 {
            raw.clear();
            grammar.expand(p, &mut raw);
            raw.reverse();
            let mut node = Self::NONE;
            for &r in &raw {
                let found = if node == Self::NONE {
                    root[r as usize]
                } else {
                    match nodes[node as usize].first {
                        (first, child) if first == r => child,
                        _ => next.get(&pair(node, r)).copied().unwrap_or(Self::NONE),
                    }
                };
                node = if found != Self::NONE {
                    found
                } else {
                    let new = nodes.len() as u32;
                    nodes.push(Node {
                        first: (Self::NONE, Self::NONE),
                        others: 0,
                        end: Self::NONE,
                        fail: Self::NONE,
                        dict: Self::NONE,
                        depth: 1,
                    });
                    if node == Self::NONE {
                        root[r as usize] = new;
                    } else if nodes[node as usize].first.0 == Self::NONE {
                        nodes[node as usize].first = (r, new);
                    } else {
                        next.insert(pair(node, r), new);
                    }
                    new
                };
            }
            // Two pairs may spell the same bytes: the first made is kept.
            if nodes[node as usize].end == Self::NONE {
                nodes[node as usize].end = p;
            }
        }
        let mut others: Vec<(u64, u32)> = next.into_iter().collect();
        others.sort_unstable();
        let mut at = 0;
        for (n, node) in nodes.iter_mut().enumerate() {
            while others.get(at).is_some_and(|&(k, _)| k >> 32 < n as u64) {
                at += 1;
            }
            node.others = at as u32;
        }
        let others = others.into_iter().map(|(k, c)| (k as u32, c)).collect();
        let mut t = Trie {
            root,
            nodes,
            others,
        };
        t.link();
        t
    }

    /// The children of `node` after its first, sorted by raw phrase.
    fn others(&self, node: u32) -> &[(u32, u32)] {
        let n = node as usize;
        let end = self
            .nodes
            .get(n + 1)
            .map_or(self.others.len(), |next| next.others as usize);
        &self.others[self.nodes[n].others as usize..end]
    }

    /// The child of `node` by raw phrase `r`, or `NONE`.
    fn child(&self, node: u32, r: u32) -> u32 {
        match self.nodes[node as usize].first {
            (first, child) if first == r => child,
            (Self::NONE, _) => Self::NONE,
            _ => {
                let others = self.others(node);
                match others.binary_search_by_key(&r, |&(raw, _)| raw) {
                    Ok(i) => others[i].1,
                    Err(_) => Self::NONE,
                }
            }
        }
    }

    /// The node reached from `node` (`NONE` for the root) by raw phrase
    /// `r`, following failure links until some node has that child: the
    /// longest suffix of `node`'s raw phrases and `r` that is a node, or
    /// the root.
    fn step(&self, mut node: u32, r: u32) -> u32 {
        loop {
            if node == Self::NONE {
                return self.root[r as usize];
            }
            let child = self.child(node, r);
            if child != Self::NONE {
                return child;
            }
            node = self.nodes[node as usize].fail;
        }
    }

    /// Fills each node's `fail`, `dict` and `depth`, breadth first from
    /// the root.
    fn link(&mut self) {
        let mut queue: std::collections::VecDeque<u32> = self
            .root
            .iter()
            .copied()
            .filter(|&c| c != Self::NONE)
            .collect();
        let mut children = Vec::new();
        while let Some(node) = queue.pop_front() {
            let n = self.nodes[node as usize];
            children.clear();
            children.extend(Some(n.first).filter(|&(r, _)| r != Self::NONE));
            children.extend_from_slice(self.others(node));
            for &(r, child) in &children {
                let fail = self.step(n.fail, r);
                let dict = match fail {
                    Self::NONE => Self::NONE,
                    f if self.nodes[f as usize].end != Self::NONE => f,
                    f => self.nodes[f as usize].dict,
                };
                let c = &mut self.nodes[child as usize];
                (c.fail, c.dict, c.depth) = (fail, dict, n.depth + 1);
                queue.push_back(child);
            }
        }
    }

    /// The pairs `node` spells, itself and then its ever shorter
    /// suffixes (`NONE`, the root: none), as (phrase, raw phrases it
    /// spans): after a pass from a piece's end to a place, the pairs that
    /// start there, the longest first. The tests' yardstick for
    /// [`Trie::coded`].
    #[cfg(test)]
    fn spelt(&self, node: u32) -> impl Iterator<Item = (u32, usize)> + '_ {
        let first = match node {
            Self::NONE => Self::NONE,
            n if self.nodes[n as usize].end != Self::NONE => n,
            n => self.nodes[n as usize].dict,
        };
        let some = |m: u32| Some(m).filter(|&m| m != Self::NONE);
        std::iter::successors(some(first), move |&m| some(self.nodes[m as usize].dict)).map(|m| {
            let n = &self.nodes[m as usize];
            (n.end, n.depth as usize)
        })
    }

    /// The trie as the cheapest parse walks it under `bits` ([`Coded`]).
    fn coded(&self, bits: &[Option<u8>]) -> Coded<'_> {
        // From a node that spells a pair (or `NONE`), along `dict`, the
        // first whose pair has a code.
        let walk = |mut m: u32| {
            while m != Self::NONE && bits[self.nodes[m as usize].end as usize].is_none() {
                m = self.nodes[m as usize].dict;
            }
            m
        };
        let mut pairs = Vec::new();
        let mut nodes = Vec::with_capacity(self.nodes.len());
        for (n, node) in self.nodes.iter().enumerate() {
            let from = pairs.len() as u32;
            let mut m = walk(if node.end != Self::NONE {
                n as u32
            } else {
                node.dict
            });
            while m != Self::NONE {
                let pair = &self.nodes[m as usize];
                pairs.push(CodedPair {
                    phrase: pair.end,
                    len: pair.depth,
                    bits: bits[pair.end as usize].expect("a pair with a code"),
                });
                m = walk(pair.dict);
            }
            nodes.push(CodedNode {
                first: node.first,
                fail: node.fail,
                others: (
                    node.others,
                    node.others + self.others(n as u32).len() as u32,
                ),
                pairs: (from, pairs.len() as u32),
            });
        }
        Coded {
            trie: self,
            nodes,
            pairs,
        }
    }
}

/// The [`Trie`] as the cheapest parse walks it under one code: each
/// node's step and the pairs it spells that have a code, longest first
/// (what [`Trie::spelt`] gives, but only those), side by side. Every place
/// of the text steps to a node and weighs its pairs (the cheapest parse
/// is the function of a default build that takes the most CPU, a
/// seventh): a node's step, and where its pairs are, in one line of the
/// cache, and its pairs one after another. Stepping through the trie's
/// nodes and looking up each node's first pair, then each pair's next,
/// in tables of their own, each a line of the cache, made the whole
/// build take 1.04 times the CPU time.
struct Coded<'t> {
    trie: &'t Trie,
    nodes: Vec<CodedNode>,
    /// Each node's pairs: those of node `n` are
    /// `pairs[nodes[n].pairs.0..nodes[n].pairs.1]`.
    pairs: Vec<CodedPair>,
}

/// A node of [`Coded`]: a [`Node`]'s step, and its pairs.
#[derive(Clone, Copy)]
#[repr(align(32))]
struct CodedNode {
    first: (u32, u32),
    fail: u32,
    /// Its children after the first: a range of [`Trie::others`].
    others: (u32, u32),
    /// Its pairs with a code: a range of [`Coded::pairs`].
    pairs: (u32, u32),
}

/// A pair with a code, as [`Coded`] keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct CodedPair {
    phrase: u32,
    /// The raw phrases it spans.
    len: u32,
    /// Its code's length.
    bits: u8,
}

impl Coded<'_> {
    /// [`Trie::step`], through this table's nodes.
    fn step(&self, mut node: u32, r: u32) -> u32 {
        loop {
            let Some(n) = self.nodes.get(node as usize) else {
                return self.trie.root[r as usize];
            };
            if n.first.0 == r {
                return n.first.1;
            }
            let others = &self.trie.others[n.others.0 as usize..n.others.1 as usize];
            if let Ok(i) = others.binary_search_by_key(&r, |&(raw, _)| raw) {
                return others[i].1;
            }
            node = n.fail;
        }
    }

    /// The pairs with a code that `node` spells, longest first (none at
    /// the root, `NONE`).
    fn pairs(&self, node: u32) -> &[CodedPair] {
        match self.nodes.get(node as usize) {
            Some(n) => &self.pairs[n.pairs.0 as usize..n.pairs.1 as usize],
            None => &[],
        }
    }
}

/// Each piece as phrases, the longest that fits first: the tests'
/// yardstick for [`parse_cheapest`].
#[cfg(test)]
fn parse_longest(tokens: &Tokens, trie: &Trie) -> Packed {
    let mut s = Vec::new();
    let mut parsed = Packed::default();
    tokens
        .pieces()
        .map(|symbols| {
            tokens.spell(symbols, &mut s);
            let mut longest = vec![(0, 1); s.len()];
            let mut node = Trie::NONE;
            for at in (0..s.len()).rev() {
                node = trie.step(node, s[at]);
                longest[at] = trie.spelt(node).next().unwrap_or((s[at], 1));
            }
            let mut out = Vec::with_capacity(s.len() / 4);
            let mut at = 0;
            while at < s.len() {
                out.push(longest[at].0);
                at += longest[at].1;
            }
            out
        })
        .for_each(|piece: Vec<u32>| parsed.push(piece));
    parsed
}

/// Each piece as the phrases that spell it in the fewest bits, given each
/// phrase's code length (`None` for a phrase without a code): a shortest
/// path from each place back from the end. The longest match first takes
/// a long phrase that ends just before a frequent pair and leaves the
/// pair's first half alone (`...</a><a href="...fid:00`, then `H`), where
/// two shorter phrases cost fewer bits. Only every `step`-th piece is
/// parsed (1: all of them).
fn parse_cheapest(tokens: &Tokens, trie: &Trie, bits: &[Option<u8>], step: usize) -> Packed {
    parse_cheapest_of(tokens, tokens.pieces().step_by(step), trie, bits)
}

/// [`parse_cheapest`] of `pieces`, each a piece's symbols.
fn parse_cheapest_of<I: IntoIterator<Item = u32>>(
    tokens: &Tokens,
    pieces: impl Iterator<Item = I>,
    trie: &Trie,
    bits: &[Option<u8>],
) -> Packed {
    let mut parse = Cheapest::new(tokens, trie, bits);
    pieces.for_each(|symbols| parse.piece(symbols));
    parse.parsed
}

/// The cheapest parse ([`parse_cheapest`]), a piece at a time, and each
/// piece's phrases, held until the text is coded.
struct Cheapest<'t, 'a> {
    tokens: &'t Tokens<'a>,
    bits: &'t [Option<u8>],
    coded: Coded<'t>,
    /// The piece's raw phrases.
    s: Vec<u32>,
    /// From each place to the end: the fewest bits, and the first phrase
    /// and how many raw phrases it spans.
    best: Vec<(u32, u32, u32)>,
    out: Vec<u32>,
    parsed: Packed,
}

impl<'t, 'a> Cheapest<'t, 'a> {
    fn new(tokens: &'t Tokens<'a>, trie: &'t Trie, bits: &'t [Option<u8>]) -> Cheapest<'t, 'a> {
        Cheapest {
            tokens,
            bits,
            coded: trie.coded(bits),
            s: Vec::new(),
            best: Vec::new(),
            out: Vec::new(),
            parsed: Packed::default(),
        }
    }

    /// Parses the next piece, given its symbols.
    fn piece(&mut self, symbols: impl IntoIterator<Item = u32>) {
        let Cheapest {
            tokens,
            bits,
            coded,
            s,
            best,
            out,
            parsed,
        } = self;
        tokens.spell(symbols, s);
        best.clear();
        best.resize(s.len() + 1, (0, 0, 0));
        let mut node = Trie::NONE;
        for at in (0..s.len()).rev() {
            node = coded.step(node, s[at]);
            // Of the phrases that cost the fewest bits from here, the
            // shortest: the pairs come longest first, and an equal total
            // replaces the one before. The raw phrase comes last and
            // always has a code: every phrase the text holds is kept, or
            // spelt by one that is.
            let mut cheapest = (u32::MAX, s[at], 1);
            let mut consider = |p: u32, b: u8, len: usize| {
                let total = u32::from(b).saturating_add(best[at + len].0);
                if total <= cheapest.0 {
                    cheapest = (total, p, len as u32);
                }
            };
            for pair in coded.pairs(node) {
                consider(pair.phrase, pair.bits, pair.len as usize);
            }
            if let Some(b) = bits[s[at] as usize] {
                consider(s[at], b, 1);
            }
            best[at] = cheapest;
        }
        out.clear();
        let mut at = 0;
        while at < s.len() {
            out.push(best[at].1);
            at += best[at].2 as usize;
        }
        parsed.push(out.iter().copied());
    }
}

/// Each phrase's code length for its `uses` (`None` for a phrase not
/// used).
fn bits_of(uses: &[u32], min_longest: u8) -> Vec<Option<u8>> {
    let kept: Vec<usize> = (0..uses.len()).filter(|&p| uses[p] > 0).collect();
    let counts: Vec<u32> = kept.iter().map(|&p| uses[p]).collect();
    let mut bits = vec![None; uses.len()];
    for (&p, len) in kept.iter().zip(lengths(&counts, min_longest)) {
        bits[p] = Some(len);
    }
    bits
}

/// The most codes one dictionary entry is spelt with: at most 24 bits
/// each, 96 bytes, within the 127 a reader takes.
const MAX_ENTRY_CODES: usize = 32;

/// A pair that at most this many other pairs use, and the text never,
/// gets no entry of its own (see [`Entries`]).
const MAX_INLINED_USES: u32 = 3;

/// What an entry costs besides its codes, in bits, when [`pruned`]
/// weighs it: its 2-byte offset and 2-byte length, its last byte's
/// padding, and the code space one more phrase takes from the others.
/// Measured on the default books: 56 against 32 (0.2 KB more), 72 (0.1
/// KB more) and 96 or 128 (the Towers of Hanoi's KF8 texts 0.4 to 0.8 KB
/// more).
const ENTRY_BITS: u64 = 56;

/// How many pieces, about, the parse that decides what to prune reads,
/// spread over the text (all of a small one): half as many made the
/// tic-tac-toe books' guesses noisy (the analysis book 1.1 KB larger).
const PRUNE_PIECES: usize = 128;

/// The dictionary's pairs as stored: a pair that few other pairs use (at
/// most [`MAX_INLINED_USES`]) and the text never has no entry of its own,
/// and the pairs using it are stored as the codes of its parts instead
/// (Re-Pair's pruning: an entry is about 4 bytes and its codes, and the
/// codes it stood for cost a few bits more where it was used; 0.3 to 0.4
/// KB a Towers of Hanoi text, 0.7 to 1.2 KB a tic-tac-toe KF8 text).
/// Readers decode an entry's codes one after another, as many as it holds.
struct Entries {
    /// Each phrase's codes in the text.
    text: Vec<u32>,
    /// Each phrase's codes: in the text, and in the entries.
    uses: Vec<u32>,
    /// The codes each pair with an entry is stored as.
    spelt: Vec<Vec<u32>>,
}

impl Entries {
    fn new(grammar: &Grammar, parsed: &Packed) -> Entries {
        let raw = grammar.raw as usize;
        let n = raw + grammar.pairs.len();
        let text = text_uses(parsed.iter().flatten(), n);
        // Each phrase's uses in the text and as a part of the kept pairs.
        let all = with_parts(text.clone(), grammar);
        let inlined = |p: usize| p >= raw && text[p] == 0 && all[p] <= MAX_INLINED_USES;
        // Each kept pair's codes, its parts first (a pair is made after
        // its parts); a part too long to take in is coded instead.
        let mut spelt: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, pair) in grammar.pairs.iter().enumerate() {
            let p = raw + i;
            if all[p] == 0 {
                continue;
            }
            let mut codes = Vec::new();
            for &c in pair {
                let c = c as usize;
                if inlined(c) && codes.len() + spelt[c].len() < MAX_ENTRY_CODES {
                    codes.extend_from_slice(&spelt[c]);
                } else {
                    codes.push(c as u32);
                }
            }
            spelt[p] = codes;
        }
        // The entries: the text's pairs, and every pair an entry codes.
        let mut uses = text.clone();
        let mut entry = vec![false; n];
        let mut todo: Vec<usize> = (raw..n).filter(|&p| uses[p] > 0).collect();
        while let Some(p) = todo.pop() {
            if std::mem::replace(&mut entry[p], true) {
                continue;
            }
            for &c in &spelt[p] {
                uses[c as usize] += 1;
                if c as usize >= raw && !entry[c as usize] {
                    todo.push(c as usize);
                }
            }
        }
        for (p, codes) in spelt.iter_mut().enumerate() {
            if !entry[p] {
                *codes = Vec::new();
            }
        }
        Entries { text, uses, spelt }
    }

    /// The codes pair `p` is stored as.
    fn spelling(&self, p: u32) -> &[u32] {
        &self.spelt[p as usize]
    }
}

/// How often each phrase is coded: in the text, and once in each pair
/// the dictionary keeps (a pair no piece reaches is left out, 0).
fn uses(phrases: impl IntoIterator<Item = u32>, grammar: &Grammar) -> Vec<u32> {
    with_parts(
        text_uses(phrases, grammar.raw as usize + grammar.pairs.len()),
        grammar,
    )
}

/// How often the text codes each of `n` phrases.
fn text_uses(phrases: impl IntoIterator<Item = u32>, n: usize) -> Vec<u32> {
    let mut uses = vec![0u32; n];
    for p in phrases {
        uses[p as usize] += 1;
    }
    uses
}

/// `uses` in the text, and once more for each pair that a kept pair (one
/// the text or a kept pair uses) is made of.
fn with_parts(mut uses: Vec<u32>, grammar: &Grammar) -> Vec<u32> {
    let raw = grammar.raw as usize;
    for (i, pair) in grammar.pairs.iter().enumerate().rev() {
        if uses[raw + i] > 0 {
            for &p in pair {
                uses[p as usize] += 1;
            }
        }
    }
    uses
}

/// Codes packed into bytes, most significant bit first, the last byte
/// padded with zero bits.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    /// Up to 31 bits wait here, below a code of up to 32.
    acc: u64,
    have: u32,
}

impl Bits {
    fn put(&mut self, (code, len): (u32, u8)) {
        self.acc = self.acc << len | u64::from(code);
        self.have += u32::from(len);
        if self.have >= 32 {
            self.have -= 32;
            self.out
                .extend_from_slice(&((self.acc >> self.have) as u32).to_be_bytes());
        }
    }

    fn finish(mut self) -> Vec<u8> {
        self.flush();
        self.out
    }

    /// [`Bits::finish`], in a `Vec` of its length, and this one emptied
    /// for the next: a book's records are coded one after another, each
    /// a kilobyte or two, and each grown from nothing took ten
    /// allocations and kept up to twice its length.
    fn take(&mut self) -> Vec<u8> {
        self.flush();
        let out = self.out.to_vec();
        self.out.clear();
        out
    }

    /// The bits waiting, onto `out`, the last byte padded: none wait
    /// after.
    fn flush(&mut self) {
        while self.have >= 8 {
            self.have -= 8;
            self.out.push((self.acc >> self.have) as u8);
        }
        if self.have > 0 {
            self.out.push((self.acc << (8 - self.have)) as u8);
            self.have = 0;
        }
    }
}

/// Huffman code lengths for `counts` (all at least 1), at most `MAX_LEN`
/// and with the longest at least `min_longest`. Ties break by index, so
/// the same counts always give the same lengths.
fn lengths(counts: &[u32], min_longest: u8) -> Vec<u8> {
    let mut weights: Vec<u64> = counts.iter().map(|&c| u64::from(c.max(1))).collect();
    loop {
        let mut lens = huffman(&weights);
        let longest = lens.iter().copied().max().unwrap_or(0);
        if longest <= MAX_LEN {
            if longest < min_longest {
                // An incomplete code is still a prefix code: lengthen the
                // rarest phrase so that zero padding spells no code.
                let rarest = (0..lens.len())
                    .max_by_key(|&i| (lens[i], std::cmp::Reverse(weights[i]), i))
                    .expect("at least one phrase");
                lens[rarest] = min_longest;
            }
            return lens;
        }
        // Flatten the counts and try again: the code gets shallower.
        for w in &mut weights {
            *w = (*w >> 1) + 1;
        }
    }
}

/// Plain Huffman code lengths, by merging the two lightest nodes.
fn huffman(weights: &[u64]) -> Vec<u8> {
    let n = weights.len();
    if n == 1 {
        return vec![1];
    }
    // Nodes 0..n are leaves; merged nodes follow. Two queues, both sorted.
    let mut leaves: Vec<usize> = (0..n).collect();
    leaves.sort_by_key(|&i| (weights[i], i));
    let mut weight = weights.to_vec();
    let mut parent = vec![usize::MAX; n];
    let mut merged: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    let mut leaf_at = 0;
    let mut take = |weight: &Vec<u64>, merged: &mut std::collections::VecDeque<usize>| {
        let leaf = leaves.get(leaf_at).copied();
        let node = merged.front().copied();
        match (leaf, node) {
            (Some(l), Some(m)) if weight[m] < weight[l] => merged.pop_front().unwrap(),
            (Some(l), _) => {
                leaf_at += 1;
                l
            }
            (None, _) => merged.pop_front().unwrap(),
        }
    };
    for _ in 0..n - 1 {
        let a = take(&weight, &mut merged);
        let b = take(&weight, &mut merged);
        let id = weight.len();
        weight.push(weight[a] + weight[b]);
        parent.push(usize::MAX);
        parent[a] = id;
        parent[b] = id;
        merged.push_back(id);
    }
    // Depths from the root down: parents always have larger ids.
    let mut depth = vec![0u8; weight.len()];
    for id in (0..weight.len() - 1).rev() {
        depth[id] = depth[parent[id]] + 1;
    }
    depth.truncate(n);
    depth
}

/// The code of every phrase, and the HUFF tables and phrase order that
/// make the readers find it.
struct Code {
    /// `(code, length)` for each phrase.
    codes: Vec<(u32, u8)>,
    /// Phrases in dictionary order: index `max_code[len] - code`.
    order: Vec<usize>,
    /// Per length 1..=32: the smallest code and the max code the reader
    /// subtracts from.
    min_code: [u32; 33],
    max_code: [u32; 33],
    /// Per length: how many phrases have a code that long.
    count: [u32; 33],
    /// The longest code.
    longest: u8,
}

impl Code {
    fn new(lens: &[u8]) -> Code {
        let longest = lens.iter().copied().max().unwrap_or(0);
        let mut by_len: Vec<Vec<usize>> = vec![Vec::new(); 33];
        for (i, &l) in lens.iter().enumerate() {
            by_len[usize::from(l)].push(i);
        }
        let mut codes = vec![(0, 0); lens.len()];
        let mut min_code = [0u32; 33];
        let mut next = 0u32;
        for len in (1..=longest).rev() {
            min_code[usize::from(len)] = next;
            for (j, &i) in by_len[usize::from(len)].iter().enumerate() {
                codes[i] = (next + j as u32, len);
            }
            next += by_len[usize::from(len)].len() as u32;
            next = next.div_ceil(2);
        }
        // Dictionary order: shortest codes first, and within a length the
        // highest code first, so index = base + (highest - code).
        let mut order = Vec::with_capacity(lens.len());
        let mut max_code = [0u32; 33];
        let count = std::array::from_fn(|len| by_len[len].len() as u32);
        for len in 1..=longest {
            let of_len = &by_len[usize::from(len)];
            if of_len.is_empty() {
                continue;
            }
            let highest = min_code[usize::from(len)] + of_len.len() as u32 - 1;
            max_code[usize::from(len)] = order.len() as u32 + highest;
            order.extend(of_len.iter().rev());
        }
        Code {
            codes,
            order,
            min_code,
            max_code,
            count,
            longest,
        }
    }

    /// The HUFF record.
    fn huff(&self) -> Vec<u8> {
        let mut table = [0u32; 256];
        for (prefix, entry) in table.iter_mut().enumerate() {
            let prefix = prefix as u32;
            let short = (1..=8u8).find(|&len| {
                let (min, count) = (
                    self.min_code[usize::from(len)],
                    self.count[usize::from(len)],
                );
                (min..min + count).contains(&(prefix >> (8 - len)))
            });
            *entry = match short {
                Some(len) => self.max_code[usize::from(len)] << 8 | 0x80 | u32::from(len),
                // The start of a longer code: the reader walks up from 9.
                None if self.longest > 8 => 9,
                // Spells no code at all (an incomplete code); never read.
                None => 0x80 | 8,
            };
        }
        let mut pairs = Vec::with_capacity(64);
        for len in 1..=32 {
            pairs.push(self.min_code[len]);
            pairs.push(self.max_code[len]);
        }
        let mut r = b"HUFF".to_vec();
        for v in [24u32, 24, 24 + 1024] {
            r.extend_from_slice(&v.to_be_bytes());
        }
        for v in [24u32 + 1024 + 256, 24 + 2 * 1024 + 256] {
            r.extend_from_slice(&v.to_be_bytes());
        }
        for v in table.iter().chain(&pairs) {
            r.extend_from_slice(&v.to_be_bytes());
        }
        for v in table.iter().chain(&pairs) {
            r.extend_from_slice(&v.to_le_bytes());
        }
        r
    }
}

/// The CDIC records, each holding 2^bits phrases: bits as many as let one
/// record's 16-bit offsets reach all of its phrases.
fn cdic_records(phrases: &[(std::borrow::Cow<[u8]>, bool)]) -> Vec<Vec<u8>> {
    let total = phrases.len();
    let mut bits = usize::BITS - total.max(2).saturating_sub(1).leading_zeros();
    loop {
        let per = 1usize << bits;
        let fits = phrases
            .chunks(per)
            // Okular adds the 16-byte header to an offset in 16 bits.
            .all(|c| {
                2 * c.len() + c.iter().map(|(p, _)| p.len() + 2).sum::<usize>() <= 0xffff - 16
            });
        if fits {
            return phrases
                .chunks(per)
                .map(|chunk| {
                    // Made at its length: a book's tables are written
                    // phrase by phrase, a few bytes each.
                    let len = 16 + chunk.iter().map(|(p, _)| 4 + p.len()).sum::<usize>();
                    let mut r = Vec::with_capacity(len);
                    r.extend_from_slice(b"CDIC");
                    for v in [16, total as u32, bits] {
                        r.extend_from_slice(&v.to_be_bytes());
                    }
                    let mut offset = 2 * chunk.len();
                    for (p, _) in chunk {
                        r.extend_from_slice(&(offset as u16).to_be_bytes());
                        offset += 2 + p.len();
                    }
                    // The top bit of the length: stored as is.
                    for (p, raw) in chunk {
                        let flag = if *raw { 0x8000 } else { 0 };
                        r.extend_from_slice(&(p.len() as u16 | flag).to_be_bytes());
                        r.extend_from_slice(p);
                    }
                    debug_assert_eq!(r.len(), len);
                    r
                })
                .collect();
        }
        bits -= 1;
    }
}

/// Codes every piece (a text record's text, at most 4,096 bytes each) with
/// one dictionary made for all of them, within the default [`Limits`].
pub fn compress(pieces: &[&[u8]]) -> Compressed {
    compress_within(pieces, Limits::default())
}

/// [`compress`] within `limits`: the tests make books past the readers'
/// limits with it, to show that the reader checks catch them.
pub fn compress_within(pieces: &[&[u8]], limits: Limits) -> Compressed {
    let mut cutter = Cutter::new();
    for piece in pieces {
        cutter.push(piece);
    }
    compress_read(cutter, limits, &mut |each| {
        pieces.iter().for_each(|p| each(p))
    })
}

/// Hands each piece of a text to the function it is given, in order, the
/// same pieces a [`Cutter`] read.
pub(crate) type Again<'f> = &'f mut dyn FnMut(&mut dyn FnMut(&[u8]));

/// [`compress_within`] of the pieces `cutter` has read: the text itself is
/// not needed any more, only its symbols, or, if the cutter held only
/// some ([`Cutter::holding`]), the text once more from `again`.
pub(crate) fn compress_read(cutter: Cutter, limits: Limits, again: Again) -> Compressed {
    let pieces = cutter.pieces();
    let tokens = Tokens::spelt(cutter, limits.max_phrase);
    if tokens.phrases.is_empty() {
        return Compressed {
            tables: Vec::new(),
            records: vec![Vec::new(); pieces],
        };
    }
    let grammar = Grammar::learn(&tokens);
    let trie = Trie::new(&grammar);
    let mut bits = guessed(&grammar, limits.min_longest);
    // Then the pairs that do not pay for their entries left out, by a
    // parse of part of the text; twice in a small text, whose second
    // parse finds what the first left to prune (0.1 to 0.3 KB, a few ms),
    // once in a large one (another round saves 0.1 to 0.2 KB of 250 KB).
    let small = is_small(tokens.symbols.len());
    let step = prune_step(tokens.symbols.len());
    for _ in 0..if small { 2 } else { 1 } {
        bits = pruned(&tokens, &trie, &grammar, &bits, step, limits.min_longest);
    }
    coded(tokens, &grammar, &trie, &bits, limits.min_longest, again)
}

/// Each phrase's code length guessed from the sample as the pairs left it
/// (every raw phrase with one, so that every piece can be spelt), for the
/// first cheapest parse. A parse of the whole text by the longest match
/// first guessed no better (0.6 KB the analysis book, nothing the others)
/// for 4 to 6 ms a big text.
fn guessed(grammar: &Grammar, min_longest: u8) -> Vec<Option<u8>> {
    let mut guess = uses(grammar.sample.iter().flatten().copied(), grammar);
    for n in &mut guess[..grammar.raw as usize] {
        *n = (*n).max(1);
    }
    bits_of(&guess, min_longest)
}

/// The text parsed the cheapest way under `bits`, its entries, and the
/// code made for what they use: the records and the tables.
fn coded(
    mut tokens: Tokens<'_>,
    grammar: &Grammar,
    trie: &Trie,
    bits: &[Option<u8>],
    min_longest: u8,
    again: Again,
) -> Compressed {
    // The symbols go as the phrases come: a large book's text holds
    // millions of each. Those of a text too large to hold them were let
    // go as it was read, and it is read again.
    let symbols = std::mem::take(&mut tokens.symbols);
    let runs = tokens.again.take();
    let tokens = &tokens;
    let parsed = match runs {
        None => {
            let pieces = symbols.into_pieces().map(|p| p.map(unpack_symbol));
            parse_cheapest_of(tokens, pieces, trie, bits)
        }
        Some(runs) => {
            let pieces = symbols.len();
            drop(symbols);
            let mut parse = Cheapest::new(tokens, trie, bits);
            let mut piece = Vec::new();
            again(&mut |bytes| {
                runs.symbols(bytes, &mut piece);
                parse.piece(piece.iter().copied());
            });
            assert_eq!(parse.parsed.len(), pieces, "the text read again is as long");
            parse.parsed
        }
    };
    let raw = tokens.phrases.len();
    let entries = Entries::new(grammar, &parsed);
    let uses = &entries.uses;
    let kept: Vec<usize> = (0..uses.len()).filter(|&p| uses[p] > 0).collect();
    let mut index = vec![u32::MAX; uses.len()];
    for (i, &p) in kept.iter().enumerate() {
        index[p] = i as u32;
    }
    let counts: Vec<u32> = kept.iter().map(|&p| uses[p]).collect();
    let code = Code::new(&lengths(&counts, min_longest));
    let code_of = |p: u32| code.codes[index[p as usize] as usize];
    let mut bits = Bits::default();
    let records = parsed
        .iter()
        .map(|phrases| {
            phrases.for_each(|p| bits.put(code_of(p)));
            bits.take()
        })
        .collect();
    // A raw phrase is stored as is, a pair as the codes it is spelt with.
    let stored: Vec<(std::borrow::Cow<[u8]>, bool)> = code
        .order
        .iter()
        .map(|&i| match kept[i].checked_sub(raw) {
            None => (Cow::Borrowed(&*tokens.phrases[kept[i]]), true),
            Some(_) => {
                let mut bits = Bits::default();
                entries
                    .spelling(kept[i] as u32)
                    .iter()
                    .for_each(|&p| bits.put(code_of(p)));
                (bits.finish().into(), false)
            }
        })
        .collect();
    let mut tables = vec![code.huff()];
    tables.extend(cdic_records(&stored));
    Compressed { tables, records }
}

/// Code lengths for the next parse, with the pairs that do not pay for
/// their entries left out (`None`), after a parse of every `step`-th
/// piece under `bits`. Each pair the text uses, and at most
/// [`MAX_INLINED_USES`] entries, saves where it is used the difference
/// between its parts' codes and its own, and costs its entry: its codes
/// and [`ENTRY_BITS`]; a pair that saves less is spelt by its parts, or
/// by other phrases the next parse finds, and the entries that used it
/// take in its parts ([`Entries`]). A pair this parse did not use is left
/// out too; every raw phrase keeps a length, so every piece can be spelt.
/// (Re-Pair's pruning, by the lengths a code gives: 2.5 to 3.7 KB less a
/// tic-tac-toe book, 1.1 to 1.3 KB a Towers of Hanoi one.)
fn pruned(
    tokens: &Tokens,
    trie: &Trie,
    grammar: &Grammar,
    bits: &[Option<u8>],
    step: usize,
    min_longest: u8,
) -> Vec<Option<u8>> {
    let raw = tokens.phrases.len();
    let parsed = parse_cheapest(tokens, trie, bits, step);
    let entries = Entries::new(grammar, &parsed);
    let real = bits_of(&entries.uses, min_longest);
    let longest = real.iter().flatten().copied().max().unwrap_or(1);
    let len = |p: u32| u64::from(real[p as usize].unwrap_or(longest));
    // The parse read one piece in `step`: the text uses each pair about
    // that many times as often.
    let (pieces, read) = (tokens.symbols.len() as u64, parsed.len().max(1) as u64);
    let mut next = real.clone();
    for (p, b) in next.iter_mut().enumerate().take(raw) {
        b.get_or_insert(longest.max(bits[p].unwrap_or(longest)));
    }
    for (p, b) in next.iter_mut().enumerate().skip(raw) {
        let (used, inside) = (entries.text[p], entries.uses[p] - entries.text[p]);
        if used == 0 || inside > MAX_INLINED_USES {
            continue;
        }
        let spelt: u64 = entries.spelling(p as u32).iter().map(|&c| len(c)).sum();
        let saved = (u64::from(used) * pieces / read + u64::from(inside))
            * spelt.saturating_sub(len(p as u32));
        if saved < ENTRY_BITS + spelt {
            *b = None;
        }
    }
    next
}

/// A reader of HUFF/CDIC records, as KindleUnpack, calibre and libmobi
/// read them; for the tests.
#[cfg(any(test, feature = "test-support"))]
pub struct Reader {
    table: Vec<(u8, bool, u64)>,
    min_code: Vec<u64>,
    max_code: Vec<u64>,
    phrases: Vec<(Vec<u8>, bool)>,
}

#[cfg(any(test, feature = "test-support"))]
fn be32(r: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(r.get(at..at + 4)?.try_into().ok()?))
}

#[cfg(any(test, feature = "test-support"))]
impl Reader {
    /// Reads the HUFF record and then the CDIC records.
    pub fn new(tables: &[&[u8]]) -> Option<Reader> {
        let (huff, cdics) = tables.split_first()?;
        if huff.get(..8)? != b"HUFF\0\0\0\x18" {
            return None;
        }
        let (off1, off2) = (be32(huff, 8)? as usize, be32(huff, 12)? as usize);
        let mut table = Vec::with_capacity(256);
        for i in 0..256 {
            let v = be32(huff, off1 + 4 * i)?;
            let len = (v & 0x1f) as u8;
            if len == 0 || (len <= 8 && v & 0x80 == 0) {
                return None;
            }
            let max = ((u64::from(v >> 8) + 1) << (32 - len)) - 1;
            table.push((len, v & 0x80 != 0, max));
        }
        let (mut min_code, mut max_code) = (vec![0], vec![u64::MAX]);
        for len in 1..=32 {
            let at = off2 + 8 * (len - 1);
            min_code.push(u64::from(be32(huff, at)?) << (32 - len));
            max_code.push(((u64::from(be32(huff, at + 4)?) + 1) << (32 - len)) - 1);
        }
        let mut phrases = Vec::new();
        for cdic in cdics {
            if cdic.get(..8)? != b"CDIC\0\0\0\x10" {
                return None;
            }
            let (total, bits) = (be32(cdic, 8)? as usize, be32(cdic, 12)?);
            let n = (1usize << bits).min(total.checked_sub(phrases.len())?);
            for i in 0..n {
                let at = 16
                    + usize::from(u16::from_be_bytes(
                        cdic.get(16 + 2 * i..18 + 2 * i)?.try_into().ok()?,
                    ));
                let len = u16::from_be_bytes(cdic.get(at..at + 2)?.try_into().ok()?);
                let bytes = cdic.get(at + 2..at + 2 + usize::from(len & 0x7fff))?;
                phrases.push((bytes.to_vec(), len & 0x8000 != 0));
            }
        }
        Some(Reader {
            table,
            min_code,
            max_code,
            phrases,
        })
    }

    /// Decodes one record, with the readers' loop: a 32-bit window, the
    /// top byte's entry, a walk up the lengths for long codes, and a stop
    /// once a code would run past the data.
    pub fn decode(&self, data: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        self.decode_into(data, 0, &mut out)?;
        Some(out)
    }

    /// Decodes `data` onto `out`, a phrase stored as codes in turn, at
    /// most [`MAX_DEPTH`] deep.
    fn decode_into(&self, data: &[u8], depth: u8, out: &mut Vec<u8>) -> Option<()> {
        let mut padded = data.to_vec();
        padded.extend_from_slice(&[0; 8]);
        let word = |pos: usize| u64::from_be_bytes(padded[pos..pos + 8].try_into().unwrap());
        let mut bits_left = 8 * data.len() as i64;
        let (mut pos, mut n) = (0, 32i64);
        let mut x = word(0);
        loop {
            if n <= 0 {
                pos += 4;
                x = word(pos);
                n += 32;
            }
            let code = (x >> n) & 0xffff_ffff;
            let (mut len, term, mut max) = self.table[(code >> 24) as usize];
            if !term {
                while code < self.min_code[usize::from(len)] {
                    len += 1;
                    if len > 32 {
                        return None;
                    }
                }
                max = self.max_code[usize::from(len)];
            }
            n -= i64::from(len);
            bits_left -= i64::from(len);
            if bits_left < 0 {
                return Some(());
            }
            let index = (max.checked_sub(code)? >> (32 - len)) as usize;
            let (bytes, whole) = self.phrases.get(index)?;
            if *whole {
                out.extend_from_slice(bytes);
            } else if depth < MAX_DEPTH {
                self.decode_into(bytes, depth + 1, out)?;
            } else {
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Two runs are equal exactly when their bytes are, at every length
    /// (those of one or two words and the longer ones, whose middle is
    /// compared a word at a time): one byte changed anywhere, or one
    /// byte more, tells them apart.
    #[test]
    fn runs_are_equal_exactly_when_their_bytes_are() {
        for len in 0..48 {
            let a: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(Run(&a) == Run(&a.clone()), "{len}");
            for at in 0..len {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(Run(&a) != Run(&b), "{len} at {at}");
            }
            let longer = [&a[..], b"z"].concat();
            assert!(Run(&a) != Run(&longer), "{len} and one more");
        }
    }

    /// Every number comes back as it was pushed, large ones and the
    /// escape's own value included, each piece on its own; and a symbol
    /// packs small and comes back.
    #[test]
    fn packed_pieces_read_back_as_pushed() {
        let pieces: Vec<Vec<u32>> = vec![
            vec![0, 1, 255, 256, 65_534, 65_535, 65_536, 1 << 20, u32::MAX, 7],
            vec![],
            vec![65_535, 65_535, 3],
            (0..70_000).step_by(97).collect(),
        ];
        let mut packed = Packed::default();
        for p in &pieces {
            packed.push(p.iter().copied());
        }
        assert_eq!(packed.len(), pieces.len());
        let back: Vec<Vec<u32>> = packed.iter().map(Iterator::collect).collect();
        assert_eq!(back, pieces);
        let taken: Vec<Vec<u32>> = packed.into_pieces().map(Iterator::collect).collect();
        assert_eq!(taken, pieces);
        for symbol in [BYTE, BYTE | 0x41, BYTE | 0xff, 0, 1, 65_000, 1 << 30] {
            assert_eq!(unpack_symbol(pack_symbol(symbol)), symbol);
        }
        assert!(pack_symbol(BYTE | 0xff) < 256 && pack_symbol(0) == 256);
    }

    /// A cutter that lets go of every piece's symbols but those read
    /// before the last parse (at once, or once it holds too many) and then
    /// reads the text again codes it as one that held them all; the raw
    /// phrases of the whole text are counted as if spelt one by one.
    #[test]
    fn a_text_read_again_codes_as_one_held_whole() {
        let text = links();
        let pieces: Vec<&[u8]> = text.chunks(128).collect();
        let n = pieces.len();
        assert!(!is_small(n));
        let whole = compress(&pieces);
        for most in [0, 5_000, usize::MAX] {
            let mut cutter = Cutter::holding(n, most);
            pieces.iter().for_each(|p| cutter.push_copied(p));
            let thinned = cutter.thinned;
            assert_eq!(thinned, most < usize::MAX);
            let kept = |i: usize, p: &[u16]| !p.is_empty() || (thinned && !read_early(i, n));
            assert!(
                cutter
                    .symbols
                    .pieces
                    .iter()
                    .enumerate()
                    .all(|(i, p)| kept(i, p))
            );
            if thinned {
                let held: usize = cutter.symbols.pieces.iter().map(|p| p.len()).sum();
                assert_eq!(cutter.symbols.held, held);
                assert!((0..n).filter(|&i| read_early(i, n)).count() < n / 4);
            }
            let mut reads = 0;
            let coded = compress_read(cutter, Limits::default(), &mut |each| {
                reads += 1;
                pieces.iter().for_each(|p| each(p));
            });
            assert_eq!(reads, usize::from(thinned));
            assert!(coded == whole, "coded alike, holding {most}");
        }
        let tokens = Tokens::cut(&pieces, 127);
        let spelt: usize = (tokens.pieces().flatten())
            .map(|s| tokens.phrases_of(s).len())
            .sum();
        assert_eq!(tokens.whole, spelt);
    }

    /// Padding is cut from the tags around it, and spelt as phrases of
    /// 1, 2, 4, ... spaces, the longest first.
    #[test]
    fn padding_is_its_own_piece_spelt_in_powers_of_two() {
        let pad = [b' '; 54];
        let run = [b"</div>".as_slice(), &pad, b"<mbp:pagebreak/> <p>"].concat();
        let cut: Vec<&[u8]> = tags(&run, false).collect();
        assert_eq!(cut, [&b"</div>"[..], &pad, b"<mbp:pagebreak/> ", b"<p>"]);
        let parts: Vec<usize> = padding_parts(&pad).map(<[u8]>::len).collect();
        assert_eq!(parts, [32, 16, 4, 2]);
    }

    /// Links as a KF8 text has them, a screen's worth at a time.
    fn links() -> Vec<u8> {
        let mut text = Vec::new();
        for i in 0..3000u32 {
            let screen = format!(
                "</a><a href=\"kindle:pos:fid:00{}{}:off:000000{:04}\"><img alt=\"x\"/>",
                char::from(b'A' + (i % 7) as u8),
                i % 5,
                i * 37 % 9000
            );
            text.extend_from_slice(screen.as_bytes());
        }
        text
    }

    /// The links learnt, and parsed by the longest match first, for
    /// `check`.
    fn with_links(check: impl FnOnce(&Tokens, &Grammar, &Trie, &Packed)) {
        let text = links();
        let pieces: Vec<&[u8]> = text.chunks(4096).collect();
        let tokens = Tokens::cut(&pieces, 127);
        let grammar = Grammar::learn(&tokens);
        let trie = Trie::new(&grammar);
        let longest = parse_longest(&tokens, &trie);
        check(&tokens, &grammar, &trie, &longest);
    }

    /// One Aho–Corasick pass from a piece's end finds, at every place,
    /// each pair that spells what follows it, longest first: what looking
    /// up every run of raw phrases from there among the pairs' spellings
    /// finds (the first pair made, of two that spell the same).
    #[test]
    fn one_pass_finds_every_pair_that_starts_at_each_place() {
        with_links(|tokens, grammar, trie, _| {
            let mut spellings: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
            let mut raw = Vec::new();
            for p in grammar.raw..grammar.raw + grammar.pairs.len() as u32 {
                raw.clear();
                grammar.expand(p, &mut raw);
                spellings.entry(raw.clone()).or_insert(p);
            }
            let longest = spellings.keys().map(Vec::len).max().unwrap();
            let (mut s, mut total) = (Vec::new(), 0);
            for symbols in tokens.pieces() {
                tokens.spell(symbols, &mut s);
                let mut looked_up = Vec::new();
                for at in 0..s.len() {
                    for len in (2..=longest.min(s.len() - at)).rev() {
                        if let Some(&p) = spellings.get(&s[at..at + len]) {
                            looked_up.push((at, p, len));
                        }
                    }
                }
                let mut passed = Vec::new();
                let mut node = Trie::NONE;
                for at in (0..s.len()).rev() {
                    node = trie.step(node, s[at]);
                    let here: Vec<_> = trie.spelt(node).map(|(p, len)| (at, p, len)).collect();
                    passed.splice(0..0, here);
                }
                assert_eq!(passed, looked_up);
                total += looked_up.len();
            }
            assert!(total > 10_000, "{total} matches");
        });
    }

    /// What the cheapest parse weighs at a node is the node's pairs
    /// ([`Trie::spelt`]) that have a code, in the same order, each with
    /// its code's length, and it steps from a node as the trie does;
    /// pruning leaves some pairs without a code.
    #[test]
    fn a_nodes_coded_pairs_are_its_pairs_with_a_code() {
        with_links(|tokens, grammar, trie, _| {
            let guess = guessed(grammar, 16);
            let bits = pruned(tokens, trie, grammar, &guess, 1, 16);
            let coded = trie.coded(&bits);
            let mut left_out = 0;
            for node in 0..trie.nodes.len() as u32 {
                let weighed: Vec<_> = coded
                    .pairs(node)
                    .iter()
                    .map(|pair| (pair.phrase, pair.len as usize, Some(pair.bits)))
                    .collect();
                let all: Vec<_> = trie
                    .spelt(node)
                    .map(|(p, len)| (p, len, bits[p as usize]))
                    .collect();
                left_out += all.len() - weighed.len();
                let with_code: Vec<_> = all.into_iter().filter(|p| p.2.is_some()).collect();
                assert_eq!(weighed, with_code, "node {node}");
            }
            // And it steps as the trie does, from every node and the root.
            for node in (0..trie.nodes.len() as u32).chain([Trie::NONE]) {
                for r in 0..grammar.raw {
                    assert_eq!(coded.step(node, r), trie.step(node, r), "{node} by {r}");
                }
            }
            assert!(left_out > 0);
        });
    }

    /// A pair that the text never codes and few pairs use has no entry:
    /// the pairs using it are stored as more than two codes, every code in
    /// an entry is a raw phrase or a pair with an entry, and every phrase
    /// the text codes has one.
    #[test]
    fn pairs_used_only_inside_few_others_have_no_entry() {
        with_links(|_, grammar, _, parsed| {
            pairs_have_entries_as_needed(grammar, parsed);
        });
    }

    fn pairs_have_entries_as_needed(grammar: &Grammar, parsed: &Packed) {
        let entries = Entries::new(grammar, parsed);
        let raw = grammar.raw as usize;
        let entry = |p: usize| p < raw || !entries.spelling(p as u32).is_empty();
        for p in parsed.iter().flatten() {
            assert!(entry(p as usize));
        }
        let mut longer = 0;
        for p in raw..entries.spelt.len() {
            let codes = entries.spelling(p as u32);
            assert!(codes.len() <= MAX_ENTRY_CODES);
            assert!(codes.iter().all(|&c| entry(c as usize)));
            longer += usize::from(codes.len() > 2);
        }
        assert!(longer > 0);
    }

    /// The cheapest parse spells what the longest match spells, in no
    /// more bits under the same code lengths, and in fewer on markup where
    /// a long phrase ends just before a frequent pair.
    #[test]
    fn the_cheapest_parse_spells_the_same_in_fewer_bits() {
        with_links(cheapest_beats_longest);
    }

    fn cheapest_beats_longest(tokens: &Tokens, grammar: &Grammar, trie: &Trie, longest: &Packed) {
        let bits = bits_of(&uses(longest.iter().flatten(), grammar), 16);
        let cheapest = parse_cheapest(tokens, trie, &bits, 1);
        let cost = |parsed: &Packed| -> u64 {
            parsed
                .iter()
                .flatten()
                .map(|p| u64::from(bits[p as usize].expect("a coded phrase")))
                .sum()
        };
        let raw = |parsed: &Packed| -> Vec<Vec<u32>> {
            parsed
                .iter()
                .map(|piece| {
                    let mut out = Vec::new();
                    piece.for_each(|p| grammar.expand(p, &mut out));
                    out
                })
                .collect()
        };
        assert_eq!(raw(&cheapest), raw(longest));
        assert!(cost(&cheapest) < cost(longest));
    }

    /// Pruning leaves out pairs the parse used that do not pay for their
    /// entries, and the text it codes, dictionary and all, is smaller and
    /// reads back whole.
    #[test]
    fn pairs_that_do_not_pay_for_their_entries_are_pruned() {
        let text = links();
        let pieces: Vec<&[u8]> = text.chunks(4096).collect();
        let tokens = Tokens::cut(&pieces, 127);
        let grammar = Grammar::learn(&tokens);
        let trie = Trie::new(&grammar);
        let guess = guessed(&grammar, 16);
        let used = uses(
            parse_cheapest(&tokens, &trie, &guess, 1).iter().flatten(),
            &grammar,
        );
        let pruned = pruned(&tokens, &trie, &grammar, &guess, 1, 16);
        let left_out = (grammar.raw as usize..used.len())
            .filter(|&p| used[p] > 0 && pruned[p].is_none())
            .count();
        assert!(left_out > 0);
        assert!((0..grammar.raw as usize).all(|p| pruned[p].is_some()));
        let before = coded(
            Tokens::cut(&pieces, 127),
            &grammar,
            &trie,
            &guess,
            16,
            &mut |_| {},
        );
        let after = coded(tokens, &grammar, &trie, &pruned, 16, &mut |_| {});
        assert!(
            after.len() < before.len(),
            "{} vs {}",
            after.len(),
            before.len()
        );
        let tables: Vec<&[u8]> = after.tables.iter().map(Vec::as_slice).collect();
        let reader = Reader::new(&tables).expect("tables read back");
        for (piece, rec) in pieces.iter().zip(&after.records) {
            assert_eq!(reader.decode(rec).as_deref(), Some(*piece));
        }
    }

    fn round_trip(pieces: &[&[u8]]) -> Compressed {
        let c = compress(pieces);
        let tables: Vec<&[u8]> = c.tables.iter().map(Vec::as_slice).collect();
        let reader = Reader::new(&tables).expect("tables read back");
        for (piece, rec) in pieces.iter().zip(&c.records) {
            assert_eq!(reader.decode(rec).as_deref(), Some(*piece));
        }
        c
    }

    #[test]
    fn the_first_digit_is_found_as_a_plain_scan_finds_it() {
        // Every byte value, at every place in a word and past the words,
        // behind bytes that are not digits (every other value among them).
        let others: Vec<u8> = (0..=255u8).filter(|b| !b.is_ascii_digit()).collect();
        for len in 0..20 {
            for at in 0..=len {
                for b in 0..=255u8 {
                    let mut s: Vec<u8> = (0..len)
                        .map(|i| others[(i * 37 + b as usize) % others.len()])
                        .collect();
                    if at < len {
                        s[at] = b;
                    }
                    let plain = s.iter().position(u8::is_ascii_digit);
                    assert_eq!(first_digit(&s), plain, "{s:?}");
                }
            }
        }
    }

    proptest! {
        #[test]
        fn the_first_digit_of_any_bytes(s in proptest::collection::vec(any::<u8>(), 0..64)) {
            prop_assert_eq!(first_digit(&s), s.iter().position(u8::is_ascii_digit));
        }
    }

    #[test]
    fn book_like_markup_round_trips_and_beats_palmdoc() {
        let mut text = Vec::new();
        for i in 0..3000u32 {
            text.extend_from_slice(
                format!(
                    "<mbp:pagebreak/><div><a filepos={:07}><img recindex=1></a><img recindex=2>\
                     <br><a filepos={:07}><img recindex=1></a><br>O to move</div>",
                    i * 353 % 999_983,
                    i * 7919 % 999_983
                )
                .as_bytes(),
            );
        }
        let pieces: Vec<&[u8]> = text.chunks(4096).collect();
        let c = round_trip(&pieces);
        let palmdoc: usize = pieces
            .iter()
            .map(|p| super::super::palmdoc::compress(p).len())
            .sum();
        assert!(c.len() * 2 < palmdoc, "{} vs {palmdoc}", c.len());
    }

    /// Pairs nest at most `MAX_DEPTH` deep, and the grammar goes that deep
    /// when a text asks for more: "1a" over and over pairs into pairs of
    /// pairs, eleven deep; the reader, which refuses deeper phrases,
    /// reads it whole.
    #[test]
    fn pairs_nest_at_most_max_depth_and_read_back() {
        let text = b"1a".repeat(2048 * 8);
        let pieces: Vec<&[u8]> = text.chunks(4096).collect();
        let tokens = Tokens::cut(&pieces, 127);
        let grammar = Grammar::learn(&tokens);
        fn depth(g: &Grammar, p: u32) -> u8 {
            p.checked_sub(g.raw).map_or(0, |i| {
                let [a, b] = g.pairs[i as usize];
                depth(g, a).max(depth(g, b)) + 1
            })
        }
        let deepest = (0..grammar.pairs.len() as u32)
            .map(|i| depth(&grammar, grammar.raw + i))
            .max();
        assert_eq!(deepest, Some(MAX_DEPTH));
        let c = round_trip(&pieces);
        // Each piece is a few codes, not 4,096 bytes' worth.
        assert!(c.records.iter().all(|r| r.len() < 16), "{:?}", c.records);
    }

    #[test]
    fn tiny_and_odd_texts_round_trip() {
        round_trip(&[b"a"]);
        round_trip(&[b"aaaaaaa"]);
        round_trip(&[b"12", b"<p>x</p><p>x</p>"]);
        round_trip(&["caf\u{e9} \u{2014} na\u{ef}ve".as_bytes()]);
        let all: Vec<u8> = (0..=255).collect();
        round_trip(&[&all, &all[..17]]);
    }

    #[test]
    fn long_codes_are_limited_and_tables_are_consistent() {
        // Fibonacci counts make the deepest possible Huffman tree.
        let mut counts = vec![1u32, 1];
        while counts.len() < 40 {
            let n = counts.len();
            counts.push(counts[n - 1].saturating_add(counts[n - 2]));
        }
        let lens = lengths(&counts, 16);
        assert!(lens.iter().all(|&l| (1..=MAX_LEN).contains(&l)));
        let kraft: f64 = lens.iter().map(|&l| 0.5f64.powi(i32::from(l))).sum();
        assert!(kraft <= 1.0 + 1e-12);
    }

    proptest! {
        #[test]
        fn any_text_round_trips(text in proptest::collection::vec(
            prop_oneof![Just(b'<'), Just(b'a'), Just(b'>'), Just(b'7'), Just(b'0'), any::<u8>()],
            1..9000,
        )) {
            let pieces: Vec<&[u8]> = text.chunks(4096).collect();
            round_trip(&pieces);
        }
    }
}
