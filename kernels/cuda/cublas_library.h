// cuBLAS, opened when a timing first asks for it. Every program of a CUDA build links the GPU
// code, but only the timings compare with cuBLAS; linked, its libraries (libcublasLt alone is
// over 500 MB) were mapped at every start of every test program, CLI and grading child, about
// 0.07 to 0.12 s of CPU each (tests/README.md, "Where CI's time goes").
//
//   auto lib = cublasLibrary();          // Result: loaded once, or why it cannot be
//   CUBLAS_TRY((*lib)->create(&handle));
#pragma once
#include <cublas_v2.h>

#include "kernels/result.h"

namespace tilescope::cuda {

// cublasGemmEx as the library exports it (the header adds a C++ overload taking an old
// cudaDataType compute type, so its address alone is ambiguous).
using CublasGemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                        const void*, const void*, cudaDataType, int, const void*, cudaDataType, int,
                                        const void*, void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);

// The cuBLAS calls tilescope makes, as the library exports them (cublas_v2.h's names are macros
// for the _v2 symbols).
struct CublasLibrary {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetMathMode) setMathMode = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;
  CublasGemmEx gemmEx = nullptr;
  decltype(&cublasGetStatusString) statusString = nullptr;
  decltype(&cublasGetStatusName) statusName = nullptr;
};

// The library, opened on the first call (thread-safe); later calls return the same answer.
// A failure names the library and the loader's reason.
Result<const CublasLibrary*> cublasLibrary();

}  // namespace tilescope::cuda
