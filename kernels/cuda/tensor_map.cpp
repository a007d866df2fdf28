#include "kernels/cuda/tensor_map.h"

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled
#include <cuda_runtime.h>

#include <string>

#include "kernels/cuda/cuda_check.h"
#include "kernels/ladder/tensor_map_rules.h"

namespace tilescope::cuda {

namespace {
Result<PFN_cuTensorMapEncodeTiled_v12000> encoder() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  CUDA_TRY(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || !fn)
    return invalidInput("the driver has no cuTensorMapEncodeTiled (tma-pipeline needs CUDA 12 or newer)");
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}
}  // namespace

Status encodeTileMap(CUtensorMap& out, const float* base, const char* matrix, int rows, int cols, int boxRows,
                     int boxCols, TileSwizzle swizzle) {
  int device = 0, major = 0, minor = 0;
  CUDA_TRY(cudaGetDevice(&device));
  CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_TRY(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major < 9)
    return invalidInput("tma-pipeline needs sm_90 (Hopper's copy engine and mbarrier transactions); this GPU is sm_" +
                        std::to_string(major) + std::to_string(minor));
  if (std::string problem = tensorMapProblem(matrix, rows, cols, boxRows, boxCols, swizzle); !problem.empty())
    return invalidInput(problem);
  static const Result<PFN_cuTensorMapEncodeTiled_v12000> encode = encoder();
  if (!encode) return encode.error();
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};  // innermost first
  const cuuint64_t strides[1] = {cuuint64_t(cols) * sizeof(float)};  // bytes from one row to the next
  const cuuint32_t box[2] = {cuuint32_t(boxCols), cuuint32_t(boxRows)};
  const cuuint32_t elementStrides[2] = {1, 1};
  // The kernel indexes the swizzled slots itself, and the emulator writes them the same way
  // (kernels/trace/views_tma.h); a swizzled destination must be 1024-byte aligned.
  const CUtensorMapSwizzle layout =
      swizzle == TileSwizzle::Bytes128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE;
  const CUresult r = (*encode)(&out, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(base), dims, strides, box,
                               elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, layout,
                               CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return Error{ErrorKind::Failed, "cuTensorMapEncodeTiled failed with CUresult " + std::to_string(int(r))};
  return Ok{};
}

}  // namespace tilescope::cuda
