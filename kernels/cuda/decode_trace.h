// Puts a traced launch's slots into the canonical trace order on the GPU, so the host
// receives the finished trace in one copy instead of decoding a gigabyte itself.
// The order is the one app/core/trace/trace.h defines (and decodeTrace computes on the CPU for
// the emulator): blocks y-major, barrier interval by barrier interval, threads in linear
// order, program order. The gpu tests hold the two decoders to the same result.
#pragma once
#include <cstddef>

#include "kernels/result.h"
#include "kernels/trace/trace_event.h"

namespace tilescope::cuda {

struct SlotLayout {
  unsigned blocks = 0;           // gridX * gridY
  unsigned threadsPerBlock = 0;  // blockX * blockY, at most 1024
  unsigned slotsPerThread = 0;
};

// Events the launch recorded (slots that are not Op::None), per block and in all.
// `blockOffsets` (device, blocks + 1 entries) receives the exclusive prefix sums.
Result<std::size_t> countTraceEvents(const Event* slots, const SlotLayout& layout, unsigned long long* blockOffsets);

// Writes the recorded events of `slots` in canonical order into `out` (device, at least
// the count returned above), using the offsets countTraceEvents filled in.
Status decodeTraceOnGpu(const Event* slots, const SlotLayout& layout, const unsigned long long* blockOffsets,
                        Event* out);

}  // namespace tilescope::cuda
