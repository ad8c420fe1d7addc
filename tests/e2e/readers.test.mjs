// The books in reading engines, in headless Chromium: epub.js 0.3 plays a
// game in the two-player EPUB, paginated, at phone and e-ink sizes, with
// exactly one whole board on screen each time; the Kindle HTML (of
// tic-tac-toe and of the Towers of Hanoi) and the
// MOBI's text (as libmobi's mobitool rebuilds it, MOBI_HTML) show each
// board whole inside a 600x800 screen. Then the Towers of Hanoi at 3 and
// 7 discs (HANOI_SITES) in epub.js and foliate-js (EPUB and MOBI), at
// phone and e-ink sizes: played to solved by its marked moves, and paged
// through, one whole board a screen; and the 3-disc MOBI's MOBI 6 part,
// as the first Kindles read it, played to solved in foliate-js at 600x800.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, browser, openInFoliate, openInEpubjs, SITE } from './lib.mjs';

const require = createRequire(import.meta.url);
const JSZipLib = require('jszip');
const EINK = { width: 600, height: 800 };
const PHONE = { width: 360, height: 640 };
// A Kindle Paperwhite's screen.
const PAPERWHITE = { width: 1072, height: 1448 };

// Towers of Hanoi sites at other disc counts, `3=DIR,7=DIR`, served at /hanoiN/.
const HANOI = Object.fromEntries((process.env.HANOI_SITES || '').split(',').filter(Boolean)
  .map((kv) => kv.split('=')));
// Books made here from the built ones (see `mobi6Only`), served at /made/.
const MADE = await mkdtemp(join(tmpdir(), 'ttt-books-'));
const server = await serve({
  ...Object.fromEntries(Object.entries(HANOI).map(([n, dir]) => [`/hanoi${n}/`, dir])),
  '/made/': MADE,
});
after(async () => {
  await server.close();
  await rm(MADE, { recursive: true, force: true });
});

/** A board's page id (hex) from its cells, 'x', 'o' or '.', reading order. */
function anchorOf(cells) {
  let id = 0;
  for (const c of cells) id = id * 3 + ({ '.': 0, x: 1, o: 2 })[c];
  return id.toString(16);
}

/** The boards (div ids) with images on screen, and whether each is whole. */
async function onScreen(page) {
  return page.evaluate(() => {
    const frame = document.querySelector('#viewer iframe');
    const doc = frame?.contentDocument;
    if (!doc) return {}; // between two sections
    const box = frame.getBoundingClientRect();
    const view = document.querySelector('#viewer').getBoundingClientRect();
    const seen = {};
    for (const img of doc.querySelectorAll('img')) {
      const r = img.getBoundingClientRect();
      const x = box.left + r.left, y = box.top + r.top;
      const visible = x + r.width > view.left && x < view.right && y + r.height > view.top && y < view.bottom;
      if (!visible) continue;
      const whole = x >= view.left - 1 && x + r.width <= view.right + 1 && y >= view.top - 1 && y + r.height <= view.bottom + 1;
      const id = img.closest('div[id]')?.id ?? '?';
      seen[id] ??= { images: 0, whole: 0 };
      seen[id].images++;
      if (whole) seen[id].whole++;
    }
    return seen;
  });
}

for (const [size, viewport] of [['phone', PHONE], ['e-ink', EINK]]) {
  test(`epub.js shows one whole board a page and plays a game (${size})`, async () => {
    const b = await browser(viewport);
    const p = b.page;
    try {
      await epubjs(p, server.base + 'ebooks/tictactoe-two-player.epub', viewport);
      const cells = '.........'.split('');
      // epub.js may relocate more than once (to the file, then the board):
      // wait until the board expected is on screen, then check the screen.
      const showing = async (id) => {
        for (let i = 0; i < 50; i++) {
          const seen = await onScreen(p);
          if (seen[id]) return seen;
          await p.waitForTimeout(100);
        }
        return onScreen(p);
      };
      for (const [n, sq] of [0, 3, 1, 4, 2].entries()) {
        const seen = await showing(anchorOf(cells));
        const ids = Object.keys(seen);
        assert.deepEqual(ids, [anchorOf(cells)], `one board on screen: ${JSON.stringify(seen)}`);
        assert.deepEqual(seen[ids[0]], { images: 9, whole: 9 }, 'the whole board is on screen');
        // Click the square like a reader: epub.js follows the link.
        const frame = p.frameLocator('#viewer iframe');
        await frame.locator(`div[id="${ids[0]}"] img`).nth(sq).click();
        cells[sq] = n % 2 ? 'o' : 'x';
      }
      const seen = await showing(anchorOf(cells));
      assert.deepEqual(Object.keys(seen), [anchorOf(cells)], JSON.stringify(seen));
      const text = await p.frameLocator('#viewer iframe').locator(`div[id="${anchorOf(cells)}"]`).innerText();
      assert.match(text, /X wins/);
      assert.deepEqual(b.failed, [], 'every request succeeded');
    } finally {
      await b.close();
    }
  });
}

/** Opens `url#anchor` at e-ink size; the `rows` rows of three images
 * after the anchor (a board) must sit inside the screen. */
async function wholeBoardAt(p, url, anchor, images, rows = 3) {
  await p.goto(`${url}#${anchor}`);
  const boxes = await p.evaluate(([id, selector, n]) => {
    const start = document.getElementById(id);
    const all = [...document.querySelectorAll(selector)];
    const after = all.filter((img) => start.compareDocumentPosition(img) & Node.DOCUMENT_POSITION_FOLLOWING);
    return after.slice(0, n).map((i) => i.getBoundingClientRect().toJSON());
  }, [anchor, images, 3 * rows]);
  assert.equal(boxes.length, 3 * rows, `${anchor}: ${3 * rows} cells`);
  for (const r of boxes) {
    // A pixel's grace: an anchor scrolls the line box, not the image, to the top.
    assert.ok(r.left >= -1 && r.right <= EINK.width + 1 && r.top >= -1 && r.bottom <= EINK.height + 1,
      `${anchor}: cell ${JSON.stringify(r)} is inside 600x800`);
  }
  // Rows of three: as many distinct tops as rows, three cells each.
  const tops = [...new Set(boxes.map((r) => Math.round(r.top)))];
  assert.equal(tops.length, rows, `${anchor}: ${rows} rows`);
}

test('the Kindle HTML shows each board whole at 600x800', async () => {
  const b = await browser(EINK);
  try {
    const url = pathToFileURL(`${SITE}/ebooks/tictactoe-two-player-kindle.html`).href;
    // The empty board, X in the centre, and a board won by X.
    for (const anchor of ['0', '51', anchorOf('xxxoo....')]) await wholeBoardAt(b.page, url, anchor, 'img');
  } finally {
    await b.close();
  }
});

test('the Kindle HTML of the Towers of Hanoi shows each board whole at 600x800', async () => {
  const b = await browser(EINK);
  try {
    const url = pathToFileURL(`${SITE}/ebooks/towers-hanoi-analysis-kindle.html`).href;
    // SITE_DIR has 4 discs: the air and four levels. The start, the
    // smallest disc lifted, and the solved position (key 80 * 4 = 140).
    for (const anchor of ['0', '1', '140']) await wholeBoardAt(b.page, url, anchor, 'img', 5);
  } finally {
    await b.close();
  }
});

/** The first `boards` boards of the Kindle HTML at `path` (each a
 * `<p class="b">`, or a `<div>` of a table, that starts a page), cut before the next and closed, as
 * a file of its own: a browser lays out a board the same whatever follows
 * it, and the 7-disc book's file is 12 MB, which Chromium takes minutes
 * to lay out whole. */
async function firstPages(path, boards) {
  const html = await readFile(path, 'utf8');
  let at = 0;
  for (let i = 0; i <= boards && at >= 0; i++) at = html.indexOf(' class="b"', at + 1);
  at = html.lastIndexOf('<', at);
  assert.ok(at > 0, `${path} has over ${boards} boards`);
  // In MADE, which goes when the tests end.
  const out = join(await mkdtemp(join(MADE, 'kindle-')), 'first.html');
  // Its images where the book's are.
  const base = `<head><base href="${pathToFileURL(path).href}">`;
  await writeFile(out, `${html.slice(0, at).replace('<head>', base)}</body></html>`);
  return pathToFileURL(out).href;
}

test('the Kindle HTML of the 7-disc Towers of Hanoi shows each board whole at 600x800', { skip: !HANOI[7] }, () =>
  withPage(EINK, async (page) => {
    const url = await firstPages(`${HANOI[7]}/ebooks/towers-hanoi-analysis-kindle.html`, 40);
    // The tallest boards: the air and seven levels. The start, and the
    // smallest disc lifted.
    for (const anchor of ['0', '1']) await wholeBoardAt(page, url, anchor, 'img', 8);
  }));

test('the MOBI, as libmobi rebuilds it, shows each board whole at 600x800', { skip: !process.env.MOBI_HTML }, async () => {
  const b = await browser(EINK);
  try {
    const url = pathToFileURL(process.env.MOBI_HTML).href;
    const anchors = await (async () => {
      await b.page.goto(url);
      return b.page.evaluate(() => [...document.querySelectorAll('a[id]')].map((a) => a.id).filter((id) => /^\d+$/.test(id)));
    })();
    assert.ok(anchors.length > 5000, `${anchors.length} anchors`);
    // The opening page is the first anchor; take boards from the start,
    // the middle and the end of the book.
    for (const i of [1, 2, 3, 2000, anchors.length - 1]) await wholeBoardAt(b.page, url, anchors[i], 'img');
  } finally {
    await b.close();
  }
});

// ---------------------------------------------------------------------
// The Towers of Hanoi in epub.js and foliate-js: one whole board on every
// screen, and the 3-disc puzzle played to solved by its marked moves.

/** Opens `url` in epub.js at its first board (see lib.mjs). */
const epubjs = (p, url, viewport) => openInEpubjs(p, server, url, viewport);

/** Opens `url` in foliate-js at its first board (see lib.mjs). */
const foliate = (p, url) => openInFoliate(p, server, url);

/** What the reader shows: each board with images on screen (by its id,
 * or its section where a board is a section of its own), how many are
 * whole, the images' centres and whether each is a link, and the text. */
async function screen(p) {
  return p.evaluate(async () => {
    const bytes = async (src) => (window.picture ? window.picture(new Uint8Array(await (await fetch(src)).arrayBuffer())) : '');
    const out = { boards: {}, extent: {}, cells: [], text: '', loaded: true };
    const clip = window.clip();
    for (const { doc, frame, section } of window.shown()) {
      for (const img of doc.querySelectorAll('img')) {
        // The opening page's picture of the cover is no board.
        if (img.classList.contains('cover')) continue;
        const r = img.getBoundingClientRect();
        const x = frame.left + r.left, y = frame.top + r.top;
        const visible = x + r.width > clip.left && x < clip.right && y + r.height > clip.top && y < clip.bottom;
        if (!img.complete || img.naturalWidth === 0) out.loaded = false;
        if (!visible || r.width === 0) continue;
        const whole = x >= clip.left - 1 && x + r.width <= clip.right + 1 && y >= clip.top - 1 && y + r.height <= clip.bottom + 1;
        const board = img.closest('div[id]');
        const id = board?.id ?? `section ${section}`;
        out.boards[id] ??= { images: 0, whole: 0 };
        out.boards[id].images++;
        if (whole) out.boards[id].whole++;
        const e = out.extent[id] ??= { left: x, right: x + r.width, top: y, bottom: y + r.height };
        Object.assign(e, { left: Math.min(e.left, x), right: Math.max(e.right, x + r.width),
          top: Math.min(e.top, y), bottom: Math.max(e.bottom, y + r.height) });
        const link = img.closest('a') !== null;
        out.cells.push({ x: x + r.width / 2, y: y + r.height / 2, w: r.width, h: r.height, link, bytes: link ? await bytes(img.src) : '' });
        if (!out.text) out.text = (board ?? doc.body).innerText;
      }
    }
    return out;
  });
}

/** Waits until the screen has every image loaded and stays the same for
 * a moment (a reader may move twice: to the file, then to the board);
 * returns it. With `last`, also until it shows one board, not `last`. */
async function settled(p, last) {
  let s, seen = null;
  for (let i = 0; i < 100; i++) {
    s = await screen(p);
    const key = JSON.stringify(s);
    const moved = last === undefined || (Object.keys(s.boards).length === 1 && JSON.stringify(s.cells) !== last);
    if (s.loaded && moved && key === seen) return s;
    seen = s.loaded && moved ? key : null;
    await p.waitForTimeout(150);
  }
  return s;
}

/** One whole board of `cells` images is on screen. */
function assertOneWholeBoard(s, cells, where) {
  const ids = Object.keys(s.boards);
  assert.equal(ids.length, 1, `${where}: one board on screen: ${JSON.stringify(s.boards)}`);
  assert.deepEqual(s.boards[ids[0]], { images: cells, whole: cells }, `${where}: the whole board is on screen`);
}

/** Plays the 3-disc puzzle from its first board to solved, each time
 * finding the one linked cell whose picture is the marked best peg's
 * (`marked`, the image's bytes) and tapping its column, a cell further
 * down each time (the air, a disc or the bare peg, the bottom level on
 * the base), at its middle (the disc, or the peg) or near its corner
 * (the air beside the peg): the whole column is its link. A tap that
 * missed would leave the board as it was, and the game would take more
 * than 14 selections. 7 moves, 14 selections. `pictures`: a board's
 * (the MOBI 6 part's has the base under the board, one more). */
async function playHanoiToSolved(p, marked, pictures = 12) {
  marked = await p.evaluate(definePicture, marked);
  let s = await settled(p, null);
  let selections = 0;
  while (!/Solved/.test(s.text)) {
    assertOneWholeBoard(s, pictures, `after ${selections} selections`);
    const best = s.cells.filter((c) => c.link && c.bytes === marked);

    assert.equal(best.length, 1, `one marked peg: ${s.text}`);
    // The cells above and below it, as wide (not the base, the board's width).
    const column = s.cells.filter((c) => Math.abs(c.x - best[0].x) < 1 && Math.abs(c.w - best[0].w) < 1);
    assert.equal(column.length, 4, 'the air and three levels');
    const tap = column[selections % column.length];
    // The middle, then (on the next round of the column) a point a tenth
    // of the cell in from its top left corner: air beside the peg.
    const corner = Math.floor(selections / column.length) % 2 === 1;
    const [x, y] = corner ? [tap.x - 0.4 * tap.w, tap.y - 0.4 * tap.h] : [tap.x, tap.y];
    const [here, top] = [await linkAt(p, x, y), await linkAt(p, best[0].x, best[0].y)];
    assert.ok(here && here === top, `a tap at ${x},${y} lands in the peg's link ${top}, not ${here}: ${JSON.stringify(column)}`);
    await p.mouse.click(x, y);
    selections++;
    assert.ok(selections <= 14, 'solved within 7 moves');
    s = await settled(p, JSON.stringify(s.cells));
  }
  assertOneWholeBoard(s, pictures, 'solved');
  assert.equal(selections, 14, 'solved in 7 moves');
}

/** The `href` of the link a tap at `x`, `y` (on the page) lands in, as
 * the reader's frame hit-tests it, or null. */
function linkAt(p, x, y) {
  return p.evaluate(([x, y]) => {
    for (const { doc, frame } of window.shown()) {
      const e = doc.elementFromPoint(x - frame.left, y - frame.top);
      if (e) return e.closest('a')?.getAttribute('href') ?? null;
    }
    return null;
  }, [x, y]);
}

/** Turns `pages` pages from the first board; each screen shows one whole
 * board (of `cells` images) or none (a screen of text). As a reader
 * would, it waits for the first board before turning: foliate-js never
 * ends a turn asked for while it still goes to the board clicked. */
async function turnPages(p, cells, pages) {
  let boards = 0;
  for (let i = 0; i < pages; i++) {
    const s = await settled(p, i === 0 ? '' : undefined);
    if (Object.keys(s.boards).length > 0) {
      assertOneWholeBoard(s, cells, `screen ${i}`);
      boards++;
    }
    await p.evaluate(() => window.turn());
  }
  assert.ok(boards >= pages - 2, `${boards} of ${pages} screens show a board`);
}

const bytesOf = async (path) => [...await readFile(path)];

/** In the page, defines `window.picture(bytes)`: a picture's identity,
 * its bytes, or an SVG's markup as the browser serialises it (foliate-js
 * hands an EPUB's SVG to the page rewritten); returns that of `bytes`. */
function definePicture(bytes) {
  window.picture = (b) => {
    if (b[0] !== 0x3c) return Array.from(b).join(',');
    const doc = new DOMParser().parseFromString(new TextDecoder().decode(b), 'image/svg+xml');
    return new XMLSerializer().serializeToString(doc.documentElement);
  };
  return window.picture(Uint8Array.from(bytes));
}

async function epubImage(path, name) {
  const zip = await JSZipLib.loadAsync(await readFile(path));
  return [...await zip.file(`OEBPS/${name}`).async('uint8array')];
}

/** How long one test may take: the slowest takes under a minute here,
 * even beside other tests, and a reader that never ends a turn fails its
 * test instead of hanging the run. */
const LIMIT_MS = 600_000;

/** Runs `f` on a page of a fresh Chromium at `viewport`, then closes it;
 * fails if `f` has not ended within [`LIMIT_MS`]. */
async function withPage(viewport, f) {
  const b = await browser(viewport);
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done within ${LIMIT_MS / 1000} s`)), LIMIT_MS);
  });
  try {
    await Promise.race([f(b.page, b), limit]);
  } finally {
    clearTimeout(timer);
    await b.close();
  }
}

for (const [size, viewport] of [['phone', PHONE], ['e-ink', EINK]]) {
  const three = `${HANOI[3]}/ebooks/towers-hanoi-analysis`;
  const url = `${server.origin}/hanoi3/ebooks/towers-hanoi-analysis.epub`;
  test(`epub.js plays the 3-disc Towers of Hanoi to solved, one whole board a screen (${size})`, { skip: !HANOI[3] }, () =>
    withPage(viewport, async (page, b) => {
      await epubjs(page, url, viewport);
      await playHanoiToSolved(page, await epubImage(`${three}.epub`, 'hab.svg'));
      assert.deepEqual(b.failed, []);
    }));

  test(`foliate-js plays the 3-disc Towers of Hanoi EPUB to solved, one whole board a screen (${size})`, { skip: !HANOI[3] }, () =>
    withPage(viewport, async (page) => {
      await foliate(page, url);
      await playHanoiToSolved(page, await epubImage(`${three}.epub`, 'hab.svg'));
    }));
}

/** The board's width on the screen `s`, which shows one board. */
const boardWidth = (s) => {
  const [e] = Object.values(s.extent);
  return e.right - e.left;
};

/** Plays tic-tac-toe from the empty board to X's win on the top row
 * (X top left, O left, X top, O centre, X top right), clicking each
 * square; every screen shows one whole board. Returns the boards' widths. */
async function playTicTacToeToWin(p) {
  let s = await settled(p, null);
  const widths = [];
  for (const [n, sq] of [0, 3, 1, 4, 2].entries()) {
    assertOneWholeBoard(s, 9, `after ${n} moves`);
    assert.match(s.text, n % 2 ? /O to move/ : /X to move/, `after ${n} moves`);
    assert.ok(s.cells[sq].link, `square ${sq} is a link after ${n} moves`);
    widths.push(boardWidth(s));
    await p.mouse.click(s.cells[sq].x, s.cells[sq].y);
    s = await settled(p, JSON.stringify(s.cells));
  }
  assertOneWholeBoard(s, 9, 'won');
  assert.match(s.text, /X wins/);
  widths.push(boardWidth(s));
  return widths;
}

// The MOBI's Kindle Format 8 part, which foliate-js (as every Kindle since
// 2011) reads instead of the MOBI 6 part: its stylesheet sizes the board
// to the screen as the EPUB's does, so the board is as large as the
// EPUB's in the same reader, at a phone's, a first Kindle's and a
// Paperwhite's size.
for (const [size, viewport] of [['phone', PHONE], ['e-ink', EINK], ['Paperwhite', PAPERWHITE]]) {
  test(`foliate-js plays tic-tac-toe in the MOBI's KF8 part to a win, one whole board a screen, as large as the EPUB's (${size})`, () =>
    withPage(viewport, async (page) => {
      assert.equal(await foliate(page, `${server.base}ebooks/tictactoe-two-player.epub`), 'EPUB');
      const epub = await playTicTacToeToWin(page);
      assert.equal(await foliate(page, `${server.base}ebooks/tictactoe-two-player.mobi`), 'KF8');
      const kf8 = await playTicTacToeToWin(page);
      for (const [i, w] of kf8.entries()) {
        assert.ok(Math.abs(w - epub[i]) <= 3, `board ${i}: ${w} pixels wide in the KF8 part, ${epub[i]} in the EPUB`);
      }
    }));

  test(`foliate-js plays the 3-disc Towers of Hanoi MOBI's KF8 part to solved, one whole board a screen (${size})`, { skip: !HANOI[3] }, () =>
    withPage(viewport, async (page) => {
      assert.equal(await foliate(page, `${server.origin}/hanoi3/ebooks/towers-hanoi-analysis.mobi`), 'KF8');
      // The KF8 part draws the EPUB's SVG (the web's, drawn twice as tall).
      await playHanoiToSolved(page, await epubImage(`${HANOI[3]}/ebooks/towers-hanoi-analysis.epub`, 'hab.svg'));
    }));
}

// Seven discs: eight rows of cells, the tallest board.
for (const [size, viewport] of [['phone', PHONE], ['e-ink', EINK]]) {
  test(`the 7-disc Towers of Hanoi EPUB shows one whole board a screen in epub.js and foliate-js (${size})`, { skip: !HANOI[7] }, () =>
    withPage(viewport, async (page) => {
      const url = `${server.origin}/hanoi7/ebooks/towers-hanoi-analysis.epub`;
      await epubjs(page, url, viewport);
      await turnPages(page, 24, 12);
      await foliate(page, url);
      await turnPages(page, 24, 12);
    }));
}

for (const [size, viewport] of [['phone', PHONE], ['e-ink', EINK]]) {
  test(`foliate-js shows one whole board a screen in the MOBIs (${size})`, { skip: !HANOI[7] }, () =>
    withPage(viewport, async (page) => {
      await foliate(page, `${server.origin}/hanoi7/ebooks/towers-hanoi-analysis.mobi`);
      await turnPages(page, 24, 12);
      await foliate(page, `${server.base}ebooks/tictactoe-two-player.mobi`);
      await turnPages(page, 9, 12);
    }));
}

/** A copy of the MOBI at `path`, in MADE as `name`, whose record 0 names
 * no KF8 part (EXTH 121, the boundary, set to none), so that foliate-js
 * reads its MOBI 6 part, as the first Kindles read the book; returns its
 * URL. */
async function mobi6Only(path, name) {
  const b = await readFile(path);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const r0 = v.getUint32(78);
  const exth = r0 + 16 + v.getUint32(r0 + 20);
  assert.equal(b.toString('latin1', exth, exth + 4), 'EXTH');
  let at = exth + 12;
  let found = false;
  for (let n = v.getUint32(exth + 8); n > 0; n--) {
    if (v.getUint32(at) === 121) {
      v.setUint32(at + 8, 0xffffffff);
      found = true;
    }
    at += v.getUint32(at + 4);
  }
  assert.ok(found, `${path} names its KF8 part`);
  await writeFile(join(MADE, name), b);
  return `${server.origin}/made/${name}`;
}

// The MOBI 6 part, which the first Kindles read: no stylesheet, each
// picture at its own size, and a table of a column a cell, each peg's
// pictures in its one link, so a tap on the disc, the peg or the air
// follows it.
test('foliate-js plays the 3-disc Towers of Hanoi in the MOBI 6 part to solved, one whole board a screen (e-ink)', { skip: !HANOI[3] }, () =>
  withPage(EINK, async (page) => {
    const url = await mobi6Only(`${HANOI[3]}/ebooks/towers-hanoi-analysis.mobi`, 'hanoi3-mobi6.mobi');
    assert.equal(await foliate(page, url), 'MOBI6');
    // The MOBI 6 part draws the Kindle source's GIFs, and the base under
    // the board.
    await playHanoiToSolved(page, await bytesOf(`${HANOI[3]}/ebooks/hab.gif`), 13);
  }));
