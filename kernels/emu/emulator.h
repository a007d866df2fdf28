// The CPU emulator: runs a kernel's source, compiled by the host compiler, for every thread
// of every block, with CUDA's barrier semantics.
//
// Blocks run one after another (y-major). Inside a block every thread is a fiber; the
// scheduler resumes the threads in threadIdx order, each runs until it reaches
// __syncthreads() or returns, and none passes a barrier before all threads of its block
// arrived there. A barrier that some threads never reach (they returned, or wait at
// another barrier) is reported as barrier divergence and the block is abandoned: never a
// hang. Global matrices and shared arrays are reached through views (kernels/trace/views.h), so
// an access outside its array is recorded with its index and line, never undefined
// behaviour in this process. Every block gets a fresh shared-memory arena, NaN-filled: what
// a block reads from a slot no thread of it wrote is NaN, whatever ran before it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/emu_types.h"

namespace tilescope::emu {

using ::tilescope::BarrierDivergence;
using ::tilescope::OutOfBoundsAccess;

struct Report {
  std::vector<OutOfBoundsAccess> outOfBounds;  // the first kMaxRecordedOutOfBounds
  std::size_t outOfBoundsTotal = 0;
  std::vector<BarrierDivergence> divergences;
  std::string error;  // a launch the emulator refused (empty when it ran)
  // Blocks cut short by a launch's barrier limit (runGrid's stopAfterBarriers): 0 when every
  // block ran to its end, so the launch was whole.
  std::size_t blocksStopped = 0;
  static constexpr std::size_t kMaxRecordedOutOfBounds = ::tilescope::kMaxRecordedOutOfBounds;
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
// stopAfterBarriers > 0: each block stops once all its threads have arrived at its
// stopAfterBarriers-th __syncthreads() (counted per block, as the scheduler releases them):
// the first barrier intervals of every block, exactly as a whole run begins them (the app's
// first picture of a large launch, before the whole run). A block that ends before it runs
// whole; report.blocksStopped counts those that did not.
void runGrid(Dim3 grid, Dim3 block, std::size_t dynamicSharedBytes, ThreadBody body, Report& report,
             int stopAfterBarriers = 0);

// Runs kernel(args...) for every thread of the grid; each thread gets its own copy of the
// arguments, as a CUDA thread does. launchStopping: only to each block's stopAfterBarriers-th
// barrier (runGrid).
template <class... Params, class... Args>
void launchStopping(Report& report, int stopAfterBarriers, void (*kernel)(Params...), Dim3 grid, Dim3 block,
                    std::size_t dynamicSharedBytes, Args... args) {
  auto thread = [&] { kernel(args...); };
  runGrid(grid, block, dynamicSharedBytes, ThreadBody(thread), report, stopAfterBarriers);
}
template <class... Params, class... Args>
void launch(Report& report, void (*kernel)(Params...), Dim3 grid, Dim3 block, std::size_t dynamicSharedBytes,
            Args... args) {
  launchStopping(report, 0, kernel, grid, block, dynamicSharedBytes, args...);
}

// Shared memory per block: CUDA's limit on static __shared__ arrays, and on dynamic shared
// memory without an opt-in attribute.
inline constexpr std::size_t kMaxStaticSharedBytes = 48 * 1024;
inline constexpr std::size_t kMaxDynamicSharedBytes = 48 * 1024;
// With the opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize, which kernels/cuda's launcher
// sets above 48 KiB): Hopper's 227 KiB per block. The emulator runs whatever a launcher may.
inline constexpr std::size_t kMaxDynamicSharedBytesOptIn = 227 * 1024;

}  // namespace tilescope::emu
