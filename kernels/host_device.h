// HOST_DEVICE: a function both compilers build, `__host__ __device__` under nvcc and plain
// `inline` elsewhere. No CUDA surface comes with it (portable.h adds that), so plain host
// code may include headers that use it.
#pragma once

#if defined(__CUDACC__)
#define HOST_DEVICE __host__ __device__ __forceinline__
#else
#define HOST_DEVICE inline
#endif
