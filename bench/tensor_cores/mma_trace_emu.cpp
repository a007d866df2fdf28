// The emulator half of mma_trace.h: the same traced kernel under the host compiler.
#include <cstdio>
#include <cstring>

#include "kernels/emu/emulator.h"
#include "kernels/kernel_facts.h"
#include "kernels/trace/traced_surface.h"

namespace tilescope::mma_tf32 {
#include "kernels_gen/traced/mma_tf32.cuh"
}
#include "bench/tensor_cores/mma_trace.h"
#include "bench/tensor_cores/mma_trace_launch.h"

namespace tilescope::mma_trace {
namespace {
struct EmuExec {
  struct Args {
    GlobalView<float> M, N, P;
  };
  template <class... Params, class... A>
  void launch(void (*kernel)(Params...), const KernelLaunch& L, A... args) {
    emu::launch(report, kernel, emu::Dim3{L.gridX, L.gridY, 1}, emu::Dim3{L.blockX, L.blockY, 1},
                std::size_t(L.dynamicSharedFloats) * sizeof(float), args...);
  }
  emu::Report report;
};
}  // namespace

KernelLaunch planMmaLaunch(int j, int k, int l, int tiling, unsigned* slotsPerThread) {
  KernelLaunch L;
  L.kernel = KernelId::MmaTf32;
  L.j = j;
  L.k = k;
  L.l = l;
  L.tiling = mma_tf32::Facts::kTilings[std::size_t(tiling)];
  const LaunchShape s = mma_tf32::Facts::shape(L);
  L.gridX = s.gridX;
  L.gridY = s.gridY;
  L.blockX = s.blockX;
  L.blockY = s.blockY;
  L.dynamicSharedFloats = s.dynamicSharedFloats;
  *slotsPerThread = s.eventsPerThread;
  return L;
}

bool traceOnEmulator(const KernelLaunch& L, const float* M, const float* N, float* P, Event* slots,
                     unsigned slotsPerThread, unsigned* overflow) {
  const std::size_t threads = std::size_t(L.gridX) * L.gridY * L.blockX * L.blockY;
  std::memset(static_cast<void*>(slots), 0, threads * slotsPerThread * sizeof(Event));
  *overflow = 0;
  EmuExec x;
  const auto args = tracedLaunchArgs<EmuExec::Args>(L, const_cast<float*>(M), const_cast<float*>(N), P, slots,
                                                    slotsPerThread, overflow);
  if (!mma_tf32::Facts::launch(x, L, args)) return false;
  if (!x.report.error.empty() || !x.report.divergences.empty() || x.report.outOfBoundsTotal) {
    std::fprintf(stderr, "emulator: %s, %zu divergences, %zu out of bounds\n", x.report.error.c_str(),
                 x.report.divergences.size(), x.report.outOfBoundsTotal);
    return false;
  }
  return true;
}

}  // namespace tilescope::mma_trace
