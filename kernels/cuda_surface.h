// The CUDA surface as the CPU emulator provides it. Only kernels/ includes this (through
// portable.h): it defines macros such as threadIdx that must not leak into other code.
//
// The kernels the emulator runs are rewritten first (kernels/rewrite): their __shared__
// declarations become views over the block's arena, and traced_surface.h redefines
// __syncthreads() to record each arrival. What is left here is the untouched surface.
#pragma once
// `#pragma unroll` is nvcc's; g++ ignores it (the build passes -Wno-unknown-pragmas, see the
// top-level CMakeLists.txt: a diagnostic pragma here cannot silence it).
#include "kernels/emu_types.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __grid_constant__
#define threadIdx (::tilescope::emu::currentThread->threadIdx)
#define blockIdx (::tilescope::emu::currentThread->blockIdx)
#define blockDim (::tilescope::emu::currentThread->blockDim)
#define gridDim (::tilescope::emu::currentThread->gridDim)
#define __syncthreads() ::tilescope::emu::syncThreads(__LINE__)


// CUDA's 128-bit vector type and <cuda_pipeline.h>'s asynchronous copy, as the ladder's
// kernels use them. The emulator copies at once (views.h records the copy as a load), so
// committing and waiting have nothing left to do.
struct alignas(16) float4 {
  float x, y, z, w;
};
inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
inline void __pipeline_commit() {}
inline void __pipeline_wait_prior(unsigned) {}
