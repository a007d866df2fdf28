// The CUDA surface as the CPU emulator provides it. Only kernels/ includes this (through
// portable.h): it defines macros such as threadIdx that must not leak into other code.
//
// __shared__ becomes thread_local. At block scope thread_local implies static storage, so
// every emulated thread of a block (all fibers of one OS thread) sees the same array, as
// on the GPU; an OS thread runs one block at a time, so blocks never share it.
#pragma once
#include "emu_types.h"

namespace tilescope {
template <class T>
using GlobalPtr = emu::CheckedPtr<T>;
}

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ thread_local
#define threadIdx (::tilescope::emu::currentThread->threadIdx)
#define blockIdx (::tilescope::emu::currentThread->blockIdx)
#define blockDim (::tilescope::emu::currentThread->blockDim)
#define gridDim (::tilescope::emu::currentThread->gridDim)
#define __syncthreads() ::tilescope::emu::syncThreads(__LINE__)

