#include "core/run/launch_door.h"

#include "core/run/kernel_resources.h"
#include "core/run/occupancy.h"

namespace tilescope {

namespace {

LaunchConfig configOf(const KernelLaunch& L) {
  LaunchConfig c;
  c.kernel = L.kernel;
  c.dims = {L.j, L.k, L.l};
  c.tile = L.tile;
  c.blockX = int(L.blockX);
  c.blockY = int(L.blockY);
  c.pad = L.pad;
  c.tiling = L.tiling;
  c.persistentBlocks = int(L.persistentBlocks);
  return c;
}

// What a kernel's schedule hook may ask of `device`: its SMs, and the occupancy model's blocks
// per SM for a candidate launch (0 where the candidate is invalid or does not fit).
ScheduleDevice scheduleDevice(const DeviceProfile& device) {
  return {device.smCount, [&device](const KernelLaunch& candidate) {
            Result<LaunchPlan> plan = planLaunch(configOf(candidate), false);
            return plan ? computeOccupancy(device, kernelResources(plan->launch)).blocksPerSm : 0;
          }};
}

bool leftToKernel(const LaunchConfig& c) { return c.tiling.empty() && c.persistentBlocks == 0; }

// "1 Gi", "96 Mi", "4096": a count as people read it.
std::string roughCount(uint64_t n) {
  constexpr uint64_t kMi = uint64_t(1) << 20, kGi = uint64_t(1) << 30;
  if (n >= kGi) return std::to_string((n + kGi / 2) / kGi) + " Gi";
  if (n >= kMi) return std::to_string((n + kMi / 2) / kMi) + " Mi";
  return std::to_string(n);
}

}  // namespace

bool needsDevice(const LaunchConfig& config) {
  return !config.givenShape && kernelHasSchedule(config.kernel) && leftToKernel(config);
}

Result<PlannedLaunch> planLaunchOn(const LaunchConfig& config, const DeviceProfile& device, const RunPlace& place) {
  PlannedLaunch out;
  out.config = config;
  if (!config.givenShape && kernelHasSchedule(config.kernel)) {
    KernelLaunch asked;
    asked.kernel = config.kernel;
    asked.j = config.dims.j, asked.k = config.dims.k, asked.l = config.dims.l;
    out.kernelChoice = kernelSchedule(asked, scheduleDevice(device));
    if (out.kernelChoice && leftToKernel(config)) {
      out.config.tiling = out.kernelChoice->tiling;
      out.config.persistentBlocks = int(out.kernelChoice->persistentBlocks);
    }
    out.followsKernelChoice = out.kernelChoice && out.config.tiling == out.kernelChoice->tiling &&
                              out.config.persistentBlocks == int(out.kernelChoice->persistentBlocks);
  }
  auto plan = planLaunch(out.config, false);
  if (!plan) return plan.error();
  out.plan = *plan;
  out.refusedHere = sizeRefusal(out.config, place.maxTraceEvents, place.emulator);
  return out;
}

LaunchConfig scheduledConfig(const LaunchConfig& config, const DeviceProfile& device, std::string& reason) {
  reason.clear();
  if (!needsDevice(config)) return config;
  auto planned = planLaunchOn(config, device);
  if (!planned || !planned->kernelChoice) return config;  // an invalid launch is refused by the run itself
  reason = "selector (" + std::to_string(device.smCount) + " SMs, " + device.name + "): " + planned->kernelChoice->reason;
  return planned->config;
}

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
