#include "kernels/cuda/gpu_info.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_buffer.h"

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
  // A machine without an NVIDIA GPU has no driver either: the runtime then reports an
  // "insufficient driver", which reads to a student as if a GPU were there. Say what it means.
  constexpr const char* kNoGpu =
      "No NVIDIA GPU here: the CPU emulator runs the kernels; timings shown are the recorded H100 ones";
  if (code != cudaSuccess) {
    (void)cudaGetLastError();
    if (code == cudaErrorNoDevice || code == cudaErrorInsufficientDriver) return unavailable(kNoGpu);
    return unavailable(std::string("The NVIDIA driver did not answer (") + cudaGetErrorString(code) +
                       "): the CPU emulator runs the kernels; timings shown are the recorded H100 ones");
  }
  if (count == 0) return unavailable(kNoGpu);
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
  DeviceProperties& p = info.properties;
  p.name = prop.name;
  p.major = prop.major;
  p.minor = prop.minor;
  p.multiProcessorCount = prop.multiProcessorCount;
  p.maxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  p.maxBlocksPerMultiProcessor = prop.maxBlocksPerMultiProcessor;
  p.maxThreadsPerBlock = prop.maxThreadsPerBlock;
  p.regsPerMultiprocessor = prop.regsPerMultiprocessor;
  p.regsPerBlock = prop.regsPerBlock;
  p.sharedMemPerMultiprocessor = prop.sharedMemPerMultiprocessor;
  p.sharedMemPerBlockOptin = prop.sharedMemPerBlockOptin;
  p.reservedSharedMemPerBlock = prop.reservedSharedMemPerBlock;
  p.clockKHz = info.clockKHz;
  return info;
}

Result<double> measureCopyBandwidth() {
  const std::size_t bytes = std::size_t(512) << 20;
  auto a = DeviceBuffer<unsigned char>::allocate(bytes, "copy source");
  if (!a) return a.error();
  auto b = DeviceBuffer<unsigned char>::allocate(bytes, "copy destination");
  if (!b) return b.error();
  CUDA_TRY(cudaMemset(a->data(), 1, bytes));
  auto start = DeviceEvent::create();
  if (!start) return start.error();
  auto stop = DeviceEvent::create();
  if (!stop) return stop.error();
  constexpr int kWarmup = 2, kTimed = 10;
  std::vector<float> ms;
  for (int r = 0; r < kWarmup + kTimed; ++r) {
    CUDA_TRY(cudaEventRecord(start->get()));
    CUDA_TRY(cudaMemcpy(b->data(), a->data(), bytes, cudaMemcpyDeviceToDevice));
    CUDA_TRY(cudaEventRecord(stop->get()));
    CUDA_TRY(cudaEventSynchronize(stop->get()));
    float elapsed = 0.0f;
    CUDA_TRY(cudaEventElapsedTime(&elapsed, start->get(), stop->get()));
    if (r >= kWarmup) ms.push_back(elapsed);
  }
  std::sort(ms.begin(), ms.end());
  const double median = 0.5 * (double(ms[kTimed / 2 - 1]) + double(ms[kTimed / 2]));
  return 2.0 * double(bytes) / (median * 1e-3) / 1e9;
}

}  // namespace tilescope::cuda
