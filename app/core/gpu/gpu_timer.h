// How every GPU timing in tilescope is taken (CUDA builds only): one launch into a poisoned P
// verified against the double-precision reference, and only then warm-up launches and timed
// ones, each between a pair of CUDA events, rotating among copies of the inputs that together
// are twice the L2 cache (so repeats do not just hit L2); the median is the result.
//
// Used by the timing engine (timing_cuda.cpp: the built-in kernels and cuBLAS, in the app's
// process) and by tilescope-lab-runner --cuda-time (a student's kernel as written, in a
// process of its own): both are timed the same way, so their numbers compare.
#pragma once
#include <cstddef>
#include <functional>

#include "kernels/cuda/device_buffer.h"
#include "core/run/matrix.h"
#include "core/timing/timing.h"

namespace tilescope {

// Launches the kernel once on device pointers M (j x k), N (k x l) and P (j x l); returns once
// the launch is queued.
using TimedLaunch = std::function<Status(const float* M, const float* N, float* P)>;

class GpuTimer {
 public:
  explicit GpuTimer(std::size_t l2Bytes) : l2Bytes_(l2Bytes) {}

  // Draws the inputs of `config` (as executeRun does for its seed) and copies them to the
  // device, unless the last case had the same dims and seed. time() calls it too; calling it
  // first keeps the (host-side) drawing out of whatever the caller then limits in time.
  Status prepare(const LaunchConfig& config);

  // Verifies, then times `launch` for `what` (its dims and seed). A wrong P (NaN included) is
  // a result with verified=false and no time; an Error means it could not run (a CUDA call
  // failed, the kernel faulted, cancelled).
  Result<TimingResult> time(const TimingCase& what, const TimedLaunch& launch, const TimingOptions& options);

 private:
  struct InputSet {
    cuda::DeviceBuffer<float> m, n, p;
  };
  std::size_t l2Bytes_;
  Dims dims_{};
  uint64_t seed_ = 0;
  Matrix hostM_, hostN_;
  std::vector<InputSet> sets_;
};

}  // namespace tilescope
