// bug-rect-index: tiled-rect with the linear thread number computed as one lecture's
// kernel does: li = threadIdx.y * blockDim.y + threadIdx.x.
//
// WHAT IS WRONG: a row of the block holds blockDim.x threads, so the row stride of a
// row-major numbering is blockDim.x. With blockDim.y in its place the numbers are right
// only for a square block; otherwise two threads get the same li (they load the same
// element: harmless) and some numbers are never given out, so those tile slots are never
// loaded. The k loop then reads whatever an earlier phase (or block) left there, and every
// P element whose row or column passes through such a slot is wrong. The lecture only uses
// square blocks (BLOCKSIZE x BLOCKSIZE), where the typo cannot show: run a 4x2 block.
// Fixed counterpart: tiled-rect (tiled_rect.cuh), which differs in that one line.
//   M is j x k, N is k x l, P is j x l; Mds[r * TK + c] (bh x TK), Nds[r * bw + c] (TK x bw).

__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  extern __shared__ float Mds_Nds[];
  const int bw = int(blockDim.x), bh = int(blockDim.y);
  const int TK = bw < bh ? bw : bh;  // phase width: the shorter side of the block
  float* Mds = Mds_Nds;              // bh x TK
  float* Nds = Mds_Nds + bh * TK;    // TK x bw

  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = blockIdx.y * bh + ty;
  int Col = blockIdx.x * bw + tx;
  // BUG: the row stride is blockDim.x; blockDim.y is right only when the block is square.
  int li = ty * blockDim.y + tx;

  float Pvalue = 0;
  for (int ph = 0; ph < ceilDiv(k, TK); ++ph) {
    if (li < bh * TK) {  // thread li loads slot li of the M tile
      int r = li / TK, c = li % TK;
      int gRow = blockIdx.y * bh + r, gCol = ph * TK + c;
      if (gRow < j && gCol < k) Mds[li] = M[gRow*k + gCol];
      else Mds[li] = 0.0f;
    }
    if (li < TK * bw) {  // and slot li of the N tile
      int r = li / bw, c = li % bw;
      int gRow = ph * TK + r, gCol = blockIdx.x * bw + c;
      if (gRow < k && gCol < l) Nds[li] = N[gRow*l + gCol];
      else Nds[li] = 0.0f;
    }
    __syncthreads();  // read-after-write: every slot is loaded before anyone reads it

    for (int kk = 0; kk < TK; ++kk) {
      Pvalue += Mds[ty*TK + kk] * Nds[kk*bw + tx];
    }
    __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  if (Row < j && Col < l)
    P[Row*l + Col] = Pvalue;
}

// ---- facts ---------------------------------------------------------------------------
struct Facts : RectFamily {
  static constexpr KernelInfo info{
      .id = KernelId::BugRectIndex,
      .name = "bug-rect-index",
      .description = "bug gallery: tiled-rect with li = ty * blockDim.y + tx, wrong for non-square blocks (lecture)",
      .sourceFile = "bugs/bug_rect_index.cuh",
      .fixedTwin = "tiled-rect",
      .faultyLines = {25},
      // Blocks 16x16, 32x8, 64x4, 32x32 and 7x3: every one launches.
      .gpuResourceLaunches = 5,
  };
  // As tiled-rect's: bx x by threads; Mds of by x TK and Nds of TK x bx floats, TK = min(bx, by).
  static HandResources handResources(const KernelLaunch& L) {
    const int bx = int(L.blockX), by = int(L.blockY), tk = bx < by ? bx : by;
    return {.threads = bx * by, .dynamicSharedBytes = (by * tk + tk * bx) * 4};
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    x.launch(matrixMulKernel, L, a.M, a.N, a.P, L.j, L.k, L.l);
    return true;
  }
};
