// What a tensor map (cuTensorMapEncodeTiled) accepts, checked in one place for both
// executors, so that the emulator refuses exactly the launches the GPU would.
#pragma once
#include <string>

namespace tilescope {

// "" when a rows x cols row-major float matrix can be described with boxes boxRows x boxCols.
inline std::string tensorMapProblem(const char* matrix, int rows, int cols, int boxRows, int boxCols) {
  const std::string m(matrix);
  if (cols % 4 != 0)
    return "a tensor map's row stride is a multiple of 16 bytes: " + m + "'s rows of " + std::to_string(cols) +
           " floats are not (k and l must be multiples of 4)";
  if (rows < 1 || cols < 1) return m + " is empty";
  if (boxRows < 1 || boxCols < 1 || boxRows > 256 || boxCols > 256 || boxCols % 4 != 0)
    return "a tensor map's box is 1 to 256 elements a side, its rows a multiple of 16 bytes";
  return {};
}

}  // namespace tilescope
