// cuBLAS on the tensor cores in TF32, rung 10's reference line: cublasGemmEx with FP32 matrices
// and CUBLAS_COMPUTE_32F_FAST_TF32, so cuBLAS rounds M and N to TF32 and multiplies them on the
// tensor cores with FP32 sums, as rung 10 does (its own handle, default math: cuBLAS SGEMM's
// stays pedantic FP32, cublas_sgemm.h). Header-only: it needs no line in the build's sources.
#pragma once
#include <utility>

#include "kernels/cuda/cublas_library.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/result.h"

namespace tilescope::cuda {

class CublasTf32 {
 public:
  static Result<CublasTf32> create() {
    auto lib = cublasLibrary();
    if (!lib) return lib.error();
    CublasTf32 s;
    CUBLAS_TRY((*lib)->create(&s.handle_));
    return s;
  }
  CublasTf32(CublasTf32&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  CublasTf32& operator=(CublasTf32&& o) noexcept {
    std::swap(handle_, o.handle_);
    return *this;
  }
  CublasTf32(const CublasTf32&) = delete;
  CublasTf32& operator=(const CublasTf32&) = delete;
  ~CublasTf32() {
    if (handle_) (*cublasLibrary())->destroy(handle_);  // a handle: loaded
  }

  // P = M x N for row-major device matrices (M is j x k, N is k x l, P is j x l), queued on the
  // default stream: column-major P^T = N^T M^T, as CublasSgemm::multiply.
  Status multiply(const float* M, const float* N, float* P, int j, int k, int l) const {
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_TRY((*cublasLibrary())->gemmEx(handle_, CUBLAS_OP_N, CUBLAS_OP_N, l, j, k, &one, N, CUDA_R_32F, l, M, CUDA_R_32F, k, &zero,
                            P, CUDA_R_32F, l, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
    return Ok{};
  }

 private:
  CublasTf32() = default;
  cublasHandle_t handle_ = nullptr;
};

}  // namespace tilescope::cuda
