#include "stream_k_plan.h"

#include <cstdio>

#include "core/analysis/occupancy.h"
#include "core/run/kernel_resources.h"
#include "kernels/ceil_div.h"

namespace tilescope {

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
  const Candidate large = dataParallel(dims, tilings[0], device);
  if (large.waves.blocksPerSm == 0) return streamKChoice(large, "no block fits an SM at this tiling");
  if (busy(large.waves) >= kBusyEnough) return dataParallelChoice(large, wavesText(large));
  if (large.waves.blocks >= large.waves.slotsPerWave)
    return streamKChoice(large, wavesText(large) + ": the blocks share the k-iterations equally instead");
  const Candidate half = dataParallel(dims, tilings[1], device);
  const std::string fewer = wavesText(large) + " at " + tilingText(large.tiling) + "; ";
  if (half.waves.blocksPerSm > 0 && busy(half.waves) >= kBusyEnough)
    return dataParallelChoice(half, fewer + wavesText(half));
  return streamKChoice(half, fewer + wavesText(half) + ": the blocks share the k-iterations equally instead");
}

LaunchConfig withStreamKChoice(LaunchConfig config, const StreamKChoice& choice) {
  if (config.kernel != KernelId::StreamK || !config.tiling.empty() || config.persistentBlocks != 0) return config;
  config.tiling = choice.tiling;
  config.persistentBlocks = choice.persistentBlocks;
  return config;
}

}  // namespace tilescope
