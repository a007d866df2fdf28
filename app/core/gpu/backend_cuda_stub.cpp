// Built when the CUDA backend is not: the build had no nvcc.
#include "core/run/backend.h"

namespace tilescope {
Result<std::unique_ptr<Backend>> makeCudaBackend() {
  return unavailable("No CUDA in this build (nvcc was not found when it was configured): the CPU emulator runs the kernels; timings shown are the recorded H100 ones");
}
std::string cudaBuildDescription() { return "no CUDA code (built without nvcc)"; }
std::string cudaCodeNote() { return {}; }
}  // namespace tilescope
