#include "core/run/launch_waves.h"

namespace tilescope {

Result<LaunchWaves> planLaunchWaves(const LaunchConfig& config, const DeviceProfile& device) {
  auto planned = planLaunchOn(config, device);
  if (!planned) return planned.error();
  LaunchWaves out;
  out.planned = *planned;
  const KernelLaunch& L = planned->plan.launch;
  out.resources = kernelResources(L);
  out.occupancy = computeOccupancy(device, out.resources);
  out.waves = dealBlocks(int64_t(L.gridX) * L.gridY, device.smCount, out.occupancy.blocksPerSm);
  return out;
}

}  // namespace tilescope
