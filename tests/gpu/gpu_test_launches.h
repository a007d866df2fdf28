// The launches the GPU tests make, derived from the kernel list and each kernel's facts alone
// (kernels/catalog.h), so that a kernel added to the list is launched with no line here. Plain
// host code: tests/kernels holds these lists to the facts on a machine without a GPU too.
#pragma once
#include <utility>
#include <vector>

#include "core/run/launch_config.h"
#include "kernels/catalog.h"

namespace tilescope::testing {

// GPU = emulator (gpu_equals_emulator_test): tile widths 1..32 on multiples and on other sizes;
// free blocks square and not (the ladder's other rungs take these at their default tiling); a
// kernel whose facts list its own launches (gpuTestLaunches), those.
inline std::vector<LaunchConfig> gpuComparisonShapes(const KernelInfo& info, uint64_t seed) {
  std::vector<LaunchConfig> out;
  auto add = [&](Dims d, int tile, int bx, int by, int pad) {
    LaunchConfig c;
    c.kernel = info.id;
    c.dims = d;
    c.tile = tile;
    c.blockX = bx;
    c.blockY = by;
    c.pad = pad;
    c.seed = seed + out.size();
    out.push_back(c);
  };
  if (info.gpuTestLaunches[0].j > 0) {
    for (const GpuTestLaunch& g : info.gpuTestLaunches) {
      if (g.j == 0) break;
      add({g.j, g.k, g.l}, 0, 16, 16, 0);
      out.back().tiling = kernelTilings(info.id)[std::size_t(g.tiling)];
      out.back().persistentBlocks = g.grid;
    }
  } else if (info.tiled) {
    const std::vector<int> tiles = info.tileIsCompileTime ? std::vector<int>{1, 2, 3, 4, 8, 16, 32}
                                                          : std::vector<int>{1, 2, 3, 5, 7, 8, 13, 16, 32};
    for (int t : tiles) {
      add({2 * t, 3 * t, t}, t, 16, 16, 0);                        // multiples, j != k != l
      if (t > 1) add({2 * t + 1, t + 3, t - 1}, t, 16, 16, 0);     // none a multiple of T
      if (info.takesPad) add({2 * t, t, 3 * t}, t, 16, 16, 1);
    }
  } else {
    const std::pair<int, int> blocks[] = {{16, 16}, {32, 8}, {8, 32}, {3, 5}, {64, 4}, {1, 1}, {32, 32}};
    for (auto [bx, by] : blocks) {
      add({33, 17, 9}, 2, bx, by, 0);
      add({64, 64, 64}, 2, bx, by, 0);
    }
    add({1, 1, 1}, 2, 16, 16, 0);
  }
  return out;
}

// The resource test (kernel_resources_gpu_test): every configuration a GPU build may have,
// compile-time widths of the tiled kernels (and 12, 24, which the run-time ones take), each pad
// where the kernel takes one, a spread of block shapes, every built tiling of the ladder. The
// GPU build has info.gpuResourceLaunches of a kernel's (counted in its file).
inline std::vector<LaunchConfig> resourceTestLaunches(const KernelInfo& info) {
  std::vector<LaunchConfig> configs;
  LaunchConfig c;
  c.kernel = info.id;
  c.dims = {64, 64, 64};
  if (!kernelTilings(info.id).empty()) {
    for (const Tiling& t : kernelTilings(info.id)) {
      c.tiling = t;
      configs.push_back(c);
    }
  } else if (info.tiled) {
    for (int t : {1, 2, 3, 4, 8, 12, 16, 24, 32}) {
      c.tile = t;
      for (int pad : {0, 1}) {
        if (pad && !info.takesPad) continue;
        c.pad = pad;
        configs.push_back(c);
      }
    }
  } else {
    for (auto [bx, by] : {std::pair{16, 16}, {32, 8}, {64, 4}, {32, 32}, {7, 3}}) {
      c.blockX = bx;
      c.blockY = by;
      configs.push_back(c);
    }
  }
  return configs;
}

}  // namespace tilescope::testing
