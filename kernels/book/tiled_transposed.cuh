// tiled-transposed: the bank-conflict lesson. tiled-dynamic (fig. 5.14) with one change:
// the N tile is stored transposed, Nds[tx][ty] instead of Nds[ty][tx], so that the k loop
// reads both tiles along a row (Mds[ty][kk], Nds[tx][kk]), a layout often tried to make the
// inner loop look symmetric. Both tiles have a run-time row stride of tileWidth + pad floats.
//
// Why it conflicts: a warp's threads differ mostly in tx, and Nds[tx][..] puts consecutive
// tx one row (tileWidth words) apart. With tileWidth = 32 and pad = 0 all 32 words of a
// warp's Nds access sit in one bank (32 wavefronts); with pad = 1 the rows are 33 words
// apart, tx walks through all 32 banks and the access is conflict-free. At tileWidth = 16
// pad 0 gives 8 wavefronts on the read; pad 1 gives 1.
//   M is j x k, N is k x l, P is j x l; Mds[ty * stride + tx], Nds[tx * stride + ty].

__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l, int tileWidth, int pad) {
  extern __shared__ float Mds_Nds[];
  const int stride = tileWidth + pad;  // floats from one tile row to the next
  float* Mds = Mds_Nds;
  float* Nds = Mds_Nds + tileWidth * stride;

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * tileWidth + ty;
  int Col = bx * tileWidth + tx;

  float Pvalue = 0;
  for (int ph = 0; ph < ceilDiv(k, tileWidth); ++ph) {
    if (Row < j && ph*tileWidth + tx < k)
      Mds[ty*stride + tx] = M[Row*k + ph*tileWidth + tx];
    else Mds[ty*stride + tx] = 0.0f;
    // The global read is the same coalesced row of N as in tiled; only the shared slot is
    // transposed, so the write walks a column of Nds.
    if (ph*tileWidth + ty < k && Col < l)
      Nds[tx*stride + ty] = N[(ph*tileWidth + ty)*l + Col];
    else Nds[tx*stride + ty] = 0.0f;
    __syncthreads();  // read-after-write: every slot is loaded before anyone reads it

    for (int kk = 0; kk < tileWidth; ++kk) {
      Pvalue += Mds[ty*stride + kk] * Nds[tx*stride + kk];
    }
    __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  if (Row < j && Col < l)
    P[Row*l + Col] = Pvalue;
}

// ---- facts ---------------------------------------------------------------------------
struct Facts : TileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::TiledTransposed,
      .name = "tiled-transposed",
      .description = "tiled-dynamic with the N tile stored transposed, row stride T+pad (the bank-conflict lesson)",
      .sourceFile = "book/tiled_transposed.cuh",
      .tiled = true,
      .takesPad = true,
      // A run-time width: all nine of the resource test's, each with pad 0 and 1.
      .gpuResourceLaunches = 18,
      .ncuLaunches = {{{64, 64, 64, 16, 0, 0, 0}, {64, 64, 64, 16, 0, 0, 1}, {64, 64, 64, 32, 0, 0, 0}, {64, 64, 64, 32, 0, 0, 1}}},
      .ncuShared = NcuShared::All,  // a run-time T: one 32-bit shared load per source read
  };
  // T x T threads; Mds of T x T floats and the transposed N tile of T rows of T + pad, extern.
  static HandResources handResources(const KernelLaunch& L) {
    return {.threads = L.tile * L.tile, .dynamicSharedBytes = 2 * L.tile * (L.tile + L.pad) * 4};
  }
  static LaunchShape shape(const KernelLaunch& L) {
    LaunchShape s = TileFamily::shape(L);
    s.dynamicSharedFloats = unsigned(2 * L.tile * (L.tile + L.pad));  // Mds then Nds, rows of T + pad
    return s;
  }
  static SharedTileLayout tiles(const KernelLaunch& L) {
    return twoTiles(L.tile, L.tile + L.pad, L.tile, L.tile + L.pad);
  }
  // A row of the transposed Nds holds a column of N: no fig. 5.11 wrap to look for there.
  static SharedArrays arrays(const KernelLaunch& L) {
    return {{{}, {MatrixRole::M, L.tile + L.pad, true}, {MatrixRole::N, L.tile + L.pad, false}}};
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    x.launch(matrixMulKernel, L, a.M, a.N, a.P, L.j, L.k, L.l, L.tile, L.pad);
    return true;
  }
};
