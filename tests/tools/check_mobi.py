"""Reads a MOBI book with KindleUnpack (the `mobi` package) as a reader would.

Usage: check_mobi.py BOOK.mobi BOARDS [CELLS [KF8_COPY [PICTURES [COLUMNS]]]]

Checks that KindleUnpack unpacks the book, that the KF8 part's squares are
SVG flows, that every filepos link lands
exactly on the start of a board (or the opening page), that every board can
be reached from the opening page, and that the images decode: CELLS of them
a board (9 unless given) in the KF8 part, PICTURES in the MOBI 6 part (CELLS
unless given; one more where a picture stands under the board). With
COLUMNS (a game whose every move is a column), each board of the MOBI 6 part
is a table of COLUMNS cells, each holding its column's CELLS / COLUMNS
pictures one over the other, all inside the column's one link if it has one.
Prints one summary line; exits non-zero with the reason on failure.
"""
import os
import re
import shutil
import zipfile
import sys

import mobi
from PIL import Image


def fail(msg):
    print("check_mobi: " + msg)
    sys.exit(1)


# A board: a <div> (a <p> would get a first-line indent).
BOARD = "<div>"


def check_kf8(epub, boards, cells):
    """The KF8 part as KindleUnpack unpacks it: every board a <div> with an
    id, every square an image, and every link lands on an id of its file."""
    with zipfile.ZipFile(epub) as z:
        pages = {n.rsplit("/", 1)[-1]: z.read(n).decode("utf-8")
                 for n in z.namelist() if n.startswith("OEBPS/Text/")}
    ids = {name: set(re.findall(r'<[a-z0-9]+ id="([^"]+)"', page)) for name, page in pages.items()}
    divs = sum(len(re.findall(r'<div id="', page)) for page in pages.values())
    if divs != boards:
        fail("KF8: %d boards, expected %d" % (divs, boards))
    imgs = sum(len(re.findall(r'<img alt="', page)) for page in pages.values())
    if imgs != cells * boards:
        fail("KF8: %d squares, expected %d" % (imgs, cells * boards))
    # Every square is an SVG flow, unpacked as an SVG file (sharp at any
    # size), and the pages show nothing that was not unpacked.
    with zipfile.ZipFile(epub) as z:
        files = set(z.namelist())
        for src in {s for page in pages.values() for s in re.findall(r'<img alt="[^"]*" src="\.\./([^"]+)"', page)}:
            if "OEBPS/" + src not in files:
                fail("KF8: %s is not unpacked" % src)
            if not src.endswith(".svg") or b"<svg" not in z.read("OEBPS/" + src)[:200]:
                fail("KF8: a square's image %s is not an SVG" % src)
    links = 0
    for name, page in pages.items():
        for file, anchor in re.findall(r'<a href="([^"#]*)#([^"]+)"', page):
            if anchor not in ids.get(file or name, ()):
                fail("KF8: %s links to %s#%s, which is not there" % (name, file, anchor))
            links += 1
    if links < boards:
        fail("KF8: only %d links" % links)


# A column of a MOBI 6 table as KindleUnpack writes it: its pictures one
# over the other, inside one link or none.
COLUMN = re.compile(r'<td>(<a href="#filepos\d+">)?(<img src="Images/[^"]+">(?:<br><img src="Images/[^"]+">)*)(</a>)?</td>')


def check_columns(text, boards, cells, columns):
    """Each board a table of `columns` cells, each column's pictures inside
    one link or none: a tap anywhere in the column follows its link."""
    tables = re.findall(r"<table[^>]*><tr>(.*?)</tr></table>", text)
    if len(tables) != boards:
        fail("MOBI 6: %d tables, expected a board each, %d" % (len(tables), boards))
    links = 0
    for table in tables:
        found = list(COLUMN.finditer(table))
        if len(found) != columns or "".join(m.group(0) for m in found) != table:
            fail("MOBI 6: not %d columns of pictures: %r" % (columns, table[:300]))
        for m in found:
            if bool(m.group(1)) != bool(m.group(3)):
                fail("MOBI 6: a link around part of a column: %r" % m.group(0))
            if m.group(2).count("<img") != cells // columns:
                fail("MOBI 6: a column of %d pictures: %r" % (m.group(2).count("<img"), m.group(0)))
            links += bool(m.group(1))
    if links < boards:
        fail("MOBI 6: only %d columns link" % links)


def main():
    path, boards = sys.argv[1], int(sys.argv[2])
    cells = int(sys.argv[3]) if len(sys.argv) > 3 else 9
    kf8_copy = sys.argv[4] if len(sys.argv) > 4 else None
    pictures = int(sys.argv[5]) if len(sys.argv) > 5 else cells
    columns = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    tempdir, kf8_epub = mobi.extract(path)
    try:
        # A combined file: KindleUnpack returns the EPUB of the KF8 part, and
        # unpacks the MOBI 6 part beside it.
        if not kf8_epub.endswith(".epub"):
            fail("no KF8 part unpacked: " + kf8_epub)
        html_path = os.path.join(tempdir, "mobi7", "book.html")
        if not os.path.exists(html_path):
            fail("no MOBI 6 part unpacked")
        check_kf8(kf8_epub, boards, cells)
        if kf8_copy:
            shutil.copy(kf8_epub, kf8_copy)
        text = open(html_path, encoding="utf-8").read()
        anchor = re.compile(r'<a id="filepos(\d+)" />')
        starts = {}
        for m in anchor.finditer(text):
            # Offsets, not slices: a slice copies the rest of the book.
            at = m.end()
            while text.startswith('<a id="filepos', at):
                at = text.index("/>", at) + 2
            if not (text.startswith(BOARD, at) or text.startswith("<h2>", at)):
                fail("filepos %s lands on %r" % (m.group(1), text[at:at + 30]))
            starts[m.group(1)] = m.end()
        links = re.findall(r'href="#filepos(\d+)"', text)
        for target in set(links):
            if target not in starts:
                fail("link to filepos %s has no anchor" % target)
        # Each anchor's screen runs to the next page break.
        ends = {}
        for pos_id, start in starts.items():
            end = text.find("<mbp:pagebreak", start)
            ends[pos_id] = len(text) if end < 0 else end
        first = min(starts, key=lambda k: starts[k])
        seen, queue = {first}, [first]
        while queue:
            here = queue.pop()
            for target in re.findall(r'href="#filepos(\d+)"', text[starts[here]:ends[here]]):
                if target not in seen:
                    seen.add(target)
                    queue.append(target)
        def board_at(pos):
            while text.startswith('<a id="filepos', pos):
                pos = text.index("/>", pos) + 2
            return text.startswith(BOARD, pos)
        reached_boards = sum(1 for k in seen if board_at(starts[k]))
        if reached_boards != boards:
            fail("%d boards reachable from the first page, expected %d" % (reached_boards, boards))
        images_dir = os.path.join(tempdir, "mobi7", "Images")
        names = sorted(os.listdir(images_dir))
        srcs = re.findall(r'<img[^>]*src="Images/([^"]+)"', text)
        # Every image decodes; those the text shows are GIFs (the first
        # Kindles' format), and the one it does not, the thumbnail a
        # Kindle installs as the book's tile, a PNG.
        formats = {}
        for name in names:
            with Image.open(os.path.join(images_dir, name)) as im:
                im.load()
                formats[name] = im.format
        for name in set(srcs):
            if formats.get(name) != "GIF":
                fail("%s is %s, not GIF" % (name, formats.get(name)))
        others = sorted(f for n, f in formats.items() if n not in set(srcs))
        if others.count("PNG") != 1 or any(f not in ("GIF", "PNG") for f in others):
            fail("the images the text does not show: %s, expected one PNG thumbnail" % others)
        if len(names) < 6:
            fail("only %d images" % len(names))
        # Every square's image tag was resolved to an image file.
        if len(srcs) != pictures * boards:
            fail("%d resolved square images, expected %d" % (len(srcs), pictures * boards))
        missing = set(srcs) - set(names)
        if missing:
            fail("images not unpacked: %s" % sorted(missing))
        if columns:
            check_columns(text, boards, cells, columns)
        print("check_mobi: %s: %d boards reachable, %d links, %d images decoded"
              % (os.path.basename(path), reached_boards, len(links), len(names)))
    finally:
        shutil.rmtree(tempdir, ignore_errors=True)


if __name__ == "__main__":
    main()
