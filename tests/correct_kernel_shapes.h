// Launches of every correct kernel, derived from the kernel list (kernels/kernel_list.h) and
// each kernel's facts alone, so a kernel added to the list is tested with no line here: shapes
// that are not multiples of its tiles, for each tiling it is built for. A kernel whose facts say
// it needs multiples of T (fig. 5.9 has no boundary checks) is run at multiples only.
#pragma once
#include <string>
#include <vector>

#include "core/run/launch_config.h"
#include "kernels/catalog.h"

namespace tilescope::testing {

struct KernelShape {
  LaunchConfig config;
  std::string name;  // for the test's name: kernel, tile or tiling, dims
};

inline std::string shapeLabel(const LaunchConfig& c) {
  std::string s(kernelInfo(c.kernel).name);
  if (!c.tiling.empty())
    // The whole tiling: two tilings of one kernel may share a block tile and differ in the warp's
    // or the thread's (rung 10's 64x64/8x16 and 64x32/8x8 under 128x128x32).
    s += "_" + tilingText(c.tiling) + (c.persistentBlocks > 0 ? "_grid" + std::to_string(c.persistentBlocks) : "");
  else if (kernelInfo(c.kernel).tiled)
    s += "_T" + std::to_string(c.tile);
  else
    s += "_block" + std::to_string(c.blockX) + "x" + std::to_string(c.blockY);
  s += "_dims_" + std::to_string(c.dims.j) + "x" + std::to_string(c.dims.k) + "x" + std::to_string(c.dims.l);
  for (char& ch : s)
    if (ch == '-' || ch == '/') ch = '_';
  return s;
}

// The largest block tile (bm x bn) the emulator cases take: 32 x 64, rungs 8 and 9's teaching tiling.
inline constexpr int kEmulatorTileElements = 32 * 64;

// `large` adds the sizes a GPU takes in no time (the ladder's H100 tilings over several blocks).
inline std::vector<KernelShape> correctKernelShapes(bool large) {
  // Prime sides: a multiple of no tile, block or float4 width.
  const std::vector<Dims> odd = large ? std::vector<Dims>{{37, 29, 23}, {263, 131, 269}} : std::vector<Dims>{{37, 29, 23}};
  std::vector<KernelShape> shapes;
  auto add = [&](LaunchConfig c) {
    // A kernel whose rows must be multiples (tensor maps: of 4 floats) gets the next such k and l.
    const int m = kernelInfo(c.kernel).rowsMultipleOf;
    c.dims.k = (c.dims.k + m - 1) / m * m;
    c.dims.l = (c.dims.l + m - 1) / m * m;
    shapes.push_back({c, shapeLabel(c)});
  };
  for (const KernelInfo& k : kKernels) {
    if (!isCorrectKernel(k)) continue;
    LaunchConfig base;
    base.kernel = k.id;
    const auto tilings = kernelTilings(k.id);
    if (!tilings.empty()) {
      for (const Tiling& t : tilings)
        for (const Dims& d : odd) {
          // The emulator takes each kernel's teaching tiling (a block tile of at most 32 x 64
          // elements, a second or less traced); the H100's (32 x 128 and up) run on the GPU.
          if (!large && t.bm * t.bn > kEmulatorTileElements) continue;
          LaunchConfig c = base;
          c.tiling = t;
          c.dims = d;
          add(c);
          // The persistent grids its facts name (stream-K's split tiles).
          for (short blocks : k.testGrids)
            if (blocks > 0) {
              c.persistentBlocks = blocks;
              add(c);
            }
        }
    } else if (k.tiled && k.needsMultipleOfTile) {
      for (int t : {2, 16}) {
        LaunchConfig c = base;
        c.tile = t;
        c.dims = {3 * t, 2 * t, 5 * t};
        add(c);
      }
    } else if (k.tiled) {
      for (int t : {4, 16})
        for (const Dims& d : odd) {
          LaunchConfig c = base;
          c.tile = t;
          c.dims = d;
          if (k.takesPad) c.pad = 1;
          add(c);
        }
    } else {
      for (auto [bx, by] : {std::pair{16, 16}, {32, 8}, {7, 3}})
        for (const Dims& d : odd) {
          LaunchConfig c = base;
          c.blockX = bx;
          c.blockY = by;
          c.dims = d;
          add(c);
        }
    }
  }
  return shapes;
}

}  // namespace tilescope::testing
