// tiled-no-second-sync: fig. 5.9 with its SECOND barrier removed, a deliberate race for the
// hazard detector (app/core/analysis/races.h) to find. Everything else is the tiled kernel.
//
// Removed: the __syncthreads() at the end of each phase, after the k loop.
// Now unprotected: the write-after-read (false) dependence. A thread that finishes its
// k loop early goes on to load the next phase's tiles into slots that slower threads are
// still reading, so they may multiply the next phase's values. With one phase (k <= T)
// there is no next load and the result is right: the race needs at least two phases.
//   M is j x k, N is k x l, P is j x l; Mds[ty][tx] and Nds[ty][tx] are the tiles.
#pragma once
#include "probe.h"

namespace tilescope {

template <int TILE_WIDTH, class Probe>
__global__ void tiledNoSecondSyncKernel(GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
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
      Pvalue += probe.readM(Mds[ty][kk], ty, kk, kk) * probe.readN(Nds[kk][tx], kk, tx, kk);
    }
    // BUG (on purpose): the write-after-read barrier of fig. 5.9 is missing here, so the
    // next phase's loads above race with the other threads' reads of this phase.
  }
  P[Row * l + Col] = probe.storeP(Pvalue, Row, Col);
}

}  // namespace tilescope
