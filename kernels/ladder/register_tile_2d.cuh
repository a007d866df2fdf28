// regtile-2d: the ladder's rung 4, a two-dimensional register tile. Each thread computes a
// TM x TN tile of P. Per step of k it copies TM values of the M tile and TN of the N tile into
// registers (its fragments) and does all TM x TN multiply-adds of their outer product. What
// it saves: shared reads drop to (TM+TN) per TM x TN multiply-adds; each block's tiles are
// reused BM and BN times from shared memory. What it costs: TM x TN accumulators plus
// TM + TN fragment registers per thread, so fewer threads fit on an SM.
//   M is j x k, N is k x l, P is j x l; Mds is BM x BK, Nds BK x BN; the block's
//   (BM/TM) x (BN/TN) threads are laid out row by row over the tile of P.

template <int BM, int BN, int BK, int TM, int TN>
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  __shared__ float Mds[BM][BK];
  __shared__ float Nds[BK][BN];
  const int threads = (BM / TM) * (BN / TN);

  int rowBase = blockIdx.y * BM;
  int colBase = blockIdx.x * BN;
  int threadRow = threadIdx.x / (BN / TN);  // this thread's P tile: rows threadRow*TM ..,
  int threadCol = threadIdx.x % (BN / TN);  // columns threadCol*TN ..

  float Pvalue[TM][TN];
  for (int y = 0; y < TM; ++y)
    for (int x = 0; x < TN; ++x) Pvalue[y][x] = 0.0f;
  float mFragment[TM];
  float nFragment[TN];

  for (int ph = 0; ph < ceilDiv(k, BK); ++ph) {
    for (int i = threadIdx.x; i < BM*BK; i += threads) {
      int r = i / BK, c = i % BK;
      if (rowBase + r < j && ph*BK + c < k)
        Mds[r][c] = M[(rowBase + r)*k + ph*BK + c];
      else Mds[r][c] = 0.0f;
    }
    for (int i = threadIdx.x; i < BK*BN; i += threads) {
      int r = i / BN, c = i % BN;
      if (ph*BK + r < k && colBase + c < l)
        Nds[r][c] = N[(ph*BK + r)*l + colBase + c];
      else Nds[r][c] = 0.0f;
    }
    __syncthreads();  // read-after-write: both tiles are loaded before anyone reads them

#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      for (int y = 0; y < TM; ++y) mFragment[y] = Mds[threadRow*TM + y][kk];
      for (int x = 0; x < TN; ++x) nFragment[x] = Nds[kk][threadCol*TN + x];
      for (int y = 0; y < TM; ++y)
        for (int x = 0; x < TN; ++x) Pvalue[y][x] += mFragment[y] * nFragment[x];
    }
    __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  for (int y = 0; y < TM; ++y)
    for (int x = 0; x < TN; ++x) {
      int Row = rowBase + threadRow*TM + y, Col = colBase + threadCol*TN + x;
      if (Row < j && Col < l)
        P[Row*l + Col] = Pvalue[y][x];
    }
}

// ---- facts ---------------------------------------------------------------------------
struct Facts : RegisterTileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::RegisterTile2d,
      .name = "regtile-2d",
      .description = "each thread computes a TM x TN tile of P from register fragments (2D register tile)",
      .sourceFile = "ladder/register_tile_2d.cuh",
      .ladderRung = 4,
      // Its two built tilings.
      .gpuResourceLaunches = 2,
      // Profiled at its H100 tiling (the first built one that fits inside P).
      .ncuLaunches = {{{128, 64, 128}}},
      // Not even the conflicts: nvcc merges its scalar Nds reads into 128-bit loads.
  };
  // (bm / tm) x (bn / tn) threads; Mds[bm][bk] and Nds[bk][bn] floats, static.
  static HandResources handResources(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return {.threads = (t.bm / t.tm) * (t.bn / t.tn), .staticSharedBytes = (t.bm * t.bk + t.bk * t.bn) * 4};
  }
  static constexpr std::array<Tiling, 2> kTilings{{{128, 128, 8, 0, 0, 8, 8}, {8, 8, 4, 0, 0, 2, 2}}};
  static std::string tilingProblem(const Tiling& t) {
    if (t.wm || t.wn) return "regtile-2d has no warp tile (that is warptile's)";
    if (4 * (t.bm * t.bk + t.bk * t.bn) > kMaxStaticSharedBytes)
      return "its two tiles need " + std::to_string(4 * (t.bm * t.bk + t.bk * t.bn)) + " bytes of static shared memory, over " +
             std::to_string(kMaxStaticSharedBytes);
    return {};
  }
  static SharedTileLayout tiles(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return TileFamily::twoTiles(t.bm, t.bk, t.bk, t.bn);
  }
  static SharedArrays arrays(const KernelLaunch& L) {
    return {{{MatrixRole::M, L.tiling.bk, true}, {MatrixRole::N, L.tiling.bn, true}}};
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return withTiling(kTilings, L.tiling, [&](auto I) {
      constexpr Tiling t = kTilings[decltype(I)::value];
      x.launch(matrixMulKernel<t.bm, t.bn, t.bk, t.tm, t.tn>, L, a.M, a.N, a.P, L.j, L.k, L.l);
    });
  }
};
