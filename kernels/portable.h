// The small CUDA surface the kernels may use, for both compilers.
// Under nvcc it is CUDA itself; under the host compiler the emulator supplies
// threadIdx, blockIdx, blockDim, gridDim and __syncthreads(). Only translation units that
// compile kernels include it: its macros must not reach other code.
#pragma once
#include "kernels/host_device.h"

#if !defined(__CUDACC__)
#include "kernels/cuda_surface.h"
#elif !defined(__CUDACC_RTC__)
#include <cuda_pipeline.h>  // __pipeline_memcpy_async (cp.async) for the ladder's top rungs

#include "kernels/ladder/copy_engine.h"  // TMA copies and mbarriers (rung 8)
#include "kernels/ladder/tensor_core.h"  // TF32 tensor-core MMA (rung 10)
#include "kernels/ladder/warpgroup_mma.h"  // warpgroup MMA through descriptors (rung 11)
#endif

#include "kernels/ceil_div.h"
