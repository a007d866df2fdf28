#include "kernels/cuda/cublas_sgemm.h"

#include "kernels/cuda/cublas_library.h"
#include "kernels/cuda/cuda_check.h"

namespace tilescope::cuda {

Result<CublasSgemm> CublasSgemm::create() {
  auto lib = cublasLibrary();
  if (!lib) return lib.error();
  CublasSgemm s;
  cublasHandle_t h = nullptr;
  CUBLAS_TRY((*lib)->create(&h));
  s.handle_ = h;
  CUBLAS_TRY((*lib)->setMathMode(h, CUBLAS_PEDANTIC_MATH));
  return s;
}

CublasSgemm::~CublasSgemm() {
  if (handle_) (*cublasLibrary())->destroy(static_cast<cublasHandle_t>(handle_));  // a handle: loaded
}

Status CublasSgemm::multiply(const float* M, const float* N, float* P, int j, int k, int l) const {
  // cuBLAS is column-major: a row-major j x l P is a column-major l x j P^T, and
  // P^T = N^T M^T, where N^T and M^T are exactly our row-major N and M read column-major.
  const float one = 1.0f, zero = 0.0f;
  CUBLAS_TRY((*cublasLibrary())->sgemm(static_cast<cublasHandle_t>(handle_), CUBLAS_OP_N, CUBLAS_OP_N, l, j, k, &one, N,
                                       l, M, k, &zero, P, l));
  return Ok{};
}

}  // namespace tilescope::cuda
