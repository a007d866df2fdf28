// The grid of a launch that is not run, dealt onto a device profile: the waves picture needs
// only the launch's grid, the kernel's resources (its facts' threads and shared memory, the
// profile's register estimate) and the profile's SMs, all known before a run. So a size too
// large to run or trace here (the emulator's multiply-add limit, the trace cap) still shows
// how it would be dealt, labelled as a plan: nothing in it is measured.
//
//   rung 8 at 1024 (H100 tiling, one block per tile): 8 x 4 = 32 blocks, 1 per SM: one wave, 24 %
//   rung 9 at 1024: the selector's 4 blocks to each of the 32 tiles, 128 blocks: one wave, 97 %
//   rung 8 or 9 at 8192: 64 x 32 = 2048 blocks: 15.52 waves of 132
#pragma once
#include "core/run/kernel_resources.h"
#include "core/run/launch_door.h"
#include "core/run/occupancy.h"
#include "core/run/waves.h"

namespace tilescope {

struct LaunchWaves {
  PlannedLaunch planned;      // through the one door: as it would run, the kernel's choice applied
  KernelResources resources;  // the facts' threads and shared memory, the estimated registers
  Occupancy occupancy;
  Waves waves;
};

// `config` planned on `device` (planLaunchOn) and dealt onto its SMs. An error only where the
// launch itself is invalid.
Result<LaunchWaves> planLaunchWaves(const LaunchConfig& config, const DeviceProfile& device);

}  // namespace tilescope
