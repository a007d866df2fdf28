// The CUDA backend: runs a planned launch on device 0 with the kernels instantiated in
// kernels/cuda (run_on_gpu.h), plain or traced, and brings back P and the trace (through
// gpu_launch.h, which the lab's GPU runs share).
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "core/run/backend.h"
#include "core/gpu/gpu_launch.h"
#include "kernels/cuda/gpu_code.h"
#include "kernels/cuda/gpu_info.h"

namespace tilescope {

namespace {
class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(cuda::GpuInfo info) : info_(std::move(info)) {}

  BackendKind kind() const override { return BackendKind::Cuda; }
  std::string name() const override { return "cuda"; }
  std::string deviceName() const override { return info_.name; }

  Status supports(const LaunchPlan& plan) const override {
    if (!gpuSupports(plan.launch)) return noGpuInstantiation(plan.launch);
    return Ok{};
  }

  Result<KernelResources> compiledResources(const LaunchPlan& plan) override {
    auto attr = gpuKernelAttributes(plan.launch, false);
    if (!attr) return attr.error();
    KernelResources r = kernelResources(plan.launch);  // threads; dynamic shared memory as planned
    r.sharedBytesPerBlock = attr->staticSharedBytes + int(plan.launch.dynamicSharedFloats * sizeof(float));
    r.registersPerThread = attr->registersPerThread;
    r.registersSource = "cudaFuncGetAttributes on " + info_.name;
    return r;
  }

  Result<DeviceProfile> deviceProfile() override {
    if (!profile_) {
      auto copy = cuda::measureCopyBandwidth();
      if (!copy) return copy.error();
      profile_ = withMeasuredCeilings(profileFromProperties(info_.properties), *copy, info_.fp32PeakGflops(),
                                      info_.peakDerivation());
    }
    return *profile_;
  }

  Result<LaunchOutcome> launch(const LaunchPlan& plan, const Matrix& M, const Matrix& N, Matrix& P,
                               EventVector* slots) override {
    if (auto s = supports(plan); !s) return s.error();
    return session_.launch(plan, M, N, P, slots, [&](const float* dM, const float* dN, float* dP, const GpuTraceBuffers* t) {
      return launchOnGpu(plan.launch, dM, dN, dP, t);
    });
  }

 private:
  cuda::GpuInfo info_;
  std::optional<DeviceProfile> profile_;  // measured on first use
  GpuLaunchSession session_;
};
}  // namespace

Result<std::unique_ptr<Backend>> makeCudaBackend() {
  auto count = cuda::deviceCount();
  if (!count) return count.error();
  auto info = cuda::queryGpu(0);
  if (!info) return info.error();
  // Before any kernel runs: a build without machine code for this GPU says so, once.
  const cuda::GpuCodeTargets built = cuda::builtGpuCode();
  const std::string note = cuda::gpuCodeProblem(built, info->major, info->minor, info->name);
  static const bool announced = [&] {
    if (!note.empty()) std::fprintf(stderr, "tilescope: %s\n", note.c_str());
    return true;
  }();
  (void)announced;
  if (cuda::gpuCodeFit(built, info->major, info->minor) == cuda::GpuCodeFit::None) return unavailable(note);
  return std::unique_ptr<Backend>(std::make_unique<CudaBackend>(std::move(*info)));
}

std::string cudaBuildDescription() { return cuda::describeGpuCode(cuda::builtGpuCode()); }

std::string cudaCodeNote() { return cuda::deviceCount() ? cuda::gpuCodeProblemHere() : std::string(); }

}  // namespace tilescope
