#include "waves.h"

#include <algorithm>
#include <cstdio>

namespace tilescope {

Waves dealBlocks(int64_t blocks, int smCount, int blocksPerSm) {
  Waves w;
  w.blocks = std::max<int64_t>(blocks, 0);
  w.smCount = std::max(smCount, 0);
  w.blocksPerSm = std::max(blocksPerSm, 0);
  w.slotsPerWave = int64_t(w.smCount) * w.blocksPerSm;
  if (w.slotsPerWave == 0 || w.blocks == 0) return w;
  w.waves = double(w.blocks) / double(w.slotsPerWave);
  w.wholeWaves = w.blocks / w.slotsPerWave;
  const int64_t rest = w.blocks % w.slotsPerWave;
  w.lastWaveBlocks = rest == 0 ? w.slotsPerWave : rest;
  w.lastWaveBusy = double(w.lastWaveBlocks) / double(w.slotsPerWave);
  // Dealt in launch order, the last wave's blocks cover its first min(blocks, SMs) SMs.
  w.idleSmsInLastWave = int(std::max<int64_t>(0, w.smCount - w.lastWaveBlocks));
  return w;
}

namespace {
// "24 %", and "0.2 %" under one, where a whole number would read "0 % busy" for two blocks
// of 1056 slots (rung 9's teaching tiling on the h100).
std::string busyPercent(double fraction) {
  char text[16];
  const double p = 100.0 * fraction;
  std::snprintf(text, sizeof text, p > 0.0 && p < 1.0 ? "%.1f %%" : "%.0f %%", p);
  return text;
}
}  // namespace

std::string describeWaves(const Waves& w) {
  char text[320];
  if (w.blocksPerSm == 0) {
    std::snprintf(text, sizeof text, "%lld block%s on %d SM%s: a block does not fit on an SM, so no wave runs",
                  (long long)w.blocks, w.blocks == 1 ? "" : "s", w.smCount, w.smCount == 1 ? "" : "s");
    return text;
  }
  const int64_t n = w.waveCount();
  const int head = std::snprintf(text, sizeof text, "%lld block%s on %d SM%s at %d block%s per SM (%lld per wave): ",
                                 (long long)w.blocks, w.blocks == 1 ? "" : "s", w.smCount, w.smCount == 1 ? "" : "s",
                                 w.blocksPerSm, w.blocksPerSm == 1 ? "" : "s", (long long)w.slotsPerWave);
  // Under one wave the fraction says it all: the idle SMs are idle for the whole run.
  if (n == 1 && w.lastWaveBusy < 1.0)
    std::snprintf(text + head, sizeof text - head, "one partial wave, %s busy, %d SM%s idle for the whole run",
                  busyPercent(w.lastWaveBusy).c_str(), w.idleSmsInLastWave, w.idleSmsInLastWave == 1 ? "" : "s");
  else
    std::snprintf(text + head, sizeof text - head, "%.2f waves, %lld in all; the last %s busy, %d SM%s idle in it",
                  w.waves, (long long)n, busyPercent(w.lastWaveBusy).c_str(), w.idleSmsInLastWave,
                  w.idleSmsInLastWave == 1 ? "" : "s");
  return text;
}

}  // namespace tilescope
