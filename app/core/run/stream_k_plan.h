// Rung 9's selector, as cuBLAS has one: which tiling and which grid stream-k runs at a shape,
// from the device's SMs and the kernel's occupancy (blocks per SM), with the reason in words.
// It reasons in waves (analysis/waves.h): a grid of one block per tile runs in
// tiles / (SMs x blocks per SM) waves, and the last, partial wave decides the run's end.
//   1. The H100 tiling (128 x 256) always (the half tiling, 128 x 128, only where the large
//      one's ring does not fit an SM).
//   2. One block per tile (data-parallel, rung 8's grid) when its waves are at least
//      kBusyEnough busy on average (blocks / slots of the waves started). N = 4096: 512
//      tiles, 3.88 of 4 waves, 97 %.
//   3. Under one wave, s blocks to every tile (s = the slots / the tiles, s >= 2) when those
//      s x tiles blocks keep the wave at least kBusyEnough busy: every tile split s ways
//      alike. N = 1024: 32 tiles for 132 slots (24 %), 4 to a tile: 128 blocks (97 %) of 8
//      k-iterations each, no block spanning two tiles.
//   4. Else stream-K: a persistent grid of one wave (SMs x blocks per SM), every block an
//      equal share of the tiles x k-steps iterations. N = 1536: 72 tiles for 132 slots (55 %):
//      132 blocks of 26.2 k-iterations each. No block gets fewer than kMinShare (the ring's 4
//      stages); when that leaves no more blocks than tiles, one block per tile after all.
// The measurements behind each number are in stream_k_plan.cpp.
#pragma once
#include <string>

#include "core/run/waves.h"
#include "core/run/device_profile.h"
#include "core/run/launch_config.h"

namespace tilescope {

inline constexpr double kBusyEnough = 0.9;
inline constexpr int kMinShare = 4;  // k-iterations a stream-K block gets at least

struct StreamKChoice {
  Tiling tiling;
  int persistentBlocks = 0;   // 0: data-parallel (one block per tile)
  int64_t tiles = 0;          // of the chosen tiling
  int64_t iterations = 0;     // tiles x k-steps
  Waves waves;                // one block per tile at the chosen tiling, on the device
  std::string reason;         // one line: what runs, and why
};

// The choice for a j x k x l product on `device` (its SM count and limits).
StreamKChoice chooseStreamK(const Dims& dims, const DeviceProfile& device);

// `config` with the choice's tiling and grid when it is stream-k and the user set neither.
LaunchConfig withStreamKChoice(LaunchConfig config, const StreamKChoice& choice);

}  // namespace tilescope
