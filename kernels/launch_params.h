// The parameters of one kernel launch, as the launchers take them. Plain host C++.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "kernels/kernel_info.h"

namespace tilescope {

// The ladder's tiling (kernels with ladderRung > 1): each block computes a bm x bn tile of P,
// bk steps of k per phase; a warp a wm x wn part of it (0: no warp level); a thread a tm x tn
// register tile. Each such kernel is built for a short list of tilings (its Facts::kTilings);
// all zeros asks for the kernel's default.
struct Tiling {
  int bm = 0, bn = 0, bk = 0;
  int wm = 0, wn = 0;
  int tm = 0, tn = 0;
  constexpr bool operator==(const Tiling&) const = default;
  constexpr bool empty() const { return bm == 0 && bn == 0 && bk == 0 && tm == 0 && tn == 0; }
};

// "128x256x16/32x128/8x16", "64x64x8/8x1" (defined in catalog.cpp).
std::string tilingText(const Tiling& t);

// Everything a launch needs, already validated by the core (app/core/run/launch_config.h).
struct KernelLaunch {
  KernelId kernel = KernelId::Tiled;
  int j = 0, k = 0, l = 0;
  int tile = 0;  // tiled kernels
  unsigned gridX = 1, gridY = 1, blockX = 1, blockY = 1;
  unsigned dynamicSharedFloats = 0;  // tiled-dynamic: Mds then Nds
  unsigned staticSharedBytes = 0;    // beside dynamic tiles: rung 8's mbarriers
  int pad = 0;                       // tiled-transposed: extra floats per tile row
  Tiling tiling;                     // the ladder's register-tiled kernels
  unsigned persistentBlocks = 0;     // a persistent grid's blocks (0: one block per tile, data-parallel)
  // Set for a kernel the lab compiled at run time (app/lab): it has no facts in a kernel file
  // (`kernel` is not read), and its shared tiles, as the analyses place them, come from its
  // declarations instead. Unset: the built-in kernel `kernel`.
  std::optional<SharedTileLayout> labTiles;
};

// What a kernel's schedule hook (Facts::schedule) may ask of the device it would run on: its
// SMs, and how many blocks of a launch (kernel, j, k, l, tiling, persistent grid) one SM holds
// at once, 0 where none fits. The core's one door to a launch (app/core/run/launch_door.h)
// fills it from a device profile and the occupancy model.
struct ScheduleDevice {
  int smCount = 0;
  std::function<int(const KernelLaunch&)> blocksPerSm;
};

// A kernel's own choice for a launch whose caller left tiling and grid to it.
struct KernelSchedule {
  Tiling tiling;
  unsigned persistentBlocks = 0;  // 0: one block per tile
  std::string reason;             // one line: what runs, and why
};

}  // namespace tilescope
