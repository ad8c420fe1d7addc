// Screenshots for the README (`cargo xtask screenshots`): the home page, a
// board in play, a won board, an analysis board and the Towers of Hanoi
// at desktop and phone
// sizes, plus a 600x800 page of the Kindle book and a 600x800
// grayscale render standing in for an e-ink Kindle.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileBase, browser, play, DESKTOP, PHONE } from './lib.mjs';

const OUT = process.env.OUT_DIR;
if (!OUT) throw new Error('OUT_DIR must name the folder for the screenshots');
await mkdir(OUT, { recursive: true });
const base = fileBase();
const sizes = [['desktop', DESKTOP, false], ['phone', PHONE, false], ['eink', { width: 600, height: 800 }, true]];

for (const [name, viewport, gray] of sizes) {
  const b = await browser(viewport);
  const p = b.page;
  const shot = async (what) => {
    if (gray) await p.addStyleTag({ content: 'html{filter:grayscale(1)}' });
    const path = join(OUT, `${what}-${name}.png`);
    await p.screenshot({ path, fullPage: false });
    console.log(path);
  };
  try {
    await p.goto(base + 'index.html');
    await shot('home');
    await p.goto(base + 'two-player/0.html');
    for (const sq of [4, 0, 2]) await play(p, sq);
    await shot('board');
    await p.goto(base + 'two-player/0.html');
    for (const sq of [4, 0, 2, 6, 3, 1, 5]) await play(p, sq); // X takes the middle row
    await shot('won');
    await p.goto(base + 'analysis/0.html');
    for (const sq of [0, 1]) await play(p, sq); // X corner, O blunders next to it
    await shot('analysis');
    // The Towers of Hanoi analysed, with the smallest disc lifted.
    await p.goto(base + 'hanoi-analysis/1.html');
    await shot('hanoi');
    if (gray) {
      // The book as a 600x800 e-reader shows it: one board, 160-pixel squares.
      await p.goto(base + 'ebooks/tictactoe-two-player-kindle.html#51');
      // A page break ends the screen on an e-reader; a browser scrolls on.
      await p.addStyleTag({ content: '.b{margin-top:100vh}' });
      await p.goto(base + 'ebooks/tictactoe-two-player-kindle.html#0');
      await p.goto(base + 'ebooks/tictactoe-two-player-kindle.html#51');
      await shot('book');
    }
  } finally {
    await b.close();
  }
}
