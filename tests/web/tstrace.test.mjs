// The trace comparison of trace_equality.test.mjs, checked without a browser: on two saves of
// the same launch it finds nothing, and one event changed in one field is found and named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { requireCli } from './harness.mjs';
import { compareTraces, eventCount } from './tstrace.mjs';

function save(folder, name, kernel) {
  const file = path.join(folder, name);
  execFileSync(requireCli(), ['save', '--kernel', kernel, '--size', '4', '--tile', '2', '--seed', '1', '--backend', 'emu', '--file', file]);
  return readFileSync(file);
}

test('the comparison finds nothing between two saves of one launch, and one differing event when there is one', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'tilescope-web-compare-'));
  const a = save(folder, 'a.tstrace', 'tiled'), b = save(folder, 'b.tstrace', 'tiled');
  assert.deepEqual(compareTraces(a, b), []);
  // Fig. 5.9 on 4x4, T = 2: 4 blocks x 4 threads x 2 phases x (2 loads + 2 barriers + 2 x 2 reads) + 16 stores.
  assert.equal(eventCount(a), 4 * 4 * 2 * (2 + 2 + 4) + 16);
  const changed = Buffer.from(a);
  const trce = changed.indexOf('TRCE', 16, 'latin1');
  const event = 100, valueOffset = trce + 12 + 8 + event * 32 + 28;  // section header, count, then event 100's value
  changed.writeFloatLE(changed.readFloatLE(valueOffset) + 1, valueOffset);
  const problems = compareTraces(a, changed, ['a', 'b']);
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], /^1 of 272 events differ; the first is event 100:/);
  // Another kernel's launch differs in its config and its events.
  const race = save(folder, 'race.tstrace', 'tiled-no-first-sync');
  assert.ok(compareTraces(a, race).some((p) => p.startsWith('section CONF')));
});
