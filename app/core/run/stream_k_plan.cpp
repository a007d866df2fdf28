#include "stream_k_plan.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "core/run/occupancy.h"
#include "core/run/kernel_resources.h"
#include "kernels/ceil_div.h"

namespace tilescope {

// The rule and the measurements behind it: one run of `bench --preset sizes` on an H200 (132
// SMs, 1 block per SM at both tilings), 2026-11-25 (bench/results/2026-11-25-h200-rung9), % of
// cuBLAS SGEMM at the same shape. Rung 8 is the large tiling, one block per tile.
//
//   shape   tiles (128x256)   waves busy   rung 8   rung 9 as then chosen
//   1024       32              24 %       37.5     54.0  128x128, stream-K over 132
//   1536       72              55 %       71.0     51.5  128x128, stream-K over 132
//   2048      128              97 %       95.0     89.3  one block per tile
//   3000      288 (2.18 w.)    73 %       80.6     85.1  128x256, stream-K over 132
//   4096      512 (3.88 w.)    97 %       95.9     89.6  one block per tile
//   5000      800 (6.06 w.)    87 %       90.3     91.9  128x256, stream-K over 132
//   6144     1152 (8.73 w.)    97 %       96.8     91.3  one block per tile
//   8192     2048 (15.5 w.)    97 %       96.7     91.9  one block per tile
//
// * The large tiling always. The half tiling's two runs, stream-K on all 132 SMs, reached
//   16.6 and 18.7 TFLOP/s at 1024 and 1536: 126 and 142 GFLOP/s per SM. Rung 8's large tiles
//   on the SMs they fill reached 11.5 TFLOP/s on 32 SMs and 25.8 on 72: 360 and 358 GFLOP/s
//   per busy SM. A 128 x 128 block (4 consumer warps) computes at 0.35 to 0.40 of a
//   128 x 256 block's rate, slower per tile though its tile is half: so 1536's 72 large tiles
//   on 72 SMs beat the half tiles on 132 (71.0 against 51.5). The half tiling stays for
//   devices whose SMs cannot hold the large one's ring (192 KiB: the A100's 164 KiB).
// * kBusyEnough = 0.9, between the measured sides: at 73 % and 87 % busy stream-K beat one
//   block per tile (+4.5 and +1.6 points, its own fix-up and persistent loop included); at
//   97 % one block per tile is rung 8's grid at 95 to 97 %. The gain fell 0.21 points per
//   point of busy from 73 % to 87 %, which puts the break-even near 94 %; from 90 % to 94 % the
//   two lie within a point (one run's noise), and there the grid with no workspace and no
//   fix-up is kept. Rechecked 2026-11-26 (bench/results/2026-11-26-h200-rung9b), one block per
//   tile now rung 8's own loop (stream_k.cuh's data-parallel build, 94 to 96.5 % of cuBLAS):
//   stream-K still wins at 73 % busy (3000: 84.6 against 80.5) and at 87 % (5000: 91.5 against
//   90.9, +0.6 in both runs), so the threshold stands.
// * Stream-K at the large tiling where the tiles leave the waves less busy: at 3000 and 5000
//   measured (above); at 1024 and 1536 not yet timed (7.8 and 26.2 k-iterations per block).
//   At rung 8's per-SM rate a block there runs 7.8 and 26.2 k-steps where rung 8's longest
//   runs 32 and 48, plus one partial written and at most a few read: the fix-up would have to
//   cost more than the k-steps saved to lose to rung 8, as it did not at 3000 and 5000.
// * Rechecked 2026-11-26 (bench/results/2026-11-26-h100-rung9c and -h200-rung9c), with the
//   split build's inner k loop unrolled by 2 where a block's share is 16 k-steps or more
//   (stream_k.cuh: unrolled whole, its warps waited on instruction fetch), % of cuBLAS on an
//   H100, two runs: 1536 106.5 / 108.1 (stream-K) against rung 8's 70.0 / 71.4; 3000 99.6 /
//   99.4 against 80.7 / 80.6; 5000 94.0 / 94.0 against 90.2 / 90.2. The threshold stands.
//   Tried and not kept: CUTLASS's data-parallel waves before the shared tiles (3000: one
//   round of 132 whole tiles, then 156 shared; 5000: five, then 140): with the loop by 2, 98.3
//   and 92.0 to 93.1 % against 98.4 to 98.7 and 93.3 to 93.6 without (H100); whole, 84.4 to
//   85.1 and 89.9 to 90.7 % against 85.1 to 86.6 and 94.2 to 94.3 (H200): no shape gained.
// * Under one wave, s blocks to every tile where that fills the wave as well as kBusyEnough
//   asks (stream_k_plan.h, rule 3). Measured 2026-11-26 on an H100 (bench/results/
//   2026-11-26-h100-rung9d, one machine, three rounds each, every case verified first): at
//   N = 1024, 128 blocks (4 to each of the 32 tiles, 8 k-steps each, no block spanning two
//   tiles) ran 0.065 ms, 105.9 to 106.9 % of cuBLAS SGEMM, against 0.076 to 0.077 ms, 89.8 to
//   91.1 %, on 132 blocks (7.8 k-steps each: blocks spanning two tiles, tiles shared by 4 or 5,
//   each block that spans two both leaving a partial and finishing a tile). No other shape of
//   the sweep has s >= 2 at 90 % (1536: 72 tiles, s = 1).
//   At 4096, 6144 and 8192 (97 % busy, one block per tile) stream-K over 132 blocks ran 2.810
//   against 3.075 ms, 9.416 against 10.305 and 22.274 against 24.380 ms (264 blocks, two rounds of
//   132: 3.087, 10.322, 24.412): one block per tile stays there. Nor did CUTLASS's data-parallel
//   rounds then stream-K on the flags (bench/results/2026-11-26-h100-rung9e, three rounds):
//   2.83 against 3.11 to 3.23 ms, 9.42 against 10.40 to 10.46, 22.29 to 22.32 against 24.22
//   to 24.76.
// * kMinShare = 4, the ring's depth: a block with fewer k-iterations than stages never fills
//   the pipeline before its fix-up. Not measured: the shortest shares timed are 7.8 and 8
//   (1024 at 128 x 256, 132 and 128 blocks), and no shape of the sweep comes near 4.

namespace {

// Waves busy on average: the blocks over the slots of every wave started.
double busy(const Waves& w) {
  const int64_t n = w.waveCount();
  return n == 0 ? 0.0 : double(w.blocks) / double(n * w.slotsPerWave);
}

struct Candidate {
  Tiling tiling;
  Waves waves;
  int64_t iterations = 0;
};

// One block per tile at `t`, dealt onto the device at the occupancy its resources allow.
Candidate dataParallel(const Dims& d, const Tiling& t, const DeviceProfile& device) {
  LaunchConfig c;
  c.kernel = KernelId::StreamK;
  c.dims = d;
  c.tiling = t;
  Candidate out{t, {}, 0};
  const int64_t tiles = int64_t(ceilDiv(d.j, t.bm)) * ceilDiv(d.l, t.bn);
  out.iterations = tiles * ceilDiv(d.k, t.bk);
  int blocksPerSm = 0;
  if (Result<LaunchPlan> plan = planLaunch(c, false); plan)
    blocksPerSm = computeOccupancy(device, kernelResources(plan->launch)).blocksPerSm;
  out.waves = dealBlocks(tiles, device.smCount, blocksPerSm);
  return out;
}

std::string percent(double f) { return std::to_string(int(100.0 * f + 0.5)) + " %"; }

StreamKChoice dataParallelChoice(const Candidate& c, const std::string& why) {
  StreamKChoice out{c.tiling, 0, c.waves.blocks, c.iterations, c.waves, {}};
  out.reason = tilingText(c.tiling) + ", data-parallel (one block per tile): " + why;
  return out;
}

// Under one wave, each tile split the same number of ways: s = the slots / the tiles blocks to
// a tile (at most its k-steps / kMinShare), when those s x tiles blocks keep at least
// kBusyEnough of the wave busy (one block per tile is s = 1, taken above). None when s < 2.
std::optional<StreamKChoice> evenSplitChoice(const Candidate& c, const std::string& why) {
  const Waves& w = c.waves;
  if (w.blocks == 0 || w.blocks >= w.slotsPerWave) return std::nullopt;
  const int64_t kSteps = c.iterations / w.blocks;
  const int64_t s = std::min<int64_t>(w.slotsPerWave / w.blocks, kSteps / kMinShare);
  if (s < 2 || double(s * w.blocks) < kBusyEnough * double(w.slotsPerWave)) return std::nullopt;
  const int64_t blocks = s * w.blocks;
  StreamKChoice out{c.tiling, int(blocks), w.blocks, c.iterations, w, {}};
  char share[64];
  std::snprintf(share, sizeof share, "%.1f", double(c.iterations) / double(blocks));
  out.reason = tilingText(c.tiling) + ", stream-K over " + std::to_string(blocks) + " blocks (" + share +
               " k-iterations each of " + std::to_string(c.iterations) + "), " + std::to_string(s) +
               " to a tile: " + why + "; " + std::to_string(s) + " blocks to a tile fill " +
               percent(double(blocks) / double(w.slotsPerWave)) + " of it";
  return out;
}

StreamKChoice streamKChoice(const Candidate& c, const std::string& why) {
  const int64_t slots = c.waves.slotsPerWave, most = c.iterations / kMinShare;
  const int64_t blocks = slots < most ? slots : most;
  if (blocks < slots && blocks <= c.waves.blocks)  // too few iterations: fewer blocks than tiles
    return dataParallelChoice(c, why.substr(0, why.find(':')) + ", but " + std::to_string(c.iterations) +
                                     " k-iterations are too few to share in runs of " + std::to_string(kMinShare));
  StreamKChoice out{c.tiling, int(blocks), c.waves.blocks, c.iterations, c.waves, {}};
  char share[64];
  std::snprintf(share, sizeof share, "%.1f", double(c.iterations) / double(blocks));
  out.reason = tilingText(c.tiling) + ", stream-K over " + std::to_string(blocks) + " blocks (" + share +
               " k-iterations each of " + std::to_string(c.iterations) + "): " + why;
  return out;
}

std::string wavesText(const Candidate& c) {
  const Waves& w = c.waves;
  if (w.waveCount() <= 1)
    return std::to_string(w.blocks) + (w.blocks == 1 ? " tile fills " : " tiles fill ") + percent(busy(w)) +
           " of one wave of " +
           std::to_string(w.slotsPerWave);
  char text[96];
  std::snprintf(text, sizeof text, "%lld tiles make %.2f waves of %lld, %s busy", (long long)w.blocks, w.waves,
                (long long)w.slotsPerWave, percent(busy(w)).c_str());
  return text;
}

}  // namespace

StreamKChoice chooseStreamK(const Dims& dims, const DeviceProfile& device) {
  const auto tilings = kernelTilings(KernelId::StreamK);  // the H100's, its half, a teaching size
  Candidate c = dataParallel(dims, tilings[0], device);
  std::string why;
  if (c.waves.blocksPerSm == 0) {  // the large ring does not fit this device's SMs
    const Candidate half = dataParallel(dims, tilings[1], device);
    if (half.waves.blocksPerSm == 0) return dataParallelChoice(c, "no block of either tiling fits an SM of this device");
    why = tilingText(c.tiling) + " does not fit an SM of this device; ";
    c = half;
  }
  why += wavesText(c);
  if (busy(c.waves) >= kBusyEnough) return dataParallelChoice(c, why);
  if (std::optional<StreamKChoice> even = evenSplitChoice(c, why)) return *even;
  return streamKChoice(c, why + ": the blocks share the k-iterations equally instead");
}

LaunchConfig withStreamKChoice(LaunchConfig config, const StreamKChoice& choice) {
  if (config.kernel != KernelId::StreamK || !config.tiling.empty() || config.persistentBlocks != 0) return config;
  config.tiling = choice.tiling;
  config.persistentBlocks = choice.persistentBlocks;
  return config;
}

}  // namespace tilescope
