#include "kernels/cuda/stream_k_workspace.h"

#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.h"

namespace tilescope::cuda {

namespace {
// A grow-only device buffer of T; never freed (the process's last launch may still use it).
// A new buffer is zeroed when `zero` (the flags: zero is below every generation).
template <class T>
struct Grown {
  T* data = nullptr;
  std::size_t count = 0;
  // Whether the buffer is new (nothing in it is left from an earlier launch).
  Result<bool> reserve(std::size_t n, bool zero) {
    if (n <= count) return false;
    if (data) CUDA_TRY(cudaFree(data));  // synchronizes: no launch still uses the old one
    data = nullptr;
    count = 0;
    CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&data), n * sizeof(T)));
    if (zero) CUDA_TRY(cudaMemset(data, 0, n * sizeof(T)));
    count = n;
    return true;
  }
};
Grown<float> partials;
Grown<int> flags;
int generation = 0;  // the last one published; every flag holds at most this
}  // namespace

Result<DeviceWorkspace> streamKWorkspace(std::size_t floats, std::size_t flagCount, bool fresh) {
  // At least one element each: a launch with no split tile still passes valid pointers.
  if (Result<bool> r = partials.reserve(floats ? floats : 1, false); !r) return r.error();
  Result<bool> grown = flags.reserve(flagCount ? flagCount : 1, true);
  if (!grown) return grown.error();
  // No flags (one block per tile, no split): nothing is published or awaited.
  if (flagCount == 0) return DeviceWorkspace{partials.data, flags.data, generation};
  if (fresh && !*grown) CUDA_TRY(cudaMemsetAsync(flags.data, 0, flags.count * sizeof(int)));
  // A wrap-around (2^31 launches) would leave flags above the generation: start over from 0.
  if (generation == 0x7fffffff) {
    CUDA_TRY(cudaMemsetAsync(flags.data, 0, flags.count * sizeof(int)));
    generation = 0;
  }
  generation = fresh ? 1 : generation + 1;
  return DeviceWorkspace{partials.data, flags.data, generation};
}

}  // namespace tilescope::cuda
