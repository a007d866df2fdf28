// The one place that turns a failing CUDA runtime or cuBLAS call into an Error value naming
// the call and the library's message. Nothing in the CUDA path exits or throws.
//
//   CUDA_TRY(cudaMalloc(&p, bytes));   // in a function returning Result<T> or Status
#pragma once
#include <cuda_runtime_api.h>

#include "kernels/result.h"

namespace tilescope::cuda {

// Ok when `code` is cudaSuccess, else Failed: "<call> failed: <cudaGetErrorString> (<name>)".
Status check(cudaError_t code, const char* call);
// The same for cuBLAS status codes (an int here so that this header needs no cublas_v2.h).
Status checkCublas(int code, const char* call);

}  // namespace tilescope::cuda

#define CUDA_TRY(call)                                                                  \
  do {                                                                                  \
    if (::tilescope::Status cudaTryStatus_ = ::tilescope::cuda::check((call), #call);   \
        !cudaTryStatus_)                                                                \
      return cudaTryStatus_.error();                                                    \
  } while (0)

#define CUBLAS_TRY(call)                                                                \
  do {                                                                                  \
    if (::tilescope::Status cublasTryStatus_ = ::tilescope::cuda::checkCublas(int(call), #call); \
        !cublasTryStatus_)                                                              \
      return cublasTryStatus_.error();                                                  \
  } while (0)
