#include "launch_config.h"

#include <algorithm>
#include <cstdio>

#include "kernels/ceil_div.h"

namespace tilescope {

namespace {
std::string dimsText(const Dims& d) {
  return std::to_string(d.j) + "x" + std::to_string(d.k) + "x" + std::to_string(d.l);
}

std::string sizeText(uint64_t bytes) {
  char buf[64];
  if (bytes >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(1ull << 30));
  else std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(1ull << 20));
  return buf;
}
}  // namespace

std::string describe(const LaunchConfig& c) {
  const KernelInfo& info = kernelInfo(c.kernel);
  std::string s = std::string(info.name) + " " + dimsText(c.dims);
  if (info.tiled) s += " T=" + std::to_string(c.tile);
  else s += " block " + std::to_string(c.blockX) + "x" + std::to_string(c.blockY);
  if (c.kernel == KernelId::TiledTransposed) s += " pad=" + std::to_string(c.pad);
  return s;
}

Result<LaunchPlan> planLaunch(const LaunchConfig& c, bool traced) {
  const KernelInfo& info = kernelInfo(c.kernel);
  for (int d : {c.dims.j, c.dims.k, c.dims.l}) {
    if (d < 1 || d > kMaxDimension)
      return invalidInput("matrix dimension " + std::to_string(d) + " is out of range: each of j, k, l must be 1 to " +
                          std::to_string(kMaxDimension));
  }
  LaunchPlan plan;
  KernelLaunch& L = plan.launch;
  L.kernel = c.kernel;
  L.j = c.dims.j;
  L.k = c.dims.k;
  L.l = c.dims.l;
  if (info.tiled) {
    if (c.tile < 1 || c.tile > kMaxTileWidth)
      return invalidInput("tile width " + std::to_string(c.tile) + " is out of range: it must be 1 to " +
                          std::to_string(kMaxTileWidth) + " (a T x T block holds at most " +
                          std::to_string(kMaxThreadsPerBlock) + " threads)");
    L.tile = c.tile;
    if (c.kernel == KernelId::TiledTransposed) {
      if (c.pad < 0 || c.pad > kMaxPad)
        return invalidInput("pad " + std::to_string(c.pad) + " is out of range: it must be 0 to " +
                            std::to_string(kMaxPad));
      L.pad = c.pad;
    }
  } else {
    if (c.blockX < 1 || c.blockY < 1 || c.blockX * c.blockY > kMaxThreadsPerBlock)
      return invalidInput("block " + std::to_string(c.blockX) + "x" + std::to_string(c.blockY) +
                          " is out of range: bx and by must be at least 1 and bx*by at most " +
                          std::to_string(kMaxThreadsPerBlock) + " threads per block");
    L.blockX = unsigned(c.blockX);
    L.blockY = unsigned(c.blockY);
  }
  // The rest is the kernel's own facts (beside it, in its file).
  const LaunchShape shape = kernelLaunchShape(L);
  L.blockX = shape.blockX;
  L.blockY = shape.blockY;
  L.dynamicSharedFloats = shape.dynamicSharedFloats;
  plan.phases = shape.phases;
  plan.slotsPerThread = shape.eventsPerThread;
  L.gridX = unsigned(ceilDiv(c.dims.l, int(L.blockX)));
  L.gridY = unsigned(ceilDiv(c.dims.j, int(L.blockY)));
  if (L.gridX > unsigned(kMaxGridDim) || L.gridY > unsigned(kMaxGridDim))
    return invalidInput("grid " + std::to_string(L.gridX) + "x" + std::to_string(L.gridY) +
                        " is too large: each grid dimension may be at most " + std::to_string(kMaxGridDim));
  plan.threads = uint64_t(L.gridX) * L.gridY * L.blockX * L.blockY;
  plan.traceSlots = plan.threads * plan.slotsPerThread;
  if (traced && plan.traceSlots > kMaxTraceEvents)
    return invalidInput("a trace of " + describe(c) + " would hold " + std::to_string(plan.traceSlots) +
                        " events (" + sizeText(plan.traceSlots * kEventBytes) + "), over the cap of " +
                        std::to_string(kMaxTraceEvents) + " events (" + sizeText(kMaxTraceEvents * kEventBytes) +
                        "): choose a smaller size or tile");
  return plan;
}

}  // namespace tilescope
