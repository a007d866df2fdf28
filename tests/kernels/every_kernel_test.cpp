// Every correct kernel of the list verifies on the emulator, at shapes that are not multiples
// of its tiles (tests/correct_kernel_shapes.h derives them from the kernel's facts), plain and
// traced, with P poisoned before the launch so an element left unwritten fails.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "correct_kernel_shapes.h"
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
                           "regtile-1d", "regtile-2d", "vectorized", "warptile", "double-buffered"})
    EXPECT_TRUE(tested.count(name)) << name << " is not among the correct kernels tested";
  for (const char* name : {"tiled-no-first-sync", "tiled-no-second-sync", "bug-k-typo", "bug-sync-in-k"})
    EXPECT_FALSE(tested.count(name)) << name << " is a race or a bug, not a correct kernel";
}

}  // namespace
}  // namespace tilescope
