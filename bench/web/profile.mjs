// Where a playing frame's time goes in the page (bench/README.md, "The web page"): Chromium's
// own sampling profiler (CDP Profiler) over the page's main thread while the book's 4x4 plays in
// the presenter at 1280x720, as bench.mjs measures it; prints the functions by self time (the
// .wasm's function names: a site linked with --profiling-funcs, TILESCOPE_WEB_PROFILING=ON) and
// the share of the main thread the page's work took. Figures, not a test.
// --startup profiles the load instead: from navigation to the first picture (?preset=book-4x4).
//   node bench/web/profile.mjs [--frames N] [--top N] [--scene book|tiled64] [--startup]
import * as h from '../../tests/web/harness.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const FRAMES = option('--frames', 300), TOP = option('--top', 30);
// --scene tiled64: tiled 64^3 T=16 in the usual layout (bench.mjs's figure 5) instead of the book's 4x4.
const SCENES = {
  book: 'lesson tiling-and-phases\nset presenter on\nwait\nset granularity k\nseek start\nframes 30\n',
  tiled64: 'set kernel tiled\nset size 64\nset tile 16\nwait\nseek start\nframes 30\n',
};
const SCENE = SCENES[args.includes('--scene') ? args[args.indexOf('--scene') + 1] : 'book'];
const STARTUP = args.includes('--startup');

const site = await h.serveSite();
const browser = await h.launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 + h.TOOLS_PX }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  let frames = 0, seconds = 0, profile;
  if (STARTUP) {
    await cdp.send('Profiler.start');
    await page.goto(h.pageUrl(site.url, { preset: 'book-4x4' }));
    await page.waitForFunction(() => window.tilescopeFirstFrame !== undefined, null, { timeout: 120000, polling: 50 });
    ({ profile } = await cdp.send('Profiler.stop'));
    frames = 1;
    seconds = (await page.evaluate(() => window.tilescopeFirstFrame)) / 1000;
  } else {
    // Start-up and the lesson's run first, then the profile over the play only.
    const script = SCENE + `play ${FRAMES}\nreport\n`;
    await page.goto(h.pageUrl(site.url, { script }));
    await page.waitForFunction(() => window.tilescopeFirstFrame !== undefined, null, { timeout: 120000, polling: 50 });
    const frames0 = await page.evaluate(() => window.tilescopeFrames);
    await cdp.send('Profiler.start');
    const t0 = Date.now();
    await h.scriptDone(page);
    ({ profile } = await cdp.send('Profiler.stop'));
    seconds = (Date.now() - t0) / 1000;
    frames = (await page.evaluate(() => window.tilescopeFrames)) - frames0;
  }
  // Self time per function: samples x their time deltas.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] || 0) / 1000;
    const f = byId.get(id).callFrame;
    const name = f.functionName || `(anonymous ${f.url.split('/').pop()})`;
    self.set(name, (self.get(name) || 0) + dt);
    total += dt;
  });
  const idle = (self.get('(idle)') || 0) + (self.get('(program)') || 0);
  console.log(`profile of ${frames} frames in ${seconds.toFixed(1)} s (${(seconds * 1000 / frames).toFixed(1)} ms a frame): ` +
              `${total.toFixed(0)} ms sampled, idle/program ${idle.toFixed(0)} ms, (garbage collector) ${(self.get('(garbage collector)') || 0).toFixed(0)} ms`);
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`${(ms / frames).toFixed(2).padStart(7)} ms/frame ${(100 * ms / total).toFixed(1).padStart(5)}%  ${name.slice(0, 140)}`);
  await context.close();
} finally {
  await browser.close();
  await site.close();
}
