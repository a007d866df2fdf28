// tiled-bounds: fig. 5.13 generalised to a j x k times k x l product (the chapter's
// exercise). Each load checks its own indices: a thread whose M or N element lies outside
// the matrix writes 0.0 into its shared slot instead (harmless in the dot product), and
// only threads that own a real P element store it.
//   M is j x k, N is k x l, P is j x l; Mds[ty][tx] and Nds[ty][tx] are the tiles.
#pragma once
#include "probe.h"

namespace tilescope {

template <int TILE_WIDTH, class Probe>
__global__ void tiledBoundsKernel(GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
                                  int j, int k, int l, Probe probe) {
  static_assert(TILE_WIDTH >= 1 && TILE_WIDTH <= 32, "a block holds at most 32 x 32 threads");
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;

  float Pvalue = 0;
  for (int ph = 0; ph < ceilDiv(k, TILE_WIDTH); ++ph) {
    probe.beginPhase(ph);
    // Collaborative loading, with one boundary test for M and another for N
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
