// Plays the site in headless Chromium by clicking squares, served from a
// sub-path over loopback and opened from file://, at desktop and phone size.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, fileBase, browser, board, linkedSquares, play, heading, DESKTOP, PHONE } from './lib.mjs';

const server = await serve();
after(() => server.close());

const BASES = [['http sub-path', server.base], ['file://', fileBase()]];
const SIZES = [['desktop', DESKTOP], ['phone', PHONE]];
const counts = { games: 0 };

/** Plays moves from the empty board; checks each board as it goes. */
async function playTwoPlayer(page, base, moves) {
  await page.goto(base + 'index.html');
  await page.locator('#two-player + p + ul a', { hasText: 'Start a game' }).click();
  await page.waitForURL(/two-player\/0\.html$/);
  const cells = '.........'.split('');
  for (const [n, sq] of moves.entries()) {
    assert.equal(await heading(page), `${n % 2 ? 'O' : 'X'} to move`);
    await play(page, sq);
    cells[sq] = n % 2 ? 'o' : 'x';
    assert.equal(await board(page), cells.join(''));
  }
}

for (const [where, base] of BASES) {
  for (const [size, viewport] of SIZES) {
    test(`two-player games end as they should (${where}, ${size})`, async () => {
      const b = await browser(viewport);
      try {
        const games = [
          { moves: [0, 3, 1, 4, 2], result: 'X wins', line: [0, 1, 2] },
          { moves: [0, 3, 1, 4, 8, 5], result: 'O wins', line: [3, 4, 5] },
          { moves: [0, 1, 2, 4, 3, 5, 7, 6, 8], result: 'Draw', line: [] },
        ];
        for (const g of games) {
          await playTwoPlayer(b.page, base, g.moves);
          assert.equal(await heading(b.page), g.result);
          assert.deepEqual(await linkedSquares(b.page), [], 'no square links on a finished board');
          const srcs = await b.page.locator('img').evaluateAll((imgs) => imgs.slice(0, 9).map((i) => i.getAttribute('src')));
          srcs.forEach((s, i) => assert.equal(s.includes('w.'), g.line.includes(i), `winning line square ${i}`));
          counts.games++;
        }
        // The back button takes a move back.
        const before = await board(b.page);
        await b.page.goBack();
        const previous = await board(b.page);
        assert.equal(previous.replace(/\./g, '').length, before.replace(/\./g, '').length - 1);
        await b.page.goForward();
        assert.equal(await board(b.page), before);
        // New game and home.
        await b.page.getByRole('link', { name: 'New game' }).click();
        await b.page.waitForURL(/\/0\.html$/);
        assert.equal(await board(b.page), '.........');
        await b.page.getByRole('link', { name: 'Home' }).click();
        await b.page.waitForURL(/index\.html$/);
        // Squares are easy to hit at this size.
        await b.page.goto(base + 'two-player/0.html');
        for (const box of await b.page.locator('img').evaluateAll((imgs) => imgs.slice(0, 9).map((i) => i.getBoundingClientRect().toJSON()))) {
          assert.ok(box.width >= 44 && box.height >= 44, `square ${JSON.stringify(box)}`);
          assert.ok(box.right <= viewport.width, 'square inside the screen');
        }
        assert.equal(b.popups.length, 0, 'no click opened a new tab');
        assert.equal(b.context.pages().length, 1);
        assert.deepEqual(b.failed, [], 'every request succeeded');
      } finally {
        await b.close();
      }
    });

    test(`the analysis shows what every move is worth (${where}, ${size})`, async () => {
      const b = await browser(viewport);
      const alts = () => b.page.locator('img').evaluateAll((imgs) => imgs.slice(0, 9).map((i) => i.getAttribute('alt')));
      const srcs = () => b.page.locator('img').evaluateAll((imgs) => imgs.slice(0, 9).map((i) => i.getAttribute('src')));
      try {
        await b.page.goto(base + 'index.html');
        await b.page.locator('#analysis + p + ul a').first().click();
        await b.page.waitForURL(/analysis\/0\.html$/);
        assert.equal(await heading(b.page), 'X to move: draw with best play');
        for (const alt of await alts()) assert.match(alt, /: place X, draw$/);
        // Every first move draws, so every square is a best move.
        for (const src of await srcs()) assert.equal(src, 'db.svg');
        await play(b.page, 0); // X top left
        assert.equal(await heading(b.page), 'O to move: draw with best play');
        const a = await alts();
        assert.equal(a[4], 'centre: place O, draw');
        for (const i of [1, 2, 3, 5, 6, 7, 8]) assert.match(a[i], /: place O, loss in \d$/);
        const s = await srcs();
        assert.equal(s[4], 'db.svg', 'the only draw is the best move');
        for (const i of [1, 2, 3, 5, 6, 7, 8]) assert.match(s[i], /^l\d\.svg$/);
        // The same board without the analysis, and back.
        await b.page.getByRole('link', { name: 'Play without the analysis' }).click();
        await b.page.waitForURL(/two-player\/19a1\.html$/);
        assert.equal(await heading(b.page), 'O to move');
        await b.page.getByRole('link', { name: 'Show what each move is worth' }).click();
        await b.page.waitForURL(/analysis\/19a1\.html$/);
        // O blunders; X follows the marked best moves and wins.
        await play(b.page, 1);
        assert.match(await heading(b.page), /^X to move: win in \d with best play$/);
        for (let turn = 0; !(await heading(b.page)).endsWith('wins'); turn++) {
          assert.ok(turn < 6, 'the game ends');
          const h = await heading(b.page);
          if (h.startsWith('X to move')) {
            assert.match(h, /: win in \d/, 'best play keeps the win');
            const best = (await srcs()).findIndex((src) => /^w\db\.svg$/.test(src));
            assert.ok(best >= 0, `a winning move is marked: ${h}`);
            await play(b.page, best);
          } else {
            await play(b.page, (await linkedSquares(b.page))[0]);
          }
        }
        assert.equal(await heading(b.page), 'X wins');
        assert.deepEqual(await linkedSquares(b.page), []);
        await b.page.getByRole('link', { name: 'All positions as JSON' }).waitFor();
        assert.deepEqual(b.failed, [], 'every request succeeded');
        counts.games++;
      } finally {
        await b.close();
      }
    });

    test(`a game against the computer at each level ends cleanly (${where}, ${size})`, async () => {
      const b = await browser(viewport);
      try {
        for (const level of ['easy', 'medium', 'hard', 'perfect']) {
          await b.page.goto(base + 'index.html');
          const link = b.page.locator('#vs-computer + p + ul a', { hasText: `, ${level}` }).first();
          const human = (await link.innerText()).includes('you start') ? 'x' : 'o';
          await link.click();
          await b.page.waitForURL(/vs-computer\/\d+\//);
          for (let turn = 0; ; turn++) {
            assert.ok(turn < 6, 'a game ends within five moves of the player');
            const squares = await linkedSquares(b.page);
            const h = await heading(b.page);
            if (squares.length === 0) {
              assert.match(h, /^(You win|The computer wins|Draw)$/);
              if (level === 'perfect') assert.notEqual(h, 'You win');
              await b.page.getByRole('link', { name: 'Play again' }).waitFor();
              await b.page.getByRole('link', { name: 'Choose another game' }).waitFor();
              break;
            }
            assert.equal(h, `Your move (${human.toUpperCase()})`);
            const before = await board(b.page);
            // Vary the player's moves between games.
            const sq = squares[(turn * 7 + level.length) % squares.length];
            await play(b.page, sq);
            const after = await board(b.page);
            const added = [...after].map((c, i) => (c !== before[i] ? c : '')).join('');
            assert.equal(after[sq], human, 'the player\'s mark is where the player clicked');
            assert.ok(added.length === 1 || added.length === 2, `one or two new marks: ${before} -> ${after}`);
            const computer = human === 'x' ? 'o' : 'x';
            if (added.length === 2) assert.ok(added.includes(computer), 'the other mark is the computer\'s');
            const won = (await heading(b.page)) === 'You win';
            if (won && added.length === 2) assert.fail('the computer moved after the player had won');
          }
          counts.games++;
        }
        assert.equal(b.popups.length, 0, 'no click opened a new tab');
        assert.deepEqual(b.failed, []);
      } finally {
        await b.close();
      }
    });
  }
}


// The Towers of Hanoi: from the home page, following the framed (best)
// moves of the analysis solves the puzzle in 2^N - 1 moves, two
// selections each, and the solved page offers to start again.
for (const [where, base] of BASES) {
  for (const [size, viewport] of SIZES) {
    test(`the Towers of Hanoi is solved by its marked moves (${where}, ${size})`, async () => {
      const b = await browser(viewport);
      try {
        await b.page.goto(base + 'index.html');
        await b.page.locator('#hanoi-analysis + p + ul a').click();
        await b.page.waitForURL(/hanoi-analysis\/0\.html$/);
        const discs = (await b.page.locator('table tr').count()) - 1;
        let selections = 0;
        while ((await heading(b.page)) !== 'Solved') {
          assert.ok(selections < 2 ** (discs + 1), 'solved within the fewest moves');
          const before = b.page.url();
          await b.page.locator('a:has(img[src="hab.svg"])').first().click();
          await b.page.waitForURL((u) => u.href !== before);
          selections++;
        }
        assert.equal(selections, 2 * (2 ** discs - 1));
        assert.equal(await b.page.locator('a:has(img)').count(), 0, 'no moves once solved');
        await b.page.getByRole('link', { name: 'Start again' }).click();
        await b.page.waitForURL(/hanoi-analysis\/0\.html$/);
        assert.deepEqual(b.failed, []);
      } finally {
        await b.close();
      }
    });
  }
}

// The maps: each opens whole from the home page's picture of it at every
// size, with no console error, and its links lead to the analysis pages:
// the map for X's first move to X in the top left, the Towers of Hanoi's
// first dot (the start) to the start.
const EINK = { width: 600, height: 800 };
for (const [where, base] of BASES) {
  for (const [size, viewport] of [...SIZES, ['e-ink', EINK]]) {
    test(`each map opens whole and its links lead to the analysis (${where}, ${size})`, async () => {
      const b = await browser(viewport);
      const errors = [];
      // A browser asks for /favicon.ico beside a document with no icon of
      // its own (an SVG): the host's, not the map's.
      const host = (u) => new URL(u, 'http://x').pathname === '/favicon.ico';
      b.page.on('console', (m) => { if (m.type() === 'error' && !host(m.location().url)) errors.push(m.text()); });
      b.page.on('pageerror', (e) => errors.push(String(e)));
      try {
        for (const [file, first, lands] of [
          ['tictactoe-x', 'X top left', 'analysis/'],
          ['tictactoe-o', 'X top left, O centre', 'analysis/'],
          ['hanoi', null, 'hanoi-analysis/0.html'],
        ]) {
          await b.page.goto(base + 'index.html');
          await b.page.locator(`a[href="map/${file}.svg"]`).click();
          await b.page.waitForURL(new RegExp(`map/${file}\\.svg$`));
          // The drawing, on the screen: inside the window, and filling it
          // one way or the other.
          const whole = async (what) => {
            // Its canvas, the viewBox: a part is a window on the whole map,
            // whose lines run on beyond it, clipped.
            const box = await b.page.evaluate(() => {
              const svg = document.documentElement;
              const bb = svg.viewBox.baseVal;
              const m = svg.getScreenCTM();
              const p = (x, y) => new DOMPoint(x, y).matrixTransform(m);
              const [a, c] = [p(bb.x, bb.y), p(bb.x + bb.width, bb.y + bb.height)];
              return { left: a.x, top: a.y, right: c.x, bottom: c.y, fixed: svg.hasAttribute('width') };
            });
            assert.ok(!box.fixed, `${what}: no fixed size`);
            assert.ok(box.left >= -1 && box.top >= -1 && box.right <= viewport.width + 1 && box.bottom <= viewport.height + 1,
              `${what} whole at ${viewport.width}x${viewport.height}: ${JSON.stringify(box)}`);
            assert.ok(box.right - box.left >= 0.9 * viewport.width || box.bottom - box.top >= 0.9 * viewport.height, `${what} fills the window`);
          };
          await whole(file);
          // On a phone (and a screen as narrow), a map offers only links a
          // finger hits: a part of it zooms in, whole on the screen too,
          // and there the board's link.
          if (viewport.width <= 640 && file !== 'tictactoe-x') {
            const part = file === 'hanoi' ? 'the bottom left part' : first;
            await b.page.getByRole('link', { name: `Zoom in: ${part}`, exact: true }).click();
            await b.page.waitForURL(new RegExp(`map/${file}/[0-8]+\\.svg$`));
            await whole(`${file}, ${part}`);
          }
          const link = first ? b.page.getByRole('link', { name: first, exact: true })
            : b.page.getByRole('link', { name: /^Left peg: discs 1, 2, 3 and 4;/ });
          await link.click();
          await b.page.waitForURL((u) => u.href.includes(lands));
          if (file === 'tictactoe-x') assert.equal(await board(b.page), 'x........');
          if (file === 'tictactoe-o') assert.equal(await board(b.page), 'x...o....');
          if (file === 'hanoi') assert.match(await heading(b.page), /: 15 moves left/);
          // And from the map, home.
          await b.page.goBack();
          await b.page.waitForURL(new RegExp(`map/${file}(/[0-8]+)?\\.svg$`));
          await b.page.getByRole('link', { name: 'Home', exact: true }).click();
          await b.page.waitForURL((u) => u.href.includes('index.html#maps'));
        }
        assert.deepEqual(errors, [], 'no console error');
        assert.deepEqual(b.failed.filter((f) => !host(f.split(': ')[0])), []);
      } finally {
        await b.close();
      }
    });
  }
}

// Every map on a 390-pixel phone: every link on the screen is 44 pixels
// or more each way, and a tap at its centre follows it; the parts the
// whole map zooms into, and theirs (the map for O two taps deep, every
// page of the others), the same.
test('every link of every map is a finger\'s size on a 390-pixel phone', async () => {
  const b = await browser({ width: 390, height: 844 });
  try {
    const base = fileBase();
    for (const [file, deepest] of [['tictactoe-x', 9], ['tictactoe-o', 2], ['hanoi', 9]]) {
      const todo = [`map/${file}.svg`];
      const seen = new Set();
      while (todo.length) {
        const page = todo.pop();
        if (seen.has(page)) continue;
        seen.add(page);
        await b.page.goto(base + page);
        const links = await b.page.evaluate(() => [...document.querySelectorAll('a')].flatMap((a) => {
          const box = a.querySelector('rect, circle').getBoundingClientRect();
          if (box.width === 0) return []; // not shown here (the desktop's links)
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)?.closest('a');
          return [{ href: a.getAttribute('href'), w: box.width, h: box.height, hit: hit === a }];
        }));
        assert.ok(links.length >= 2, `${page}: links`);
        for (const l of links) {
          assert.ok(l.w >= 44 - 0.5 && l.h >= 44 - 0.5, `${page}: ${l.href} is ${l.w} by ${l.h}`);
          assert.ok(l.hit, `${page}: a tap on ${l.href} follows it`);
        }
        const depth = page.split('/').length === 2 ? 0 : page.split('/').pop().length - 4;
        if (depth < deepest) {
          for (const l of links) {
            if (/^[0-8]+\.svg$|^[a-z-]+\/[0-8]+\.svg$/.test(l.href)) todo.push(new URL(l.href, base + page).href.slice(base.length));
          }
        }
      }
      assert.ok(seen.size > 3, `${file}: ${seen.size} pages`);
    }
    assert.deepEqual(b.failed, []);
  } finally {
    await b.close();
  }
});

// The Towers of Hanoi on a 390-pixel phone: each peg is one link, and the
// whole column is where to tap it, the discs and the peg included, not
// only the strip of air above them; a tap below the board follows none.
test('the whole peg column is one link to tap (390x844)', async () => {
  const b = await browser({ width: 390, height: 844 });
  try {
    for (const file of ['hanoi/0.html', 'hanoi/1.html', 'hanoi-analysis/0.html']) {
      await b.page.goto(fileBase() + file);
      const hrefs = await b.page.locator('table').evaluate((t) => {
        const r = t.getBoundingClientRect();
        const at = (x, y) => document.elementFromPoint(x, y)?.closest('a')?.getAttribute('href') ?? null;
        // Each column at five heights, from its top to just above the
        // base, then just below the board.
        return [0, 1, 2].map((c) => {
          const x = r.x + (c + 0.5) * r.width / 3;
          return [0.05, 0.3, 0.55, 0.8, 0.95].map((f) => at(x, r.y + f * r.height)).concat([at(x, r.bottom + 4)]);
        });
      });
      const columns = await b.page.locator('table tr:first-child td').evaluateAll((tds) => tds.map((td) => td.querySelector('a')?.getAttribute('href') ?? null));
      columns.forEach((href, c) => {
        const hits = hrefs[c];
        assert.deepEqual(hits.slice(0, 5), Array(5).fill(href), `${file}: column ${c}`);
        assert.equal(hits[5], null, `${file}: below column ${c}`);
      });
      const box = await b.page.locator('table a').first().evaluate((a) => {
        const t = a.closest('table').getBoundingClientRect();
        return [a.getBoundingClientRect().width, t.height];
      });
      assert.ok(box[0] >= 44 && box[1] >= 44, `${file}: ${box}`);
      // A tap on the discs of the first column with a link lifts or puts
      // down, as its link says.
      const c = columns.findIndex((h) => h);
      const t = await b.page.locator('table').boundingBox();
      const before = b.page.url();
      await b.page.mouse.click(t.x + (c + 0.5) * t.width / 3, t.y + 0.8 * t.height);
      await b.page.waitForURL((u) => u.href !== before);
      assert.ok(b.page.url().endsWith(columns[c].replace(/^.*\//, '')), `${file}: ${b.page.url()}`);
    }
    assert.deepEqual(b.failed, []);
  } finally {
    await b.close();
  }
});

// Mate in N: from the home page, picking the framed (best) piece and then
// its framed (best) square against the perfect defender mates in exactly
// the start's distance to mate, two taps a move; the mate page says so.
for (const [where, base] of BASES) {
  for (const [size, viewport] of SIZES) {
    test(`mate with king and rook by the framed moves (${where}, ${size})`, async () => {
      const b = await browser(viewport);
      try {
        await b.page.goto(base + 'index.html');
        await b.page.locator('#krk-analysis + p + ul a').click();
        await b.page.waitForURL(/krk-analysis\/[0-9a-f]+\.html$/);
        const first = await heading(b.page);
        const mate = Number(/mate in (\d+) with best play/.exec(first)[1]);
        const left = Number(/^(\d+) moves left/.exec(first)[1]);
        let moves = 0;
        while ((await heading(b.page)) !== 'Checkmate') {
          assert.ok(moves < mate, `mated within ${mate} moves`);
          // The framed piece, then the framed square it goes to: two taps.
          for (let tap = 0; tap < 2; tap++) {
            // (On the a-file, a framed piece is `ca`, its rank, the piece
            // and `b`: `ca1rb.svg`; a framed mate `ca`, its rank, `m`, N
            // and `b`: `ca7m12b.svg`.)
            const framed = ['bl', 'bd', 'kb', 'qb', 'rb']
              .map((end, i) => `img[src^="${i < 2 ? 'c' : 'ca'}"][src$="${end}.svg"]`)
              .concat(['img[src^="ca"][src*="m"][src$="b.svg"]']).join(', ');
            const link = b.page.locator(`table a:has(${framed})`).first();
            const before = b.page.url();
            await link.click();
            await b.page.waitForURL((u) => u.href !== before);
          }
          moves++;
        }
        assert.equal(moves, mate);
        assert.match(await b.page.locator('main p').allInnerTexts().then((t) => t.join(' ')),
          new RegExp(`You mated in ${mate} moves; you had ${left}\\.`));
        assert.equal(await b.page.locator('table a').count(), 0, 'no moves once mated');
        assert.deepEqual(b.failed, []);
      } finally {
        await b.close();
      }
    });
  }
}

// On a phone, 360 or 390 pixels wide, every square of a chess board is a
// link at least 44 pixels each way: the pieces to pick, and the squares a
// picked piece may go to.
test('every chess square is a finger\'s size on a 360- or 390-pixel phone', async () => {
  for (const size of [PHONE, { width: 390, height: 844 }]) {
    const b = await browser(size);
    try {
      await b.page.goto(server.base + 'index.html');
      await b.page.locator('#krk + p + ul a').click();
      await b.page.waitForURL(/krk\/[0-9a-f]+\.html$/);
      const start = b.page.url();
      for (const piece of ['ck', 'cr']) {
        // The board, then the piece picked up: each link's picture, the
        // square a finger taps, and a tap at its corner lands on it.
        for (const page of ['board', `${piece} picked up`]) {
          const links = b.page.locator('table a');
          assert.ok((await links.count()) >= 2, page);
          for (const link of await links.all()) {
            const box = await link.locator('img').boundingBox();
            assert.ok(box.width >= 44 && box.height >= 44, `${page}: a square is ${box.width}x${box.height}`);
            const hit = await b.page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('a')?.href,
              [box.x + 3, box.y + box.height - 3]);
            assert.equal(hit, await link.evaluate((a) => a.href), `${page}: the corner of a square is its link`);
          }
          if (page === 'board') {
            const before = b.page.url();
            // The piece's picture: `ck` + shade, or on the a-file `ca`, its
            // rank and the piece (`ca1r.svg`).
            const drawn = `img[src^="${piece}"], img[src^="ca"][src$="${piece.slice(1)}.svg"]`;
            await b.page.locator(`table a:has(${drawn})`).first().click();
            await b.page.waitForURL((u) => u.href !== before);
          }
        }
        await b.page.goto(start);
      }
      assert.deepEqual(b.failed, []);
    } finally {
      await b.close();
    }
  }
});

// With the king picked up, a tap on the rook picks the rook up instead,
// as a chess app does: the same page as the rook picked up from the
// board, in one tap; and in the analysis the rook is framed there as the
// piece with the best move (the start's mate in 12 is Ra7).
test('a tap on the other white piece picks it up instead', async () => {
  const b = await browser(PHONE);
  try {
    for (const edition of ['krk', 'krk-analysis']) {
      await b.page.goto(server.base + 'index.html');
      await b.page.locator(`#${edition} + p + ul a`).click();
      await b.page.waitForURL(new RegExp(`${edition}/[0-9a-f]+\\.html$`));
      const start = b.page.url();
      const pick = async (piece) => {
        const before = b.page.url();
        await b.page.locator(`table a:has(img[src^="c${piece}"], img[src^="ca"][src*="${piece}"])`).first().click();
        await b.page.waitForURL((u) => u.href !== before);
        return b.page.url();
      };
      const rookPicked = await pick('r');
      await b.page.goto(start);
      await pick('k');
      assert.equal(await pick('r'), rookPicked, `${edition}: the rook picked up instead of the king`);
      await b.page.goto(start);
      await pick('k');
      const rook = b.page.locator('table a img[alt^="a1: white rook"]');
      assert.equal(await rook.count(), 1, `${edition}: the rook is a link with the king picked up`);
      if (edition === 'krk-analysis') {
        assert.equal(await rook.getAttribute('src'), 'ca1rb.svg', 'the rook framed as the best');
      }
    }
    assert.deepEqual(b.failed, []);
  } finally {
    await b.close();
  }
});

// A move marked too slow (a cross) in the analysis leads to the one page
// that says so. It shows the start, to try again from: its king and rook
// are links, and the king's leads to the start with the king selected.
test('a move too slow to mate in time ends the try', async () => {
  const b = await browser(DESKTOP);
  // The board's squares: each picture and its words, and its link's page
  // if it is one.
  const squares = () =>
    b.page.locator('table img').evaluateAll((imgs) =>
      imgs.map((i) => [i.src, i.alt, i.closest('a') ? i.closest('a').href : null]));
  try {
    await b.page.goto(server.base + 'index.html');
    await b.page.locator('#krk-analysis + p + ul a').click();
    await b.page.waitForURL(/krk-analysis\/[0-9a-f]+\.html$/);
    const start = await squares();
    let before = b.page.url();
    await b.page.locator('table a:has(img[src^="ck"])').first().click();
    await b.page.waitForURL((u) => u.href !== before);
    const kingPicked = b.page.url();
    before = kingPicked;
    await b.page.locator('table a:has(img[src^="cx"])').first().click();
    await b.page.waitForURL((u) => u.href !== before);
    assert.equal(await heading(b.page), 'Too slow');
    const words = (await b.page.locator('main p').allInnerTexts()).join(' ');
    assert.match(words, /you can no longer mate in time\. Back at the start: select a white piece\./);
    // The start's board, its king and rook links to the start's own pages.
    assert.deepEqual(await squares(), start, 'the start, as the start shows it');
    assert.equal(start.filter(([, , href]) => href).length, 2, 'the king and the rook');
    before = b.page.url();
    await b.page.locator('table a:has(img[alt^="e1: white king"])').click();
    await b.page.waitForURL((u) => u.href !== before);
    assert.equal(b.page.url(), kingPicked, 'the start, the king selected');
    assert.deepEqual(b.failed, []);
  } finally {
    await b.close();
  }
});
