// Where a frame's time goes in the browser itself (bench/README.md, "The web page"): the page's
// frames and every thread of every Chromium process, for the app playing the book's 4x4 (as
// bench.mjs plays it) or for the browser's floor (bench/web/floor/: one WebGL2 quad a frame at
// the same size). Figures, not a test.
//   node bench/web/trace.mjs [--page app|tiled64|floor] [--query 'draw=quad&every=1'] [--frames N]
//                            [--flags '--disable-gpu-vsync ...'] [--no-swiftshader-flags]
//                            [--trace FILE] [--top N] [--json FILE]
// Prints the animation frames' intervals (p50/p95, and of the frames that drew), the CPU time
// per frame of each Chromium process and thread over the same window, read from /proc (this
// counts SwiftShader's own threads, which Chromium's trace does not instrument), the machine's
// other load over that window, and the GPU features Chromium reports (SystemInfo). --trace
// also records Chromium's trace (CDP Tracing: GPU process, viz compositor, renderer) over the
// window into FILE (open it in Perfetto) and prints each busy thread's top-level tasks by time
// per frame, and every slice of the GPU process's main thread by depth per drawing frame; the
// trace costs CPU itself, so its frame times are not the untraced ones.
// --flags adds Chromium switches to the browser tests' own (tests/web/harness.mjs);
// --no-swiftshader-flags drops those (--use-angle=swiftshader ...) first.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import * as h from '../../tests/web/harness.mjs';

// playwright-core lives in tests/web/node_modules (scripts/install-web-test-deps).
const { chromium } = createRequire(path.join(h.REPO, 'tests', 'web', 'package.json'))('playwright-core');

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const PAGE = option('--page', 'app'), FRAMES = Number(option('--frames', 300)), TOP = Number(option('--top', 8));
// --settle N: the app's frames between its lesson's run and the play (bench.mjs: 30); V8
// compiles the .wasm's optimised tier in the background for some seconds after the load.
const SETTLE = Number(option('--settle', 30));
const QUERY = option('--query', ''), TRACE = option('--trace', null), JSON_OUT = option('--json', null);
// --drop drawElements,drawArraysInstanced: those WebGL calls become no-ops in the page (the
// frame still counts as drawn): what the page's own draws cost the browser, by difference.
const DROP = option('--drop', '').split(',').filter(Boolean);
// --init FILE: JavaScript run in the page before its own (an experiment on its WebGL calls).
const INIT = option('--init', null);
const EXTRA = option('--flags', '').split(/\s+/).filter(Boolean);
const FLOOR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor');

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] : NaN;
};
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');

// ---- CPU time per thread of this process's descendants (the browser and its children) ----
const TICK_MS = 10;  // USER_HZ = 100 on Linux
const readText = (p) => { try { return readFileSync(p, 'utf8'); } catch { return null; } };
const statFields = (text) => text.slice(text.lastIndexOf(')') + 2).split(' ');  // from field 3 on

function descendants(root) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readText(`/proc/${name}/stat`);
    if (!s) continue;
    const ppid = Number(statFields(s)[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(name));
  }
  const out = [], todo = [...(children.get(root) || [])];
  while (todo.length) { const p = todo.pop(); out.push(p); todo.push(...(children.get(p) || [])); }
  return out;
}

function processKind(pid) {
  // Chromium's children rewrite their command line into one string (their process title).
  const cmd = (readText(`/proc/${pid}/cmdline`) || '').split(/[\0 ]/);
  const type = cmd.find((a) => a.startsWith('--type='));
  if (!type) return cmd[0].includes('chrom') ? 'browser' : path.basename(cmd[0] || '?');
  const t = type.slice(7);
  const sub = cmd.find((a) => a.startsWith('--utility-sub-type='));
  return t === 'utility' && sub ? `utility(${sub.split('.').pop()})` : t;
}

// {key: ms} for every thread now: key = "process kind / thread name" (digits of pool threads kept).
function cpuSnapshot() {
  const snap = new Map();
  for (const pid of descendants(process.pid)) {
    const kind = processKind(pid);
    let tids = [];
    try { tids = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const tid of tids) {
      const s = readText(`/proc/${pid}/task/${tid}/stat`);
      if (!s) continue;
      const f = statFields(s);
      const comm = (readText(`/proc/${pid}/task/${tid}/comm`) || '?').trim();
      snap.set(`${pid}:${tid}`, { kind, comm, ms: (Number(f[11]) + Number(f[12])) * TICK_MS });
    }
  }
  return snap;
}

// The whole machine's busy time (ms over all cores) from /proc/stat.
function machineBusy() {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = cpu[3] + cpu[4];
  return { busy: (cpu.reduce((a, b) => a + b, 0) - idle) * TICK_MS, all: cpu.reduce((a, b) => a + b, 0) * TICK_MS };
}

// CPU ms per thread group between two snapshots, groups named "kind / thread".
function cpuDelta(a, b) {
  const groups = new Map();
  for (const [key, t] of b) {
    const before = a.get(key)?.ms ?? 0;
    const ms = t.ms - before;
    if (ms <= 0) continue;
    const name = `${t.kind} / ${t.comm}`;
    groups.set(name, (groups.get(name) || 0) + ms);
  }
  return [...groups].sort((x, y) => y[1] - x[1]);
}

// ---- The browser ----
function browserArgs() {
  const base = args.includes('--no-swiftshader-flags') ? [] : h.chromiumArgs();
  const out = [...base, ...EXTRA];
  if (process.getuid && process.getuid() === 0 && !out.includes('--no-sandbox')) out.push('--no-sandbox');
  return out;
}

const CATEGORIES = ['toplevel', 'viz', 'gpu', 'cc', 'benchmark', 'renderer.scheduler', 'blink',
                    'disabled-by-default-devtools.timeline.frame', 'gpu.angle', 'gpu.capture'];

async function startTrace(cdp) {
  await cdp.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordContinuously' } });
}

async function endTrace(cdp) {
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await done;
  let text = '';
  for (;;) {
    const r = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
    text += r.base64Encoded ? Buffer.from(r.data, 'base64').toString('utf8') : r.data;
    if (r.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

// Each thread's top-level slices (complete events not inside another of the same thread), by
// wall time and thread time (tdur), per frame.
function summariseTrace(events, frames) {
  const names = new Map(), procs = new Map();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
    if (e.name === 'process_name') procs.set(e.pid, e.args.name);
  }
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || !(e.dur >= 0)) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(e);
  }
  const threads = [];
  for (const [key, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    let end = -Infinity, wall = 0, cpu = 0;
    const tasks = new Map();
    for (const e of list) {
      if (e.ts < end) continue;  // nested in the slice before
      end = e.ts + e.dur;
      wall += e.dur;
      cpu += e.tdur ?? 0;
      // A task runner's slice names its task in args (src_func / src_file).
      const src = e.args?.src_func || e.args?.src?.function || '';
      const label = src ? `${e.name} <${src}>` : e.name;
      const t = tasks.get(label) || { wall: 0, cpu: 0, n: 0 };
      t.wall += e.dur; t.cpu += e.tdur ?? 0; t.n += 1;
      tasks.set(label, t);
    }
    const pid = Number(key.split(':')[0]);
    threads.push({ thread: `${procs.get(pid) || pid} / ${names.get(key) || key}`, wallMs: wall / 1e3 / frames, cpuMs: cpu / 1e3 / frames,
                   tasks: [...tasks].sort((a, b) => b[1].wall - a[1].wall).slice(0, TOP)
                     .map(([name, t]) => ({ name, wallMs: t.wall / 1e3 / frames, cpuMs: t.cpu / 1e3 / frames, perFrame: t.n / frames })) });
  }
  return threads.sort((a, b) => b.wallMs - a.wallMs);
}

// Every slice of the threads whose "process / thread" name contains `which`, by name and depth:
// wall time, self time (less its children) and thread CPU time per frame; where a thread's
// time goes inside its tasks (the GPU process's CrGpuMain: SwapBuffers, readPixels, finish).
function nestedSlices(events, frames, which) {
  const names = new Map(), procs = new Map(), byThread = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
    if (e.ph === 'M' && e.name === 'process_name') procs.set(e.pid, e.args.name);
  }
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || !(e.dur >= 0) || !`${procs.get(e.pid)} / ${names.get(key)}`.includes(which)) continue;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(e);
  }
  const agg = new Map();
  const row = (depth, name) => {
    const k = `${depth}\t${name}`;
    if (!agg.has(k)) agg.set(k, { depth, name, wall: 0, cpu: 0, n: 0, children: 0 });
    return agg.get(k);
  };
  for (const list of byThread.values()) {
    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const stack = [];
    for (const e of list) {
      while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
      const r = row(stack.length, e.name);
      r.wall += e.dur; r.cpu += e.tdur ?? 0; r.n += 1;
      if (stack.length) row(stack.length - 1, stack[stack.length - 1].name).children += e.dur;
      stack.push(e);
    }
  }
  return [...agg.values()].sort((a, b) => b.wall - a.wall).slice(0, TOP * 3)
    .map((r) => ({ depth: r.depth, name: r.name, wallMs: r.wall / 1e3 / frames, selfMs: (r.wall - r.children) / 1e3 / frames,
                   cpuMs: r.cpu / 1e3 / frames, perFrame: r.n / frames }));
}

// The RAF recorder of bench.mjs, for the app (the floor page records its own).
const APP_RECORDER = `const DROP = ${JSON.stringify(DROP)};
window.__rafTimes = []; (function tick(t) { window.__rafTimes.push(t); requestAnimationFrame(tick); })(0);
window.__drawnAt = new Set();
for (const name of ['clear', 'drawElements', 'drawArrays', 'drawArraysInstanced', 'drawElementsInstanced']) {
  const call = WebGL2RenderingContext.prototype[name];
  const drop = DROP.includes(name);
  WebGL2RenderingContext.prototype[name] = function (...a) { window.__drawnAt.add(document.timeline.currentTime); return drop ? undefined : call.apply(this, a); };
}`;

async function measure() {
  const site = await h.serveSite(PAGE === 'floor' ? FLOOR : h.SITE);
  const browser = await chromium.launch({ executablePath: h.CHROMIUM, headless: true, args: browserArgs() });
  const cdpBrowser = TRACE ? await browser.newBrowserCDPSession() : null;
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 + (PAGE === 'floor' ? 0 : h.TOOLS_PX) }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    // An --init script's findings: its console lines that start with "[init]".
    page.on('console', (m) => { if (m.text().startsWith('[init]')) console.log(m.text()); });
    const cdp = await context.newCDPSession(page);
    const gpu = await (cdpBrowser || await browser.newBrowserCDPSession()).send('SystemInfo.getInfo').catch((e) => ({ error: String(e) }));
    let url;
    if (PAGE === 'floor') {
      url = `${site.url}?frames=${FRAMES}&start=wait${QUERY ? '&' + QUERY : ''}`;
    } else {
      await page.addInitScript(APP_RECORDER);
      if (INIT) await page.addInitScript(readFileSync(INIT, 'utf8'));
      // --page tiled64: tiled 64^3 T=16 in the usual layout (bench.mjs's figure 5).
      const scene = PAGE === 'tiled64' ? 'set kernel tiled\nset size 64\nset tile 16\nwait\nseek start\n'
                                       : 'lesson tiling-and-phases\nset presenter on\nwait\nset granularity k\nseek start\n';
      const script = scene + `frames ${SETTLE}\nplay ${FRAMES}\nreport\n`;
      url = h.pageUrl(site.url, { script }) + (QUERY ? '&' + QUERY : '');
    }
    await page.goto(url);
    // The window: for the floor, the page starts its frames when told; for the app, from
    // SETTLE - 5 frames after its first picture (near the start of the play) to the script's end.
    if (PAGE === 'floor') {
      await page.waitForFunction(() => window.floorReady, null, { timeout: 60000, polling: 50 });
    } else {
      await page.waitForFunction(() => window.tilescopeFirstFrame !== undefined, null, { timeout: 120000, polling: 50 });
      const f0 = await page.evaluate(() => window.tilescopeFrames || 0);
      await page.waitForFunction((k) => (window.tilescopeFrames || 0) >= k, f0 + SETTLE - 5, { timeout: 300000, polling: 'raf' });
    }
    if (cdpBrowser) await startTrace(cdpBrowser);
    const cpu0 = cpuSnapshot(), machine0 = machineBusy(), t0 = performance.now();
    const pageT0 = await page.evaluate(() => { window.floorGo = true; window.__t0 = performance.now(); return window.__t0; });
    let frames;
    if (PAGE === 'floor') {
      await page.waitForFunction(() => window.floorDone, null, { timeout: 300000, polling: 100 });
    } else {
      await page.waitForFunction(() => window.tilescopeScriptDone, null, { timeout: 300000, polling: 100 });
    }
    const cpu1 = cpuSnapshot(), machine1 = machineBusy(), seconds = (performance.now() - t0) / 1000;
    const trace = cdpBrowser ? await endTrace(cdpBrowser) : null;
    if (PAGE === 'floor') {
      frames = await page.evaluate(() => window.floorDone);
    } else {
      frames = await page.evaluate((t0) => {
        const s = window.__rafTimes.filter((t) => t >= t0);
        const drawn = [...window.__drawnAt];
        const intervals = s.slice(1).map((t, i) => t - s[i]);
        return { intervals, drawn: intervals.map((_, i) => drawn.some((d) => Math.abs(d - s[i]) < 1)) };
      }, pageT0);
    }
    await context.close();
    return { gpu, frames, seconds, cpu: cpuDelta(cpu0, cpu1), machine: { busy: machine1.busy - machine0.busy, all: machine1.all - machine0.all }, trace };
  } finally {
    await browser.close();
    await site.close();
  }
}

const r = await measure();

const n = r.frames.intervals.length;
const drawing = r.frames.intervals.filter((_, i) => r.frames.drawn[i]);
const browserMs = r.cpu.reduce((s, [, ms]) => s + ms, 0);
const gpuInfo = r.gpu.gpu ? {
  renderer: r.gpu.gpu.auxAttributes?.glRenderer, angle: r.gpu.gpu.auxAttributes?.displayType,
  features: Object.entries(r.gpu.gpu.featureStatus || {}).filter(([k]) => /compositing|webgl2|rasterization|video_decode|skia|vulkan|webgpu/.test(k)).map(([k, v]) => `${k}=${v}`).join(' '),
} : r.gpu;
console.log(`page ${PAGE}${QUERY ? ' ' + QUERY : ''}${DROP.length ? ', dropped ' + DROP.join(' ') : ''}${INIT ? ', with ' + INIT : ''}, Chromium ${browserArgs().join(' ')}`);
console.log(`GPU: ${gpuInfo.renderer || '?'}; ${gpuInfo.features || JSON.stringify(gpuInfo)}`);
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}; window ${fmt(r.seconds, 2)} s, ${n} frames ` +
            `(${fmt(n / r.seconds)} fps); the machine busy ${fmt(r.machine.busy / r.seconds / 10)}% of its 2 cores... ` +
            `Chromium ${fmt(browserMs / r.seconds / 10)}%, everything else ${fmt((r.machine.busy - browserMs) / r.seconds / 10)}% (100% = one core)`);
console.log(`rAF interval p50 ${fmt(percentile(r.frames.intervals, 0.5), 2)} ms, p95 ${fmt(percentile(r.frames.intervals, 0.95), 2)} ms; ` +
            `the ${drawing.length} frames that drew p50 ${fmt(percentile(drawing, 0.5), 2)}, p95 ${fmt(percentile(drawing, 0.95), 2)} ms`);
const swiftshader = r.cpu.filter(([k]) => /gpu-process \/ (Thread<|llvmpipe)/.test(k)).reduce((s, [, ms]) => s + ms, 0);
console.log(`Chromium's CPU per frame (from /proc, ${n} frames): ${fmt(browserMs / n, 2)} ms in all; ` +
            `per drawing frame (${drawing.length}): ${fmt(browserMs / Math.max(1, drawing.length), 2)} ms, of which the GPU process's rasteriser threads ${fmt(swiftshader / Math.max(1, drawing.length), 2)} ms`);
for (const [name, ms] of r.cpu.slice(0, 16)) console.log(`  ${fmt(ms / n, 2).padStart(7)} ms  ${name}`);
let traced = null, gpuMainSlices = null;
if (r.trace) {
  writeFileSync(TRACE, JSON.stringify({ traceEvents: r.trace }));
  traced = summariseTrace(r.trace, n);
  console.log(`trace (${r.trace.length} events, ${TRACE}): top-level slices per frame, wall (thread CPU)`);
  const gpuMain = nestedSlices(r.trace, Math.max(1, drawing.length), 'CrGpuMain');
  console.log(`the GPU process's main thread, every slice by depth, per drawing frame (${drawing.length}): wall, self, thread CPU`);
  for (const k of gpuMain)
    console.log(`  ${fmt(k.wallMs, 2).padStart(8)} self ${fmt(k.selfMs, 2).padStart(7)} cpu ${fmt(k.cpuMs, 2).padStart(6)} x${fmt(k.perFrame, 2)} ${'  '.repeat(k.depth)}${k.name}`);
  gpuMainSlices = gpuMain;
  for (const t of traced.slice(0, 8)) {
    console.log(`  ${fmt(t.wallMs, 2).padStart(7)} ms (${fmt(t.cpuMs, 2)})  ${t.thread}`);
    for (const k of t.tasks) console.log(`      ${fmt(k.wallMs, 2).padStart(7)} ms (${fmt(k.cpuMs, 2)}) x${fmt(k.perFrame, 2)}  ${k.name.slice(0, 110)}`);
  }
}
if (JSON_OUT) {
  writeFileSync(JSON_OUT, JSON.stringify({ page: PAGE, query: QUERY, flags: browserArgs(), load: loadavg(), date: new Date().toISOString(), gpu: gpuInfo,
    drop: DROP, seconds: r.seconds, intervals: r.frames.intervals, drawn: r.frames.drawn, cpuMs: r.cpu, machine: r.machine, trace: traced, gpuMain: gpuMainSlices }, null, 1));
}
