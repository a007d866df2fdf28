// One kernel's plain GPU build: its file compiled exactly as written (float* M, real
// __shared__ arrays), so the timed kernels are the book's text and nothing else.
// A generated translation unit (kernels_gen/gpu/plain_FILE.cu) includes this, then the kernel
// file inside a namespace of plain, then defines its part with TILESCOPE_PLAIN_GPU_PART.
#pragma once
#include "kernels/cuda/cuda_exec.cuh"
#include "kernels/cuda/gpu_launchers.h"
#include "kernels/portable.h"

namespace tilescope::plain {

struct PlainArgs {
  float *M, *N, *P;
};

template <class Facts>
std::optional<Status> launchPlain(const KernelLaunch& L, const float* M, const float* N, float* P) {
  // The book's kernels take `float* M`: the inputs are not written, but their type is not const.
  return cuda::launchWith<Facts>(L, PlainArgs{const_cast<float*>(M), const_cast<float*>(N), P}, "kernel launch <<<>>>");
}

}  // namespace tilescope::plain

// PART: the part's name in kGpuKernelParts; NS: the namespace (under plain) its file is in.
#define TILESCOPE_PLAIN_GPU_PART(PART, NS)                                                       \
  namespace tilescope {                                                                          \
  extern const PlainGpuPart PART;                                                                \
  const PlainGpuPart PART{&plain::launchPlain<plain::NS::Facts>, &cuda::attributesWith<plain::NS::Facts, plain::PlainArgs>}; \
  }
