// A trace: every event of one traced launch, in the canonical order.
//
// Canonical order: blocks in y-major order (blockIdx.y, then blockIdx.x); inside a block,
// barrier interval by barrier interval; inside an interval, threads in linear order
// (threadIdx.y * blockDim.x + threadIdx.x); inside a thread, program order. A barrier
// arrival closes its thread's interval. The order depends only on the kernel and the
// config, never on how threads were scheduled, so two runs give identical traces, and
// replaying the events in this order is a legal execution of the block.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/launch_params.h"
#include "kernels/trace/trace_event.h"
#include "kernels/result.h"
#include "kernels/trace/step_rules.h"

namespace tilescope {

// Allocates without value-initialising (a decode or a device copy writes every byte
// anyway) and, for large traces, on 2 MiB boundaries with transparent huge pages asked
// for, so filling a gigabyte takes thousands of page faults instead of hundreds of
// thousands. Traces of the largest traceable sizes are about 1 GiB. The storage of the
// last traces freed (from 1 MiB up) is kept for the next ones of about their size (a new
// run replaces the one on screen, and a run needs two buffers: its slots and its decoded
// trace): their pages are already faulted in, which the kernel otherwise zeroes at first
// touch (about half of a 1.15 GiB GPU trace's capture time on an H200; 15 % of a slider
// change at 64^3 on the emulator).
template <class T>
struct EventAllocator {
  using value_type = T;
  EventAllocator() = default;
  template <class U>
  EventAllocator(const EventAllocator<U>&) {}
  T* allocate(std::size_t n);
  void deallocate(T* p, std::size_t n) { releaseEventStorage(p, n * sizeof(T)); }
  template <class U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;  // default-initialise: no zeroing
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const EventAllocator<U>&) const { return true; }
};
void* allocateEventStorage(std::size_t bytes);  // the allocation behind EventAllocator
void releaseEventStorage(void* p, std::size_t bytes);
template <class T>
T* EventAllocator<T>::allocate(std::size_t n) {
  return static_cast<T*>(allocateEventStorage(n * sizeof(T)));
}

using EventVector = std::vector<Event, EventAllocator<Event>>;

struct Trace {
  KernelLaunch launch;
  int phases = 0;
  EventVector events;
};

// Whether `trace` is in the canonical order above (blocks contiguous and y-major; inside a
// block, barrier interval by barrier interval, threads in linear order). Executors produce it
// by construction; a trace read from a file must be checked, since the timeline relies on it.
Status checkCanonicalOrder(const Trace& trace);

// "thread tx=1, ty=0": the one way threads are named, on screen, in lessons and by the CLI
// (the book's thread_{ty,tx} puts the row first; a name with both letters cannot be misread).
inline std::string threadName(int tx, int ty) { return "thread tx=" + std::to_string(tx) + ", ty=" + std::to_string(ty); }

inline int linearThread(const Event& e, unsigned blockX) { return int(e.threadY) * int(blockX) + e.threadX; }
inline int warpOf(const Event& e, unsigned blockX) { return linearThread(e, blockX) / kWarpSize; }
inline bool inBounds(const Event& e) { return (e.flags & kInBounds) != 0; }
inline bool zeroFilled(const Event& e) { return (e.flags & kZeroFill) != 0; }
// A read of global memory for a tile or a multiply-add: not a fill, and not the shared store of
// a value staged through registers (its read was an event of its own, kStagedRead).
inline bool readsGlobal(const Event& e) {
  return (e.op == Op::LoadM || e.op == Op::LoadN) && !zeroFilled(e) && !(e.flags & kStagedWrite);
}

// Multiply-adds of a k step, as the reads come (events in canonical order): a thread multiplies
// every M value it read in the step by every N value (1 x 1 in the chapter's kernels, TM x TN
// for a register tile's outer product). add() returns what this read adds, its width times the
// other side's values so far, so a step's additions sum to the product.
class KStepProducts {
 public:
  // wideMSpansK: a 128-bit read of M holds four k steps of one row (memory_layout.h's
  // wideReadOfMSpansK), so it is one M value for each of the four k steps its N reads cover.
  explicit KStepProducts(bool wideMSpansK = false) : wideMSpansK_(wideMSpansK) {}
  uint32_t add(const Event& e) {
    if (!isComputeRead(e) || e.k < 0) return 0;
    if (!first_ || first_->blockX != e.blockX || first_->blockY != e.blockY || first_->threadX != e.threadX ||
        first_->threadY != e.threadY || first_->phase != e.phase || first_->k != e.k) {
      first_ = &e;
      m_ = n_ = 0;
    }
    const bool n = e.op == Op::ReadN || e.op == Op::LoadN;
    const uint32_t width = !n && wideMSpansK_ ? 1u : uint32_t(eventWidth(e.flags));
    (n ? n_ : m_) += width;
    return width * (n ? m_ : n_);
  }

 private:
  bool wideMSpansK_;
  const Event* first_ = nullptr;
  uint32_t m_ = 0, n_ = 0;
};

std::string_view opName(Op op);  // "load_m", "read_n", "barrier", ...

}  // namespace tilescope
