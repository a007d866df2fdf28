// Each kernel computes P = M x N: checked against the double-precision reference on fresh
// random inputs, with P poisoned (NaN) before the launch so an unwritten element fails.
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace tilescope {
namespace {

using testing::freshSeed;
using testing::naiveConfig;
using testing::runEmulated;
using testing::tiledConfig;

struct Shape {
  KernelId kernel;
  Dims dims;
  int tile;            // tiled kernels
  int blockX, blockY;  // naive
};

std::string shapeName(const ::testing::TestParamInfo<Shape>& info) {
  const Shape& s = info.param;
  std::string name(kernelInfo(s.kernel).name);
  for (char& c : name)
    if (c == '-') c = '_';
  if (kernelInfo(s.kernel).tiled) name += "_T" + std::to_string(s.tile);
  else name += "_block" + std::to_string(s.blockX) + "x" + std::to_string(s.blockY);
  return name + "_dims_" + std::to_string(s.dims.j) + "x" + std::to_string(s.dims.k) + "x" + std::to_string(s.dims.l);
}

class KernelMatchesReference : public ::testing::TestWithParam<Shape> {};

TEST_P(KernelMatchesReference, OnRandomInputs) {
  const Shape& s = GetParam();
  const uint64_t seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const LaunchConfig config = kernelInfo(s.kernel).tiled ? tiledConfig(s.kernel, s.dims, s.tile, seed)
                                                         : naiveConfig(s.dims, s.blockX, s.blockY, seed);
  for (bool traced : {false, true}) {
    SCOPED_TRACE(traced ? "traced" : "plain");
    const tilescope::Run run = runEmulated(config, traced);
    EXPECT_TRUE(run.verification.passed) << run.verification.summary();
    EXPECT_EQ(run.verification.checked, long(s.dims.j) * s.dims.l) << "every element must be checked";
    EXPECT_EQ(run.verification.nonFinite, 0);
    EXPECT_EQ(run.outcome.outOfBoundsTotal, 0u);
    EXPECT_TRUE(run.outcome.divergences.empty());
  }
}

std::vector<Shape> allShapes() {
  std::vector<Shape> shapes;
  const std::vector<Dims> general = {{1, 1, 1}, {3, 3, 3}, {33, 17, 9}, {64, 64, 64}, {100, 100, 100}, {5, 40, 2}};
  for (const Dims& d : general) {
    for (auto [bx, by] : {std::pair{16, 16}, {32, 8}, {7, 3}, {1, 1}}) shapes.push_back({KernelId::Naive, d, 0, bx, by});
    for (int t : {1, 2, 4, 5, 16, 32}) {
      shapes.push_back({KernelId::TiledBounds, d, t, 0, 0});
      shapes.push_back({KernelId::TiledDynamic, d, t, 0, 0});
    }
  }
  // tiled (fig. 5.9) has no boundary checks: only sizes that are multiples of T.
  for (int t : {1, 2, 4, 8, 16, 32}) shapes.push_back({KernelId::Tiled, {64, 64, 64}, t, 0, 0});
  shapes.push_back({KernelId::Tiled, {1, 1, 1}, 1, 0, 0});
  shapes.push_back({KernelId::Tiled, {4, 4, 4}, 2, 0, 0});
  shapes.push_back({KernelId::Tiled, {32, 48, 16}, 16, 0, 0});
  shapes.push_back({KernelId::Tiled, {96, 96, 96}, 3, 0, 0});
  // Lecture block shapes (rectangular blocks change the grid, not the result).
  for (auto [bx, by] : {std::pair{64, 16}, {32, 32}, {16, 64}, {64, 4}, {32, 8}, {16, 16}})
    shapes.push_back({KernelId::Naive, {100, 37, 70}, 0, bx, by});
  return shapes;
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelMatchesReference, ::testing::ValuesIn(allShapes()), shapeName);

TEST(KernelMatchesReference, TiledOnANonMultipleSizeFailsVerification) {
  // Fig. 5.9 without boundary checks reads the wrong elements (figs. 5.11-5.12): the
  // verification must catch it rather than report a correct product.
  const uint64_t seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const tilescope::Run run = runEmulated(tiledConfig(KernelId::Tiled, {3, 3, 3}, 2, seed), false);
  EXPECT_FALSE(run.verification.passed);
  EXPECT_GT(run.outcome.outOfBoundsTotal, 0u);
}

TEST(KernelMatchesReference, VerificationFailsOnAPerturbedElement) {
  // The check itself must be able to fail: change one element of a correct result by a
  // small amount and by NaN.
  const uint64_t seed = freshSeed();
  tilescope::Run run = runEmulated(tiledConfig(KernelId::TiledBounds, {33, 17, 9}, 4, seed), false);
  ASSERT_TRUE(run.verification.passed);
  Matrix p = run.p;
  p.at(7, 3) += 1e-3f * (1.0f + std::fabs(p.at(7, 3)));
  Verification v = verifyProduct(run.m, run.n, p);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.worstRow, 7);
  EXPECT_EQ(v.worstCol, 3);
  p = run.p;
  p.at(0, 8) = NAN;
  v = verifyProduct(run.m, run.n, p);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.nonFinite, 1);
}

}  // namespace
}  // namespace tilescope
