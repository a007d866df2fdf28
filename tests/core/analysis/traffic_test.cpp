// Traffic and intensity from the trace: the chapter's 0.25 OP/B for naive and T/4 OP/B
// for tiled, FLOPs = 2 j k l, and the roofline's attainable GFLOPS on the chapter's A100.
#include <gtest/gtest.h>

#include "analysis_support.h"
#include "core/analysis/traffic.h"

namespace tilescope {
namespace {

using analysis_testing::config;
using analysis_testing::traced;

Traffic trafficOf(const Run& run) { return measureTraffic(*run.trace, analyzeCoalescing(*run.trace)); }

TEST(Traffic, Naive_AnyShape_QuarterOpPerByte) {
  std::mt19937 rng(unsigned(analysis_testing::freshSeed()));
  std::uniform_int_distribution<int> dim(1, 40);
  for (int i = 0; i < 4; ++i) {
    const Dims d{dim(rng), dim(rng), dim(rng)};
    const tilescope::Run run = traced(config(KernelId::Naive, d, 0, 8, 4));
    SCOPED_TRACE(describe(run.config));
    const Traffic t = trafficOf(run);
    const uint64_t jkl = uint64_t(d.j) * d.k * d.l;
    EXPECT_EQ(t.flops, 2 * jkl);
    EXPECT_EQ(t.loadBytes, 2 * jkl * 4);  // one M and one N float per multiply-add
    EXPECT_EQ(t.storeBytes, uint64_t(d.j) * d.l * 4);
    EXPECT_DOUBLE_EQ(t.intensity(), 0.25);
  }
}

// Each element a block loads is used by T threads: 2 j k l FLOPs over 2 j k l * 4 / T bytes.
TEST(Traffic, Tiled_IntensityIsTOver4) {
  for (int t : {2, 4, 8, 16, 32}) {
    const tilescope::Run run = traced(config(KernelId::Tiled, {64, 64, 64}, t));
    SCOPED_TRACE(describe(run.config));
    const Traffic tr = trafficOf(run);
    EXPECT_EQ(tr.flops, 2ull * 64 * 64 * 64);
    EXPECT_EQ(tr.loadBytes, 2ull * 64 * 64 * 64 * 4 / uint64_t(t));
    EXPECT_DOUBLE_EQ(tr.intensity(), t / 4.0);
    EXPECT_EQ(tr.globalBytes(), tr.loadBytes + 64ull * 64 * 4);
  }
}

// Zero fills load nothing but their products are still computed (multiplied by 0).
TEST(Traffic, TiledBounds_T4_dims_5x6x7_ZeroFillsCostNoBytes) {
  const tilescope::Run run = traced(config(KernelId::TiledBounds, {5, 6, 7}, 4));
  const Traffic t = trafficOf(run);
  // Grid 2x2 blocks of 16 threads, 2 phases of 4 k steps: every thread multiplies 8 pairs.
  EXPECT_EQ(t.flops, 2ull * 64 * 8);
  // Every M element is loaded once per block column (2), every N element once per block row (2).
  EXPECT_EQ(t.loadBytes, (5ull * 6 * 2 + 6ull * 7 * 2) * 4);
  EXPECT_EQ(t.storeBytes, 5ull * 7 * 4);
}

// Chapter 5.3: at 4 OP/B an A100's 1555 GB/s feed 6220 GFLOPS, 32% of its 19,500; at
// 0.25 OP/B, 389 GFLOPS.
TEST(Traffic, Roofline_A100_ChapterFigures) {
  const DeviceProfile a100 = *profileByName("a100");
  const RooflinePoint tiled = rooflinePoint(a100, "tiled", 4.0);
  EXPECT_DOUBLE_EQ(tiled.attainableGflops, 6220.0);
  EXPECT_TRUE(tiled.memoryBound);
  EXPECT_NEAR(tiled.attainableGflops / a100.peakGflops, 0.32, 0.005);
  EXPECT_NEAR(rooflinePoint(a100, "naive", 0.25).attainableGflops, 389.0, 0.5);
  EXPECT_NEAR(ridgeIntensity(a100), 12.54, 0.01);
  EXPECT_FALSE(rooflinePoint(a100, "x", 20.0).memoryBound);
  EXPECT_DOUBLE_EQ(rooflinePoint(a100, "x", 20.0).attainableGflops, 19500.0);
}

}  // namespace
}  // namespace tilescope
