// bug-square-grid: tiled-bounds with its phase count taken from the grid, as one lecture's
// kernel does (its comment says it assumes gridDim.x equals gridDim.y).
//
// WHAT IS WRONG: a block must walk every tile of the shared dimension k, ceil(k / T)
// phases. gridDim.x is ceil(l / T), the number of tile columns of P. The two agree only
// when k and l round to the same tile count, e.g. for square matrices. When k is longer,
// the last phases are skipped and every element of P misses the terms with k index
// >= gridDim.x * T; when k is shorter, the extra phases load only zeros (the bounds checks
// save it) and merely waste time. Fixed counterpart: tiled-bounds (tiled_bounds.cuh),
// whose only difference is the loop bound.
//   M is j x k, N is k x l, P is j x l; any size.
#pragma once
#include "probe.h"

namespace tilescope {

template <int TILE_WIDTH, class Probe>
__global__ void bugSquareGridKernel(GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
                                    int j, int k, int l, Probe probe) {
  static_assert(TILE_WIDTH >= 1 && TILE_WIDTH <= 32, "a block holds at most 32 x 32 threads");
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;

  float Pvalue = 0;
  // BUG: should be ceilDiv(k, TILE_WIDTH); the grid's width only counts tiles of l.
  for (int ph = 0; ph < int(gridDim.x); ++ph) {
    probe.beginPhase(ph);
    if (Row < j && ph * TILE_WIDTH + tx < k)
      Mds[ty][tx] = probe.loadTileM(M[Row * k + ph * TILE_WIDTH + tx], Row, ph * TILE_WIDTH + tx, ty, tx);
    else
      Mds[ty][tx] = probe.zeroTileM(Row, ph * TILE_WIDTH + tx, ty, tx);
    if (ph * TILE_WIDTH + ty < k && Col < l)
      Nds[ty][tx] = probe.loadTileN(N[(ph * TILE_WIDTH + ty) * l + Col], ph * TILE_WIDTH + ty, Col, ty, tx);
    else
      Nds[ty][tx] = probe.zeroTileN(ph * TILE_WIDTH + ty, Col, ty, tx);
    probe.arrive(), __syncthreads();  // read-after-write: every slot is loaded before anyone reads it

    for (int kk = 0; kk < TILE_WIDTH; ++kk) {
      Pvalue += probe.readM(Mds[ty][kk], ty, kk, kk) * probe.readN(Nds[kk][tx], kk, tx, kk);
    }
    probe.arrive(), __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  if (Row < j && Col < l)
    P[Row * l + Col] = probe.storeP(Pvalue, Row, Col);
}

}  // namespace tilescope
