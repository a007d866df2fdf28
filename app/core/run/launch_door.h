// The one door to a launch: a run's description (LaunchConfig) and the device it would run on,
// planned once for every caller: the app's run worker, the CLI's commands, the benchmarks, the
// timing worker and the pictures of waves and occupancy. It returns the launch as it will run
// (grid, block, shared bytes, and the kernel's own schedule where the caller left tiling and
// grid to the kernel) or the reason it cannot run. A kernel's policy (its tilings, a schedule
// selector, a persistent grid, the sizes it refuses) comes from hooks in its facts
// (kernels/catalog.h: kernelTilings, kernelSchedule, KernelInfo); nothing here names a kernel.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/run/device_profile.h"
#include "core/run/launch_config.h"

namespace tilescope {

// Where a launch would run, for the refusals that depend on it: the most trace events its
// caller keeps, and whether the emulator runs it (the emulator's multiply-add limit).
struct RunPlace {
  uint64_t maxTraceEvents = kMaxTraceEvents;
  bool emulator = true;
};

struct PlannedLaunch {
  LaunchConfig config;  // as it runs: the kernel's schedule applied where the caller set neither tiling nor grid
  LaunchPlan plan;      // untraced: grid, block, shared bytes, phases, trace slots
  // The kernel's own choice for this shape on this device (its facts' schedule hook), taken or
  // not (a tiling or grid set by hand wins); nothing for a kernel with no selector.
  std::optional<KernelSchedule> kernelChoice;
  bool followsKernelChoice = false;
  // Why it is not run at `place` for its size (sizeRefusal's words), "" where it is.
  std::string refusedHere;
};

// `config` through the door on `device`. An error only where the launch itself is invalid
// (a dimension, tile, block or tiling out of range): a launch too large to run or trace at
// `place` is still planned, with refusedHere saying why.
Result<PlannedLaunch> planLaunchOn(const LaunchConfig& config, const DeviceProfile& device, const RunPlace& place = {});

// Whether the door needs a device to plan `config`: only a kernel whose facts choose its own
// schedule, and only where the caller left both tiling and grid to it. Callers that must ask
// a GPU for its profile (a process start, a CUDA context) ask only then.
bool needsDevice(const LaunchConfig& config);

// `config` as it runs on `device`, and in `reason` the kernel's choice in words ("" where it
// made none): the door's config, for callers that run it at once (the CLI, the timings).
LaunchConfig scheduledConfig(const LaunchConfig& config, const DeviceProfile& device, std::string& reason);

// Why `config` is not run here for its size, in words, or "" where its size is not the
// reason: the trace would hold more than `maxTraceEvents`, or (on the emulator) j x k x l is
// over kMaxEmulatorMultiplyAdds. Both are said where both hold.
std::string sizeRefusal(const LaunchConfig& config, uint64_t maxTraceEvents, bool emulator);

}  // namespace tilescope
