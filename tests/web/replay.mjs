// replay_script_test.py's trace, shared by the tests that open it (by script, file picker, drop):
// tiled 8x8x8, T = 4, seed 5, saved by the native CLI. At phase 1 of block (0,0), M's rows 0-3
// at columns 4-7 and N's rows 4-7 at columns 0-3 carry the highlight (the tiles phase 1 loads).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { requireCli } from './harness.mjs';
import { Png, grid, hexRgb, close, ringPoint } from './picture.mjs';

export const REPLAY_CONFIG = 'tiled 8x8x8 T=4';

// The trace's bytes, saved by the native command line.
export function nativeReplayTrace() {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tilescope-web-replay-')), 'x.tstrace');
  execFileSync(requireCli(), ['save', '--kernel', 'tiled', '--size', '8', '--tile', '4', '--seed', '5', '--backend', 'emu', '--file', file]);
  return readFileSync(file);
}

// The page's layout and screenshot at phase 1 of the replayed trace opened from `file`.
export function checkReplayAtPhase1(layout, pngBytes, file) {
  assert.equal(layout.config, REPLAY_CONFIG);
  assert.equal(layout.replay.file, file);
  assert.equal(layout.replay.backend, 'emulator');
  for (const name of ['M', 'N', 'P']) assert.deepEqual([grid(layout, name).rows, grid(layout, name).cols], [8, 8], name);
  assert.deepEqual([grid(layout, 'Mds').rows, grid(layout, 'Mds').cols], [4, 4]);
  const png = new Png(pngBytes);
  const highlight = hexRgb(layout.theme.highlight);
  const [m, n] = [grid(layout, 'M'), grid(layout, 'N')];
  for (let row = 0; row < 8; ++row)
    for (let col = 0; col < 8; ++col) {
      assert.equal(close(png.pixel(...ringPoint(m, row, col)), highlight), row < 4 && col >= 4, `M[${row}][${col}]`);
      assert.equal(close(png.pixel(...ringPoint(n, row, col)), highlight), row >= 4 && col < 4, `N[${row}][${col}]`);
    }
}
