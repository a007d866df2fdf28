// The profile built from a device query (profileFromProperties): fed hand-written
// cudaDeviceProp values, it must describe the SM the way NVIDIA's calculator does, so that
// the occupancy model on a real GPU answers what cudaOccupancyMaxActiveBlocksPerMultiprocessor
// answers (checked on the device by tests/gpu/kernel_resources_gpu_test.cpp).
#include <gtest/gtest.h>

#include "core/run/occupancy.h"
#include "core/analysis/traffic.h"

namespace tilescope {
namespace {

// An H100 SXM5 as cudaGetDeviceProperties describes it (CUDA C Programming Guide, compute
// capability 9.0: 228 KB of shared memory per SM, 227 KB per block with opt-in, 1 KB of it
// reserved per block).
DeviceProperties h100Properties() {
  DeviceProperties p;
  p.name = "NVIDIA H100 80GB HBM3";
  p.major = 9;
  p.minor = 0;
  p.multiProcessorCount = 132;
  p.maxThreadsPerMultiProcessor = 2048;
  p.maxBlocksPerMultiProcessor = 32;
  p.maxThreadsPerBlock = 1024;
  p.regsPerMultiprocessor = 65536;
  p.regsPerBlock = 65536;
  p.sharedMemPerMultiprocessor = 233472;
  p.sharedMemPerBlockOptin = 232448;
  p.reservedSharedMemPerBlock = 1024;
  p.clockKHz = 1980000;
  return p;
}

// A Tesla P100 (compute capability 6.0): 64 KB per SM, 48 KB per block, no reservation;
// cuda_occupancy.h gives sm_60 two register sub-partitions and 256-byte shared units.
DeviceProperties p100Properties() {
  DeviceProperties p;
  p.name = "Tesla P100-SXM2-16GB";
  p.major = 6;
  p.minor = 0;
  p.multiProcessorCount = 56;
  p.maxThreadsPerMultiProcessor = 2048;
  p.maxBlocksPerMultiProcessor = 32;
  p.maxThreadsPerBlock = 1024;
  p.regsPerMultiprocessor = 65536;
  p.regsPerBlock = 65536;
  p.sharedMemPerMultiprocessor = 65536;
  p.sharedMemPerBlockOptin = 49152;
  p.reservedSharedMemPerBlock = 0;
  return p;
}

TEST(DeviceProfile, FromProperties_H100_EqualsBuiltinH100Limits) {
  const DeviceProfile d = profileFromProperties(h100Properties());
  const DeviceProfile h = *profileByName("h100");
  EXPECT_EQ(d.name, "device");
  EXPECT_NE(d.label.find("NVIDIA H100 80GB HBM3 (sm_90"), std::string::npos) << d.label;
  EXPECT_NE(d.label.find("132 SMs"), std::string::npos) << d.label;
  EXPECT_NE(d.label.find("228 KB shared"), std::string::npos) << d.label;
  EXPECT_EQ(d.smCount, h.smCount);
  EXPECT_EQ(d.maxThreadsPerSm, h.maxThreadsPerSm);
  EXPECT_EQ(d.maxBlocksPerSm, h.maxBlocksPerSm);
  EXPECT_EQ(d.maxThreadsPerBlock, h.maxThreadsPerBlock);
  EXPECT_EQ(d.registersPerSm, h.registersPerSm);
  EXPECT_EQ(d.registersPerBlock, h.registersPerBlock);
  EXPECT_EQ(d.maxRegistersPerThread, h.maxRegistersPerThread);
  EXPECT_EQ(d.registerAllocationUnit, h.registerAllocationUnit);
  EXPECT_EQ(d.registerPartitions, h.registerPartitions);
  EXPECT_EQ(d.sharedPerSm, h.sharedPerSm);
  EXPECT_EQ(d.sharedPerBlock, h.sharedPerBlock);
  EXPECT_EQ(d.sharedAllocationUnit, h.sharedAllocationUnit);
  EXPECT_EQ(d.reservedSharedPerBlock, h.reservedSharedPerBlock);
  // Nothing measured yet: no ceilings rather than someone else's.
  EXPECT_EQ(d.bandwidthGBs, 0.0);
  EXPECT_EQ(d.peakGflops, 0.0);
  EXPECT_EQ(d.ceilingsSource, "not measured");
}

// Tiled T = 16 on the H100 with ptxas's 32 registers: 8 warps per block; registers
// 32 x 32 = 1024 per warp, 16384 per partition -> 16 warps x 4 = 64 warps = 8 blocks; shared
// 2048 + 1024 reserved = 3072 B -> 233472 / 3072 = 76; threads 64 warp slots / 8 = 8. Eight
// blocks, full occupancy, the thread slots (first in the tie order) are the limit.
TEST(DeviceProfile, FromProperties_H100_TiledT16Occupancy) {
  const Occupancy o = computeOccupancy(profileFromProperties(h100Properties()), KernelResources{256, 2048, 32, "test"});
  EXPECT_EQ(o.blocksByThreads, 8);
  EXPECT_EQ(o.blocksByRegisters, 8);
  EXPECT_EQ(o.blocksBySharedMemory, 76);
  EXPECT_EQ(o.blocksPerSm, 8);
  EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
  EXPECT_EQ(o.limiter, OccupancyLimiter::Threads);
}

// The architecture-dependent units: a block declaring 1100 B of shared memory takes
// 1100 + 1024 = 2124 -> 2176 B (units of 128) on sm_90, and 1100 -> 1280 B (units of 256,
// no reservation) on sm_60; sm_60 has 2 register sub-partitions.
TEST(DeviceProfile, FromProperties_P100_OlderAllocationUnits) {
  const DeviceProfile p = profileFromProperties(p100Properties());
  EXPECT_EQ(p.registerPartitions, 2);
  EXPECT_EQ(p.sharedAllocationUnit, 256);
  EXPECT_EQ(p.sharedPerBlock, 49152);
  const KernelResources k{128, 1100, 32, "test"};
  EXPECT_EQ(computeOccupancy(p, k).sharedBytesPerBlock, 1280);
  EXPECT_EQ(computeOccupancy(profileFromProperties(h100Properties()), k).sharedBytesPerBlock, 2176);
  // 65536 / 1280 = 51 blocks by shared memory; 32 block slots win.
  EXPECT_EQ(computeOccupancy(p, k).blocksBySharedMemory, 51);
  EXPECT_EQ(computeOccupancy(p, k).blocksPerSm, 16);  // 64 warp slots / 4 warps per block
  // Over the 48 KB a block may use without opt-in on this device: cannot run.
  EXPECT_EQ(computeOccupancy(p, KernelResources{128, 49153, 32, "test"}).blocksPerSm, 0);
}

// Measured ceilings replace none: the H100 figures recorded in bench/results/2026-11-21-h100 (copy
// 2951 GB/s, 66.9 TFLOP/s) put the tiled kernel's 4 OP/B at 2951 x 4 = 11804 GFLOPS, memory
// bound (the ridge is at 66900 / 2951 = 22.7 OP/B).
TEST(DeviceProfile, WithMeasuredCeilings_Roofline) {
  const DeviceProfile d = withMeasuredCeilings(profileFromProperties(h100Properties()), 2951.0, 66900.0,
                                               "132 SMs x 1980 MHz x 128 FP32 lanes x 2 FLOP/FMA = 66.9 TFLOP/s");
  EXPECT_EQ(d.bandwidthGBs, 2951.0);
  EXPECT_EQ(d.peakGflops, 66900.0);
  EXPECT_EQ(d.ceilingsSource,
            "measured: device-to-device copy 2951 GB/s; FP32 peak 132 SMs x 1980 MHz x 128 FP32 lanes x 2 FLOP/FMA = "
            "66.9 TFLOP/s");
  EXPECT_NEAR(ridgeIntensity(d), 22.67, 0.01);
  const RooflinePoint tiled = rooflinePoint(d, "tiled", 4.0);
  EXPECT_DOUBLE_EQ(tiled.attainableGflops, 11804.0);
  EXPECT_TRUE(tiled.memoryBound);
  EXPECT_FALSE(rooflinePoint(d, "far right", 64.0).memoryBound);
}

}  // namespace
}  // namespace tilescope
