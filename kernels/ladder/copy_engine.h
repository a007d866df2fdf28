// Hopper's copy engine and transaction barriers as the kernels call them under nvcc: each a
// small named wrapper around the one PTX instruction it stands for. The traced build and the
// emulator provide the same names over views (kernels/trace/views_tma.h). Part of the kernels'
// CUDA surface (portable.h); not for NVRTC.
//   mbarrierInit(bar, count)           mbarrier.init: a phase completes after `count` arrivals
//   mbarrierArriveExpectTx(bar, bytes) arrive, and expect `bytes` more from copies this phase
//   mbarrierArrive(bar)                a plain arrival
//   mbarrierWait(bar, parity)          until the phase of that parity has completed
//   cpAsyncBulkTensor2d(dst, map, x, y, bar)  the box at column x, row y of the tensor map's
//                                      matrix into dst; its bytes complete on bar
//   setmaxnregDec<R>(), setmaxnregInc<R>()   this warpgroup's registers per thread (sm_90a)
//   publishRelease(flag, value)        stores `value` in a global flag, after this thread's writes (rung 9)
//   waitAcquire(flag, need)            until the flag is at least `need`; the writes of the
//                                      thread that published it are then visible (rung 9)
// Below sm_90 there is no such hardware: the wrappers trap, and the launcher refuses the
// kernel before it runs (kernels/cuda/tensor_map.cpp), so every architecture still builds.
#pragma once
#include <cuda.h>  // CUtensorMap, the type only: maps are made through the runtime's driver entry point

#include "kernels/std_int.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TILESCOPE_HOPPER 1
#else
#define TILESCOPE_HOPPER 0
#endif

__device__ __forceinline__ unsigned sharedAddress(const void* p) { return unsigned(__cvta_generic_to_shared(p)); }

// `p` moved on to the first float at a shared address that is a multiple of 1024 bytes, where
// the 128-byte swizzle's pattern of eight 128-byte rows starts (the launch leaves room for it).
__device__ __forceinline__ float* alignedTo1024(float* p) { return p + (1024u - sharedAddress(p) % 1024u) % 1024u / 4; }

__device__ __forceinline__ void mbarrierInit(uint64_t* bar, unsigned count) {
#if TILESCOPE_HOPPER
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sharedAddress(bar)), "r"(count) : "memory");
#else
  __trap();
#endif
}

// The initialisations are visible to the copy engine (the async proxy) too, not only to the
// threads that the next __syncthreads() orders.
__device__ __forceinline__ void fenceMbarrierInit() {
#if TILESCOPE_HOPPER
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

__device__ __forceinline__ void mbarrierArriveExpectTx(uint64_t* bar, unsigned bytes) {
#if TILESCOPE_HOPPER
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sharedAddress(bar)), "r"(bytes)
               : "memory");
#else
  __trap();
#endif
}

__device__ __forceinline__ void mbarrierArrive(uint64_t* bar) {
#if TILESCOPE_HOPPER
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sharedAddress(bar)) : "memory");
#else
  __trap();
#endif
}

// try_wait suspends the thread for a while in hardware before it says no; the loop asks again.
__device__ __forceinline__ void mbarrierWait(uint64_t* bar, unsigned parity) {
#if TILESCOPE_HOPPER
  unsigned done = 0;
  do {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(sharedAddress(bar)), "r"(parity)
        : "memory");
  } while (!done);
#else
  __trap();
#endif
}

// The map is a __grid_constant__ kernel parameter: its generic address is what the copy
// instruction takes. Coordinates are elements, innermost (column) first.
__device__ __forceinline__ void cpAsyncBulkTensor2d(float* dst, const CUtensorMap* map, int x, int y, uint64_t* bar) {
#if TILESCOPE_HOPPER
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          sharedAddress(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(sharedAddress(bar))
      : "memory");
#else
  __trap();
#endif
}

// setmaxnreg exists only in the arch-specific sm_90a target; elsewhere the registers stay as
// the launch gave them (correct, but the H100 tiling's consumers then spill).
template <unsigned R>
__device__ __forceinline__ void setmaxnregDec() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(R));
#endif
}
template <unsigned R>
__device__ __forceinline__ void setmaxnregInc() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(R));
#endif
}

// Between blocks (rung 9's split tiles): a release store, whose earlier writes a thread that
// reads the flag with acquire order then sees, and that acquire read, asked until it passes.
__device__ __forceinline__ void publishRelease(int* flag, int value) {
#if TILESCOPE_HOPPER
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
#else
  __trap();
#endif
}
__device__ __forceinline__ int waitAcquire(const int* flag, int need) {
  int seen = need;
#if TILESCOPE_HOPPER
  do {
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(seen) : "l"(flag) : "memory");
  } while (seen < need);
#else
  __trap();
#endif
  return seen;
}
