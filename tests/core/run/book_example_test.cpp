// The book's worked example (figs. 5.7-5.8): 4x4 matrices, T = 2. The expected loads are
// transcribed from fig. 5.8, not computed by the code under test. The book writes
// thread_{ty,tx} and M_{row,col}; the trace stores threadIdx as (x, y).
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "test_support.h"

namespace tilescope {
namespace {

struct Load {
  int mRow, mCol, nRow, nCol;
};

// fig. 5.8, block (0,0): {ty, tx, phase} -> M element into Mds[ty][tx], N element into Nds[ty][tx].
const std::map<std::tuple<int, int, int>, Load> kFigure58 = {
    {{0, 0, 0}, {0, 0, 0, 0}}, {{0, 1, 0}, {0, 1, 0, 1}}, {{1, 0, 0}, {1, 0, 1, 0}}, {{1, 1, 0}, {1, 1, 1, 1}},
    {{0, 0, 1}, {0, 2, 2, 0}}, {{0, 1, 1}, {0, 3, 2, 1}}, {{1, 0, 1}, {1, 2, 3, 0}}, {{1, 1, 1}, {1, 3, 3, 1}},
};

TEST(BookExample_Fig58, Tiled_T2_dims_4x4x4_Block00LoadsTheFiguresElements) {
  const uint64_t seed = testing::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const tilescope::Run run = testing::runEmulated(testing::tiledConfig(KernelId::Tiled, {4, 4, 4}, 2, seed), true);
  ASSERT_TRUE(run.trace);
  ASSERT_EQ(run.trace->phases, 2);
  int seen = 0;
  for (const Event& e : run.trace->events) {
    if (e.blockX != 0 || e.blockY != 0) continue;
    if (e.op != Op::LoadM && e.op != Op::LoadN) continue;
    const auto it = kFigure58.find({e.threadY, e.threadX, e.phase});
    ASSERT_NE(it, kFigure58.end());
    const Load& want = it->second;
    // Each thread loads into its own slot, Mds[ty][tx] and Nds[ty][tx].
    EXPECT_EQ(e.sharedRow, e.threadY);
    EXPECT_EQ(e.sharedCol, e.threadX);
    if (e.op == Op::LoadM) {
      EXPECT_EQ(e.globalRow, want.mRow);
      EXPECT_EQ(e.globalCol, want.mCol);
      EXPECT_EQ(e.value, run.m.at(want.mRow, want.mCol));
    } else {
      EXPECT_EQ(e.globalRow, want.nRow);
      EXPECT_EQ(e.globalCol, want.nCol);
      EXPECT_EQ(e.value, run.n.at(want.nRow, want.nCol));
    }
    EXPECT_TRUE(inBounds(e));
    ++seen;
  }
  EXPECT_EQ(seen, 16);  // 4 threads x 2 phases x (one M + one N)
}

TEST(BookExample_Fig58, Tiled_T2_dims_4x4x4_Thread00ReadsTheFiguresProducts) {
  // fig. 5.8, column "PValue_{0,0} +=": Mds_{0,0} * Nds_{0,0} + Mds_{0,1} * Nds_{1,0} in both phases.
  const tilescope::Run run = testing::runEmulated(testing::tiledConfig(KernelId::Tiled, {4, 4, 4}, 2, testing::freshSeed()), true);
  ASSERT_TRUE(run.trace);
  std::vector<std::tuple<int, char, int, int>> reads;  // phase, matrix, slot row, slot col
  for (const Event& e : run.trace->events)
    if (e.blockX == 0 && e.blockY == 0 && e.threadX == 0 && e.threadY == 0 && (e.op == Op::ReadM || e.op == Op::ReadN))
      reads.emplace_back(e.phase, e.op == Op::ReadM ? 'M' : 'N', e.sharedRow, e.sharedCol);
  const std::vector<std::tuple<int, char, int, int>> expected = {
      {0, 'M', 0, 0}, {0, 'N', 0, 0}, {0, 'M', 0, 1}, {0, 'N', 1, 0},
      {1, 'M', 0, 0}, {1, 'N', 0, 0}, {1, 'M', 0, 1}, {1, 'N', 1, 0},
  };
  EXPECT_EQ(reads, expected);
}

TEST(BookExample_Fig510, Tiled_T2_dims_4x4x4_Thread01OfBlock10StoresP21) {
  // fig. 5.10's text: thread_{0,1} of block_{1,0} computes P_{2,1}.
  const tilescope::Run run = testing::runEmulated(testing::tiledConfig(KernelId::Tiled, {4, 4, 4}, 2, testing::freshSeed()), true);
  ASSERT_TRUE(run.trace);
  int stores = 0;
  for (const Event& e : run.trace->events) {
    if (e.op != Op::StoreP || e.blockY != 1 || e.blockX != 0 || e.threadY != 0 || e.threadX != 1) continue;
    EXPECT_EQ(e.globalRow, 2);
    EXPECT_EQ(e.globalCol, 1);
    EXPECT_EQ(e.value, run.p.at(2, 1));
    ++stores;
  }
  EXPECT_EQ(stores, 1);
}

}  // namespace
}  // namespace tilescope
