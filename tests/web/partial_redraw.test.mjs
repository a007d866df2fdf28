// The page redraws only the regions of its canvas whose pixels change (app/platform/
// shown_picture.h; the canvas keeps its pixels between frames). What it shows after a play drawn
// that way must be the picture drawn whole: the canvas is read once the play has ended and the
// picture has stood still, then a screenshot (a frame drawn whole, its pixels read) is taken of
// the same scene and the canvas is read again; the two readings must match pixel for pixel, and
// the play must have drawn some frames in part (clears within a scissor box), or the test proves
// nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';

let session;
before(async () => { session = await h.startSession('partial_redraw.test.mjs'); });
after(async () => { await session?.close(); });

// In the page before its own script: counts the clears made within a scissor box (a region
// redrawn) and whole ones, and reads the canvas (through a 2D canvas) each time the picture has
// stood still for STILL animation frames after a draw.
const STILL = 30;
const RECORDER = `(() => {
  const P = WebGL2RenderingContext.prototype;
  let scissor = false, drawnAt = 0, frame = 0;
  window.__clears = { region: 0, whole: 0 };
  window.__stills = [];
  const enable = P.enable, disable = P.disable, clear = P.clear;
  P.enable = function (cap) { if (cap === this.SCISSOR_TEST) scissor = true; return enable.call(this, cap); };
  P.disable = function (cap) { if (cap === this.SCISSOR_TEST) scissor = false; return disable.call(this, cap); };
  P.clear = function (mask) {
    if (!this.getParameter(this.FRAMEBUFFER_BINDING)) { ++window.__clears[scissor ? 'region' : 'whole']; drawnAt = frame; }
    return clear.call(this, mask);
  };
  (function tick() {
    ++frame;
    if (drawnAt && frame - drawnAt === ${STILL}) {
      const gl = document.getElementById('canvas');
      const c = document.createElement('canvas');
      c.width = gl.width; c.height = gl.height;
      const g = c.getContext('2d');
      g.drawImage(gl, 0, 0);
      window.__stills.push({ at: frame, clears: { ...window.__clears }, pixels: g.getImageData(0, 0, c.width, c.height).data });
    }
    requestAnimationFrame(tick);
  })();
})();`;

test("a play drawn region by region leaves on the canvas exactly the picture drawn whole", async () => {
  const script = 'lesson tiling-and-phases\nset presenter on\nwait\nset granularity k\nseek start\nframes 10\n' +
                 `play 120\nframes ${2 * STILL}\nscreenshot /out/whole.png\nframes ${2 * STILL}\n`;
  const context = session.context;
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 720 + h.TOOLS_PX });
  await page.addInitScript(RECORDER);
  await page.goto(h.pageUrl(session.url, { script }));
  const done = await h.scriptDone(page);
  assert.ok(done.ok, `the script ran: ${done.message}`);
  await page.waitForFunction((n) => window.__stills.length >= n, 2, { timeout: 60000, polling: 100 }).catch(() => {});
  const r = await page.evaluate(() => {
    const s = window.__stills;
    if (s.length < 2) return { stills: s.length };
    const a = s[s.length - 2], b = s[s.length - 1];
    let differ = 0, lit = 0;
    for (let i = 0; i < a.pixels.length; i += 4) {
      if (a.pixels[i] !== b.pixels[i] || a.pixels[i + 1] !== b.pixels[i + 1] || a.pixels[i + 2] !== b.pixels[i + 2]) ++differ;
      if (a.pixels[i] !== a.pixels[0] || a.pixels[i + 1] !== a.pixels[1]) ++lit;
    }
    return { stills: s.length, differ, lit, pixels: a.pixels.length / 4, before: a.clears, after: b.clears };
  });
  await page.close();
  assert.ok(r.stills >= 2, `the picture stood still after the play and after the screenshot (${r.stills} stills)`);
  assert.ok(r.before.region > 0, `the play redrew regions of the canvas (${JSON.stringify(r.before)})`);
  assert.ok(r.after.whole > r.before.whole, `the screenshot's frame was drawn whole (${JSON.stringify(r.before)} -> ${JSON.stringify(r.after)})`);
  assert.ok(r.lit > r.pixels / 10, `the picture is not blank (${r.lit} of ${r.pixels} pixels differ from the first)`);
  assert.equal(r.differ, 0, `the canvas after the play drawn in regions equals the picture drawn whole (${r.differ} of ${r.pixels} pixels differ)`);
});
