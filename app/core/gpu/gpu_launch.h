// One launch on device 0 the way every traced GPU run goes: padded, NaN-poisoned copies of
// M, N and P, zeroed trace slots, the launch, then the trace decoded on the device into
// canonical order and copied back. What launches the kernel is the caller's: the CUDA
// backend's compiled-in kernels (launchOnGpu), or the lab's NVRTC module
// (tilescope-lab-runner --cuda), so both get their trace exactly the same way.
#pragma once
#include <functional>

#include "core/run/backend.h"
#include "kernels/cuda/device_buffer.h"
#include "kernels/cuda/host_copy.h"
#include "kernels/cuda/run_on_gpu.h"

namespace tilescope {

// Launches the kernel on M, N, P (device pointers) writing into `trace` (null: untraced);
// returns once the launch is queued. Errors raised while the kernel runs surface after it.
using GpuLauncher = std::function<Status(const float* M, const float* N, float* P, const GpuTraceBuffers* trace)>;

class GpuLaunchSession {
 public:
  // Runs `launcher` for `plan` (a trace into `slots` when given, the canonical trace as in
  // LaunchOutcome::slotsDecoded) and copies P back. An error names the failing CUDA call.
  Result<LaunchOutcome> launch(const LaunchPlan& plan, const Matrix& M, const Matrix& N, Matrix& P, EventVector* slots,
                               const GpuLauncher& launcher);

 private:
  cuda::StagedCopier copier_;  // pinned buffers, kept for the next trace
  // Trace buffers reach a gigabyte at the largest traceable sizes: kept for the next trace
  // rather than a cudaMalloc and a cudaFree (which synchronizes) of each at every launch.
  cuda::DeviceBuffer<Event> slotCache_, decodedCache_;
};

}  // namespace tilescope
