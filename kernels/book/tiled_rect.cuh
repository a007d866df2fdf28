// tiled-rect: the tiled kernel for a rectangular block of bw x bh threads (blockDim.x x
// blockDim.y), in the style of the lectures' shared-memory matmul, which numbers the
// threads of a block linearly and lets thread number li load slot li of each tile.
//
// A bh x bw block computes a bh x bw tile of P. A phase covers TK = min(bw, bh) steps of k,
// so the M tile (bh x TK) and the N tile (TK x bw) each hold at most bw * bh elements and
// every thread loads at most one element of each. Both tiles live in the dynamic shared
// array (bh * TK + TK * bw floats, sized by the launch). Boundary checks as in fig. 5.13.
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
  // Linear thread number, row-major over the block (the numbering warps are cut from).
  int li = ty * blockDim.x + tx;

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
      .id = KernelId::TiledRect,
      .name = "tiled-rect",
      .description = "rectangular bw x bh block (--block), phases of min(bw, bh), tiles loaded by linear thread number (lecture style)",
      .sourceFile = "book/tiled_rect.cuh",
      // Blocks 16x16, 32x8, 64x4, 32x32 and 7x3: every one launches.
      .gpuResourceLaunches = 5,
  };
  // bx x by threads; Mds of by x TK and Nds of TK x bx floats, TK = min(bx, by), extern.
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
