// What the rewritten (traced) kernels compile against, on the GPU and on the emulator: the
// views, and the macros the declaration rewrite (kernels/rewrite) writes in place of
// declarations. Include it, then the rewritten kernels, in a translation unit of their own:
// it redefines __syncthreads() so that every barrier arrival is recorded first.
#pragma once
#include "kernels/trace/views.h"

#if defined(__CUDACC__)
namespace tilescope {
__device__ __forceinline__ void blockBarrier() { __syncthreads(); }
// The bytes of dynamic shared memory this launch has (the <<< >>>'s third parameter).
__device__ __forceinline__ unsigned dynamicSharedBytes() {
  unsigned bytes;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
}
}  // namespace tilescope
#define TILESCOPE_SHARED(T, name, id, ...) \
  __shared__ T name##TsStorage __VA_ARGS__; \
  auto name = ::tilescope::sharedArray(name##TsStorage, id, #name, tsRecorder)
#define TILESCOPE_EXTERN_SHARED(T, name, id)                                                                \
  extern __shared__ T name##TsStorage[];                                                                    \
  auto name = ::tilescope::sharedArray(name##TsStorage,                                                     \
                                       (long long)(::tilescope::dynamicSharedBytes() / sizeof(name##TsStorage[0])), \
                                       id, #name, tsRecorder)
#define TILESCOPE_SHARED_SCALAR(T, name, id) __shared__ T name
#define TILESCOPE_BARRIER() ::tilescope::blockBarrier()
#define TILESCOPE_LAUNCH_BOUNDS __launch_bounds__(1024)
#else
// The emulator: every block gets fresh storage from its arena, NaN-filled (emu::blockShared).
#define TILESCOPE_SHARED(T, name, id, ...)                                      \
  auto& name##TsStorage = ::tilescope::emu::blockShared<T __VA_ARGS__>(id); \
  auto name = ::tilescope::sharedArray(name##TsStorage, id, #name, tsRecorder)
#define TILESCOPE_EXTERN_SHARED(T, name, id)                                                         \
  T* name##TsStorage = static_cast<T*>(::tilescope::emu::blockDynamicShared());                      \
  auto name = ::tilescope::sharedArray(name##TsStorage,                                              \
                                       (long long)(::tilescope::emu::blockDynamicSharedBytes() / sizeof(T)), id, \
                                       #name, tsRecorder)
#define TILESCOPE_SHARED_SCALAR(T, name, id) T& name = ::tilescope::emu::blockShared<T>(id)
#define TILESCOPE_BARRIER() ::tilescope::emu::syncThreads(__LINE__)
#define TILESCOPE_LAUNCH_BOUNDS
#endif

// A kernel's `const __grid_constant__ CUtensorMap` parameter is, once traced, a map that also
// knows its matrix (views_tma.h). Defined after <cuda.h> (portable.h) has declared the real one.
#define CUtensorMap ::tilescope::TensorMapView

// The tensor cores' MMA records each lane's fragments with the thread's recorder (views_mma.h).
#define mmaSyncTf32(acc, a, b) ::tilescope::tracedMmaSyncTf32(tsRecorder, __LINE__, acc, a, b)
// The warpgroup MMA records its descriptor reads with the operands' views, and its
// accumulators once they are done (views_wgmma.h).
#define wgmmaTf32(acc, a, b) ::tilescope::tracedWgmmaTf32(__LINE__, acc, a, b)
#define wgmmaWait(acc) ::tilescope::tracedWgmmaWait(tsRecorder, __LINE__, acc)
#define wgmmaWaitPrior(acc) ::tilescope::tracedWgmmaWaitPrior(acc)

#undef __syncthreads
#define __syncthreads() (tsRecorder.barrier(__LINE__), TILESCOPE_BARRIER())

// The top of every rewritten __global__ body: this thread's recorder, shared by its views.
#define TILESCOPE_KERNEL_ENTRY(...)                                         \
  ::tilescope::Recorder tsRecorder(::tilescope::firstSink(__VA_ARGS__)); \
  ::tilescope::attachAll(&tsRecorder, __VA_ARGS__);
#define TILESCOPE_KERNEL_ENTRY_NONE ::tilescope::Recorder tsRecorder{::tilescope::TraceSink{}};
