// The emulator's stand-ins for CUDA's built-in types, without the macros of
// cuda_surface.h, so host code (the core, tests) can include it safely.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
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
// Records a global access outside its allocation; returns a scratch cell (16 bytes,
// aligned) for the access to use instead.
void* outOfBoundsAccess(const char* array, long index, long count, bool isWrite);
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
    using Value = std::remove_const_t<T>;
    static_assert(sizeof(Value) <= 16, "the scratch cell holds 16 bytes");
    auto* cell = static_cast<Value*>(outOfBoundsAccess(name_, index, count_, !std::is_const_v<T>));
    // A read past the allocation has no defined value: NaN makes its use visible downstream.
    if constexpr (std::is_floating_point_v<Value>) *cell = std::numeric_limits<Value>::quiet_NaN();
    else *cell = Value{};
    return *cell;
  }

 private:
  T* base_ = nullptr;
  long count_ = 0;
  const char* name_ = "?";
};

}  // namespace tilescope::emu


namespace tilescope {
// Capacity of `extern __shared__ float Mds_Nds[]` (fig. 5.14) under the emulator: the GPU's
// default 48 KiB of dynamic shared memory per block. The array itself is defined in
// run_on_emulator.cpp, the one file that instantiates the kernels.
inline constexpr std::size_t kEmuDynamicSharedFloats = 48 * 1024 / sizeof(float);
}  // namespace tilescope
