// tma-pipeline: rung 8, Hopper's copy engine. No thread loads a tile any more: one producer
// thread asks the Tensor Memory Accelerator (TMA) for a whole tile with one instruction
// (cp.async.bulk.tensor, through a tensor map the host made), and the copy engine writes it
// into shared memory, filling with zeros whatever part of the box lies past the matrix's edge.
// Completion is counted in bytes by an mbarrier in shared memory: the producer arrives saying
// how many bytes to expect (arrive.expect_tx), the copy engine's bytes complete the phase, and
// the consumer warps wait on the phase's parity (try_wait.parity). A ring of STAGES buffers
// lets the copies run STAGES - 1 tiles ahead of the multiply-adds; a second mbarrier per
// stage counts the consumers done with it, so the producer refills it only then. The
// producer is a warpgroup of its own (registers move between warpgroups): at the H100's
// tiling it gives its registers back (setmaxnreg.dec) and the consumers take them
// (setmaxnreg.inc), which their 8 x 16 register tiles need.
//   M is j x k, N is k x l, P is j x l. The copy engine cannot transpose: Mds[s] holds M's
//   tile as it lies in M (BM rows of BK), so a consumer reads four k steps of one row as a
//   float4; Nds[s] is BK x BN. A warp reads those float4s down a column (eight rows, the same
//   k): rows of 128 bytes (BK = 32) would all fall in the same four banks, eight requests one
//   after another. So at BK = 32 the copy engine swizzles M's tile (TileSwizzle::Bytes128): the
//   16-byte chunk c of row r lands at chunk c ^ (r % 8), the eight rows of a column in eight
//   bank groups, and the consumers read chunk (kq / 4) ^ (r % 8). The pattern is taken from
//   the shared address, so Mds starts at a multiple of 1024 bytes. Warps split the block's tile into WM x WN warp tiles, lanes
//   into TM x TN thread tiles: a thread's rows LANES_M apart (the rows a warp reads at once
//   are consecutive), its columns in 4-wide pieces NSPAN apart.
//   Needs sm_90, and k and l multiples of 4 (a tensor map's row stride is a multiple of 16 bytes).

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32 + 128, 1)
matrixMulKernel(float* M, float* N, float* P, int j, int k, int l, const __grid_constant__ CUtensorMap mTiles,
                const __grid_constant__ CUtensorMap nTiles) {
  constexpr int CONSUMERS = (BM / WM) * (BN / WN) * 32;
  constexpr int LANES_N = WN / TN, LANES_M = 32 / LANES_N;
  constexpr int NSPAN = WN / (TN / 4);
  constexpr int STAGE_BYTES = (BM * BK + BK * BN) * 4;  // what the copy engine delivers per stage
  constexpr bool REALLOCATE = CONSUMERS == 256;         // the H100's tiling: 2 warpgroups compute
  constexpr bool SWIZZLE = BK * 4 == 128;                 // M's rows are 128 bytes: swizzled (above)
  static_assert(STAGES <= 8, "the mbarrier arrays hold 8");
  extern __shared__ float tiles[];
  // A copy's destination must be 128-byte aligned, a swizzled one 1024-byte aligned: the
  // launch asks for 1 KiB more than the tiles, and Mds starts at the first multiple of 1024.
  float* Mds = alignedTo1024(tiles);       // [STAGES][BM][BK]
  float* Nds = Mds + STAGES * BM * BK;     // [STAGES][BK][BN], each stage a multiple of 128 bytes
  __shared__ uint64_t full[8];   // full[s]: stage s holds its tiles (all their bytes arrived)
  __shared__ uint64_t empty[8];  // empty[s]: every consumer is done reading stage s
  int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
  int kTiles = (k + BK - 1) / BK;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbarrierInit(&full[s], 1);           // the producer's arrival, then the copies' bytes
      mbarrierInit(&empty[s], CONSUMERS);  // one arrival per consumer thread
    }
    fenceMbarrierInit();
  }
  __syncthreads();  // read-after-write: the mbarriers are initialised before any thread uses them

  if (threadIdx.x >= CONSUMERS) {  // the producer warpgroup: one thread issues every copy
    if (REALLOCATE) setmaxnregDec<40>();
    if (threadIdx.x == CONSUMERS) {
      for (int t = 0; t < kTiles; ++t) {
        int s = t % STAGES;
        // write-after-read: the consumers are done with the tiles this stage held before (in
        // the first round it passes at once: a fresh mbarrier's previous phase counts as done)
        mbarrierWait(&empty[s], (t / STAGES + 1) % 2);
        mbarrierArriveExpectTx(&full[s], STAGE_BYTES);
        cpAsyncBulkTensor2d(&Mds[s * BM * BK], &mTiles, t * BK, rowBase, &full[s]);  // box BK wide, BM high
        cpAsyncBulkTensor2d(&Nds[s * BK * BN], &nTiles, colBase, t * BK, &full[s]);  // box BN wide, BK high
      }
    }
    return;
  }
  if (REALLOCATE) setmaxnregInc<232>();

  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  int laneRow = lane / LANES_N, laneCol = lane % LANES_N;
  float Pvalue[TM][TN];
#pragma unroll
  for (int y = 0; y < TM; ++y)
#pragma unroll
    for (int x = 0; x < TN; ++x) Pvalue[y][x] = 0.0f;
  float4 mFragment[TM];
  float nFragment[TN];

  for (int t = 0; t < kTiles; ++t) {
    int s = t % STAGES;
    // read-after-write: the copy engine has written both tiles of this stage
    mbarrierWait(&full[s], (t / STAGES) % 2);
#pragma unroll
    for (int kq = 0; kq < BK; kq += 4) {
#pragma unroll
      for (int y = 0; y < TM; ++y) {  // four k steps of row y at once, from its chunk kq / 4
        int r = s*BM + warpRow*WM + y*LANES_M + laneRow;
        int chunk = SWIZZLE ? (kq / 4) ^ (r % 8) : kq / 4;
        mFragment[y] = *reinterpret_cast<float4*>(&Mds[r*BK + chunk*4]);
      }
#pragma unroll
      for (int kk = 0; kk < 4; ++kk) {
#pragma unroll
        for (int c = 0; c < TN / 4; ++c) {
          float4 n4 = *reinterpret_cast<float4*>(&Nds[(s*BK + kq + kk)*BN + warpCol*WN + c*NSPAN + laneCol*4]);
          nFragment[c*4 + 0] = n4.x; nFragment[c*4 + 1] = n4.y; nFragment[c*4 + 2] = n4.z; nFragment[c*4 + 3] = n4.w;
        }
#pragma unroll
        for (int y = 0; y < TM; ++y) {
          float m = kk == 0 ? mFragment[y].x : kk == 1 ? mFragment[y].y : kk == 2 ? mFragment[y].z : mFragment[y].w;
#pragma unroll
          for (int x = 0; x < TN; ++x) Pvalue[y][x] += m * nFragment[x];
        }
      }
    }
    mbarrierArrive(&empty[s]);  // this thread has read stage s: the producer may refill it
  }

  bool nRowsAligned = l % 4 == 0;
#pragma unroll
  for (int y = 0; y < TM; ++y) {
    int row = rowBase + warpRow*WM + y*LANES_M + laneRow;
#pragma unroll
    for (int c = 0; c < TN / 4; ++c) {
      int col = colBase + warpCol*WN + c*NSPAN + laneCol*4;
      if (nRowsAligned && row < j && col + 3 < l) {
        *reinterpret_cast<float4*>(&P[row*l + col]) =
            make_float4(Pvalue[y][c*4 + 0], Pvalue[y][c*4 + 1], Pvalue[y][c*4 + 2], Pvalue[y][c*4 + 3]);
      } else {
        for (int e = 0; e < 4; ++e)
          if (row < j && col + e < l) P[row*l + col + e] = Pvalue[y][c*4 + e];
      }
    }
  }
}

// ---- facts ---------------------------------------------------------------------------
// matrixMulKernel is longer than 80 lines: lesson 18 reads the producer's and the consumers'
// halves of the ring side by side (who waits on which mbarrier), so both stay in one function.
struct Facts : RegisterTileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::TmaPipeline,
      .name = "tma-pipeline",
      .description = "tiles copied by Hopper's copy engine (TMA) into a ring of stages, mbarriers, a producer warpgroup",
      .sourceFile = "ladder/tma_pipeline.cuh",
      .ladderRung = 8,
      .rowsMultipleOf = 4,  // a tensor map's row stride is a multiple of 16 bytes (tensor_map_rules.h)
      .textbook = true,
      // Its two built tilings.
      .gpuResourceLaunches = 2,
      // Tensor maps need k and l multiples of 4; j and the rest are no multiple of a tile; the
      // H100's tiling last, over several blocks.
      .gpuTestLaunches = {{{40, 20, 68, 1}, {64, 64, 64, 1}, {33, 28, 100, 1}, {131, 68, 260, 0}}},
      // Profiled at its H100 tiling (the first built one that fits inside P).
      .ncuLaunches = {{{128, 64, 256}}},
      .ncuShared = NcuShared::Conflicts,  // 0 on both sides, M's tile swizzled
  };
  // (bm / wm) x (bn / wn) consumer warps and the producer warpgroup of 128 threads; static:
  // full[8] and empty[8], 8-byte mbarriers, 128 bytes; dynamic: the ring, 4 stages at bm = 128
  // (else 3) of Mds[bm][bk] and Nds[bk][bn] floats, and 1024 bytes to start it 1024-aligned.
  static HandResources handResources(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    const int ring = (t.bm >= 128 ? 4 : 3) * (t.bm * t.bk + t.bk * t.bn) * 4;
    return {.threads = (t.bm / t.wm) * (t.bn / t.wn) * 32 + 128, .staticSharedBytes = 2 * 8 * 8,
            .dynamicSharedBytes = ring + 1024};
  }
  // The H100's (the best of the tiling sweeps, bench/results/2026-11-29-ladder-notes.md), then a teaching size.
  static constexpr std::array<Tiling, 2> kTilings{{{128, 256, 32, 64, 64, 8, 16}, {32, 64, 8, 16, 32, 4, 4}}};
  static constexpr int stages(const Tiling& t) { return t.bm >= 128 ? 4 : 3; }
  static int consumers(const Tiling& t) { return (t.bm / t.wm) * (t.bn / t.wn) * 32; }
  static constexpr TileSwizzle swizzleM(const Tiling& t) {  // the kernel's SWIZZLE
    return t.bk * 4 == 128 ? TileSwizzle::Bytes128 : TileSwizzle::None;
  }
  // The ring, and 1 KiB to start Mds at a multiple of 1024 bytes.
  static int sharedFloats(const Tiling& t) { return stages(t) * (t.bm * t.bk + t.bk * t.bn) + 256; }
  static constexpr unsigned kMbarrierBytes = 2 * 8 * sizeof(uint64_t);  // full[8] and empty[8]
  static std::string tilingProblem(const Tiling& t) {
    if (t.bm > 256 || t.bn > 256 || t.bk > 256) return "a tensor map's box is at most 256 elements a side";
    if (consumers(t) + 128 > kMaxThreadsPerBlock) return "the consumers and the producer warpgroup exceed 1024 threads";
    if (t.bm * t.bk % 32 || t.bk * t.bn % 32) return "each tile a copy writes starts 128-byte aligned: bm x bk and bk x bn multiples of 32";
    if (swizzleM(t) == TileSwizzle::Bytes128 && t.bm * t.bk % 256)
      return "each swizzled tile of M starts 1024-byte aligned: bm x bk a multiple of 256";
    return warpTilingProblem(t, 4 * sharedFloats(t) + int(kMbarrierBytes), kMaxSharedBytesPerBlock);
  }
  static LaunchShape shape(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    LaunchShape s = RegisterTileFamily::shape(L);
    s.blockX = unsigned(consumers(t) + 128);
    s.dynamicSharedFloats = unsigned(sharedFloats(t));
    s.staticSharedBytes = kMbarrierBytes;
    // A consumer per k tile: a wait, its fragments' reads, an arrival; thread 0 also
    // initialises 2 x STAGES mbarriers; every thread one barrier; stores at most one per element.
    const int perTile = 2 + (t.bk / 4) * t.tm + t.bk * (t.tn / 4);
    s.eventsPerThread = unsigned(1 + 2 * stages(t) + s.phases * perTile + t.tm * t.tn);
    return s;
  }
  static SharedTileLayout tiles(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return TileFamily::twoTiles(stages(t) * t.bm, t.bk, stages(t) * t.bk, t.bn);
  }
  // The extern array, Mds (one row of M per row), Nds, the two mbarrier arrays.
  static SharedArrays arrays(const KernelLaunch& L) {
    return {{{}, {MatrixRole::M, L.tiling.bk, true}, {MatrixRole::N, L.tiling.bn, true}, {}, {}}};
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return withTiling(kTilings, L.tiling, [&](auto I) {
      constexpr Tiling t = kTilings[decltype(I)::value];
      x.launch(matrixMulKernel<t.bm, t.bn, t.bk, t.wm, t.wn, t.tm, t.tn, stages(t)>, L, a.M, a.N, a.P, L.j, L.k, L.l,
               x.tensorMap(a.M, L.j, L.k, t.bm, t.bk, swizzleM(t)), x.tensorMap(a.N, L.k, L.l, t.bk, t.bn, TileSwizzle::None));
    });
  }
};
