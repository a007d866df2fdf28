// bug-k-typo: the tiled kernel of fig. 5.9 with the inner loop's indices typed as
// [ty][tx] on both tiles, a slip that appears in published study notes of chapter 5.
//
// WHAT IS WRONG: the k loop should walk a row of Mds and a column of Nds
// (Mds[ty][kk] * Nds[kk][tx]). Reading Mds[ty][tx] * Nds[ty][tx] instead multiplies the
// same two slots TILE_WIDTH times, so each phase adds TILE_WIDTH * M[Row][ph*T+tx] *
// N[ph*T+ty][Col]: one product, counted T times, in place of a dot product of T terms.
// The loads and barriers are right, so nothing crashes and no access is out of bounds;
// only the numbers are wrong. Fixed counterpart: tiled (tiled.cuh).
//   M is j x k, N is k x l, P is j x l; every dimension a multiple of TILE_WIDTH.
#pragma once
#include "probe.h"

namespace tilescope {

template <int TILE_WIDTH, class Probe>
__global__ void bugKTypoKernel(GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
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
    Mds[ty][tx] = probe.loadTileM(M[Row * k + ph * TILE_WIDTH + tx], Row, ph * TILE_WIDTH + tx, ty, tx);
    Nds[ty][tx] = probe.loadTileN(N[(ph * TILE_WIDTH + ty) * l + Col], ph * TILE_WIDTH + ty, Col, ty, tx);
    probe.arrive(), __syncthreads();  // read-after-write: every slot is loaded before anyone reads it

    for (int kk = 0; kk < TILE_WIDTH; ++kk) {
      // BUG: kk is never used as an index; both reads stay on this thread's own slot.
      Pvalue += probe.readM(Mds[ty][tx], ty, tx, kk) * probe.readN(Nds[ty][tx], ty, tx, kk);
    }
    probe.arrive(), __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  P[Row * l + Col] = probe.storeP(Pvalue, Row, Col);
}

}  // namespace tilescope
