// Rung 10 (kernels/ladder/mma_tf32.cuh) on the emulator: P against the double-precision reference
// with TF32's tolerance at sizes that are no multiple of its tiles, the emulator's TF32 rounding
// against hand values, and its trace against hand counts and against the inputs themselves:
// every lane's fragment element is the element of M, N or P where the PTX ISA's fragment tables
// (written out here, not taken from kernels/trace/mma_fragments.h) put it.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

#include "core/run/run.h"
#include "core/trace/trace.h"
#include "kernels/trace/tf32.h"
#include "test_support.h"

namespace tilescope {
namespace {

using testing::freshSeed;
using testing::runEmulated;

constexpr Tiling kMmaTeaching{32, 32, 8, 16, 16, 2, 4};  // 4 warps, each a 16 x 16 tile: 2 MMAs per 8 k
constexpr Tiling kMmaH100{128, 128, 32, 64, 64, 8, 16};

LaunchConfig mmaConfig(Dims dims, Tiling tiling, uint64_t seed) {
  LaunchConfig c = testing::launchConfig(KernelId::MmaTf32, dims, 0, seed);
  c.tiling = tiling;
  return c;
}

// To the nearest float with an 11-bit significand, ties away from zero (std::round), in double.
float roundedTo11Bits(float x) {
  if (x == 0.0f) return x;
  const int e = std::ilogb(x);
  return float(std::ldexp(std::round(std::ldexp(double(x), 10 - e)), e - 10));
}

TEST(Tf32, RoundsToTenMantissaBitsTiesAwayFromZero) {
  const float ulp = std::ldexp(1.0f, -10);  // of TF32 at 1
  EXPECT_EQ(emu::roundToTf32(1.0f + ulp / 2), 1.0f + ulp);              // a tie: away from zero
  EXPECT_EQ(emu::roundToTf32(-(1.0f + ulp / 2)), -(1.0f + ulp));
  EXPECT_EQ(emu::roundToTf32(1.0f + ulp / 2 - std::ldexp(1.0f, -23)), 1.0f);  // just under the tie
  EXPECT_EQ(emu::roundToTf32(1.0f + 1.5f * ulp), 1.0f + 2 * ulp);      // a tie above an odd one
  EXPECT_EQ(emu::roundToTf32(2.0f - ulp / 4), 2.0f);                   // carries into the exponent
  EXPECT_TRUE(std::isinf(emu::roundToTf32(3.4028235e38f)));            // past TF32's largest
  EXPECT_TRUE(std::isnan(emu::roundToTf32(NAN)));
  for (float x : {0.1f, -0.3333333f, 123.456f, 1e-30f})
    EXPECT_EQ(emu::roundToTf32(x), roundedTo11Bits(x)) << x;
}

struct MmaCase {
  Dims dims;
  Tiling tiling;
};
class MmaTf32MatchesReference : public ::testing::TestWithParam<MmaCase> {};

TEST_P(MmaTf32MatchesReference, OnRandomInputs) {
  const MmaCase& c = GetParam();
  const uint64_t seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (bool traced : {false, true}) {
    SCOPED_TRACE(traced ? "traced" : "plain");
    const tilescope::Run run = runEmulated(mmaConfig(c.dims, c.tiling, seed), traced);
    EXPECT_TRUE(run.verification.passed) << run.verification.summary();
    EXPECT_EQ(run.verification.checked, long(c.dims.j) * c.dims.l);
    // TF32's tolerance: FP32's for k, and 2^-10 for the operands' rounding.
    EXPECT_GT(run.verification.tolerance, std::ldexp(1.0, -10));
    EXPECT_EQ(run.outcome.outOfBoundsTotal, 0u);
    EXPECT_TRUE(run.outcome.divergences.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(
    NonMultipleSizes, MmaTf32MatchesReference,
    ::testing::Values(MmaCase{{40, 20, 36}, kMmaTeaching}, MmaCase{{1, 1, 1}, kMmaTeaching}, MmaCase{{37, 45, 29}, kMmaTeaching},
                      MmaCase{{64, 64, 64}, kMmaTeaching}, MmaCase{{131, 68, 260}, kMmaH100}),
    [](const ::testing::TestParamInfo<MmaCase>& info) {
      const MmaCase& c = info.param;
      return (c.tiling == kMmaH100 ? std::string("H100Tiling") : std::string("TeachingTiling")) + "_dims_" +
             std::to_string(c.dims.j) + "x" + std::to_string(c.dims.k) + "x" + std::to_string(c.dims.l);
    });

// Without the TF32 rounding the same sums would be FP32's: the products differ from the double
// reference by more than FP32's tolerance (so the tolerance is not slack in disguise).
TEST(MmaTf32, ItsErrorIsTf32sNotFp32s) {
  const tilescope::Run run = runEmulated(mmaConfig({64, 256, 64}, kMmaTeaching, freshSeed()), false);
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  EXPECT_GT(run.verification.maxRelativeError, 32.0 * std::sqrt(256.0) * std::ldexp(1.0, -24));
}

// 40 x 20 x 36 at the teaching tiling: 2 x 2 blocks of 4 warps, ceil(20 / 8) = 3 steps of 8 k,
// each warp 2 MMAs per step: 4 x 4 x 2 x 3 = 96 MMAs, each 16 x 8 elements of A (128), 8 x 8 of
// B (64) and 16 x 8 sums (128), one event per element by the lane that holds it.
TEST(MmaTf32, EveryLanesFragmentsAreTheElementsThePtxTablesName) {
  const tilescope::Run run = runEmulated(mmaConfig({40, 20, 36}, kMmaTeaching, freshSeed()), true);
  ASSERT_TRUE(run.trace);
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  std::map<Op, long> count;
  std::map<int, int> aSeen, bSeen, cSeen;  // per block-thread: fragment events so far
  long wrong = 0;
  auto m = [&](int r, int c) { return r < 40 && c < 20 ? run.m.at(r, c) : 0.0f; };
  auto n = [&](int r, int c) { return r < 20 && c < 36 ? run.n.at(r, c) : 0.0f; };
  for (const Event& e : run.trace->events) {
    ++count[e.op];
    const int thread = e.threadX, key = (e.blockY * 2 + e.blockX) * 128 + thread;
    const int warp = thread / 32, g = thread % 32 / 4, t = thread % 4;
    const int rowBase = e.blockY * 32 + warp / 2 * 16, colBase = e.blockX * 32 + warp % 2 * 16;
    if (e.op == Op::MmaA) {
      const int i = aSeen[key] % 4, mma = aSeen[key]++ / 4, step = mma / 2;
      const int row = g + (i & 1) * 8, col = t + (i >> 1) * 4;
      wrong += e.sharedRow != row || e.sharedCol != col ||
               e.value != roundedTo11Bits(m(rowBase + row, step * 8 + col));
    } else if (e.op == Op::MmaB) {
      const int i = bSeen[key] % 2, mma = bSeen[key]++ / 2, step = mma / 2, piece = mma % 2;
      const int row = t + i * 4, col = g;
      wrong += e.sharedRow != row || e.sharedCol != col ||
               e.value != roundedTo11Bits(n(step * 8 + row, colBase + piece * 8 + col));
    } else if (e.op == Op::MmaC) {
      const int i = cSeen[key] % 4, mma = cSeen[key]++ / 4, step = mma / 2, piece = mma % 2;
      const int row = g + (i / 2) * 8, col = t * 2 + i % 2;
      wrong += e.sharedRow != row || e.sharedCol != col;
      // After the last step the sums are P's elements, as stored.
      const int pRow = rowBase + row, pCol = colBase + piece * 8 + col;
      if (step == 2 && pRow < 40 && pCol < 36) wrong += e.value != run.p.at(pRow, pCol);
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(count[Op::MmaA], 96 * 128);
  EXPECT_EQ(count[Op::MmaB], 96 * 64);
  EXPECT_EQ(count[Op::MmaC], 96 * 128);
  EXPECT_EQ(count[Op::StoreP], 40 * 36);
  // Each lane reads its fragments from shared memory: 4 elements of A and 2 of each B per MMA
  // row and column, per step (4 + 2 x 2 per lane per step).
  EXPECT_EQ(count[Op::ReadM], 4 * 128 * 3 * 4);
  EXPECT_EQ(count[Op::ReadN], 4 * 128 * 3 * 4);
}

}  // namespace
}  // namespace tilescope
