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
#include <string_view>
#include <vector>

#include "kernels/launch_params.h"
#include "kernels/trace_event.h"
#include "result.h"

namespace tilescope {

struct LaunchPlan;

struct Trace {
  KernelLaunch launch;
  int phases = 0;
  std::vector<Event> events;
};

// Turns the executors' per-thread slots into the canonical order. `slots` holds
// plan.traceSlots events, plan.slotsPerThread per thread, unused ones Op::None.
Result<Trace> decodeTrace(const LaunchPlan& plan, const std::vector<Event>& slots, bool overflowed);

inline int linearThread(const Event& e, unsigned blockX) { return int(e.threadY) * int(blockX) + e.threadX; }
inline int warpOf(const Event& e, unsigned blockX) { return linearThread(e, blockX) / 32; }
inline bool inBounds(const Event& e) { return (e.flags & kInBounds) != 0; }
inline bool zeroFilled(const Event& e) { return (e.flags & kZeroFill) != 0; }

std::string_view opName(Op op);  // "load_m", "read_n", "barrier", ...

}  // namespace tilescope
