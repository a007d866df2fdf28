// tiled: fig. 5.9. A TILE_WIDTH x TILE_WIDTH block computes a tile of P; in each phase its
// threads load one tile of M and one of N into shared memory (one element each), then
// every thread walks k across the two tiles. Global loads drop by a factor of TILE_WIDTH.
// Like the book's kernel it has no boundary checks: every dimension must be a multiple of
// TILE_WIDTH. The phase count is rounded up (as in fig. 5.13) so that on other sizes it
// shows exactly the wrong accesses of figs. 5.11 and 5.12.
//   M is j x k, N is k x l, P is j x l; Mds[ty][tx] and Nds[ty][tx] are the tiles.
#pragma once
#include "probe.h"

namespace tilescope {

template <int TILE_WIDTH, class Probe>
__global__ void tiledKernel(GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
                            int j, int k, int l, Probe probe) {
  static_assert(TILE_WIDTH >= 1 && TILE_WIDTH <= 32, "a block holds at most 32 x 32 threads");
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;

  // Identify the row and column of the P element to work on
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;

  // Loop over the M and N tiles required to compute the P element
  float Pvalue = 0;
  for (int ph = 0; ph < ceilDiv(k, TILE_WIDTH); ++ph) {
    probe.beginPhase(ph);
    // Collaborative loading of M and N tiles into shared memory
    Mds[ty][tx] = probe.loadTileM(M[Row * k + ph * TILE_WIDTH + tx], Row, ph * TILE_WIDTH + tx, ty, tx);
    Nds[ty][tx] = probe.loadTileN(N[(ph * TILE_WIDTH + ty) * l + Col], ph * TILE_WIDTH + ty, Col, ty, tx);
    probe.arrive(), __syncthreads();  // read-after-write: every slot is loaded before anyone reads it

    for (int kk = 0; kk < TILE_WIDTH; ++kk) {
      Pvalue += probe.readM(Mds[ty][kk], ty, kk, kk) * probe.readN(Nds[kk][tx], kk, tx, kk);
    }
    probe.arrive(), __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  P[Row * l + Col] = probe.storeP(Pvalue, Row, Col);
}

}  // namespace tilescope
