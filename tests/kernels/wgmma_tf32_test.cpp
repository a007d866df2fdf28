// Rung 11 (kernels/ladder/wgmma_tf32.cuh) on the emulator: P against the double-precision
// reference with the tolerance of TF32's truncated operands at sizes that are no multiple of its
// tiles, and its trace against facts written out here from the PTX ISA, not taken from
// kernels/trace/mma_fragments.h: the 128-byte swizzle (the 16-byte chunk c of a 128-byte row r
// at chunk c ^ (r % 8)), the descriptor's rows (8 rows of 128 bytes, then the next 8 1024 bytes
// on) and the accumulator's fragment table (warp w's rows 16w.., lane 4g + t: rows g and g + 8,
// columns 2t and 2t + 1 of each 8).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <vector>

#include "core/run/run.h"
#include "core/trace/trace.h"
#include "test_support.h"

namespace tilescope {
namespace {

using testing::freshSeed;
using testing::runEmulated;

constexpr Tiling kWgmmaTeaching{64, 32, 32, 16, 32, 2, 8};  // one consumer warpgroup, 64 x 32 tiles
constexpr Tiling kWgmmaH200{192, 128, 32, 16, 128, 2, 32};  // three consumer warpgroups

LaunchConfig wgmmaConfig(Dims dims, Tiling tiling, uint64_t seed) {
  LaunchConfig c = testing::launchConfig(KernelId::WgmmaTf32, dims, 0, seed);
  c.tiling = tiling;
  return c;
}

struct WgmmaCase {
  Dims dims;
  Tiling tiling;
};
class WgmmaTf32MatchesReference : public ::testing::TestWithParam<WgmmaCase> {};

TEST_P(WgmmaTf32MatchesReference, OnRandomInputs) {
  const WgmmaCase& c = GetParam();
  const uint64_t seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (bool traced : {false, true}) {
    SCOPED_TRACE(traced ? "traced" : "plain");
    const tilescope::Run run = runEmulated(wgmmaConfig(c.dims, c.tiling, seed), traced);
    EXPECT_TRUE(run.verification.passed) << run.verification.summary();
    EXPECT_EQ(run.verification.checked, long(c.dims.j) * c.dims.l);
    // Truncated TF32 operands: each up to 2^-10 off, so at least 2^-9 of the sums' magnitude.
    EXPECT_GE(run.verification.tolerance, std::ldexp(1.0, -9));
    EXPECT_EQ(run.outcome.outOfBoundsTotal, 0u);
    EXPECT_TRUE(run.outcome.divergences.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(
    NonMultipleSizes, WgmmaTf32MatchesReference,
    ::testing::Values(WgmmaCase{{40, 20, 68}, kWgmmaTeaching}, WgmmaCase{{1, 4, 4}, kWgmmaTeaching},
                      WgmmaCase{{33, 28, 100}, kWgmmaTeaching}, WgmmaCase{{64, 64, 64}, kWgmmaTeaching}, WgmmaCase{{200, 100, 300}, kWgmmaTeaching},
                      WgmmaCase{{131, 68, 260}, kWgmmaH200}),
    [](const ::testing::TestParamInfo<WgmmaCase>& info) {
      const WgmmaCase& c = info.param;
      return (c.tiling == kWgmmaH200 ? std::string("H200Tiling") : std::string("TeachingTiling")) + "_dims_" +
             std::to_string(c.dims.j) + "x" + std::to_string(c.dims.k) + "x" + std::to_string(c.dims.l);
    });

// The upper 19 bits of a float: what the tensor cores multiply.
float truncatedToTf32(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  b &= 0xffffe000u;
  std::memcpy(&x, &b, 4);
  return x;
}

// Its error is TF32's: above FP32's tolerance (so that tolerance would not do), and the emulator's
// sums are those of the truncated operands (one element recomputed by hand in double).
TEST(WgmmaTf32, ItsErrorIsTruncatedTf32s) {
  const tilescope::Run run = runEmulated(wgmmaConfig({64, 256, 64}, kWgmmaTeaching, freshSeed()), false);
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  EXPECT_GT(run.verification.maxRelativeError, 32.0 * std::sqrt(256.0) * std::ldexp(1.0, -24));
  for (int r : {0, 17, 63})
    for (int c : {0, 38, 63}) {
      double sum = 0;
      for (int i = 0; i < 256; ++i) sum += double(truncatedToTf32(run.m.at(r, i))) * truncatedToTf32(run.n.at(i, c));
      EXPECT_NEAR(run.p.at(r, c), sum, 1e-5 * std::max(1.0, std::fabs(sum))) << r << ", " << c;
    }
}

// 64 x 32 x 32 at the teaching tiling: one block, one k tile, 4 MMAs of 64 x 32 x 8. Each reads
// A's 64 rows and B's 32 columns as 2 chunks of 16 bytes each: 128 chunks of A, one per consumer
// thread, and 64 of B, thread t chunk t (a quarter warp per chunk column of 8 rows: row
// 8 (t / 16) + t % 8, half (t / 8) % 2). Counted by hand: 4 x 128 = 512
// reads of Mds and 4 x 64 = 256 of Nds, 128-bit each; 16 sums per thread after the stage,
// 64 x 32 stores.
TEST(WgmmaTf32, DescriptorReadsAreTheSwizzledChunksThePtxIsaPlaces) {
  const tilescope::Run run = runEmulated(wgmmaConfig({64, 32, 32}, kWgmmaTeaching, freshSeed()), true);
  ASSERT_TRUE(run.trace);
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  std::map<Op, long> count;
  std::map<int, int> seenA, seenB;  // per thread: descriptor reads so far
  long wrong = 0;
  // Per MMA step and chunk column: the bank groups (4 banks each) its 8 rows' chunks land in.
  std::map<std::pair<int, int>, std::set<int>> groupsOfA;
  for (const Event& e : run.trace->events) {
    ++count[e.op];
    if (e.op != Op::ReadM && e.op != Op::ReadN) continue;
    wrong += !(e.flags & kWide);
    const int t = e.threadX, step = (e.op == Op::ReadM ? seenA : seenB)[t]++;
    const int row = 8 * (t / 16) + t % 8, half = (t / 8) % 2, chunk = 2 * step + half;  // the step's chunks 2s, 2s + 1
    const int slotCol = (chunk ^ (row % 8)) * 4;                     // where the 128-byte swizzle puts it
    wrong += e.sharedRow != row || e.sharedCol != slotCol;
    // The value there is the element the chunk starts with: M[row][8 step + 4 half], N[8 step + 4 half][row].
    const float expected = e.op == Op::ReadM ? run.m.at(row, chunk * 4) : run.n.at(chunk * 4, row);
    wrong += e.value != expected;
    // A row of As is 32 floats, 32 banks: the chunk's first bank is its slot column.
    if (e.op == Op::ReadM && row < 8) groupsOfA[{step, half}].insert(slotCol / 4);
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(count[Op::ReadM], 4 * 128);
  EXPECT_EQ(count[Op::ReadN], 4 * 64);
  EXPECT_EQ(count[Op::MmaC], 128 * 16);
  EXPECT_EQ(count[Op::StoreP], 64 * 32);
  // Swizzled, the 8 rows of a chunk column lie in 8 different bank groups: one wavefront. Not
  // swizzled they would all lie in group `chunk` (rows 128 bytes apart: the same banks).
  ASSERT_EQ(groupsOfA.size(), 8u);
  for (const auto& [stepHalf, groups] : groupsOfA) EXPECT_EQ(groups.size(), 8u);
}

// The accumulators after the last stage are P's elements where the fragment table puts them:
// thread 32w + 4g + t, register i: row 16w + g + 8 [i % 4 >= 2], column 8 (i / 4) + 2t + i % 2.
TEST(WgmmaTf32, SumsLieWhereTheAccumulatorsFragmentTableSays) {
  const tilescope::Run run = runEmulated(wgmmaConfig({64, 32, 32}, kWgmmaTeaching, freshSeed()), true);
  ASSERT_TRUE(run.trace);
  std::map<int, int> seen;
  long wrong = 0, checked = 0;
  for (const Event& e : run.trace->events) {
    if (e.op != Op::MmaC) continue;
    const int t = e.threadX, i = seen[t]++, w = t / 32, g = t % 32 / 4, q = t % 4;
    const int row = 16 * w + g + (i % 4 >= 2 ? 8 : 0), col = 8 * (i / 4) + 2 * q + i % 2;
    wrong += e.sharedRow != row || e.sharedCol != col || e.value != run.p.at(row, col);
    ++checked;
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(checked, 128 * 16);
}

}  // namespace
}  // namespace tilescope
