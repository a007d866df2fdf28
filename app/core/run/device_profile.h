// Device profiles: the SM limits the occupancy model needs and the two ceilings of the
// roofline, for devices the app can describe without owning one. A real GPU's values come
// from the device query instead (the CUDA backend fills a DeviceProfile the same way).
#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "kernels/device_properties.h"
#include "kernels/result.h"

namespace tilescope {

struct DeviceProfile {
  std::string name;   // as typed after --profile
  std::string label;  // what it is, shown to the user
  int smCount = 0;
  // Resident limits per SM.
  int maxThreadsPerSm = 0;
  int maxBlocksPerSm = 0;
  int maxThreadsPerBlock = 1024;
  int registersPerSm = 0;
  int registersPerBlock = 0;      // the most one block may hold
  int maxRegistersPerThread = 255;
  // Registers are given to whole warps in units of registerAllocationUnit (256 on every
  // current GPU) from one of registerPartitions slices of the register file (the SM's 4
  // sub-partitions). 0 and 1: the tutorial's idealised SM, exactly regs x threads.
  int registerAllocationUnit = 0;
  int registerPartitions = 1;
  int sharedPerSm = 0;             // bytes blocks can use (the largest carveout)
  int sharedPerBlock = 0;          // the most one block may use (with opt-in)
  int sharedAllocationUnit = 1;    // a block's shared memory is rounded up to this
  int reservedSharedPerBlock = 0;  // the driver keeps this much of each block's share (1 KB since sm_80)
  // Roofline ceilings and where they come from.
  double bandwidthGBs = 0.0;
  double peakGflops = 0.0;  // FP32, no tensor cores
  std::string ceilingsSource;
};

// The profile called "device": the SM limits from `p`, and what the runtime does not report
// taken per architecture from NVIDIA's calculator (cuda_occupancy.h): registers in units of
// 256 from 4 sub-partitions (2 on sm_60), shared memory in units of 128 B (256 before
// sm_80). No ceilings yet (0, "not measured"): see withMeasuredCeilings.
DeviceProfile profileFromProperties(const DeviceProperties& p);

// `profile` with the roofline's ceilings measured on the device: device-to-device copy
// bandwidth and the FP32 peak derived from SMs x clock (timing.h: Ceilings).
DeviceProfile withMeasuredCeilings(DeviceProfile profile, double copyGBs, double peakGflops,
                                   const std::string& peakDerivation);

// The name of the profile built from the device (what --profile device selects).
inline constexpr std::string_view kDeviceProfileName = "device";

// The built-in profiles: "textbook", "a100", "h100".
std::span<const DeviceProfile> builtinProfiles();
std::string profileNames();  // "textbook, a100, h100"
// The profile called `name`, or an InvalidInput error listing the names.
Result<DeviceProfile> profileByName(std::string_view name);

// The profile the analyses describe when there is no GPU to ask (the CLI's `--profile auto`
// and the app's default): the GPU the project's recorded timings come from
// (assets/timings/h100.csv), so the timing and analysis views agree. The chapter's A100 and
// the tutorial's textbook SM remain one --profile away.
inline constexpr std::string_view kProfileWithoutGpu = "h100";

}  // namespace tilescope
