// Every address answered (a stale or mistyped link on a course page): each bad key opens the
// nearest scene it can, never a blank canvas, with the app's own notice in the centre naming the
// key and what it accepts (the lessons' list for a lesson, the page range for a page, the keys for
// a misspelt key, the kernels for a kernel, the exercises for an exercise), checked against the
// lesson and exercise files and the kernel list themselves. One page per bad key, the same
// script writing its layout (harness.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';
import { grid } from './picture.mjs';
import { lessonPages } from './lessons.mjs';

const EXERCISES = readdirSync(path.join(h.REPO, 'assets', 'exercises'))
  .filter((f) => f.endsWith('.exercise'))
  .map((f) => f.replace(/\.exercise$/, ''));
const LESSONS = readdirSync(path.join(h.REPO, 'assets', 'lessons'))
  .filter((f) => f.endsWith('.lesson'))
  .map((f) => f.replace(/^\d+-/, '').replace(/\.lesson$/, ''));

let session;
before(async () => {
  session = await h.startSession('bad_links.test.mjs');
});
after(async () => {
  await session?.close();
});

// The layout of the page at `params` once its picture is in: a scene drawn (M's grid), and the notice.
async function landing(params) {
  const r = await session.run('wait\nlayout /out/bad.json\n', { params });
  try {
    const layout = await h.readJson(r.page, '/out/bad.json');
    const m = grid(layout, 'M');
    assert.ok(m.rows > 0 && m.cols > 0, `${JSON.stringify(params)}: a scene is drawn, not a blank canvas`);
    return layout;
  } finally {
    await r.close();
  }
}

test('an unknown lesson names the key and lists every lesson, over the start', async () => {
  const layout = await landing({ lesson: 'two-barirers', page: 2 });
  assert.match(layout.notice, /lesson=two-barirers/);
  for (const name of LESSONS) assert.ok(layout.notice.includes(name), `the notice lists lesson ${name}: ${layout.notice}`);
  assert.equal(layout.lesson, undefined, 'no lesson is opened in its place');
});

test('page=99 names the lesson\'s page range and opens its last page', async () => {
  const pages = lessonPages('two-barriers');
  const layout = await landing({ lesson: 'two-barriers', page: 99 });
  assert.ok(layout.notice.includes(`page=99 is not a page: lesson two-barriers has pages 1 to ${pages.length}`), layout.notice);
  assert.equal(layout.lesson.name, 'two-barriers');
  assert.equal(layout.lesson.page, pages.length - 1);
  assert.equal(layout.lesson.pageTitle, pages[pages.length - 1].title);
});

test('page=-1 names the range and opens the first page', async () => {
  const pages = lessonPages('two-barriers');
  const layout = await landing({ lesson: 'two-barriers', page: -1 });
  assert.ok(layout.notice.includes(`lesson two-barriers has pages 1 to ${pages.length}`), layout.notice);
  assert.equal(layout.lesson.page, 0);
  assert.equal(layout.lesson.pageTitle, pages[0].title);
});

test('a misspelt key is named with the nearest key and the keys there are', async () => {
  const layout = await landing({ lesosn: 'two-barriers' });
  assert.match(layout.notice, /'lesosn' is not a key of the page's address \(did you mean lesson\?\)/);
  for (const key of ['lesson', 'page', 'presenter', 'kernel', 'size', 'tile']) assert.ok(layout.notice.includes(key), key);
});

test('kernel=<script> is named as no kernel, with the kernels there are, and the start scene stays', async () => {
  const layout = await landing({ kernel: '<script>alert(1)</script>', size: 4 });
  assert.ok(layout.notice.includes("kernel= takes a kernel's name, got '<script>alert(1)</script>' (unknown kernel)"), layout.notice);
  for (const name of ['naive', 'tiled', 'tiled-no-first-sync']) assert.ok(layout.notice.includes(name), name);
  assert.equal(layout.config, 'tiled 4x4x4 T=2', "the book's 4x4, the start");
});

test('tile=0 and presenter=maybe are named with what they take, the rest of the address kept', async () => {
  const layout = await landing({ kernel: 'tiled-no-first-sync', size: 8, tile: 0, presenter: 'maybe' });
  assert.ok(layout.notice.includes('tile= takes a whole number from 1 to 32'), layout.notice);
  assert.ok(layout.notice.includes("presenter= takes 1 or 0, not 'maybe'"), layout.notice);
  assert.equal(layout.config, 'tiled-no-first-sync 8x8x8 T=2');
});

test('a stale lab= link names the nearest exercise and every exercise, over the start', async () => {
  const layout = await landing({ lab: 'bounds_jk' });
  assert.ok(layout.notice.includes("lab= takes an exercise's name, got 'bounds_jk'"), layout.notice);
  assert.match(layout.notice, /did you mean bounds_jkl\?/);
  for (const id of EXERCISES) assert.ok(layout.notice.includes(id), `the notice lists exercise ${id}: ${layout.notice}`);
  assert.equal(layout.lab.exercise, '', 'no exercise is opened in its place');
});
