// The occupancy model against the CUDA runtime, for every kernel and tile width the GPU
// build has: registers and static shared memory come from cudaFuncGetAttributes, the SM's
// limits from cudaGetDeviceProperties, and the answer must equal
// cudaOccupancyMaxActiveBlocksPerMultiprocessor. Label `gpu`: SKIPPED without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include "core/analysis/occupancy.h"
#include "kernels/launch.h"

namespace tilescope {
namespace {

// An Exec for launchKernel that launches nothing: it asks the runtime about the kernel
// that would have been launched.
struct OccupancyExec {
  using Dim = dim3;
  template <class T>
  using Ptr = T*;

  template <class... Params, class... Args>
  void launch(void (*kernel)(Params...), Dim, Dim block, std::size_t sharedBytes, Args...) {
    cudaFuncAttributes attr{};
    error = cudaFuncGetAttributes(&attr, kernel);
    if (error != cudaSuccess) return;
    resources.threadsPerBlock = int(block.x * block.y);
    resources.sharedBytesPerBlock = int(attr.sharedSizeBytes + sharedBytes);
    resources.registersPerThread = attr.numRegs;
    resources.registersSource = "cudaFuncGetAttributes";
    error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&runtimeBlocks, kernel, int(block.x * block.y),
                                                          sharedBytes);
  }

  cudaError_t error = cudaSuccess;
  KernelResources resources;
  int runtimeBlocks = -1;
};

DeviceProfile profileOf(const cudaDeviceProp& p) {
  DeviceProfile d;
  d.name = "device";
  d.label = p.name;
  d.smCount = p.multiProcessorCount;
  d.maxThreadsPerSm = p.maxThreadsPerMultiProcessor;
  d.maxBlocksPerSm = p.maxBlocksPerMultiProcessor;
  d.maxThreadsPerBlock = p.maxThreadsPerBlock;
  d.registersPerSm = p.regsPerMultiprocessor;
  d.registersPerBlock = p.regsPerBlock;
  d.maxRegistersPerThread = 255;
  d.registerAllocationUnit = 256;  // every architecture since Kepler (cuda_occupancy.h)
  d.registerPartitions = 4;
  d.sharedPerSm = int(p.sharedMemPerMultiprocessor);
  d.sharedPerBlock = int(p.sharedMemPerBlockOptin);
  d.sharedAllocationUnit = p.major >= 8 ? 128 : 256;
  d.reservedSharedPerBlock = int(p.reservedSharedMemPerBlock);
  return d;
}

TEST(OccupancyGpu, ModelEqualsCudaOccupancyApi_EveryKernelAndTile) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) GTEST_SKIP() << "no CUDA device";
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  const DeviceProfile device = profileOf(prop);
  int compared = 0;
  for (const KernelInfo& info : kKernels) {
    std::vector<std::pair<int, int>> shapes;  // (bx, by); tiled kernels use T x T
    if (info.tiled) {
      for (int t : {1, 2, 3, 4, 8, 12, 16, 24, 32}) shapes.push_back({t, t});
    } else {
      for (auto s : {std::pair{16, 16}, {32, 8}, {64, 4}, {32, 32}, {7, 3}}) shapes.push_back(s);
    }
    for (auto [bx, by] : shapes) {
      KernelLaunch L;
      L.kernel = info.id;
      L.j = L.k = L.l = 64;
      L.tile = info.tiled ? bx : 0;
      L.blockX = unsigned(bx);
      L.blockY = unsigned(by);
      // Dynamic shared memory as planLaunch asks for it: two tiles (tile-rect: bh x TK + TK x bw).
      const int tk = bx < by ? bx : by;
      if (info.id == KernelId::TiledDynamic || info.id == KernelId::TiledTransposed)
        L.dynamicSharedFloats = unsigned(2 * bx * bx);
      else if (!info.tiled && info.id != KernelId::Naive)
        L.dynamicSharedFloats = unsigned(by * tk + tk * bx);
      OccupancyExec exec;
      if (!launchKernel<GpuTileWidths>(exec, L, nullptr, nullptr, nullptr, NoProbe{})) continue;  // not built
      ASSERT_EQ(exec.error, cudaSuccess) << info.name << " " << bx << "x" << by;
      const Occupancy o = computeOccupancy(device, exec.resources);
      EXPECT_EQ(o.blocksPerSm, exec.runtimeBlocks)
          << info.name << " block " << bx << "x" << by << ": " << exec.resources.registersPerThread << " regs, "
          << exec.resources.sharedBytesPerBlock << " B shared";
      ++compared;
    }
  }
  EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace tilescope
