// Rung 9's global workspace on the device: one partial-sum slot per block of its persistent
// grid, and one arrival counter per tile, zeroed before every launch. Kept for the process
// and grown when a launch needs more, so timed launches allocate nothing.
#pragma once
#include <cstddef>

#include "kernels/result.h"

namespace tilescope::cuda {

struct DeviceWorkspace {
  float* partials = nullptr;
  int* arrivals = nullptr;
};

// At least `floats` partials and `counters` counters; the counters zeroed on the default
// stream (ordered before the launch that follows on it).
Result<DeviceWorkspace> streamKWorkspace(std::size_t floats, std::size_t counters);

}  // namespace tilescope::cuda
