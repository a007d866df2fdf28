// bug-sync-in-k: a tiled kernel as one tutorial writes it: the barrier sits inside the k
// loop, and P is stored at the end of every phase instead of once after the last one.
//
// WHAT IS WRONG: nothing a test of P can see, which is the lesson. The barrier after each
// k step also happens to protect the next phase's loads (the last step's barrier orders
// every read before them), so the result is correct. The cost is synchronisation: each
// phase waits at 1 + TILE_WIDTH barriers instead of 2, and each thread writes its P
// element once per phase (partial sums that are overwritten) instead of once.
// Fixed counterpart: tiled (tiled.cuh): one barrier after the loads (read-after-write),
// one after the k loop (write-after-read), one store after the phase loop.
//   M is j x k, N is k x l, P is j x l; every dimension a multiple of TILE_WIDTH.
#pragma once
#include "probe.h"

namespace tilescope {

template <int TILE_WIDTH, class Probe>
__global__ void bugSyncInKKernel(GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
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
      // BUG (a costly one): only the last of these barriers does useful work.
      probe.arrive(), __syncthreads();  // write-after-read, but only at the last k: no dependence links k steps
    }
    // BUG (wasteful): a partial sum is stored every phase and overwritten by the next.
    P[Row * l + Col] = probe.storeP(Pvalue, Row, Col);
  }
}

}  // namespace tilescope
