// Out-of-bounds accesses as the chapter explains them (figs. 5.11 and 5.12): a (row, col)
// outside its matrix. Read from the trace, so the GPU's trace reports them too. Each says
// where the kernel's linear index really lands: on another element of the same matrix (a
// row wrapped around) or past the end of the allocation.
#pragma once
#include <string>
#include <vector>

#include "core/trace/trace.h"

namespace tilescope {

struct BoundsViolation {
  Event event;
  char matrix = 'M';     // 'M', 'N' or 'P'
  int rows = 0, cols = 0;  // the matrix's shape
  long linearIndex = 0;  // row * cols + col, what the kernel's indexing computes
  bool insideAllocation = false;
  int wrapsToRow = -1, wrapsToCol = -1;  // the element actually touched, when inside

  std::string describe() const;  // "M(0,3) by blockIdx (0,0) threadIdx (1,0) in phase 1, line 32: index 3 wraps to M(1,0)"
};

// Every load or store whose element lies outside its matrix (zero fills excluded: they
// are the boundary check doing its job).
std::vector<BoundsViolation> findBoundsViolations(const Trace& trace);

}  // namespace tilescope
