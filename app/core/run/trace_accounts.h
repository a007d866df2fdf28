// Whether a run's trace accounts for its result (trace_accounts.cpp).
//
// Every graded figure is computed from the trace, so a trace that does not describe what
// produced P would grade a kernel for work it did not do (a kernel that computed P through a
// pointer the views never saw, then recorded decoy accesses; events rewritten after the fact).
// This check holds for any honest run on either backend, built-in kernels included
// (tests/core/run/trace_accounts_test.cpp): the lab grades nothing it does not pass.
//   - every recorded read of M or N from global memory carries the value at its address;
//   - every read of a shared slot carries a value a recorded write put into that slot in the
//     same block (any write of the block: the canonical order may list a racing write after
//     the read; the race check reports that), or NaN, the emulator's fill before any write;
//   - each thread's recorded multiply-adds (a k step's M values times its N values, as the
//     timeline counts them) sum, over its steps, to the sum of the P elements it stored,
//     within the verification's tolerance (a thread computing several elements by an outer
//     product sums to their sum);
//   - every element of P that holds a number was written by a recorded store of that number;
//   - a shared write that is no element of its matrix (a boundary check's fill, an address
//     outside the matrix) writes 0.
// Reads and writes of a kernel's workspace (rung 9's partial sums and arrival counters) carry
// no element of M, N or P: no rule checks their values, and a thread that made one has its
// products skipped (part of its sum went to, or came from, another block's thread); so has a
// lane that took part in a warp's tensor-core MMA (its sums are made of the warp's fragments).
#pragma once
#include <optional>
#include <string>

#include "core/run/matrix.h"
#include "core/trace/trace.h"

namespace tilescope {

struct TraceAccounting {
  // "the trace does not account for P[3][5]: ...", the first problem found; empty when none.
  std::optional<std::string> problem;
  long threadsChecked = 0;  // threads whose products were compared with what they stored
  // Threads whose products could not be valued from the trace alone (a 128-bit read of a slot
  // a tensor-map copy filled, a 128-bit read of M spanning four k steps, a thread that read or
  // wrote the workspace); their loads and reads were still checked. A read of P back exempts
  // no thread: it is checked against what was stored there and left out of the products.
  long threadsSkipped = 0;
};

// `freshShared`: each block's shared memory starts unwritten (NaN-filled on the emulator). On a
// GPU it holds what an earlier block left, which a racing read may see, so there (false) a
// shared read's value is not checked against the block's writes; it still feeds the products.
TraceAccounting accountForP(const Trace& trace, const Matrix& m, const Matrix& n, const Matrix& p,
                            bool freshShared = true);

}  // namespace tilescope
