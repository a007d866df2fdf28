// The GPU half of mma_trace.h: the traced kernel under nvcc, its events in device memory,
// launched as the app's traced launcher does (cuda::LaunchExec: tensor maps, shared memory).
#include <cuda_runtime.h>

#include <cstdio>

#include "kernels/cuda/cuda_exec.cuh"
#include "kernels/kernel_facts.h"
#include "kernels/portable.h"
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

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return false;
}

struct Views {
  GlobalView<float> M, N, P;
};
using GpuExec = cuda::LaunchExec<Views>;

}  // namespace

bool traceOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P, Event* slots, unsigned slotsPerThread,
                unsigned* overflow) {
  const std::size_t threads = std::size_t(L.gridX) * L.gridY * L.blockX * L.blockY;
  const std::size_t mBytes = std::size_t(L.j) * L.k * 4, nBytes = std::size_t(L.k) * L.l * 4,
                    pBytes = std::size_t(L.j) * L.l * 4, eBytes = threads * slotsPerThread * sizeof(Event);
  float *dM = nullptr, *dN = nullptr, *dP = nullptr;
  Event* dSlots = nullptr;
  unsigned* dOverflow = nullptr;
  bool good = ok(cudaMalloc(&dM, mBytes), "cudaMalloc") && ok(cudaMalloc(&dN, nBytes), "cudaMalloc") &&
              ok(cudaMalloc(&dP, pBytes), "cudaMalloc") && ok(cudaMalloc(&dSlots, eBytes), "cudaMalloc") &&
              ok(cudaMalloc(&dOverflow, 4), "cudaMalloc") && ok(cudaMemcpy(dM, M, mBytes, cudaMemcpyHostToDevice), "copy M") &&
              ok(cudaMemcpy(dN, N, nBytes, cudaMemcpyHostToDevice), "copy N") && ok(cudaMemset(dP, 0xff, pBytes), "poison P") &&
              ok(cudaMemset(dSlots, 0, eBytes), "clear slots") && ok(cudaMemset(dOverflow, 0, 4), "clear overflow");
  if (good) {
    GpuExec x;
    const auto args = tracedLaunchArgs<GpuExec::Args>(L, dM, dN, dP, dSlots, slotsPerThread, dOverflow);
    good = TRACE_KERNEL::Facts::launch(x, L, args) && !x.refused && ok(x.error, "traced launch") &&
           ok(cudaDeviceSynchronize(), "traced kernel") && ok(cudaMemcpy(P, dP, pBytes, cudaMemcpyDeviceToHost), "copy P") &&
           ok(cudaMemcpy(slots, dSlots, eBytes, cudaMemcpyDeviceToHost), "copy slots") &&
           ok(cudaMemcpy(overflow, dOverflow, 4, cudaMemcpyDeviceToHost), "copy overflow");
  }
  cudaFree(dM);
  cudaFree(dN);
  cudaFree(dP);
  cudaFree(dSlots);
  cudaFree(dOverflow);
  return good;
}

}  // namespace tilescope::mma_trace
