//! Kindle Format 8, the part of a MOBI that every Kindle since 2011 reads:
//! the EPUB's pages and stylesheet as flows of text, found by a skeleton
//! and a fragment index, with `kindle:pos:fid:` links, `kindle:embed:`
//! images, a guide and an NCX. [`super::mobi`] writes it after the MOBI 6
//! part, behind a boundary record, the images shared, as kindlegen does.
//!
//! Layout after kindlegen's output (compared with `calibre-debug
//! --inspect-mobi`), calibre's `writer8` and KindleUnpack's
//! `mobi_k8proc.py` (see `shared/notes/ebook-formats.md`):
//! - flow 0 holds each content file as a skeleton (the page with an empty
//!   `<body>`) followed by its fragments, runs of whole screens of at most
//!   [`FRAGMENT_BYTES`] that a reader inserts, in order, before `</body>`;
//! - flow 1 is the stylesheet, which each page links as `kindle:flow:0001`.
//!
//! Invariant: the same screens as the EPUB, in the same files (each
//! screen's id its count in its file, unique there, not the EPUB's
//! anchor), and the text is ASCII (any other character as a numeric
//! character reference), so no character is split across text records;
//! every link is
//! `kindle:pos:fid:<fragment>:off:<offset>`, where the fragment's
//! insert position plus the offset is the `<` of its target's element.

use std::cell::RefCell;
use std::ops::Range;

use rustc_hash::FxHashMap;

use super::indx::{self, Cncx, Entry, Tag};
use super::xhtml::{MODIFIED, Sizes, board, board_len_with, css, front_body, page};
use super::{Book, TooLarge};
use crate::markup::PlainRows;
use crate::screen::{Edition, Screen, Target};

/// Where a screen starts in its fragment when a book rounds them
/// ([`super::rounds_screens`]): at a multiple of 64, so every
/// link's `off:` ends in an even digit and a `0`.
const ROUND: usize = 64;

/// The most bytes of screens in one fragment (about kindlegen's size).
pub const FRAGMENT_BYTES: usize = 8192;

/// A link before its fragment and offset are known: as long as every
/// filled-in link, so filling in moves nothing.
const PLACEHOLDER: &str = "kindle:pos:fid:0000:off:0000000000";

/// Where a link's fragment's digits lie in it: after `kindle:pos:fid:`.
const FID_DIGITS: std::ops::Range<usize> = 15..19;

/// Where a link's offset's digits lie in it: after the fragment and `:off:`.
const OFF_DIGITS: std::ops::Range<usize> = 24..PLACEHOLDER.len();

/// The stylesheet, as each page links it.
const CSS_FLOW: &str = "kindle:flow:0001?mime=text/css";

/// What ends every skeleton; fragments go in before it.
const BODY_END: &str = "</body></html>";

/// Kindle's base 32 digits.
const BASE32: &[u8; 32] = b"0123456789ABCDEFGHIJKLMNOPQRSTUV";

/// `n` in base 32 (digits 0-9, A-V), at least `width` digits (at most
/// 16), on the stack: a book writes one for every screen.
pub fn base32(mut n: usize, width: usize) -> Base32 {
    let mut digits = [b'0'; 16];
    let mut from = digits.len();
    while n > 0 || digits.len() - from < width {
        from -= 1;
        digits[from] = BASE32[n % 32];
        n /= 32;
    }
    Base32 { digits, from }
}

/// A number in base 32, as [`base32`] writes it: its digits are
/// `digits[from..]`.
pub struct Base32 {
    digits: [u8; 16],
    from: usize,
}

impl std::ops::Deref for Base32 {
    type Target = str;

    fn deref(&self) -> &str {
        std::str::from_utf8(&self.digits[self.from..]).expect("ASCII digits")
    }
}

impl std::fmt::Display for Base32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

/// `n` in base 32 into all of `digits`, which must hold it.
fn put_base32(digits: &mut [u8], mut n: usize) {
    for d in digits.iter_mut().rev() {
        *d = BASE32[n % 32];
        n /= 32;
    }
    assert_eq!(n, 0, "a number that fits its digits");
}

/// An image's address: its 1-based number among the book's resources.
pub fn embed(resource: usize) -> String {
    format!("kindle:embed:{}?mime=image/gif", base32(resource + 1, 4))
}

/// One content file: where its skeleton starts in flow 0, its length, and
/// its fragments (rows of [`Part::fragments`]).
#[derive(Clone, Debug)]
struct Skeleton {
    start: usize,
    len: usize,
    fragments: Range<usize>,
}

/// A run of screens: where it goes in the whole page (its insert
/// position, counted in flow 0 as the reader puts the page together), its
/// file, where it starts after its skeleton, and its length.
#[derive(Clone, Debug)]
struct Fragment {
    insert: usize,
    file: usize,
    start: usize,
    len: usize,
}

/// The KF8 part of a book, before it is cut into records: where its
/// text puts everything, not the text itself, which [`Part::render`]
/// writes as it goes.
pub struct Part {
    /// The length of flow 0 (the pages); after it come flow 1 (the
    /// stylesheet) and then each square's SVG: a Kindle draws an SVG flow
    /// as sharp as the page is large, as kindlegen's book of an EPUB with
    /// SVG squares has them.
    pub flow0: usize,
    /// Where each flow after flow 0 ends.
    flows: Vec<usize>,
    skeletons: Vec<Skeleton>,
    fragments: Vec<Fragment>,
    /// Where each target lands: its fragment and its offset there.
    placed: FxHashMap<Target, (usize, usize)>,
    /// The contents: each line and its target's fragment and offset.
    ncx: Vec<(String, usize, usize)>,
}

/// Bytes of text gathered before they are handed on.
const PIECE: usize = 1 << 13;

/// The text from `start` on in ASCII: any other character as a numeric
/// character reference. Its `links` (offsets in the whole text) are
/// placeholders, so they are found again by their text.
fn ascii(text: &mut String, start: usize, links: &mut [(usize, Target)]) {
    if text[start..].is_ascii() {
        return;
    }
    let mut out = String::with_capacity(text.len() - start + 64);
    crate::markup::push_ascii(&mut out, &text[start..]);
    let found: Vec<usize> = out.match_indices(PLACEHOLDER).map(|(at, _)| at).collect();
    assert_eq!(found.len(), links.len(), "text never holds a link's text");
    for (link, at) in links.iter_mut().zip(found) {
        link.0 = start + at;
    }
    text.truncate(start);
    text.push_str(&out);
}

/// Renders a screen or the opening page onto the end of `text` with
/// `write`, which is given the link writer, in ASCII; each link goes
/// into `links` as its offset in `text` and its target, its text a
/// placeholder still to fill in.
fn unit(
    text: &mut String,
    links: &mut Vec<(usize, Target)>,
    write: impl FnOnce(&mut String, &dyn Fn(&mut String, Target)),
) {
    let (start, first) = (text.len(), links.len());
    let found = RefCell::new(std::mem::take(links));
    let href = |out: &mut String, t: Target| {
        found.borrow_mut().push((out.len(), t));
        out.push_str(PLACEHOLDER);
    };
    write(text, &href);
    *links = found.into_inner();
    ascii(text, start, &mut links[first..]);
}

/// The KF8 part of `book`, whose resources are `images` (names, in
/// record order): its text laid out once, without keeping it, to place
/// every fragment and link target.
pub fn part(book: &Book, images: &[&str]) -> Part {
    let (skeletons, fragments, placed, flow0) = flow0(book, images, None, &mut |_| {});
    let edition = book.edition;
    let mut end = flow0 + css(edition).len();
    let mut flows = vec![end];
    for name in edition.used_images() {
        end += super::xhtml::svg(book, name).len();
        flows.push(end);
    }
    let ncx = std::iter::once(("Rules and contents", Target::Contents))
        .chain(edition.contents.iter().map(|(l, t)| (l.as_str(), *t)))
        .map(|(label, t)| {
            let (row, off) = placed[&t];
            (label.to_string(), row, off)
        })
        .collect();
    Part {
        flow0,
        flows,
        skeletons,
        fragments,
        placed,
        ncx,
    }
}

/// Skeletons, fragments, where each target lands, and flow 0's length.
type Laid = (
    Vec<Skeleton>,
    Vec<Fragment>,
    FxHashMap<Target, (usize, usize)>,
    usize,
);

/// Flow 0 of `book` (each content file's skeleton and its fragments),
/// written into `out` a few screens at a time, each link written as it
/// goes from where `known` places its target. Without `known`, the
/// targets are still to be placed: each screen is sized, not written, and
/// `out` gets only the skeletons and the opening page. Returns where
/// everything lands.
fn flow0(
    book: &Book,
    images: &[&str],
    known: Option<&FxHashMap<Target, (usize, usize)>>,
    out: &mut dyn FnMut(&[u8]),
) -> Laid {
    let layout = book.layout();
    let book = book.edition;
    let resource = |name: &str| images.iter().position(|n| *n == name).map(embed);
    let srcs = flow_srcs(book);
    let cover = resource(book.cover()).expect("a cover");
    let sizes = sizes(&srcs);
    // The rows without a link sized, and those written.
    let (mut sized, mut written) = (PlainRows::default(), PlainRows::default());
    let round = match super::rounds_screens(book) {
        true => ROUND,
        false => 1,
    };
    // The opening page (no screen), then each file of boards.
    let screens = |file: usize| -> &[Screen] {
        match file.checked_sub(1) {
            None => &[],
            Some(chunk) => &book.screens[layout.chunks[chunk].clone()],
        }
    };
    // Each screen is rendered straight into the text, which is handed on
    // a few screens at a time: `base` bytes are gone before `text` (or,
    // laying out, only sized).
    let mut text = String::with_capacity(2 * PIECE);
    let mut base = 0;
    let mut skeletons = Vec::new();
    let mut fragments: Vec<Fragment> = Vec::new();
    let mut placed: FxHashMap<Target, (usize, usize)> = FxHashMap::default();
    let mut links: Vec<(usize, Target)> = Vec::new();
    for file in 0..=layout.chunks.len() {
        let skeleton = page(&book.title, CSS_FLOW, &format!(" aid=\"{file}\""), "");
        let start = base + text.len();
        text.push_str(&skeleton);
        let insert_at = start + skeleton.len() - BODY_END.len();
        let first = fragments.len();
        let mut after = 0; // bytes of fragments after the skeleton
        let units = (file == 0)
            .then_some(None)
            .into_iter()
            .chain(screens(file).iter().map(Some));
        // The screens' ids, counted in base 32 from 0 in each file: a link
        // lands by its fragment and offset, and a reader that turns the
        // part back into pages (KindleUnpack, calibre) names the target
        // by the id it lands on, which needs only to be the file's own.
        // The screen's anchor would cost about 20 bits a screen more.
        let mut ids = 0;
        for screen in units {
            let target = screen.map_or(Target::Contents, |b| b.target);
            let len = match (known, screen) {
                // Laying out, a screen is only sized: it would be written
                // only to be thrown away.
                (None, Some(b)) => {
                    let len = board_len_with(b, base32(ids, 1).len(), &sizes, &mut sized);
                    ids += 1;
                    let len = len + (round - len % round) % round;
                    base += len;
                    len
                }
                _ => {
                    let at = text.len();
                    unit(&mut text, &mut links, |out, href| match screen {
                        None => front_body(out, book, &cover, &href),
                        Some(b) => {
                            board(out, &base32(ids, 1), &srcs, b, &href, &mut written);
                            ids += 1;
                        }
                    });
                    // Each link's fragment and offset, in place of the
                    // placeholder's zeros, once the targets are placed.
                    if let Some(known) = known {
                        for (at, target) in links.drain(..) {
                            let (row, off) = known[&target];
                            fill_base32(&mut text, at + FID_DIGITS.start..at + FID_DIGITS.end, row);
                            fill_base32(&mut text, at + OFF_DIGITS.start..at + OFF_DIGITS.end, off);
                        }
                    }
                    links.clear();
                    // Spaces after a screen, so the next starts at a round
                    // offset in its fragment.
                    let pad = (round - (text.len() - at) % round) % round;
                    text.extend(std::iter::repeat_n(' ', pad));
                    text.len() - at
                }
            };
            place(
                &mut fragments,
                &mut placed,
                (file, insert_at),
                target,
                len,
                after,
            );
            after += len;
            if text.len() >= PIECE {
                out(text.as_bytes());
                base += text.len();
                text.clear();
            }
        }
        skeletons.push(Skeleton {
            start,
            len: skeleton.len(),
            fragments: first..fragments.len(),
        });
    }
    out(text.as_bytes());
    let len = base + text.len();
    (skeletons, fragments, placed, len)
}

/// How flow 0's screens are sized while it is laid out: each link a
/// placeholder, each text in ASCII.
fn sizes(srcs: &[String]) -> Sizes<'_> {
    Sizes {
        srcs,
        link: &placeholder_len,
        text: crate::markup::ascii_escaped_len,
    }
}

/// The length of a link's address while the targets are still to be
/// placed: the placeholder's.
fn placeholder_len(_: Target) -> usize {
    PLACEHOLDER.len()
}

/// Each of the edition's images' `src`: the squares are SVG flows after
/// the stylesheet (flow 1), in the order the screens use them.
fn flow_srcs(book: &Edition) -> Vec<String> {
    let svgs = book.used_images();
    (book.images.iter())
        .map(|n| {
            svgs.iter()
                .position(|u| u == n)
                .map(|i| format!("kindle:flow:{}?mime=image/svg+xml", base32(i + 2, 4)))
                .unwrap_or_default()
        })
        .collect()
}

/// Places a unit of `len` bytes at `target`, `after` bytes into the
/// fragments of `file` (whose skeleton takes them in at `insert_at`): at
/// the end of the last fragment, or of a new one if it is another file's
/// or would grow past [`FRAGMENT_BYTES`].
fn place(
    fragments: &mut Vec<Fragment>,
    placed: &mut FxHashMap<Target, (usize, usize)>,
    (file, insert_at): (usize, usize),
    target: Target,
    len: usize,
    after: usize,
) {
    let open = fragments
        .last()
        .is_some_and(|f| f.file == file && f.len > 0 && f.len + len <= FRAGMENT_BYTES);
    if !open {
        fragments.push(Fragment {
            insert: insert_at + after,
            file,
            start: after,
            len: 0,
        });
    }
    let row = fragments.len() - 1;
    let f = fragments.last_mut().expect("a fragment");
    placed.insert(target, (row, f.len));
    f.len += len;
}

/// `n` in base 32 in place of the digits of `text` at `at`, which must
/// hold it: every link of a book, filled in.
fn fill_base32(text: &mut String, at: Range<usize>, n: usize) {
    let mut digits = [0u8; 16];
    let digits = &mut digits[..at.len()];
    put_base32(digits, n);
    text.replace_range(at, std::str::from_utf8(digits).expect("ASCII digits"));
}

impl Part {
    /// The length of the text [`Part::render`] writes: every flow.
    pub fn text_len(&self) -> usize {
        *self.flows.last().expect("the stylesheet's flow at least")
    }

    /// Writes the part's text into `out`, a few screens at a time: flow 0
    /// as [`part`] laid it out, each link written as it goes, then the
    /// stylesheet and each square's SVG. `book` and `images` are the ones
    /// the part was made of.
    pub fn render(&self, book: &Book, images: &[&str], out: &mut dyn FnMut(&[u8])) {
        let (.., len) = flow0(book, images, Some(&self.placed), out);
        assert_eq!(len, self.flow0, "the text laid out again is as long");
        out(css(book.edition).as_bytes());
        for name in book.edition.used_images() {
            out(&super::xhtml::svg(book, name));
        }
    }

    /// The part's whole text, held: for the tests.
    #[cfg(any(test, feature = "test-support"))]
    pub fn text(&self, book: &Book, images: &[&str]) -> Vec<u8> {
        let mut text = Vec::new();
        self.render(book, images, &mut |piece| text.extend_from_slice(piece));
        text
    }

    /// Where reading starts: the opening page, in the whole text.
    pub fn reading_starts(&self) -> usize {
        self.fragments[0].insert
    }

    /// A fragment and offset as a place in the whole text.
    fn position(&self, row: usize, off: usize) -> usize {
        self.fragments[row].insert + off
    }

    /// The RESC record, a resource kindlegen writes after the images: the
    /// package's metadata and spine, each page by its skeleton. KindleUnpack
    /// takes an EPUB 3 package from it (the `property` of a `<meta>`).
    pub fn resc(&self) -> Vec<u8> {
        let mut xml = format!(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\" \
xmlns=\"http://www.idpf.org/2007/opf\"><meta property=\"dcterms:modified\">{MODIFIED}</meta></metadata><spine>"
        );
        for i in 0..self.skeletons.len() {
            let id = if i == 0 {
                "front".to_string()
            } else {
                format!("b{i}")
            };
            xml += &format!("<itemref idref=\"{id}\" skelid=\"{i}\"/>");
        }
        xml += "</spine>";
        let params = format!("size={}&version=1&type=1", base32(xml.len(), 1));
        let mut r = b"RESC".to_vec();
        for v in [16, 1, params.len()] {
            r.extend_from_slice(&(v as u32).to_be_bytes());
        }
        r.extend_from_slice(params.as_bytes());
        r.extend_from_slice(xml.as_bytes());
        r.resize(r.len().next_multiple_of(4), 0);
        r
    }

    /// How many flows the FDST lists: the pages, the stylesheet and the
    /// SVGs.
    pub fn flow_count(&self) -> usize {
        1 + self.flows.len()
    }

    /// The FDST record: where each flow starts and ends.
    pub fn fdst(&self) -> Vec<u8> {
        let mut r = b"FDST".to_vec();
        let mut start = 0;
        let bounds = std::iter::once(self.flow0).chain(self.flows.iter().copied());
        let mut put = |v: usize| r.extend_from_slice(&(v as u32).to_be_bytes());
        put(12);
        put(self.flow_count());
        for end in bounds {
            put(start);
            put(end);
            start = end;
        }
        r
    }

    /// The fragment index's records.
    pub fn fragment_index(&self) -> Result<Vec<Vec<u8>>, TooLarge> {
        const TAGS: [Tag; 4] = [
            Tag {
                number: 2,
                per_group: 1,
                mask: 1,
            }, // selector (CNCX)
            Tag {
                number: 3,
                per_group: 1,
                mask: 2,
            }, // file
            Tag {
                number: 4,
                per_group: 1,
                mask: 4,
            }, // sequence number
            Tag {
                number: 6,
                per_group: 2,
                mask: 8,
            }, // start, length
        ];
        let mut cncx = Cncx::default();
        let entries: Vec<Entry> = self
            .fragments
            .iter()
            .enumerate()
            .map(|(row, f)| Entry {
                key: format!("{:010}", f.insert).into_bytes(),
                values: vec![
                    vec![cncx.offset(&format!("P-//*[@aid='{}']", f.file))],
                    vec![f.file as u32],
                    vec![row as u32],
                    vec![f.start as u32, f.len as u32],
                ],
            })
            .collect();
        indx::write(&TAGS, &entries, cncx)
    }

    /// The skeleton index's records.
    pub fn skeleton_index(&self) -> Result<Vec<Vec<u8>>, TooLarge> {
        const TAGS: [Tag; 2] = [
            Tag {
                number: 1,
                per_group: 1,
                mask: 3,
            }, // fragments, twice
            Tag {
                number: 6,
                per_group: 2,
                mask: 12,
            }, // start, length, twice
        ];
        let entries: Vec<Entry> = self
            .skeletons
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let n = s.fragments.len() as u32;
                let (start, len) = (s.start as u32, s.len as u32);
                Entry {
                    key: format!("SKEL{i:010}").into_bytes(),
                    values: vec![vec![n, n], vec![start, len, start, len]],
                }
            })
            .collect();
        indx::write(&TAGS, &entries, Cncx::default())
    }

    /// The guide index's records: where reading starts.
    pub fn guide_index(&self) -> Result<Vec<Vec<u8>>, TooLarge> {
        const TAGS: [Tag; 2] = [
            Tag {
                number: 1,
                per_group: 1,
                mask: 1,
            }, // title (CNCX)
            Tag {
                number: 6,
                per_group: 2,
                mask: 2,
            }, // fragment, offset
        ];
        let mut cncx = Cncx::default();
        let entry = Entry {
            key: b"text".to_vec(),
            values: vec![vec![cncx.offset("Start")], vec![0, 0]],
        };
        indx::write(&TAGS, &[entry], cncx)
    }

    /// The part of flow 0 each line of the contents covers, in the NCX's
    /// order: from its target up to the next line's target, or the end of
    /// flow 0 after the last.
    pub fn ncx_spans(&self) -> Vec<Range<usize>> {
        let starts: Vec<usize> = self
            .ncx
            .iter()
            .map(|(_, row, off)| self.position(*row, *off))
            .collect();
        starts
            .iter()
            .map(|&start| {
                let end = starts
                    .iter()
                    .copied()
                    .filter(|s| *s > start)
                    .min()
                    .unwrap_or(self.flow0);
                start..end
            })
            .collect()
    }

    /// The NCX index's records: the contents, flat.
    pub fn ncx_index(&self) -> Result<Vec<Vec<u8>>, TooLarge> {
        const TAGS: [Tag; 5] = [
            Tag {
                number: 1,
                per_group: 1,
                mask: 1,
            }, // position
            Tag {
                number: 2,
                per_group: 1,
                mask: 2,
            }, // length
            Tag {
                number: 3,
                per_group: 1,
                mask: 4,
            }, // label (CNCX)
            Tag {
                number: 4,
                per_group: 1,
                mask: 8,
            }, // depth
            Tag {
                number: 6,
                per_group: 2,
                mask: 16,
            }, // fragment, offset
        ];
        let spans = self.ncx_spans();
        let width = format!("{:X}", self.ncx.len().saturating_sub(1))
            .len()
            .max(2);
        let mut cncx = Cncx::default();
        let entries: Vec<Entry> = self
            .ncx
            .iter()
            .zip(&spans)
            .enumerate()
            .map(|(i, ((label, row, off), span))| Entry {
                key: format!("{i:0width$X}").into_bytes(),
                values: vec![
                    vec![span.start as u32],
                    vec![span.len() as u32],
                    vec![cncx.offset(label)],
                    vec![0],
                    vec![*row as u32, *off as u32],
                ],
            })
            .collect();
        indx::write(&TAGS, &entries, cncx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hanoi::{self, Hanoi};
    use crate::solver::Solver;

    /// The images `book` shows, its cover last, and `static/` read.
    fn images_of(book: &crate::screen::Edition) -> (Vec<&'static str>, crate::assets::Assets) {
        let mut names = book.used_images().to_vec();
        names.push(book.cover());
        let static_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
        let assets = crate::assets::Assets::load(&static_dir, &crate::site::images()).unwrap();
        (names, assets)
    }

    /// Laid out, a screen is sized, not written: for every screen of
    /// every edition's book, its size is the length [`unit`] writes of it
    /// (in ASCII, each link a placeholder).
    #[test]
    fn a_screen_is_sized_as_long_as_it_is_written() {
        let mut checked = 0;
        for edition in crate::site::Solved::defaults(3).editions() {
            let book = edition.for_books();
            let srcs = flow_srcs(&book);
            let sizes = sizes(&srcs);
            let (mut sized, mut written) = (PlainRows::default(), PlainRows::default());
            // Each screen, and the first again with words that are not
            // ASCII, which the text gives as references (`&#8722;`).
            let mut other = book.screens[0].clone();
            other.heading = "2\u{207f} \u{2212} 1 & <\u{e9}>".to_string();
            for (i, b) in book.screens.iter().chain([&other]).enumerate() {
                let (mut text, mut links) = (String::new(), Vec::new());
                let id = base32(i % 2000, 1);
                unit(&mut text, &mut links, |out, href| {
                    board(out, &id, &srcs, b, &href, &mut written)
                });
                let len = board_len_with(b, id.len(), &sizes, &mut sized);
                assert_eq!(len, text.len(), "{}: {text}", book.slug);
                checked += 1;
            }
        }
        // Every tic-tac-toe and Towers of Hanoi screen, and the chess ones.
        assert!(checked > 40_000, "{checked}");
    }

    #[test]
    fn the_digits_lie_where_the_placeholder_has_them() {
        assert_eq!(&PLACEHOLDER[..FID_DIGITS.start], "kindle:pos:fid:");
        assert_eq!(&PLACEHOLDER[FID_DIGITS.clone()], "0000");
        assert_eq!(&PLACEHOLDER[FID_DIGITS.end..OFF_DIGITS.start], ":off:");
        assert_eq!(&PLACEHOLDER[OFF_DIGITS], "0000000000");
    }

    #[test]
    fn base32_is_kindles() {
        assert_eq!(&*base32(0, 4), "0000");
        assert_eq!(&*base32(16, 4), "000G");
        let mut digits = *b"0000000000";
        put_base32(&mut digits, 32 * 32 + 31);
        assert_eq!(&digits, b"000000010V");
        assert_eq!(&*base32(31, 1), "V");
        assert_eq!(&*base32(32 * 32 * 32 * 32, 4), "10000");
        assert_eq!(&*base32(usize::MAX, 1), "FVVVVVVVVVVVV");
        assert_eq!(embed(0), "kindle:embed:0001?mime=image/gif");
    }

    /// Put together as a reader does (KindleUnpack's `buildParts`), each
    /// file is the EPUB's page, and each link's fragment and offset land
    /// on the `<` of the element with its target's id.
    #[test]
    fn pages_put_together_hold_every_screen_and_links_land_on_them() {
        let hanoi = Solver::<Hanoi>::with_rules(hanoi::Rules { discs: 3 });
        let book = crate::editions::two_player::edition("hanoi", hanoi.graph(), None);
        let (names, assets) = images_of(&book);
        let shared = Book::new(&book, &assets);
        let p = part(&shared, &names);
        let whole = p.text(&shared, &names);
        assert!(whole.is_ascii());
        let text = &whole[..p.flow0];
        let mut ids = 0;
        for s in &p.skeletons {
            let mut page = text[s.start..s.start + s.len].to_vec();
            let mut from = s.start + s.len;
            for f in &p.fragments[s.fragments.clone()] {
                let at = f.insert - s.start;
                let piece = &text[from..from + f.len];
                page.splice(at..at, piece.iter().copied());
                from += f.len;
            }
            let page = String::from_utf8(page).unwrap();
            assert!(
                page.ends_with("</div></body></html>")
                    || page.ends_with("</section></body></html>")
            );
            // Each screen's id is its file's own.
            let found: std::collections::BTreeSet<&str> = page
                .split("<div id=\"")
                .skip(1)
                .map(|d| d.split('"').next().unwrap())
                .collect();
            let divs = page.matches("<div id=\"").count();
            assert_eq!(found.len(), divs, "an id given twice in a file");
            ids += divs;
        }
        assert_eq!(ids, book.screens.len());
        let s = std::str::from_utf8(text).unwrap();
        let mut links = 0;
        for (at, _) in s.match_indices("kindle:pos:fid:") {
            let fid = usize::from_str_radix(&s[at + 15..at + 19], 32).unwrap();
            let off = usize::from_str_radix(&s[at + 24..at + 34], 32).unwrap();
            let f = &p.fragments[fid];
            assert!(off < f.len);
            // The target, found in the stored fragment.
            let stored = p.skeletons[f.file].start + p.skeletons[f.file].len + f.start + off;
            assert!(
                s[stored..].starts_with("<div id=\"")
                    || s[stored..].starts_with("<section id=\"contents\"")
            );
            links += 1;
        }
        assert!(links > book.screens.len());
        assert!(std::str::from_utf8(&whole[p.flow0..p.flows[0]]).unwrap() == css(&book));
        // Each square's image is the SVG flow the FDST lists under its
        // number, and the flows tile the text.
        let fdst = p.fdst();
        let word = |i: usize| u32::from_be_bytes(fdst[i..i + 4].try_into().unwrap()) as usize;
        assert_eq!(
            (&fdst[..4], word(4), word(8)),
            (&b"FDST"[..], 12, p.flow_count())
        );
        let flow = |n: usize| &whole[word(12 + 8 * n)..word(16 + 8 * n)];
        assert_eq!(flow(0).len(), p.flow0);
        assert_eq!(word(16 + 8 * (p.flow_count() - 1)), whole.len());
        for (at, _) in s.match_indices("<img alt=") {
            let src = &s[at..][s[at..].find("src=\"").unwrap() + 5..];
            let n = src.strip_prefix("kindle:flow:").unwrap();
            assert!(n[4..].starts_with("?mime=image/svg+xml\""), "{}", &n[..40]);
            let number = usize::from_str_radix(&n[..4], 32).unwrap();
            let name = book.used_images()[number - 2];
            // The web's SVG, drawn as the books draw it (twice as tall).
            assert_eq!(flow(number), &*super::super::xhtml::svg(&shared, name));
            assert_ne!(flow(number), assets.get(&format!("{name}.svg")));
        }
    }

    /// The part's text goes out a few screens at a time: no piece of flow
    /// 0 much over [`PIECE`] bytes, however long the book (the 5-disc
    /// Towers of Hanoi's analysis, here), and the pieces are the text
    /// [`Part::text`] holds.
    #[test]
    fn the_text_is_handed_on_in_pieces_that_do_not_grow_with_the_book() {
        let hanoi = Solver::<Hanoi>::with_rules(hanoi::Rules { discs: 5 });
        let book = crate::editions::analysis::edition("hanoi-analysis", &hanoi, "hanoi");
        let (names, assets) = images_of(&book);
        let shared = Book::new(&book, &assets);
        let p = part(&shared, &names);
        let (mut text, mut largest) = (Vec::new(), 0);
        p.render(&shared, &names, &mut |piece| {
            if text.len() < p.flow0 {
                largest = largest.max(piece.len());
            }
            text.extend_from_slice(piece);
        });
        assert!(p.flow0 > 20 * PIECE, "{} bytes", p.flow0);
        assert!(largest < PIECE + 4096, "{largest}");
        assert!(text == p.text(&shared, &names));
    }
}
