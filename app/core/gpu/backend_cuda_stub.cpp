// Built when the CUDA backend is not: the build had no nvcc.
#include "core/run/backend.h"

namespace tilescope {
Result<std::unique_ptr<Backend>> makeCudaBackend() {
  return unavailable("CUDA backend not available: this build has no CUDA (nvcc was not found at configure time)");
}
}  // namespace tilescope
