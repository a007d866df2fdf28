// The web page in a real headless Chromium (issue 27, item 6), through script mode like the
// desktop's tests/ui: each test opens the page with a script in its address, reads the layout
// JSON and screenshots the script wrote in the page's file system, and checks them against
// independent facts (the book's 4x4 example, the lesson files, hand counts), the same facts as
// tests/ui/classroom_test.py, mechanism_test.py and replay_script_test.py. One page load per
// test, in one browser context for the file (harness.mjs: startSession).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';
import { Png, grid, hexRgb, close, fillPoint, cellRect } from './picture.mjs';
import { nativeReplayTrace, checkReplayAtPhase1 } from './replay.mjs';
import { lessonPages } from './lessons.mjs';

// Issue 27 asks for the first picture within 3 s (the benchmark, bench/web, measures it); the
// test allows 10 s, a page that never draws or draws far too late: it took 6.7 s here on 2 cores
// that 6 builds shared (load 14), where the benchmark on the same machine measured less.
const FIRST_PICTURE_MS = Number(process.env.TILESCOPE_FIRST_PICTURE_MS || 10000);
// Issue 18: the book's 4x4 cells in the presenter layout at 720 lines (classroom_test.py's floor).
const BOOK_CELL_FLOOR_720 = 56;

let session;
before(async () => {
  session = await h.startSession('page.test.mjs');
});
after(async () => {
  await session?.close();
});

async function script(text, options) {
  return session.run(text, options);
}

test('the first picture comes within its time, and it is not blank', async () => {
  const r = await session.open({ preset: 'book-4x4' }, { waitFor: 'frame' });
  try {
    const first = await r.page.evaluate(() => window.tilescopeFirstFrame);
    assert.ok(first > 0 && first <= FIRST_PICTURE_MS, `first picture at ${first.toFixed(0)} ms after navigation (limit ${FIRST_PICTURE_MS})`);
    // What the browser shows, not the app's own capture: the canvas holds a picture.
    const shown = new Png(await r.page.screenshot());
    assert.equal(shown.width, 1280);
    assert.ok(shown.distinctColours(64) >= 16, `the page shows ${shown.distinctColours()} colours: blank`);
    // Nothing over the picture still says it is loading (the page's own text, besides the canvas).
    const text = await r.page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(text, /loading/i, `the page still says: ${text}`);
  } finally {
    await r.close();
  }
});

test("the book's 4x4 in the presenter at 1280x720: cells of at least 56 px, a screenshot with the picture, a page's panels", async () => {
  const pages = lessonPages('tiling-and-phases');
  const saving = pages.findIndex((p) => p.panels.length > 0);  // "The saving": panels Counters
  assert.ok(saving > 0, 'the lesson names panels on one of its pages');
  const r = await script('lesson tiling-and-phases\nset presenter on\nwait\nlayout /out/book.json\nscreenshot /out/book.png\n' +
                         'lesson next\n'.repeat(saving) + 'layout /out/page.json\n');
  try {
    const book = await h.readJson(r.page, '/out/book.json');
    assert.deepEqual([book.width, book.height], [1280, 720]);
    assert.equal(book.lesson.presenter, true);
    assert.equal(book.config, 'tiled 4x4x4 T=2');
    for (const name of ['M', 'N', 'P']) {
      const g = grid(book, name);
      assert.deepEqual([g.rows, g.cols], [4, 4], name);
      assert.ok(g.cellWidth >= BOOK_CELL_FLOOR_720, `${name}'s cells are ${g.cellWidth} px wide`);
    }
    for (const name of ['Mds', 'Nds']) {
      const g = grid(book, name);
      assert.deepEqual([g.rows, g.cols], [2, 2], name);
      assert.ok(g.cellWidth >= BOOK_CELL_FLOOR_720, `${name}'s cells are ${g.cellWidth} px wide`);
    }
    // The screenshot the page wrote is the picture: its size, many colours, and M's 16 cells
    // drawn over the background (fill pixels not of the background colour).
    const png = new Png(await h.readBytes(r.page, '/out/book.png'));
    assert.deepEqual([png.width, png.height], [1280, 720]);
    assert.ok(png.distinctColours(256) >= 32, `the screenshot has ${png.distinctColours()} colours`);
    const background = hexRgb(book.theme.background);
    const m = grid(book, 'M');
    for (let row = 0; row < 4; ++row)
      for (let col = 0; col < 4; ++col)
        assert.ok(!close(png.pixel(...fillPoint(m, row, col)), background), `M(${row},${col}) is not drawn`);

    const page = await h.readJson(r.page, '/out/page.json');
    assert.equal(page.lesson.page, saving);
    assert.equal(page.lesson.pageTitle, pages[saving].title);
    const shown = new Set(page.windows.map((w) => w.tab));
    for (const panel of pages[saving].panels) assert.ok(shown.has(panel), `the page names ${panel}; shown: ${[...shown]}`);
  } finally {
    await r.close();
  }
});

// mechanism_test.py's race: tiled-no-first-sync on the book's 4x4, T = 2. Thread tx=0, ty=0 runs
// its k loop before its neighbours load; at k = 1 it reads Mds[0][1] (tx=1, ty=0's slot) and
// Nds[1][0] (tx=0, ty=1's), neither written yet.
test("a race's stale slots are marked and drawn in the error colour", async () => {
  const r = await script('set kernel tiled-no-first-sync\nset size 4\nset tile 2\nwait\nselect block 0 0\n' +
                         'set granularity k\nseek start\nstep 3\nshow Shared memory\nlayout /out/race.json\nscreenshot /out/race.png\n');
  try {
    const layout = await h.readJson(r.page, '/out/race.json');
    const stale = (name) => grid(layout, name).marks.filter((x) => x.kind === 'stale');
    assert.deepEqual(stale('Mds').map((x) => [x.row, x.col, x.reader, x.writer]), [[0, 1, [0, 0], [1, 0]]]);
    assert.deepEqual(stale('Nds').map((x) => [x.row, x.col, x.reader, x.writer]), [[1, 0, [0, 0], [0, 1]]]);
    const png = new Png(await h.readBytes(r.page, '/out/race.png'));
    const error = hexRgb(layout.theme.error);
    for (const [name, row, col] of [['Mds', 0, 1], ['Nds', 1, 0]]) {
      const red = png.count(error, ...cellRect(grid(layout, name), row, col));
      assert.ok(red >= 20, `${name}[${row}][${col}] has ${red} pixels of the error colour ${layout.theme.error}`);
    }
  } finally {
    await r.close();
  }
});

// A link a teacher puts on a slide: the address selects the lesson, its page (counted from 1,
// as the lesson's pages are numbered on screen) and the presenter layout; or a kernel's launch.
test('a link lands on its lesson page, or on its kernel launch', async () => {
  const pages = lessonPages('two-barriers');
  const r = await session.run('wait\nlayout /out/link.json\n', { params: { lesson: 'two-barriers', page: 3, presenter: 1 } });
  try {
    const layout = await h.readJson(r.page, '/out/link.json');
    assert.equal(layout.lesson.name, 'two-barriers');
    assert.equal(layout.lesson.pageTitle, pages[2].title);
    assert.equal(layout.lesson.page, 2);
    assert.equal(layout.lesson.presenter, true);
  } finally {
    await r.close();
  }
  const k = await session.run('wait\nlayout /out/kernel.json\n', { params: { kernel: 'tiled-no-first-sync', size: 4, tile: 2 } });
  try {
    assert.equal((await h.readJson(k.page, '/out/kernel.json')).config, 'tiled-no-first-sync 4x4x4 T=2');
  } finally {
    await k.close();
  }
});

// replay_script_test.py's trace (replay.mjs), saved by the native CLI, put in the page's file
// system and opened by the script.
test('a .tstrace saved by the native CLI replays in the page', async () => {
  const r = await script('open /in/x.tstrace\nseek phase 1\nlayout /out/L.json\nscreenshot /out/S.png\n',
                         { files: [{ path: '/in/x.tstrace', bytes: nativeReplayTrace() }] });
  try {
    checkReplayAtPhase1(await h.readJson(r.page, '/out/L.json'), await h.readBytes(r.page, '/out/S.png'), '/in/x.tstrace');
  } finally {
    await r.close();
  }
});
