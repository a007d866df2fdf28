// The table of bench/web/floor_flags.sh: one row per trace.mjs --json file given.
//   node bench/web/floor_table.mjs FILE.json ...
import { readFileSync } from 'node:fs';
import path from 'node:path';

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] : NaN;
};
const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
console.log('| configuration | page query | extra flags | WebGL on, compositing | frames | fps | rAF p50 / p95 ms | drawing p50 / p95 ms | Chromium CPU ms/frame | rasteriser threads ms/drawn frame | others\' load (cores) | load avg |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const file of process.argv.slice(2)) {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const n = r.intervals.length, drawn = r.intervals.filter((_, i) => r.drawn[i]);
  const all = r.cpuMs.reduce((s, [, ms]) => s + ms, 0);
  const raster = r.cpuMs.filter(([k]) => /gpu-process \/ (Thread<|llvmpipe)/.test(k)).reduce((s, [, ms]) => s + ms, 0);
  const others = (r.machine.busy - all) / (r.seconds * 1000);
  const extra = r.flags.filter((x) => !['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-sandbox'].includes(x));
  const dropped = ['--use-angle=swiftshader'].filter((x) => !r.flags.includes(x)).map((x) => 'without ' + x);
  const gl = /llvmpipe/.test(r.gpu?.renderer || '') ? 'Mesa llvmpipe' : /SwiftShader/.test(r.gpu?.renderer || '') ? 'SwiftShader' : (r.gpu?.renderer || '?');
  const compositing = (/gpu_compositing=(\S+)/.exec(r.gpu?.features || '') || [])[1] || '?';
  console.log(`| ${path.basename(file, '.json')} | ${r.query || ''} | ${[...dropped, ...extra].join(' ')} | ${gl}, ${compositing === 'enabled' ? 'GPU' : 'software'} | ${n} | ${f(n / r.seconds)} | ` +
              `${f(percentile(r.intervals, 0.5))} / ${f(percentile(r.intervals, 0.95))} | ${f(percentile(drawn, 0.5))} / ${f(percentile(drawn, 0.95))} | ` +
              `${f(all / n, 2)} | ${f(raster / Math.max(1, drawn.length), 2)} | ${f(others, 2)} | ${f(r.load[0])} |`);
}
