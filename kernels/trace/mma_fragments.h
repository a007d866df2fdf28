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

}  // namespace tilescope
