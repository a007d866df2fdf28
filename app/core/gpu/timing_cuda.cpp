// The CUDA timing engine (timing.h): the plain kernels, the bench-only probe-free copies and
// cuBLAS, each verified and then timed by a GpuTimer (gpu_timer.h).
#include <algorithm>
#include <cuda_runtime_api.h>

#include "kernels/cuda/bench_probe_free.h"
#include "kernels/cuda/cublas_sgemm.h"
#include "kernels/cuda/cublas_tf32.h"
#include "kernels/cuda/gpu_info.h"
#include "kernels/cuda/run_on_gpu.h"
#include "core/gpu/gpu_timer.h"
#include "core/run/run.h"
#include "core/timing/timing.h"

namespace tilescope {

namespace {

class CudaTimingEngine final : public TimingEngine {
 public:
  CudaTimingEngine(cuda::GpuInfo info, cuda::CublasSgemm cublas, cuda::CublasTf32 tf32)
      : info_(std::move(info)), cublas_(std::move(cublas)), tf32_(std::move(tf32)), timer_(info_.l2Bytes) {}

  std::string deviceName() const override { return info_.name; }

  Result<Ceilings> ceilings() override {
    if (ceilings_.copyGBps > 0) return ceilings_;
    Ceilings c;
    c.fp32PeakGflops = info_.fp32PeakGflops();
    c.peakDerivation = info_.peakDerivation();
    auto bw = cuda::measureCopyBandwidth();
    if (!bw) return bw.error();
    c.copyGBps = *bw;
    ceilings_ = c;
    return c;
  }

  Result<TimingResult> time(const TimingCase& tc, const TimingOptions& options) override {
    if (tc.kind == TimedKind::Lab)  // a student's kernel never runs in the app's process
      return invalidInput("a lab kernel is timed by tilescope-lab-runner --cuda-time (lab::timeLab), not here");
    const Dims& d = tc.config.dims;
    KernelLaunch launch;
    if (!isCublas(tc.kind)) {
      auto plan = planLaunch(tc.config, false);
      if (!plan) return plan.error();
      launch = plan->launch;
      if (tc.kind == TimedKind::Kernel && !gpuSupports(launch))
        return invalidInput("the GPU build has no instantiation of " + tc.label() + " (built for " +
                            gpuTileWidthsText() + ")");
      if (tc.kind == TimedKind::ProbeFree && !cuda::probeFreeSupports(launch))
        return invalidInput("no probe-free bench copy of " + tc.label());
      // The unchecked tiled kernel indexes past the matrices unless T divides every side.
      if (kernelInfo(launch.kernel).needsMultipleOfTile &&
          (d.j % launch.tile || d.k % launch.tile || d.l % launch.tile))
        return invalidInput(tc.label() + " needs every dimension to be a multiple of T; not timed at " +
                            std::to_string(d.j) + "x" + std::to_string(d.k) + "x" + std::to_string(d.l));
    } else {
      for (int side : {d.j, d.k, d.l})
        if (side < 1 || side > kMaxDimension) return invalidInput("cuBLAS case: dimension out of range");
    }
    auto launchOnce = [&](const float* m, const float* n, float* p) -> Status {
      switch (tc.kind) {
        case TimedKind::Kernel: return launchOnGpu(launch, m, n, p, nullptr);
        case TimedKind::ProbeFree: return cuda::launchProbeFree(launch, m, n, p);
        case TimedKind::Cublas: return cublas_.multiply(m, n, p, d.j, d.k, d.l);
        case TimedKind::CublasTf32: return tf32_.multiply(m, n, p, d.j, d.k, d.l);
        case TimedKind::Lab: break;
      }
      return failure("unknown timed kind");
    };
    return timer_.time(tc, launchOnce, options);
  }

 private:
  cuda::GpuInfo info_;
  cuda::CublasSgemm cublas_;
  cuda::CublasTf32 tf32_;
  GpuTimer timer_;  // inputs of the last size, kept for the next case
  Ceilings ceilings_;
};
}  // namespace

Result<std::unique_ptr<TimingEngine>> makeTimingEngine() {
  auto count = cuda::deviceCount();
  if (!count) return count.error();
  auto info = cuda::queryGpu(0);
  if (!info) return info.error();
  auto cublas = cuda::CublasSgemm::create();
  if (!cublas) return cublas.error();
  auto tf32 = cuda::CublasTf32::create();
  if (!tf32) return tf32.error();
  return std::unique_ptr<TimingEngine>(
      std::make_unique<CudaTimingEngine>(std::move(*info), std::move(*cublas), std::move(*tf32)));
}

}  // namespace tilescope
