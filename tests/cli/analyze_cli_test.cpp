// tilescope-cli analyze as a user runs it: the JSON keys, the numbers of one hand-checked
// config, the racing kernel's hazards and the --profile error.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.h"

namespace {

using tilescope::testing::CliResult;
using tilescope::testing::runCli;

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(AnalyzeCli, Tiled_T16_size64_JsonKeysAndValues) {
  const CliResult r = runCli("analyze --backend emu --kernel tiled --size 64 --tile 16 --json --profile a100");
  ASSERT_EQ(r.exitCode, 0) << r.all();
  for (const char* key : {"global_load_requests", "global_load_sectors", "global_store_requests",
                          "global_store_sectors", "shared_load_requests", "shared_load_wavefronts",
                          "shared_bank_conflicts", "hazards", "flops", "global_bytes", "intensity", "occupancy",
                          "blocks_per_sm", "threads_per_sm", "limiter", "profile"})
    EXPECT_TRUE(has(r.all(), std::string("\"") + key + "\":")) << key << " missing in " << r.all();
  // 16 blocks x 4 phases x 8 warps x 2 loads, 4 sectors each; 8 blocks of 256 on an A100.
  EXPECT_TRUE(has(r.all(), "\"global_load_requests\":1024")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"global_load_sectors\":4096")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"shared_bank_conflicts\":0")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"hazards\":[]")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"flops\":524288")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"intensity\":4")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"blocks_per_sm\":8")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"profile\":\"a100\"")) << r.all();
}

TEST(AnalyzeCli, NoFirstSync_ReportsReadAfterWriteAndWrongP) {
  const CliResult r = runCli("analyze --backend emu --kernel tiled-no-first-sync --size 32 --tile 16 --json");
  ASSERT_EQ(r.exitCode, 0) << r.all();
  EXPECT_TRUE(has(r.all(), "\"type\":\"RAW\"")) << r.all();
  EXPECT_FALSE(has(r.all(), "\"type\":\"WAR\"")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"verified\":false")) << r.all();
}

TEST(AnalyzeCli, UnknownProfile_Exit2ListsNames) {
  const CliResult r = runCli("analyze --backend emu --profile v100");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(has(r.all(), "textbook, a100, h100, device (the GPU's own), auto")) << r.all();
}

// On the emulator nothing is compiled for a GPU: the default profile (auto) is h100, the GPU
// of the recorded timings, and the registers are the profile's estimate; both say so.
TEST(AnalyzeCli, Emulator_DefaultProfileAndEstimatedRegisters_SaySo) {
  const CliResult r = runCli("analyze --backend emu --kernel tiled --size 32 --tile 16 --json");
  ASSERT_EQ(r.exitCode, 0) << r.all();
  EXPECT_TRUE(has(r.all(), "\"profile\":\"h100\"")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"profile_label\":\"NVIDIA H100 SXM5 (sm_90)")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"registers_per_thread\":32")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"registers_source\":\"profile estimate: ptxas")) << r.all();
  EXPECT_TRUE(has(r.all(), "\"source\":\"NVIDIA H100 datasheet, SXM5 column")) << r.all();
}

// --registers wins over every other source; the text names the profile on its first line.
TEST(AnalyzeCli, RegistersFlag_OverridesAndIsNamed) {
  const CliResult r = runCli("analyze --backend emu --kernel tiled --size 32 --tile 16 --profile h100 --registers 40");
  ASSERT_EQ(r.exitCode, 0) << r.all();
  EXPECT_TRUE(has(r.all(), "profile h100: NVIDIA H100 SXM5 (sm_90)")) << r.all();
  EXPECT_TRUE(has(r.all(), "40 registers/thread (--registers)")) << r.all();
  // 40 x 32 = 1280 per warp, 16384 / 1280 = 12 warps per partition, 48 warps / 8 = 6 blocks.
  EXPECT_TRUE(has(r.all(), "occupancy on h100: 6 blocks/SM, 1536 threads/SM, 75.0%, limited by registers")) << r.all();
}

// --profile device needs a GPU: without one it is refused (exit 2) and says why; with one
// (the emulated run takes the CUDA backend's profile) it names the device profile.
TEST(AnalyzeCli, DeviceProfile_NeedsAGpu) {
  const CliResult r = runCli("analyze --backend emu --kernel tiled --size 32 --tile 16 --profile device --json");
  if (r.exitCode == 0) {
    EXPECT_TRUE(has(r.all(), "\"profile\":\"device\"")) << r.all();
    EXPECT_TRUE(has(r.all(), "\"source\":\"measured: device-to-device copy")) << r.all();
  } else {
    EXPECT_EQ(r.exitCode, 2) << r.all();
    EXPECT_TRUE(has(r.all(), "--profile device needs a GPU")) << r.all();
  }
}

TEST(AnalyzeCli, TextbookProfile_RegistersFlag_TheCliff) {
  const CliResult r = runCli("analyze --backend emu --kernel tiled --size 32 --tile 16 --profile textbook --registers 12");
  ASSERT_EQ(r.exitCode, 0) << r.all();
  EXPECT_TRUE(has(r.all(), "5 blocks/SM, 1280 threads/SM")) << r.all();
  EXPECT_TRUE(has(r.all(), "limited by registers")) << r.all();
}

}  // namespace
