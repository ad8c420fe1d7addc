// The PDFs in pdf.js (Firefox's reader, pdfjs-dist in Node): every page's
// link annotations, each landing on a page whose number is printed inside
// the link, and each page printing its own number. Then Chromium's own PDF
// viewer: a click on a square of the gamebook goes to the page it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { pathToFileURL } from 'node:url';
import { SITE, browser } from './lib.mjs';

const EBOOKS = join(SITE, 'ebooks');
// The books; the maps' poster has no pages to turn to (checked below).
const POSTER = 'map-poster.pdf';
const PDFS = readdirSync(EBOOKS).filter((f) => f.endsWith('.pdf') && f !== POSTER).sort();

test('the site has its PDFs', () => {
  assert.deepEqual(PDFS, ['tictactoe-gamebook.pdf', 'towers-hanoi-analysis.pdf', 'towers-hanoi.pdf']);
});

test('pdf.js opens the maps\' poster: one A0 page with its title and each map\'s heading', async () => {
  const data = new Uint8Array(readFileSync(join(EBOOKS, POSTER)));
  const doc = await getDocument({ data, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  assert.equal(doc.numPages, 1);
  const page = await doc.getPage(1);
  const [, , w, h] = page.view;
  assert.ok(Math.abs(w * 25.4 / 72 - 841) < 0.5 && Math.abs(h * 25.4 / 72 - 1189) < 0.5, `${w} x ${h} pt`);
  const text = (await page.getTextContent()).items.map((i) => i.str).join('\n');
  for (const words of ['The maps of perfect play', 'optimal play for X', 'optimal play for O', 'every position']) {
    assert.ok(text.includes(words), `${words}: ${text}`);
  }
  await doc.destroy();
});

for (const name of PDFS) {
  test(`pdf.js follows every link of ${name} to the page it prints`, async () => {
    const data = new Uint8Array(readFileSync(join(EBOOKS, name)));
    const doc = await getDocument({ data, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
    let links = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const items = (await page.getTextContent()).items.filter((i) => i.str.trim() !== '');
      const at = items.map((i) => ({ x: i.transform[4], y: i.transform[5], str: i.str }));
      assert.ok(at.some((t) => t.str === String(n) && t.y < 36), `${name}: page ${n} lacks its number`);
      for (const a of await page.getAnnotations()) {
        if (a.subtype !== 'Link') continue;
        assert.ok(Array.isArray(a.dest), `${name}: page ${n}: a link with no page destination`);
        const to = (await doc.getPageIndex(a.dest[0])) + 1;
        const [x0, y0, x1, y1] = a.rect;
        const inside = at.filter((t) => t.x >= x0 && t.x <= x1 && t.y >= y0 && t.y <= y1);
        const numbers = inside.flatMap((t) => t.str.match(/\d+/g) ?? []);
        assert.deepEqual(numbers, [String(to)], `${name}: page ${n}: a link to ${to} prints ${JSON.stringify(inside)}`);
        links++;
      }
    }
    assert.ok(links > doc.numPages, `${name}: ${links} links`);
    await doc.destroy();
  });
}

/** Each link of page `n` of the PDF `doc`: its rectangle and target page. */
async function linksOf(doc, n) {
  const links = [];
  for (const a of await (await doc.getPage(n)).getAnnotations()) {
    if (a.subtype === 'Link') links.push({ rect: a.rect, to: (await doc.getPageIndex(a.dest[0])) + 1 });
  }
  return links;
}

test('Chromium opens the gamebook, and a click on a square turns to the page it names', async () => {
  const file = join(EBOOKS, 'tictactoe-gamebook.pdf');
  const doc = await getDocument({ data: new Uint8Array(readFileSync(file)), verbosity: 0 }).promise;
  const [width, height] = [800, 1000];
  const b = await browser({ width, height });
  try {
    // The first board of each half: the pages the opening page names.
    const starts = (await linksOf(doc, 1)).map((l) => l.to);
    assert.equal(starts.length, 2);
    for (const n of starts) {
      const links = await linksOf(doc, n);
      assert.ok(links.length >= 8, `page ${n}: ${links.length} squares`);
      for (const { rect, to } of links) {
        // At 100% with no toolbar or side panel, a point is 96/72 pixels,
        // the page is centred and its top is 3 pixels down.
        const k = 96 / 72;
        const left = (width - 396 * k) / 2;
        const [x0, y0, x1, y1] = rect;
        // The viewer shows a page before it has settled and takes clicks;
        // under load it may lay the page out again. So a try that never
        // left the page, or moved before the click could land, is made
        // again in a fresh tab; a link to the wrong page fails every try.
        let now = '';
        for (let tries = 0; tries < 3 && now !== String(to); tries++) {
          const page = await b.context.newPage();
          await page.goto(`${pathToFileURL(file).href}#page=${n}&toolbar=0&navpanes=0&zoom=100`);
          let viewer;
          const shown = async () => {
            viewer ??= page.frames().find((f) => f.url().startsWith('chrome-extension://'));
            return viewer ? viewer.locator('#pageSelector').inputValue().catch(() => '') : '';
          };
          const until = async (done, tenths) => {
            for (let i = 0; i < tenths && !done(await shown()); i++) await page.waitForTimeout(100);
            return shown();
          };
          await until((v) => v === String(n), 100);
          await page.waitForTimeout(1000);
          if ((await shown()) !== String(n)) { await page.close(); continue; }
          now = String(n);
          for (let attempt = 0; attempt < 5 && now === String(n); attempt++) {
            await page.mouse.click(left + ((x0 + x1) / 2) * k, 3 + (612 - (y0 + y1) / 2) * k);
            now = await until((v) => v !== String(n), 20);
          }
          await page.waitForTimeout(300);
          now = await shown();
          await page.close();
        }
        assert.equal(now, String(to), `page ${n}: the square linking to ${to}`);
      }
    }
  } finally {
    await b.close();
    await doc.destroy();
  }
});
