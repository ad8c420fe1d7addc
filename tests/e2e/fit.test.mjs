// The Towers of Hanoi, one whole board per screen: every board image and
// the heading lie inside the viewport at scroll 0, at desktop, e-reader
// and phone size, and no board image is under 24 CSS pixels on a side.
// HANOI_SITES names the built sites: "3=/path,4=/path,5=/path,...". Every
// so many pages are measured (every other one at 3 discs, fewer as the
// puzzle grows), and the three with the longest heading (what stands above the board is
// the heading, and a board of n discs is as tall on every page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { browser, inside, layout } from './lib.mjs';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 600, height: 800 },
  { width: 360, height: 640 },
];
const SITES = (process.env.HANOI_SITES || '').split(',').filter(Boolean).map((s) => {
  const [discs, dir] = s.split('=');
  return { discs: Number(discs), dir };
});
const SMALLEST = 24;

for (const { discs, dir } of SITES) {
  test(`every Hanoi board fits one screen (${discs} discs)`, async () => {
    const b = await browser(VIEWPORTS[0]);
    try {
      let measured = 0;
      for (const edition of ['hanoi', 'hanoi-analysis']) {
        const names = (await readdir(join(dir, edition))).filter((f) => f.endsWith('.html')).sort();
        const every = discs >= 7 ? 101 : discs >= 5 ? 53 : discs >= 4 ? 9 : 2;
        const headings = [];
        for (const name of names) {
          const html = await readFile(join(dir, edition, name), 'utf8');
          headings.push({ name, length: /<h1[^>]*>([^<]*)/.exec(html)?.[1].length ?? 0 });
        }
        const longest = headings.sort((a, b) => b.length - a.length).slice(0, 3).map((h) => h.name);
        const pages = names.filter((name, i) => i % every === 0 || longest.includes(name));
        for (const name of pages) {
          await b.page.goto(pathToFileURL(join(dir, edition, name)).href);
          // Each size on the same page: laid out again, not loaded again.
          for (const viewport of VIEWPORTS) {
            const where = `${edition}/${name} at ${viewport.width}x${viewport.height}`;
            await b.page.setViewportSize(viewport);
            const seen = await layout(b.page);
            assert.deepEqual(seen.scroll, [0, 0], where);
            assert.ok(inside(seen, seen.heading), `${where}: the heading ${JSON.stringify(seen.heading)}`);
            const images = seen.rows.flat();
            assert.equal(images.length, 3 * (discs + 1), where);
            for (const [i, r] of images.entries()) {
              assert.ok(inside(seen, r), `${where}: image ${i} ${JSON.stringify(r)} outside ${seen.width}x${seen.height}`);
              assert.ok(r.right - r.left >= SMALLEST && r.bottom - r.top >= SMALLEST,
                `${where}: image ${i} is ${r.right - r.left}x${r.bottom - r.top}`);
            }
          }
          measured += 1;
        }
      }
      assert.ok(measured > 0, 'no page measured');
    } finally {
      await b.close();
    }
  });
}
