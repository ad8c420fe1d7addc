// The books in reading engines, in headless Chromium: epub.js 0.3 plays a
// game in the two-player EPUB, paginated, at phone and e-ink sizes, with
// exactly one whole board on screen each time; the Kindle HTML (of
// tic-tac-toe and of the Towers of Hanoi) and the
// MOBI's text (as libmobi's mobitool rebuilds it, MOBI_HTML) show each
// board whole inside a 600x800 screen.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { serve, browser, SITE } from './lib.mjs';

const require = createRequire(import.meta.url);
const JSZIP = require.resolve('jszip/dist/jszip.min.js');
const EPUBJS = require.resolve('epubjs/dist/epub.min.js');
const EINK = { width: 600, height: 800 };
const PHONE = { width: 360, height: 640 };

const server = await serve();
after(() => server.close());

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
      await p.goto(server.base + 'index.html');
      await p.evaluate(() => {
        document.documentElement.innerHTML = '<head></head><body style="margin:0"><div id="viewer"></div></body>';
      });
      await p.addScriptTag({ path: JSZIP });
      await p.addScriptTag({ path: EPUBJS });
      await p.evaluate(async ({ url, w, h }) => {
        window.book = window.ePub(url);
        window.rendition = window.book.renderTo('viewer', { width: w, height: h, flow: 'paginated', spread: 'none' });
        await window.rendition.display('b001.xhtml#0');
      }, { url: server.base + 'ebooks/tictactoe-two-player.epub', w: viewport.width, h: viewport.height });
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
