// The one door to a launch (core/run/launch_door.h): a kernel with no schedule of its own is
// planned as asked and needs no device; one whose facts choose (rung 9) gets its choice where the
// caller left tiling and grid to it, keeps a hand-set grid while still saying what it would have
// chosen; a size too large to run here is planned all the same, with the reason.
#include <gtest/gtest.h>

#include "core/run/launch_door.h"

namespace tilescope {
namespace {

const DeviceProfile& h100() {
  static const DeviceProfile p = *profileByName("h100");
  return p;
}

TEST(LaunchDoor, AKernelWithNoScheduleIsPlannedAsAsked) {
  LaunchConfig c;  // tiled 4x4x4 T=2: fig. 5.7's 2 x 2 grid of 2 x 2 blocks
  EXPECT_FALSE(needsDevice(c));
  auto p = planLaunchOn(c, h100());
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p->kernelChoice.has_value());
  EXPECT_EQ(p->config, c);
  EXPECT_EQ(p->plan.launch.gridX, 2u);
  EXPECT_EQ(p->plan.launch.blockX, 2u);
  EXPECT_EQ(p->refusedHere, "");
}

TEST(LaunchDoor, AKernelsOwnChoiceWhereTheCallerLeftItToTheKernel) {
  LaunchConfig c;
  c.kernel = KernelId::StreamK;
  c.dims = {1024, 1024, 1024};
  EXPECT_TRUE(needsDevice(c));
  auto p = planLaunchOn(c, h100(), RunPlace{kMaxTraceEvents, true});
  ASSERT_TRUE(p.ok());
  ASSERT_TRUE(p->kernelChoice.has_value());
  EXPECT_TRUE(p->followsKernelChoice);
  // 32 tiles of 128 x 256 split 4 ways: 128 blocks (kernels/ladder/stream_k.cuh, rule 3).
  EXPECT_EQ(p->config.persistentBlocks, 128);
  EXPECT_EQ(p->plan.launch.gridX, 128u);
  // 1024^3 = 2^30 multiply-adds, over the emulator's 2^28: planned, and said.
  EXPECT_NE(p->refusedHere.find("over the emulator's limit"), std::string::npos) << p->refusedHere;
  // A grid set by hand wins; the kernel's choice is still told.
  c.persistentBlocks = 7;
  EXPECT_FALSE(needsDevice(c));
  p = planLaunchOn(c, h100());
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->config.persistentBlocks, 7);
  EXPECT_FALSE(p->followsKernelChoice);
  EXPECT_EQ(p->kernelChoice->persistentBlocks, 128u);
}

TEST(LaunchDoor, AnInvalidLaunchIsRefusedWithItsReason) {
  LaunchConfig c;
  c.tile = 33;
  auto p = planLaunchOn(c, h100());
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("tile width 33"), std::string::npos);
}

}  // namespace
}  // namespace tilescope
