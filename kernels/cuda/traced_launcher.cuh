// One kernel's traced GPU build: its file with the declarations rewritten into views
// (kernels/rewrite), the same text the emulator runs, so both record the same events.
// A generated translation unit (kernels_gen/gpu/traced_FILE.cu) includes this, then the
// rewritten file inside a namespace of traced, then defines its part with TILESCOPE_TRACED_GPU_PART.
#pragma once
#include "kernels/cuda/cuda_exec.cuh"
#include "kernels/cuda/gpu_launchers.h"
#include "kernels/trace/traced_surface.h"
#include "kernels/trace/arrivals_traced.h"  // after the surface: rung 9's counters over views

namespace tilescope::traced {

struct TracedArgs {
  GlobalView<float> M, N, P;
};

inline TracedArgs tracedArgs(const KernelLaunch& L, const float* M, const float* N, float* P, const TraceSink& sink) {
  return {GlobalView<float>(const_cast<float*>(M), (long long)L.j * L.k, MatrixRole::M, sink),
          GlobalView<float>(const_cast<float*>(N), (long long)L.k * L.l, MatrixRole::N, sink),
          GlobalView<float>(P, (long long)L.j * L.l, MatrixRole::P, sink)};
}

template <class Facts>
std::optional<Status> launchTraced(const KernelLaunch& L, const float* M, const float* N, float* P, const TraceSink& sink) {
  return cuda::launchWith<Facts>(L, tracedArgs(L, M, N, P, sink), "traced kernel launch <<<>>>");
}

}  // namespace tilescope::traced

// PART: the part's name in kGpuKernelParts; NS: the namespace (under traced) its file is in.
#define TILESCOPE_TRACED_GPU_PART(PART, NS)                                                          \
  namespace tilescope {                                                                              \
  extern const TracedGpuPart PART;                                                                   \
  const TracedGpuPart PART{&traced::launchTraced<traced::NS::Facts>, &cuda::attributesWith<traced::NS::Facts, traced::TracedArgs>}; \
  }
