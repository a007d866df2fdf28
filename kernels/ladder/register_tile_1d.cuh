// regtile-1d: the ladder's rung 3, a one-dimensional register tile. A block computes a
// BM x BN tile of P with (BM/TM) x BN threads; each thread computes TM elements of one column
// of it, held in registers. Per step of k it reads one N value into a register and reuses it
// for TM multiply-adds with TM values of the M tile. What it saves: shared-memory reads (TM+1
// per TM multiply-adds instead of 2 per 1) and global loads (each block reuses a tile BM or
// BN times); what it costs: TM accumulator registers per thread and fewer, larger blocks.
//   M is j x k, N is k x l, P is j x l; Mds is BM x BK (a tile of M), Nds BK x BN.

template <int BM, int BN, int BK, int TM>
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  __shared__ float Mds[BM][BK];
  __shared__ float Nds[BK][BN];
  const int threads = (BM / TM) * BN;

  int rowBase = blockIdx.y * BM;  // the block's tile of P
  int colBase = blockIdx.x * BN;
  int threadCol = threadIdx.x % BN;  // this thread's column of the tile,
  int threadRow = threadIdx.x / BN;  // and its rows threadRow*TM .. threadRow*TM + TM-1

  float Pvalue[TM];
  for (int t = 0; t < TM; ++t) Pvalue[t] = 0.0f;

  for (int ph = 0; ph < ceilDiv(k, BK); ++ph) {
    // Collaborative loading: consecutive threads take consecutive elements of a tile row
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
      float nValue = Nds[kk][threadCol];  // one shared read, reused TM times from a register
      for (int t = 0; t < TM; ++t) {
        Pvalue[t] += Mds[threadRow*TM + t][kk] * nValue;
      }
    }
    __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  for (int t = 0; t < TM; ++t) {
    int Row = rowBase + threadRow*TM + t, Col = colBase + threadCol;
    if (Row < j && Col < l)
      P[Row*l + Col] = Pvalue[t];
  }
}

// ---- facts ---------------------------------------------------------------------------
struct Facts : RegisterTileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::RegisterTile1d,
      .name = "regtile-1d",
      .description = "each thread computes TM P elements of a column from registers (1D register tile)",
      .sourceFile = "ladder/register_tile_1d.cuh",
      .ladderRung = 3,
      // Its two built tilings.
      .gpuResourceLaunches = 2,
      // Profiled at its H100 tiling (the first built one that fits inside P).
      .ncuLaunches = {{{128, 64, 128}}},
      .ncuShared = NcuShared::Conflicts,
  };
  // (bm / tm) x (bn / tn) threads; Mds[bm][bk] and Nds[bk][bn] floats, static.
  static HandResources handResources(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return {.threads = (t.bm / t.tm) * (t.bn / t.tn), .staticSharedBytes = (t.bm * t.bk + t.bk * t.bn) * 4};
  }
  static constexpr std::array<Tiling, 2> kTilings{{{64, 64, 8, 0, 0, 8, 1}, {8, 8, 4, 0, 0, 4, 1}}};
  static std::string tilingProblem(const Tiling& t) {
    if (t.tn != 1 || t.wm || t.wn) return "a one-dimensional register tile is TM x 1, with no warp tile";
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
      x.launch(matrixMulKernel<t.bm, t.bn, t.bk, t.tm>, L, a.M, a.N, a.P, L.j, L.k, L.l);
    });
  }
};
