// double-buffered: the ladder's top rung, tuned on an H100. warptile's kernel with two
// shared buffers: while the block computes on one pair of tiles, the next pair is on its way
// into the other, N by asynchronous copies (cp.async, <cuda_pipeline.h>) straight from global
// to shared memory, M through registers (it is transposed on the way, see vectorized). One
// barrier per tile instead of two. What it saves: the wait for global memory at every phase,
// which the SM now hides behind multiply-adds. What it costs: twice the shared memory (48.5
// KiB at 128x256x16, over the 48 KiB static limit, so dynamic with an opt-in) and the staging
// registers; one 256-thread block per SM.
//   M is j x k, N is k x l, P is j x l. The block's tile of P is BM x BN; warps split it into
//   WM x WN warp tiles, their lanes into TM x TN thread tiles made of 4 x 4 pieces MSPAN rows
//   and NSPAN columns apart (so a warp's 128-bit reads of a tile row are conflict-free).
//   Mds is [2][BK][BM + 4] (M's tile transposed: one k per row), Nds [2][BK][BN].

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  constexpr int THREADS = (BM / WM) * (BN / WN) * 32;
  constexpr int LANES_N = WN / TN;                        // lanes across a warp tile's columns
  constexpr int MSPAN = WM / (TM / 4), NSPAN = WN / (TN / 4);
  constexpr int SM = BM + 4;                              // a row of Mds, padded against conflicts
  constexpr int MLOADS = (BM * BK / 4 + THREADS - 1) / THREADS;  // float4s of M per thread per tile
  constexpr int NLOADS = (BK * BN / 4 + THREADS - 1) / THREADS;
  extern __shared__ float tiles[];
  float* Mds = tiles;
  float* Nds = tiles + 2 * BK * SM;

  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  int laneRow = lane / LANES_N, laneCol = lane % LANES_N;
  int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
  bool mRowsAligned = k % 4 == 0, nRowsAligned = l % 4 == 0;  // float4 steps stay inside a row

  float4 mStage[MLOADS];
  // The tiles at k offset kt: N into buffer buf (asynchronously), M into registers.
  auto loadTiles = [&](int kt, int buf) {
#pragma unroll
    for (int i = 0; i < MLOADS; ++i) {
      int f = threadIdx.x + i * THREADS;
      if (f >= BM * BK / 4) break;
      int r = f / (BK / 4), c = f % (BK / 4) * 4;
      int row = rowBase + r, col = kt + c;
      if (mRowsAligned && row < j && col + 3 < k) {
        mStage[i] = *reinterpret_cast<float4*>(&M[row*k + col]);
      } else {
        mStage[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (row < j && col + 0 < k) mStage[i].x = M[row*k + col + 0];
        if (row < j && col + 1 < k) mStage[i].y = M[row*k + col + 1];
        if (row < j && col + 2 < k) mStage[i].z = M[row*k + col + 2];
        if (row < j && col + 3 < k) mStage[i].w = M[row*k + col + 3];
      }
    }
#pragma unroll
    for (int i = 0; i < NLOADS; ++i) {
      int f = threadIdx.x + i * THREADS;
      if (f >= BK * BN / 4) break;
      int r = f / (BN / 4), c = f % (BN / 4) * 4;
      int row = kt + r, col = colBase + c;
      if (nRowsAligned && row < k && col + 3 < l) {
        __pipeline_memcpy_async(&Nds[(buf*BK + r)*BN + c], &N[row*l + col], 16);
      } else {
        for (int e = 0; e < 4; ++e) {
          if (row < k && col + e < l) Nds[(buf*BK + r)*BN + c + e] = N[row*l + col + e];
          else Nds[(buf*BK + r)*BN + c + e] = 0.0f;
        }
      }
    }
  };
  // Corner turning: a row of M's tile becomes a column of Mds, so the k loop reads along a row.
  auto storeM = [&](int buf) {
#pragma unroll
    for (int i = 0; i < MLOADS; ++i) {
      int f = threadIdx.x + i * THREADS;
      if (f >= BM * BK / 4) break;
      int r = f / (BK / 4), c = f % (BK / 4) * 4;
      Mds[(buf*BK + c + 0)*SM + r] = mStage[i].x;
      Mds[(buf*BK + c + 1)*SM + r] = mStage[i].y;
      Mds[(buf*BK + c + 2)*SM + r] = mStage[i].z;
      Mds[(buf*BK + c + 3)*SM + r] = mStage[i].w;
    }
  };

  float Pvalue[TM][TN];
#pragma unroll
  for (int y = 0; y < TM; ++y)
#pragma unroll
    for (int x = 0; x < TN; ++x) Pvalue[y][x] = 0.0f;
  float mFragment[TM], nFragment[TN];

  loadTiles(0, 0);
  storeM(0);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();  // read-after-write: the first tiles are in buffer 0 before anyone reads them

  int buf = 0;
  for (int kt = 0; kt < k; kt += BK) {
    bool more = kt + BK < k;
    if (more) loadTiles(kt + BK, buf ^ 1);  // in flight while this buffer is computed on
    __pipeline_commit();

#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int c = 0; c < TM / 4; ++c) {
        float4 m4 = *reinterpret_cast<float4*>(&Mds[(buf*BK + kk)*SM + warpRow*WM + c*MSPAN + laneRow*4]);
        mFragment[c*4 + 0] = m4.x; mFragment[c*4 + 1] = m4.y; mFragment[c*4 + 2] = m4.z; mFragment[c*4 + 3] = m4.w;
      }
#pragma unroll
      for (int c = 0; c < TN / 4; ++c) {
        float4 n4 = *reinterpret_cast<float4*>(&Nds[(buf*BK + kk)*BN + warpCol*WN + c*NSPAN + laneCol*4]);
        nFragment[c*4 + 0] = n4.x; nFragment[c*4 + 1] = n4.y; nFragment[c*4 + 2] = n4.z; nFragment[c*4 + 3] = n4.w;
      }
#pragma unroll
      for (int y = 0; y < TM; ++y)
#pragma unroll
        for (int x = 0; x < TN; ++x) Pvalue[y][x] += mFragment[y] * nFragment[x];
    }
    if (more) {
      storeM(buf ^ 1);
      __pipeline_wait_prior(0);
      __syncthreads();  // read-after-write: the next tiles are in place; write-after-read: no one
                        // reads this buffer any more when the next iteration starts refilling it
      buf ^= 1;
    }
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
// matrixMulKernel is longer than 80 lines: lesson 17 shows the next tile's loads issued before
// this tile's multiply-adds and the one barrier between them; split, the overlap is out of view.
struct Facts : RegisterTileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::DoubleBuffered,
      .name = "double-buffered",
      .description = "warptile with two shared buffers: the next tiles load (cp.async) while this one is computed",
      .sourceFile = "ladder/double_buffered.cuh",
      .ladderRung = 7,
      // Its two built tilings.
      .gpuResourceLaunches = 2,
      // Profiled at its H100 tiling (the first built one that fits inside P).
      .ncuLaunches = {{{128, 64, 256}}},
      .ncuShared = NcuShared::Conflicts,
  };
  // (bm / tm) x (bn / tn) threads; two buffers of Mds[bk][bm + 4] and Nds[bk][bn] floats, extern.
  static HandResources handResources(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return {.threads = (t.bm / t.tm) * (t.bn / t.tn), .dynamicSharedBytes = 2 * t.bk * (t.bm + 4 + t.bn) * 4};
  }
  // The first is the H100's (tuned by bench/ladder-tuning, see the README); the second a
  // teaching size whose trace is small enough to animate.
  static constexpr std::array<Tiling, 2> kTilings{{{128, 256, 16, 64, 64, 8, 16}, {32, 32, 4, 16, 32, 4, 4}}};
  static int sharedFloats(const Tiling& t) { return 2 * t.bk * (t.bm + 4 + t.bn); }
  static std::string tilingProblem(const Tiling& t) { return warpTilingProblem(t, 4 * sharedFloats(t), kMaxSharedBytesPerBlock); }
  static LaunchShape shape(const KernelLaunch& L) {
    LaunchShape s = RegisterTileFamily::shape(L);
    s.dynamicSharedFloats = unsigned(sharedFloats(L.tiling));
    return s;
  }
  static SharedTileLayout tiles(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return TileFamily::twoTiles(2 * t.bk, t.bm + 4, 2 * t.bk, t.bn);
  }
  // The extern array, then Mds (one k per row: not a row of M) and Nds.
  static SharedArrays arrays(const KernelLaunch& L) {
    return {{{}, {MatrixRole::M, L.tiling.bm + 4, false}, {MatrixRole::N, L.tiling.bn, true}}};
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return withTiling(kTilings, L.tiling, [&](auto I) {
      constexpr Tiling t = kTilings[decltype(I)::value];
      x.launch(matrixMulKernel<t.bm, t.bn, t.bk, t.wm, t.wn, t.tm, t.tn>, L, a.M, a.N, a.P, L.j, L.k, L.l);
    });
  }
};
