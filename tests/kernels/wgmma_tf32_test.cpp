// Rung 11 (kernels/ladder/wgmma_tf32.cuh) on the emulator: P against the double-precision
// reference with the tolerance of TF32's truncated operands at sizes that are no multiple of its
// tiles, and its trace against facts written out here from the PTX ISA, not taken from
// kernels/trace/mma_fragments.h: the 128-byte swizzle (the 16-byte chunk c of a 128-byte row r
// at chunk c ^ (r % 8)), the descriptor's rows (8 rows of 128 bytes, then the next 8 1024 bytes
// on), the register A fragment table (warp w's rows 16w.., lane 4g + t: a0 row g col t, a1 row
// g + 8, a2 col t + 4, a3 both) and the accumulator's (lane 4g + t: rows g and g + 8, columns
// 2t and 2t + 1 of each 8). The block computes P^T = N^T M^T: A's rows are columns of P (the
// kernel's documented choice: warp w's row g is column 32 (w / 2) + 8 (w % 2) + 16 (g / 4) +
// g % 4 of the warpgroup's 64, row g + 8 that + 4), B's columns and D's are rows of P.
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

constexpr Tiling kWgmmaTeaching{32, 64, 32, 32, 16, 8, 2};    // one consumer warpgroup, 32 x 64 tiles
constexpr Tiling kWgmmaH200{256, 128, 32, 256, 16, 64, 2};     // two consumer warpgroups, m64n256k8

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

// Column of P (of the warpgroup's 64) that A's row r (D's row r) stands for: warp w = r / 16,
// g = r % 8, + 4 for the rows g + 8.
int columnOfRow(int r) {
  const int w = r / 16, g = r % 8, high = r % 16 / 8;
  return 32 * (w / 2) + 8 * (w % 2) + 16 * (g / 4) + g % 4 + 4 * high;
}

// 32 x 32 x 64 at the teaching tiling: one block, one k tile, 4 MMAs of 64 x 32 x 8. B (M's
// tile) is read through its descriptor: B's 32 rows as 2 chunks of 16 bytes each per MMA, 64
// chunks, thread t chunk t (a quarter warp per chunk column of 8 rows: row 8 (t / 16) + t % 8,
// half (t / 8) % 2): 4 x 64 = 256 reads of Mds, 128-bit each. A comes from registers: each
// thread reads its 4 elements per MMA from N's tile (4 x 4 x 128 = 2048 reads of Nds and as
// many mma_a events); 16 sums per thread after the stage, 32 x 64 stores.
TEST(WgmmaTf32, DescriptorReadsAreTheSwizzledChunksThePtxIsaPlaces) {
  const tilescope::Run run = runEmulated(wgmmaConfig({32, 32, 64}, kWgmmaTeaching, freshSeed()), true);
  ASSERT_TRUE(run.trace);
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  std::map<Op, long> count;
  std::map<int, int> seenB;  // per thread: descriptor reads so far
  long wrong = 0;
  // Per MMA step and chunk column: the bank groups (4 banks each) its 8 rows' chunks land in.
  std::map<std::pair<int, int>, std::set<int>> groupsOfB;
  for (const Event& e : run.trace->events) {
    ++count[e.op];
    if (e.op != Op::ReadM) continue;
    wrong += !(e.flags & kWide);
    const int t = e.threadX, step = seenB[t]++;
    const int row = 8 * (t / 16) + t % 8, half = (t / 8) % 2, chunk = 2 * step + half;  // the step's chunks 2s, 2s + 1
    const int slotCol = (chunk ^ (row % 8)) * 4;                     // where the 128-byte swizzle puts it
    wrong += e.sharedRow != row || e.sharedCol != slotCol;
    // The value there is the element the chunk starts with: M[row][8 step + 4 half].
    wrong += e.value != run.m.at(row, chunk * 4);
    // A row of Mds is 32 floats, 32 banks: the chunk's first bank is its slot column.
    if (row < 8) groupsOfB[{step, half}].insert(slotCol / 4);
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(count[Op::ReadM], 4 * 64);
  EXPECT_EQ(count[Op::ReadN], 4 * 4 * 128);
  EXPECT_EQ(count[Op::MmaA], 4 * 4 * 128);
  EXPECT_EQ(count[Op::MmaC], 128 * 16);
  EXPECT_EQ(count[Op::StoreP], 32 * 64);
  // Swizzled, the 8 rows of a chunk column lie in 8 different bank groups: one wavefront. Not
  // swizzled they would all lie in group `chunk` (rows 128 bytes apart: the same banks).
  ASSERT_EQ(groupsOfB.size(), 8u);
  for (const auto& [stepHalf, groups] : groupsOfB) EXPECT_EQ(groups.size(), 8u);
}

// Each thread's A fragment is N's element the table and the kernel's choice of columns name:
// register i of step s, lane 4g + t of warp w, is A's row 16w + g + 8 (i % 2), column
// t + 4 (i / 2): N's row 8s + t + 4 (i / 2), column columnOfRow(row). And a warp's n-th read of
// N's tile falls in 32 different banks (a row of the box is 32 floats: bank = slot column).
TEST(WgmmaTf32, RegisterFragmentsAreNsElementsReadWithoutBankConflicts) {
  const tilescope::Run run = runEmulated(wgmmaConfig({32, 32, 64}, kWgmmaTeaching, freshSeed()), true);
  ASSERT_TRUE(run.trace);
  std::map<int, int> seenA, seenN;
  std::map<std::pair<int, int>, std::set<int>> banks;  // (warp, its n-th read): the banks
  long wrong = 0, checked = 0;
  for (const Event& e : run.trace->events) {
    const int t = e.threadX;
    if (e.op == Op::ReadN) banks[{t / 32, seenN[t]++}].insert(e.sharedCol % 32);
    if (e.op != Op::MmaA) continue;
    const int n = seenA[t]++, step = n / 4, i = n % 4, w = t / 32, g = t % 32 / 4, q = t % 4;
    const int row = 16 * w + g + 8 * (i % 2), col = q + 4 * (i / 2);
    wrong += e.sharedRow != row || e.sharedCol != col || e.value != run.n.at(8 * step + col, columnOfRow(row));
    ++checked;
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(checked, 128 * 16);
  ASSERT_EQ(banks.size(), 4u * 16u);
  for (const auto& [warpRead, used] : banks) EXPECT_EQ(used.size(), 32u);
}

// The accumulators after the last stage are P's elements where the fragment table puts them:
// thread 32w + 4g + t, register i: D's row 16w + g + 8 [i % 4 >= 2], column 8 (i / 4) + 2t + i % 2,
// which is P's row `column` and column columnOfRow(row).
TEST(WgmmaTf32, SumsLieWhereTheAccumulatorsFragmentTableSays) {
  const tilescope::Run run = runEmulated(wgmmaConfig({32, 32, 64}, kWgmmaTeaching, freshSeed()), true);
  ASSERT_TRUE(run.trace);
  std::map<int, int> seen;
  long wrong = 0, checked = 0;
  for (const Event& e : run.trace->events) {
    if (e.op != Op::MmaC) continue;
    const int t = e.threadX, i = seen[t]++, w = t / 32, g = t % 32 / 4, q = t % 4;
    const int row = 16 * w + g + (i % 4 >= 2 ? 8 : 0), col = 8 * (i / 4) + 2 * q + i % 2;
    wrong += e.sharedRow != row || e.sharedCol != col || e.value != run.p.at(col, columnOfRow(row));
    ++checked;
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(checked, 128 * 16);
}

}  // namespace
}  // namespace tilescope
