// coarsened: the ladder's rung 2, thread coarsening (the next chapter's fig. 6.13, with the
// boundary checks of fig. 5.13). Each thread computes COARSE_FACTOR elements of P in one row,
// TILE_WIDTH columns apart: it loads its M tile once per phase and reuses it for all of them,
// so a block loads one M tile for COARSE_FACTOR N tiles. What it saves: M traffic and
// redundant index arithmetic; what it costs: COARSE_FACTOR times fewer blocks to fill the GPU.
//   M is j x k, N is k x l, P is j x l; a T x T block covers T rows and T x COARSE_FACTOR
//   columns of P. Mds[ty][tx] and Nds[ty][tx] are the tiles.

template <int TILE_WIDTH, int COARSE_FACTOR>
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int colStart = bx * TILE_WIDTH * COARSE_FACTOR + tx;

  float Pvalue[COARSE_FACTOR];
  for (int c = 0; c < COARSE_FACTOR; ++c) Pvalue[c] = 0.0f;

  for (int ph = 0; ph < ceilDiv(k, TILE_WIDTH); ++ph) {
    // One M tile per phase, shared by every output tile of the block
    if (Row < j && ph*TILE_WIDTH + tx < k)
      Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
    else Mds[ty][tx] = 0.0f;

    for (int c = 0; c < COARSE_FACTOR; ++c) {
      int Col = colStart + c*TILE_WIDTH;
      if (ph*TILE_WIDTH + ty < k && Col < l)
        Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];
      else Nds[ty][tx] = 0.0f;
      __syncthreads();  // read-after-write: both tiles are loaded before anyone reads them

      for (int kk = 0; kk < TILE_WIDTH; ++kk) {
        Pvalue[c] += Mds[ty][kk] * Nds[kk][tx];
      }
      __syncthreads();  // write-after-read: everyone is done with Nds (and Mds) before the next load
    }
  }
  for (int c = 0; c < COARSE_FACTOR; ++c) {
    int Col = colStart + c*TILE_WIDTH;
    if (Row < j && Col < l)
      P[Row*l + Col] = Pvalue[c];
  }
}

// ---- facts ---------------------------------------------------------------------------
// The tiling says it in the ladder's terms: bm = bk = T, bn = T x COARSE_FACTOR, a thread
// tile of 1 x COARSE_FACTOR (its elements T columns apart).
struct Facts : TileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::Coarsened,
      .name = "coarsened",
      .description = "each thread computes COARSE_FACTOR P elements and reuses its M tile (fig. 6.13)",
      .sourceFile = "book/coarsened.cuh",
      .ladderRung = 2,
      // Its two built tilings.
      .gpuResourceLaunches = 2,
      // Profiled at its H100 tiling (the first built one that fits inside P).
      .ncuLaunches = {{{64, 64, 128}}},
      .ncuShared = NcuShared::Conflicts,
  };
  // A T x T block with T = bm (each thread 1 x tn elements of P); Mds[T][T] and Nds[T][T], static.
  static HandResources handResources(const KernelLaunch& L) {
    const int T = L.tiling.bm;
    return {.threads = T * T, .staticSharedBytes = 2 * T * T * 4};
  }
  static constexpr std::array<Tiling, 2> kTilings{{{32, 128, 32, 0, 0, 1, 4}, {4, 8, 4, 0, 0, 1, 2}}};
  static int tileOf(const KernelLaunch& L) { return L.tiling.bm; }
  static std::string tilingProblem(const Tiling& t) {
    if (t.bk != t.bm || t.tm != 1 || t.bn != t.bm * t.tn || t.wm || t.wn)
      return "coarsened's block is T x T: bm = bk = T, bn = T x tn, tm = 1 and no warp tile";
    return {};
  }
  static LaunchShape shape(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    LaunchShape s;
    s.blockX = s.blockY = unsigned(t.bm);
    s.gridX = unsigned(ceilDiv(L.l, t.bn));
    s.gridY = unsigned(ceilDiv(L.j, t.bm));
    s.phases = ceilDiv(L.k, t.bk) * t.tn;  // the decoder sees a phase per N tile
    s.eventsPerThread = unsigned(ceilDiv(L.k, t.bk)) * unsigned(1 + t.tn * (3 + 2 * t.bk)) + unsigned(t.tn);
    return s;
  }
  static SharedTileLayout tiles(const KernelLaunch& L) { return twoTiles(tileOf(L), tileOf(L), tileOf(L), tileOf(L)); }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return withTiling(kTilings, L.tiling, [&](auto I) {
      constexpr Tiling t = kTilings[decltype(I)::value];
      x.launch(matrixMulKernel<t.bm, t.tn>, L, a.M, a.N, a.P, L.j, L.k, L.l);
    });
  }
};
