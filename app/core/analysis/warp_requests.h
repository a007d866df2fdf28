// Warp-level requests: the unit in which the hardware serves memory accesses.
//
// A request is one dynamic instance of one memory instruction executed by one warp: the
// lanes of the warp that were active when it ran, each with its address. In the trace an
// instruction is a probe hook's source line (with its op), and a dynamic instance of it is
// told apart by the loop iteration it belongs to, (phase, k), and by how many times the
// thread has already executed it there: the chapter's kernels run each line once per
// (phase, k), a register-tiled kernel runs a fragment's read once per piece and a tile's
// load once per element it owns. So the events of one request are those with the same block,
// warp, op, line, phase and k, and the same occurrence of that key in each lane's program
// order (the n-th with the n-th).
//
// Source-level, not SASS-level: the two branches of a boundary check (load or zero fill)
// are two instructions here, and nvcc may merge them, or merge four consecutive shared
// reads into one 128-bit load. The analyses say where this matters.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/trace.h"

namespace tilescope {


// 16 bytes: a run keeps one per lane of every request (a 128^3 register-tiled run, 2.4 million),
// and a page's heap never shrinks. Byte addresses stay far below 2^56 (a trace's matrices are at
// most 16384 x 16384 floats, memory_layout.h).
struct RequestLane {
  uint8_t lane = 0;          // 0..31, the thread's position in its warp
  uint32_t event = 0;        // index into trace.events
  uint64_t address : 56 = 0;  // byte address (global or shared, see memory_layout.h)
  uint64_t bytes : 8 = 4;     // 16 for a 128-bit access (four elements, kWide)
};
static_assert(sizeof(RequestLane) == 16);

struct WarpRequest {
  uint16_t blockX = 0, blockY = 0;
  uint16_t warp = 0;  // warp index inside the block
  Op op = Op::None;
  uint16_t line = 0;
  int16_t phase = 0, k = -1;
  bool write = false;
  std::vector<RequestLane> lanes;  // ascending lane order
};

enum class MemorySpace { Global, Shared };

// One request as the Coalescing and Bank conflicts panels draw it, and the layout file records
// it: plain data, so what is drawn is also what tests read.
struct RequestPicture {
  MemorySpace space = MemorySpace::Global;
  std::string array;  // "M", "N", "P" (global) or "Mds", "Nds" (shared)
  int warp = 0, line = 0, phase = 0, k = -1;
  bool write = false;
  std::vector<int> lanes;           // the active lanes, ascending
  std::vector<uint64_t> addresses;  // their byte addresses, lane by lane
  // Global: the distinct 32-byte sectors and 128-byte lines (address / 32, address / 128) and
  // the efficiency's two sides, bytes the lanes use and bytes the sectors move.
  std::vector<uint64_t> sectors, lines;
  int bytesUsed = 0, bytesMoved = 0;
  // Shared: distinct 4-byte words asked of each bank, lanes in each bank, and wavefronts.
  std::array<int, 32> banks{}, lanesPerBank{};
  int wavefronts = 0;
};
// "M" or "Mds", ..., from a request's op and space.
std::string requestArray(Op op, MemorySpace space);
// Whether a request belongs to a timeline step of phase `phase` and dot-product step `k`
// (-1: the loads before the k loop, or the store after it).
inline bool requestInStep(const WarpRequest& r, int phase, int k) { return r.phase == phase && r.k == k; }

// Every request of the trace in the given space, block by block in canonical order; inside
// a block, in the order of each request's first event.
std::vector<WarpRequest> groupWarpRequests(const Trace& trace, MemorySpace space);
// Both spaces in one walk of the trace (a merged load is a global read and a shared write):
// what the analysis of a run uses, so the trace is grouped once.
struct WarpRequests {
  std::vector<WarpRequest> global, shared;
};
WarpRequests groupAllWarpRequests(const Trace& trace);

}  // namespace tilescope
