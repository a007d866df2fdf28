// What the Timing panel shows (app/ui/model/timing_model.h), from the recorded H100 results the app
// falls back to without a GPU and from hand-made reports: only verified results are plotted,
// series keep the lecture's grouping, the block-shape table follows the lecture's order, and
// live sweeps accumulate.
#include "ui/model/timing_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/timing/timing_ladder.h"

namespace tilescope::ui {
namespace {

TimingReport recordedH100() {
  auto r = loadRecordedTimings(TILESCOPE_TIMINGS_FILE);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : TimingReport{};
}

const TimingSeries* find(const std::vector<TimingSeries>& all, const std::string& label) {
  auto it = std::find_if(all.begin(), all.end(), [&](const TimingSeries& s) { return s.label == label; });
  return it == all.end() ? nullptr : &*it;
}

TimingResult result(KernelId kernel, int n, int tile, double gflops, bool verified = true) {
  TimingResult r;
  r.what.config.kernel = kernel;
  r.what.config.dims = {n, n, n};
  r.what.config.tile = tile;
  r.verified = verified;
  r.gflops = gflops;
  r.medianMs = verified ? r.flops() / gflops * 1e-6 : 0.0;
  r.repeats = 10;
  return r;
}

TEST(RecordedTimings, AreLabelledRecordedWithDeviceDateAndPeak) {
  const TimingReport r = recordedH100();
  EXPECT_TRUE(r.recorded);
  EXPECT_EQ(r.device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(r.date, "2026-11-21");
  EXPECT_NEAR(r.ceilings.fp32PeakGflops, 66908.2, 0.1);
}

TEST(RecordedTimings, BecomeOneSeriesPerKernelAndTileOrBlockShape) {
  const auto all = buildSeries(recordedH100());
  // 2 naive shapes swept + 4 more at 8192, 3 tile widths x 3 tiled kernels, cuBLAS.
  EXPECT_EQ(all.size(), 6u + 9u + 1u);
  const TimingSeries* cublas = find(all, "cuBLAS SGEMM");
  ASSERT_TRUE(cublas);
  EXPECT_EQ(cublas->family, Family::Cublas);
  ASSERT_EQ(cublas->points.size(), 6u);  // N = 256 .. 8192
  EXPECT_EQ(cublas->points.front().n, 256.0);
  EXPECT_EQ(cublas->points.back().n, 8192.0);
  EXPECT_NEAR(cublas->points.back().gflops, 51632.71, 0.01);  // the CSV's cuBLAS row at 8192
  const TimingSeries* t32 = find(all, "tiled T=32");
  ASSERT_TRUE(t32);
  EXPECT_EQ(t32->points.size(), 6u);
  EXPECT_NEAR(t32->points[4].medianMs, 14.931328, 1e-6);  // the CSV's tiled T=32 row at N = 4096
  const TimingSeries* wide = find(all, "naive (64,4)");
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->points.size(), 1u);  // the lecture's experiment only
  for (const TimingSeries& s : all)
    for (std::size_t i = 1; i < s.points.size(); ++i) EXPECT_LT(s.points[i - 1].n, s.points[i].n) << s.label;
}

TEST(RecordedTimings, SeriesAreGroupedByKernelThenTileWidth) {
  const auto all = buildSeries(recordedH100());
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_LE(all[i - 1].family, all[i].family);
  EXPECT_EQ(all.front().label, "naive (32,32)");
  EXPECT_EQ(all.back().label, "cuBLAS SGEMM");
  const TimingSeries* t8 = find(all, "tiled T=8");
  const TimingSeries* t16 = find(all, "tiled T=16");
  ASSERT_TRUE(t8 && t16);
  EXPECT_LT(t8, t16);
  EXPECT_NE(t8->marker, t16->marker);  // same colour (kernel), told apart by the marker
}

// A family per kernel of the live sweep, from the kernels' liveSweep facts in the list's order
// (so each keeps its colour); every other kernel shares Family::Other.
TEST(TimingSeries, EachLiveSweepKernelHasAFamilyOfItsOwnFromItsFacts) {
  std::vector<std::string> live;
  for (const KernelInfo& k : kKernels) {
    const Family f = liveFamily(k.id);
    if (!k.liveSweep) {
      EXPECT_EQ(f, Family::Other) << k.name;
      continue;
    }
    EXPECT_EQ(f.kind, Family::Kind::Live) << k.name;
    EXPECT_EQ(f.live, int(live.size())) << k.name;
    live.emplace_back(familyName(f));
  }
  // The chapter's live sweep (bench/README.md): the four kernels of the lecture's plot.
  EXPECT_EQ(live, (std::vector<std::string>{"naive", "tiled", "tiled-bounds", "tiled-dynamic"}));
}

TEST(RecordedTimings, TheDefaultFigureTellsTheLecturesStory) {
  int shown = 0;
  for (const TimingSeries& s : buildSeries(recordedH100())) shown += shownByDefault(s.label);
  EXPECT_EQ(shown, 7);
  EXPECT_TRUE(shownByDefault("cuBLAS SGEMM"));
  EXPECT_TRUE(shownByDefault("tiled T=32"));
  EXPECT_FALSE(shownByDefault("tiled-bounds T=16"));  // times like tiled: it would hide under it
  EXPECT_FALSE(shownByDefault("naive (64,4)"));       // a single point: in the table
}

TEST(TimingSeries, UnverifiedResultsAreNeverPlotted) {
  TimingReport report;
  report.results.push_back(result(KernelId::Tiled, 512, 16, 6000.0));
  report.results.push_back(result(KernelId::Tiled, 1024, 16, 0.0, /*verified=*/false));
  TimingResult nan = result(KernelId::Tiled, 2048, 16, 7000.0);
  nan.gflops = std::numeric_limits<double>::quiet_NaN();  // verified yet NaN: still not plotted
  report.results.push_back(nan);
  report.results.push_back(result(KernelId::Naive, 512, 0, 0.0, /*verified=*/false));
  const auto all = buildSeries(report);
  ASSERT_EQ(all.size(), 1u);  // naive has nothing verified: no series at all
  EXPECT_EQ(all[0].label, "tiled T=16");
  ASSERT_EQ(all[0].points.size(), 1u);
  EXPECT_EQ(all[0].points[0].n, 512.0);
  EXPECT_EQ(unverifiedCount(report), 2);
}

TEST(TimingSeries, NonSquareProductsUseTheGeometricMeanSize) {
  LaunchConfig c;
  c.dims = {512, 1024, 2048};
  EXPECT_NEAR(problemSize(c), 1024.0, 1e-9);
  c.dims = {300, 300, 300};
  EXPECT_EQ(problemSize(c), 300.0);
}

TEST(LectureTable, FollowsTheLecturesOrderWithTheRecordedNumbers) {
  const TimingReport recorded = recordedH100();
  const auto rows = lectureRows(recorded);
  ASSERT_EQ(rows.size(), 10u);
  const std::vector<std::string> order{"naive (64,16)", "naive (32,32)", "naive (16,64)", "naive (64,4)",
                                       "naive (32,8)",  "naive (16,16)", "tiled T=8",     "tiled T=16",
                                       "tiled T=32",    "cuBLAS SGEMM"};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].label, order[i]);
    ASSERT_TRUE(rows[i].result) << rows[i].label;
    EXPECT_EQ(rows[i].result->what.config.dims.j, 8192);
    EXPECT_TRUE(rows[i].result->verified);
  }
  EXPECT_NEAR(rows[1].result->medianMs, 185.748116, 1e-6);  // the CSV's (32,32) row
  EXPECT_NEAR(rows[3].result->gflops, 4622.55, 0.01);  // (64,4): the slowest shape, as in the lecture
  const auto best = bestNaiveRow(rows);
  ASSERT_TRUE(best);
  EXPECT_EQ(rows[*best].label, "naive (64,16)");
}

TEST(LectureTable, MissingAndFailedCasesStayVisibleAsRows) {
  TimingReport report;
  report.results.push_back(result(KernelId::Tiled, 8192, 32, 9000.0));
  TimingResult failed = result(KernelId::Naive, 8192, 0, 0.0, false);
  failed.what.config.blockX = 64, failed.what.config.blockY = 4;
  report.results.push_back(failed);
  const auto rows = lectureRows(report);
  ASSERT_EQ(rows.size(), 10u);
  EXPECT_FALSE(rows[0].result);
  ASSERT_TRUE(rows[3].result);
  EXPECT_FALSE(rows[3].result->verified);
  ASSERT_TRUE(rows[8].result);
  EXPECT_FALSE(bestNaiveRow(rows));  // a failed naive case is never "best"
}

TEST(Sweeps, NamedSweepsAreTheCoreCaseLists) {
  const auto live = sweepCases({SweepKind::Live, {}});
  const auto core = liveSweepCases();
  ASSERT_EQ(core.size(), 5u * 5);  // N = 256 .. 4096: naive, tiled, tiled-bounds, tiled-dynamic, cuBLAS
  ASSERT_EQ(live.size(), core.size());
  for (std::size_t i = 0; i < live.size(); ++i) EXPECT_EQ(live[i].label(), core[i].label());
  EXPECT_EQ(sweepCases({SweepKind::Lecture, {}}).size(), lectureCases().size());
}

TEST(Sweeps, CustomSweepCrossesTheChoices) {
  CustomSweep c;  // naive 16x16 + 32x32, tiled T=16 + 32, cuBLAS, N = 256..2048
  auto cases = sweepCases({SweepKind::Custom, c});
  EXPECT_EQ(cases.size(), 4u * (2 + 2 + 1));
  c.tile16 = c.tile32 = false;  // a tiled kernel without a tile width adds nothing
  c.naive = false;
  c.cublas = false;
  EXPECT_TRUE(sweepCases({SweepKind::Custom, c}).empty());
  c.tiledDynamic = true;
  c.tile8 = true;
  c.minN = c.maxN = 512;
  cases = sweepCases({SweepKind::Custom, c});
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].label(), "tiled T=8");
  EXPECT_EQ(cases[1].label(), "tiled-dynamic T=8");
}

TEST(LiveSweeps, AccumulateWithTheNewestResultPerCase) {
  TimingReport first;
  first.device = "old";
  first.results = {result(KernelId::Tiled, 512, 16, 5000.0), result(KernelId::Tiled, 1024, 16, 7000.0)};
  TimingReport second;
  second.device = "GPU";
  second.ceilings.fp32PeakGflops = 1000.0;
  second.results = {result(KernelId::Tiled, 1024, 16, 7500.0), result(KernelId::Naive, 1024, 0, 6000.0)};
  const TimingReport merged = mergeReports(first, second);
  EXPECT_EQ(merged.device, "GPU");
  EXPECT_EQ(merged.ceilings.fp32PeakGflops, 1000.0);
  ASSERT_EQ(merged.results.size(), 3u);
  const auto all = buildSeries(merged);
  const TimingSeries* tiled = find(all, "tiled T=16");
  ASSERT_TRUE(tiled);
  ASSERT_EQ(tiled->points.size(), 2u);
  EXPECT_EQ(tiled->points[1].gflops, 7500.0);
}

// A lab kernel's results: their own family and series, named by the lab, shown by default,
// with a percentage of cuBLAS where the same sweep timed cuBLAS at the same N; a timing CSV
// keeps the kind and the name.
TEST(LabSeries, AreTheLabsOwnAndSurviveATimingCsv) {
  const std::vector<TimingCase> cases = labSweepCases("matrixMulKernel (mine.cu) TILE_WIDTH=32", 512);
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_TRUE(sweepCases({SweepKind::Lab, {}}).empty()) << "no kernel named: nothing to time";
  EXPECT_EQ(sweepCases({SweepKind::Lab, {}}, "k (a.cu)").size(), 2u * 5);  // N = 256..4096
  TimingReport r;
  r.device = "GPU";
  for (const TimingCase& c : cases) {
    TimingResult t;
    t.what = c;
    t.verified = true;
    t.verification = "verified: max relative error 1e-06";
    t.gflops = c.kind == TimedKind::Lab ? 1000.0 : 4000.0;
    t.medianMs = 1.0, t.repeats = 10;
    r.results.push_back(t);
  }
  const auto all = buildSeries(r);
  const TimingSeries* lab = find(all, "lab: matrixMulKernel (mine.cu) TILE_WIDTH=32");
  ASSERT_TRUE(lab);
  EXPECT_EQ(lab->family, Family::Lab);
  EXPECT_EQ(familyName(lab->family), "lab");
  EXPECT_TRUE(shownByDefault(lab->label));
  ASSERT_EQ(lab->points.size(), 2u);
  ASSERT_TRUE(lab->points[0].percentOfCublas);
  EXPECT_DOUBLE_EQ(*lab->points[0].percentOfCublas, 25.0);
  auto back = parseTimingCsv(timingCsv(r));
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->results.size(), 4u);
  EXPECT_EQ(back->results[0].what.kind, TimedKind::Lab);
  EXPECT_EQ(back->results[0].what.label(), "lab: matrixMulKernel (mine.cu) TILE_WIDTH=32");
  EXPECT_EQ(back->results[0].gflops, 1000.0);
}

// cuBLAS on the tensor cores (rung 10's reference) is a case of its own: it survives a timing
// CSV as itself, and rung 10's percentage of cuBLAS stays the FP32 SGEMM's.
TEST(CublasTf32, SurvivesATimingCsvAndIsNotTheSgemmReference) {
  TimingReport r;
  r.device = "GPU";
  for (TimedKind kind : {TimedKind::Cublas, TimedKind::CublasTf32, TimedKind::Kernel}) {
    TimingResult t;
    t.what.kind = kind;
    t.what.config.kernel = KernelId::MmaTf32;
    t.what.config.dims = {4096, 4096, 4096};
    t.verified = true;
    t.gflops = kind == TimedKind::Cublas ? 50000.0 : kind == TimedKind::CublasTf32 ? 400000.0 : 100000.0;
    t.medianMs = 1.0, t.repeats = 10;
    r.results.push_back(t);
  }
  auto back = parseTimingCsv(timingCsv(r));
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->results.size(), 3u);
  EXPECT_EQ(back->results[1].what.kind, TimedKind::CublasTf32);
  EXPECT_EQ(back->results[1].what.label(), "cuBLAS TF32");
  EXPECT_EQ(back->results[2].what.config.kernel, KernelId::MmaTf32);
  const auto percent = percentOfCublas(*back, back->results[2]);
  ASSERT_TRUE(percent);
  EXPECT_DOUBLE_EQ(*percent, 200.0);  // of the SGEMM's 50 000, not the TF32 case's
}

}  // namespace
}  // namespace tilescope::ui
