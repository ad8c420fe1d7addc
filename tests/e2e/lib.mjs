// Shared helpers for the browser checks: a loopback server that puts the
// site under a sub-path, Chromium with a fresh profile, and board reading.
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, extname, normalize, dirname } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);

export const SITE = process.env.SITE_DIR;
if (!SITE) throw new Error('SITE_DIR must name a built site');

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-quic',
];
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 360, height: 640 };
export const SUBPATH = '/some/sub/path/';

/** The screens a board must fill: phones, an e-reader and a Kindle
 * Paperwhite, Oasis and Scribe both ways up, and desktops. */
export const SIZES = [
  [360, 640], [390, 844], [600, 800], [800, 600], [1072, 1448],
  [1448, 1072], [1264, 1680], [1280, 800], [1920, 1080], [1860, 2480],
].map(([width, height]) => ({ width, height }));


const TYPES = { '.html': 'text/html; charset=utf-8', '.svg': 'image/svg+xml', '.css': 'text/css',
  '.gif': 'image/gif', '.png': 'image/png', '.js': 'text/javascript' };

/** The reading engine foliate-js, served as ES modules at /foliate/. */
export const FOLIATE = '/foliate/';
const FOLIATE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'node_modules/foliate-js');

/** Serves SITE at http://127.0.0.1:PORT/some/sub/path/, foliate-js at
 * /foliate/, each of `mounts` (a path prefix to a folder) at its prefix,
 * and nothing else. */
export async function serve(mounts = {}) {
  const roots = [[FOLIATE, FOLIATE_DIR], ...Object.entries(mounts), [SUBPATH, SITE]];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const [prefix, root] = roots.find(([prefix]) => url.pathname.startsWith(prefix)) ?? [];
    if (!root) { res.writeHead(404); res.end(); return; }
    const rel = normalize(decodeURIComponent(url.pathname.slice(prefix.length)) || 'index.html');
    if (rel.startsWith('..')) { res.writeHead(403); res.end(); return; }
    try {
      const body = await readFile(join(root, rel));
      res.writeHead(200, { 'content-type': TYPES[extname(rel)] || 'application/octet-stream' });
      res.end(body);
    } catch { res.writeHead(404); res.end(); }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { base: origin + SUBPATH, origin, close: () => new Promise((ok) => server.close(ok)) };
}

/** The site's root as a file:// URL, ending in '/'. */
export function fileBase() {
  return pathToFileURL(SITE).href.replace(/\/?$/, '/');
}

/** Chromium with a fresh --user-data-dir, at the given viewport. */
export async function browser(viewport) {
  const dir = await mkdtemp(join(tmpdir(), 'ttt-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport,
  });
  // Requests that did not get their file: network errors (but not a load
  // cut short because the player moved on, such as the favicon) and 4xx/5xx.
  const failed = [];
  context.on('requestfailed', (r) => {
    if (!r.failure()?.errorText.includes('ERR_ABORTED')) failed.push(`${r.url()}: ${r.failure()?.errorText}`);
  });
  context.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.url()}: ${r.status()}`); });
  const popups = [];
  context.on('page', (p) => popups.push(p));
  const page = context.pages()[0] || await context.newPage();
  popups.length = 0;
  return {
    context, page, failed, popups,
    close: async () => { await context.close(); await rm(dir, { recursive: true, force: true }); },
  };
}

/** The board a page shows, read from its first nine images: "x.o......".
 * An empty square is `e`, or an analysis verdict (`w1`, `d`, `l2b`, ...). */
export async function board(page) {
  const srcs = await page.locator('img').evaluateAll((imgs) => imgs.slice(0, 9).map((i) => i.getAttribute('src')));
  return srcs.map((s) => ({ x: 'x', o: 'o' })[s.split('/').pop()[0]] || '.').join('');
}

/** Indices of the squares that are links. */
export async function linkedSquares(page) {
  return page.locator('img').evaluateAll((imgs) =>
    imgs.slice(0, 9).map((img, i) => (img.parentElement.tagName === 'A' ? i : -1)).filter((i) => i >= 0));
}

/** Clicks square i like a person (a real mouse click) and waits for the next page. */
export async function play(page, i) {
  const before = page.url();
  await page.locator('img').nth(i).click();
  await page.waitForURL((u) => u.href !== before);
  await page.waitForLoadState('load');
}

export async function heading(page) {
  return (await page.locator('h1').innerText()).trim();
}

/** Opens `url` (an EPUB) in epub.js, paginated at `viewport`, at its
 * first board; `window.turn()` turns a page and `window.fit(w, h)`
 * resizes it. `server` is what `serve` returned. */
export async function openInEpubjs(p, server, url, viewport) {
  await p.goto(server.base + 'index.html');
  await p.evaluate(() => {
    document.documentElement.innerHTML = '<head></head><body style="margin:0"><div id="viewer"></div></body>';
  });
  await p.addScriptTag({ path: require.resolve('jszip/dist/jszip.min.js') });
  await p.addScriptTag({ path: require.resolve('epubjs/dist/epub.min.js') });
  await p.evaluate(async ({ url, w, h }) => {
    const rendition = window.ePub(url).renderTo('viewer', { width: w, height: h, flow: 'paginated', spread: 'none' });
    await rendition.display('b001.xhtml');
    window.turn = () => rendition.next();
    window.fit = (w, h) => rendition.resize(w, h);
    window.shown = () => [...document.querySelectorAll('#viewer iframe')]
      .map((f) => ({ doc: f.contentDocument, frame: f.getBoundingClientRect() }));
    window.clip = () => document.querySelector('#viewer').getBoundingClientRect();
  }, { url, w: viewport.width, h: viewport.height });
}

/** Opens `url` (EPUB or MOBI) in foliate-js, paginated, at its first
 * page, and follows the front page's first link to the first board.
 * Returns the kind of book foliate-js made of it (`KF8` for a MOBI's
 * Kindle Format 8 part). `server` is what `serve` returned. */
export async function openInFoliate(p, server, url) {
  await p.goto(server.base + 'index.html');
  await p.evaluate(() => { document.documentElement.innerHTML = '<head></head><body style="margin:0"></body>'; });
  await p.evaluate(async ({ url, module }) => {
    // foliate-js keeps its shadow roots closed; opened, the checks can
    // find the paginator's container (what the reader shows).
    const attach = Element.prototype.attachShadow;
    Element.prototype.attachShadow = function (init) { return attach.call(this, { ...init, mode: 'open' }); };
    await import(module);
    const view = document.createElement('foliate-view');
    view.style.cssText = 'display:block;width:100vw;height:100vh';
    document.body.append(view);
    // foliate-js scrolls to whatever takes focus. In WebKit, its engine
    // in Foliate, a clicked link does not take focus; in Chromium it
    // does, and foliate-js would scroll back to the link just followed.
    // So a click here does not focus, as in WebKit.
    view.addEventListener('load', (e) => e.detail.doc.addEventListener('mousedown', (m) => m.preventDefault()));
    await view.open(url);
    // KF8 for the Kindle Format 8 part of a combined MOBI, MOBI6 for the
    // old part (foliate-js falls back to it if the KF8 part fails).
    window.kind = view.book.constructor.name;
    view.renderer.setAttribute('flow', 'paginated');
    await view.renderer.next();
    window.turn = () => view.renderer.next();
    window.shown = () => view.renderer.getContents().filter((c) => c.doc)
      .map((c) => ({ doc: c.doc, frame: c.doc.defaultView.frameElement.getBoundingClientRect(), section: c.index }));
    // What the reader shows: its container, which hides the columns
    // beside the page (on a wide screen, within the window).
    window.clip = () => view.renderer.shadowRoot.querySelector('#container').getBoundingClientRect();
  }, { url, module: server.origin + FOLIATE + 'view.js' });
  // The front page: click its first link, as a reader would.
  let start = null;
  for (let i = 0; i < 50 && !start; i++) {
    start = await p.evaluate(() => {
      const [{ doc, frame } = {}] = window.shown();
      const r = doc?.querySelector('a[href]')?.getBoundingClientRect();
      return r && r.width > 0 ? { x: frame.left + r.left + r.width / 2, y: frame.top + r.top + r.height / 2 } : null;
    });
    if (!start) await p.waitForTimeout(100);
  }
  if (!start) throw new Error(`${url}: the front page has no link`);
  await p.mouse.click(start.x, start.y);
  return p.evaluate(() => window.kind);
}

/** Gives foliate-js's page the whole screen, one column, as a Kindle's. */
export async function fillScreen(p, size) {
  await p.evaluate(({ w, h }) => {
    const r = document.querySelector('foliate-view').renderer;
    r.setAttribute('max-inline-size', `${w}px`);
    r.setAttribute('max-block-size', `${h}px`);
    r.setAttribute('max-column-count', '1');
  }, { w: size.width, h: size.height });
}

/** A web page of a board as laid out now: the boxes of its heading, of
 * its words and links above the board (`others`), of its table and of
 * each row's images, the scroll, and the viewport's size. */
export async function layout(page) {
  return page.evaluate(() => {
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
    };
    const main = document.querySelector('main');
    const table = main.querySelector('table');
    return {
      heading: box(main.querySelector('h1')),
      others: [...main.querySelectorAll('p a, h1, main > p')].map(box),
      table: box(table),
      rows: [...table.rows].map((tr) => [...tr.querySelectorAll('img')].map(box)),
      scroll: [window.scrollX, window.scrollY],
      // How far the page could scroll: nothing reaches past the screen.
      overflow: [document.documentElement.scrollWidth - document.documentElement.clientWidth,
        document.documentElement.scrollHeight - window.innerHeight],
      width: document.documentElement.clientWidth,
      height: window.innerHeight,
    };
  });
}

/** Whether the box `r` lies inside the viewport `seen` measured. */
export function inside(seen, r) {
  return r.left >= -0.5 && r.top >= -0.5 && r.right <= seen.width + 0.5 && r.bottom <= seen.height + 0.5;
}
