// Where a timed kernel sits on the roofline (app/core/timing/roofline.h). The intensities are the
// chapter's (ch. 5.1-5.4): the naive kernel does 2 FLOPs per 8 loaded bytes, 0.25 OP/B, for
// any block shape; fig. 5.9 loads each element once per T threads that use it, T/4 OP/B. The
// roofs are the chapter's A100 (1555 GB/s, 19,500 GFLOPS): 389 GFLOPS at 0.25 OP/B.
#include <gtest/gtest.h>

#include "core/timing/roofline.h"

namespace tilescope {
namespace {

LaunchConfig config(KernelId id, int tile, int bx = 16, int by = 16) {
  LaunchConfig c;
  c.kernel = id;
  c.tile = tile;
  c.blockX = bx;
  c.blockY = by;
  c.dims = {4096, 4096, 4096};  // as timed: far beyond a trace; the intensity is traced smaller
  return c;
}

TEST(TracedIntensity, NaiveIsAQuarterOpPerByteForEveryBlockShape) {
  for (auto [bx, by] : {std::pair{16, 16}, {32, 32}, {32, 8}, {64, 4}, {16, 64}}) {
    auto k = tracedIntensity(config(KernelId::Naive, 0, bx, by));
    ASSERT_TRUE(k.ok()) << k.error().message;
    EXPECT_DOUBLE_EQ(k->intensity, 0.25) << bx << "x" << by << " traced as " << describe(k->traced);
  }
}

TEST(TracedIntensity, Fig59IsTOverFour) {
  for (int t : {2, 4, 8, 16, 32}) {
    auto k = tracedIntensity(config(KernelId::Tiled, t));
    ASSERT_TRUE(k.ok()) << k.error().message;
    EXPECT_DOUBLE_EQ(k->intensity, t / 4.0) << "T = " << t << " traced as " << describe(k->traced);
    // Whole tiles: a multiple of T in every dimension, so fig. 5.9 verifies.
    EXPECT_EQ(k->traced.dims.j % t, 0);
    EXPECT_EQ(k->traced.dims.k % t, 0);
    EXPECT_EQ(k->traced.dims.l % t, 0);
  }
  auto bounds = tracedIntensity(config(KernelId::TiledBounds, 16));
  ASSERT_TRUE(bounds.ok());
  EXPECT_DOUBLE_EQ(bounds->intensity, 4.0);
  auto dynamic = tracedIntensity(config(KernelId::TiledDynamic, 12));
  ASSERT_TRUE(dynamic.ok()) << dynamic.error().message;
  EXPECT_DOUBLE_EQ(dynamic->intensity, 3.0);
}

TEST(TracedIntensity, CacheAnswersOncePerLaunch) {
  IntensityCache cache;
  auto a = cache.get(config(KernelId::Tiled, 8));
  LaunchConfig other = config(KernelId::Tiled, 8);
  other.dims = {256, 256, 256};  // another size of the same launch: the same answer
  auto b = cache.get(other);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_DOUBLE_EQ(a->intensity, 2.0);
  EXPECT_EQ(a->traced, b->traced);
}

DeviceProfile a100() {
  auto p = profileByName("a100");
  EXPECT_TRUE(p.ok());
  return *p;
}

TEST(RooflinePlacement, ChaptersA100) {
  const DeviceProfile d = a100();
  ASSERT_DOUBLE_EQ(d.bandwidthGBs, 1555.0);
  ASSERT_DOUBLE_EQ(d.peakGflops, 19500.0);
  const RooflinePlacement naive = placeOnRoofline(d, 0.25, 300.0);
  EXPECT_TRUE(naive.memoryBound);
  EXPECT_DOUBLE_EQ(naive.roofGflops, 388.75);  // 1555 x 0.25
  EXPECT_NEAR(naive.fractionOfRoof, 300.0 / 388.75, 1e-12);
  EXPECT_NEAR(naive.ridge, 19500.0 / 1555.0, 1e-12);
  const RooflinePlacement tiled = placeOnRoofline(d, 4.0, 5000.0);
  EXPECT_TRUE(tiled.memoryBound);
  EXPECT_DOUBLE_EQ(tiled.roofGflops, 6220.0);  // the chapter's 6220 GFLOPS at 4 OP/B
  const RooflinePlacement far = placeOnRoofline(d, 32.0, 15600.0);
  EXPECT_FALSE(far.memoryBound);
  EXPECT_DOUBLE_EQ(far.roofGflops, 19500.0);
  EXPECT_NEAR(far.fractionOfRoof, 0.8, 1e-12);
}

TEST(RooflinePlacement, ExplanationNamesTheBoundAndTheDistance) {
  const DeviceProfile d = a100();
  const std::string mem = explainPlacement(d, placeOnRoofline(d, 4.0, 3110.0));
  EXPECT_NE(mem.find("Memory-bound"), std::string::npos) << mem;
  EXPECT_NE(mem.find("6220 GFLOP/s"), std::string::npos) << mem;
  EXPECT_NE(mem.find("50 % of that roof"), std::string::npos) << mem;
  const std::string compute = explainPlacement(d, placeOnRoofline(d, 32.0, 15600.0));
  EXPECT_NE(compute.find("Compute-bound"), std::string::npos) << compute;
  EXPECT_NE(compute.find("80 % of that roof"), std::string::npos) << compute;
  // Above the DRAM roof (the naive kernel on a GPU whose caches serve its re-reads).
  const std::string above = explainPlacement(d, placeOnRoofline(d, 0.25, 777.5));
  EXPECT_NE(above.find("Above the memory roof"), std::string::npos) << above;
  EXPECT_NE(above.find("2.0x"), std::string::npos) << above;
}

TEST(RooflinePlacement, MeasuredCeilingsMakeAProfile) {
  const DeviceProfile d = profileFromCeilings("Some GPU", 2000.0, 50000.0, "by hand");
  EXPECT_DOUBLE_EQ(ridgeIntensity(d), 25.0);
  EXPECT_EQ(d.label, "Some GPU");
}

}  // namespace
}  // namespace tilescope
