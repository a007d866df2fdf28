// Hopper's warpgroup MMA as rung 11 calls it under nvcc: each a small named wrapper around the
// PTX it stands for. The traced build and the emulator provide the same names over views
// (kernels/trace/views_wgmma.h). Part of the kernels' CUDA surface (portable.h); not for NVRTC.
//   wgmmaTf32(acc, a, b)   wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32: the warpgroup's
//                          64 x N tile acc += A (64 x 8) x B (8 x N), N = 2 x the registers of
//                          acc. No thread passes operands: the tensor cores read A and B from
//                          shared memory through two matrix descriptors made from `a` and `b`,
//                          the first element of each (below). All 128 threads of the warpgroup
//                          issue it together; it runs asynchronously.
//   wgmmaFence()           wgmma.fence: the accumulators' registers as written before it are the
//                          ones the next MMAs read
//   wgmmaCommit()          wgmma.commit_group: the MMAs issued so far form a group
//   wgmmaWait(acc)         wgmma.wait_group 0: every group has finished, acc holds the sums
//   wgmmaWaitPrior(acc)    wgmma.wait_group 1: every group but the last has finished (their
//                          shared operands may be refilled); acc is still being summed into
//   fenceProxyAsync()      fence.proxy.async: this thread's ordinary writes to shared memory are
//                          visible to the tensor cores' reads (the async proxy), as TMA's are
// The operands lie in shared memory K-major (a row of A, a column of B, along k; TF32 takes no
// other layout) in rows of 128 bytes (32 floats of k), swizzled as TMA's 128-byte swizzle does
// (within 1024 bytes, the 16-byte chunk c of row r at chunk c ^ (r % 8)), each 8 rows 1024 bytes
// on, from a multiple of 1024 bytes. The descriptor says so (the PTX ISA's "matrix descriptor"):
//   bits 0-13   the start address / 16 (a k step of 8 starts 32 bytes further along the row)
//   bits 16-29  leading byte offset / 16: not used by a swizzled K-major operand, 1
//   bits 32-45  stride byte offset / 16: 1024 bytes from one 8-row group to the next
//   bits 62-63  the swizzle: 1, 128 bytes
// The tensor cores use the upper 19 bits of each FP32 element (TF32). Below sm_90a there is no
// wgmma: the wrappers trap, so every architecture builds.
#pragma once
#include "kernels/std_int.h"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TILESCOPE_WGMMA 1
#else
#define TILESCOPE_WGMMA 0
#endif

__device__ __forceinline__ uint64_t wgmmaDescriptor(const float* tile) {
  const uint64_t address = unsigned(__cvta_generic_to_shared(tile));
  return ((address & 0x3ffff) >> 4) | (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
}

__device__ __forceinline__ void wgmmaFence() {
#if TILESCOPE_WGMMA
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#else
  __trap();
#endif
}
__device__ __forceinline__ void wgmmaCommit() {
#if TILESCOPE_WGMMA
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#else
  __trap();
#endif
}
// After the wait, each accumulator register is fenced: no read of it may move above the wait.
template <int R>
__device__ __forceinline__ void wgmmaWait(float (&acc)[R]) {
#if TILESCOPE_WGMMA
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
  for (int i = 0; i < R; ++i) asm volatile("" : "+f"(acc[i])::"memory");
#else
  (void)acc;
  __trap();
#endif
}
// wgmma.wait_group 1: every group but the last committed has finished. The last may still be
// adding into acc, so no thread may read acc until wgmmaWait; the next MMAs may add into it (the
// tensor cores chain MMAs on the same accumulators in order). acc names the sums left in flight;
// no instruction here touches them.
template <int R>
__device__ __forceinline__ void wgmmaWaitPrior(float (&acc)[R]) {
#if TILESCOPE_WGMMA
  asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
  (void)acc;
#else
  (void)acc;
  __trap();
#endif
}
__device__ __forceinline__ void fenceProxyAsync() {
#if TILESCOPE_WGMMA
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#else
  __trap();
#endif
}

// The instruction for N = 2R: the accumulators are R registers of each thread.
template <int R>
__device__ __forceinline__ void wgmmaTf32Issue(float (&d)[R], uint64_t a, uint64_t b);

#if TILESCOPE_WGMMA
template <>
__device__ __forceinline__ void wgmmaTf32Issue<16>(float (&d)[16], uint64_t a, uint64_t b) {
  asm volatile(
      "{ .reg .pred p; setp.ne.b32 p, %18, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, p, 1, 1; }"
      :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
      : "l"(a), "l"(b), "r"(1));
}
template <>
__device__ __forceinline__ void wgmmaTf32Issue<32>(float (&d)[32], uint64_t a, uint64_t b) {
  asm volatile(
      "{ .reg .pred p; setp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1; }"
      :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(a), "l"(b), "r"(1));
}
template <>
__device__ __forceinline__ void wgmmaTf32Issue<64>(float (&d)[64], uint64_t a, uint64_t b) {
  asm volatile(
      "{ .reg .pred p; setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1; }"
      :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a), "l"(b), "r"(1));
}
#endif

template <int R>
__device__ __forceinline__ void wgmmaTf32(float (&acc)[R], const float* a, const float* b) {
#if TILESCOPE_WGMMA
  wgmmaTf32Issue<R>(acc, wgmmaDescriptor(a), wgmmaDescriptor(b));
#else
  (void)acc;
  (void)a;
  (void)b;
  __trap();
#endif
}
