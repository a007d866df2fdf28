// Tensor maps for Hopper's copy engine (rung 8), made on the host. cuTensorMapEncodeTiled is
// a driver API function: it is reached through the runtime's driver entry point
// (cudaGetDriverEntryPointByVersion), so nothing links libcuda directly.
#pragma once
#include <cuda.h>

#include "kernels/result.h"
#include "kernels/ladder/tensor_map_rules.h"

namespace tilescope::cuda {

// A map of the rows x cols row-major float matrix at `base` (device memory), copied in boxes
// of boxRows x boxCols, zero-filled outside the matrix, laid out in shared memory as `swizzle`
// says (the destination then 1024-byte aligned). Refused (InvalidInput) on a device
// below sm_90 and where a tensor map cannot describe the matrix (kernels/ladder/tensor_map_rules.h).
Status encodeTileMap(CUtensorMap& out, const float* base, const char* matrix, int rows, int cols, int boxRows,
                     int boxCols, TileSwizzle swizzle);

}  // namespace tilescope::cuda
