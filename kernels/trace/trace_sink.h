// Where a traced launch writes its events, and what the recorder must know about the
// launch to name what each access touched. Plain data, copied into every traced kernel.
#pragma once
#include "kernels/std_int.h"

#include "kernels/host_device.h"
#include "kernels/trace/trace_event.h"

namespace tilescope {

// The book's convention: the first three pointer parameters are M (j x k), N (k x l) and
// P (j x l). Any further pointer parameter is Other.
enum class MatrixRole : uint8_t { M = 0, N = 1, P = 2, Other = 3 };

// What a kernel's facts say about one shared array (in declaration order, as the
// declaration rewrite numbers them): which matrix it holds tiles of, the length of a tile
// row in elements (0: the declared inner extent of a 2-D array), and whether one tile row
// is copied from one matrix row (so a column past the row's end is fig. 5.11's wrap).
struct SharedArrayFacts {
  MatrixRole matrix = MatrixRole::Other;
  int rowStride = 0;
  bool tileRowIsMatrixRow = false;
};
inline constexpr int kMaxSharedArrays = 8;

struct TraceSink {
  Event* slots = nullptr;        // slotsPerThread per thread of the grid; null: record nothing
  unsigned slotsPerThread = 0;
  unsigned* overflow = nullptr;  // set to 1 when a thread needs more slots than it has
  int j = 0, k = 0, l = 0;       // M is j x k, N is k x l, P is j x l
  SharedArrayFacts shared[kMaxSharedArrays];

  HOST_DEVICE int rowsOf(MatrixRole r) const { return r == MatrixRole::N ? k : j; }
  HOST_DEVICE int colsOf(MatrixRole r) const { return r == MatrixRole::M ? k : l; }
  HOST_DEVICE const SharedArrayFacts& sharedArray(int id) const {
    return shared[id >= 0 && id < kMaxSharedArrays ? id : kMaxSharedArrays - 1];
  }
};

}  // namespace tilescope
