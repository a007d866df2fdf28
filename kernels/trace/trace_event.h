// The one record every executor writes: the emulator and the GPU fill the same struct
// through the same probe, so their traces can be compared field by field.
#pragma once
#include "kernels/host_device.h"
#include "kernels/std_int.h"

namespace tilescope {

// What one event did. Values are stable: they are stored in trace files.
enum class Op : uint8_t {
  None = 0,     // an unused trace slot
  LoadM = 1,    // read of M from global memory (into shared memory for tiled kernels)
  LoadN = 2,    // read of N from global memory
  ReadM = 3,    // read of the M tile from shared memory in the k loop
  ReadN = 4,    // read of the N tile from shared memory in the k loop
  Barrier = 5,  // a thread arrived at __syncthreads()
  StoreP = 6,   // store of P to global memory
  // Hopper's copy engine (rung 8). A tensor-map copy is one event for the whole tile, by the
  // thread that issued it: globalRow/globalCol the box's first element, sharedRow/sharedCol
  // the first slot it fills (its rows follow the array's row stride), value the bytes the
  // box delivers (zero-filled ones included); kZeroFill when part of the box lies outside
  // the matrix, kInBounds when none does.
  CopyM = 7,
  CopyN = 8,
  // An mbarrier (sharedRow: its index in its array, sharedCol: the array's declaration
  // number). Init's value is the arrivals a phase needs; Arrive's the transaction bytes it
  // announces (0 for a plain arrival); Wait's the phase parity waited for: recorded once the
  // wait returned, so it is the thread's observation that the phase completed.
  MbarrierInit = 9,
  MbarrierArrive = 10,
  MbarrierWait = 11,
  // A read / write of the kernel's global workspace (rung 9's partial sums and arrival
  // counters; any global array beside M, N and P): globalRow 0, globalCol the element's index
  // in its array, always kInBounds. Never a load of M or a store of P.
  LoadW = 12,
  StoreW = 13,
  // The tensor cores (rung 10): one lane's part of a warp's mma.sync m16n8k8, one event per
  // fragment element, by the lane that holds it: sharedRow/sharedCol the element's row and
  // column in the MMA's operand (A 16 x 8, B 8 x 8, the accumulator tile 16 x 8; the PTX ISA's
  // fragment tables, kernels/trace/mma_fragments.h), value the element: A's and B's as the lane
  // passed them (TF32), the accumulator's after the MMA. No global or shared coordinates.
  MmaA = 14,
  MmaB = 15,
  MmaC = 16,
};
inline constexpr int kOpCount = 17;

enum EventFlags : uint8_t {
  kInBounds = 1u << 0,  // the (row, col) it touched lies inside its matrix
  kZeroFill = 1u << 1,  // a boundary check wrote 0 to shared memory instead of loading
  // A 128-bit access (float4): four consecutive elements from (globalRow, globalCol) and/or
  // four consecutive slots from (sharedRow, sharedCol), one instruction; value is the first.
  kWide = 1u << 2,
  // Staging through registers (the ladder's double buffer, corner turning): a global read
  // whose value a later shared write of the same thread stored (so it feeds no multiply-add
  // itself), and that shared write, which names the element it came from. Global traffic is
  // counted at the read, shared traffic at the write.
  kStagedRead = 1u << 3,
  kStagedWrite = 1u << 4,
};
// Elements one event touches.
HOST_DEVICE constexpr int eventWidth(uint8_t flags) { return (flags & kWide) ? 4 : 1; }

// 32 bytes. Coordinates not used by an op are -1 (written as null in JSON).
struct Event {
  Op op;
  uint8_t flags;
  uint16_t line;          // kernel source line of the hook
  uint16_t blockX, blockY;
  uint16_t threadX, threadY;
  int16_t phase;          // tiled phase (0 for kernels without phases)
  int16_t k;              // step of the dot product, where it applies
  int32_t globalRow, globalCol;  // element of M, N or P
  int16_t sharedRow, sharedCol;  // slot of the Mds or Nds tile
  float value;            // the value loaded, read or stored
};
static_assert(sizeof(Event) == 32, "Event is stored and copied as 32 raw bytes");

// Barrier events carry the arrival clock (GPU clock64, or the emulator's logical clock)
// in the otherwise unused globalRow/globalCol fields.
inline uint64_t barrierClock(const Event& e) {
  return (uint64_t(uint32_t(e.globalRow)) << 32) | uint32_t(e.globalCol);
}

}  // namespace tilescope
