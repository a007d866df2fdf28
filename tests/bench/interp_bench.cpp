// The lab's interpreter against the native emulator, side by side in one run. Issue target:
// fig. 5.9 at 64 x 64 x 64, T = 16, traced through the interpreter in at most 4 times the
// native emulator's time for the built-in `tiled` (the same launch, the same trace slots).
// Run: build/tests/bench/interp_bench
#include <benchmark/benchmark.h>

#include <fstream>
#include <limits>
#include <sstream>

#include "core/run/launch_config.h"
#include "kernels/catalog.h"
#include "kernels/emu/run_on_emulator.h"
#include "lab/interp/interp.h"

namespace tilescope {
namespace {

constexpr int kSize = 64, kTile = 16;

struct Fixture {
  LaunchPlan plan;
  std::vector<float> M, N, P;
  std::vector<Event> events;
  unsigned overflow = 0;
  TraceSink sink;
  Fixture() {
    LaunchConfig config;
    config.kernel = KernelId::Tiled;
    config.dims = {kSize, kSize, kSize};
    config.tile = kTile;
    plan = *planLaunch(config, true);
    M.assign(std::size_t(kSize) * kSize, 0.5f);
    N = M;
    P.assign(M.size(), std::numeric_limits<float>::quiet_NaN());
    events.resize(plan.traceSlots);
    sink = traceSinkFor(plan.launch, events.data(), plan.slotsPerThread, &overflow);
  }
};

std::string fig59() {
  std::ifstream in(TILESCOPE_FIG_5_9, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void BM_NativeEmulator_Tiled_64_T16(benchmark::State& state) {
  Fixture f;
  for (auto _ : state) {
    const emu::Report r = runOnEmulator(f.plan.launch, f.M.data(), f.N.data(), f.P.data(), &f.sink);
    benchmark::DoNotOptimize(r.outOfBoundsTotal);
  }
}

void BM_Interpreter_Fig5_9_64_T16(benchmark::State& state) {
  Fixture f;
  const interp::Compiled c = interp::compileSource(fig59(), {{"TILE_WIDTH", std::to_string(kTile)}});
  if (c.error) return state.SkipWithError(c.error->message.c_str());
  const interp::Instance instance = interp::instantiate(*c.unit, c.kernels[0].name, {});
  if (instance.error) return state.SkipWithError(instance.error->message.c_str());
  interp::RunRequest r;
  r.program = instance.program.get();
  r.grid = {unsigned(kSize / kTile), unsigned(kSize / kTile), 1};
  r.block = {unsigned(kTile), unsigned(kTile), 1};
  r.arguments = {interp::Argument::matrix(0), interp::Argument::matrix(1), interp::Argument::matrix(2),
                 interp::Argument::number(kSize)};
  float* data[3] = {f.M.data(), f.N.data(), f.P.data()};
  for (int m = 0; m < 3; ++m) r.matrices[m] = data[m], r.counts[m] = (long long)f.M.size();
  r.sink = &f.sink;
  for (auto _ : state) {
    const interp::RunResult ran = interp::runProgram(r);
    if (ran.error) return state.SkipWithError(ran.error->message.c_str());
    benchmark::DoNotOptimize(ran.report.outOfBoundsTotal);
  }
}

// What a student waits for before the first run: preprocess, parse, check, lower.
void BM_FrontEnd_Fig5_9(benchmark::State& state) {
  const std::string text = fig59();
  for (auto _ : state) {
    const interp::Compiled c = interp::compileSource(text, {{"TILE_WIDTH", std::to_string(kTile)}});
    benchmark::DoNotOptimize(c.kernels.size());
  }
}

BENCHMARK(BM_NativeEmulator_Tiled_64_T16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Interpreter_Fig5_9_64_T16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FrontEnd_Fig5_9)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace tilescope

BENCHMARK_MAIN();
