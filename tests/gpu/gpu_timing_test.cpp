// The timing engine: every timed case is verified first, a wrong kernel is never timed,
// repeats and GFLOP/s are consistent, and recorded results survive the CSV round trip.
#include <cmath>

#include "core/timing.h"
#include "gpu_support.h"
#include "test_support.h"

namespace tilescope::testing {
namespace {

std::unique_ptr<TimingEngine> engineOrNull(std::string* why) {
  auto e = makeTimingEngine();
  if (!e) {
    *why = e.error().message;
    return nullptr;
  }
  return std::move(*e);
}

#define REQUIRE_TIMING_ENGINE(var)                 \
  std::string timingWhy_;                          \
  auto var = engineOrNull(&timingWhy_);            \
  if (!var) GTEST_SKIP() << timingWhy_

TEST(GpuTiming, KernelsAndCublasAreVerifiedThenTimed) {
  REQUIRE_TIMING_ENGINE(engine);
  const uint64_t seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  auto cases = gridCases({KernelId::Naive, KernelId::Tiled, KernelId::TiledDynamic}, {256}, {16, 32}, {{32, 8}}, true);
  for (auto& c : cases) c.config.seed = seed;
  TimingOptions options;
  options.repeats = 5;
  int progressCalls = 0;
  auto report = runSweep(*engine, cases, options, [&](const SweepProgress&) { ++progressCalls; });
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_GT(report->ceilings.fp32PeakGflops, 0.0);
  EXPECT_GT(report->ceilings.copyGBps, 0.0);
  ASSERT_EQ(report->results.size(), cases.size());
  EXPECT_EQ(progressCalls, int(cases.size()) + 1);
  for (const TimingResult& r : report->results) {
    SCOPED_TRACE(r.what.label());
    EXPECT_TRUE(r.verified) << r.verification;
    EXPECT_GE(r.repeats, 3);
    EXPECT_GT(r.medianMs, 0.0);
    EXPECT_LE(r.minMs, r.medianMs);
    EXPECT_GE(r.maxMs, r.medianMs);
    EXPECT_NEAR(r.gflops, r.flops() / (r.medianMs * 1e-3) / 1e9, 1e-6 * r.gflops);
    EXPECT_LT(r.gflops, report->ceilings.fp32PeakGflops * 1.05);
  }
}

TEST(GpuTiming, WrongKernelIsReportedNotTimed) {
  REQUIRE_TIMING_ENGINE(engine);
  TimingCase c;
  c.config.kernel = KernelId::BugKTypo;  // multiplies the wrong tile elements
  c.config.dims = {128, 128, 128};
  c.config.tile = 16;
  c.config.seed = freshSeed();
  auto r = engine->time(c, TimingOptions{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->verified);
  EXPECT_EQ(r->repeats, 0);
  EXPECT_EQ(r->gflops, 0.0);
  EXPECT_NE(r->verification.find("FAILED"), std::string::npos) << r->verification;
}

TEST(GpuTiming, UncheckedTiledOnOtherSizesIsRefusedBeforeLaunch) {
  REQUIRE_TIMING_ENGINE(engine);
  TimingCase c;
  c.config.kernel = KernelId::Tiled;
  c.config.dims = {100, 100, 100};
  c.config.tile = 16;
  auto r = engine->time(c, TimingOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("multiple of T"), std::string::npos) << r.error().message;
}

TEST(GpuTiming, CancelStopsTheSweep) {
  REQUIRE_TIMING_ENGINE(engine);
  std::atomic<bool> cancel{false};
  TimingOptions options;
  options.cancel = &cancel;
  auto cases = liveSweepCases(512);
  auto report = runSweep(*engine, cases, options, [&](const SweepProgress& p) {
    if (p.done == 2) cancel = true;
  });
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_TRUE(report->cancelled);
  EXPECT_EQ(report->results.size(), 2u);
}

// Runs everywhere: the recorded-results file format.
TEST(TimingFiles, CsvRoundTripKeepsDeviceDateAndOnlyVerifiedTimings) {
  TimingReport r;
  r.device = "Some GPU, 80GB";
  r.date = "2026-01-02";
  r.ceilings = {66900.5, "132 SMs x 1980 MHz x 128 FP32 lanes x 2 FLOP/FMA = 66.9 TFLOP/s", 3000.25};
  TimingResult ok;
  ok.what = lectureCases(256)[1];
  ok.verified = true;
  ok.verification = "verified: max relative error 1e-07";
  ok.medianMs = 1.5;
  ok.minMs = 1.25;
  ok.maxMs = 2.0;
  ok.repeats = 10;
  ok.gflops = 22.37;
  TimingResult bad;
  bad.what = lectureCases(256).back();
  bad.verification = "FAILED: 3 of 10, elements wrong";
  r.results = {ok, bad};
  auto back = parseTimingCsv(timingCsv(r));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->device, "Some GPU; 80GB");
  EXPECT_EQ(back->date, r.date);
  EXPECT_DOUBLE_EQ(back->ceilings.fp32PeakGflops, 66900.5);
  EXPECT_NEAR(back->ceilings.copyGBps, 3000.25, 0.1);
  ASSERT_EQ(back->results.size(), 2u);
  EXPECT_EQ(back->results[0].what.label(), ok.what.label());
  EXPECT_TRUE(back->results[0].verified);
  EXPECT_NEAR(back->results[0].medianMs, 1.5, 1e-9);
  EXPECT_EQ(back->results[0].repeats, 10);
  EXPECT_EQ(back->results[1].what.kind, TimedKind::Cublas);
  EXPECT_FALSE(back->results[1].verified);
  EXPECT_EQ(back->results[1].gflops, 0.0);
}

TEST(TimingFiles, MalformedCsvIsAnError) {
  EXPECT_FALSE(parseTimingCsv("kind,kernel\nkernel,naive\n").ok());
  EXPECT_FALSE(parseTimingCsv("# device: x\n").ok());
}

}  // namespace
}  // namespace tilescope::testing
