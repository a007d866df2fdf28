#include "kernels/cuda/stream_k_workspace.h"

#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.h"

namespace tilescope::cuda {

namespace {
// A grow-only device buffer of T; never freed (the process's last launch may still use it).
template <class T>
struct Grown {
  T* data = nullptr;
  std::size_t count = 0;
  Status reserve(std::size_t n) {
    if (n <= count) return Ok{};
    if (data) CUDA_TRY(cudaFree(data));  // synchronizes: no launch still uses the old one
    data = nullptr;
    count = 0;
    CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&data), n * sizeof(T)));
    count = n;
    return Ok{};
  }
};
Grown<float> partials;
Grown<int> arrivals;
}  // namespace

Result<DeviceWorkspace> streamKWorkspace(std::size_t floats, std::size_t counters) {
  // At least one element each: a launch with no split tile still passes valid pointers.
  if (Status s = partials.reserve(floats ? floats : 1); !s) return s.error();
  if (Status s = arrivals.reserve(counters ? counters : 1); !s) return s.error();
  // No counters (one block per tile, no split): nothing to zero, and no memset queued.
  if (counters) CUDA_TRY(cudaMemsetAsync(arrivals.data, 0, counters * sizeof(int)));
  return DeviceWorkspace{partials.data, arrivals.data};
}

}  // namespace tilescope::cuda
