// What a school laptop without GPU acceleration needs of the page's frames (WebGL2 on
// SwiftShader, as there): no frame waits on the browser's GPU process for a state query or an
// error check, the heap stays small over a term's lessons, and the Matrices panel's legend fits
// a small window. The frame rates themselves are figures (bench/web/bench.mjs), not a test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';
import { lessonWalkScript } from './lessons.mjs';

// Issue 38's budget: 256 MiB of wasm heap after every page of every lesson.
const HEAP_BUDGET = 256 * 2 ** 20;

let session;
before(async () => { session = await h.startSession('page_perf.test.mjs'); });
after(async () => { await session?.close(); });

// In the page before its own scripts: counts every call that asks WebGL for something (state,
// errors, a shader's status), which the browser answers only after its GPU process has run every
// command before it, and the draws, each time the page reaches the file the script writes.
const QUERY_COUNTER = `(() => {
  const P = WebGL2RenderingContext.prototype;
  window.__gl = { queries: {}, draws: 0 };
  for (const name of ['getParameter', 'isEnabled', 'getError', 'checkFramebufferStatus', 'getShaderParameter',
                      'getProgramParameter', 'getIndexedParameter', 'getVertexAttrib', 'getBufferParameter',
                      'getTexParameter', 'getFramebufferAttachmentParameter', 'readPixels']) {
    const call = P[name];
    P[name] = function (...a) {
      const key = name === 'getParameter' ? name + ' 0x' + Number(a[0]).toString(16) : name;  // which state
      window.__gl.queries[key] = (window.__gl.queries[key] || 0) + 1;
      return call.apply(this, a);
    };
  }
  for (const name of ['drawArrays', 'drawElements', 'drawArraysInstanced']) {
    const call = P[name];
    P[name] = function (...a) { ++window.__gl.draws; return call.apply(this, a); };
  }
})();`;

test('while tiled 64^3 T=16 plays, no frame asks WebGL for its state or its errors', async () => {
  const page = await session.context.newPage();
  try {
    await page.setViewportSize({ width: 1280, height: 720 + h.TOOLS_PX });
    await page.addInitScript(QUERY_COUNTER);
    const script = 'set kernel tiled\nset size 64\nset tile 16\nwait\nseek start\nframes 10\nlayout /out/start.json\n' +
                   'play 60\nframes 60\n';
    await page.goto(h.pageUrl(session.url, { script }));
    await page.waitForFunction(() => { try { return window.Module.FS.analyzePath('/out/start.json').exists; } catch { return false; } },
                               null, { timeout: 120000, polling: 'raf' });
    const before = await page.evaluate(() => ({ ...window.__gl, queries: { ...window.__gl.queries }, frames: window.tilescopeFrames }));
    const done = await h.scriptDone(page);
    assert.ok(done.ok, `the script ran: ${done.message}`);
    const after = await page.evaluate(() => ({ ...window.__gl, frames: window.tilescopeFrames }));
    const asked = Object.entries(after.queries).map(([name, n]) => [name, n - (before.queries[name] || 0)]).filter(([, n]) => n > 0);
    assert.ok(after.frames - before.frames >= 50, `frames played: ${after.frames - before.frames}`);
    assert.ok(after.draws - before.draws >= 30, `the play drew: ${after.draws - before.draws} draw calls`);
    assert.deepEqual(asked, [], `queries in ${after.frames - before.frames} frames of play`);
    assert.ok(Object.keys(before.queries).length > 0, 'the counter sees the start-up queries (it counts at all)');
  } finally {
    await page.close();
  }
});

// Not met yet: 306 MiB (544 before the trace was decoded in place, freed traces not kept, the
// heap grown by 16 MiB steps and request lanes cut to 16 bytes). One page makes it, regtile-1d at
// 128^3 (lesson 13 page 3): its run holds 165 MB (trace, warp requests, timeline), and its slots
// and fibre stacks come from the heap's top (bench/results/2026-11-29-web-perf). A todo shows the
// figure in every run without failing the suite.
test('walking every page of every lesson keeps the wasm heap under 256 MiB', { todo: 'issue 38: 306 MiB today' }, async () => {
  const context = await session.browser.newContext({ deviceScaleFactor: 1 });
  try {
    const r = await h.runScript(context, session.url, lessonWalkScript());
    const bytes = await r.page.evaluate(() => window.Module.HEAP8.length);
    assert.ok(bytes < HEAP_BUDGET, `the heap is ${(bytes / 2 ** 20).toFixed(0)} MiB after the walk (budget 256 MiB)`);
  } finally {
    await context.close();
  }
});

// The Matrices panel at 800x600: its legend's words (every entry, recorded in the layout file as
// drawn) inside the panel and clear of the grids, for the legends of every kind: the book's 4x4,
// load shading (64^3), a followed thread, a race's frames. A legend cut off at the bottom of the
// corner it is given would run on over M.
const SMALL_SCENES = {
  "the book's 4x4": ['set kernel tiled\nset size 4\nset tile 2\nwait\n', 'P stored'],
  'load shading at 64^3': ['set kernel tiled\nset size 64\nset tile 16\nwait\n', 'loads from global memory'],
  'a followed thread': ['set kernel tiled\nset size 8\nset tile 4\nwait\nfollow thread 1 1\n', 'followed thread'],
  "a race's stale reads": ['lesson two-barriers\nlesson next\nlesson next\nwait\nshow Matrices\n', 'framed: stale'],
};

for (const [name, [setup, lastWords]] of Object.entries(SMALL_SCENES)) {
  test(`at 800x600 the Matrices panel's legend is whole, inside the panel and clear of the grids (${name})`, async () => {
    const r = await session.run(setup + 'frames 3\nlayout /out/L.json\n', { width: 800, height: 600 });
    try {
      const layout = await h.readJson(r.page, '/out/L.json');
      const w = layout.windows.find((x) => x.tab === 'Matrices');
      assert.ok(w, `a Matrices panel: ${layout.windows.map((x) => x.tab)}`);
      assert.ok(w.contentHeight <= w.innerHeight + 1, `the content is ${w.contentHeight.toFixed(0)} px tall in ${w.innerHeight.toFixed(0)}`);
      const grids = layout.grids.filter((g) => ['M', 'N', 'P'].includes(g.name));
      assert.equal(grids.length, 3, 'M, N and P are drawn');
      const legend = layout.texts.filter((t) => t.panel === 'Matrices' && !grids.some((g) => g.texts.some((c) => c[2] === t.text)));
      assert.ok(legend.some((t) => t.text.includes(lastWords)), `the legend has "${lastWords}": ${legend.map((t) => t.text)}`);
      for (const t of legend) {
        const bottom = t.y + t.pitch;
        assert.ok(bottom <= w.y + w.height + 0.5, `"${t.text}" ends at ${bottom.toFixed(0)}, below the panel's ${(w.y + w.height).toFixed(0)}`);
        const over = grids.find((g) => t.x >= g.x && t.x < g.x + g.width && bottom > g.y && t.y < g.y + g.height);
        assert.ok(!over, `"${t.text}" at ${t.x.toFixed(0)},${t.y.toFixed(0)} lies over ${over?.name}: the legend does not fit its place`);
      }
    } finally {
      await r.close();
    }
  });
}
