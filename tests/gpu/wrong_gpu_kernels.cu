// The same one-line kernel compiled twice by tests/gpu/CMakeLists.txt, for code the test's GPU
// should not get: WRONG_GPU_NAME picks the name. Built once for sm_80 machine code only
// (launchSm80Only), once as the no-GPU check-only build's compute_90a PTX with the device
// optimiser off (launchCheckOnlyPtx).
#include <cuda_runtime.h>

namespace {
__global__ void writeSeven(int* out) { *out = 7; }
}  // namespace

// Launches the kernel on one thread and waits: the launch's error, or the value it wrote and
// the PTX version the runtime says its code came from.
cudaError_t WRONG_GPU_NAME(int* written, int* ptxVersion) {
  int* device = nullptr;
  if (cudaError_t e = cudaMalloc(&device, sizeof(int)); e != cudaSuccess) return e;
  writeSeven<<<1, 1>>>(device);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaMemcpy(written, device, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(device);
  cudaFuncAttributes attr{};
  if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, writeSeven);
  *ptxVersion = attr.ptxVersion;
  return e;
}
