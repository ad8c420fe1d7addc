// The board as large as each screen allows: in every web edition of both
// games, at every size from a phone to a Kindle Scribe, portrait and
// landscape, the links, the heading, the lines under it and the whole
// board lie on one screen, and the page does not scroll; the board fills at least 80% of the width, or
// 80% of the height the rest leaves; and its rows and columns of images
// touch, with no seam. Pages: each folder's first by name, and the two with the
// most words above the board (the heading and lines wrap on a phone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SITE, SIZES, browser, inside, layout } from './lib.mjs';


/** Every folder of web pages under `dir` (relative), sorted. */
async function folders(dir = '') {
  const out = [];
  const entries = (await readdir(join(SITE, dir), { withFileTypes: true }))
    .sort((a, b) => a.name.localeCompare(b.name));
  if (dir && entries.some((e) => e.isFile() && e.name.endsWith('.html'))) out.push(dir);
  for (const e of entries) if (e.isDirectory()) out.push(...await folders(join(dir, e.name)));
  return out;
}

/** The box of a page's board: `class=b`, or `class="b c"` where each move
 * is a whole column (the Towers of Hanoi). */
const BOARD = /<div class="?b[ ">]/;

/** The words above a page's board. */
function above(html) {
  const start = html.indexOf('<h1>');
  const end = html.search(BOARD);
  return start < 0 || end < 0 ? '' : html.slice(start, end).replace(/<[^>]*>/g, ' ');
}

test('every web board is as large as the screen allows, whole and seamless', async () => {
  const b = await browser(SIZES[0]);
  const worst = {};
  try {
    const dirs = await folders();
    assert.ok(dirs.includes('two-player') && dirs.includes('hanoi') && dirs.includes('vs-computer/16'), dirs.join());
    const boards = new Set();
    let measured = 0;
    for (const dir of dirs) {
      const names = (await readdir(join(SITE, dir))).filter((f) => f.endsWith('.html')).sort();
      // A folder of boards (not the books' single files).
      if (!BOARD.test(await readFile(join(SITE, dir, names[0]), 'utf8'))) continue;
      const words = await Promise.all(names.map(async (name) =>
        ({ name, n: above(await readFile(join(SITE, dir, name), 'utf8')).length })));
      const pages = new Set([names[0], ...words.sort((a, c) => c.n - a.n).slice(0, 2).map((w) => w.name)]);
      boards.add(dir);
      for (const name of pages) {
        await b.page.goto(pathToFileURL(join(SITE, dir, name)).href);
        for (const size of SIZES) {
          const where = `${dir}/${name} at ${size.width}x${size.height}`;
          await b.page.setViewportSize(size);
          const seen = await layout(b.page);
          assert.deepEqual(seen.scroll, [0, 0], where);
          assert.ok(seen.overflow[0] <= 0 && seen.overflow[1] <= 0, `${where}: the page scrolls by ${seen.overflow}`);
          for (const r of [...seen.others, seen.table]) {
            assert.ok(inside(seen, r), `${where}: ${JSON.stringify(r)} is off the screen`);
          }
          // The fill: of the width, or of the height left below the words.
          const t = seen.table;
          const fill = Math.max(t.width / seen.width, t.height / (seen.height - t.top));
          assert.ok(fill >= 0.8, `${where}: the board fills ${fill.toFixed(2)}`);
          const key = `${size.width}x${size.height}`;
          worst[key] = Math.min(worst[key] ?? 1, fill);
          // No seams: each image touches the next in its row, each row the
          // next, and the rows make the board's whole height.
          let bottom = t.top;
          for (const [i, row] of seen.rows.entries()) {
            assert.ok(Math.abs(row[0].top - bottom) <= 0.5, `${where}: a gap above row ${i}`);
            assert.ok(Math.abs(row[0].left - t.left) <= 0.5, `${where}: row ${i} starts inside`);
            for (let c = 1; c < row.length; c += 1) {
              assert.ok(Math.abs(row[c].left - row[c - 1].right) <= 0.5, `${where}: a gap in row ${i}`);
              assert.ok(Math.abs(row[c].top - row[0].top) <= 0.5 && Math.abs(row[c].height - row[0].height) <= 0.5,
                `${where}: row ${i} is ragged`);
            }
            bottom = row[0].bottom;
          }
          assert.ok(Math.abs(bottom - t.bottom) <= 0.5, `${where}: a gap under the last row`);
          measured += 1;
        }
      }
    }
    assert.ok(measured >= 200, `measured ${measured}`);
    assert.ok(boards.has('hanoi') && boards.has('hanoi-analysis'), [...boards].join());
    // The least fill at each size, for the record.
    console.log(`# least fill: ${Object.entries(worst).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
  } finally {
    await b.close();
  }
});

// Links a finger can hit: on a phone and a desktop, every link of the home
// page, and of a tic-tac-toe page of each web edition, is at least 44 by
// 44 CSS pixels, and no two links overlap. A link in a sentence stays in
// its line: it is one box, not a block of its own (the 44 pixels come from
// its padding), unless its own words wrap.
test('every link of the home page and the tic-tac-toe pages is 44 pixels or more, apart', async () => {
  const b = await browser(SIZES[1]);
  try {
    for (const page of ['index.html', 'two-player/0.html', 'analysis/0.html', 'vs-computer/1/0.html']) {
      await b.page.goto(pathToFileURL(join(SITE, page)).href);
      for (const size of [SIZES[1], { width: 1280, height: 800 }]) {
        const where = `${page} at ${size.width}x${size.height}`;
        await b.page.setViewportSize(size);
        const links = await b.page.evaluate(() => [...document.querySelectorAll('a')].map((a) => {
          const r = a.getBoundingClientRect();
          // In a sentence: in a paragraph with words of its own, not the
          // row of links at the top of a page.
          const p = a.parentElement;
          const words = p.tagName === 'P' && [...p.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
          return {
            text: a.textContent || a.querySelector('img')?.alt, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            inSentence: words, display: getComputedStyle(a).display,
          };
        }));
        assert.ok(links.length > 3, where);
        for (const l of links.filter((l) => l.inSentence)) {
          assert.equal(l.display, 'inline', `${where}: "${l.text}" in a sentence`);
        }
        for (const l of links) {
          assert.ok(l.right - l.left >= 44 && l.bottom - l.top >= 44,
            `${where}: "${l.text}" is ${(l.right - l.left).toFixed(1)}x${(l.bottom - l.top).toFixed(1)}`);
        }
        for (const [i, a] of links.entries()) {
          for (const c of links.slice(i + 1)) {
            const overlap = Math.min(a.right, c.right) - Math.max(a.left, c.left) > 0.5
              && Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top) > 0.5;
            assert.ok(!overlap, `${where}: "${a.text}" and "${c.text}" overlap`);
          }
        }
      }
    }
  } finally {
    await b.close();
  }
});
