#include "kernels/cuda/cuda_check.h"

#include <string>

#include "kernels/cuda/cublas_library.h"
#include "kernels/cuda/gpu_code.h"

namespace tilescope::cuda {

Status check(cudaError_t code, const char* call) {
  if (code == cudaSuccess) return Ok{};
  // Clear a sticky-free error so the next unrelated call does not report it again.
  (void)cudaGetLastError();
  std::string message = std::string(call) + " failed: " + cudaGetErrorString(code) + " (" + cudaGetErrorName(code) + ")";
  // Never a bare "no kernel image": which GPUs the build has code for, and the rebuild.
  if (code == cudaErrorNoKernelImageForDevice || code == cudaErrorUnsupportedPtxVersion) {
    const std::string why = gpuCodeProblemHere();
    message += ": " + (why.empty() ? "this build has " + describeGpuCode(builtGpuCode()) : why);
  }
  return failure(message);
}

Status checkCublas(int code, const char* call) {
  if (code == CUBLAS_STATUS_SUCCESS) return Ok{};
  const auto status = cublasStatus_t(code);
  auto lib = cublasLibrary();  // loaded: a status came from it
  if (!lib) return failure(std::string(call) + " failed: cuBLAS status " + std::to_string(code));
  return failure(std::string(call) + " failed: " + (*lib)->statusString(status) + " (" + (*lib)->statusName(status) + ")");
}

}  // namespace tilescope::cuda
