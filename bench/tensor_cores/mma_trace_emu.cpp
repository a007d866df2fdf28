// The emulator half of mma_trace.h: the same traced kernel under the host compiler.
#include <string>
#include <cstdio>
#include <cstring>

#include "kernels/emu/emulator.h"
#include "kernels/kernel_facts.h"
#include "kernels/trace/traced_surface.h"

#include "bench/tensor_cores/mma_trace.h"
#define TRACE_STRING(x) #x
#define TRACE_HEADER(x) TRACE_STRING(kernels_gen/traced/x.cuh)
namespace tilescope::TRACE_KERNEL {
#include TRACE_HEADER(TRACE_KERNEL)
}
#include "bench/tensor_cores/mma_trace_launch.h"

namespace tilescope::mma_trace {
namespace {
struct EmuExec {
  struct Args {
    GlobalView<float> M, N, P;
  };
  // A tensor map (rungs 8 and 11), refused as cuTensorMapEncodeTiled would refuse it.
  TensorMapView tensorMap(const GlobalView<float>& matrix, int rows, int cols, int boxRows, int boxCols,
                          TileSwizzle swizzle) {
    if (std::string problem = tensorMapProblem("M or N", rows, cols, boxRows, boxCols, swizzle); !problem.empty())
      report.error = problem;
    return tensorMapOf(matrix, rows, cols, boxRows, boxCols, swizzle);
  }
  template <class... Params, class... A>
  void launch(void (*kernel)(Params...), const KernelLaunch& L, A... args) {
    if (!report.error.empty()) return;
    emu::launch(report, kernel, emu::Dim3{L.gridX, L.gridY, 1}, emu::Dim3{L.blockX, L.blockY, 1},
                std::size_t(L.dynamicSharedFloats) * sizeof(float), args...);
  }
  emu::Report report;
};
}  // namespace

KernelLaunch planMmaLaunch(int j, int k, int l, int tiling, unsigned* slotsPerThread) {
  KernelLaunch L;
  L.kernel = TRACE_KERNEL::Facts::info.id;
  L.j = j;
  L.k = k;
  L.l = l;
  L.tiling = TRACE_KERNEL::Facts::kTilings[std::size_t(tiling)];
  const LaunchShape s = TRACE_KERNEL::Facts::shape(L);
  L.gridX = s.gridX;
  L.gridY = s.gridY;
  L.blockX = s.blockX;
  L.blockY = s.blockY;
  L.dynamicSharedFloats = s.dynamicSharedFloats;
  L.staticSharedBytes = s.staticSharedBytes;
  *slotsPerThread = s.eventsPerThread;
  return L;
}

int operandMantissaBits() { return TRACE_KERNEL::Facts::info.operandMantissaBits; }
const char* kernelName() { return TRACE_KERNEL::Facts::info.name.data(); }

std::vector<std::array<int, 4>> testShapes() {
  std::vector<std::array<int, 4>> shapes;
  for (const auto& g : TRACE_KERNEL::Facts::info.gpuTestLaunches)
    if (g.j > 0) shapes.push_back({g.j, g.k, g.l, g.tiling});
  return shapes;
}

bool traceOnEmulator(const KernelLaunch& L, const float* M, const float* N, float* P, Event* slots,
                     unsigned slotsPerThread, unsigned* overflow) {
  const std::size_t threads = std::size_t(L.gridX) * L.gridY * L.blockX * L.blockY;
  std::memset(static_cast<void*>(slots), 0, threads * slotsPerThread * sizeof(Event));
  *overflow = 0;
  EmuExec x;
  const auto args = tracedLaunchArgs<EmuExec::Args>(L, const_cast<float*>(M), const_cast<float*>(N), P, slots,
                                                    slotsPerThread, overflow);
  if (!TRACE_KERNEL::Facts::launch(x, L, args)) return false;
  if (!x.report.error.empty() || !x.report.divergences.empty() || x.report.outOfBoundsTotal) {
    std::fprintf(stderr, "emulator: %s, %zu divergences, %zu out of bounds\n", x.report.error.c_str(),
                 x.report.divergences.size(), x.report.outOfBoundsTotal);
    return false;
  }
  return true;
}

}  // namespace tilescope::mma_trace
