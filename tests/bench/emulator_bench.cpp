// How fast the emulator traces. Issue target: tracing `tiled` at 128x128x128, T=16 takes at
// most 1 s on one core of the development machine. Reports events per second.
// Run: build/tests/bench/emulator_bench
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/finished/finished_run.h"
#include "core/run/device_profile.h"
#include "core/run/run.h"
#include "core/timeline/load_index.h"
#include "core/timeline/timeline.h"

namespace tilescope {
namespace {

void traceOnEmulator(benchmark::State& state, KernelId kernel, int size, int tile) {
  auto backend = makeEmulatorBackend();
  LaunchConfig config;
  config.kernel = kernel;
  config.dims = {size, size, size};
  config.tile = tile;
  std::size_t events = 0;
  for (auto _ : state) {
    auto run = executeRun(*backend, config, true);
    if (!run || !run->verification.passed) {
      state.SkipWithError("run failed or did not verify");
      return;
    }
    events = run->trace->events.size();
    benchmark::DoNotOptimize(run->trace->events.data());
  }
  state.counters["events"] = double(events);
  state.counters["events_per_s"] = benchmark::Counter(double(events), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_TraceTiled_128_T16(benchmark::State& s) { traceOnEmulator(s, KernelId::Tiled, 128, 16); }
void BM_TraceTiledBounds_100_T16(benchmark::State& s) { traceOnEmulator(s, KernelId::TiledBounds, 100, 16); }
void BM_TraceNaive_64(benchmark::State& s) { traceOnEmulator(s, KernelId::Naive, 64, 0); }
// Issue 28 item 0: the trace capture (traced run + decode into canonical order) of tiled 256^3.
void BM_TraceTiled_256_T16(benchmark::State& s) { traceOnEmulator(s, KernelId::Tiled, 256, 16); }

BENCHMARK(BM_TraceTiled_128_T16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TraceTiledBounds_100_T16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TraceNaive_64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TraceTiled_256_T16)->Unit(benchmark::kMillisecond)->UseRealTime();

// What the app does off the UI thread when a slider moves (app/ui/workers/run_worker.cpp): the
// traced emulator run, the timeline cut and the analysis. Issue target: new picture within
// 100 ms for sizes up to 64; this is the bulk of that latency.
void sliderPipeline(benchmark::State& state, KernelId kernel, int size, int tile) {
  auto backend = makeEmulatorBackend();
  LaunchConfig config;
  config.kernel = kernel;
  config.dims = {size, size, size};
  config.tile = tile;
  const DeviceProfile profile = *profileByName("h100");
  for (auto _ : state) {
    auto run = executeRun(*backend, config, true);
    if (!run || !run->verification.passed) {
      state.SkipWithError("run failed or did not verify");
      return;
    }
    Timeline timeline = Timeline::build(*run->trace);
    AnalysisReport report = analyzeTrace(*run->trace, profile);
    benchmark::DoNotOptimize(timeline);
    benchmark::DoNotOptimize(report);
  }
}

void BM_SliderPipeline_Tiled_64_T16(benchmark::State& s) { sliderPipeline(s, KernelId::Tiled, 64, 16); }
void BM_SliderPipeline_Tiled_64_T32(benchmark::State& s) { sliderPipeline(s, KernelId::Tiled, 64, 32); }
void BM_SliderPipeline_Naive_64(benchmark::State& s) { sliderPipeline(s, KernelId::Naive, 64, 0); }
BENCHMARK(BM_SliderPipeline_Tiled_64_T16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SliderPipeline_Tiled_64_T32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SliderPipeline_Naive_64)->Unit(benchmark::kMillisecond)->UseRealTime();

// What stands between a slider's release and its new picture (the analysis follows on the
// worker): the traced run and its finishing (bounds report, timeline, load index).
void picturePath(benchmark::State& state, int size, int tile) {
  auto backend = makeEmulatorBackend();
  LaunchConfig config;
  config.dims = {size, size, size};
  config.tile = tile;
  for (auto _ : state) {
    auto run = executeRun(*backend, config, true);
    if (!run || !run->verification.passed) {
      state.SkipWithError("run failed or did not verify");
      return;
    }
    benchmark::DoNotOptimize(finishRun(std::move(*run)));
  }
}
void BM_PicturePath_Tiled_64_T16(benchmark::State& state) { picturePath(state, 64, 16); }
BENCHMARK(BM_PicturePath_Tiled_64_T16)->Unit(benchmark::kMillisecond)->UseRealTime();

// A slider's change in the app, measured as the worker does it before the new picture (the traced
// run, then its finishing: bounds report, timeline, load index), at the presenter's slider sizes
// and tile widths; each case repeated, with the median, the 95th percentile and the worst of the
// repetitions printed. The app's target: the new picture at most 100 ms after the change at p95,
// for sizes up to 128^3 (the frame's own drawing comes on top: `report` in script mode).
//   build/tests/bench/emulator_bench --benchmark_filter=SliderChange --benchmark_report_aggregates_only=true
void sliderChange(benchmark::State& state) { picturePath(state, int(state.range(0)), int(state.range(1))); }
double percentile(const std::vector<double>& values, double p) {
  std::vector<double> v = values;
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5))];
}
// Each case one change, ten times over, with the median, p95 and worst of the process's CPU time.
void repeatedChanges(benchmark::internal::Benchmark* b) {
  b->ArgNames({"n", "T"})
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1)
      ->Repetitions(10)
      ->ComputeStatistics("p95", [](const std::vector<double>& v) { return percentile(v, 0.95); })
      ->ComputeStatistics("max", [](const std::vector<double>& v) { return percentile(v, 1.0); })
      ->MeasureProcessCPUTime()
      ->UseRealTime();
}
BENCHMARK(sliderChange)->Name("BM_SliderChange_Tiled")->ArgsProduct({{32, 64, 96, 128}, {8, 16, 32}})->Apply(repeatedChanges);

// The same change as the app shows it first at these sizes (app/ui/workers/run_worker.cpp): the
// emulator stopped where firstPictureBarriers says (every block's second barrier, the end of
// phase 0, or its first, phase 0's tiles loaded, at 128^3 T = 32), then the same finishing; the
// whole run (above) follows it on the worker and replaces it.
//   build/tests/bench/emulator_bench --benchmark_filter=SliderChangeFirstPicture --benchmark_report_aggregates_only=true
void sliderChangeFirstPicture(benchmark::State& state) {
  LaunchConfig config;
  config.dims = {int(state.range(0)), int(state.range(0)), int(state.range(0))};
  config.tile = int(state.range(1));
  auto backend = makeEmulatorBackend(firstPictureBarriers(config));
  state.counters["barriers"] = firstPictureBarriers(config);
  for (auto _ : state) {
    auto run = executeRun(*backend, config, true);
    if (!run || run->outcome.blocksStopped == 0) {
      state.SkipWithError("the launch did not stop at the end of phase 0");
      return;
    }
    benchmark::DoNotOptimize(finishRun(std::move(*run)));
  }
}
BENCHMARK(sliderChangeFirstPicture)
    ->Name("BM_SliderChangeFirstPicture_Tiled")
    ->ArgsProduct({{64, 96, 128}, {8, 16, 32}})
    ->Apply(repeatedChanges);

// The pipeline's stages one by one, on one traced run of tiled 64^3 T=16.
const Run& tiled64Run() {
  static const Run run = [] {
    LaunchConfig config;
    config.dims = {64, 64, 64};
    config.tile = 16;
    return std::move(*executeRun(*makeEmulatorBackend(), config, true));
  }();
  return run;
}
void BM_Stage_TimelineBuild_Tiled_64_T16(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(Timeline::build(*tiled64Run().trace));
}
void BM_Stage_Analysis_Tiled_64_T16(benchmark::State& state) {
  const DeviceProfile profile = *profileByName("h100");
  for (auto _ : state) benchmark::DoNotOptimize(analyzeTrace(*tiled64Run().trace, profile));
}
void BM_Stage_LoadIndex_Tiled_64_T16(benchmark::State& state) {
  const Timeline timeline = Timeline::build(*tiled64Run().trace);
  for (auto _ : state) benchmark::DoNotOptimize(LoadIndex::build(timeline));
}
BENCHMARK(BM_Stage_TimelineBuild_Tiled_64_T16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Stage_LoadIndex_Tiled_64_T16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Stage_Analysis_Tiled_64_T16)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace tilescope

BENCHMARK_MAIN();
