// Every correct kernel of the list verifies on the emulator, at shapes that are not multiples
// of its tiles (tests/correct_kernel_shapes.h derives them from the kernel's facts), plain and
// traced, with P poisoned before the launch so an element left unwritten fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "correct_kernel_shapes.h"
#include "gpu/gpu_test_launches.h"
#include "test_support.h"

namespace tilescope {
namespace {

class EveryCorrectKernel : public ::testing::TestWithParam<testing::KernelShape> {};

TEST_P(EveryCorrectKernel, VerifiesOnTheEmulator) {
  LaunchConfig config = GetParam().config;
  config.seed = testing::freshSeed();
  for (bool traced : {false, true}) {
    SCOPED_TRACE(traced ? "traced" : "plain");
    const tilescope::Run run = testing::runEmulated(config, traced);
    EXPECT_TRUE(run.verification.passed) << describe(config) << ": " << run.verification.summary();
    EXPECT_EQ(run.verification.checked, long(config.dims.j) * config.dims.l) << "every element must be checked";
    EXPECT_EQ(run.outcome.outOfBoundsTotal, 0u);
    EXPECT_TRUE(run.outcome.divergences.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(KernelList, EveryCorrectKernel, ::testing::ValuesIn(testing::correctKernelShapes(false)),
                         [](const auto& info) { return info.param.name; });

TEST(EveryCorrectKernel, TheListHasEveryRungAndTheChaptersKernels) {
  // Independent of the facts: the chapter's correct kernels and the ladder's rungs by name.
  std::set<std::string> tested;
  for (const auto& s : testing::correctKernelShapes(false)) tested.insert(std::string(kernelInfo(s.config.kernel).name));
  for (const char* name : {"naive", "tiled", "tiled-bounds", "tiled-dynamic", "tiled-transposed", "tiled-rect", "coarsened",
                           "regtile-1d", "regtile-2d", "vectorized", "warptile", "double-buffered", "tma-pipeline",
                           "stream-k"})
    EXPECT_TRUE(tested.count(name)) << name << " is not among the correct kernels tested";
  for (const char* name : {"tiled-no-first-sync", "tiled-no-second-sync", "bug-k-typo", "bug-sync-in-k"})
    EXPECT_FALSE(tested.count(name)) << name << " is a race or a bug, not a correct kernel";
}

// From the list alone: every correct kernel, every rung included, has a case here (the emulator)
// and in every_kernel_gpu_test (the GPU), and every kernel has launches in GPU = emulator that
// it takes, so a kernel added to the list can never be skipped silently.
TEST(EveryCorrectKernel, HasAnEmulatorCaseAndAGpuCase) {
  const auto emulated = testing::correctKernelShapes(false), onGpu = testing::correctKernelShapes(true);
  auto count = [](const std::vector<testing::KernelShape>& shapes, KernelId id) {
    return std::count_if(shapes.begin(), shapes.end(), [&](const auto& s) { return s.config.kernel == id; });
  };
  int correct = 0;
  for (const KernelInfo& k : kKernels) {
    SCOPED_TRACE(std::string(k.name));
    int planned = 0;
    for (const LaunchConfig& c : testing::gpuComparisonShapes(k, 1)) planned += planLaunch(c, true).ok() ? 1 : 0;
    EXPECT_GT(planned, 0) << "GPU = emulator would launch no shape of it";
    if (!isCorrectKernel(k)) continue;
    ++correct;
    EXPECT_GT(count(emulated, k.id), 0) << "no emulator case";
    EXPECT_GT(count(onGpu, k.id), 0) << "no GPU case";
    if (!kernelTilings(k.id).empty()) {  // its teaching tiling runs here, its H100 tiling there
      EXPECT_GT(count(onGpu, k.id), count(emulated, k.id));
    }
  }
  // At least the 14 of 2026-11-26 (book/: naive, tiled, -bounds, -dynamic, -transposed, -rect,
  // coarsened; rungs 3 to 9): a kernel added to the list needs no line here.
  EXPECT_GE(correct, 14);
}

}  // namespace
}  // namespace tilescope
