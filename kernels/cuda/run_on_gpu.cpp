// The GPU's plain build: every kernel file compiled exactly as written (float* M, real
// __shared__ arrays), so the timed kernels are the book's text and nothing else. This file
// and run_on_gpu_traced.cu hold every GPU instantiation: keep it so, since CI compiles them
// for five architectures.
#include <string>
#include <utility>

#include "kernels/cuda/cuda_exec.cuh"
#include "kernels/portable.h"

namespace tilescope::plain {
#include "kernels_gen/all_plain.h"
#include "kernels/visit_kernel.h"
}  // namespace tilescope::plain

namespace tilescope {

namespace {
struct PlainArgs {
  float *M, *N, *P;
};
}  // namespace

Status launchPlainOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P) {
  cuda::LaunchExec<PlainArgs> exec;
  // The book's kernels take `float* M`: the inputs are not written, but their type is not const.
  const PlainArgs args{const_cast<float*>(M), const_cast<float*>(N), P};
  if (!plain::visitKernel(L.kernel, [&](auto facts) { return facts.launch(exec, L, args); }))
    return cuda::noInstantiation(L);
  if (exec.refused) return *exec.refused;
  return cuda::check(exec.error, "kernel launch <<<>>>");
}

Result<GpuKernelAttributes> plainKernelAttributes(const KernelLaunch& L) {
  cuda::AttributeExec<PlainArgs> exec;
  if (!plain::visitKernel(L.kernel, [&](auto facts) { return facts.launch(exec, L, PlainArgs{}); }))
    return cuda::noInstantiation(L);
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

namespace tilescope {

Status launchOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P, const GpuTraceBuffers* trace) {
  if (!trace) return launchPlainOnGpu(L, M, N, P);
  return launchTracedOnGpu(L, M, N, P, traceSinkFor(L, trace->slots, trace->slotsPerThread, trace->overflow));
}

Result<GpuKernelAttributes> gpuKernelAttributes(const KernelLaunch& L, bool traced) {
  return traced ? tracedKernelAttributes(L) : plainKernelAttributes(L);
}

}  // namespace tilescope
