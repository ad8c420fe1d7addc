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
use super::{AUTHOR, Book, TooLarge};
use crate::markup::escape as escape_onto;
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
    let cover = format!("{}.png", book.cover);
    let mut body = String::new();
    front_body(&mut body, book, &cover, &|out: &mut String, t| {
        layout.href_onto(out, File::Front, t)
    });
    xhtml(&book.title, &body)
}

fn boards(book: &Edition, layout: &Layout, chunk: usize) -> String {
    let file = File::Boards(chunk as u32);
    let mut out = String::with_capacity(MAX_FILE_BYTES + 1024);
    let srcs = srcs(book, ".svg");
    page_onto(&mut out, &book.title, "book.css", "", |out| {
        for b in &book.screens[layout.chunks[chunk].clone()] {
            board(out, &b.target.anchor(), &srcs, b, &|out: &mut String, t| {
                layout.href_onto(out, file, t)
            });
        }
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
        let props = if *name == book.cover {
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
    if name == book.cover {
        ("png", "image/png")
    } else {
        ("svg", "image/svg+xml")
    }
}

/// The book as an EPUB file, with the images its screens use and the
/// cover ([`super::images`], in manifest order), as [`image_type`] says;
/// refused if its zip would need ZIP64 ([`zip`]).
pub fn write(book: &Book) -> Result<Vec<u8>, TooLarge> {
    let (assets, layout) = (book.assets, book.layout());
    let book = book.edition;
    let images = super::images(book, assets);
    let images = &images[..];
    let chunks = layout.chunks.len();
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("META-INF/container.xml".into(), CONTAINER.into()),
        (
            "OEBPS/package.opf".into(),
            package(book, chunks, images).into(),
        ),
        ("OEBPS/nav.xhtml".into(), nav(book, layout).into()),
        ("OEBPS/book.css".into(), css(book).into()),
        ("OEBPS/front.xhtml".into(), front(book, layout).into()),
    ];
    // The files of boards, most of the book, are rendered on every core.
    let indexes: Vec<usize> = (0..chunks).collect();
    let texts = crate::par::map(&indexes, |&c| boards(book, layout, c));
    for (c, text) in texts.into_iter().enumerate() {
        files.push((format!("OEBPS/{}", board_file(c)), text.into()));
    }
    for (name, _) in images {
        let (ext, _) = image_type(book, name);
        let file = format!("{name}.{ext}");
        let bytes = match ext {
            "svg" => assets.get(&file),
            _ => assets.png(&format!("{name}.gif")),
        };
        files.push((format!("OEBPS/{file}"), bytes.to_vec()));
    }
    zip(&files)
}

/// The most entries a zip counts without ZIP64: its count is 16 bits, and
/// 0xffff says "see the ZIP64 record", which we do not write.
const ZIP_ENTRIES: u64 = 0xfffe;

/// The most bytes a zip's size or offset says without ZIP64: 32 bits, and
/// 0xffff_ffff says "see the ZIP64 record".
const ZIP_BYTES: u64 = 0xffff_fffe;

/// Zips `files` after a stored `mimetype`, dated 1980-01-01 (the zip
/// format's first day) so that builds are byte-identical. The files are
/// deflated at once on every core; PNGs, compressed already, are stored.
/// Refused if a count, size or offset would need ZIP64: more than
/// [`ZIP_ENTRIES`] entries, a name past 65,535 bytes, or a file, the
/// central directory or an offset past [`ZIP_BYTES`].
fn zip(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, TooLarge> {
    let mimetype = ("mimetype".to_string(), b"application/epub+zip".to_vec());
    let all: Vec<&(String, Vec<u8>)> = std::iter::once(&mimetype).chain(files).collect();
    // Before any work: what the files are.
    TooLarge::check("files in an EPUB's zip", all.len(), ZIP_ENTRIES)?;
    for (name, bytes) in &all {
        TooLarge::check("bytes in the name of a file in a zip", name.len(), 0xffff)?;
        TooLarge::check("bytes in a file in a zip", bytes.len(), ZIP_BYTES)?;
    }
    let packed = crate::par::map(&all, |(name, bytes)| {
        if name == "mimetype" || name.ends_with(".png") {
            (0u16, bytes.clone())
        } else {
            (8, super::deflate::raw(bytes))
        }
    });
    let mut out = Vec::new();
    let mut central = Vec::new();
    let le16 = |v: &mut Vec<u8>, x: usize| v.extend_from_slice(&(x as u16).to_le_bytes());
    let le32 = |v: &mut Vec<u8>, x: usize| v.extend_from_slice(&(x as u32).to_le_bytes());
    for ((name, bytes), (method, data)) in all.iter().zip(&packed) {
        let crc = crc32fast::hash(bytes) as usize;
        let offset = out.len();
        TooLarge::check("bytes before a file in a zip", offset, ZIP_BYTES)?;
        TooLarge::check("bytes in a compressed file in a zip", data.len(), ZIP_BYTES)?;
        // Version 2.0, no flags, the method, time 00:00, date 1980-01-01.
        let fields = |v: &mut Vec<u8>| {
            le16(v, 20);
            le16(v, 0);
            le16(v, usize::from(*method));
            le16(v, 0);
            le16(v, 0x21);
            le32(v, crc);
            le32(v, data.len());
            le32(v, bytes.len());
            le16(v, name.len());
            le16(v, 0);
        };
        out.extend_from_slice(b"PK\x03\x04");
        fields(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        central.extend_from_slice(b"PK\x01\x02");
        le16(&mut central, 20); // made by: version 2.0, MS-DOS
        fields(&mut central);
        for _ in 0..3 {
            le16(&mut central, 0); // comment length, disk, internal attributes
        }
        le32(&mut central, 0); // external attributes
        le32(&mut central, offset);
        central.extend_from_slice(name.as_bytes());
    }
    let central_at = out.len();
    TooLarge::check(
        "bytes before a zip's central directory",
        central_at,
        ZIP_BYTES,
    )?;
    TooLarge::check(
        "bytes in a zip's central directory",
        central.len(),
        ZIP_BYTES,
    )?;
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06");
    le32(&mut out, 0); // this disk, the central directory's disk
    le16(&mut out, all.len());
    le16(&mut out, all.len());
    le32(&mut out, central.len());
    le32(&mut out, central_at);
    le16(&mut out, 0); // no comment
    Ok(out)
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
