// The CUDA surface as the CPU emulator provides it. Only kernels/ includes this (through
// portable.h): it defines macros such as threadIdx that must not leak into other code.
//
// The kernels the emulator runs are rewritten first (kernels/rewrite): their __shared__
// declarations become views over the block's arena, and traced_surface.h redefines
// __syncthreads() to record each arrival. What is left here is the untouched surface.
#pragma once
#include "emu_types.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define threadIdx (::tilescope::emu::currentThread->threadIdx)
#define blockIdx (::tilescope::emu::currentThread->blockIdx)
#define blockDim (::tilescope::emu::currentThread->blockDim)
#define gridDim (::tilescope::emu::currentThread->gridDim)
#define __syncthreads() ::tilescope::emu::syncThreads(__LINE__)

