// tiled-dynamic: fig. 5.14. The same bounds-checked tiled kernel, but the tile width is a
// run-time argument and both tiles live in one dynamically sized shared array, sized by the
// launch (its third <<< >>> parameter). Mds_sz and Nds_sz count floats; the book's figure
// passes bytes and then adds them to a float pointer, which would overshoot by 4x.
//   M is j x k, N is k x l, P is j x l; Mds[ty * tileWidth + tx], Nds[ty * tileWidth + tx].
#pragma once
#include "probe.h"

namespace tilescope {

template <class Probe>
__global__ void tiledDynamicKernel(GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
                                   int j, int k, int l, int tileWidth, unsigned Mds_sz, unsigned Nds_sz,
                                   Probe probe) {
  extern __shared__ float Mds_Nds[];
  float* Mds = Mds_Nds;
  float* Nds = Mds_Nds + Mds_sz;

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * tileWidth + ty;
  int Col = bx * tileWidth + tx;

  float Pvalue = 0;
  for (int ph = 0; ph < ceilDiv(k, tileWidth); ++ph) {
    probe.beginPhase(ph);
    if (Row < j && ph * tileWidth + tx < k)
      Mds[ty * tileWidth + tx] = probe.loadTileM(M[Row * k + ph * tileWidth + tx], Row, ph * tileWidth + tx, ty, tx);
    else
      Mds[ty * tileWidth + tx] = probe.zeroTileM(Row, ph * tileWidth + tx, ty, tx);
    if (ph * tileWidth + ty < k && Col < l)
      Nds[ty * tileWidth + tx] = probe.loadTileN(N[(ph * tileWidth + ty) * l + Col], ph * tileWidth + ty, Col, ty, tx);
    else
      Nds[ty * tileWidth + tx] = probe.zeroTileN(ph * tileWidth + ty, Col, ty, tx);
    probe.arrive(), __syncthreads();  // read-after-write: every slot is loaded before anyone reads it

    for (int kk = 0; kk < tileWidth; ++kk) {
      Pvalue += probe.readM(Mds[ty * tileWidth + kk], ty, kk, kk) * probe.readN(Nds[kk * tileWidth + tx], kk, tx, kk);
    }
    probe.arrive(), __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  if (Row < j && Col < l)
    P[Row * l + Col] = probe.storeP(Pvalue, Row, Col);
}

}  // namespace tilescope
