// Which element of A, B and C each lane of a warp holds for mma.m16n8k8 with .tf32 operands
// and .f32 accumulators: the PTX ISA's fragment tables (section "Matrix Fragments for
// mma.m16n8k8"), written once for the recorder (the trace events of each lane's fragments),
// the emulator (which gathers the warp's fragments into the three matrices, multiplies, and
// hands each lane its part of the result) and the app (the Tensor core panel).
//   groupID = lane / 4, threadID_in_group = lane % 4
//   A (16 x 8, row-major), a0..a3: row groupID (a0, a2) or groupID + 8 (a1, a3),
//                                  col threadID_in_group (a0, a1) or + 4 (a2, a3)
//   B (8 x 8, column-major), b0, b1: row threadID_in_group (b0) or + 4 (b1), col groupID
//   C and D (16 x 8), c0..c3: row groupID (c0, c1) or groupID + 8 (c2, c3),
//                             col threadID_in_group * 2 + (i & 1)
#pragma once
#include "kernels/host_device.h"

namespace tilescope {

inline constexpr int kMmaM = 16, kMmaN = 8, kMmaK = 8;  // the shape m16n8k8
inline constexpr int kMmaRegsA = 4, kMmaRegsB = 2, kMmaRegsC = 4;
inline constexpr int kWarpLanes = 32;

struct FragmentElement {
  int row, col;
};
HOST_DEVICE constexpr FragmentElement mmaElementA(int lane, int i) {
  return {lane / 4 + ((i & 1) ? 8 : 0), lane % 4 + ((i & 2) ? 4 : 0)};
}
HOST_DEVICE constexpr FragmentElement mmaElementB(int lane, int i) { return {lane % 4 + (i ? 4 : 0), lane / 4}; }
HOST_DEVICE constexpr FragmentElement mmaElementC(int lane, int i) {
  return {lane / 4 + ((i & 2) ? 8 : 0), (lane % 4) * 2 + (i & 1)};
}

// Rung 11's warpgroup MMA, wgmma.mma_async m64nNk8 with .tf32 operands read from shared memory
// through matrix descriptors (kernels/ladder/warpgroup_mma.h) and .f32 accumulators, after the
// PTX ISA ("Matrix Descriptor", "Shared Memory Matrix Layout", "Register Fragments" for wgmma):
//   an operand (A 64 x 8, B's N columns of 8) lies K-major in rows of 128 bytes, swizzled: row r,
//   element kk (0..7) of the step is at start + (r / 8) x 1024 + (r % 8) x 128 + 4 kk, the
//   16-byte chunk of that address XOR its 128-byte row within 1024 bytes (bits 4-6 ^= bits 7-9)
//   the accumulator D (64 x N): warp w of the warpgroup holds rows 16w to 16w + 15, its lanes as
//   mma.m16n8's C tile (mmaElementC) repeated across N in blocks of 8: register i of a lane
//   at row 16w + groupID (+ 8 for i % 4 >= 2), column 8 (i / 4) + threadID_in_group x 2 + (i & 1)
inline constexpr int kWgmmaM = 64, kWgmmaK = 8, kWarpgroupThreads = 128;
inline constexpr int kSwizzleRowBytes = 128, kSwizzleAtomBytes = 1024;

HOST_DEVICE constexpr unsigned long long swizzled128(unsigned long long address) {
  return address ^ (((address >> 7) & 7u) << 4);
}
HOST_DEVICE constexpr unsigned long long wgmmaOperandAddress(unsigned long long start, int row, int kk) {
  return swizzled128(start + (unsigned long long)(row / 8) * kSwizzleAtomBytes +
                     (unsigned long long)(row % 8) * kSwizzleRowBytes + 4ull * (unsigned long long)kk);
}
HOST_DEVICE constexpr FragmentElement wgmmaElementD(int thread, int i) {
  return {16 * (thread / 32) + (thread % 32) / 4 + ((i & 2) ? 8 : 0), 8 * (i / 4) + (thread % 4) * 2 + (i & 1)};
}

}  // namespace tilescope
