// Screenshots for the README (`cargo xtask screenshots`): the home page, a
// board in play, a won board, an analysis board and the Towers of Hanoi
// and the map for X at desktop and phone sizes; the home page and the
// maps' phone view at 390x844; a 600x800 page of the Kindle book and a
// 600x800 grayscale render standing in for an e-ink Kindle; and the MOBI's Kindle
// Format 8 part in foliate-js at a phone's, a first Kindle's, a
// Paperwhite's and a Scribe's size (kf8-*.png), the page the whole screen,
// two moves into a game; the KRK analysis on a phone, a desktop and a
// 600x800 page in grays, and the KRK book's KF8 part at a Paperwhite's
// size.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileBase, browser, play, serve, openInFoliate, fillScreen, DESKTOP, PHONE } from './lib.mjs';

const OUT = process.env.OUT_DIR;
if (!OUT) throw new Error('OUT_DIR must name the folder for the screenshots');
await mkdir(OUT, { recursive: true });
const base = fileBase();
const sizes = [['desktop', DESKTOP, false], ['phone', PHONE, false], ['eink', { width: 600, height: 800 }, true]];

for (const [name, viewport, gray] of sizes) {
  const b = await browser(viewport);
  const p = b.page;
  const shot = async (what) => {
    // On the root element, so that an SVG document turns gray too.
    if (gray) await p.evaluate(() => { document.documentElement.style.filter = 'grayscale(1)'; });
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
    // The map of optimal play for X, whole.
    await p.goto(base + 'map/tictactoe-x.svg');
    await shot('map');
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

// A 390-pixel phone: the home page, the map for O (each square a link
// that zooms in), a part of it and a part of the Towers of Hanoi's.
{
  const b = await browser({ width: 390, height: 844 });
  try {
    for (const [what, page] of [['home-390', 'index.html'], ['map-o-phone', 'map/tictactoe-o.svg'],
      ['map-o-part-phone', 'map/tictactoe-o/0.svg'], ['map-hanoi-part-phone', 'map/hanoi/1.svg']]) {
      await b.page.goto(base + page);
      const path = join(OUT, `${what}.png`);
      await b.page.screenshot({ path, fullPage: false });
      console.log(path);
    }
  } finally {
    await b.close();
  }
}

// The KRK analysis: the rook picked up on a 390x844 phone and at 600x800
// in grays (an e-ink Kindle's page), and the start at 1280x800, the rook
// framed as the piece to move.
for (const [what, viewport, pick, gray] of [['krk-phone', { width: 390, height: 844 }, true, false],
  ['krk-desktop', DESKTOP, false, false], ['krk-eink', { width: 600, height: 800 }, true, true]]) {
  const b = await browser(viewport);
  const p = b.page;
  try {
    await p.goto(base + 'index.html');
    await p.locator('#krk-analysis + p + ul a').click();
    await p.waitForURL(/krk-analysis\/[0-9a-f]+\.html$/);
    if (pick) {
      const before = p.url();
      await p.locator('table a:has(img[alt^="a1: white rook"])').click();
      await p.waitForURL((u) => u.href !== before);
    }
    if (gray) await p.evaluate(() => { document.documentElement.style.filter = 'grayscale(1)'; });
    const path = join(OUT, `${what}.png`);
    await p.screenshot({ path, fullPage: false });
    console.log(path);
  } finally {
    await b.close();
  }
}

// `book`'s KF8 part in foliate-js, the page the whole `viewport`, as a
// Kindle's, and in grays, as e-ink.
async function openBook(server, viewport, book) {
  const b = await browser(viewport);
  const kind = await openInFoliate(b.page, server, server.base + book);
  if (kind !== 'KF8') throw new Error(`foliate-js read ${book} as ${kind}`);
  await fillScreen(b.page, viewport);
  await b.page.evaluate(() => { document.documentElement.style.filter = 'grayscale(1)'; });
  return b;
}

// A tap on the `index`-th picture matching `css` of those the reader
// shows (not those of the columns it hides beside the page).
async function tap(p, css, index) {
  await p.waitForTimeout(1500);
  const at = await p.evaluate(({ css, index }) => {
    const view = document.querySelector('foliate-view');
    const [c] = view.renderer.getContents().filter((c) => c.doc);
    const frame = c.doc.defaultView.frameElement.getBoundingClientRect();
    const clip = view.renderer.shadowRoot.querySelector('#container').getBoundingClientRect();
    const shown = [...c.doc.querySelectorAll(css)].filter((img) => {
      const r = img.getBoundingClientRect();
      return frame.left + r.left >= clip.left - 1 && frame.left + r.right <= clip.right + 1;
    });
    const r = shown[index].getBoundingClientRect();
    return { x: frame.left + r.left + r.width / 2, y: frame.top + r.top + r.height / 2 };
  }, { css, index });
  await p.mouse.click(at.x, at.y);
}

const server = await serve();
try {
  // The two-player book two moves in (X in the centre, then O top left),
  // at a phone's, a first Kindle's, a Paperwhite's and a Scribe's size;
  // and the KRK book at a Paperwhite's, the rook picked up.
  const paperwhite = { width: 1072, height: 1448 };
  const xo = [['div[id] img', 4], ['div[id] img', 0]];
  const shots = [['kf8-phone', PHONE, 'tictactoe-two-player', xo],
    ['kf8-eink', { width: 600, height: 800 }, 'tictactoe-two-player', xo],
    ['kf8-paperwhite', paperwhite, 'tictactoe-two-player', xo],
    ['kf8-scribe', { width: 1860, height: 2480 }, 'tictactoe-two-player', xo],
    ['kf8-krk-paperwhite', paperwhite, 'chess-krk', [['img[alt^="a1: white rook"]', 0]]]];
  for (const [what, viewport, stem, taps] of shots) {
    const b = await openBook(server, viewport, `ebooks/${stem}.mobi`);
    try {
      for (const [css, index] of taps) await tap(b.page, css, index);
      await b.page.waitForTimeout(1500);
      const path = join(OUT, `${what}.png`);
      await b.page.screenshot({ path });
      console.log(path);
    } finally {
      await b.close();
    }
  }
} finally {
  await server.close();
}
