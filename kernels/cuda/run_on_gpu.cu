// The GPU executor: the same launchKernel() the emulator uses, with an Exec that launches
// through <<< >>>. This file holds every GPU instantiation (plain and traced, each kernel,
// GpuTileWidths): keep it the only one, since CI compiles it for five architectures.
#include <string>
#include <utility>

#include "cuda_check.h"
#include "kernels/launch.h"
#include "run_on_gpu.h"

namespace tilescope {

namespace {
struct CudaExec {
  using Dim = dim3;
  template <class T>
  using Ptr = T*;

  // A launch error (bad configuration, too much shared memory) is reported by
  // cudaGetLastError right after <<< >>>; errors while the kernel runs come later, at the
  // caller's next synchronizing call, which is checked there.
  template <class... Params, class... Args>
  void launch(void (*kernel)(Params...), Dim grid, Dim block, std::size_t sharedBytes, Args... args) {
    kernel<<<grid, block, sharedBytes>>>(args...);
    error = cudaGetLastError();
  }

  cudaError_t error = cudaSuccess;
};
}  // namespace

Status launchOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P, const GpuTraceBuffers* trace) {
  CudaExec exec;
  const bool launched = trace ? launchKernel<GpuTileWidths>(
                                    exec, L, M, N, P,
                                    TraceProbe(TraceSink{trace->slots, trace->slotsPerThread, trace->overflow, L.j, L.k, L.l}))
                                   : launchKernel<GpuTileWidths>(exec, L, M, N, P, NoProbe{});
  if (!launched)
    return invalidInput("the GPU build has no instantiation of " + std::string(kernelInfo(L.kernel).name) +
                        " for tile width " + std::to_string(L.tile) + " (built for " + gpuTileWidthsText() +
                        "; tiled-dynamic takes any width)");
  return cuda::check(exec.error, "kernel launch <<<>>>");
}

bool gpuSupports(const KernelLaunch& L) {
  return !kernelInfo(L.kernel).tileIsCompileTime || containsTileWidth(GpuTileWidths{}, L.tile);
}

namespace {
template <int... Ts>
std::string widthList(std::integer_sequence<int, Ts...>) {
  std::string s;
  ((s += (s.empty() ? "" : ", ") + std::to_string(Ts)), ...);
  return s;
}
}  // namespace

std::string gpuTileWidthsText() { return "T = " + widthList(GpuTileWidths{}); }

}  // namespace tilescope
