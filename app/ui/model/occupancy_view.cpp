// The Occupancy panel's view (occupancy_view.h). On the textbook SM, 16x16 blocks at 10 -> 12
// registers show the tutorial's cliff (1536 -> 1280 threads).
#include "ui/model/occupancy_view.h"

#include <climits>
#include <cstdio>

#include "core/run/launch_waves.h"

namespace tilescope::ui {
namespace {

std::string limitText(int blocks, bool limiting) {
  return blocks == INT_MAX ? "no limit" : std::to_string(blocks) + (limiting ? "  <- limit" : "");
}
LimitRow limitRow(const char* name, int blocks, bool limiting) {
  return {name, limitText(blocks, limiting), limitText(blocks, true)};
}

// The kernel's own schedule on this profile (its facts' selector, through the one door), and
// the launch (`verb`: "this run", "would run") against its choice (a run whose tiling or grid
// was set by hand shows both). Nothing for a kernel with no selector.
void kernelChoice(OccupancyView& v, const LaunchConfig& asked, const KernelLaunch& L, const DeviceProfile& d,
                  const std::string& verb) {
  LaunchConfig leftToKernel = asked;
  leftToKernel.tiling = {};
  leftToKernel.persistentBlocks = 0;
  auto planned = planLaunchOn(leftToKernel, d);
  if (!planned || !planned->kernelChoice) return;
  const KernelSchedule& choice = *planned->kernelChoice;
  v.hasSelector = true;
  v.selector = "on " + std::to_string(d.smCount) + " SMs (" + d.name + "): " + choice.reason;
  const bool chosen = L.tiling == choice.tiling && L.persistentBlocks == choice.persistentBlocks;
  const std::string grid = L.persistentBlocks > 0 ? "a persistent grid of " + std::to_string(L.gridX) + " blocks"
                                                  : "one block per tile (" + std::to_string(L.gridX) + ")";
  v.thisRun = verb + ": " + tilingText(L.tiling) + ", " + grid +
              (chosen ? ": the selector's choice" : ", not the selector's choice");
}

// The block against the SM's limits and the grid in waves, at the slider's registers.
OccupancyView resourcesView(KernelResources r, const KernelLaunch& L, const DeviceProfile& d,
                            const OccupancyOptions& options) {
  OccupancyView v;
  v.kernelRegisters = r.registersPerThread;
  v.registersSource = r.registersSource;
  v.maxRegisters = d.maxRegistersPerThread;
  if (options.registers > 0) r.registersPerThread = options.registers;
  const Occupancy o = computeOccupancy(d, r);
  char text[256];
  std::snprintf(text, sizeof text, "block: %d threads, %d B shared (%d allocated), %d registers/thread (%d per block)",
                r.threadsPerBlock, r.sharedBytesPerBlock, o.sharedBytesPerBlock, r.registersPerThread, o.registersPerBlock);
  v.block = text;
  v.limits = {limitRow("blocks by thread slots", o.blocksByThreads, o.limiter == OccupancyLimiter::Threads),
              limitRow("blocks by block slots", o.blocksByBlocks, o.limiter == OccupancyLimiter::Blocks),
              limitRow("blocks by registers", o.blocksByRegisters, o.limiter == OccupancyLimiter::Registers),
              limitRow("blocks by shared memory", o.blocksBySharedMemory, o.limiter == OccupancyLimiter::SharedMemory)};
  std::snprintf(text, sizeof text, "%d blocks/SM, %d of %d threads: occupancy %.1f%%, limited by %s", o.blocksPerSm,
                o.threadsPerSm, d.maxThreadsPerSm, 100.0 * o.occupancy, std::string(limiterName(o.limiter)).c_str());
  v.summary = text;
  v.occupancy = float(o.occupancy);
  v.waves = dealBlocks(int64_t(L.gridX) * L.gridY, d.smCount, o.blocksPerSm);
  v.wavesText = describeWaves(v.waves);
  return v;
}

}  // namespace

OccupancyView occupancyView(const LoadedRun& run, const AnalysisReport& analysis, const DeviceProfile& d,
                            const OccupancyOptions& options) {
  const KernelLaunch& L = run.run.plan.launch;
  OccupancyView v = resourcesView(analysis.resources, L, d, options);
  if (builtInKernel(run.run)) kernelChoice(v, run.run.config, L, d, "this run");
  return v;
}

std::string refusedForSize(const LaunchConfig& requested, bool onEmulator) {
  return sizeRefusal(requested, kAppMaxTraceEvents, onEmulator);
}

std::optional<OccupancyView> plannedOccupancyView(const LaunchConfig& requested, const std::string& why,
                                                  const DeviceProfile& d, const OccupancyOptions& options) {
  auto planned = planLaunchWaves(requested, d);
  if (!planned) return std::nullopt;
  const KernelLaunch& L = planned->planned.plan.launch;
  OccupancyView v = resourcesView(planned->resources, L, d, options);
  kernelChoice(v, requested, L, d, "would run");
  v.plan = "Not run here: " + why + ". No trace exists; this is the grid of " + describe(planned->planned.config) +
           " as it would be dealt onto the " + std::to_string(d.smCount) + " SMs of the " + d.name +
           " profile, a plan, not a measurement.";
  return v;
}

}  // namespace tilescope::ui
