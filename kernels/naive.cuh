// naive: the lectures' gemm_simple. One thread computes one element of P = M x N,
// reading a row of M and a column of N straight from global memory (2k loads per thread,
// 0.25 FLOP per byte). Any block shape bx x by; the grid covers P with ceil-divided blocks.
//   M is j x k, N is k x l, P is j x l, all row-major.
#pragma once
#include "probe.h"

namespace tilescope {

template <class Probe>
__global__ void naiveKernel(GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
                            int j, int k, int l, Probe probe) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < j && col < l) {
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) {
      sum += probe.loadM(M[row * k + i], row, i, i) * probe.loadN(N[i * l + col], i, col, i);
    }
    P[row * l + col] = probe.storeP(sum, row, col);
  }
}

}  // namespace tilescope
