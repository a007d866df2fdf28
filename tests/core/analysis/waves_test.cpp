// Waves: the grid dealt onto the SMs, held to hand counts (issue 28's figures) and to a real
// traced run's grid on the H100 profile.
#include <gtest/gtest.h>

#include "analysis_support.h"
#include "core/analysis/analysis.h"
#include "core/run/waves.h"
#include "core/run/launch_waves.h"

namespace tilescope {
namespace {

// Rung 8 at N = 1024 with its 128 x 256 tiles: 1024/128 x 1024/256 = 8 x 4 = 32 blocks, one
// block per SM (its pipeline's shared memory), 132 SMs: one wave, 32/132 = 24 % busy, the
// other 100 SMs idle for the whole run.
TEST(Waves, Rung8At1024_OneWave_100SmsIdle) {
  const Waves w = dealBlocks(32, 132, 1);
  EXPECT_EQ(w.slotsPerWave, 132);
  EXPECT_EQ(w.waveCount(), 1);
  EXPECT_EQ(w.wholeWaves, 0);
  EXPECT_EQ(w.lastWaveBlocks, 32);
  EXPECT_NEAR(w.lastWaveBusy, 32.0 / 132.0, 1e-12);
  EXPECT_EQ(w.idleSmsInLastWave, 100);
  EXPECT_NE(describeWaves(w).find("one partial wave, 24 % busy, 100 SMs idle for the whole run"), std::string::npos) << describeWaves(w);
}

// N = 4096: 32 x 16 = 512 blocks = 3 x 132 + 116: 3.88 waves, the fourth 116/132 = 88 % busy.
TEST(Waves, Rung8At4096_3Point88Waves) {
  const Waves w = dealBlocks(512, 132, 1);
  EXPECT_NEAR(w.waves, 3.8788, 1e-4);
  EXPECT_EQ(w.waveCount(), 4);
  EXPECT_EQ(w.wholeWaves, 3);
  EXPECT_EQ(w.lastWaveBlocks, 116);
  EXPECT_EQ(w.idleSmsInLastWave, 16);
  EXPECT_EQ(w.waveOf(511), 3);
  EXPECT_EQ(w.smOf(511), 115);
  EXPECT_NE(describeWaves(w).find("3.88 waves, 4 in all; the last 88 % busy, 16 SMs idle in it"), std::string::npos) << describeWaves(w);
}

// Two blocks per SM: a wave has 264 slots; 300 blocks leave 36 in the second wave, on 36 SMs.
TEST(Waves, TwoBlocksPerSm_SlotsPerWaveDouble) {
  const Waves w = dealBlocks(300, 132, 2);
  EXPECT_EQ(w.slotsPerWave, 264);
  EXPECT_EQ(w.waveCount(), 2);
  EXPECT_EQ(w.lastWaveBlocks, 36);
  EXPECT_EQ(w.idleSmsInLastWave, 96);
}

// Exactly full waves: the last wave is a whole one, nothing idle.
TEST(Waves, ExactMultiple_LastWaveFull) {
  const Waves w = dealBlocks(264, 132, 1);
  EXPECT_EQ(w.waveCount(), 2);
  EXPECT_EQ(w.lastWaveBlocks, 132);
  EXPECT_DOUBLE_EQ(w.lastWaveBusy, 1.0);
  EXPECT_EQ(w.idleSmsInLastWave, 0);
}

// A block that does not fit runs in no wave, and says so instead of dividing by zero.
// The words count in the singular where there is one (a teaching profile of one SM).
TEST(Waves, OneSmIsNamedInTheSingular) {
  EXPECT_EQ(describeWaves(dealBlocks(4, 1, 1)).rfind("4 blocks on 1 SM at 1 block per SM (1 per wave): ", 0), 0u)
      << describeWaves(dealBlocks(4, 1, 1));
  EXPECT_EQ(describeWaves(dealBlocks(1, 1, 0)).rfind("1 block on 1 SM: ", 0), 0u) << describeWaves(dealBlocks(1, 1, 0));
}

// Under 1 % busy says its tenth: 2 blocks of 132 x 8 = 1056 slots are 0.19 %, not "0 % busy".
TEST(Waves, UnderOnePercentBusyIsNotZero) {
  EXPECT_NE(describeWaves(dealBlocks(2, 132, 8)).find("one partial wave, 0.2 % busy, 130 SMs idle"), std::string::npos)
      << describeWaves(dealBlocks(2, 132, 8));
}

TEST(Waves, BlockDoesNotFit_NoWave) {
  const Waves w = dealBlocks(16, 132, 0);
  EXPECT_EQ(w.waveCount(), 0);
  EXPECT_NE(describeWaves(w).find("does not fit"), std::string::npos);
}

// A traced run's analysis deals its own grid: tiled 64 x 64 x 64 at T = 16 is 4 x 4 = 16
// blocks, far less than one wave of the H100's 132 SMs.
TEST(Waves, AnalysisOfTiled64_Deals16BlocksOn132Sms) {
  const tilescope::Run run = analysis_testing::traced(analysis_testing::config(KernelId::Tiled, {64, 64, 64}, 16));
  auto h100 = profileByName("h100");
  ASSERT_TRUE(h100.ok());
  const AnalysisReport r = analyzeTrace(*run.trace, *h100);
  EXPECT_EQ(r.waves.blocks, 16);
  EXPECT_EQ(r.waves.smCount, 132);
  EXPECT_EQ(r.waves.blocksPerSm, r.occupancy.blocksPerSm);
  EXPECT_EQ(r.waves.waveCount(), 1);
  EXPECT_EQ(r.waves.idleSmsInLastWave, 116);
}

// The plan of a launch that is not run (core/run/launch_waves.h), on the H100 profile (132 SMs)
// at the H100 tiling 128 x 256 x 32, whose ring (4 stages of 128 x 32 + 32 x 256 floats, 192 KiB,
// plus 1 KiB of alignment) lets one block onto an SM.
LaunchWaves planned(KernelId kernel, int n) {
  LaunchConfig c;
  c.kernel = kernel;
  c.dims = {n, n, n};
  auto h100 = profileByName("h100");
  EXPECT_TRUE(h100.ok());
  auto plan = planLaunchWaves(c, *h100);
  EXPECT_TRUE(plan.ok()) << plan.error().message;
  return *plan;
}

// Rung 8 at 1024: 1024/128 x 1024/256 = 8 x 4 = 32 blocks on 132 SMs, one wave 32/132 = 24 %.
TEST(WavesPlan, Rung8At1024_32Blocks_OneWave_24Percent) {
  const LaunchWaves p = planned(KernelId::TmaPipeline, 1024);
  EXPECT_EQ(p.occupancy.blocksPerSm, 1);
  EXPECT_EQ(p.waves.blocks, 32);
  EXPECT_EQ(p.waves.waveCount(), 1);
  EXPECT_EQ(p.waves.idleSmsInLastWave, 100);
  EXPECT_NE(describeWaves(p.waves).find("one partial wave, 24 % busy, 100 SMs idle"), std::string::npos);
  EXPECT_FALSE(p.planned.kernelChoice.has_value());
}

// Rung 9 at 1024: the selector splits each of the 32 tiles 132 / 32 = 4 ways (32 k-steps, 8 a
// block): 128 blocks, 128/132 = 97 % of one wave, 4 SMs idle.
TEST(WavesPlan, Rung9At1024_Selector128Blocks_97Percent) {
  const LaunchWaves p = planned(KernelId::StreamK, 1024);
  ASSERT_TRUE(p.planned.kernelChoice.has_value());
  EXPECT_EQ(p.planned.config.persistentBlocks, 128);
  EXPECT_EQ(p.waves.blocks, 128);
  EXPECT_EQ(p.waves.waveCount(), 1);
  EXPECT_EQ(p.waves.idleSmsInLastWave, 4);
  EXPECT_NE(describeWaves(p.waves).find("one partial wave, 97 % busy, 4 SMs idle"), std::string::npos);
  EXPECT_NE(p.planned.kernelChoice->reason.find("4 to a tile"), std::string::npos) << p.planned.kernelChoice->reason;
}

// 8192: 64 x 32 = 2048 tiles = 15 x 132 + 68: 15.52 waves, the 16th 68/132 = 52 % busy; rung 9's
// selector keeps one block per tile there (97 % of 16 waves busy on average).
TEST(WavesPlan, Rung8And9At8192_2048Blocks_15Point52Waves) {
  for (KernelId k : {KernelId::TmaPipeline, KernelId::StreamK}) {
    const LaunchWaves p = planned(k, 8192);
    EXPECT_EQ(p.waves.blocks, 2048);
    EXPECT_EQ(p.waves.waveCount(), 16);
    EXPECT_EQ(p.waves.lastWaveBlocks, 68);
    EXPECT_NE(describeWaves(p.waves).find("15.52 waves, 16 in all; the last 52 % busy, 64 SMs idle in it"),
              std::string::npos) << describeWaves(p.waves);
  }
  EXPECT_EQ(planned(KernelId::StreamK, 8192).planned.config.persistentBlocks, 0);
}

// Why a size is not run, in words: 1024^3 = 2^30 multiply-adds against the emulator's 2^28; a
// small size is no refusal; the trace cap alone on a GPU (no multiply-add limit there).
TEST(WavesPlan, SizeRefusalSaysWhy) {
  LaunchConfig c;
  c.kernel = KernelId::TmaPipeline;
  c.dims = {1024, 1024, 1024};
  const std::string emulator = sizeRefusal(c, kMaxTraceEvents, true);
  EXPECT_NE(emulator.find("1024^3 = 1 Gi multiply-adds is over the emulator's limit of 256 Mi"), std::string::npos) << emulator;
  EXPECT_EQ(sizeRefusal(c, kMaxTraceEvents, false).find("multiply-adds"), std::string::npos);
  EXPECT_NE(sizeRefusal(c, 1000, false).find("its trace would hold"), std::string::npos);
  c.dims = {64, 64, 64};
  EXPECT_EQ(sizeRefusal(c, kMaxTraceEvents, true), "");
}

}  // namespace
}  // namespace tilescope
