// The one ceilDiv: tiles of width `tile` needed to cover `extent`. Callable from kernels
// (under nvcc) and from host code alike.
#pragma once

namespace tilescope {
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr int ceilDiv(int extent, int tile) { return (extent + tile - 1) / tile; }
}  // namespace tilescope
