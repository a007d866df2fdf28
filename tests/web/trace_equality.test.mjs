// Issue 27, item 5: the emulator in the page records the same events as the native build. For
// each launch below the page exports its trace (`export trace`, the Export button's command) and
// the native CLI saves the same launch (`tilescope-cli save`); the two files must hold the same
// config, inputs, result, outcome and every 32-byte event, in order (tstrace.mjs), and the native
// reader must read the page's file (its checksum, shapes and counts) to the same summary.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as h from './harness.mjs';
import { compareTraces, eventCount } from './tstrace.mjs';

// name: [kernel, script lines after `set kernel`, the native CLI's flags for the same launch]. Seed 1 in
// both. The page's settings carry over from launch to launch, so the one with a pad comes last.
const LAUNCHES = {
  // Figs. 5.7-5.9: the book's 4x4 example, T = 2.
  book: ['tiled', ['set size 4', 'set tile 2'], ['--size', '4', '--tile', '2']],
  // The race of lesson 4: fig. 5.9 without its first barrier (the emulator's order decides what is stale).
  race: ['tiled-no-first-sync', ['set size 4', 'set tile 2'], ['--size', '4', '--tile', '2']],
  // A ladder rung: the 1D register tile at 16^3 with the kernel's default tiling (8x8x4/4x1).
  rung: ['regtile-1d', ['set size 16'], ['--size', '16']],
  // The transposed N tile with its row padded (the bank-conflict lesson), 16^3, T = 8, pad 1.
  transposed: ['tiled-transposed', ['set size 16', 'set tile 8', 'set pad 1'], ['--size', '16', '--tile', '8', '--pad', '1']],
};

function pageScript() {
  let s = 'set seed 1\n';
  for (const [name, [kernel, lines]] of Object.entries(LAUNCHES))
    s += `set kernel ${kernel}\n${lines.join('\n')}\nwait\nexport trace /out/${name}.tstrace\n`;
  return s;
}

// The native CLI's summary of a trace file (it decodes and checks the whole file), less what
// differs by where and when it was written.
function nativeSummary(file) {
  const s = JSON.parse(execFileSync(h.requireCli(), ['open', '--file', file, '--json'], { encoding: 'utf8' }));
  delete s.seconds;
  delete s.tool_version;
  return s;
}

let folder, pageTraces;
before(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'tilescope-web-traces-'));
  for (const [name, [kernel, , flags]] of Object.entries(LAUNCHES))
    execFileSync(h.requireCli(), ['save', '--kernel', kernel, ...flags, '--seed', '1', '--backend', 'emu',
                                  '--file', path.join(folder, `${name}-native.tstrace`)]);
  const session = await h.startSession('trace_equality.test.mjs');
  try {
    const r = await session.run(pageScript());
    pageTraces = {};
    for (const name of Object.keys(LAUNCHES)) {
      pageTraces[name] = await h.readBytes(r.page, `/out/${name}.tstrace`);
      writeFileSync(path.join(folder, `${name}-page.tstrace`), pageTraces[name]);
    }
  } finally {
    await session.close();
  }
});

for (const name of Object.keys(LAUNCHES)) {
  test(`${name} (${LAUNCHES[name][0]}): the page's trace equals the native one, event for event`, () => {
    const native = readFileSync(path.join(folder, `${name}-native.tstrace`));
    assert.ok(eventCount(native) > 0, 'the native trace has events');
    assert.deepEqual(compareTraces(pageTraces[name], native, ['page', 'native']), []);
    const pageFile = path.join(folder, `${name}-page.tstrace`);
    assert.deepEqual(nativeSummary(pageFile), nativeSummary(path.join(folder, `${name}-native.tstrace`)));
  });
}
