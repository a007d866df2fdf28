// The plot widget's arithmetic (app/ui/model/plot_math.h): where values land on log and linear
// axes, which ticks carry labels, how numbers read, and which point the pointer picks.
#include "ui/model/plot_math.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tilescope::ui {
namespace {

std::vector<double> labelled(const std::vector<AxisTick>& ticks) {
  std::vector<double> v;
  for (const AxisTick& t : ticks)
    if (t.labelled) v.push_back(t.value);
  return v;
}

TEST(PlotAxis, Log2PlacesEachDoublingOneStepFurther) {
  const AxisRange n{256, 8192, AxisScale::Log2};  // five doublings
  EXPECT_DOUBLE_EQ(axisFraction(n, 256), 0.0);
  EXPECT_DOUBLE_EQ(axisFraction(n, 1024), 2.0 / 5.0);
  EXPECT_DOUBLE_EQ(axisFraction(n, 8192), 1.0);
  EXPECT_NEAR(axisFraction(n, 128), -0.2, 1e-12);  // outside the range: outside [0, 1]
  EXPECT_NEAR(axisValue(n, 0.6), 2048.0, 1e-9);
}

TEST(PlotAxis, Log10PlacesEachDecadeOneStepFurther) {
  const AxisRange g{1000, 100000, AxisScale::Log10};
  EXPECT_DOUBLE_EQ(axisFraction(g, 10000), 0.5);
  EXPECT_NEAR(axisFraction(g, 66908.2), std::log10(66.9082) / 2.0, 1e-12);
  EXPECT_NEAR(axisValue(g, axisFraction(g, 5953.0)), 5953.0, 1e-6);  // round trip
  EXPECT_TRUE(std::isinf(axisFraction(g, 0.0)));                     // no place for zero on a log axis
}

TEST(PlotAxis, LinearIsAStraightMap) {
  const AxisRange a{-10, 30, AxisScale::Linear};
  EXPECT_DOUBLE_EQ(axisFraction(a, 0), 0.25);
  EXPECT_DOUBLE_EQ(axisValue(a, 0.75), 20.0);
}

TEST(PlotRange, LogRangesRoundOutToWholePowers) {
  // The recorded H100 sweep: 1,543 GFLOP/s (naive 256) up to the 66,908 GFLOP/s peak.
  const AxisRange g = fitRange(1543.16, 66908.2, AxisScale::Log10);
  EXPECT_DOUBLE_EQ(g.lo, 1000.0);
  EXPECT_DOUBLE_EQ(g.hi, 100000.0);
  // Sizes that are already powers of two stay as they are (no empty octave either side).
  const AxisRange n = fitRange(256, 8192, AxisScale::Log2);
  EXPECT_DOUBLE_EQ(n.lo, 256.0);
  EXPECT_DOUBLE_EQ(n.hi, 8192.0);
  // Exact decades stay exact despite log10(1000) = 2.9999999999999996.
  const AxisRange d = fitRange(1000, 1e5, AxisScale::Log10);
  EXPECT_DOUBLE_EQ(d.lo, 1000.0);
  EXPECT_DOUBLE_EQ(d.hi, 1e5);
}

TEST(PlotRange, DegenerateDataStillGetsARange) {
  const AxisRange one = fitRange(8192, 8192, AxisScale::Log2);  // the lecture table alone
  EXPECT_DOUBLE_EQ(one.lo, 4096.0);
  EXPECT_DOUBLE_EQ(one.hi, 16384.0);
  EXPECT_DOUBLE_EQ(axisFraction(one, 8192), 0.5);
  const AxisRange zero = fitRange(0, 0, AxisScale::Log10);  // nothing positive: still a valid log axis
  EXPECT_GT(zero.lo, 0.0);
  EXPECT_GT(zero.hi, zero.lo);
  const AxisRange flat = fitRange(5, 5, AxisScale::Linear);
  EXPECT_LT(flat.lo, 5.0);
  EXPECT_GT(flat.hi, 5.0);
  const AxisRange lin = fitRange(3, 97, AxisScale::Linear);
  EXPECT_DOUBLE_EQ(lin.lo, 0.0);
  EXPECT_DOUBLE_EQ(lin.hi, 100.0);
}

TEST(PlotTicks, NiceStepsAreOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(niceStep(0.7), 1.0);
  EXPECT_DOUBLE_EQ(niceStep(1.0), 1.0);
  EXPECT_DOUBLE_EQ(niceStep(1.3), 2.0);
  EXPECT_DOUBLE_EQ(niceStep(3.0), 5.0);
  EXPECT_DOUBLE_EQ(niceStep(6.0), 10.0);
  EXPECT_DOUBLE_EQ(niceStep(0.03), 0.05);
  EXPECT_DOUBLE_EQ(niceStep(2000), 2000.0);
}

TEST(PlotTicks, Log2LabelsEveryPowerWhenThereIsRoom) {
  const auto ticks = axisTicks({256, 8192, AxisScale::Log2}, 500.0, 40.0);  // 100 px per doubling
  EXPECT_EQ(labelled(ticks), (std::vector<double>{256, 512, 1024, 2048, 4096, 8192}));
  EXPECT_EQ(ticks.front().label, "256");
  EXPECT_EQ(ticks.back().label, "8,192");
}

TEST(PlotTicks, Log2SkipsLabelsWhenCrowdedButKeepsTheTicks) {
  const auto ticks = axisTicks({256, 8192, AxisScale::Log2}, 150.0, 40.0);  // 30 px per doubling
  EXPECT_EQ(ticks.size(), 6u);
  EXPECT_EQ(labelled(ticks), (std::vector<double>{256, 1024, 4096}));
}

TEST(PlotTicks, Log10LabelsDecadesAndOneTwoFiveWhenADecadeIsLong) {
  const AxisRange g{1000, 100000, AxisScale::Log10};
  const auto wide = axisTicks(g, 400.0, 25.0);  // 200 px per decade: room for 1, 2 and 5
  EXPECT_EQ(labelled(wide), (std::vector<double>{1000, 2000, 5000, 10000, 20000, 50000, 100000}));
  EXPECT_EQ(wide.size(), 19u);                    // 1..9 x 1000, 1..9 x 10000, 100000
  const auto narrow = axisTicks(g, 120.0, 25.0);  // 60 px per decade: decades only
  EXPECT_EQ(labelled(narrow), (std::vector<double>{1000, 10000, 100000}));
  EXPECT_EQ(narrow.size(), 19u);  // the minor ticks stay as grid lines
  for (std::size_t i = 1; i < narrow.size(); ++i) EXPECT_LT(narrow[i - 1].value, narrow[i].value);
}

TEST(PlotTicks, Log10DropsDecadeLabelsWhenTheyWouldTouch) {
  const auto ticks = axisTicks({1, 1e8, AxisScale::Log10}, 80.0, 20.0);  // 10 px per decade
  EXPECT_EQ(labelled(ticks), (std::vector<double>{1, 1e2, 1e4, 1e6, 1e8}));
}

TEST(PlotTicks, LinearTicksAreNiceAndInsideTheRange) {
  const auto ticks = axisTicks({0, 100, AxisScale::Linear}, 300.0, 50.0);  // at most 6 labels
  EXPECT_EQ(labelled(ticks), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  const auto offset = axisTicks({-0.3, 0.3, AxisScale::Linear}, 300.0, 100.0);
  EXPECT_EQ(labelled(offset), (std::vector<double>{-0.2, 0.0, 0.2}));
  EXPECT_EQ(offset[1].label, "0");  // not "-5.55e-17"
}

TEST(PlotTicks, NoRoomOrNoRangeMeansNoTicks) {
  EXPECT_TRUE(axisTicks({1, 1, AxisScale::Linear}, 100.0, 10.0).empty());
  EXPECT_TRUE(axisTicks({1, 10, AxisScale::Log10}, 0.0, 10.0).empty());
}

TEST(PlotNumbers, ReadLikeAHumanWroteThem) {
  EXPECT_EQ(formatNumber(66908.2), "66,908");
  EXPECT_EQ(formatNumber(100000), "100,000");
  EXPECT_EQ(formatNumber(1024), "1,024");
  EXPECT_EQ(formatNumber(256), "256");
  EXPECT_EQ(formatNumber(0.25), "0.25");
  EXPECT_EQ(formatNumber(14.939424), "14.9");
  EXPECT_EQ(formatNumber(-2500), "-2,500");
  EXPECT_EQ(formatNumber(std::nan("")), "NaN");
}

TEST(PlotHover, PicksTheNearestPointWithinTheRadius) {
  const std::vector<std::vector<PlotVec>> pts{{{10, 10}, {50, 50}}, {{52, 47}, {200, 10}}};
  auto hit = nearestPoint(pts, {51, 49}, 10.0);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->series, 0);
  EXPECT_EQ(hit->point, 1);
  EXPECT_NEAR(hit->distance, std::hypot(1.0, 1.0), 1e-12);
  hit = nearestPoint(pts, {53, 46}, 10.0);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->series, 1);
  EXPECT_EQ(hit->point, 0);
  EXPECT_FALSE(nearestPoint(pts, {120, 120}, 10.0));  // nothing within 10 px
  EXPECT_FALSE(nearestPoint({}, {0, 0}, 10.0));
}

TEST(PlotHover, TiesGoToTheSeriesDrawnOnTop) {
  const std::vector<std::vector<PlotVec>> pts{{{20, 20}}, {}, {{20, 20}}};
  const auto hit = nearestPoint(pts, {21, 20}, 5.0);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->series, 2);
}

}  // namespace
}  // namespace tilescope::ui
