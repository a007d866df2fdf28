#include "gpu_info.h"

#include <cuda_runtime_api.h>

#include <cstdio>

#include "cuda_check.h"

namespace tilescope::cuda {

int fp32LanesPerSm(int major, int minor) {
  if (major == 6) return minor == 0 ? 64 : 128;
  if (major == 7) return 64;
  if (major == 8) return minor == 0 ? 64 : 128;
  if (major >= 9) return 128;
  return 0;
}

double GpuInfo::fp32PeakGflops() const { return double(smCount) * (clockKHz / 1e6) * fp32LanesPerSm * 2.0; }

std::string GpuInfo::peakDerivation() const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%d SMs x %d MHz x %d FP32 lanes x 2 FLOP/FMA = %.1f TFLOP/s", smCount,
                clockKHz / 1000, fp32LanesPerSm, fp32PeakGflops() / 1000.0);
  return buf;
}

Result<int> deviceCount() {
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  if (code != cudaSuccess) {
    (void)cudaGetLastError();
    return unavailable(std::string("no CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorString(code));
  }
  if (count == 0) return unavailable("no CUDA device: the driver reports none");
  return count;
}

Result<GpuInfo> queryGpu(int device) {
  GpuInfo info;
  info.device = device;
  cudaDeviceProp prop{};
  CUDA_TRY(cudaGetDeviceProperties(&prop, device));
  info.name = prop.name;
  info.major = prop.major;
  info.minor = prop.minor;
  info.smCount = prop.multiProcessorCount;
  info.l2Bytes = std::size_t(prop.l2CacheSize);
  info.globalBytes = prop.totalGlobalMem;
  // cudaDeviceProp::clockRate is gone in CUDA 13; the attribute still reports the peak clock.
  CUDA_TRY(cudaDeviceGetAttribute(&info.clockKHz, cudaDevAttrClockRate, device));
  info.fp32LanesPerSm = fp32LanesPerSm(info.major, info.minor);
  return info;
}

}  // namespace tilescope::cuda
