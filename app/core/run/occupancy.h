// Occupancy (ch. 4 and 5.6; tutorial 004): how many blocks of a kernel an SM holds at
// once, limited by whichever SM resource runs out first.
//
//   blocks by threads   = floor(warp slots / warps per block)      (thread slots count whole warps)
//   blocks by blocks    = block slots
//   blocks by registers = registers per SM / registers per block, where a block's registers
//                         are regs/thread x 32 rounded up to the allocation unit, per warp,
//                         and warps are placed in one of the register file's partitions
//   blocks by shared    = shared per SM / (shared per block + the driver's reservation,
//                         rounded up to the allocation unit)
//   occupancy           = resident warps / warp slots
// This is the arithmetic of NVIDIA's occupancy calculator (cuda_occupancy.h), which the
// tests compare against when the header is installed. The textbook profile has no
// allocation units, so it reproduces the tutorial's register cliff exactly:
// 16x16 blocks at 10 registers/thread fit 6 blocks (1536 threads), at 12 only 5 (1280).
#pragma once
#include <string>
#include <string_view>

#include "core/run/device_profile.h"
#include "core/run/kernel_resources.h"
#include "kernels/launch_params.h"

namespace tilescope {

enum class OccupancyLimiter { Threads, Blocks, Registers, SharedMemory, None };
std::string_view limiterName(OccupancyLimiter l);  // "threads", "blocks", "registers", "shared memory"

struct Occupancy {
  int blocksByThreads = 0, blocksByBlocks = 0, blocksByRegisters = 0, blocksBySharedMemory = 0;
  int blocksPerSm = 0;
  int threadsPerSm = 0;  // resident threads (blocks x threads per block)
  int warpsPerSm = 0;
  double occupancy = 0.0;  // resident warps / warp slots
  OccupancyLimiter limiter = OccupancyLimiter::None;  // None: the block cannot run at all
  int registersPerBlock = 0;    // as allocated
  int sharedBytesPerBlock = 0;  // as allocated (with reservation and rounding)
};

Occupancy computeOccupancy(const DeviceProfile& device, const KernelResources& kernel);

}  // namespace tilescope
