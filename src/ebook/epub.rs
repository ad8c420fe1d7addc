//! EPUB 3, for Send to Kindle, Kobo and every other reader: a ZIP with
//! `mimetype` first and stored, the container, a package document, a nav
//! document, an opening page and the boards split over files well under
//! the 300 KB that older readers choke on.
//!
//! Invariant: byte-identical for the same book (fixed dates everywhere,
//! files in a fixed order), and every `href` names a file and an `id`
//! inside the package.

use super::xhtml::{
    File, Layout, MAX_FILE_BYTES, MODIFIED, board, board_file, css, front_body, page, page_onto,
    srcs,
};
use super::{AUTHOR, Book, Out, TooLarge, WriteError};
use crate::markup::{PlainRows, escape as escape_onto};
use crate::screen::Edition;

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_onto(&mut out, s);
    out
}

fn xhtml(title: &str, body: &str) -> String {
    page(title, "book.css", "", body)
}

/// The opening page: the cover's picture (which also keeps KindleUnpack
/// from making a cover page of its own of a Kindle build of the book), the
/// title, the words and the contents.
fn front(book: &Edition, layout: &Layout) -> String {
    let cover = format!("{}.png", book.cover());
    let mut body = String::new();
    front_body(&mut body, book, &cover, &|out: &mut String, t| {
        layout.href_onto(out, File::Front, t)
    });
    xhtml(&book.title, &body)
}

/// File `chunk` of the boards, its images at `srcs` (each square's
/// SVG, made once for every file: [`SRCS`]).
fn boards(book: &Edition, layout: &Layout, srcs: &[String], chunk: usize) -> String {
    let file = File::Boards(chunk as u32);
    let mut out = String::with_capacity(MAX_FILE_BYTES + 1024);
    // The images' addresses are the game's images' names and `SRCS`.
    let key = (book.images.as_ptr() as usize, "EPUB");
    PlainRows::of_thread(key, |rows| {
        page_onto(&mut out, &book.title, "book.css", "", |out| {
            for b in &book.screens[layout.chunks[chunk].clone()] {
                let href = |out: &mut String, t| layout.href_onto(out, file, t);
                board(out, &b.target.anchor(), srcs, b, &href, rows);
            }
        });
    });
    out
}

fn nav(book: &Edition, layout: &Layout) -> String {
    let mut items = String::from("<li><a href=\"front.xhtml\">Rules and contents</a></li>");
    for (line, target) in &book.contents {
        items += &format!(
            "<li><a href=\"{}\">{}</a></li>",
            layout.href(File::Nav, *target),
            escape(line)
        );
    }
    xhtml(
        &book.title,
        &format!("<nav epub:type=\"toc\" id=\"toc\"><h1>Contents</h1><ol>{items}</ol></nav>"),
    )
}

fn package(book: &Edition, chunks: usize, images: &[(&str, &[u8])]) -> String {
    let mut manifest = String::from(
        "<item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>\
<item id=\"css\" href=\"book.css\" media-type=\"text/css\"/>\
<item id=\"front\" href=\"front.xhtml\" media-type=\"application/xhtml+xml\"/>",
    );
    let mut spine = String::from("<itemref idref=\"front\"/>");
    for c in 0..chunks {
        manifest += &format!(
            "<item id=\"b{n}\" href=\"{}\" media-type=\"application/xhtml+xml\"/>",
            board_file(c),
            n = c + 1
        );
        spine += &format!("<itemref idref=\"b{}\"/>", c + 1);
    }
    for (name, _) in images {
        let props = if *name == book.cover() {
            " properties=\"cover-image\""
        } else {
            ""
        };
        let (ext, media) = image_type(book, name);
        manifest +=
            &format!("<item id=\"i-{name}\" href=\"{name}.{ext}\" media-type=\"{media}\"{props}/>");
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\" \
unique-identifier=\"id\" xml:lang=\"en\"><metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\
<dc:identifier id=\"id\">urn:tictactoe-book:{slug}</dc:identifier><dc:title>{title}</dc:title>\
<dc:creator>{AUTHOR}</dc:creator><dc:language>en</dc:language>\
<meta property=\"dcterms:modified\">{MODIFIED}</meta></metadata>\
<manifest>{manifest}</manifest><spine>{spine}</spine>\
<guide><reference type=\"text\" title=\"Start\" href=\"front.xhtml\"/></guide></package>",
        slug = book.book_stem(),
        title = escape(&book.title),
    )
}

const CONTAINER: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<container version=\"1.0\" \
xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\"><rootfiles><rootfile \
full-path=\"OEBPS/package.opf\" media-type=\"application/oebps-package+xml\"/></rootfiles></container>";

/// An image's file extension and media type in the EPUB: a square is its
/// SVG, the web's own, sharp at any size the stylesheet gives it; the
/// cover, a raster only, is a PNG of its GIF.
fn image_type(book: &Edition, name: &str) -> (&'static str, &'static str) {
    if name == book.cover() {
        ("png", "image/png")
    } else {
        ("svg", "image/svg+xml")
    }
}

/// The book as an EPUB file, held whole: [`write_to`] into a `Vec`.
pub fn write(book: &Book) -> Result<Vec<u8>, TooLarge> {
    let mut out = Vec::new();
    match write_to(book, &mut out) {
        Ok(()) => Ok(out),
        Err(WriteError::TooLarge(e)) => Err(e),
        Err(e) => unreachable!("a Vec takes every write, and an EPUB draws no picture: {e}"),
    }
}

/// How many files of boards are rendered and deflated at once, on every
/// core, before they go into the zip: the book is never held whole,
/// only this many files' deflated bytes (about 30 KB each).
const BATCH: usize = 16;

/// The ending of every image's address: the squares are SVG.
const SRCS: &str = ".svg";

/// The book as an EPUB file, with the images its screens use and the
/// cover ([`super::images`], in manifest order), as [`image_type`] says,
/// written into `out` a file at a time as each is deflated; refused if its
/// zip would need ZIP64 ([`Zip`]).
pub fn write_to(book: &Book, out: Out) -> Result<(), WriteError> {
    let (assets, layout, whole) = (book.assets, book.layout(), book);
    let book = book.edition;
    let images = super::images(book, assets);
    let images = &images[..];
    let chunks = layout.chunks.len();
    let mut zip = Zip::new(out, 5 + chunks + images.len())?;
    let front_files: Vec<(String, Vec<u8>)> = vec![
        ("META-INF/container.xml".into(), CONTAINER.into()),
        (
            "OEBPS/package.opf".into(),
            package(book, chunks, images).into(),
        ),
        ("OEBPS/nav.xhtml".into(), nav(book, layout).into()),
        ("OEBPS/book.css".into(), css(book).into()),
        ("OEBPS/front.xhtml".into(), front(book, layout).into()),
    ];
    for (name, bytes) in &front_files {
        zip.add(name, &packed(name, bytes)?)?;
    }
    // The files of boards, most of the book, are rendered and deflated on
    // every core, a batch at a time, each text dropped once deflated.
    let indexes: Vec<usize> = (0..chunks).collect();
    let srcs = srcs(book, SRCS);
    for batch in indexes.chunks(BATCH) {
        let done = crate::par::map(batch, |&c| {
            let name = format!("OEBPS/{}", board_file(c));
            let file = packed(&name, boards(book, layout, &srcs, c).as_bytes());
            (name, file)
        });
        for (name, file) in done {
            zip.add(&name, &file?)?;
        }
    }
    let done = crate::par::map(images, |(name, _)| {
        let (ext, _) = image_type(book, name);
        let file = format!("{name}.{ext}");
        let bytes = match ext {
            "svg" => super::xhtml::svg(whole, name),
            _ => assets.png(&format!("{name}.gif")).into(),
        };
        let name = format!("OEBPS/{file}");
        let file = packed(&name, &bytes);
        (name, file)
    });
    for (name, file) in done {
        zip.add(&name, &file?)?;
    }
    zip.finish()
}

/// The most entries a zip counts without ZIP64: its count is 16 bits, and
/// 0xffff says "see the ZIP64 record", which we do not write.
const ZIP_ENTRIES: u64 = 0xfffe;

/// The most bytes a zip's size or offset says without ZIP64: 32 bits, and
/// 0xffff_ffff says "see the ZIP64 record".
const ZIP_BYTES: u64 = 0xffff_fffe;

/// A file ready for the zip: its CRC and length, and its bytes as stored.
struct Packed {
    crc: u32,
    len: usize,
    /// 0, stored, or 8, deflated.
    method: u16,
    data: Vec<u8>,
}

/// `bytes`, the file `name`, as the zip stores it: `mimetype` and PNGs
/// (compressed already) as they are, the rest deflated. Refused if its
/// name or its length has no room in the zip's fields.
fn packed(name: &str, bytes: &[u8]) -> Result<Packed, TooLarge> {
    TooLarge::check("bytes in the name of a file in a zip", name.len(), 0xffff)?;
    TooLarge::check("bytes in a file in a zip", bytes.len(), ZIP_BYTES)?;
    let (method, data) = if name == "mimetype" || name.ends_with(".png") {
        (0u16, bytes.to_vec())
    } else {
        // Kept until its batch is written: its own size, not the bound
        // the deflater wrote into.
        let mut data = super::deflate::raw(bytes);
        data.shrink_to_fit();
        (8, data)
    };
    Ok(Packed {
        crc: crc32fast::hash(bytes),
        len: bytes.len(),
        method,
        data,
    })
}

/// A zip written as its files come, after a stored `mimetype`, dated
/// 1980-01-01 (the zip format's first day) so that builds are
/// byte-identical: each file's header and bytes go out at once, and only
/// the central directory (about 60 bytes a file) is kept until the end.
/// Refused if a count, size or offset would need ZIP64: more than
/// [`ZIP_ENTRIES`] entries, a name past 65,535 bytes, or a file, the
/// central directory or an offset past [`ZIP_BYTES`].
struct Zip<'a> {
    out: Out<'a>,
    /// Bytes written so far: the next file's offset.
    at: usize,
    central: Vec<u8>,
    /// Entries, `mimetype` included.
    entries: usize,
}

fn le16(v: &mut Vec<u8>, x: usize) {
    v.extend_from_slice(&(x as u16).to_le_bytes());
}

fn le32(v: &mut Vec<u8>, x: usize) {
    v.extend_from_slice(&(x as u32).to_le_bytes());
}

impl<'a> Zip<'a> {
    /// A zip of `mimetype` and `files` more files, into `out`; refused
    /// before anything is written or deflated if that is more entries
    /// than a zip counts.
    fn new(out: Out<'a>, files: usize) -> Result<Zip<'a>, WriteError> {
        TooLarge::check("files in an EPUB's zip", files + 1, ZIP_ENTRIES)?;
        let mut zip = Zip {
            out,
            at: 0,
            central: Vec::new(),
            entries: 0,
        };
        zip.add("mimetype", &packed("mimetype", b"application/epub+zip")?)?;
        Ok(zip)
    }

    /// Writes the file `name` and notes it for the central directory.
    fn add(&mut self, name: &str, file: &Packed) -> Result<(), WriteError> {
        let offset = self.at;
        TooLarge::check("bytes before a file in a zip", offset, ZIP_BYTES)?;
        TooLarge::check(
            "bytes in a compressed file in a zip",
            file.data.len(),
            ZIP_BYTES,
        )?;
        // Version 2.0, no flags, the method, time 00:00, date 1980-01-01.
        let fields = |v: &mut Vec<u8>| {
            le16(v, 20);
            le16(v, 0);
            le16(v, usize::from(file.method));
            le16(v, 0);
            le16(v, 0x21);
            le32(v, file.crc as usize);
            le32(v, file.data.len());
            le32(v, file.len);
            le16(v, name.len());
            le16(v, 0);
        };
        let mut head = b"PK\x03\x04".to_vec();
        fields(&mut head);
        head.extend_from_slice(name.as_bytes());
        self.out.write_all(&head)?;
        self.out.write_all(&file.data)?;
        self.at += head.len() + file.data.len();
        let central = &mut self.central;
        central.extend_from_slice(b"PK\x01\x02");
        le16(central, 20); // made by: version 2.0, MS-DOS
        fields(central);
        for _ in 0..3 {
            le16(central, 0); // comment length, disk, internal attributes
        }
        le32(central, 0); // external attributes
        le32(central, offset);
        central.extend_from_slice(name.as_bytes());
        self.entries += 1;
        Ok(())
    }

    /// Writes the central directory and its end.
    fn finish(self) -> Result<(), WriteError> {
        let central_at = self.at;
        TooLarge::check(
            "bytes before a zip's central directory",
            central_at,
            ZIP_BYTES,
        )?;
        TooLarge::check(
            "bytes in a zip's central directory",
            self.central.len(),
            ZIP_BYTES,
        )?;
        let mut end = b"PK\x05\x06".to_vec();
        le32(&mut end, 0); // this disk, the central directory's disk
        le16(&mut end, self.entries);
        le16(&mut end, self.entries);
        le32(&mut end, self.central.len());
        le32(&mut end, central_at);
        le16(&mut end, 0); // no comment
        self.out.write_all(&self.central)?;
        self.out.write_all(&end)?;
        Ok(())
    }
}

/// Zips `files` after a stored `mimetype`, held whole: the tests' way to
/// [`Zip`].
#[cfg(test)]
fn zip(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, TooLarge> {
    let mut out = Vec::new();
    let result = (|| {
        let mut zip = Zip::new(&mut out, files.len())?;
        for (name, bytes) in files {
            zip.add(name, &packed(name, bytes)?)?;
        }
        zip.finish()
    })();
    match result {
        Ok(()) => Ok(out),
        Err(WriteError::TooLarge(e)) => Err(e),
        Err(e) => unreachable!("a Vec takes every write, and a zip draws no picture: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read as _;

    /// Our zip reads back with the `zip` crate (which checks each CRC):
    /// `mimetype` first and stored, PNGs stored, the rest deflated, every
    /// file's bytes as given, and the same bytes on every call.
    #[test]
    fn the_zip_reads_back_whole() {
        let files: Vec<(String, Vec<u8>)> = vec![
            ("META-INF/container.xml".into(), b"<container/>".to_vec()),
            ("OEBPS/a.xhtml".into(), b"<p>hello</p>".repeat(5000)),
            ("OEBPS/e.png".into(), vec![0x89, b'P', b'N', b'G', 1, 2, 3]),
            ("OEBPS/empty.css".into(), Vec::new()),
        ];
        let bytes = super::zip(&files).unwrap();
        assert_eq!(bytes, super::zip(&files).unwrap());
        assert_eq!(&bytes[30..38], b"mimetype");
        let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(z.len(), files.len() + 1);
        let stored = |n: &str| n == "mimetype" || n.ends_with(".png");
        for (i, (name, want)) in
            std::iter::once(&("mimetype".to_string(), b"application/epub+zip".to_vec()))
                .chain(&files)
                .enumerate()
        {
            let mut f = z.by_index(i).unwrap();
            assert_eq!(f.name(), name);
            let method = if stored(name) {
                zip::CompressionMethod::Stored
            } else {
                zip::CompressionMethod::Deflated
            };
            assert_eq!(f.compression(), method, "{name}");
            let mut got = Vec::new();
            f.read_to_end(&mut got).unwrap();
            assert_eq!(&got, want, "{name}");
        }
    }

    /// A zip of more files than its 16-bit count holds without ZIP64 is
    /// refused before any is deflated; one fewer is written, its count
    /// whole.
    #[test]
    fn more_files_than_a_zip_counts_are_refused() {
        let files = |n: usize| -> Vec<(String, Vec<u8>)> {
            (0..n).map(|i| (format!("{i}.png"), Vec::new())).collect()
        };
        // With `mimetype`, 65,535 entries.
        let err = super::zip(&files(0xfffe)).unwrap_err();
        assert_eq!(
            (err.what, err.count, err.most),
            ("files in an EPUB's zip", 0xffff, 0xfffe)
        );
        let bytes = super::zip(&files(0xfffd)).unwrap();
        let end = &bytes[bytes.len() - 22..];
        assert_eq!(&end[..4], b"PK\x05\x06");
        assert_eq!(u16::from_le_bytes([end[10], end[11]]), 0xfffe);
    }

    /// A file's name past its 16-bit length is refused.
    #[test]
    fn a_name_past_64_kb_is_refused() {
        let err = super::zip(&[("n".repeat(0x10000), Vec::new())]).unwrap_err();
        assert_eq!(err.what, "bytes in the name of a file in a zip");
    }
}
