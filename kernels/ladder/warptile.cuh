// warptile: the ladder's rung 6, warp tiling. vectorized's 128-bit loads and transposed M
// tile, with the threads of a block grouped the way the hardware runs them: each warp owns
// a WM x WN tile of P, and its lanes' TM x TN tiles are made of 4 x 4 pieces MSPAN rows and
// NSPAN columns apart. So the 32 lanes of a warp read 128-bit runs of one tile row that sit
// side by side (no bank conflicts), and each warp's fragments come from a small footprint of
// the shared tiles. What it saves: the bank conflicts and scattered shared reads of the
// thread-by-thread layout. What it costs: index arithmetic that no longer reads like the book.
//   M is j x k, N is k x l, P is j x l; Mds is [BK][BM + 4] (M's tile transposed), Nds [BK][BN].

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  constexpr int THREADS = (BM / WM) * (BN / WN) * 32;
  constexpr int LANES_N = WN / TN;
  constexpr int MSPAN = WM / (TM / 4), NSPAN = WN / (TN / 4);
  constexpr int SM = BM + 4;
  __shared__ float Mds[BK][SM];
  __shared__ float Nds[BK][BN];

  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  int laneRow = lane / LANES_N, laneCol = lane % LANES_N;
  int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
  bool mRowsAligned = k % 4 == 0, nRowsAligned = l % 4 == 0;

  float Pvalue[TM][TN];
#pragma unroll
  for (int y = 0; y < TM; ++y)
#pragma unroll
    for (int x = 0; x < TN; ++x) Pvalue[y][x] = 0.0f;
  float mFragment[TM], nFragment[TN];

  for (int ph = 0; ph < ceilDiv(k, BK); ++ph) {
    for (int f = threadIdx.x; f < BM * BK / 4; f += THREADS) {
      int r = f / (BK / 4), c = f % (BK / 4) * 4;
      int row = rowBase + r, col = ph*BK + c;
      float4 m4 = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (mRowsAligned && row < j && col + 3 < k) {
        m4 = *reinterpret_cast<float4*>(&M[row*k + col]);
      } else {
        if (row < j && col + 0 < k) m4.x = M[row*k + col + 0];
        if (row < j && col + 1 < k) m4.y = M[row*k + col + 1];
        if (row < j && col + 2 < k) m4.z = M[row*k + col + 2];
        if (row < j && col + 3 < k) m4.w = M[row*k + col + 3];
      }
      // Corner turning: a row of M's tile becomes a column of Mds
      Mds[c + 0][r] = m4.x; Mds[c + 1][r] = m4.y; Mds[c + 2][r] = m4.z; Mds[c + 3][r] = m4.w;
    }
    for (int f = threadIdx.x; f < BK * BN / 4; f += THREADS) {
      int r = f / (BN / 4), c = f % (BN / 4) * 4;
      int row = ph*BK + r, col = colBase + c;
      if (nRowsAligned && row < k && col + 3 < l) {
        *reinterpret_cast<float4*>(&Nds[r][c]) = *reinterpret_cast<float4*>(&N[row*l + col]);
      } else {
        for (int e = 0; e < 4; ++e) {
          if (row < k && col + e < l) Nds[r][c + e] = N[row*l + col + e];
          else Nds[r][c + e] = 0.0f;
        }
      }
    }
    __syncthreads();  // read-after-write: both tiles are loaded before anyone reads them

#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int c = 0; c < TM / 4; ++c) {
        float4 m4 = *reinterpret_cast<float4*>(&Mds[kk][warpRow*WM + c*MSPAN + laneRow*4]);
        mFragment[c*4 + 0] = m4.x; mFragment[c*4 + 1] = m4.y; mFragment[c*4 + 2] = m4.z; mFragment[c*4 + 3] = m4.w;
      }
#pragma unroll
      for (int c = 0; c < TN / 4; ++c) {
        float4 n4 = *reinterpret_cast<float4*>(&Nds[kk][warpCol*WN + c*NSPAN + laneCol*4]);
        nFragment[c*4 + 0] = n4.x; nFragment[c*4 + 1] = n4.y; nFragment[c*4 + 2] = n4.z; nFragment[c*4 + 3] = n4.w;
      }
#pragma unroll
      for (int y = 0; y < TM; ++y)
#pragma unroll
        for (int x = 0; x < TN; ++x) Pvalue[y][x] += mFragment[y] * nFragment[x];
    }
    __syncthreads();  // write-after-read: everyone is done reading before the next load
  }

#pragma unroll
  for (int cm = 0; cm < TM / 4; ++cm)
#pragma unroll
    for (int y = 0; y < 4; ++y) {
      int row = rowBase + warpRow*WM + cm*MSPAN + laneRow*4 + y;
#pragma unroll
      for (int cn = 0; cn < TN / 4; ++cn) {
        int col = colBase + warpCol*WN + cn*NSPAN + laneCol*4;
        int t = cm*4 + y, u = cn*4;
        if (nRowsAligned && row < j && col + 3 < l) {
          *reinterpret_cast<float4*>(&P[row*l + col]) =
              make_float4(Pvalue[t][u + 0], Pvalue[t][u + 1], Pvalue[t][u + 2], Pvalue[t][u + 3]);
        } else {
          for (int e = 0; e < 4; ++e)
            if (row < j && col + e < l) P[row*l + col + e] = Pvalue[t][u + e];
        }
      }
    }
}

// ---- facts ---------------------------------------------------------------------------
// matrixMulKernel is longer than 80 lines: lesson 16 reads a warp's fragments from the shared
// tiles to the thread tile's sums in one loop, which the Source panel shows whole.
struct Facts : RegisterTileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::WarpTile,
      .name = "warptile",
      .description = "each warp owns a tile of P; its lanes' 128-bit shared reads sit side by side",
      .sourceFile = "ladder/warptile.cuh",
      .ladderRung = 6,
      // Its two built tilings.
      .gpuResourceLaunches = 2,
      // Profiled at its H100 tiling (the first built one that fits inside P).
      .ncuLaunches = {{{128, 64, 128}}},
      .ncuShared = NcuShared::Conflicts,
  };
  // (bm / tm) x (bn / tn) threads; Mds[bk][bm + 4] (M's tile transposed, rows padded by 4)
  // and Nds[bk][bn] floats, static.
  static HandResources handResources(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return {.threads = (t.bm / t.tm) * (t.bn / t.tn), .staticSharedBytes = (t.bk * (t.bm + 4) + t.bk * t.bn) * 4};
  }
  static constexpr std::array<Tiling, 2> kTilings{{{128, 128, 16, 64, 32, 8, 8}, {32, 32, 4, 16, 32, 4, 4}}};
  static std::string tilingProblem(const Tiling& t) {
    return warpTilingProblem(t, 4 * t.bk * (t.bm + 4 + t.bn), kMaxStaticSharedBytes);
  }
  static SharedTileLayout tiles(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return TileFamily::twoTiles(t.bk, t.bm + 4, t.bk, t.bn);
  }
  static SharedArrays arrays(const KernelLaunch& L) {
    return {{{MatrixRole::M, L.tiling.bm + 4, false}, {MatrixRole::N, L.tiling.bn, true}}};
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return withTiling(kTilings, L.tiling, [&](auto I) {
      constexpr Tiling t = kTilings[decltype(I)::value];
      x.launch(matrixMulKernel<t.bm, t.bn, t.bk, t.wm, t.wn, t.tm, t.tn>, L, a.M, a.N, a.P, L.j, L.k, L.l);
    });
  }
};
