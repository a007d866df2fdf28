// One kernel's plain GPU build: its file compiled exactly as written (float* M, real
// __shared__ arrays), so the timed kernels are the book's text and nothing else.
// A generated translation unit (kernels_gen/gpu/plain_FILE.cu) includes this, then the kernel
// file inside namespace plain::FILE, then says TILESCOPE_PLAIN_GPU_LAUNCHER(FILE).
#pragma once
#include "kernels/cuda/cuda_exec.cuh"
#include "kernels/cuda/gpu_launchers.h"
#include "kernels/portable.h"

namespace tilescope::plain {

struct PlainArgs {
  float *M, *N, *P;
};

template <class Facts>
Status launchPlain(const KernelLaunch& L, const float* M, const float* N, float* P) {
  cuda::LaunchExec<PlainArgs> exec;
  // The book's kernels take `float* M`: the inputs are not written, but their type is not const.
  const PlainArgs args{const_cast<float*>(M), const_cast<float*>(N), P};
  if (!Facts::launch(exec, L, args)) return cuda::noInstantiation(L);
  if (exec.refused) return *exec.refused;
  return cuda::check(exec.error, "kernel launch <<<>>>");
}

template <class Facts>
Result<GpuKernelAttributes> plainAttributes(const KernelLaunch& L) {
  cuda::AttributeExec<PlainArgs> exec;
  if (!Facts::launch(exec, L, PlainArgs{})) return cuda::noInstantiation(L);
  if (exec.error) return *exec.error;
  return exec.out;
}

}  // namespace tilescope::plain

#define TILESCOPE_PLAIN_GPU_LAUNCHER(file)                                                              \
  namespace tilescope::plain {                                                                          \
  const PlainGpuLauncher launcher_##file{&launchPlain<file::Facts>, &plainAttributes<file::Facts>}; \
  }
