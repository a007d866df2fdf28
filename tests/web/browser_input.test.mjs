// The browser's input as a person gives it, through real input events (CDP's, playwright's
// keyboard, mouse and touchscreen), not script mode: the app's keys keep the browser's default
// from acting while its other shortcuts keep theirs, a key tapped faster than a frame counts,
// fullscreen comes from F and from its button, the wheel scrolls the browser's way by the
// browser's distance, a tap on the canvas presses what it touches, and the page's buttons give
// the keys back. What each checks is what the page then does (its link, its pixels, the
// browser's fullscreen element), against facts fixed here (a 100 px notch, the lesson's pages).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './harness.mjs';
import { Png } from './picture.mjs';

let session;
before(async () => {
  session = await h.startSession('browser_input.test.mjs');
});
after(async () => {
  await session?.close();
});

// Every keydown's code and whether its default was prevented, as the page's last listener sees it.
const RECORD_KEYS = `window.__keys = [];
window.addEventListener('keydown', (e) => window.__keys.push([(e.ctrlKey ? 'Control+' : '') + (e.altKey ? 'Alt+' : '') + e.code, e.defaultPrevented]));
window.__loadedAt = performance.timeOrigin;`;

async function openInteractive(params, { width = 1280, height = 720 } = {}) {
  const page = await session.context.newPage();
  await page.setViewportSize({ width, height: height + h.TOOLS_PX });
  await page.addInitScript(RECORD_KEYS);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(h.pageUrl(session.url, params), { waitUntil: 'load' });
  await page.waitForFunction(() => window.tilescopeFirstFrame !== undefined, null, { timeout: 120000, polling: 50 });
  await h.settle(page, 3);
  return { page, errors, close: () => page.close() };
}

// The link the app copies for what is on screen (the L key, tapped): the clipboard's text once
// it holds an address.
async function linkNow(page) {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.keyboard.press('KeyL');
  let text = '';
  for (let i = 0; i < 300 && !/^https?:\/\/.*\?/.test(text); ++i) {
    await h.settle(page, 1);
    text = await page.evaluate(() => navigator.clipboard.readText());
  }
  assert.match(text, /^https?:\/\/.*\?/, 'the L key copied an address');
  return Object.fromEntries(new URL(text).searchParams);
}

test('a key tapped faster than a frame counts: L, pressed and released at once, copies the link', async () => {
  const r = await openInteractive({ kernel: 'tiled', size: 4, tile: 2 });
  try {
    assert.deepEqual(await linkNow(r.page), { kernel: 'tiled', size: '4', tile: '2' });
  } finally {
    await r.close();
  }
});

test("the app's keys keep the browser's default from acting (F5 is the presenter, not a reload); the browser's shortcuts keep theirs", async () => {
  const r = await openInteractive({ lesson: 'two-barriers', page: 2 });
  try {
    await r.page.evaluate(() => { window.__marker = 'still this page'; });
    for (const key of ['F5', 'F1', 'Escape', 'Space', 'Space', 'ArrowRight', 'ArrowLeft', 'Home', 'End', 'Slash']) {
      await r.page.keyboard.press(key);
      await h.settle(r.page, 2);
    }
    for (const key of ['Control+KeyS', 'Alt+ArrowLeft', 'Control+Equal']) await r.page.keyboard.press(key);
    await h.settle(r.page, 2);
    const keys = await r.page.evaluate(() => window.__keys);
    const prevented = Object.fromEntries(keys.map(([code, p]) => [code, p]));
    for (const code of ['F5', 'F1', 'Space', 'ArrowRight', 'ArrowLeft', 'Home', 'End', 'Slash'])
      assert.equal(prevented[code], true, `${code}'s default is prevented (${JSON.stringify(keys)})`);
    for (const code of ['Control+KeyS', 'Alt+ArrowLeft', 'Control+Equal'])
      assert.equal(prevented[code], false, `${code} is the browser's: its default is left alone`);
    assert.equal(await r.page.evaluate(() => window.__marker), 'still this page', 'F5 did not reload the page');
    assert.deepEqual(r.errors, []);
    // F5 reached the app: the presenter is on, on the same lesson page.
    assert.deepEqual(await linkNow(r.page), { lesson: 'two-barriers', page: '2', presenter: '1' });
  } finally {
    await r.close();
  }
});

const fullscreenElement = (page) => page.evaluate(() => (document.fullscreenElement ? document.fullscreenElement.id : null));

test('F asks for fullscreen inside its own key event and leaves it; so does the Fullscreen button, which gives the keys back to the canvas', async () => {
  const r = await openInteractive({ kernel: 'tiled', size: 4, tile: 2 });
  try {
    await r.page.keyboard.press('KeyF');
    await r.page.waitForFunction(() => document.fullscreenElement !== null, null, { timeout: 10000 });
    assert.equal(await fullscreenElement(r.page), 'canvas');
    await h.settle(r.page, 3);
    // The canvas alone fills the window (the tools strip is not in fullscreen).
    const size = await r.page.evaluate(() => [Module.canvas.width, Module.canvas.height, innerWidth, innerHeight]);
    assert.deepEqual(size.slice(0, 2), size.slice(2), `the canvas's pixels ${size.slice(0, 2)} fill the screen ${size.slice(2)}`);
    await r.page.keyboard.press('KeyF');
    await r.page.waitForFunction(() => document.fullscreenElement === null, null, { timeout: 10000 });
    await r.page.click('#fullscreen');
    await r.page.waitForFunction(() => document.fullscreenElement !== null, null, { timeout: 10000 });
    assert.equal(await fullscreenElement(r.page), 'canvas');
    assert.equal(await r.page.evaluate(() => document.activeElement.id), 'canvas', 'the keys go to the canvas after the click');
    await r.page.keyboard.press('KeyF');
    await r.page.waitForFunction(() => document.fullscreenElement === null, null, { timeout: 10000 });
    assert.deepEqual(r.errors, []);
  } finally {
    await r.close();
  }
});

test('Copy link gives the keys back: Space after it plays instead of copying again; clicked while the page loads, it throws nothing', async () => {
  const page = await session.context.newPage();
  await page.setViewportSize({ width: 1280, height: 720 + h.TOOLS_PX });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/index.wasm', async (route) => { await held; await route.continue(); });
  try {
    await page.goto(h.pageUrl(session.url, { kernel: 'tiled', size: 4, tile: 2 }), { waitUntil: 'load' });
    await page.click('#link');  // the app is not running yet
    release();
    await page.waitForFunction(() => window.tilescopeFirstFrame !== undefined, null, { timeout: 120000, polling: 50 });
    await h.settle(page, 3);
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.click('#link');
    await page.waitForFunction(async () => (await navigator.clipboard.readText()).includes('?'), null, { polling: 'raf', timeout: 30000 });
    assert.equal(await page.evaluate(() => document.activeElement.id), 'canvas', 'the button does not keep the focus');
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.keyboard.press('Space');
    await h.settle(page, 4);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), '', 'Space did not press Copy link again');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

// How far the picture in `box` moved up between two screenshots (rows; negative: down): the
// shift that best lines up the two, by the mean absolute difference of their rows.
function verticalShift(before, after, box, maxShift) {
  let best = { shift: 0, error: Infinity };
  for (let s = -maxShift; s <= maxShift; ++s) {
    let sum = 0, n = 0;
    for (let y = box.y0; y < box.y1; y += 2) {
      const from = y + s;
      if (from < box.y0 || from >= box.y1) continue;
      for (let x = box.x0; x < box.x1; x += 3) {
        const a = before.pixel(x, from), b = after.pixel(x, y);
        sum += Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
        ++n;
      }
    }
    if (n > 200 && sum / n < best.error) best = { shift: s, error: sum / n };
  }
  return best;
}

// One touchpad stroke of 40 CSS pixels, as a browser reports it (deltaMode 0, pixels).
const STROKE_PX = 40;

test("the wheel scrolls a panel the browser's way, by the browser's distance (a 40 px stroke: 40 px, not a page)", async () => {
  // At 800x600 the Source panel of a lesson page shows part of its kernel: its code scrolls.
  const params = { lesson: 'two-barriers', page: 2 };
  const scripted = await session.run('wait\nlayout /out/L.json\n', { params, width: 800, height: 600 });
  const layout = await h.readJson(scripted.page, '/out/L.json');
  await scripted.close();
  const panel = layout.windows.find((w) => w.tab === 'Source');
  assert.ok(panel && layout.source.textHeight > layout.source.visibleHeight + 3 * STROKE_PX,
            `a Source panel with more code than it shows: ${JSON.stringify([panel, layout.source])}`);
  const r = await openInteractive(params, { width: 800, height: 600 });
  try {
    const box = { x0: Math.ceil(panel.x) + 6, x1: Math.floor(panel.x + panel.width) - 20,
                  y0: Math.ceil(panel.y + panel.height - layout.source.visibleHeight) + 4, y1: Math.floor(panel.y + panel.height) - 4 };
    await r.page.mouse.move((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2);
    await h.settle(r.page, 3);
    const shot = async () => new Png(await r.page.screenshot({ clip: { x: 0, y: 0, width: 800, height: 600 } }));
    const before = await shot();
    await r.page.mouse.wheel(0, STROKE_PX);
    await h.settle(r.page, 4);
    const down = await shot();
    const moved = verticalShift(before, down, box, 2 * STROKE_PX);
    assert.ok(Math.abs(moved.shift - STROKE_PX) <= 4,
              `a stroke down moved the panel's content up ${moved.shift} px (error ${moved.error.toFixed(1)}); the browser scrolls ${STROKE_PX}`);
    await r.page.mouse.wheel(0, -STROKE_PX);
    await h.settle(r.page, 4);
    const back = verticalShift(down, await shot(), box, 2 * STROKE_PX);
    assert.ok(Math.abs(back.shift + STROKE_PX) <= 4, `a stroke up moved it ${back.shift} px`);
  } finally {
    await r.close();
  }
});

test('a tap on the canvas presses what the finger touches: "Next >" of the Lesson panel turns the page', async () => {
  const context = await session.browser.newContext({ deviceScaleFactor: 1, hasTouch: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.url.replace(/\/$/, '') });
  const params = { lesson: 'two-barriers', page: 2 };
  try {
    // Where the Lesson panel lies at 800x600 (its layout file); "Next >" is on its second row.
    const scripted = await h.runScript(context, session.url, 'wait\nlayout /out/L.json\n', { params, width: 800, height: 600 });
    const lesson = (await h.readJson(scripted.page, '/out/L.json')).windows.find((w) => w.tab === 'Lesson');
    await scripted.close();
    assert.deepEqual([lesson.x, lesson.y], [0, 0], 'the Lesson panel at the top left, where this test taps');
    const page = await context.newPage();
    await page.setViewportSize({ width: 800, height: 600 + h.TOOLS_PX });
    await page.goto(h.pageUrl(session.url, params), { waitUntil: 'load' });
    await page.waitForFunction(() => window.tilescopeFirstFrame !== undefined, null, { timeout: 120000, polling: 50 });
    await h.settle(page, 3);
    await page.touchscreen.tap(lesson.x + 97, lesson.y + 68);
    await h.settle(page, 4);
    assert.deepEqual(await linkNow(page), { lesson: 'two-barriers', page: '3' });
  } finally {
    await context.close();
  }
});

test('a page control a person moved to keeps its keys: Space on the focused Copy link presses it, and the keys go back to the canvas', async () => {
  const r = await openInteractive({ kernel: 'tiled', size: 4, tile: 2 });
  try {
    await r.page.evaluate(() => navigator.clipboard.writeText(''));
    await r.page.focus('#link');
    await r.page.keyboard.press('Space');
    await r.page.waitForFunction(async () => (await navigator.clipboard.readText()).includes('?'), null, { polling: 'raf', timeout: 30000 });
    const keys = await r.page.evaluate(() => window.__keys);
    assert.deepEqual(keys[keys.length - 1], ['Space', false], 'Space on the button is the button\'s');
    assert.equal(await r.page.evaluate(() => document.activeElement.id), 'canvas');
  } finally {
    await r.close();
  }
});
