// What only the page has (issue 27, items 2 and 3), driven as a person does: exports that arrive
// as the browser's downloads, a .tstrace opened through the file picker and by drag and drop,
// the link to the scene copied by the "Copy link" button and by the L key, the key list, and the
// page's tools beside the panels, not over them. Each checks what the page then holds (its
// layout file, the downloaded file's bytes and pixels), not only that something happened.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as h from './harness.mjs';
import { Png, grid, hexRgb, close, fillPoint } from './picture.mjs';
import { lessonPages } from './lessons.mjs';
import { nativeReplayTrace, checkReplayAtPhase1 } from './replay.mjs';

let session, trace;
before(async () => {
  session = await h.startSession('page_tools.test.mjs');
  trace = nativeReplayTrace();
});
after(async () => {
  await session?.close();
});

// The book's 4x4 (figs. 5.7-5.9), whose picture the export tests check.
const BOOK = 'set kernel tiled\nset size 4\nset tile 2\nwait\nlayout /out/L.json\n';

// A GIF's logical screen and the size of each of its images (GIF89a: header, screen descriptor,
// colour table, then extension blocks and image descriptors until the trailer).
function gifImages(bytes) {
  assert.equal(bytes.toString('latin1', 0, 6), 'GIF89a', 'a GIF89a header');
  const screen = [bytes.readUInt16LE(6), bytes.readUInt16LE(8)];
  const table = (packed) => (packed & 0x80 ? 3 << ((packed & 7) + 1) : 0);
  const skipBlocks = (pos) => { while (bytes[pos] !== 0) pos += bytes[pos] + 1; return pos + 1; };
  const images = [];
  let pos = 13 + table(bytes[10]);
  for (;;) {
    const kind = bytes[pos];
    if (kind === 0x3b) break;
    if (kind === 0x21) pos = skipBlocks(pos + 2);
    else if (kind === 0x2c) {
      images.push([bytes.readUInt16LE(pos + 5), bytes.readUInt16LE(pos + 7)]);
      pos = skipBlocks(pos + 10 + table(bytes[pos + 9]) + 1);  // descriptor, colour table, LZW code size
    } else throw new Error(`GIF block 0x${kind.toString(16)} at ${pos}: not a GIF's`);
    if (pos >= bytes.length) throw new Error('the GIF ends without its trailer');
  }
  return { screen, images };
}

async function downloadedBytes(r, name) {
  const d = await h.nextDownload(r);
  assert.equal(await d.failure(), null, 'the download completed');
  assert.equal(d.suggestedFilename(), name);
  return readFileSync(await d.path());
}

// One page for the exports (downloads on): the book's 4x4, its PNG, then phase 0 as a GIF.
let book;
async function bookPage() {
  if (!book) {
    book = await session.run(BOOK + 'export png /out/scene.png\nexport gif /out/phase.gif phase 0\n', { downloads: true });
    book.layout = await h.readJson(book.page, '/out/L.json');
    book.png = await downloadedBytes(book, 'scene.png');
    book.gif = await downloadedBytes(book, 'phase.gif');
  }
  return book;
}

test("Export PNG arrives as a download: a PNG of the scene's size with the book's 4x4 drawn", async () => {
  const { layout, png: bytes, page } = await bookPage();
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature');
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR');
  assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [layout.width, layout.height]);
  assert.deepEqual([layout.width, layout.height], [1280, 720]);
  assert.ok(bytes.equals(await h.readBytes(page, '/out/scene.png')), 'the download is the file the page wrote');
  // The picture: M's 16 cells (4x4) are drawn over the background.
  const png = new Png(bytes);
  const background = hexRgb(layout.theme.background), m = grid(layout, 'M');
  assert.deepEqual([m.rows, m.cols], [4, 4]);
  for (let row = 0; row < 4; ++row)
    for (let col = 0; col < 4; ++col)
      assert.ok(!close(png.pixel(...fillPoint(m, row, col)), background), `M(${row},${col}) is not drawn`);
});

test("Export GIF arrives as a download: a GIF89a of the scene's size, an animation of whole pictures", async () => {
  const { layout, gif: bytes, page } = await bookPage();
  const gif = gifImages(bytes);
  assert.deepEqual(gif.screen, [layout.width, layout.height]);
  assert.deepEqual(gif.screen, [1280, 720]);
  assert.ok(gif.images.length >= 2, `an animation: ${gif.images.length} image(s)`);
  assert.deepEqual(gif.images[0], gif.screen, 'the first image is the whole picture');
  for (const [w, hgt] of gif.images) assert.ok(w <= gif.screen[0] && hgt <= gif.screen[1], `an image of ${w}x${hgt} inside the screen`);
  assert.ok(bytes.equals(await h.readBytes(page, '/out/phase.gif')), 'the download is the file the page wrote');
});

// The page opens with its first run held (holdWork), so the script's `wait` is still waiting when
// the file comes in: the layout it then writes is of the file the person opened.
const REPLAY = 'wait\nseek phase 1\nlayout /out/L.json\nscreenshot /out/S.png\n';

async function openedByHand(give) {
  const r = await session.open({ script: REPLAY }, { waitFor: 'frames', holdWork: true });
  try {
    await give(r.page);
    // The shell writes the file into the page's FS, then hands it to the app (one call).
    await r.page.waitForFunction(() => window.Module.FS.analyzePath('/uploads/x.tstrace').exists, null, { polling: 'raf' });
    await h.settle(r.page);  // the app takes it at its next frame
    await h.releaseWork(r.page);
    await h.checkDone({ ...r, done: await h.scriptDone(r.page) }, REPLAY);
    checkReplayAtPhase1(await h.readJson(r.page, '/out/L.json'), await h.readBytes(r.page, '/out/S.png'), '/uploads/x.tstrace');
  } finally {
    await r.close();
  }
}

test('"Open .tstrace…" opens a trace through the file picker, and the page replays it', async () => {
  await openedByHand(async (page) => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('#tools label')]);
    await chooser.setFiles({ name: 'x.tstrace', mimeType: 'application/octet-stream', buffer: trace });
  });
});

test('a .tstrace dropped on the page opens, and the page replays it', async () => {
  await openedByHand(async (page) => {
    await page.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'x.tstrace', { type: 'application/octet-stream' }));
      const canvas = document.getElementById('canvas');
      for (const kind of ['dragenter', 'dragover', 'drop'])
        canvas.dispatchEvent(new DragEvent(kind, { dataTransfer: data, bubbles: true, cancelable: true }));
    }, trace.toString('base64'));
  });
});

// The clipboard's text once it holds a link (the app writes it at its next frame).
async function copiedLink(page) {
  const handle = await page.waitForFunction(async () => {
    const text = await navigator.clipboard.readText();
    return text.includes('?') ? text : null;
  }, null, { polling: 'raf', timeout: 30000 });
  return handle.jsonValue();
}

// Copies the page's link with `how` (the button or the L key) and returns it.
async function copy(page, how) {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  if (how === 'button') await page.click('#link');
  else {  // held over a frame or two: ImGui reads a key that went down and up between two frames as never pressed
    await page.keyboard.down('KeyL');
    await h.settle(page, 2);
    await page.keyboard.up('KeyL');
  }
  return copiedLink(page);
}

test('"Copy link" puts the address of the kernel launch on the clipboard and in the address bar', async () => {
  const { layout, page } = await bookPage();
  assert.equal(layout.config, 'tiled 4x4x4 T=2');
  const link = await copy(page, 'button');
  assert.equal(new URL(link).origin + new URL(link).pathname, session.url);
  assert.deepEqual(Object.fromEntries(new URL(link).searchParams), { kernel: 'tiled', size: '4', tile: '2' });
  assert.equal(page.url(), link, 'the address bar shows the link too');
});

test('the L key and "Copy link" copy the link to a lesson page in the presenter; opened, it lands on that page', async () => {
  const pages = lessonPages('two-barriers');
  const want = { lesson: 'two-barriers', page: '3', presenter: '1' };
  const r = await session.run('wait\nlayout /out/here.json\n', { params: want });
  let there;
  try {
    const here = await h.readJson(r.page, '/out/here.json');
    assert.equal(here.lesson.pageTitle, pages[2].title);
    const link = await copy(r.page, 'key');
    assert.deepEqual(Object.fromEntries(new URL(link).searchParams), want);
    assert.equal(await copy(r.page, 'button'), link, 'the button copies the same link');
    // The link in a new page: the same lesson page in the presenter, whose own link is the same.
    there = await session.run('wait\nlayout /out/there.json\n', { params: Object.fromEntries(new URL(link).searchParams) });
    const layout = await h.readJson(there.page, '/out/there.json');
    assert.equal(layout.lesson.name, 'two-barriers');
    assert.equal(layout.lesson.page, here.lesson.page);
    assert.equal(layout.lesson.pageTitle, pages[2].title);
    assert.equal(layout.lesson.presenter, true);
    assert.equal(await copy(there.page, 'key'), link);
  } finally {
    await r.close();
    await there?.close();
  }
});

// The page's tools (a strip under the canvas) cover no panel: the canvas is the picture's size,
// every window the app drew lies on it, and the tools lie below it.
async function checkTools(page, layout, width, height) {
  assert.deepEqual([layout.width, layout.height], [width, height]);
  const rect = (sel) => page.$eval(sel, (e) => { const b = e.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; });
  const canvas = await rect('#canvas');
  assert.deepEqual([canvas.x, canvas.y, canvas.w, canvas.h], [0, 0, width, height]);
  for (const sel of ['#tools label', '#link']) {
    const b = await rect(sel);
    assert.ok(b.w > 0 && b.h > 0 && b.y >= canvas.y + canvas.h && b.y + b.h <= height + h.TOOLS_PX,
              `${sel} at ${JSON.stringify(b)}: under the canvas (${height} px) and inside the window`);
  }
  for (const w of layout.windows)
    assert.ok(w.x >= 0 && w.y >= 0 && w.x + w.width <= width + 0.5 && w.y + w.height <= height + 0.5,
              `window ${w.name} (${w.tab}) at ${w.x},${w.y} ${w.width}x${w.height} lies on the ${width}x${height} canvas`);
  assert.ok(layout.windows.some((w) => w.tab === 'Source'), `a Source panel: ${layout.windows.map((w) => w.tab)}`);
}

test("at 1280x720 the page's tools lie under the canvas, over no panel (the Source panel's last line shows)", async () => {
  const { layout, page } = await bookPage();
  await checkTools(page, layout, 1280, 720);
});

// app.cpp's shortcuts() and copyLink: the keys the overlay must list (the page adds L).
const KEYS = ['Space', 'Left, Right', 'Up, Down', '+, -', 'Home, End', 'N or PageDown, B or PageUp', 'F5, Esc', 'P', 'F', '? or F1', 'L'];

test('at 1920x1080 F1 opens the key list, which in the page lists L; the tools lie under the canvas, over no panel', async () => {
  const script = 'wait\nlayout /out/keys.json\n';
  const r = await session.open({ script }, { width: 1920, height: 1080, waitFor: 'frames', holdWork: true });
  try {
    await h.settle(r.page);
    await r.page.keyboard.down('F1');
    await h.settle(r.page, 2);
    await r.page.keyboard.up('F1');
    await h.settle(r.page, 2);
    await h.releaseWork(r.page);
    await h.checkDone({ ...r, done: await h.scriptDone(r.page) }, script);
    const layout = await h.readJson(r.page, '/out/keys.json');
    assert.equal(layout.keyHelp, true, 'the key list is open');
    assert.deepEqual(layout.texts.filter((t) => t.panel === 'Keys').map((t) => t.text), KEYS);
    await checkTools(r.page, layout, 1920, 1080);
  } finally {
    await r.close();
  }
});
