// The timing engine: every timed case is verified first, a wrong kernel is never timed,
// times and GFLOP/s agree with a clock the test reads itself and with the device's peak, and
// recorded results survive the CSV round trip.
#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/timing/timing.h"
#include "gpu_support.h"
#include "kernels/cuda/device_buffer.h"
#include "kernels/cuda/gpu_info.h"
#include "kernels/cuda/run_on_gpu.h"
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

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// An n x n x n product is n^3 multiply-adds, two FLOPs each.
double handFlops(int n) { return 2.0 * n * n * n; }

// The FP32 peak of device 0 from the CUDA C Programming Guide, independent of the engine's
// ceiling: SMs x clock (both from the device query) x FP32 lanes per SM (the guide's
// arithmetic-instruction throughput table: 64 on compute capability 7.x and 8.0, 128 on 8.6
// and later) x 2 FLOPs per FMA. Zero where the table gives no figure.
double guidePeakGflops() {
  auto gpu = cuda::queryGpu(0);
  if (!gpu) return 0.0;
  const int cc = gpu->major * 10 + gpu->minor;
  const int lanes = cc >= 86 ? 128 : cc >= 70 ? 64 : 0;
  return double(gpu->smCount) * gpu->clockKHz * 1e3 * lanes * 2 / 1e9;
}

TEST(GpuTiming, KernelsAndCublasAreVerifiedThenTimed) {
  REQUIRE_TIMING_ENGINE(engine);
  const uint64_t seed = freshSeed();
  // Size 256: naive with one block shape, tiled and tiled-dynamic at T = 16 and 32, cuBLAS.
  auto cases = gridCases({KernelId::Naive, KernelId::Tiled, KernelId::TiledDynamic}, {256}, {16, 32}, {{32, 8}}, true);
  ASSERT_EQ(cases.size(), 1u + 2 * 2 + 1);
  for (auto& c : cases) c.config.seed = seed;
  TimingOptions options;
  options.repeats = 5;
  int progressCalls = 0;
  const auto start = Clock::now();
  auto report = runSweep(*engine, cases, options, [&](const SweepProgress&) { ++progressCalls; });
  const double sweepSeconds = secondsSince(start);
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_GT(report->ceilings.fp32PeakGflops, 0.0);
  EXPECT_GT(report->ceilings.copyGBps, 0.0);
  ASSERT_EQ(report->results.size(), cases.size());
  EXPECT_EQ(progressCalls, int(cases.size()) + 1);
  const double peak = guidePeakGflops();
  for (const TimingResult& r : report->results) {
    SCOPED_TRACE(r.what.label());
    EXPECT_TRUE(r.verified) << r.verification;
    EXPECT_GE(r.repeats, 3);
    EXPECT_GT(r.medianMs, 0.0);
    EXPECT_LE(r.minMs, r.medianMs);
    EXPECT_GE(r.maxMs, r.medianMs);
    EXPECT_EQ(r.flops(), handFlops(256));
    // The timed launches happened inside the sweep the test timed: they cannot add up to
    // more than it, so GFLOP/s cannot be below what one launch per sweep would give.
    EXPECT_LE(r.repeats * r.minMs * 1e-3, sweepSeconds);
    EXPECT_GT(r.gflops, handFlops(256) / sweepSeconds / 1e9);
    // No kernel beats the device's FP32 peak (5 % for the clock boosting past its rating).
    if (peak > 0) {
      EXPECT_LT(r.gflops, peak * 1.05);
    }
  }
}

// GFLOP/s held to a time the test measures itself: the same plain kernel launched back to
// back on the test's own device buffers, timed on the host's steady clock around the whole
// batch (the engine times each launch with CUDA events, rotates copies of its inputs through
// the L2 cache and takes the median), with the FLOPs counted by hand. n = 2048 makes a launch
// (milliseconds) long against the few microseconds a launch costs the host.
TEST(GpuTiming, GflopsAgreeWithATimeTheTestMeasures) {
  REQUIRE_TIMING_ENGINE(engine);
  constexpr int n = 2048, launches = 20;
  TimingCase c;
  c.config.kernel = KernelId::Tiled;
  c.config.dims = {n, n, n};
  c.config.tile = 16;
  c.config.seed = freshSeed();
  TimingOptions options;
  options.repeats = launches;
  auto r = engine->time(c, options);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->verified) << r->verification;

  auto plan = planLaunch(c.config, false);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  const std::size_t elements = std::size_t(n) * n;
  auto m = cuda::DeviceBuffer<float>::allocate(elements, "M");
  auto nBuffer = cuda::DeviceBuffer<float>::allocate(elements, "N");
  auto p = cuda::DeviceBuffer<float>::allocate(elements, "P");
  ASSERT_TRUE(m && nBuffer && p);
  // The values do not change how long an FMA takes: zeros will do.
  ASSERT_EQ(cudaMemset(m->data(), 0, m->bytes()), cudaSuccess);
  ASSERT_EQ(cudaMemset(nBuffer->data(), 0, nBuffer->bytes()), cudaSuccess);
  auto launch = [&] { return launchOnGpu(plan->launch, m->data(), nBuffer->data(), p->data(), nullptr); };
  for (int w = 0; w < 3; ++w) ASSERT_TRUE(launch().ok());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto start = Clock::now();
  for (int i = 0; i < launches; ++i) ASSERT_TRUE(launch().ok());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const double measuredGflops = handFlops(n) / (secondsSince(start) / launches) / 1e9;
  std::printf("tiled T=16 at %d: engine %.0f GFLOP/s (median of %d), test's clock %.0f GFLOP/s\n", n, r->gflops,
              r->repeats, measuredGflops);
  // They agreed within 0.5 % on the H100; 15 % leaves room for clocks that drift in between.
  EXPECT_NEAR(r->gflops, measuredGflops, 0.15 * measuredGflops);
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
