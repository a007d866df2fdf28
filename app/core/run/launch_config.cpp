#include "core/run/launch_config.h"

#include <algorithm>
#include <cstdio>
#include <vector>

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

std::string blockRangeProblem(int blockX, int blockY) {
  if (blockX >= 1 && blockY >= 1 && int64_t(blockX) * blockY <= kMaxThreadsPerBlock) return "";
  return "block " + std::to_string(blockX) + "x" + std::to_string(blockY) +
         " is out of range: bx and by must be at least 1 and bx*by at most " + std::to_string(kMaxThreadsPerBlock) +
         " threads per block";
}

// `plan` finished with the kernel's shape (its facts', or the one its caller gave): block,
// grid, shared memory and trace slots, checked against the grid's and the trace's caps.
Result<LaunchPlan> withShape(const LaunchConfig& c, LaunchPlan plan, const LaunchShape& shape, bool traced) {
  KernelLaunch& L = plan.launch;
  L.blockX = shape.blockX;
  L.blockY = shape.blockY;
  L.dynamicSharedFloats = shape.dynamicSharedFloats;
  L.staticSharedBytes = shape.staticSharedBytes;
  plan.phases = shape.phases;
  plan.slotsPerThread = shape.eventsPerThread;
  L.gridX = shape.gridX ? shape.gridX : unsigned(ceilDiv(c.dims.l, int(L.blockX)));
  L.gridY = shape.gridY ? shape.gridY : unsigned(ceilDiv(c.dims.j, int(L.blockY)));
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

// A kernel with no facts in the list (the lab's): its caller's shape, checked as a built-in
// kernel's is. Its shared tiles are placed from its declarations once it has run (labTiles).
Result<LaunchPlan> planGivenShape(const LaunchConfig& c, bool traced) {
  const LaunchShape& shape = *c.givenShape;
  if (std::string problem = blockRangeProblem(int(shape.blockX), int(shape.blockY)); !problem.empty())
    return invalidInput(problem);
  LaunchPlan plan;
  KernelLaunch& L = plan.launch;
  L.j = c.dims.j, L.k = c.dims.k, L.l = c.dims.l;
  L.tile = int(shape.blockX);
  L.labTiles = SharedTileLayout{};
  return withShape(c, std::move(plan), shape, traced);
}
}  // namespace

std::string describe(const LaunchConfig& c) {
  if (const auto& g = c.givenShape)
    return "the lab's kernel " + dimsText(c.dims) + " block " + std::to_string(g->blockX) + "x" + std::to_string(g->blockY);
  const KernelInfo& info = kernelInfo(c.kernel);
  std::string s = std::string(info.name) + " " + dimsText(c.dims);
  if (!kernelTilings(c.kernel).empty())
    s += " tiling " + tilingText(c.tiling.empty() ? kernelDefaultTiling(c.kernel, c.dims.j, c.dims.l) : c.tiling);
  else if (info.tiled) s += " T=" + std::to_string(c.tile);
  else s += " block " + std::to_string(c.blockX) + "x" + std::to_string(c.blockY);
  if (kernelInfo(c.kernel).takesPad) s += " pad=" + std::to_string(c.pad);
  if (c.persistentBlocks > 0) s += " grid-blocks=" + std::to_string(c.persistentBlocks);
  return s;
}

Result<Tiling> parseTiling(std::string_view text) {
  const std::string usage = "a tiling is BMxBNxBK/TMxTN or BMxBNxBK/WMxWN/TMxTN, e.g. 64x64x8/8x1 or "
                            "128x256x16/32x128/8x16; got '" + std::string(text) + "'";
  std::vector<std::vector<int>> parts(1);
  int value = -1;
  for (char ch : text) {
    if (ch >= '0' && ch <= '9') {
      value = (value < 0 ? 0 : value) * 10 + (ch - '0');
      if (value > 65536) return invalidInput(usage);
    } else if ((ch == 'x' || ch == '/') && value >= 0) {
      parts.back().push_back(value);
      value = -1;
      if (ch == '/') parts.emplace_back();
    } else {
      return invalidInput(usage);
    }
  }
  if (value < 0) return invalidInput(usage);
  parts.back().push_back(value);
  Tiling t;
  const bool warp = parts.size() == 3;
  if ((parts.size() != 2 && !warp) || parts[0].size() != 3 || parts.back().size() != 2 || (warp && parts[1].size() != 2))
    return invalidInput(usage);
  t.bm = parts[0][0], t.bn = parts[0][1], t.bk = parts[0][2];
  if (warp) t.wm = parts[1][0], t.wn = parts[1][1];
  t.tm = parts.back()[0], t.tn = parts.back()[1];
  return t;
}

LaunchConfig withKernel(LaunchConfig c, KernelId id) {
  c.kernel = id;
  const auto built = kernelTilings(id);
  if (std::find(built.begin(), built.end(), c.tiling) == built.end()) c.tiling = {};
  return c;
}

Result<Tiling> parseTilingOrDefault(std::string_view text) {
  if (text == "default") return Tiling{};
  return parseTiling(text);
}

Result<LaunchPlan> planLaunch(const LaunchConfig& c, bool traced) {
  for (int d : {c.dims.j, c.dims.k, c.dims.l}) {
    if (d < 1 || d > kMaxDimension)
      return invalidInput("matrix dimension " + std::to_string(d) + " is out of range: each of j, k, l must be 1 to " +
                          std::to_string(kMaxDimension));
  }
  if (c.givenShape) return planGivenShape(c, traced);
  const KernelInfo& info = kernelInfo(c.kernel);
  if (const int m = info.rowsMultipleOf; m > 1 && (c.dims.k % m || c.dims.l % m))
    return invalidInput(std::string(info.name) + " needs k and l to be multiples of " + std::to_string(m) +
                        " (a tensor map's rows are a multiple of 16 bytes): k = " + std::to_string(c.dims.k) +
                        ", l = " + std::to_string(c.dims.l));
  LaunchPlan plan;
  KernelLaunch& L = plan.launch;
  L.kernel = c.kernel;
  L.j = c.dims.j;
  L.k = c.dims.k;
  L.l = c.dims.l;
  if (!kernelTilings(c.kernel).empty()) {
    L.tiling = c.tiling.empty() ? kernelDefaultTiling(c.kernel, c.dims.j, c.dims.l) : c.tiling;
    if (std::string problem = kernelTilingProblem(c.kernel, L.tiling); !problem.empty()) return invalidInput(problem);
    if (c.persistentBlocks < 0 || c.persistentBlocks > kMaxPersistentBlocks)
      return invalidInput("a persistent grid of " + std::to_string(c.persistentBlocks) +
                          " blocks is out of range: it must be 0 (one block per tile) to " +
                          std::to_string(kMaxPersistentBlocks));
    L.persistentBlocks = unsigned(c.persistentBlocks);
  } else if (info.tiled) {
    if (c.tile < 1 || c.tile > kMaxTileWidth)
      return invalidInput("tile width " + std::to_string(c.tile) + " is out of range: it must be 1 to " +
                          std::to_string(kMaxTileWidth) + " (a T x T block holds at most " +
                          std::to_string(kMaxThreadsPerBlock) + " threads)");
    L.tile = c.tile;
    if (kernelInfo(c.kernel).takesPad) {
      if (c.pad < 0 || c.pad > kMaxPad)
        return invalidInput("pad " + std::to_string(c.pad) + " is out of range: it must be 0 to " +
                            std::to_string(kMaxPad));
      L.pad = c.pad;
    }
  } else {
    if (std::string problem = blockRangeProblem(c.blockX, c.blockY); !problem.empty()) return invalidInput(problem);
    L.blockX = unsigned(c.blockX);
    L.blockY = unsigned(c.blockY);
  }
  // The rest is the kernel's own facts (beside it, in its file).
  return withShape(c, std::move(plan), kernelLaunchShape(L), traced);
}

}  // namespace tilescope
