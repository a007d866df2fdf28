// What one block of a kernel asks of an SM (threads, shared memory, registers): the backend
// reports it for a compiled kernel, and the occupancy analysis (core/run/occupancy.h)
// turns it into resident blocks.
#pragma once
#include <string>

#include "kernels/launch_params.h"

namespace tilescope {

// What one block of a kernel asks of an SM. A plain struct: the CUDA backend fills it from
// cudaFuncGetAttributes (Backend::compiledResources) when it has a device.
struct KernelResources {
  int threadsPerBlock = 0;
  int sharedBytesPerBlock = 0;  // static + dynamic
  int registersPerThread = 0;
  std::string registersSource;  // "profile estimate: ...", "cudaFuncGetAttributes on <device>", "--registers"
};

// Registers the chapter's kernels used when built by ptxas of CUDA 13.0 for sm_80 and sm_90
// (the kernel files as written): 31 or 32, so 32 is the estimate without a device. The ladder's
// register tiles need far more (rung 9 at 128 x 256: 168 at sm_90a), which only a GPU run's
// ptxas knows: their source says the estimate is under the tile's own accumulators.
inline constexpr int kEstimatedRegistersPerThread = 32;

// Threads and shared memory of a planned launch, with the estimated register count.
KernelResources kernelResources(const KernelLaunch& launch);

}  // namespace tilescope
