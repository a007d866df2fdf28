// Device profiles: the SM limits the occupancy model needs and the two ceilings of the
// roofline, for devices the app can describe without owning one. A real GPU's values come
// from the device query instead (the CUDA backend fills a DeviceProfile the same way).
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "core/result.h"

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

// The built-in profiles: "textbook", "a100", "h100".
std::span<const DeviceProfile> builtinProfiles();
std::string profileNames();  // "textbook, a100, h100"
// The profile called `name`, or an InvalidInput error listing the names.
Result<DeviceProfile> profileByName(std::string_view name);

}  // namespace tilescope
