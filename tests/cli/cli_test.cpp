// Runs the real tilescope-cli binary and checks exit codes, messages and output.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.h"

namespace {

using tilescope::testing::CliResult;
using tilescope::testing::runCli;

TEST(CliRun, TiledBounds_T4_dims_33x17x9_VerifiesInJson) {
  const CliResult r = runCli("run --kernel tiled-bounds --dims 33,17,9 --tile 4 --json --backend emu --seed 12345");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("\"kernel\":\"tiled-bounds\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"dims\":{\"j\":33,\"k\":17,\"l\":9}"), std::string::npos);
  EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos);
  EXPECT_NE(r.out.find("\"max_rel_error\":"), std::string::npos);
  EXPECT_NE(r.out.find("\"grid\":[3,9]"), std::string::npos);
}

TEST(CliRun, Tiled_T2_dims_3x3x3_FailsVerificationWithExitCode1AndListsTheBadLoads) {
  const CliResult r = runCli("run --kernel tiled --size 3 --tile 2 --backend emu");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.out.find("FAILED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("M(0,3) by blockIdx (0,0) threadIdx (1,0) in phase 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wraps to M(1,0)"), std::string::npos);
}

TEST(CliKernels, ListsEveryKernelWithADescription) {
  const CliResult r = runCli("kernels");
  EXPECT_EQ(r.exitCode, 0);
  for (const char* name : {"naive ", "tiled ", "tiled-bounds ", "tiled-dynamic "})
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
  EXPECT_NE(r.out.find("fig. 5.9"), std::string::npos);
}

TEST(CliTrace, WritesTheTraceToAFile) {
  const std::string file = ::testing::TempDir() + "cli_test_trace.json";
  const CliResult r = runCli("trace --kernel tiled --size 4 --tile 2 --backend emu --out " + file);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  EXPECT_EQ(s.rfind("{\"kernel\":\"tiled\"", 0), 0u);
  // 16 threads x (2 phases x (2 loads + 2 barriers + 4 reads) + 1 store) = 272 events.
  std::size_t events = 0;
  for (std::size_t p = s.find("{\"op\""); p != std::string::npos; p = s.find("{\"op\"", p + 1)) ++events;
  EXPECT_EQ(events, 272u);
}

TEST(CliOut, AFailedCommandLeavesTheOutputFileAlone) {
  const std::string file = tilescope::testing::testTempPath(".txt");
  { std::ofstream(file) << "precious\n"; }
  const CliResult r = runCli("run --tile 0 --out " + file);
  EXPECT_EQ(r.exitCode, 2);
  std::stringstream kept;
  kept << std::ifstream(file).rdbuf();
  EXPECT_EQ(kept.str(), "precious\n");
  const CliResult ok = runCli("kernels --out " + file);
  ASSERT_EQ(ok.exitCode, 0) << ok.err;
  std::stringstream written;
  written << std::ifstream(file).rdbuf();
  EXPECT_NE(written.str().find("tiled-bounds"), std::string::npos);
}

// Rung 9 left to its selector: the tiling and grid it picked, and why, in one line (the h100
// profile on the emulator). 64 x 64 x 64: 1 tile of 128 x 256 (1 % of a wave), 2 k-steps: too
// few to share in runs of 4, one block per tile.
TEST(CliRun, StreamKSaysWhatItsSelectorPickedAndWhy) {
  const CliResult r = runCli("run --kernel stream-k --dims 64,64,64 --backend emu");
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("selector (132 SMs, h100): 128x256x32/64x64/8x16, data-parallel (one block per tile): "
                       "1 tile fills 1 % of one wave of 132, but 2 k-iterations are too few to share in runs of 4"),
            std::string::npos)
      << r.out;
}

// The size sweep needs a GPU: without one it says so and exits 2 (on a GPU machine it runs).
TEST(CliBench, SizesPresetRefusesCleanlyWithoutAGpu) {
  const CliResult r = runCli("bench --preset sizes");
  if (r.exitCode != 2) GTEST_SKIP() << "a GPU is here: the sweep ran";
  // Built without CUDA it says so; built with CUDA on a machine with no GPU (CI) it says that.
  const bool namesWhatIsMissing = r.err.find("No CUDA") != std::string::npos || r.err.find("No NVIDIA GPU") != std::string::npos;
  EXPECT_TRUE(namesWhatIsMissing) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
}

struct BadInput {
  const char* args;
  const char* mustMention;
};

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, ExitsWith2AndNamesTheLimit) {
  const CliResult r = runCli(GetParam().args);
  EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(GetParam().mustMention), std::string::npos) << r.err;
  if (std::string(GetParam().mustMention) != "usage") {  // no command at all prints the whole usage
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Paths, CliBadInput,
    ::testing::Values(BadInput{"run --tile 0", "1 to 32"}, BadInput{"run --tile 33", "1 to 32"},
                      BadInput{"run --tile x", "whole number"}, BadInput{"run --kernel naive --block 64x32", "1024"},
                      BadInput{"run --kernel naive --block 32", "BXxBY"}, BadInput{"run --kernel fast", "unknown kernel"},
                      BadInput{"run --size 0", "1 to 16384"}, BadInput{"run --dims 3,4", "J,K,L"},
                      BadInput{"run --size 4 --dims 4,4,4", "either"}, BadInput{"run --bogus", "unknown flag"},
                      BadInput{"trace --size 1024 --tile 16", "cap"}, BadInput{"run --backend gpu", "emu, cuda or auto"},
                      BadInput{"run --kernel naive --tile 4", "--tile applies"},
                      BadInput{"run --kernel tiled --block 8x8", "--block applies"}, BadInput{"frobnicate", "unknown command"},
                      BadInput{"run --seed -1", "--seed"}, BadInput{"run --size", "needs a value"},
                      BadInput{"run --kernel naive --block 0x4", "each side must be 1 to 1024"},
                      BadInput{"demo --bogus", "unknown flag"},
                      // A misspelt flag names the one meant: one edit, two, a flag of one command.
                      BadInput{"run --sise 8", "unknown flag '--sise': did you mean --size?"},
                      BadInput{"run --kernal tiled", "did you mean --kernel?"},
                      BadInput{"bench --repeat 3", "did you mean --repeats?"},
                      BadInput{"lab grade x y --gradescop f", "did you mean --gradescope?"},
                      BadInput{"run --frobnicate", "unknown flag '--frobnicate' (tilescope-cli --help lists them)"},
                      BadInput{"run --kernel naive --size 2048 --backend emu", "268435456 multiply-adds"},
                      BadInput{"run --kernel tiled --grid-blocks 3", "a kernel with a persistent grid (stream-k)"},
                      BadInput{"run --kernel stream-k --grid-blocks 70000", "0 to 65535"},
                      BadInput{"bench --preset nope", "lecture, live, targets, ladder or sizes"},
                      BadInput{"bench --preset sizes --kernel stream-k --grid-blocks 128", "--grid-blocks and --tiling apply"},
                      BadInput{"", "usage"}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

}  // namespace
