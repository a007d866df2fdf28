// Probes: what a kernel body reports about itself.
//
// Every kernel is a template on a probe and calls its hooks at each memory access and
// barrier. NoProbe's hooks are empty and return their argument, so the plain build is the
// textbook kernel; TraceProbe's hooks write one Event each. Both executors (GPU and
// emulator) run the same body with the same probe, so they produce the same events.
//
// Each hook records the source line it is called from (__builtin_LINE() as a default
// argument is evaluated at the call site, by g++ and by nvcc alike).
#pragma once
#include "portable.h"
#include "trace_event.h"

namespace tilescope {

struct NoProbe {
  HOST_DEVICE void beginPhase(int) {}
  HOST_DEVICE float loadM(float v, int, int, int, int line = __builtin_LINE()) { return v; }
  HOST_DEVICE float loadN(float v, int, int, int, int line = __builtin_LINE()) { return v; }
  HOST_DEVICE float loadTileM(float v, int, int, int, int, int line = __builtin_LINE()) { return v; }
  HOST_DEVICE float loadTileN(float v, int, int, int, int, int line = __builtin_LINE()) { return v; }
  HOST_DEVICE float zeroTileM(int, int, int, int, int line = __builtin_LINE()) { return 0.0f; }
  HOST_DEVICE float zeroTileN(int, int, int, int, int line = __builtin_LINE()) { return 0.0f; }
  HOST_DEVICE float readM(float v, int, int, int, int line = __builtin_LINE()) { return v; }
  HOST_DEVICE float readN(float v, int, int, int, int line = __builtin_LINE()) { return v; }
  HOST_DEVICE void arrive(int line = __builtin_LINE()) {}
  HOST_DEVICE float storeP(float v, int, int, int line = __builtin_LINE()) { return v; }
};

// Where TraceProbe writes. Every thread owns `slotsPerThread` consecutive slots, indexed by
// its global thread number, so threads never contend and no atomics are needed; unused
// slots keep Op::None. The host decodes the slots into the canonical order (trace.h).
struct TraceSink {
  Event* slots = nullptr;
  unsigned slotsPerThread = 0;
  unsigned* overflow = nullptr;  // set to 1 when a thread needs more slots than it has
  int j = 0, k = 0, l = 0;       // M is j x k, N is k x l, P is j x l
};

class TraceProbe {
 public:
  TraceProbe() = default;
  HOST_DEVICE explicit TraceProbe(const TraceSink& sink) : sink_(sink) {}

  HOST_DEVICE void beginPhase(int ph) { phase_ = int16_t(ph); }

  // Direct global reads in the k loop (naive kernel): no shared slot.
  HOST_DEVICE float loadM(float v, int row, int col, int k, int line = __builtin_LINE()) {
    record(Op::LoadM, inside(row, col, sink_.j, sink_.k), row, col, -1, -1, k, v, line);
    return v;
  }
  HOST_DEVICE float loadN(float v, int row, int col, int k, int line = __builtin_LINE()) {
    record(Op::LoadN, inside(row, col, sink_.k, sink_.l), row, col, -1, -1, k, v, line);
    return v;
  }
  // Collaborative tile loads: global (row, col) into shared slot (sr, sc).
  HOST_DEVICE float loadTileM(float v, int row, int col, int sr, int sc, int line = __builtin_LINE()) {
    record(Op::LoadM, inside(row, col, sink_.j, sink_.k), row, col, sr, sc, -1, v, line);
    return v;
  }
  HOST_DEVICE float loadTileN(float v, int row, int col, int sr, int sc, int line = __builtin_LINE()) {
    record(Op::LoadN, inside(row, col, sink_.k, sink_.l), row, col, sr, sc, -1, v, line);
    return v;
  }
  // A boundary check chose not to load (row, col) and wrote 0 into the slot instead.
  HOST_DEVICE float zeroTileM(int row, int col, int sr, int sc, int line = __builtin_LINE()) {
    record(Op::LoadM, kZeroFill | inside(row, col, sink_.j, sink_.k), row, col, sr, sc, -1, 0.0f, line);
    return 0.0f;
  }
  HOST_DEVICE float zeroTileN(int row, int col, int sr, int sc, int line = __builtin_LINE()) {
    record(Op::LoadN, kZeroFill | inside(row, col, sink_.k, sink_.l), row, col, sr, sc, -1, 0.0f, line);
    return 0.0f;
  }
  // Shared-memory reads of the dot product's step k.
  HOST_DEVICE float readM(float v, int sr, int sc, int k, int line = __builtin_LINE()) {
    record(Op::ReadM, kInBounds, -1, -1, sr, sc, k, v, line);
    return v;
  }
  HOST_DEVICE float readN(float v, int sr, int sc, int k, int line = __builtin_LINE()) {
    record(Op::ReadN, kInBounds, -1, -1, sr, sc, k, v, line);
    return v;
  }
  HOST_DEVICE void arrive(int line = __builtin_LINE()) {
    uint64_t clock = currentClock();
    record(Op::Barrier, kInBounds, int(clock >> 32), int(clock & 0xffffffffu), -1, -1, -1, 0.0f, line);
  }
  HOST_DEVICE float storeP(float v, int row, int col, int line = __builtin_LINE()) {
    record(Op::StoreP, inside(row, col, sink_.j, sink_.l), row, col, -1, -1, -1, v, line);
    return v;
  }

 private:
  HOST_DEVICE static uint8_t inside(int row, int col, int rows, int cols) {
    return (row >= 0 && row < rows && col >= 0 && col < cols) ? kInBounds : 0;
  }
  HOST_DEVICE static uint64_t currentClock() {
#if defined(__CUDA_ARCH__)
    return uint64_t(clock64());
#elif defined(__CUDACC__)
    return 0;  // nvcc's host pass: never executed
#else
    return emu::logicalClock();
#endif
  }
  HOST_DEVICE void record(Op op, unsigned flags, int grow, int gcol, int srow, int scol, int k,
                          float v, int line) {
    if (count_ >= sink_.slotsPerThread) {
      *sink_.overflow = 1;  // every overflowing thread writes the same value: benign
      return;
    }
    unsigned threadsPerBlock = blockDim.x * blockDim.y;
    unsigned long long block = (unsigned long long)blockIdx.y * gridDim.x + blockIdx.x;
    unsigned long long thread = block * threadsPerBlock + threadIdx.y * blockDim.x + threadIdx.x;
    Event& e = sink_.slots[thread * sink_.slotsPerThread + count_];
    e.op = op;
    e.flags = uint8_t(flags);
    e.line = uint16_t(line);
    e.blockX = uint16_t(blockIdx.x);
    e.blockY = uint16_t(blockIdx.y);
    e.threadX = uint16_t(threadIdx.x);
    e.threadY = uint16_t(threadIdx.y);
    e.phase = phase_;
    e.k = int16_t(k);
    e.globalRow = grow;
    e.globalCol = gcol;
    e.sharedRow = int16_t(srow);
    e.sharedCol = int16_t(scol);
    e.value = v;
    ++count_;
  }

  TraceSink sink_;
  unsigned count_ = 0;
  int16_t phase_ = 0;
};

}  // namespace tilescope
