// Every correct kernel of the list verifies on the GPU (label gpu), at the emulator's shapes and
// at larger ones over several blocks of the ladder's H100 tilings (tests/correct_kernel_shapes.h),
// each against the double-precision reference on fresh inputs with P poisoned first. The verdict
// is the GPU's own: this does not compare the GPU with the emulator (gpu_equals_emulator_test
// does), so a kernel wrong on both fails here.
#include <gtest/gtest.h>

#include "correct_kernel_shapes.h"
#include "gpu_support.h"
#include "test_support.h"

namespace tilescope {
namespace {

class EveryCorrectKernelOnTheGpu : public ::testing::TestWithParam<testing::KernelShape> {};

TEST_P(EveryCorrectKernelOnTheGpu, Verifies) {
  REQUIRE_CUDA_BACKEND(cuda);
  LaunchConfig config = GetParam().config;
  config.seed = testing::freshSeed();
  auto plan = planLaunch(config, false);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  if (auto s = cuda->supports(*plan); !s) GTEST_SKIP() << s.error().message;
  auto run = executeRun(*cuda, config, false);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_TRUE(run->verification.passed) << describe(config) << ": " << run->verification.summary();
  EXPECT_EQ(run->verification.checked, long(config.dims.j) * config.dims.l);
}

INSTANTIATE_TEST_SUITE_P(KernelList, EveryCorrectKernelOnTheGpu, ::testing::ValuesIn(testing::correctKernelShapes(true)),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace tilescope
