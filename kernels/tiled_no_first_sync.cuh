// tiled-no-first-sync: fig. 5.9 with its FIRST barrier removed, a deliberate race for the
// hazard detector (app/core/analysis/races.h) to find. Everything else is the tiled kernel.
//
// Removed: the __syncthreads() between the collaborative tile loads and the k loop.
// Now unprotected: the read-after-write (true) dependence. Thread (ty, tx) reads
// Mds[ty][kk] and Nds[kk][tx], slots written by other threads of the block in the same
// phase, and nothing makes it wait for those writes: it may read the previous phase's tile
// (or whatever the shared memory held before). Only dimensions that are multiples of
// TILE_WIDTH are meant to be used, as for tiled.
//   M is j x k, N is k x l, P is j x l; Mds[ty][tx] and Nds[ty][tx] are the tiles.
#pragma once
#include "probe.h"

namespace tilescope {

template <int TILE_WIDTH, class Probe>
__global__ void tiledNoFirstSyncKernel(GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
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
    // BUG (on purpose): the read-after-write barrier of fig. 5.9 is missing here, so the
    // reads below race with the other threads' writes above.

    for (int kk = 0; kk < TILE_WIDTH; ++kk) {
      Pvalue += probe.readM(Mds[ty][kk], ty, kk, kk) * probe.readN(Nds[kk][tx], kk, tx, kk);
    }
    probe.arrive(), __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  P[Row * l + Col] = probe.storeP(Pvalue, Row, Col);
}

}  // namespace tilescope
