// The emulator keeps CUDA's promises: a barrier really waits for the whole block, a block
// whose threads do not all reach a barrier is reported (not hung), an access outside its
// array (global or shared) is recorded with its index and line instead of corrupting this
// process, and every block starts with fresh shared memory.
// The kernels are test-only plain CUDA (semantics_kernels.cuh), rewritten by the build
// into views exactly as the real kernels are.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/emu/emulator.h"
#include "kernels/trace/traced_surface.h"

namespace tilescope::semantics {
#include "semantics/semantics_kernels.cuh"
}  // namespace tilescope::semantics

namespace tilescope {
namespace {

using namespace semantics;

template <class T>
GlobalView<T> view(std::vector<T>& v) {
  return GlobalView<T>(v.data(), (long long)v.size(), MatrixRole::Other, TraceSink{});
}

template <class... Params, class... Args>
emu::Report launch(void (*kernel)(Params...), emu::Dim3 grid, emu::Dim3 block, std::size_t sharedBytes,
                   Args... args) {
  emu::Report report;
  emu::launch(report, kernel, grid, block, sharedBytes, args...);
  return report;
}

TEST(EmulatorBarrier, EveryThreadSeesItsNeighboursWriteAfterTheBarrier) {
  for (emu::Dim3 block : {emu::Dim3{32, 1, 1}, emu::Dim3{16, 16, 1}, emu::Dim3{7, 3, 1}}) {
    const int n = int(block.x * block.y), blocks = 3;
    std::vector<int> out(std::size_t(n * blocks), -1);
    const emu::Report report = launch(neighbourKernel, emu::Dim3{unsigned(blocks), 1, 1}, block, 0, view(out));
    ASSERT_TRUE(report.error.empty()) << report.error;
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < n; ++t) EXPECT_EQ(out[std::size_t(b * n + t)], b * 1000 + (t + 1) % n + 1) << b << "," << t;
    EXPECT_TRUE(report.divergences.empty());
  }
}

TEST(EmulatorBarrier, ThreadsThatExitBeforeABarrierAreReportedAsDivergence) {
  std::vector<int> out(64, 0);
  const emu::Report report = launch(earlyExitKernel, emu::Dim3{2, 1, 1}, emu::Dim3{64, 1, 1}, 0, view(out));
  ASSERT_EQ(report.divergences.size(), 2u);  // one per block
  const emu::BarrierDivergence& d = report.divergences[0];
  EXPECT_EQ(d.arrived, 32);
  EXPECT_EQ(d.exited, 32);
  EXPECT_EQ(d.line, 19);  // semantics_kernels.cuh
  EXPECT_EQ(d.block.x, 0u);
  EXPECT_EQ(report.divergences[1].block.x, 1u);
  // The waiting threads never get past the barrier.
  for (int v : out) EXPECT_EQ(v, 0);
}

TEST(EmulatorBarrier, ThreadsWaitingAtDifferentBarriersAreReportedAsDivergence) {
  std::vector<int> out(16, 0);
  const emu::Report report = launch(splitBarrierKernel, emu::Dim3{1, 1, 1}, emu::Dim3{16, 1, 1}, 0, view(out));
  ASSERT_EQ(report.divergences.size(), 1u);
  const emu::BarrierDivergence& d = report.divergences[0];
  EXPECT_EQ(d.arrived, 16);
  EXPECT_EQ(d.exited, 0);
  EXPECT_EQ(d.line, 26);
  EXPECT_EQ(d.otherLine, 28);
  EXPECT_EQ(d.atLine, 4);  // threads 0-3
  EXPECT_EQ(d.atOtherLine, 12);
}

TEST(EmulatorMemory, GlobalAccessesOutsideTheArrayAreRecordedWithIndexAndLine) {
  std::vector<int> out(8, 0);
  const emu::Report report = launch(outOfBoundsKernel, emu::Dim3{1, 1, 1}, emu::Dim3{4, 1, 1}, 0, view(out));
  ASSERT_EQ(report.outOfBoundsTotal, 4u);
  ASSERT_EQ(report.outOfBounds.size(), 4u);
  for (unsigned t = 0; t < 4; ++t) {
    const emu::OutOfBoundsAccess& a = report.outOfBounds[t];
    EXPECT_EQ(a.array, "global array");
    EXPECT_EQ(a.index, (long long)t + 100);
    EXPECT_EQ(a.count, 8);
    EXPECT_TRUE(a.write);
    EXPECT_EQ(a.line, 34);
    EXPECT_EQ(a.thread.x, t);
  }
  for (int v : out) EXPECT_EQ(v, 0);  // nothing landed inside the allocation
}

TEST(EmulatorMemory, SharedColumnPastItsRowIsReportedWithThreadAndLine) {
  std::vector<float> out(16, 0.0f);
  const emu::Report report =
      launch(sharedColumnPastTheEndKernel, emu::Dim3{1, 1, 1}, emu::Dim3{4, 4, 1}, 0, view(out));
  ASSERT_TRUE(report.error.empty()) << report.error;
  // Only the last row's tx = 3 leaves the array; the other rows' tx = 3 land in the next
  // row, which C++ allows and the GPU does, and which the trace flags (below).
  ASSERT_EQ(report.outOfBoundsTotal, 1u);
  const emu::OutOfBoundsAccess& a = report.outOfBounds[0];
  EXPECT_EQ(a.array, "Tile");
  EXPECT_EQ(a.index, 16);
  EXPECT_EQ(a.count, 16);
  EXPECT_FALSE(a.write);
  EXPECT_EQ(a.line, 42);
  EXPECT_EQ(a.thread.x, 3u);
  EXPECT_EQ(a.thread.y, 3u);
  // Rows 0..2: tx = 3 read the next row's first element, as the GPU would.
  for (int ty = 0; ty < 3; ++ty) EXPECT_EQ(out[std::size_t(ty * 4 + 3)], float((ty + 1) * 4));
  EXPECT_TRUE(std::isnan(out[15]));
}

TEST(EmulatorMemory, EveryBlockStartsWithSharedMemoryThatReadsNaN) {
  // Block 0 writes 42 into every slot after reading it; block 1 must still read NaN, and
  // so must the same launch run again in this process.
  for (int run = 0; run < 2; ++run) {
    std::vector<float> out(8, 0.0f);
    const emu::Report report =
        launch(staleSharedKernel, emu::Dim3{2, 1, 1}, emu::Dim3{4, 1, 1}, 4 * sizeof(float), view(out));
    ASSERT_TRUE(report.error.empty()) << report.error;
    for (float v : out) EXPECT_TRUE(std::isnan(v)) << "run " << run;
  }
}

TEST(EmulatorLaunch, BlocksOverTheThreadLimitAreRefused) {
  std::vector<int> out(8, 0);
  const emu::Report report = launch(outOfBoundsKernel, emu::Dim3{1, 1, 1}, emu::Dim3{33, 32, 1}, 0, view(out));
  EXPECT_NE(report.error.find("1024"), std::string::npos) << report.error;
}

// The tensor cores' MMA is warp-collective: the warp's 32 fragments make one A, B and C. With
// B the identity, lane 4g + t's sums are A's elements where the PTX ISA's table puts its part of
// D: rows g (sums 0, 1) and g + 8 (2, 3), columns 2t and 2t + 1; 8 row + col + 0.5.
TEST(EmulatorWarp, AWarpsMmaGathersItsLanesFragmentsAsThePtxTablesSay) {
  std::vector<float> out(32 * 4, -1.0f);
  const emu::Report report = launch(warpMmaKernel, emu::Dim3{1, 1, 1}, emu::Dim3{32, 1, 1}, 0, view(out));
  ASSERT_TRUE(report.divergences.empty());
  EXPECT_EQ(out[5 * 4 + 0], 10.5f);  // lane 5: g = 1, t = 1: D[1][2]
  EXPECT_EQ(out[5 * 4 + 3], 75.5f);  // D[9][3]
  EXPECT_EQ(out[31 * 4 + 2], 126.5f);  // lane 31: g = 7, t = 3: D[15][6]
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) {
      const int row = lane / 4 + (i / 2) * 8, col = (lane % 4) * 2 + i % 2;
      EXPECT_EQ(out[std::size_t(lane * 4 + i)], float(8 * row + col) + 0.5f) << "lane " << lane << " sum " << i;
    }
}

TEST(EmulatorWarp, ALaneThatNeverReachesTheMmaIsADeadlock) {
  std::vector<float> out(32, -1.0f);
  const emu::Report report = launch(laneSkipsMmaKernel, emu::Dim3{2, 1, 1}, emu::Dim3{32, 1, 1}, 0, view(out));
  ASSERT_EQ(report.divergences.size(), 2u);  // one per block
  const emu::BarrierDivergence& d = report.divergences[0];
  EXPECT_EQ(d.arrived, 31);
  EXPECT_EQ(d.exited, 1);
  EXPECT_EQ(d.line, 69);  // semantics_kernels.cuh
  EXPECT_EQ(d.atLine, 31);
  for (float v : out) EXPECT_EQ(v, -1.0f);  // no lane got past it
}

TEST(EmulatorWarpgroup, AThreadThatNeverReachesTheWarpgroupMmaIsADeadlock) {
  std::vector<float> out(128, -1.0f);
  const emu::Report report = launch(threadSkipsWarpgroupMmaKernel, emu::Dim3{1, 1, 1}, emu::Dim3{128, 1, 1}, 0, view(out));
  ASSERT_EQ(report.divergences.size(), 1u);
  const emu::BarrierDivergence& d = report.divergences[0];
  EXPECT_EQ(d.arrived, 127);
  EXPECT_EQ(d.exited, 1);
  EXPECT_EQ(d.line, 85);  // semantics_kernels.cuh
  EXPECT_EQ(d.atLine, 127);
  for (float v : out) EXPECT_EQ(v, -1.0f);  // no thread got past it
}

TEST(EmulatorWarpgroup, AllOneTwentyEightThreadsMeetAndEachGetsItsSums) {
  std::vector<float> out(128 * 32, -1.0f);
  const emu::Report report = launch(warpgroupMmaKernel, emu::Dim3{1, 1, 1}, emu::Dim3{128, 1, 1}, 0, view(out));
  ASSERT_TRUE(report.divergences.empty());
  for (float v : out) ASSERT_EQ(v, 8.0f);
}

}  // namespace
}  // namespace tilescope
