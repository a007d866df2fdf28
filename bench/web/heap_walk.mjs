// Where the wasm heap grows while a page walks every page of every lesson (the heap test's walk,
// tests/web/lessons.mjs): the heap after each page's run, page by page, and the bytes malloc
// holds then (what stays). A heap never shrinks, so the walk's figure is its peak: this says
// which page made it.
//   node bench/web/heap_walk.mjs
import { readdirSync } from 'node:fs';
import path from 'node:path';
import * as h from '../../tests/web/harness.mjs';
import { lessonPages } from '../../tests/web/lessons.mjs';

// The walk with a `report` (a console line) after each page's run, and the pages' names.
const names = [];
let script = '';
for (const file of readdirSync(path.join(h.REPO, 'assets', 'lessons')).filter((f) => f.endsWith('.lesson')).sort()) {
  const lesson = file.replace(/^\d+-/, '').replace(/\.lesson$/, '');
  lessonPages(lesson).forEach((page, i) => {
    script += (i ? 'lesson next\n' : `lesson ${lesson}\n`) + 'wait\nreport\n';
    names.push(`${lesson} page ${i + 1}: ${page.title}`);
  });
}

const session = await h.startSession();
const page = await session.context.newPage();
// The heap at each report, read in the page as the line is written.
await page.addInitScript(() => {
  window.__heapAtReport = [];
  const log = console.log.bind(console);
  console.log = (...a) => {
    if (/frames \d+: median/.test(String(a[0])))
      window.__heapAtReport.push([window.Module.HEAP8.length, window.Module._tilescopeHeapInUse ? window.Module._tilescopeHeapInUse() : NaN]);
    log(...a);
  };
});
const began = performance.now();
await page.goto(h.pageUrl(session.url, { script }), { waitUntil: 'load' });
await h.scriptDone(page);
const heaps = await page.evaluate(() => window.__heapAtReport);
let last = 0;
console.log('heap MiB (growth)  in use MiB  page');
heaps.forEach(([bytes, inUse], i) => {
  const mark = bytes > last ? `(+${((bytes - last) / 2 ** 20).toFixed(0)})` : '';
  console.log(`${(bytes / 2 ** 20).toFixed(0).padStart(4)} ${mark.padEnd(8)} ${(inUse / 2 ** 20).toFixed(1).padStart(8)}     ${names[i]}`);
  last = bytes;
});
console.log(`${heaps.length} pages of ${names.length} in ${((performance.now() - began) / 1000).toFixed(1)} s`);
await session.close();
