// The CPU emulator: runs a kernel's source, compiled by the host compiler, for every thread
// of every block, with CUDA's barrier semantics.
//
// Blocks run one after another (y-major). Inside a block every thread is a fiber; the
// scheduler resumes the threads in threadIdx order, each runs until it reaches
// __syncthreads() or returns, and none passes a barrier before all threads of its block
// arrived there. A barrier that some threads never reach (they returned, or wait at
// another barrier) is reported as barrier divergence and the block is abandoned: never a
// hang. Global memory is reached through CheckedPtr, so an access outside an allocation is
// recorded with its index, never undefined behaviour in this process.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "emu_types.h"

namespace tilescope::emu {

struct OutOfBoundsAccess {
  std::string array;  // "M", "N" or "P"
  long index = 0;     // linear index the kernel computed
  long count = 0;     // elements in the allocation
  bool write = false;
  Dim3 block, thread;
};

struct BarrierDivergence {
  Dim3 block;
  int arrived = 0;        // threads waiting at a barrier
  int exited = 0;         // threads that returned instead
  int line = 0;           // line of the barrier the first waiting thread reached
  int otherLine = 0;      // a different barrier line another thread waits at (0 if none)
};

struct Report {
  std::vector<OutOfBoundsAccess> outOfBounds;  // the first kMaxRecordedOutOfBounds
  std::size_t outOfBoundsTotal = 0;
  std::vector<BarrierDivergence> divergences;
  std::string error;  // a launch the emulator refused (empty when it ran)
  static constexpr std::size_t kMaxRecordedOutOfBounds = 4096;
};

// Type-erased reference to the per-thread kernel body: no allocation per launch.
class ThreadBody {
 public:
  template <class F>
  explicit ThreadBody(F& f) : object_(&f), call_([](void* o) { (*static_cast<F*>(o))(); }) {}
  void operator()() const { call_(object_); }

 private:
  void* object_;
  void (*call_)(void*);
};

// Runs `body` for every thread of the grid; appends what went wrong to `report`.
void runGrid(Dim3 grid, Dim3 block, std::size_t dynamicSharedBytes, ThreadBody body, Report& report);

// The emulator as an executor for kernels/launch.h.
class Executor {
 public:
  using Dim = Dim3;
  template <class T>
  using Ptr = CheckedPtr<T>;

  template <class... Params, class... Args>
  void launch(void (*kernel)(Params...), Dim grid, Dim block, std::size_t dynamicSharedBytes, Args... args) {
    // Each thread calls the kernel with its own copy of the arguments (the probe included).
    auto thread = [&] { kernel(args...); };
    runGrid(grid, block, dynamicSharedBytes, ThreadBody(thread), report);
  }

  Report report;
};

}  // namespace tilescope::emu
