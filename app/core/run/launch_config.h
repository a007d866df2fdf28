// What the user asks for (LaunchConfig) and what will run (LaunchPlan): the one place that
// checks every limit, so the CLI, the app and the tests refuse bad input the same way.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kernels/catalog.h"
#include "kernels/launch_params.h"
#include "kernels/result.h"

namespace tilescope {

struct Dims {
  int j = 4, k = 4, l = 4;  // M is j x k, N is k x l, P is j x l
  bool operator==(const Dims&) const = default;
};

struct LaunchConfig {
  KernelId kernel = KernelId::Tiled;
  Dims dims;
  int tile = 2;                  // tiled kernels: T, the block is T x T
  int blockX = 16, blockY = 16;  // naive: block shape
  int pad = 0;                   // tiled-transposed: extra floats per shared tile row (bank conflicts)
  Tiling tiling;                 // the ladder's kernels: block, warp and thread tiles (zeros: the default)
  int persistentBlocks = 0;      // a persistentGrid kernel's blocks (0: one per tile)
  uint64_t seed = 1;             // inputs are drawn from it
  // A kernel with no facts in the kernel list (the lab's, read from a student's file): the
  // shape its caller read from the kernel's declarations and the request, which planLaunch
  // takes in place of the kernel's facts (`kernel`, `tile`, `tiling` and `pad` are not read;
  // gridX/gridY 0: one block per block-sized tile of P). Unset: the built-in kernel `kernel`.
  std::optional<LaunchShape> givenShape;
  bool operator==(const LaunchConfig&) const = default;
};

struct LaunchPlan {
  KernelLaunch launch;
  int phases = 0;                // tiles of k walked by each block (0 for naive)
  unsigned slotsPerThread = 0;   // trace slots each thread may fill
  uint64_t threads = 0;          // threads in the grid
  uint64_t traceSlots = 0;       // threads * slotsPerThread
};

inline constexpr int kMaxDimension = 16384;          // per matrix side: 1 GiB per matrix at most
inline constexpr uint64_t kMaxTraceEvents = 1ull << 26;  // 64 Mi events, 2 GiB of trace
inline constexpr uint64_t kEventBytes = 32;
// The emulator runs every thread on the CPU: beyond 2^28 multiply-adds (512x512x1024) a
// launch takes too long to be useful, so it is refused with this limit named.
inline constexpr uint64_t kMaxEmulatorMultiplyAdds = uint64_t(1) << 28;
inline constexpr int kMaxPad = 32;  // tiled-transposed: row stride T + pad, pad 0..32
inline constexpr int kMaxPersistentBlocks = 65535;  // a persistent grid, one dimension

// Checks `config` against every limit and derives the launch. `traced` adds the trace cap.
Result<LaunchPlan> planLaunch(const LaunchConfig& config, bool traced);

// "128x256x16/32x128/8x16" (block, warp, thread tiles) or "64x64x8/8x1" (no warp level).
Result<Tiling> parseTiling(std::string_view text);

// `c` with kernel `id`; a tiling `id` is not built for goes back to its default (all zeros), so
// switching kernels on the ladder never asks for another rung's tiling.
LaunchConfig withKernel(LaunchConfig c, KernelId id);
// A `set tiling` value: "default" (the kernel's own choice for the size) or as parseTiling.
Result<Tiling> parseTilingOrDefault(std::string_view text);

// "tiled 33x17x9 T=4" or "naive 64x64x64 block 32x8".
std::string describe(const LaunchConfig& config);

}  // namespace tilescope
