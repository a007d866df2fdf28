// The parameters of one kernel launch, as the launchers take them. Plain host C++.
#pragma once
#include <optional>

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
  unsigned persistentBlocks = 0;     // stream-k: its grid (0: one block per tile, data-parallel)
  // Set for a kernel the lab compiled at run time (app/lab): it has no facts in a kernel file
  // (`kernel` is not read), and its shared tiles, as the analyses place them, come from its
  // declarations instead. Unset: the built-in kernel `kernel`.
  std::optional<SharedTileLayout> labTiles;
};

}  // namespace tilescope
