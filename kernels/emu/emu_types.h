// The emulator's stand-ins for CUDA's built-in types, without the macros of
// cuda_surface.h, so host code (the core, tests) can include it safely.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tilescope::emu {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

// What one emulated thread sees. The scheduler points `currentThread` at it before
// switching to the thread's fiber.
struct ThreadContext {
  Dim3 threadIdx, blockIdx, blockDim, gridDim;
  struct BlockRunner* runner = nullptr;
};

extern thread_local ThreadContext* currentThread;

// Parks the calling emulated thread at a barrier until all threads of its block arrive.
void syncThreads(int line);
// Records a global access outside its allocation; returns the scratch cell to use instead.
float& outOfBoundsAccess(const char* array, long index, long count, bool isWrite);
// A deterministic stand-in for clock64(): count of events the block has recorded.
uint64_t logicalClock();

// A global matrix as the emulated kernel sees it: indexing outside the allocation is
// recorded and redirected, never undefined behaviour in the host process.
template <class T>
class CheckedPtr {
 public:
  CheckedPtr() = default;
  CheckedPtr(T* base, long count, const char* name) : base_(base), count_(count), name_(name) {}
  T& operator[](long index) const {
    if (index >= 0 && index < count_) return base_[index];
    return const_cast<T&>(outOfBoundsAccess(name_, index, count_, !std::is_const_v<T>));
  }

 private:
  T* base_ = nullptr;
  long count_ = 0;
  const char* name_ = "?";
};

}  // namespace tilescope::emu


namespace tilescope {
// Backing store of `extern __shared__ float Mds_Nds[]` (fig. 5.14) under the emulator: a
// kernel's block-scope extern declaration names this per-OS-thread array. The emulator
// refuses launches that ask for more than it holds (the GPU's default 48 KiB limit).
inline constexpr std::size_t kEmuDynamicSharedFloats = 48 * 1024 / sizeof(float);
extern thread_local float Mds_Nds[kEmuDynamicSharedFloats];
}  // namespace tilescope
