// The parameters of one kernel launch, as the launchers take them. Plain host C++.
#pragma once
#include "catalog.h"

namespace tilescope {

// Everything a launch needs, already validated by the core (app/core/launch_config.h).
struct KernelLaunch {
  KernelId kernel = KernelId::Tiled;
  int j = 0, k = 0, l = 0;
  int tile = 0;  // tiled kernels
  unsigned gridX = 1, gridY = 1, blockX = 1, blockY = 1;
  unsigned dynamicSharedFloats = 0;  // tiled-dynamic: Mds then Nds
  int pad = 0;                       // tiled-transposed: extra floats per tile row
  // A kernel the lab compiled at run time (app/core/lab) has no facts in a kernel file: its
  // shared tiles, as the analyses place them, come from its declarations instead.
  bool lab = false;
  SharedTileLayout labTiles{};
};

}  // namespace tilescope
