// What a tensor map (cuTensorMapEncodeTiled) accepts, checked in one place for both
// executors, so that the emulator refuses exactly the launches the GPU would.
#pragma once
#include <string>

namespace tilescope {

// How the copy engine lays a box out in shared memory: as it lies in the matrix, or with the
// 128-byte swizzle (within each 1024 bytes of shared memory, the 16-byte chunk c of the
// 128-byte row r lands at chunk c ^ (r % 8): the eight rows of a column of chunks fall in
// eight different bank groups, so a warp reading down a column is not serialised).
enum class TileSwizzle : unsigned char { None, Bytes128 };

// "" when a rows x cols row-major float matrix can be described with boxes boxRows x boxCols.
inline std::string tensorMapProblem(const char* matrix, int rows, int cols, int boxRows, int boxCols,
                                    TileSwizzle swizzle = TileSwizzle::None) {
  const std::string m(matrix);
  if (cols % 4 != 0)
    return "a tensor map's row stride is a multiple of 16 bytes: " + m + "'s rows of " + std::to_string(cols) +
           " floats are not (k and l must be multiples of 4)";
  if (rows < 1 || cols < 1) return m + " is empty";
  if (boxRows < 1 || boxCols < 1 || boxRows > 256 || boxCols > 256 || boxCols % 4 != 0)
    return "a tensor map's box is 1 to 256 elements a side, its rows a multiple of 16 bytes";
  if (swizzle == TileSwizzle::Bytes128 && boxCols * 4 > 128)
    return "the 128-byte swizzle takes boxes whose rows are at most 128 bytes: " + m + "'s are " +
           std::to_string(boxCols * 4);
  return {};
}

}  // namespace tilescope
