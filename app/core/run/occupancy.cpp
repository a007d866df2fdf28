#include "occupancy.h"

#include <algorithm>
#include <climits>

#include "kernels/ceil_div.h"

namespace tilescope {

namespace {
int roundUp(int v, int unit) { return unit > 1 ? ceilDiv(v, unit) * unit : v; }
}  // namespace

std::string_view limiterName(OccupancyLimiter l) {
  switch (l) {
    case OccupancyLimiter::Threads: return "threads";
    case OccupancyLimiter::Blocks: return "blocks";
    case OccupancyLimiter::Registers: return "registers";
    case OccupancyLimiter::SharedMemory: return "shared memory";
    case OccupancyLimiter::None: break;
  }
  return "none";
}

Occupancy computeOccupancy(const DeviceProfile& d, const KernelResources& k) {
  Occupancy o;
  const int warpSize = 32;
  const int warpSlots = d.maxThreadsPerSm / warpSize;
  const int warpsPerBlock = ceilDiv(std::max(k.threadsPerBlock, 1), warpSize);
  const bool launchable = k.threadsPerBlock >= 1 && k.threadsPerBlock <= d.maxThreadsPerBlock &&
                          k.registersPerThread <= d.maxRegistersPerThread;

  o.blocksByThreads = warpSlots / warpsPerBlock;
  o.blocksByBlocks = d.maxBlocksPerSm;

  // Registers.
  if (k.registersPerThread <= 0) {
    o.blocksByRegisters = INT_MAX;
  } else if (d.registerAllocationUnit <= 1) {
    o.registersPerBlock = k.registersPerThread * k.threadsPerBlock;
    o.blocksByRegisters = o.registersPerBlock > d.registersPerBlock ? 0 : d.registersPerSm / o.registersPerBlock;
  } else {
    const int regsPerWarp = roundUp(k.registersPerThread * warpSize, d.registerAllocationUnit);
    o.registersPerBlock = regsPerWarp * warpsPerBlock;
    // The hardware's per-block check counts warps as if spread over every partition.
    const int assumedPerBlock = regsPerWarp * roundUp(warpsPerBlock, d.registerPartitions);
    if (assumedPerBlock > d.registersPerBlock || o.registersPerBlock > d.registersPerBlock) {
      o.blocksByRegisters = 0;
    } else {
      const int warpsPerPartition = (d.registersPerSm / d.registerPartitions) / regsPerWarp;
      o.blocksByRegisters = warpsPerPartition * d.registerPartitions / warpsPerBlock;
    }
  }

  // Shared memory: the reservation is taken per block, even by blocks that declare none.
  o.sharedBytesPerBlock = roundUp(k.sharedBytesPerBlock + d.reservedSharedPerBlock, d.sharedAllocationUnit);
  if (k.sharedBytesPerBlock > d.sharedPerBlock) o.blocksBySharedMemory = 0;
  else if (o.sharedBytesPerBlock == 0) o.blocksBySharedMemory = INT_MAX;
  else o.blocksBySharedMemory = d.sharedPerSm / o.sharedBytesPerBlock;

  // The first limit in this order wins ties: "threads" means the SM is as full as it gets.
  const std::pair<int, OccupancyLimiter> limits[] = {{o.blocksByThreads, OccupancyLimiter::Threads},
                                                     {o.blocksByBlocks, OccupancyLimiter::Blocks},
                                                     {o.blocksByRegisters, OccupancyLimiter::Registers},
                                                     {o.blocksBySharedMemory, OccupancyLimiter::SharedMemory}};
  o.blocksPerSm = INT_MAX;
  for (const auto& [blocks, limiter] : limits) {
    if (blocks < o.blocksPerSm) {
      o.blocksPerSm = blocks;
      o.limiter = limiter;
    }
  }
  if (!launchable) {  // too many threads or registers for one block: no limit applies
    o.blocksPerSm = 0;
    o.limiter = OccupancyLimiter::None;
  }
  o.threadsPerSm = o.blocksPerSm * k.threadsPerBlock;
  o.warpsPerSm = o.blocksPerSm * warpsPerBlock;
  o.occupancy = warpSlots ? double(o.warpsPerSm) / double(warpSlots) : 0.0;
  return o;
}

}  // namespace tilescope
