// The emulator's stand-ins for CUDA's built-in types, without the macros of
// cuda_surface.h, so host code (the core, tests) can include it safely.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/launch_report.h"

namespace tilescope::emu {

using ::tilescope::Dim3;

// What one emulated thread sees. The scheduler points `currentThread` at it before
// switching to the thread's fiber.
struct ThreadContext {
  Dim3 threadIdx, blockIdx, blockDim, gridDim;
  struct BlockRunner* runner = nullptr;
};

extern thread_local ThreadContext* currentThread;

// Parks the calling emulated thread at a barrier until all threads of its block arrive.
void syncThreads(int line);
// Parks the calling emulated thread until some other thread or copy of its block has moved
// an mbarrier on (asyncProgress); it then checks its condition again. If no one can, the
// block is reported as deadlocked at `line` (a BarrierDivergence) and abandoned.
void waitForAsync(int line);
void asyncProgress();
// A warp-collective step (the tensor cores' mma.sync): parks the calling thread until every
// lane of its warp (threads 32w to 32w + 31 of the block, fewer in a last partial warp) has
// called it at the same line; the last lane to arrive then runs meet(laneData, lanes), each
// lane's `laneData` in lane order, and the warp goes on. A lane that never arrives (it
// returned, waits at a barrier, or meets at another line) leaves the warp waiting: reported,
// like a barrier some threads never reach, as the block's deadlock at `line`.
using WarpMeet = void (*)(void* const* laneData, int lanes);
void warpCollective(int line, void* laneData, WarpMeet meet);
// The same for a warpgroup (the warpgroup MMA, wgmma): threads 128g to 128g + 127 meet, four
// whole warps; one that never arrives is the block's deadlock at `line`.
void warpgroupCollective(int line, void* laneData, WarpMeet meet);
void groupCollective(int line, void* laneData, WarpMeet meet, std::size_t size);
// Records an access outside its array (global matrix or shared array) at `line`; returns a
// scratch cell (16 bytes, aligned) for the access to use instead, holding NaN for a read.
void* outOfBoundsAccess(const char* array, long long index, long long count, bool isWrite, int line,
                        std::size_t elementBytes);
// A deterministic stand-in for clock64(): count of events the block has recorded.
uint64_t logicalClock();

// The block's shared memory. A declaration's storage comes from the running block's arena
// the first time any of its threads reaches it; later threads get the same storage. Each
// block starts with an empty arena whose bytes are NaN, so a slot no thread wrote reads NaN.
void* blockSharedStorage(int declaration, std::size_t bytes, std::size_t alignment);
template <class Array>
Array& blockShared(int declaration) {
  return *static_cast<Array*>(blockSharedStorage(declaration, sizeof(Array), alignof(Array)));
}
// `extern __shared__` storage: the launch's dynamic shared memory, NaN-filled per block.
void* blockDynamicShared();
std::size_t blockDynamicSharedBytes();

}  // namespace tilescope::emu

