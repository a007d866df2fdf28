// The reference line of every plot: cuBLAS SGEMM in plain FP32. CUBLAS_PEDANTIC_MATH keeps
// it off TF32 tensor cores and any reduced-precision shortcut, so it computes the same
// FP32 product our kernels do, only faster.
#pragma once
#include <utility>

#include "kernels/result.h"

namespace tilescope::cuda {

class CublasSgemm {
 public:
  static Result<CublasSgemm> create();
  CublasSgemm(CublasSgemm&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  CublasSgemm& operator=(CublasSgemm&& o) noexcept {
    std::swap(handle_, o.handle_);
    return *this;
  }
  CublasSgemm(const CublasSgemm&) = delete;
  CublasSgemm& operator=(const CublasSgemm&) = delete;
  ~CublasSgemm();

  // P = M x N for row-major device matrices (M is j x k, N is k x l, P is j x l), queued on
  // the default stream.
  Status multiply(const float* M, const float* N, float* P, int j, int k, int l) const;

 private:
  CublasSgemm() = default;
  void* handle_ = nullptr;  // cublasHandle_t, kept opaque so this header needs no cuBLAS
};

}  // namespace tilescope::cuda
