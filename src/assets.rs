//! The files of `static/`: the required ones read into memory before
//! anything is written, the extra ones only listed.
//!
//! Invariant: an [`Assets`] value always holds every file of [`required`],
//! so rendering never meets a missing image; all reading of `static/`
//! happens here, once, but for the extras, which `output` copies by path.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The font every PDF page's text is set in, as shipped in `static/`.
pub const FONT: &str = "DejaVuSans.ttf";

/// The files the build needs from `static/` besides the square images:
/// the stylesheet, the favicon, each game's cover and its thumbnail
/// ([`crate::game::Game::COVER`]) and the PDFs' font.
pub const OTHERS: [&str; 11] = [
    "s.css",
    "favicon.svg",
    "cover.gif",
    "cover-thumb.gif",
    "towers-cover.gif",
    "towers-cover-thumb.gif",
    "kqk-cover.gif",
    "kqk-cover-thumb.gif",
    "krk-cover.gif",
    "krk-cover-thumb.gif",
    FONT,
];

/// Whether the build uses `name` itself: one of the cell `images` (`.svg`
/// for the web, `.gif` for the books; redraw them with `cargo xtask
/// draw-images`) or one of [`OTHERS`].
pub fn is_required(name: &str, images: &[&str]) -> bool {
    OTHERS.contains(&name)
        || name
            .strip_suffix(".svg")
            .or_else(|| name.strip_suffix(".gif"))
            .is_some_and(|stem| images.contains(&stem))
}

/// Every file the build needs from `static/`, given the cell `images`.
pub fn required<'a>(images: &'a [&'a str]) -> impl Iterator<Item = String> + 'a {
    images
        .iter()
        .flat_map(|n| [format!("{n}.svg"), format!("{n}.gif")])
        .chain(OTHERS.iter().map(|n| n.to_string()))
}

/// The files of `static/`: the required ones in memory, by name, and the
/// extra ones by path only, so that a large extra is never read whole.
#[derive(Clone, Debug)]
pub struct Assets {
    /// The folder.
    dir: PathBuf,
    files: BTreeMap<String, Vec<u8>>,
    /// Each GIF of `files` as a PNG, made the first time a book asks for
    /// it: every EPUB of the build shares one conversion.
    pngs: BTreeMap<String, OnceLock<Vec<u8>>>,
    /// Relative path (with `/` separators) and where the file is.
    extras: Vec<(String, PathBuf)>,
}

/// Why `static/` could not be read.
#[derive(Debug)]
pub enum AssetError {
    /// The folder is not there.
    NoFolder(PathBuf),
    /// It is there, but not a folder (a file, `/dev/null`).
    NotAFolder(PathBuf),
    /// A file the build needs is missing.
    Missing(PathBuf),
    /// A file or folder could not be read.
    Unreadable(PathBuf, std::io::Error),
    /// A file is not what its name says: a GIF that does not decode, an
    /// SVG that is not XML with an `<svg>` root, or of no size, or one a
    /// PDF cannot draw.
    Corrupt(PathBuf, String),
    /// Something that is not a regular file or a folder (a FIFO, a socket,
    /// a device) where a file is read or copied: reading it could wait
    /// forever.
    NotAFile(PathBuf),
    /// A file whose name is not UTF-8: its page names and the marker's
    /// list are text, so it could not be copied under its own name.
    NotUtf8(PathBuf),
}

impl fmt::Display for AssetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssetError::NoFolder(p) => write!(f, "static folder {} not found", p.display()),
            AssetError::NotAFolder(p) => {
                write!(f, "static folder {} is not a folder", p.display())
            }
            AssetError::Missing(p) => write!(f, "static file {} is missing", p.display()),
            AssetError::Unreadable(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            AssetError::Corrupt(p, why) => {
                write!(f, "static file {} is corrupt: {why}", p.display())
            }
            AssetError::NotUtf8(p) => write!(
                f,
                "the name of {p:?} is not UTF-8; rename it (the site copies static/'s files \
                 under their own names)"
            ),
            AssetError::NotAFile(p) => write!(
                f,
                "{} is not a regular file (a FIFO, socket or device?); remove it from static/",
                p.display()
            ),
        }
    }
}

impl std::error::Error for AssetError {}

/// Checks that a required file is what its name says, so a corrupt image
/// fails the build instead of going into every page and book.
fn check(name: &str, bytes: &[u8]) -> Result<(), String> {
    if name.ends_with(".gif") {
        let mut decoder = gif::DecodeOptions::new()
            .read_info(bytes)
            .map_err(|e| format!("not a GIF image ({e})"))?;
        let mut frames = 0;
        while decoder
            .read_next_frame()
            .map_err(|e| format!("not a GIF image ({e})"))?
            .is_some()
        {
            frames += 1;
        }
        if frames == 0 {
            return Err("a GIF image with no picture".to_string());
        }
    } else if name.ends_with(".svg") {
        let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())?;
        let doc = roxmltree::Document::parse(text).map_err(|e| format!("not XML ({e})"))?;
        let root = doc.root_element().tag_name().name();
        if root != "svg" {
            return Err(format!("the root element is <{root}>, not <svg>"));
        }
        // A width or a height of zero or less draws nothing (and usvg
        // refuses it). A PDF reads the pictures it draws through usvg,
        // and fails with one line naming one it cannot draw: every
        // picture read so here took 1.7% of a build's CPU.
        if !has_size(doc.root_element()) {
            return Err("an SVG image of no size (a width or height of 0 or less)".to_string());
        }
    } else if name.ends_with(".ttf") {
        ttf_parser::Face::parse(bytes, 0).map_err(|e| format!("not a TrueType font ({e})"))?;
    } else if std::str::from_utf8(bytes).is_err() {
        return Err("not UTF-8 text".to_string());
    }
    Ok(())
}

/// Whether an `<svg>`'s size is above zero, as usvg reads it: a `width`
/// or a `height` of zero or less (in pixels, or a share) is no size at
/// all; any other is drawn (one usvg cannot read, at a default size).
fn has_size(svg: roxmltree::Node) -> bool {
    ["width", "height"].into_iter().all(|name| {
        let Some(v) = svg.attribute(name) else {
            return true;
        };
        let v = v.trim();
        let number = (v.strip_suffix('%').or_else(|| v.strip_suffix("px"))).unwrap_or(v);
        number.parse::<f64>().map_or(true, |n| n > 0.0)
    })
}

impl Assets {
    /// Reads and checks the required files first (the cell `images` and
    /// [`OTHERS`]), so a wrong folder fails at once whatever else it
    /// holds; then lists the other files below `dir` without reading
    /// them, stopping at the first that cannot be listed.
    pub fn load(dir: &Path, images: &[&str]) -> Result<Assets, AssetError> {
        if !dir.is_dir() {
            return Err(match dir.exists() {
                true => AssetError::NotAFolder(dir.to_path_buf()),
                false => AssetError::NoFolder(dir.to_path_buf()),
            });
        }
        // Read and checked on every core (decoding every picture is most
        // of it); the first file in this order that fails is the error.
        let names: Vec<String> = required(images).collect();
        let read = crate::par::map(&names, |name| {
            let path = dir.join(name);
            // The type first: reading a FIFO would wait for a writer.
            match std::fs::metadata(&path) {
                Ok(m) if !m.is_file() => return Err(AssetError::NotAFile(path)),
                _ => {}
            }
            let bytes = match std::fs::read(&path) {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(AssetError::Missing(path));
                }
                Err(e) => return Err(AssetError::Unreadable(path, e)),
            };
            check(name, &bytes).map_err(|why| AssetError::Corrupt(path, why))?;
            Ok(bytes)
        });
        let mut files = BTreeMap::new();
        for (name, bytes) in names.into_iter().zip(read) {
            files.insert(name, bytes?);
        }
        let mut extras = Vec::new();
        for entry in walkdir::WalkDir::new(dir)
            .follow_links(true)
            .sort_by_file_name()
        {
            let entry = entry.map_err(|e| {
                let path = e.path().unwrap_or(dir).to_path_buf();
                AssetError::Unreadable(path, e.into())
            })?;
            let kind = entry.file_type();
            if kind.is_dir() {
                continue;
            }
            if !kind.is_file() {
                return Err(AssetError::NotAFile(entry.into_path()));
            }
            let rel = entry
                .path()
                .strip_prefix(dir)
                .expect("walkdir stays below its root");
            let Some(key) = rel.to_str() else {
                return Err(AssetError::NotUtf8(entry.into_path()));
            };
            let key = key.to_string();
            if !is_required(&key, images) {
                extras.push((key, entry.into_path()));
            }
        }
        let pngs = files
            .keys()
            .filter(|n| n.ends_with(".gif"))
            .map(|n| (n.clone(), OnceLock::new()))
            .collect();
        Ok(Assets {
            dir: dir.to_path_buf(),
            files,
            pngs,
            extras,
        })
    }

    /// The files the build does not use itself (`CNAME`, `.nojekyll`,
    /// `robots.txt`, ...), by relative path, with where each is: they are
    /// copied to the site root as they are, as Hugo and Zola copy
    /// `static/`.
    pub fn extras(&self) -> impl Iterator<Item = (&str, &Path)> {
        self.extras
            .iter()
            .map(|(name, path)| (name.as_str(), path.as_path()))
    }

    /// Where the file `name` is.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// A required file's bytes.
    ///
    /// # Panics
    /// If `name` is not required: a programming error, not bad input.
    pub fn get(&self, name: &str) -> &[u8] {
        self.files
            .get(name)
            .unwrap_or_else(|| panic!("{name} is not a required asset"))
    }

    /// The required GIF `name` (`x.gif`) as a palette PNG of the same
    /// pixels ([`crate::ebook::png`]), converted once a build.
    ///
    /// # Panics
    /// If `name` is not a required GIF: a programming error.
    pub fn png(&self, name: &str) -> &[u8] {
        self.pngs
            .get(name)
            .unwrap_or_else(|| panic!("{name} is not a required GIF"))
            .get_or_init(|| {
                crate::ebook::png::from_gif(self.get(name))
                    .expect("static/ GIFs are checked when loaded")
            })
    }
}

#[cfg(test)]
mod tests {
    /// What `static/` is checked for, an SVG's size, agrees with usvg,
    /// which reads the pictures a PDF draws: each of these SVGs has a
    /// size exactly when usvg reads it.
    #[test]
    fn an_svg_has_a_size_when_usvg_reads_one() {
        let mut sized = 0;
        for attributes in [
            r#"width="100" height="100" viewBox="0 0 100 100""#,
            r#"viewBox="0 0 100 23""#,
            r#"width="10px" height="12.5px""#,
            r#"width="100%" height="50%" viewBox="0 0 10 10""#,
            r#"width="100%" height="100%""#,
            r#"width="10""#,
            r#"viewBox="0 0 0 10""#,
            r#"width="ten" height="10""#,
            "",
            r#"width="0" height="100" viewBox="0 0 100 100""#,
            r#"width="-5" height="100" viewBox="0 0 100 100""#,
            r#"width="10" height="0px""#,
            r#"width="0%" height="10""#,
        ] {
            let svg = format!(r#"<svg xmlns="http://www.w3.org/2000/svg" {attributes}/>"#);
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let read = usvg::Tree::from_data(svg.as_bytes(), &usvg::Options::default()).is_ok();
            assert_eq!(super::has_size(doc.root_element()), read, "{svg}");
            sized += usize::from(read);
        }
        assert_eq!(sized, 9);
    }
}
