// The board as large as each page allows, in the books: every EPUB in
// foliate-js and epub.js, and every MOBI's Kindle Format 8 part in
// foliate-js, at every size from a phone to a Kindle Scribe, portrait and
// landscape. Each time the screen shows one board, whole, with its caption
// and links; the board fills at least 80% of the page's width, or 80% of
// the height its caption leaves; and its rows and columns of images touch.
// The Towers of Hanoi, on a portrait page, fills 80% of the width and,
// drawn twice its pictures' height (the most a web page stretches it),
// 80% of the height its caption leaves or as much as that allows.
// foliate-js is given the whole screen, as a Kindle's page fills it (its
// defaults cap a page at 720 pixels wide).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SITE, SIZES, serve, browser, openInFoliate, openInEpubjs, fillScreen } from './lib.mjs';

const server = await serve();
after(() => server.close());

const books = (await readdir(join(SITE, 'ebooks'))).filter((f) => /\.(epub|mobi)$/.test(f)).sort();
// The Towers of Hanoi's board's height over its width in its pictures'
// own shape, as its web pages give it (`--a`).
const HANOI_ASPECT = Number(/--a:([0-9.]+)/.exec(await readFile(join(SITE, 'hanoi/0.html'), 'utf8'))[1]);

/** The boards with images on screen, and the one board's boxes: its
 * images by row, its caption and links, and the page (clip). */
function measure(p) {
  return p.evaluate(() => {
    const clip = window.clip();
    const seen = new Map();
    let loaded = true;
    for (const { doc, frame } of window.shown()) {
      for (const img of doc.querySelectorAll('img')) {
        if (img.classList.contains('cover')) continue;
        const r = img.getBoundingClientRect();
        const box = { left: frame.left + r.left, top: frame.top + r.top, width: r.width, height: r.height };
        box.right = box.left + r.width;
        box.bottom = box.top + r.height;
        const visible = r.width > 0 && box.right > clip.left && box.left < clip.right
          && box.bottom > clip.top && box.top < clip.bottom;
        if (!visible) continue;
        if (!img.complete || img.naturalWidth === 0) loaded = false;
        const div = img.closest('div[id]');
        if (!seen.has(div)) seen.set(div, { frame, images: [] });
        seen.get(div).images.push(box);
      }
    }
    const boards = [...seen.keys()].map((d) => d?.id ?? '?');
    if (boards.length !== 1) return { boards, loaded };
    const [[div, { frame, images }]] = [...seen.entries()];
    const offset = (e) => {
      const r = e.getBoundingClientRect();
      return { left: frame.left + r.left, top: frame.top + r.top, right: frame.left + r.right, bottom: frame.top + r.bottom };
    };
    const words = [...div.querySelectorAll('p')].slice(1).map(offset);
    const links = [...div.querySelectorAll('p:not(:first-child) a')].map(offset);
    const all = div.querySelectorAll('img').length;
    return { boards, loaded, all, images, words, links, clip: { left: clip.left, top: clip.top, right: clip.right, bottom: clip.bottom, width: clip.width, height: clip.height } };
  });
}

/** Waits until the screen is loaded and the same twice in a row. */
async function settled(p) {
  let s, last = null;
  for (let i = 0; i < 80; i++) {
    s = await measure(p);
    const key = JSON.stringify(s);
    const ready = s.loaded && s.boards.length > 0;
    if (ready && key === last) return s;
    last = ready ? key : null;
    await p.waitForTimeout(120);
  }
  return s;
}

const within = (c, r) => r.left >= c.left - 1 && r.right <= c.right + 1 && r.top >= c.top - 1 && r.bottom <= c.bottom + 1;

/** Checks one screen: one whole board, its words on screen, the fill and
 * no seams; returns the fill, and the fills of the width and of the
 * height, and the board's height over its width. */
function check(s, where) {
  assert.equal(s.boards.length, 1, `${where}: one board on screen: ${s.boards}`);
  assert.equal(s.images.length, s.all, `${where}: every image of the board is on screen`);
  for (const r of [...s.images, ...s.words, ...s.links]) {
    assert.ok(within(s.clip, r), `${where}: ${JSON.stringify(r)} is off the page ${JSON.stringify(s.clip)}`);
  }
  // Rows: images that share a top, in order.
  const rows = [];
  for (const r of s.images) {
    const row = rows.at(-1);
    if (row && Math.abs(row[0].top - r.top) <= 0.5) row.push(r);
    else rows.push([r]);
  }
  const board = { left: Math.min(...s.images.map((r) => r.left)), right: Math.max(...s.images.map((r) => r.right)),
    top: rows[0][0].top, bottom: rows.at(-1)[0].bottom };
  let bottom = board.top;
  for (const [i, row] of rows.entries()) {
    assert.ok(Math.abs(row[0].top - bottom) <= 0.5, `${where}: a gap of ${(row[0].top - bottom).toFixed(2)} above row ${i}`);
    for (let c = 1; c < row.length; c += 1) {
      assert.ok(Math.abs(row[c].left - row[c - 1].right) <= 0.5, `${where}: a gap in row ${i}`);
    }
    bottom = Math.max(...row.map((r) => r.bottom));
  }
  // The fill: of the page's width, or of the height the words leave.
  const words = s.words.reduce((h, r) => Math.max(h, r.bottom), board.bottom) - board.bottom;
  const [width, height] = [board.right - board.left, board.bottom - board.top];
  const fills = { width: width / s.clip.width, height: height / (s.clip.height - words), shape: height / width };
  const fill = Math.max(fills.width, fills.height);
  assert.ok(fill >= 0.8, `${where}: the board fills ${fill.toFixed(2)}`);
  return { fill, ...fills };
}

/** The Towers of Hanoi on a portrait page: 80% of the width, and 80% of
 * the height left or twice its pictures' height (a 1% grace for the
 * pixels' rounding). */
function checkTall(f, where) {
  assert.ok(f.width >= 0.8, `${where}: the board fills ${f.width.toFixed(2)} of the width`);
  assert.ok(f.height >= 0.8 || f.shape >= 2 * HANOI_ASPECT * 0.99,
    `${where}: the board fills ${f.height.toFixed(2)} of the height, drawn ${(f.shape / HANOI_ASPECT).toFixed(2)} times its pictures' height`);
}

const ENGINES = [
  ['foliate-js', /\.(epub|mobi)$/],
  ['epub.js', /\.epub$/],
];

for (const [engine, takes] of ENGINES) {
  test(`every book's board is as large as the page allows, whole and seamless, in ${engine}`, async () => {
    const worst = {};
    let measured = 0;
    const b = await browser(SIZES[0]);
    try {
      for (const name of books.filter((f) => takes.test(f))) {
        const url = `${server.base}ebooks/${name}`;
        if (engine === 'foliate-js') {
          const kind = await openInFoliate(b.page, server, url);
          if (name.endsWith('.mobi')) assert.equal(kind, 'KF8', name);
        } else {
          await openInEpubjs(b.page, server, url, SIZES[0]);
        }
        for (const size of SIZES) {
          const where = `${name} in ${engine} at ${size.width}x${size.height}`;
          await b.page.setViewportSize(size);
          if (engine === 'foliate-js') await fillScreen(b.page, size);
          else await b.page.evaluate(({ width, height }) => window.fit(width, height), size);
          const s = await settled(b.page);
          if (process.env.SHOTS) await b.page.screenshot({ path: `${process.env.SHOTS}/${name}-${engine}-${size.width}x${size.height}.png` });
          const { fill, ...fills } = check(s, where);
          if (name.startsWith('towers-hanoi') && size.height > size.width) {
            checkTall(fills, where);
            console.log(`# ${where}: ${fills.width.toFixed(2)} of the width, ${fills.height.toFixed(2)} of the height, ${(fills.shape / HANOI_ASPECT).toFixed(2)} times its pictures' height`);
          }
          const key = `${size.width}x${size.height}`;
          worst[key] = Math.min(worst[key] ?? 1, fill);
          measured += 1;
        }
      }
    } finally {
      await b.close();
    }
    assert.ok(measured >= SIZES.length * 5, `measured ${measured}`);
    console.log(`# least fill in ${engine}: ${Object.entries(worst).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
  });
}
