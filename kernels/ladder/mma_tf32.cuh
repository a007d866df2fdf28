// mma-tf32: rung 10, the tensor cores. The tiles come into shared memory as in rung 7 (two
// buffers, cp.async), but no thread multiplies on its own any more: a warp does, 16 x 8 x 8 at
// a time, in one instruction (mma.sync m16n8k8: a 16 x 8 piece of M's tile times an 8 x 8
// piece of N's, added to a 16 x 8 tile of sums). The operands live spread over the warp's 32
// lanes, each holding a fixed few elements (its fragment: 4 of A, 2 of B, 4 of the sums, where
// the PTX ISA's tables put them): a lane of group g = lane / 4 and index t = lane % 4 in it
// holds A's rows g and g + 8 at columns t and t + 4, B's rows t and t + 4 at column g, and the
// sums' rows g and g + 8 at columns 2t and 2t + 1. So each lane reads exactly its fragment from
// shared memory, rounds it to TF32 (10 mantissa bits, the tensor cores' input; cvt.rna), and
// the warp issues the MMA. Each warp owns a WM x WN tile of P: (WM / 16) x (WN / 8) MMAs per
// 8 steps of k. What it gains: TF32 tensor cores multiply several times faster than FP32 FMAs.
// What it costs: precision (products of 11-bit significands, sums in FP32) and a layout that
// no longer says which thread computes which element of P.
//   M is j x k, N is k x l, P is j x l. Mds[2][BM][BK + 4] (M's tile as it lies in M), Nds
//   [2][BK][BN + 8]: the padding puts a warp's fragment reads in 32 different banks (a row of
//   Mds is 4 banks on, a row of Nds 8). Needs sm_80.

template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  constexpr int THREADS = (BM / WM) * (BN / WN) * 32;
  constexpr int MT = WM / 16, NT = WN / 8;  // the warp tile in MMAs of 16 x 8
  constexpr int SM = BK + 4, SN = BN + 8;   // row strides, padded (above)
  extern __shared__ float tiles[];
  float* Mds = tiles;
  float* Nds = tiles + 2 * BM * SM;

  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int group = lane / 4, inGroup = lane % 4;  // the PTX ISA's groupID and threadID_in_group
  int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
  bool mRowsAligned = k % 4 == 0, nRowsAligned = l % 4 == 0;  // 16-byte copies stay inside a row

  // The tiles at k offset kt into buffer buf: 16 bytes at a time by cp.async where they lie
  // inside the matrix, element by element (zeros past its edge) where they do not.
  auto loadTiles = [&](int kt, int buf) {
    for (int f = threadIdx.x; f < BM * BK / 4; f += THREADS) {
      int r = f / (BK / 4), c = f % (BK / 4) * 4;
      int row = rowBase + r, col = kt + c;
      if (mRowsAligned && row < j && col + 3 < k) {
        __pipeline_memcpy_async(&Mds[(buf*BM + r)*SM + c], &M[row*k + col], 16);
      } else {
        for (int e = 0; e < 4; ++e) {
          if (row < j && col + e < k) Mds[(buf*BM + r)*SM + c + e] = M[row*k + col + e];
          else Mds[(buf*BM + r)*SM + c + e] = 0.0f;
        }
      }
    }
    for (int f = threadIdx.x; f < BK * BN / 4; f += THREADS) {
      int r = f / (BN / 4), c = f % (BN / 4) * 4;
      int row = kt + r, col = colBase + c;
      if (nRowsAligned && row < k && col + 3 < l) {
        __pipeline_memcpy_async(&Nds[(buf*BK + r)*SN + c], &N[row*l + col], 16);
      } else {
        for (int e = 0; e < 4; ++e) {
          if (row < k && col + e < l) Nds[(buf*BK + r)*SN + c + e] = N[row*l + col + e];
          else Nds[(buf*BK + r)*SN + c + e] = 0.0f;
        }
      }
    }
  };

  float sums[MT][NT][4];
#pragma unroll
  for (int m = 0; m < MT; ++m)
#pragma unroll
    for (int n = 0; n < NT; ++n)
#pragma unroll
      for (int i = 0; i < 4; ++i) sums[m][n][i] = 0.0f;
  float aFragment[MT][4], bFragment[NT][2];

  loadTiles(0, 0);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();  // read-after-write: the first tiles are in buffer 0 before anyone reads them

  int buf = 0;
  for (int kt = 0; kt < k; kt += BK) {
    bool more = kt + BK < k;
    if (more) loadTiles(kt + BK, buf ^ 1);  // in flight while this buffer is computed on
    __pipeline_commit();

#pragma unroll
    for (int kk = 0; kk < BK; kk += 8) {
#pragma unroll
      for (int m = 0; m < MT; ++m) {  // this lane's 4 elements of each 16 x 8 piece of A
        int r = buf*BM + warpRow*WM + m*16 + group;
        aFragment[m][0] = toTf32(Mds[r*SM + kk + inGroup]);
        aFragment[m][1] = toTf32(Mds[(r + 8)*SM + kk + inGroup]);
        aFragment[m][2] = toTf32(Mds[r*SM + kk + inGroup + 4]);
        aFragment[m][3] = toTf32(Mds[(r + 8)*SM + kk + inGroup + 4]);
      }
#pragma unroll
      for (int n = 0; n < NT; ++n) {  // its 2 elements of each 8 x 8 piece of B
        int c = warpCol*WN + n*8 + group;
        bFragment[n][0] = toTf32(Nds[(buf*BK + kk + inGroup)*SN + c]);
        bFragment[n][1] = toTf32(Nds[(buf*BK + kk + inGroup + 4)*SN + c]);
      }
#pragma unroll
      for (int m = 0; m < MT; ++m)
#pragma unroll
        for (int n = 0; n < NT; ++n) mmaSyncTf32(sums[m][n], aFragment[m], bFragment[n]);  // the whole warp
    }
    if (more) {
      __pipeline_wait_prior(0);
      __syncthreads();  // read-after-write: the next tiles are in place; write-after-read: no one
                        // reads this buffer any more when the next iteration starts refilling it
      buf ^= 1;
    }
  }

#pragma unroll
  for (int m = 0; m < MT; ++m)
#pragma unroll
    for (int n = 0; n < NT; ++n)
#pragma unroll
      for (int i = 0; i < 4; ++i) {  // the sums' element i: row g (+ 8 for i >= 2), column 2t + i % 2
        int row = rowBase + warpRow*WM + m*16 + group + (i / 2) * 8;
        int col = colBase + warpCol*WN + n*8 + inGroup*2 + i % 2;
        if (row < j && col < l) P[row*l + col] = sums[m][n][i];
      }
}

// ---- facts ---------------------------------------------------------------------------
// matrixMulKernel is longer than 80 lines: lesson 20 reads a warp from its staged tiles through
// its fragments to the MMA and the stored sums as one loop, so the loop stays in one piece.
struct Facts : RegisterTileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::MmaTf32,
      .name = "mma-tf32",
      .description = "each warp multiplies on the tensor cores (mma.sync m16n8k8, TF32 operands, FP32 sums)",
      .sourceFile = "ladder/mma_tf32.cuh",
      .ladderRung = 10,
      // The operands are rounded to TF32: 10 mantissa bits (the verification's tolerance,
      // catalog.h's operandMantissaBits, adds 2^-10 of the sum's magnitude: each product
      // carries the rounding of two operands, at most 2^-11 each, relative).
      .operandMantissaBits = 10,
      // Not `textbook`: the GPU = emulator comparison counts the fragments' reads of slots that
      // cp.async filled as undefined values (5870 at 40x20x36 on the H200, 2026-11-29), while
      // every event and value it could compare agreed; `textbook` would assert none.
      .textbook = false,
      // Its three built tilings.
      .gpuResourceLaunches = 3,
      // The teaching tiling at sizes no multiple of its tiles (and one row), then both H200
      // tilings over several blocks.
      .gpuTestLaunches = {{{40, 20, 36, 2}, {37, 45, 29, 2}, {64, 64, 64, 2}, {1, 8, 8, 2}, {131, 68, 260, 0},
                           {200, 100, 300, 0}, {131, 68, 260, 1}}},
  };
  // (bm / wm) x (bn / wn) warps of 32; two buffers of Mds[bm][bk + 4] and Nds[bk][bn + 8], extern.
  static HandResources handResources(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return {.threads = (t.bm / t.wm) * (t.bn / t.wn) * 32, .dynamicSharedBytes = sharedFloats(t) * 4};
  }
  // The H200's best from N = 3000 up, its best at 2048 (bench/tensor_cores/mma_bench.cu, the
  // sweep in bench/results/2026-11-29-h200-tensor), then a teaching size (4 warps, each one
  // 16 x 16 tile: two MMAs per 8 k). The thread tile is the sums a lane holds: (wm / 8) x
  // (wn / 4), 2 rows and 2 columns of each 16 x 8 MMA tile (rows g, g + 8, g + 16, ...,
  // columns 2t, 2t + 1, 2t + 8, ...).
  static constexpr std::array<Tiling, 3> kTilings{
      {{128, 128, 32, 64, 64, 8, 16}, {128, 128, 32, 64, 32, 8, 8}, {32, 32, 8, 16, 16, 2, 4}}};
  static int warps(const Tiling& t) { return (t.bm / t.wm) * (t.bn / t.wn); }
  static int sharedFloats(const Tiling& t) { return 2 * (t.bm * (t.bk + 4) + t.bk * (t.bn + 8)); }
  static std::string tilingProblem(const Tiling& t) {
    if (!t.wm || !t.wn || t.wm % 16 || t.wn % 8) return "a warp tile is made of 16 x 8 MMAs: wm a multiple of 16, wn of 8";
    if (t.tm != t.wm / 8 || t.tn != t.wn / 4) return "a lane holds (wm / 8) x (wn / 4) sums of its warp's MMAs: the thread tile";
    if (t.bk % 8) return "an MMA takes 8 steps of k: bk must be a multiple of 8";
    if (t.bn % 4) return "tiles are copied 16 bytes at a time: bn must be a multiple of 4";
    if (warps(t) * 32 > kMaxThreadsPerBlock) return "more than 1024 threads";
    if (4 * sharedFloats(t) > kMaxSharedBytesPerBlock) return "its tiles need more shared memory than a block may have";
    return {};
  }
  static LaunchShape shape(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    LaunchShape s = RegisterTileFamily::shape(L);
    const int n = warps(t) * 32, mt = t.wm / 16, nt = t.wn / 8;
    s.blockX = unsigned(n);
    s.dynamicSharedFloats = unsigned(sharedFloats(t));
    // Per phase: its copies or element loads (at most 4 per 16-byte piece), a barrier, and per
    // 8 k the fragments' reads (4 per MMA row, 2 per MMA column) and 10 events per MMA (its
    // fragments of A, B and the sums); at the end its stores.
    const int loads = 4 * (ceilDiv(t.bm * t.bk / 4, n) + ceilDiv(t.bk * t.bn / 4, n));
    const int perPhase = loads + 1 + (t.bk / 8) * (4 * mt + 2 * nt + 10 * mt * nt);
    s.eventsPerThread = unsigned(s.phases * perPhase + 4 * mt * nt + 2);
    return s;
  }
  static SharedTileLayout tiles(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return TileFamily::twoTiles(2 * t.bm, t.bk + 4, 2 * t.bk, t.bn + 8);
  }
  // The extern array, then Mds (a row of M per row) and Nds.
  static SharedArrays arrays(const KernelLaunch& L) {
    return {{{}, {MatrixRole::M, L.tiling.bk + 4, true}, {MatrixRole::N, L.tiling.bn + 8, true}}};
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return withTiling(kTilings, L.tiling, [&](auto I) {
      constexpr Tiling t = kTilings[decltype(I)::value];
      x.launch(matrixMulKernel<t.bm, t.bn, t.bk, t.wm, t.wn>, L, a.M, a.N, a.P, L.j, L.k, L.l);
    });
  }
};
