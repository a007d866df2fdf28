// The grid of a launch that is not run, dealt onto a device profile (issue 28): the waves
// picture needs only the launch's grid, the kernel's resources (its facts' threads and shared
// memory, the profile's register estimate) and the profile's SMs, all known before a run. So
// a size too large to run or trace here (the emulator's multiply-add limit, the trace cap)
// still shows how it would be dealt, labelled as a plan: nothing in it is measured.
//
//   rung 8 at 1024 (H100 tiling, one block per tile): 8 x 4 = 32 blocks, 1 per SM: one wave, 24 %
//   rung 9 at 1024: the selector's 4 blocks to each of the 32 tiles, 128 blocks: one wave, 97 %
//   rung 8 or 9 at 8192: 64 x 32 = 2048 blocks: 15.52 waves of 132
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/run/occupancy.h"
#include "core/run/waves.h"
#include "core/run/device_profile.h"
#include "core/run/kernel_resources.h"
#include "core/run/launch_config.h"
#include "core/run/stream_k_plan.h"

namespace tilescope {

struct LaunchWaves {
  LaunchConfig config;        // as it would run: rung 9 with its selector's tiling and grid
  LaunchPlan plan;            // untraced
  KernelResources resources;  // the facts' threads and shared memory, the estimated registers
  Occupancy occupancy;
  Waves waves;
  std::optional<StreamKChoice> choice;  // rung 9: the selector's choice and its reason
};

// `config` planned untraced on `device`, rung 9's choice applied where the user set neither
// tiling nor grid (withStreamKChoice). An error only where the launch itself is invalid.
Result<LaunchWaves> planLaunchWaves(const LaunchConfig& config, const DeviceProfile& device);

// Why `config` is not run here for its size, in words, or "" where its size is not the
// reason: the trace would hold more than `maxTraceEvents`, or (on the emulator) j x k x l is
// over kMaxEmulatorMultiplyAdds. Both are said where both hold.
std::string sizeRefusal(const LaunchConfig& config, uint64_t maxTraceEvents, bool emulator);

}  // namespace tilescope
