// The small CUDA surface the kernels may use, for both compilers.
// Under nvcc it is CUDA itself; under the host compiler the emulator supplies
// threadIdx, blockIdx, blockDim, gridDim, __shared__ and __syncthreads().
#pragma once

#if defined(__CUDACC__)
#define HOST_DEVICE __host__ __device__ __forceinline__
namespace tilescope {
// On the GPU a global matrix is a plain pointer.
template <class T>
using GlobalPtr = T*;
}  // namespace tilescope
#else
#include "emu/cuda_surface.h"
#define HOST_DEVICE inline
#endif

#include "ceil_div.h"
