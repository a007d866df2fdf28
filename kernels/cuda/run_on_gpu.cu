// The GPU executor: the same launchKernel() the emulator uses, with an Exec that launches
// through <<< >>>. This file holds every GPU instantiation (plain and traced, each kernel,
// GpuTileWidths): keep it the only one, since CI compiles it for five architectures.
#include <optional>
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

Error noInstantiation(const KernelLaunch& L) {
  return invalidInput("the GPU build has no instantiation of " + std::string(kernelInfo(L.kernel).name) +
                      " for tile width " + std::to_string(L.tile) + " (built for " + gpuTileWidthsText() +
                      "; tiled-dynamic takes any width)");
}
}  // namespace

Status launchOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P, const GpuTraceBuffers* trace) {
  CudaExec exec;
  const bool launched = trace ? launchKernel<GpuTileWidths>(
                                    exec, L, M, N, P,
                                    TraceProbe(TraceSink{trace->slots, trace->slotsPerThread, trace->overflow, L.j, L.k, L.l}))
                                   : launchKernel<GpuTileWidths>(exec, L, M, N, P, NoProbe{});
  if (!launched) return noInstantiation(L);
  return cuda::check(exec.error, "kernel launch <<<>>>");
}

namespace {
// An Exec for launchKernel that launches nothing: it asks the runtime about the function
// that would have been launched, with the block and dynamic shared memory of the launch.
struct AttributeExec {
  using Dim = dim3;
  template <class T>
  using Ptr = T*;

  template <class... Params, class... Args>
  void launch(void (*kernel)(Params...), Dim, Dim block, std::size_t sharedBytes, Args...) {
    cudaFuncAttributes attr{};
    if (Status s = cuda::check(cudaFuncGetAttributes(&attr, kernel), "cudaFuncGetAttributes"); !s) {
      error = s.error();
      return;
    }
    out.registersPerThread = attr.numRegs;
    out.staticSharedBytes = int(attr.sharedSizeBytes);
    out.maxThreadsPerBlock = attr.maxThreadsPerBlock;
    out.localBytesPerThread = int(attr.localSizeBytes);
    if (Status s = cuda::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out.activeBlocksPerSm, kernel,
                                                                             int(block.x * block.y * block.z),
                                                                             sharedBytes),
                               "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        !s)
      error = s.error();
  }

  std::optional<Error> error;  // the first CUDA call that failed
  GpuKernelAttributes out;
};
}  // namespace

Result<GpuKernelAttributes> gpuKernelAttributes(const KernelLaunch& L, bool traced) {
  AttributeExec exec;
  // The traced instantiation's sink is never written: nothing runs.
  const bool found = traced ? launchKernel<GpuTileWidths>(exec, L, nullptr, nullptr, nullptr,
                                                          TraceProbe(TraceSink{nullptr, 0, nullptr, L.j, L.k, L.l}))
                            : launchKernel<GpuTileWidths>(exec, L, nullptr, nullptr, nullptr, NoProbe{});
  if (!found) return noInstantiation(L);
  if (exec.error) return *exec.error;
  return exec.out;
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
