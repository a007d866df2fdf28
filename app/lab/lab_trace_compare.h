// Whether the GPU ran the kernel the interpreter ran: with --backend cuda the GPU's traced run
// (the kernel's own code over the views, tilescope-lab-runner --cuda) must give the
// interpreter's trace, event for event in canonical order (the same operations, lines,
// threads, phases, elements and slots; the same values, except what a GPU leaves undefined:
// a shared read not ordered after its write by a barrier, a load outside its matrix, and the
// sums, which the GPU forms with FMAs). Anything else is a kernel that behaves differently on
// the GPU (one that detects the interpreter and takes another path there).
#pragma once
#include <string>

#include "core/trace/trace.h"

namespace tilescope::lab {

struct TraceDifference {
  long differences = 0;
  std::string first;  // the first difference, in words ("event 12 is Barrier at line 15 ... in the lab's run and ...")
};

// `race`: the interpreter found a hazard, so no shared read's value is compared.
TraceDifference compareWithGpu(const Trace& interpreted, const Trace& gpu, bool race);

}  // namespace tilescope::lab
