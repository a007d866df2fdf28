// Every limit is refused before anything runs, with a message that names the limit.
#include <gtest/gtest.h>

#include "core/run/launch_config.h"

namespace tilescope {
namespace {

LaunchConfig tiled(int tile, Dims dims = {16, 16, 16}) {
  LaunchConfig c;
  c.kernel = KernelId::Tiled;
  c.tile = tile;
  c.dims = dims;
  return c;
}

void expectRefused(const LaunchConfig& c, bool traced, const std::string& mustMention) {
  auto plan = planLaunch(c, traced);
  ASSERT_FALSE(plan.ok()) << describe(c);
  EXPECT_EQ(plan.error().kind, ErrorKind::InvalidInput);
  EXPECT_NE(plan.error().message.find(mustMention), std::string::npos) << plan.error().message;
}

TEST(LaunchConfigLimits, TileWidthZeroAndOver32AreRefused) {
  expectRefused(tiled(0), false, "1 to 32");
  expectRefused(tiled(33), false, "1 to 32");
  expectRefused(tiled(-4), false, "1 to 32");
}

TEST(LaunchConfigLimits, NaiveBlocksOver1024ThreadsAreRefused) {
  LaunchConfig c;
  c.kernel = KernelId::Naive;
  c.blockX = 64;
  c.blockY = 32;
  expectRefused(c, false, "1024");
  c.blockX = 0;
  c.blockY = 8;
  expectRefused(c, false, "1024");
}

TEST(LaunchConfigLimits, DimensionsOutsideOneToMaxAreRefused) {
  expectRefused(tiled(2, {0, 4, 4}), false, std::to_string(kMaxDimension));
  expectRefused(tiled(2, {4, kMaxDimension + 1, 4}), false, std::to_string(kMaxDimension));
}

TEST(LaunchConfigLimits, TracesOverTheCapAreRefusedButPlainRunsAreNot) {
  const LaunchConfig big = tiled(16, {1024, 1024, 1024});
  expectRefused(big, true, std::to_string(kMaxTraceEvents));
  EXPECT_TRUE(planLaunch(big, false).ok());
}

TEST(LaunchConfigPlan, TiledGridPhasesAndSlotsFollowTheChapter) {
  auto plan = planLaunch(tiled(2, {3, 3, 3}), true);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->launch.gridX, 2u);  // ceil(3 / 2)
  EXPECT_EQ(plan->launch.gridY, 2u);
  EXPECT_EQ(plan->phases, 2);         // fig. 5.13: ceil(Width / TILE_WIDTH)
  EXPECT_EQ(plan->threads, 16u);
  // Per phase: load M, load N, 2 barriers, T reads of each tile; then one store.
  EXPECT_EQ(plan->slotsPerThread, 2u * (4 + 2 * 2) + 1);
}

TEST(LaunchConfigPlan, NaiveGridCoversPWithTheBlockShape) {
  LaunchConfig c;
  c.kernel = KernelId::Naive;
  c.dims = {100, 37, 70};
  c.blockX = 32;
  c.blockY = 8;
  auto plan = planLaunch(c, false);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->launch.gridX, 3u);   // ceil(70 / 32) columns of P
  EXPECT_EQ(plan->launch.gridY, 13u);  // ceil(100 / 8) rows of P
  EXPECT_EQ(plan->slotsPerThread, 2u * 37 + 1);
}

}  // namespace
}  // namespace tilescope
