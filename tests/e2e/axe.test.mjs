// axe-core in Chromium on each kind of page: 0 violations, all rules that
// axe runs by default (WCAG A and AA, and its best practices).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { serve, browser, play, linkedSquares, DESKTOP, PHONE } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const server = await serve();
after(() => server.close());

async function check(page, what) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run());
  const summary = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length} nodes)`);
  assert.deepEqual(summary, [], `${what}: ${page.url()}`);
  return result.passes.length;
}

for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`axe finds no violations on any kind of page (${size})`, async () => {
    const b = await browser(viewport);
    const p = b.page;
    try {
      await p.goto(server.base + 'index.html');
      await check(p, 'home');
      await p.goto(server.base + 'two-player/0.html');
      await play(p, 4);
      await check(p, 'board in play');
      for (const sq of [3, 0, 5, 8]) await play(p, sq); // X centre, O left, X top left, O right, X bottom right
      await check(p, 'won board');
      await p.goto(server.base + 'two-player/0.html');
      for (const sq of [0, 1, 2, 4, 3, 5, 7, 6, 8]) await play(p, sq);
      await check(p, 'drawn board');
      await p.goto(server.base + 'index.html');
      await p.locator('#vs-computer + p + ul a').first().click();
      await p.waitForURL(/vs-computer/);
      await check(p, 'vs-computer board');
      for (;;) {
        const squares = await linkedSquares(p);
        if (squares.length === 0) break;
        await play(p, squares[0]);
      }
      await check(p, 'vs-computer end page');
      await p.goto(server.base + 'analysis/0.html');
      await play(p, 4);
      await check(p, 'analysis board in play');
      for (const sq of [1, 0, 2, 8]) await play(p, sq);
      await check(p, 'analysis board, won');
      await p.goto(server.base + 'hanoi/0.html');
      await check(p, 'Towers of Hanoi');
      await p.goto(server.base + 'hanoi-analysis/1.html');
      await check(p, 'Towers of Hanoi analysed, a disc lifted');
    } finally {
      await b.close();
    }
  });
}
