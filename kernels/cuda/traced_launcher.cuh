// The GPU's traced build: the kernel files with their declarations rewritten into views
// (kernels/rewrite), the same text the emulator runs, so both record the same events.
#include "kernels/cuda/cuda_exec.cuh"
#include "kernels/trace/traced_surface.h"
#include "kernels/trace/arrivals_traced.h"  // after the surface: rung 9's counters over views

namespace tilescope::traced {
#include "kernels_gen/all_traced.h"
#include "kernels/visit_kernel.h"
}  // namespace tilescope::traced

namespace tilescope {

namespace {
struct TracedArgs {
  GlobalView<float> M, N, P;
};

TracedArgs tracedArgs(const KernelLaunch& L, const float* M, const float* N, float* P, const TraceSink& sink) {
  return {GlobalView<float>(const_cast<float*>(M), (long long)L.j * L.k, MatrixRole::M, sink),
          GlobalView<float>(const_cast<float*>(N), (long long)L.k * L.l, MatrixRole::N, sink),
          GlobalView<float>(P, (long long)L.j * L.l, MatrixRole::P, sink)};
}
}  // namespace

Status launchTracedOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P, const TraceSink& sink) {
  cuda::LaunchExec<TracedArgs> exec;
  const TracedArgs args = tracedArgs(L, M, N, P, sink);
  if (!traced::visitKernel(L.kernel, [&](auto facts) { return facts.launch(exec, L, args); }))
    return cuda::noInstantiation(L);
  if (exec.refused) return *exec.refused;
  return cuda::check(exec.error, "traced kernel launch <<<>>>");
}

Result<GpuKernelAttributes> tracedKernelAttributes(const KernelLaunch& L) {
  cuda::AttributeExec<TracedArgs> exec;
  if (!traced::visitKernel(L.kernel, [&](auto facts) { return facts.launch(exec, L, TracedArgs{}); }))
    return cuda::noInstantiation(L);
  if (exec.error) return *exec.error;
  return exec.out;
}

}  // namespace tilescope
