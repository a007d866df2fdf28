// Fig. 5.9's kernel on 3x3 matrices with T = 2 touches the elements figs. 5.11 and 5.12
// name; the bounds-checked kernel (fig. 5.13) touches none and zero-fills instead.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "core/run/bounds_report.h"
#include "test_support.h"

namespace tilescope {
namespace {

// (matrix, row, col, block x, block y, thread x, thread y, phase)
using Access = std::tuple<char, int, int, int, int, int, int, int>;

std::set<Access> violationsIn(const std::vector<BoundsViolation>& all, int bx, int by, int phase) {
  std::set<Access> out;
  for (const BoundsViolation& v : all) {
    const Event& e = v.event;
    if (e.blockX == bx && e.blockY == by && e.phase == phase && v.matrix != 'P')
      out.insert({v.matrix, e.globalRow, e.globalCol, e.blockX, e.blockY, e.threadX, e.threadY, e.phase});
  }
  return out;
}

TEST(BoundsReport, Tiled_T2_dims_3x3x3_NamesTheElementsOfFigures511And512) {
  const tilescope::Run run = testing::runEmulated(testing::tiledConfig(KernelId::Tiled, {3, 3, 3}, 2, testing::freshSeed()), true);
  ASSERT_TRUE(run.trace);
  const auto all = findBoundsViolations(*run.trace);

  // Fig. 5.11, phase 1 of block_{0,0}: thread_{0,1} and thread_{1,1} load M_{0,3} and
  // M_{1,3}; thread_{1,0} and thread_{1,1} load N_{3,0} and N_{3,1}. (thread_{ty,tx})
  const std::set<Access> fig511 = {
      {'M', 0, 3, 0, 0, 1, 0, 1}, {'M', 1, 3, 0, 0, 1, 1, 1}, {'N', 3, 0, 0, 0, 0, 1, 1}, {'N', 3, 1, 0, 0, 1, 1, 1}};
  EXPECT_EQ(violationsIn(all, 0, 0, 1), fig511);
  EXPECT_TRUE(violationsIn(all, 0, 0, 0).empty()) << "phase 0 of block (0,0) is fully inside";

  // Fig. 5.12, phase 0 of block_{1,1}: thread_{1,0} and thread_{1,1} load M_{3,0} and
  // M_{3,1}; thread_{0,1} and thread_{1,1} load N_{0,3} and N_{1,3}.
  const std::set<Access> fig512 = {
      {'M', 3, 0, 1, 1, 0, 1, 0}, {'M', 3, 1, 1, 1, 1, 1, 0}, {'N', 0, 3, 1, 1, 1, 0, 0}, {'N', 1, 3, 1, 1, 1, 1, 0}};
  EXPECT_EQ(violationsIn(all, 1, 1, 0), fig512);

  // The text after fig. 5.11: M_{0,3} is really M_{1,0} in the row-major layout, while
  // N_{3,0} lies past the end of N's nine elements. Phase 1 of both blocks of block row 0
  // loads M_{0,3}; phase 1 of both blocks of block column 0 loads N_{3,0}.
  int m03 = 0, n30 = 0;
  for (const BoundsViolation& v : all) {
    if (v.matrix == 'M' && v.event.globalRow == 0 && v.event.globalCol == 3) {
      ++m03;
      EXPECT_TRUE(v.insideAllocation);
      EXPECT_EQ(v.wrapsToRow, 1);
      EXPECT_EQ(v.wrapsToCol, 0);
      // ... and the value the view recorded is the one the kernel really read: M_{1,0}.
      EXPECT_EQ(v.event.value, run.m.at(1, 0));
    }
    if (v.matrix == 'N' && v.event.globalRow == 3 && v.event.globalCol == 0) {
      ++n30;
      EXPECT_FALSE(v.insideAllocation);
      EXPECT_EQ(v.linearIndex, 9);
    }
  }
  EXPECT_EQ(m03, 2);
  EXPECT_EQ(n30, 2);
  // The emulator caught the reads past the end of an allocation as such.
  EXPECT_GT(run.outcome.outOfBoundsTotal, 0u);
  bool sawN9 = false;
  for (const auto& a : run.outcome.outOfBounds) sawN9 |= (a.array == "N" && a.index == 9 && !a.write);
  EXPECT_TRUE(sawN9);
}

TEST(BoundsReport, TiledBounds_T2_dims_3x3x3_ZeroFillsInsteadOfReadingOutside) {
  const tilescope::Run run =
      testing::runEmulated(testing::tiledConfig(KernelId::TiledBounds, {3, 3, 3}, 2, testing::freshSeed()), true);
  ASSERT_TRUE(run.trace);
  EXPECT_TRUE(findBoundsViolations(*run.trace).empty());
  EXPECT_EQ(run.outcome.outOfBoundsTotal, 0u);
  EXPECT_TRUE(run.verification.passed) << run.verification.summary();
  // The slot fig. 5.11 fills from outside M (M_{0,3}, by thread_{0,1} in phase 1 of
  // block_{0,0}) is written 0.0 by the boundary check instead: a shared write that no global
  // read fed, so the trace names no element of M for it.
  bool zeroFilledM03 = false;
  for (const Event& e : run.trace->events)
    if (e.op == Op::LoadM && zeroFilled(e) && e.blockX == 0 && e.blockY == 0 && e.phase == 1 && e.threadX == 1 &&
        e.threadY == 0) {
      zeroFilledM03 = true;
      EXPECT_EQ(e.value, 0.0f);
      EXPECT_EQ(e.sharedRow, 0);
      EXPECT_EQ(e.sharedCol, 1);
      EXPECT_EQ(e.globalRow, -1);
      EXPECT_EQ(e.globalCol, -1);
    }
  EXPECT_TRUE(zeroFilledM03);
}

}  // namespace
}  // namespace tilescope
