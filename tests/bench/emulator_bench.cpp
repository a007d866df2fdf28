// How fast the emulator traces. Issue target: tracing `tiled` at 128x128x128, T=16 takes at
// most 1 s on one core of the development machine. Reports events per second.
// Run: build/tests/bench/emulator_bench
#include <benchmark/benchmark.h>

#include "core/run.h"

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

BENCHMARK(BM_TraceTiled_128_T16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TraceTiledBounds_100_T16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TraceNaive_64)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace tilescope

BENCHMARK_MAIN();
