// vectorized: the ladder's rung 5, 128-bit accesses. regtile-2d with its global loads, shared
// reads and stores of P done four floats at a time (float4, one LDG.128 / LDS.128 / STG.128
// instead of four), and the M tile stored transposed in shared memory: corner turning, the
// next chapter's first idea. A thread reads a float4 along a row of M (coalesced in global
// memory) and writes its four values down a column of Mds, so that the k loop finds the TM
// values of M it needs side by side in one row of Mds, readable as float4s. What it saves:
// three quarters of the load and store instructions. What it costs: alignment (a float4
// must start at a multiple of 16 bytes: rows of M and N whose length is not a multiple of 4
// fall back to scalar loads) and padding of the transposed tile.
//   M is j x k, N is k x l, P is j x l; Mds is [BK][BM + 4] (M's tile transposed), Nds
//   [BK][BN]; thread t computes rows (t / (BN/TN))*TM.. and columns (t % (BN/TN))*TN.. of the
//   block's tile.

template <int BM, int BN, int BK, int TM, int TN>
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  constexpr int THREADS = (BM / TM) * (BN / TN);
  constexpr int SM = BM + 4;
  __shared__ float Mds[BK][SM];
  __shared__ float Nds[BK][BN];

  int threadRow = threadIdx.x / (BN / TN), threadCol = threadIdx.x % (BN / TN);
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
      for (int y = 0; y < TM; y += 4) {
        float4 m4 = *reinterpret_cast<float4*>(&Mds[kk][threadRow*TM + y]);
        mFragment[y + 0] = m4.x; mFragment[y + 1] = m4.y; mFragment[y + 2] = m4.z; mFragment[y + 3] = m4.w;
      }
#pragma unroll
      for (int x = 0; x < TN; x += 4) {
        float4 n4 = *reinterpret_cast<float4*>(&Nds[kk][threadCol*TN + x]);
        nFragment[x + 0] = n4.x; nFragment[x + 1] = n4.y; nFragment[x + 2] = n4.z; nFragment[x + 3] = n4.w;
      }
#pragma unroll
      for (int y = 0; y < TM; ++y)
#pragma unroll
        for (int x = 0; x < TN; ++x) Pvalue[y][x] += mFragment[y] * nFragment[x];
    }
    __syncthreads();  // write-after-read: everyone is done reading before the next load
  }

#pragma unroll
  for (int y = 0; y < TM; ++y) {
    int row = rowBase + threadRow*TM + y;
    for (int x = 0; x < TN; x += 4) {
      int col = colBase + threadCol*TN + x;
      if (nRowsAligned && row < j && col + 3 < l) {
        *reinterpret_cast<float4*>(&P[row*l + col]) =
            make_float4(Pvalue[y][x + 0], Pvalue[y][x + 1], Pvalue[y][x + 2], Pvalue[y][x + 3]);
      } else {
        for (int e = 0; e < 4; ++e)
          if (row < j && col + e < l) P[row*l + col + e] = Pvalue[y][x + e];
      }
    }
  }
}

// ---- facts ---------------------------------------------------------------------------
// matrixMulKernel is longer than 80 lines: lesson 15 follows one k step from the float4 load
// through the transposed store to the outer product, and the Source panel shows that loop whole.
struct Facts : RegisterTileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::Vectorized,
      .name = "vectorized",
      .description = "regtile-2d with float4 loads, reads and stores; M's tile transposed (corner turning)",
      .sourceFile = "ladder/vectorized.cuh",
      .ladderRung = 5,
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
  static constexpr std::array<Tiling, 2> kTilings{{{128, 128, 8, 0, 0, 8, 8}, {16, 16, 4, 0, 0, 4, 4}}};
  static std::string tilingProblem(const Tiling& t) {
    if (t.wm || t.wn) return "vectorized has no warp tile (that is warptile's)";
    return vectorTilingProblem(t, 4 * t.bk * (t.bm + 4 + t.bn), kMaxStaticSharedBytes);
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
      x.launch(matrixMulKernel<t.bm, t.bn, t.bk, t.tm, t.tn>, L, a.M, a.N, a.P, L.j, L.k, L.l);
    });
  }
};
