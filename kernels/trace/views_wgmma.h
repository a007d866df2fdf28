// Rung 11's warpgroup MMA over views: the names of kernels/ladder/warpgroup_mma.h, recording
// what the tensor cores read and hold, then doing it: on the GPU by the same PTX, on the
// emulator by hand.
//   wgmmaTf32(acc, a, b)   the descriptor reads of shared memory, shared out over the
//                          warpgroup's 128 threads a chunk column of 8 rows per quarter warp
//                          (recordDescriptorReads, below), then the MMA.
//                          On the emulator the warpgroup meets (emu::warpgroupCollective): the
//                          last thread to arrive reads A (64 x 8) and B (8 x N) through the
//                          descriptors' addressing and swizzle (mma_fragments.h), keeps each
//                          element's upper 19 bits (TF32) and adds the products to every
//                          thread's accumulators where the PTX ISA's fragment table puts them.
//   wgmmaWait(acc)         once the MMAs are done, one event per accumulator register (Op::MmaC:
//                          its row and column in the warpgroup's 64 x N tile, its value)
//   wgmmaWaitPrior(acc)    nothing to record: the last group may still be adding into acc on the
//                          GPU, so its values are not yet anyone's (the emulator's are)
//   wgmmaFence(), wgmmaCommit(), fenceProxyAsync()   nothing to record; on the emulator nothing
//                          to do (its MMAs are done when issued, it has one proxy)
// Part of views.h; include that. A traced kernel reaches the first two through
// traced_surface.h's macros, which pass the thread's recorder and the call's line. Not for NVRTC.
#pragma once
#if !defined(__CUDACC_RTC__)
#include "kernels/trace/mma_fragments.h"
#if !defined(__CUDACC__)
#include "kernels/trace/tf32.h"
#endif

namespace tilescope {

using SharedFloatAddress = ElementAddress<float, SharedSite<float>>;

// The shared address the descriptor of `site`'s element holds: on the GPU the shared window's,
// on the emulator the arena's host address (the one its TMA swizzles by, views_tma.h).
HOST_DEVICE unsigned long long descriptorAddress(const SharedSite<float>& site) {
#if defined(__CUDA_ARCH__)
  return (unsigned long long)__cvta_generic_to_shared(site.address(false));
#else
  return reinterpret_cast<unsigned long long>(site.address(false));
#endif
}

// Element kk (0..7) of row `row` of the operand that starts at `site`, where the swizzle puts it.
HOST_DEVICE SharedSite<float> operandSlot(const SharedSite<float>& site, int row, int kk) {
  const unsigned long long start = descriptorAddress(site);
  return site.shifted((long long)(wgmmaOperandAddress(start, row, kk) - start) / (long long)sizeof(float));
}

// The operand's rows x 8 elements are rows x 2 chunks of 16 bytes; thread t of the warpgroup
// records chunks t, t + 128, ... as one 128-bit read each (Op::ReadM or ReadN, kWide) at the slot
// the swizzle gives, with the values found there. Chunk c is half (c / 8) % 2 of row
// 8 (c / 16) + c % 8: each quarter warp's 8 reads are one chunk column of 8 consecutive rows, the
// set the swizzle spreads over 8 bank groups.
HOST_DEVICE void recordDescriptorReads(const SharedFloatAddress& operand, int rows, int thread) {
  for (int c = thread; c < 2 * rows; c += kWarpgroupThreads) {
    const int row = 8 * (c / 16) + c % 8, half = (c / 8) % 2;
    const float4 read = VectorRef<float4, float, SharedSite<float>>(operandSlot(operand.site, row, 4 * half));
    (void)read;
  }
}

#if !defined(__CUDACC__)
// What each thread brings to the warpgroup's meeting.
struct WgmmaThread {
  float* acc;
  int registers;  // N / 2
  SharedSite<float> a, b;
};

// D += A x B for the warpgroup, from thread 0's descriptors (the instruction takes the same from
// all 128): each product of two TF32 numbers exact in double, the 8 of an element and its sum so
// far added in double and rounded once to float (the hardware's order is not documented).
inline void emulatedWgmmaTf32(void* const* threadData, int threads) {
  const WgmmaThread& first = *static_cast<const WgmmaThread*>(threadData[0]);
  const int n = 2 * first.registers;
  double a[kWgmmaM][kWgmmaK], b[kWgmmaK][256];
  for (int r = 0; r < kWgmmaM; ++r)
    for (int kk = 0; kk < kWgmmaK; ++kk) a[r][kk] = emu::tf32Operand(*operandSlot(first.a, r, kk).address(false));
  for (int c = 0; c < n; ++c)
    for (int kk = 0; kk < kWgmmaK; ++kk) b[kk][c] = emu::tf32Operand(*operandSlot(first.b, c, kk).address(false));
  for (int t = 0; t < threads; ++t) {
    const WgmmaThread& mine = *static_cast<const WgmmaThread*>(threadData[t]);
    for (int i = 0; i < mine.registers; ++i) {
      const FragmentElement e = wgmmaElementD(t, i);
      double sum = mine.acc[i];
      for (int kk = 0; kk < kWgmmaK; ++kk) sum += a[e.row][kk] * b[kk][e.col];
      mine.acc[i] = float(sum);
    }
  }
}

inline void wgmmaFence() {}
inline void wgmmaCommit() {}
inline void fenceProxyAsync() {}
#endif

template <int R>
HOST_DEVICE void tracedWgmmaTf32(int line, float (&acc)[R], const SharedFloatAddress& a, const SharedFloatAddress& b) {
  static_assert(R == 16 || R == 32 || R == 64, "built for N = 32, 64 and 128");
  const int thread = int((threadIdx.y * blockDim.x + threadIdx.x) % kWarpgroupThreads);
  recordDescriptorReads(a, kWgmmaM, thread);
  recordDescriptorReads(b, 2 * R, thread);
#if defined(__CUDACC__)
  (void)line;
#if defined(__CUDA_ARCH__)  // the device pass; nvcc's host pass never runs it
  ::wgmmaTf32(acc, a.site.address(false), b.site.address(false));
#endif
#else
  WgmmaThread mine{acc, R, a.site, b.site};
  emu::warpgroupCollective(line, &mine, &emulatedWgmmaTf32);
#endif
}

template <int R>
HOST_DEVICE void tracedWgmmaWait(Recorder& r, int line, float (&acc)[R]) {
#if defined(__CUDA_ARCH__)
  ::wgmmaWait(acc);
#endif
  const int thread = int((threadIdx.y * blockDim.x + threadIdx.x) % kWarpgroupThreads);
  for (int i = 0; i < R; ++i) r.fragment(Op::MmaC, wgmmaElementD(thread, i).row, wgmmaElementD(thread, i).col, acc[i], line);
}

template <int R>
HOST_DEVICE void tracedWgmmaWaitPrior(float (&acc)[R]) {
#if defined(__CUDA_ARCH__)
  ::wgmmaWaitPrior(acc);
#else
  (void)acc;
#endif
}

}  // namespace tilescope
#endif
