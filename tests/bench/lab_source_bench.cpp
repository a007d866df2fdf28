// The lab's reading of a student's file (the interpreter's front end, app/lab/interp: the
// preprocessor, the parser and the check of every kernel) is linear in the file: its time per
// size, and Google Benchmark's fitted complexity (expect O(N) with a small RMS). A figure to
// read, not a pass/fail test.
#include <benchmark/benchmark.h>

#include <string>

#include "lab/interp/interp.h"

namespace {

std::string fileOf(int helpers) {
  std::string text;
  for (int i = 0; i < helpers; ++i)
    text += "__device__ float h" + std::to_string(i) + "(float x) { return x * (x + " + std::to_string(i) +
            "); }\nconst int c" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  return text + "__global__ void k(float* M, float* N, float* P, int j, int k, int l) {\n"
                "  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  if (row < j && col < l) P[row * l + col] = M[row * k] * N[col];\n}\n";
}

void BM_LabFrontEnd(benchmark::State& state) {
  const std::string text = fileOf(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(tilescope::interp::compileSource(text, {}).error);
  state.SetComplexityN(state.range(0));
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
}
BENCHMARK(BM_LabFrontEnd)->RangeMultiplier(4)->Range(1 << 10, 1 << 14)->Unit(benchmark::kMillisecond)->Complexity();

}  // namespace

BENCHMARK_MAIN();
