// Rung 9's global workspace on the device: one partial-sum slot per block of its persistent
// grid, and one flag per consumer thread per block, which a thread sets to the launch's
// generation once it has left its part of the block's partial. Kept for the process and
// grown when a launch needs more, so timed launches allocate nothing, and the flags are
// never zeroed between launches: each launch publishes a generation higher than any value a
// flag holds (zeroed once when allocated), so a flag left by an earlier launch never passes
// a wait. No memset is queued before a launch (it was, for the arrival counters before
// 2026-11-26, and timed with every split launch).
#pragma once
#include <cstddef>

#include "kernels/result.h"

namespace tilescope::cuda {

struct DeviceWorkspace {
  float* partials = nullptr;
  int* flags = nullptr;
  int generation = 0;  // what this launch's threads publish and wait for
};

// At least `floats` partials and `flags` flags, and the next generation. A traced launch
// (`fresh`) gets its flags zeroed on the default stream (ordered before the launch that
// follows on it) and generation 1, as the emulator's launch has: its trace records the values
// published and seen, which then equal the emulator's. A launch with no split tile
// (`flags` 0) changes nothing.
Result<DeviceWorkspace> streamKWorkspace(std::size_t floats, std::size_t flags, bool fresh);

}  // namespace tilescope::cuda
