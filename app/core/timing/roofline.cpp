#include "core/timing/roofline.h"

#include <algorithm>
#include <cstdio>

#include "core/analysis/coalescing.h"
#include "core/run/backend.h"
#include "core/run/run.h"

namespace tilescope {

RooflinePlacement placeOnRoofline(const DeviceProfile& device, double intensity, double gflops) {
  const RooflinePoint roof = rooflinePoint(device, "", intensity);  // traffic.h: min(peak, bandwidth x OP/B)
  RooflinePlacement p;
  p.intensity = intensity;
  p.gflops = gflops;
  p.roofGflops = roof.attainableGflops;
  p.ridge = ridgeIntensity(device);
  p.memoryBound = roof.memoryBound;
  p.fractionOfRoof = p.roofGflops > 0.0 ? gflops / p.roofGflops : 0.0;
  return p;
}

std::string explainPlacement(const DeviceProfile& d, const RooflinePlacement& p) {
  char text[720];
  if (p.memoryBound && p.fractionOfRoof > 1.0)
    std::snprintf(text, sizeof text,
                  "Above the memory roof of %s: at %.3g OP/B (left of the ridge at %.3g OP/B) the roof is "
                  "%.0f GB/s x %.3g OP/B = %.0f GFLOP/s, and it reaches %.0f GFLOP/s, %.1fx that. The roof "
                  "counts every byte the kernel loads as DRAM traffic; the caches (L1, L2) serve many of its "
                  "loads, so DRAM moves fewer bytes than the kernel asks for.",
                  d.label.c_str(), p.intensity, p.ridge, d.bandwidthGBs, p.intensity, p.roofGflops, p.gflops,
                  p.fractionOfRoof);
  else if (p.memoryBound)
    std::snprintf(text, sizeof text,
                  "Memory-bound on %s: at %.3g OP/B it is left of the ridge (%.3g OP/B), under the memory roof "
                  "%.0f GB/s x %.3g OP/B = %.0f GFLOP/s. It reaches %.0f GFLOP/s, %.0f %% of that roof: loading "
                  "more useful FLOPs per byte (a higher OP/B) raises the roof above it.",
                  d.label.c_str(), p.intensity, p.ridge, d.bandwidthGBs, p.intensity, p.roofGflops, p.gflops,
                  100.0 * p.fractionOfRoof);
  else
    std::snprintf(text, sizeof text,
                  "Compute-bound on %s: at %.3g OP/B it is right of the ridge (%.3g OP/B), under the compute roof "
                  "of %.0f GFLOP/s (FP32 peak). It reaches %.0f GFLOP/s, %.0f %% of that roof: what is left is "
                  "instruction overhead and latency, not bandwidth.",
                  d.label.c_str(), p.intensity, p.ridge, p.roofGflops, p.gflops, 100.0 * p.fractionOfRoof);
  return text;
}

DeviceProfile profileFromCeilings(const std::string& label, double copyGBps, double fp32PeakGflops,
                                  const std::string& peakDerivation) {
  DeviceProfile d;
  d.name = label;
  d.label = label;
  return withMeasuredCeilings(std::move(d), copyGBps, fp32PeakGflops, peakDerivation);
}

namespace {

// The rows and columns of P one block computes and the k one phase walks, read off the
// untraced launch plan at a size P made of whole blocks: probe / gridY, probe / gridX,
// probe / phases. The probes 256 m for odd m up to 31 are multiples of every block tile up to
// 256 whose odd factor is at most 31 (every tile width 1..32 among them).
struct BlockTile {
  int rows = 0, cols = 0, k = 0;
};
Result<BlockTile> blockTileOf(const LaunchConfig& timed) {
  for (int m = 1; m <= 31; m += 2) {
    const int probe = 256 * m;
    LaunchConfig c = timed;
    c.dims = {probe, probe, probe};
    auto plan = planLaunch(c, false);
    if (!plan) return plan.error();
    const KernelLaunch& L = plan->launch;
    const int phases = std::max(plan->phases, 1);
    if (probe % int(L.gridY) || probe % int(L.gridX) || probe % phases) continue;
    return BlockTile{probe / int(L.gridY), probe / int(L.gridX), plan->phases > 0 ? probe / phases : 1};
  }
  return invalidInput("no size up to 7936 is made of whole block tiles of " + describe(timed));
}

}  // namespace

Result<KernelIntensity> tracedIntensity(const LaunchConfig& timed) {
  auto tile = blockTileOf(timed);
  if (!tile) return tile.error();
  KernelIntensity out;
  out.traced = timed;
  // One block of P, and k for at least four phases (64 at least): enough that the ratio is
  // the steady state's, small enough to trace in milliseconds.
  out.traced.dims = {tile->rows, std::max(64, 4 * tile->k), tile->cols};
  auto backend = makeEmulatorBackend();
  auto run = executeRun(*backend, out.traced, true);
  if (!run) return run.error();
  if (!run->verification.passed)
    return failure(describe(out.traced) + " did not verify: " + run->verification.summary());
  if (!run->trace) return failure(describe(out.traced) + " has no trace");
  out.traffic = measureTraffic(*run->trace, CoalescingReport{});  // the sectors are not needed here
  if (out.traffic.loadBytes == 0) return failure(describe(out.traced) + " loaded nothing from global memory");
  const Dims& d = out.traced.dims;
  out.intensity = 2.0 * d.j * d.k * d.l / double(out.traffic.loadBytes);
  return out;
}

Result<KernelIntensity> IntensityCache::get(const LaunchConfig& timed) {
  const Key key{int(timed.kernel), timed.tile, timed.blockX, timed.blockY, timed.pad};
  {
    std::lock_guard lock(mutex_);
    if (auto it = done_.find(key); it != done_.end()) return it->second;
  }
  auto result = tracedIntensity(timed);  // outside the lock: a trace takes milliseconds
  std::lock_guard lock(mutex_);
  return done_.emplace(key, std::move(result)).first->second;
}

}  // namespace tilescope
