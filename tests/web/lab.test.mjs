// The Lab tab in the page: the student's kernel runs in the lab's own interpreter, compiled into
// the page (nothing installed). Each test opens the page with a script in its address (harness.mjs)
// and reads the layout JSON it wrote; the facts come from the exercise and solution files
// themselves and from lines counted in the text the test wrote, never from the page's output.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';
import { grid } from './picture.mjs';

const EXERCISES = path.join(h.REPO, 'assets', 'exercises');
const SOLUTIONS = path.join(h.REPO, 'tests', 'fixtures', 'lab', 'solutions');

// An exercise file's starter: every line after `starter:` (the exercise format, README "Lab").
function starterOf(id) {
  const text = readFileSync(path.join(EXERCISES, `${id}.exercise`), 'utf8');
  return text.slice(text.indexOf('\nstarter:\n') + '\nstarter:\n'.length);
}

// The 1-based line of `text` that holds `needle` (the first).
function lineOf(text, needle) {
  const index = text.split('\n').findIndex((l) => l.includes(needle));
  assert.ok(index >= 0, `the text holds '${needle}'`);
  return index + 1;
}

let session;
before(async () => {
  session = await h.startSession('lab.test.mjs');
});
after(async () => {
  await session?.close();
});

// The layout (its `lab` part and the rest) the page at `params` wrote after `script`, with files
// put into its file system first. `heap`: print the wasm heap's size after the script (a figure).
async function labLayout(script, { params = {}, files = [], heap = '' } = {}) {
  const r = await session.run(`${script}\nlayout /out/lab.json\n`, { params, files });
  try {
    if (heap) {
      const bytes = await r.page.evaluate(() => window.Module.HEAP8.length);
      console.log(`# lab: the wasm heap after ${heap}: ${(bytes / 2 ** 20).toFixed(0)} MiB`);
    }
    return await h.readJson(r.page, '/out/lab.json');
  } finally {
    await r.close();
  }
}

test('?lab=bounds_jkl opens the exercise\'s starter in the Lab tab', async () => {
  const layout = await labLayout('wait', { params: { lab: 'bounds_jkl' } });
  assert.ok(layout.windows.some((w) => w.tab === 'Lab'), 'the Lab tab is in front');
  assert.equal(layout.lab.exercise, 'bounds_jkl');
  assert.equal(layout.lab.text.trim(), starterOf('bounds_jkl').trim(), 'the editor holds the starter of the file');
  assert.equal(layout.notice, '', 'a good address has no notice');
  // Why there is no GPU, in the page's words: not the build's ("nvcc was not found when it
  // was configured" had a student in a browser looking for a compiler).
  assert.ok(layout.gpuNotes.length > 0, 'the panels say why there is no GPU');
  for (const note of layout.gpuNotes) {
    assert.doesNotMatch(note, /nvcc|configured/, note);
    assert.match(note, /web page/, note);
  }
});

test('the solution of bounds_jkl passes its check in the page, and its run is in the views', async () => {
  const solution = readFileSync(path.join(SOLUTIONS, 'bounds_jkl.cu'));
  const layout = await labLayout('lab exercise bounds_jkl\nlab text /in/solution.cu\nlab check\nlab expect grade passed',
                                 { files: [{ path: '/in/solution.cu', bytes: solution }], heap: 'the check of bounds_jkl' });
  const grade = layout.lab.grade;
  assert.equal(grade.exercise, 'bounds_jkl');
  assert.equal(grade.passed, true);
  // Every size the exercise file names was checked for a correct P.
  const sizes = /^sizes: (.*)$/m.exec(readFileSync(path.join(EXERCISES, 'bounds_jkl.exercise'), 'utf8'))[1].split(' ');
  for (const size of sizes) {
    const name = size.replaceAll(',', 'x');
    const item = grade.items.find((i) => i.check === `correct at ${name}`);
    assert.ok(item && item.passed, `correct at ${name}: ${JSON.stringify(grade.items)}`);
  }
  assert.equal(layout.lab.verdict, 'verified');
  // The measured run is the views' run: the grids are drawn, the Source panel shows the lab's text.
  assert.equal(layout.lab.shown, true, `the run went to the views (${layout.lab.error})`);
  assert.equal(layout.backend, 'emulator');
  assert.ok(grid(layout, 'M').rows > 0 && grid(layout, 'P').cols > 0, 'M and P are drawn');
  assert.ok(layout.source.lines >= solution.toString().trim().split('\n').length, 'the Source panel holds the kernel');
});

test('the starter of bounds_jkl fails its check: out of M at the load\'s own line', async () => {
  const starter = starterOf('bounds_jkl');
  const loadM = lineOf(starter, 'Mds[ty][tx] = M[');
  const layout = await labLayout('lab exercise bounds_jkl\nlab check\nlab expect grade failed', { params: { lab: 'bounds_jkl' } });
  assert.equal(layout.lab.grade.passed, false);
  const failed = layout.lab.grade.items.filter((i) => !i.passed);
  assert.ok(failed.length > 0);
  const said = failed.map((i) => i.detail).join('\n') + '\n' + layout.lab.summary;
  assert.match(said, new RegExp(`line ${loadM}\\b`), `the failure names line ${loadM}: ${said}`);
});

// After a mistake the page goes on: the same page then runs the book's fig. 5.9 (a correct
// kernel) to a verified run in the views. Both layouts are read: the mistake's, then the good run's.
const GOOD = path.join(h.REPO, 'assets', 'lab', 'examples', 'pmpp_fig5_9.cu');
async function mistakeThenGoodRun(mistake, files) {
  const script = `${mistake}\nframes 2\nlayout /out/mistake.json\nlab open /in/good.cu\nlab run\nlab expect verified\n` +
                 'frames 2\nlayout /out/good.json\n';
  const r = await session.run(script, { files: [...files, { path: '/in/good.cu', bytes: readFileSync(GOOD) }] });
  try {
    const layouts = { mistake: await h.readJson(r.page, '/out/mistake.json'), good: await h.readJson(r.page, '/out/good.json') };
    assert.equal(layouts.good.lab.verdict, 'verified', `the good run after the mistake: ${layouts.good.lab.summary}`);
    assert.equal(layouts.good.lab.shown, true, 'the good run is in the views');
    assert.ok(!r.console.some((l) => l.startsWith('pageerror')), r.console.join('\n'));
    return layouts.mistake;
  } finally {
    await r.close();
  }
}

test('a misspelt name is a compile error at its line, with the nearest name, marked in the gutter', async () => {
  const solution = readFileSync(path.join(SOLUTIONS, 'bounds_jkl.cu'), 'utf8');
  const broken = solution.replace('Pvalue += Mds', 'Pvalu += Mds');
  const line = lineOf(broken, 'Pvalu += Mds');
  const layout = await mistakeThenGoodRun('show Lab\nlab exercise bounds_jkl\nlab text /in/broken.cu\nlab run\nlab expect compile error',
                                          [{ path: '/in/broken.cu', bytes: Buffer.from(broken) }]);
  const d = layout.lab.diagnostics[0];
  assert.ok(d, `a diagnostic: ${layout.lab.summary}`);
  assert.equal(d.line, line);
  assert.match(d.message, /Pvalu/);
  assert.match(d.message, /Pvalue/, 'the nearest declared name is offered');
  assert.ok(layout.lab.editor.errorLines.includes(line), `line ${line} is marked: ${layout.lab.editor.errorLines}`);
});

// A run the interpreter stops (here in the first row of blocks, while other threads wait at the
// barrier, or in one thread's endless loop): the stop is told at its line (the file marks it),
// and the page goes on. The interpreter runs threads in fibers; a stop returns through them.
for (const [name, words] of [['division_by_zero.cu', /division by zero/], ['endless_loop.cu', /endless loop/]]) {
  test(`${name}: the run stops at the line the file marks, and the page goes on`, async () => {
    const text = readFileSync(path.join(h.REPO, 'tests', 'lab', 'mistakes', name), 'utf8');
    const line = lineOf(text, '// <- the mistake');
    const layout = await mistakeThenGoodRun(`lab open /in/${name}\nlab run`, [{ path: `/in/${name}`, bytes: Buffer.from(text) }]);
    const said = JSON.stringify(layout.lab);
    assert.match(said, words);
    const lines = [layout.lab.whereLine, ...layout.lab.diagnostics.map((d) => d.line)];
    assert.ok(lines.includes(line) || new RegExp(`line ${line}\\b`).test(said), `the stop names line ${line}: ${said.slice(0, 600)}`);
  });
}

test('the student\'s text survives a reload of the page', async () => {
  const note = `// my own note ${Date.now()}`;
  const r = await session.run(`lab append ${note}\nframes 3\n`, { params: { lab: 'bounds_jkl' } });
  try {
    // The autosave is written at the next frame, the browser's storage within a second of it.
    await r.page.waitForFunction(() => {
      try {
        return window.Module.FS.readFile('/state/tilescope/lab-autosave.cu', { encoding: 'utf8' }).includes('my own note');
      } catch { return false; }
    }, null, { timeout: 20000, polling: 100 });
    await r.page.waitForFunction(() => !stateSyncing && stateStamp === stateTime('/state'), null, { timeout: 20000, polling: 100 });
    const reload = h.pageUrl(session.url, { lab: 'bounds_jkl', script: 'wait\nlayout /out/again.json\n' });
    await r.page.goto(reload, { waitUntil: 'load' });
    await h.checkDone({ ...r, done: await h.scriptDone(r.page) }, 'layout after the reload');
    const layout = await h.readJson(r.page, '/out/again.json');
    assert.ok(layout.lab.text.includes(note), 'the text after the reload holds the note');
    assert.equal(layout.lab.restored, true);
    assert.equal(layout.lab.exercise, 'bounds_jkl');
  } finally {
    await r.close();
  }
});

test('Save hands the student\'s file to the browser as a download', async () => {
  const note = '// saved from the page';
  const r = await session.run(`lab exercise bounds_jkl\nlab append ${note}\nlab save /out/mine.cu\n`,
                              { params: {}, downloads: true });
  try {
    const d = await h.nextDownload(r);
    assert.equal(await d.failure(), null, 'the download completed');
    assert.equal(d.suggestedFilename(), 'mine.cu');
    const text = readFileSync(await d.path(), 'utf8');
    assert.equal(text.trim(), `${starterOf('bounds_jkl').trim()}\n${note}`, 'the starter with the line appended');
  } finally {
    await r.close();
  }
});

// Issue 36 asks for an exercise starter's first trace within 2 s of Run on 2 cores under
// SwiftShader: measured here and printed, not asserted (the machine is shared). The page draws
// no frame while the run works (one thread), so the time from Run to the first frame with the
// trace is the longest gap between the browser's animation frames around the `lab run` line.
test('the starter\'s first trace after Run (a figure, printed)', async () => {
  const page = await session.context.newPage();
  await page.setViewportSize({ width: 1280, height: 720 + h.TOOLS_PX });
  await page.addInitScript(() => {
    window.frameTimes = [];
    const tick = () => { window.frameTimes.push(performance.now()); requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  try {
    const script = 'lab exercise bounds_jkl\nframes 10\nlab run\nframes 2\nlayout /out/run.json\n';
    await page.goto(h.pageUrl(session.url, { script }), { waitUntil: 'load' });
    const done = await h.scriptDone(page);
    assert.ok(done.ok, done.message);
    const layout = await h.readJson(page, '/out/run.json');
    assert.equal(layout.lab.shown, true, `the starter's run is in the views (${layout.lab.summary})`);
    const times = await page.evaluate(() => window.frameTimes);
    const firstFrame = await page.evaluate(() => window.tilescopeFirstFrame);
    let longest = 0;
    for (let i = 1; i < times.length; ++i) if (times[i - 1] > firstFrame) longest = Math.max(longest, times[i] - times[i - 1]);
    console.log(`# lab: bounds_jkl's starter, Run to its trace drawn: ${(longest / 1000).toFixed(2)} s ` +
                `(target 2 s; ${layout.lab.summary})`);
  } finally {
    await page.close();
  }
});
