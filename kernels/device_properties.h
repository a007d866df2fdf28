// What the CUDA runtime reports about a device. Plain host C++ below app/ so that the GPU
// executor (kernels/cuda) can fill it and the core's analyses can read it.
#pragma once
#include <cstddef>
#include <string>

namespace tilescope {

// What the CUDA runtime reports about a device, field for field as in cudaDeviceProp (plus
// the clock, which CUDA 13 moved to cudaDevAttrClockRate). A plain struct so that the
// conversion below is tested without a GPU: the CUDA backend copies cudaDeviceProp into it.
struct DeviceProperties {
  std::string name;
  int major = 0, minor = 0;  // compute capability
  int multiProcessorCount = 0;
  int maxThreadsPerMultiProcessor = 0;
  int maxBlocksPerMultiProcessor = 0;
  int maxThreadsPerBlock = 0;
  int regsPerMultiprocessor = 0;
  int regsPerBlock = 0;
  std::size_t sharedMemPerMultiprocessor = 0;
  std::size_t sharedMemPerBlockOptin = 0;
  std::size_t reservedSharedMemPerBlock = 0;
  int clockKHz = 0;
};

}  // namespace tilescope
