#include "core/run/launch_waves.h"

namespace tilescope {

Result<LaunchWaves> planLaunchWaves(const LaunchConfig& config, const DeviceProfile& device) {
  LaunchWaves out;
  out.config = config;
  if (config.kernel == KernelId::StreamK) {
    out.choice = chooseStreamK(config.dims, device);
    out.config = withStreamKChoice(config, *out.choice);
  }
  auto plan = planLaunch(out.config, false);
  if (!plan) return plan.error();
  out.plan = *plan;
  out.resources = kernelResources(plan->launch);
  out.occupancy = computeOccupancy(device, out.resources);
  out.waves = dealBlocks(int64_t(plan->launch.gridX) * plan->launch.gridY, device.smCount, out.occupancy.blocksPerSm);
  return out;
}

namespace {
// "1 Gi", "96 Mi", "4096": a count as people read it.
std::string roughCount(uint64_t n) {
  constexpr uint64_t kMi = uint64_t(1) << 20, kGi = uint64_t(1) << 30;
  if (n >= kGi) return std::to_string((n + kGi / 2) / kGi) + " Gi";
  if (n >= kMi) return std::to_string((n + kMi / 2) / kMi) + " Mi";
  return std::to_string(n);
}
}  // namespace

std::string sizeRefusal(const LaunchConfig& config, uint64_t maxTraceEvents, bool emulator) {
  auto plan = planLaunch(config, false);
  if (!plan) return "";
  std::string why;
  const Dims& d = config.dims;
  const uint64_t work = uint64_t(d.j) * uint64_t(d.k) * uint64_t(d.l);
  if (emulator && work > kMaxEmulatorMultiplyAdds) {
    const std::string product = d.j == d.k && d.k == d.l ? std::to_string(d.j) + "^3"
                                                          : std::to_string(d.j) + " x " + std::to_string(d.k) + " x " +
                                                                std::to_string(d.l);
    why = product + " = " + roughCount(work) + " multiply-adds is over the emulator's limit of " +
          roughCount(kMaxEmulatorMultiplyAdds);
  }
  if (plan->traceSlots > maxTraceEvents)
    why += (why.empty() ? "" : ", and ") + std::string("its trace would hold ") + roughCount(plan->traceSlots) +
           " events, over the " + roughCount(maxTraceEvents) + " kept here";
  return why;
}

}  // namespace tilescope
