// The tensor cores over views (rung 10): the names of kernels/ladder/tensor_core.h, recording
// what each lane holds, then doing it: on the GPU by the same PTX, on the emulator by hand.
//   toTf32(x)               on the GPU cvt.rna.tf32.f32; on the emulator the same rounding
//                           (emu::roundToTf32): not recorded, the reads that fed it are
//   mmaSyncTf32(acc, a, b)  per lane, one event per fragment element: its 4 elements of A
//                           (Op::MmaA) and 2 of B (MmaB) as passed, then its 4 of the 16 x 8
//                           accumulator tile after the MMA (MmaC); each names its row and
//                           column in the MMA's operand (mma_fragments.h). On the emulator the
//                           warp meets (emu::warpCollective): the last lane to arrive gathers
//                           the 32 lanes' fragments into A, B and C and multiplies.
// Part of views.h; include that. A traced kernel reaches it through traced_surface.h's
// macro, which passes the thread's recorder and the call's line. Not for NVRTC.
#pragma once
#if !defined(__CUDACC_RTC__)
#include "kernels/trace/mma_fragments.h"
#if !defined(__CUDACC__)
#include "kernels/trace/tf32.h"
#endif

namespace tilescope {

#if !defined(__CUDACC__)
inline float toTf32(float x) { return emu::roundToTf32(x); }

// One lane's operands at the warp's meeting.
struct MmaLane {
  float* acc;
  const float* a;
  const float* b;
};

// D = A x B + C for the warp: each product of two TF32 numbers is exact in double, the eight
// of a row and column and C summed in double and rounded once to float (the hardware's order
// inside an MMA is not documented; the verification's tolerance allows for any).
inline void emulatedMmaTf32(void* const* laneData, int lanes) {
  double a[kMmaM][kMmaK] = {}, b[kMmaK][kMmaN] = {}, c[kMmaM][kMmaN] = {};
  for (int lane = 0; lane < lanes; ++lane) {
    const MmaLane& L = *static_cast<const MmaLane*>(laneData[lane]);
    for (int i = 0; i < kMmaRegsA; ++i) a[mmaElementA(lane, i).row][mmaElementA(lane, i).col] = emu::tf32Operand(L.a[i]);
    for (int i = 0; i < kMmaRegsB; ++i) b[mmaElementB(lane, i).row][mmaElementB(lane, i).col] = emu::tf32Operand(L.b[i]);
    for (int i = 0; i < kMmaRegsC; ++i) c[mmaElementC(lane, i).row][mmaElementC(lane, i).col] = L.acc[i];
  }
  for (int lane = 0; lane < lanes; ++lane) {
    const MmaLane& L = *static_cast<const MmaLane*>(laneData[lane]);
    for (int i = 0; i < kMmaRegsC; ++i) {
      const FragmentElement e = mmaElementC(lane, i);
      double sum = c[e.row][e.col];
      for (int kk = 0; kk < kMmaK; ++kk) sum += a[e.row][kk] * b[kk][e.col];
      L.acc[i] = float(sum);
    }
  }
}
#endif

HOST_DEVICE void tracedMmaSyncTf32(Recorder& r, int line, float (&acc)[4], const float (&a)[4], const float (&b)[2]) {
  const int lane = int((threadIdx.y * blockDim.x + threadIdx.x) % kWarpLanes);
  for (int i = 0; i < kMmaRegsA; ++i) r.fragment(Op::MmaA, mmaElementA(lane, i).row, mmaElementA(lane, i).col, a[i], line);
  for (int i = 0; i < kMmaRegsB; ++i) r.fragment(Op::MmaB, mmaElementB(lane, i).row, mmaElementB(lane, i).col, b[i], line);
#if defined(__CUDACC__)
#if defined(__CUDA_ARCH__)  // the device pass; nvcc's host pass never runs it
  ::mmaSyncTf32(acc, a, b);
#endif
#else
  MmaLane mine{acc, a, b};
  emu::warpCollective(line, &mine, &emulatedMmaTf32);
#endif
  for (int i = 0; i < kMmaRegsC; ++i)
    r.fragment(Op::MmaC, mmaElementC(lane, i).row, mmaElementC(lane, i).col, acc[i], line);
}

}  // namespace tilescope
#endif
