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

/// The files the build needs from `static/` besides the square images
/// and the books' [`COVERS`]: the stylesheet, the favicon and the PDFs'
/// font.
pub const OTHERS: [&str; 3] = ["s.css", "favicon.svg", FONT];

/// A book's cover in `static/`: `<name>.gif`, 600 by 800 pixels, and the
/// MOBI's thumbnail of it, `<name>-thumb.gif`, 240 by 320, both drawn by
/// `cargo xtask draw-images`: the book's title, a line a string, over its
/// game's `picture` (`tictactoe`, a won board; `hanoi`, the puzzle's
/// start; `kqk` and `krk`, the ending's start), so that a library of
/// covers, as a Kindle shows its books, tells each edition apart.
#[derive(Clone, Copy, Debug)]
pub struct Cover {
    /// The file's name, without extension: the books' stem and `-cover`.
    pub name: &'static str,
    /// The game's picture under the title.
    pub picture: &'static str,
    /// The book's title, as its lines on the cover.
    pub title: &'static [&'static str],
}

/// Every edition's cover that has books, in the site's order (a test
/// holds each to its edition's title).
pub const COVERS: [Cover; 9] = [
    Cover {
        name: "tictactoe-two-player-cover",
        picture: "tictactoe",
        title: &["Tic-tac-toe", "for Two Players"],
    },
    Cover {
        name: "tictactoe-vs-computer-cover",
        picture: "tictactoe",
        title: &["Tic-tac-toe", "against the Computer"],
    },
    Cover {
        name: "tictactoe-analysis-cover",
        picture: "tictactoe",
        title: &["Tic-tac-toe", "Analysed"],
    },
    Cover {
        name: "towers-hanoi-cover",
        picture: "hanoi",
        title: &["The Towers", "of Hanoi"],
    },
    Cover {
        name: "towers-hanoi-analysis-cover",
        picture: "hanoi",
        title: &["The Towers", "of Hanoi Analysed"],
    },
    Cover {
        name: "chess-kqk-cover",
        picture: "kqk",
        title: &["Mate with", "King and Queen"],
    },
    Cover {
        name: "chess-kqk-analysis-cover",
        picture: "kqk",
        title: &["Mate with King", "and Queen Analysed"],
    },
    Cover {
        name: "chess-krk-cover",
        picture: "krk",
        title: &["Mate with", "King and Rook"],
    },
    Cover {
        name: "chess-krk-analysis-cover",
        picture: "krk",
        title: &["Mate with King", "and Rook Analysed"],
    },
];

/// The cover of the books whose names start with `stem`
/// (`tictactoe-analysis`): its own, or, for an edition no cover names (a
/// game of the tests, outside the site), the first.
pub fn cover_of(stem: &str) -> &'static str {
    let named = |c: &&Cover| c.name.strip_suffix("-cover") == Some(stem);
    COVERS.iter().find(named).unwrap_or(&COVERS[0]).name
}

/// The covers' files: each cover and its thumbnail.
fn cover_files() -> impl Iterator<Item = String> {
    COVERS
        .iter()
        .flat_map(|c| [format!("{}.gif", c.name), format!("{}-thumb.gif", c.name)])
}

/// Whether the build uses `name` itself: one of the cell `images` (`.svg`
/// for the web, `.gif` for the books; redraw them with `cargo xtask
/// draw-images`), a cover's file or one of [`OTHERS`].
pub fn is_required(name: &str, images: &[&str]) -> bool {
    OTHERS.contains(&name)
        || cover_files().any(|c| c == name)
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
        .chain(cover_files())
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
    /// SVG that is not XML with an `<svg>` root that usvg reads.
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
        // The PDFs draw it through usvg, which must read it too: from the
        // XML read already, not read again, unless it is plain enough
        // that usvg surely reads it.
        if !surely_drawn(&doc) {
            usvg::Tree::from_xmltree(&doc, &usvg::Options::default())
                .map_err(|e| format!("not an SVG image ({e})"))?;
        }
    } else if name.ends_with(".ttf") {
        ttf_parser::Face::parse(bytes, 0).map_err(|e| format!("not a TrueType font ({e})"))?;
    } else if std::str::from_utf8(bytes).is_err() {
        return Err("not UTF-8 text".to_string());
    }
    Ok(())
}

/// Whether usvg surely reads `doc`, without reading it through usvg:
/// every picture of `static/` (834 SVGs) read through usvg took 1.7% of a
/// build's CPU, most of it tiny-skia's stroke bounds. usvg (0.45) refuses
/// an SVG only for a root that is not `<svg>`, more than 1,024 levels or
/// a million nodes, or a size of zero or less; a root `<svg>` in the SVG
/// namespace with a `width` and a `height` in plain pixels above zero has
/// one. Any other SVG is read through usvg.
fn surely_drawn(doc: &roxmltree::Document) -> bool {
    let root = doc.root_element();
    let pixels = |name| {
        root.attribute(name).is_some_and(|v| {
            let v = v.strip_suffix("px").unwrap_or(v);
            v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                && v.parse::<f32>().is_ok_and(|n| n.is_normal())
        })
    };
    // Levels and nodes in one pass, however deep the tree: a node's
    // level is its parent's and one, and a parent comes before its nodes.
    let mut levels = vec![0u32; doc.descendants().count() + 1];
    let mut deepest = 0;
    for node in doc.descendants() {
        let above = node.parent().map_or(0, |p| levels[p.id().get_usize()]);
        levels[node.id().get_usize()] = above + 1;
        deepest = deepest.max(above + 1);
    }
    let nodes = levels.len();
    root.tag_name().namespace() == Some(SVG_NAMESPACE)
        && pixels("width")
        && pixels("height")
        && deepest <= 1_000
        && nodes <= 100_000
}

/// The namespace of an SVG's elements.
const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

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
    use super::*;

    /// What `static/` takes without reading it through usvg, usvg reads:
    /// every SVG of `static/` (each taken so, or the check is no cheaper),
    /// and SVGs of plain sizes. Those it does not take are read through
    /// usvg when they are checked, which refuses some of them.
    #[test]
    fn what_usvg_surely_reads_it_reads() {
        let options = usvg::Options::default();
        let read = |svg: &str| usvg::Tree::from_data(svg.as_bytes(), &options).is_ok();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
        let mut shipped = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "svg") {
                let text = std::fs::read_to_string(&path).unwrap();
                let doc = roxmltree::Document::parse(&text).unwrap();
                assert!(surely_drawn(&doc) && read(&text), "{}", path.display());
                shipped += 1;
            }
        }
        assert!(shipped > 800, "{shipped}");
        let svg = |attributes: &str| {
            format!(r#"<svg xmlns="{SVG_NAMESPACE}" {attributes}><g><rect/></g></svg>"#)
        };
        for (svg, surely, readable) in [
            (
                svg(r#"width="100" height="23" viewBox="0 0 100 23""#),
                true,
                true,
            ),
            (svg(r#"width="10px" height="12.5""#), true, true),
            (
                svg(r#"width="0" height="100" viewBox="0 0 100 100""#),
                false,
                false,
            ),
            (svg(r#"width="10" height="0.0px""#), false, false),
            (svg(r#"width="0mm" height="10""#), false, false),
            (svg(r#"width="1e-50" height="10""#), false, false),
            (svg(r#"width="-5" height="10""#), false, false),
            (svg(r#"width="100%" height="100%""#), false, true),
            (svg(r#"viewBox="0 0 10 10""#), false, true),
            (svg(r#"width="10mm" height="10""#), false, true),
            (svg(r#"width="NaN" height="10""#), false, true),
            (r#"<svg width="10" height="10"/>"#.to_string(), false, true),
            (
                // 1,100 levels deep.
                svg(r#"width="1" height="1""#).replace(
                    "<g><rect/></g>",
                    &("<g>".repeat(1_100) + &"</g>".repeat(1_100)),
                ),
                false,
                false,
            ),
        ] {
            let doc = roxmltree::Document::parse(&svg).unwrap();
            assert_eq!(
                (surely_drawn(&doc), read(&svg)),
                (surely, readable),
                "{svg:.80}"
            );
        }
    }
}
