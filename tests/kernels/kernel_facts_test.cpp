// What each kernel file's hand-counted facts promise, held on a machine without a GPU: the
// occupancy model's threads and shared bytes for every launch of the GPU resource test equal
// the file's hand count, and the file counts the launches the GPU build has of it (the GPU
// test, tests/gpu/kernel_resources_gpu_test.cpp, then holds the device to the same counts).
#include <gtest/gtest.h>

#include <string>

#include "core/run/kernel_resources.h"
#include "gpu/gpu_test_launches.h"
#include "kernels/kernel_facts.h"

namespace tilescope {
namespace {

TEST(KernelFacts, HandCountedResourcesEqualTheModelForEveryResourceTestLaunch) {
  int compared = 0;
  for (const KernelInfo& info : kKernels)
    for (const LaunchConfig& c : testing::resourceTestLaunches(info)) {
      auto plan = planLaunch(c, false);
      if (!plan) continue;
      SCOPED_TRACE(describe(c));
      const HandResources hand = kernelHandResources(plan->launch);
      const KernelResources model = kernelResources(plan->launch);
      EXPECT_EQ(model.threadsPerBlock, hand.threads);
      EXPECT_EQ(model.sharedBytesPerBlock, hand.staticSharedBytes + hand.dynamicSharedBytes);
      ++compared;
    }
  EXPECT_GT(compared, 100);
}

// A compile-time width the GPU build lacks (GpuTileWidths, kernels/kernel_facts.h) is the only
// launch of the resource test it does not have.
TEST(KernelFacts, EachFileCountsTheResourceLaunchesTheGpuBuildHas) {
  for (const KernelInfo& info : kKernels) {
    SCOPED_TRACE(std::string(info.name));
    int built = 0;
    for (const LaunchConfig& c : testing::resourceTestLaunches(info))
      if (planLaunch(c, false) && (!info.tileIsCompileTime || containsTileWidth(GpuTileWidths{}, c.tile))) ++built;
    EXPECT_EQ(built, info.gpuResourceLaunches);
  }
}

// What the facts name by kernel must be kernels of the list, and their launches launches it takes.
TEST(KernelFacts, TestLaunchesAndNsightLaunchesPlan) {
  for (const KernelInfo& info : kKernels) {
    SCOPED_TRACE(std::string(info.name));
    for (const GpuTestLaunch& g : info.gpuTestLaunches)
      if (g.j > 0) {
        EXPECT_LT(std::size_t(g.tiling), kernelTilings(info.id).size());
      }
    for (const NcuLaunch& n : info.ncuLaunches) {
      if (n.j == 0) break;
      LaunchConfig c;
      c.kernel = info.id;
      c.dims = {n.j, n.k, n.l};
      c.tile = n.tile;
      c.blockX = n.blockX;
      c.blockY = n.blockY;
      c.pad = n.pad;
      EXPECT_TRUE(planLaunch(c, true).ok()) << describe(c);
    }
  }
}

}  // namespace
}  // namespace tilescope
