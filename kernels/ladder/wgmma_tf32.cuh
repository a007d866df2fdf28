// wgmma-tf32: rung 11, Hopper's warpgroup MMA. Rung 10's warps each multiplied 16 x 8 x 8 from
// fragments their lanes had read into registers; here four warps together (a warpgroup, 128
// threads) issue one instruction for a 64 x N x 8 product (wgmma.mma_async m64nNk8): the tensor
// cores read B from shared memory themselves, through a matrix descriptor (a 64-bit word: where
// the tile starts, how far apart its rows lie, how it is swizzled), and take A from the threads'
// registers, each thread's fragment where rung 10's table puts it. The MMA runs asynchronously: a
// warpgroup issues the four of a k tile, commits them as a group and waits only for the group
// before (one group in flight), whose stage it then hands back.
// The tensor cores read a TF32 operand from shared memory only K-major (along k) in rows of 128
// bytes (BK = 32 floats), swizzled (the 16-byte chunk c of row r at chunk c ^ (r % 8), so the
// eight rows of a chunk column lie in eight bank groups). M's tile lies so in M, N's does not
// (its rows run along l), and TMA cannot turn a tile. So the block computes its tile of P
// transposed: P^T = N^T M^T, B = M^T (M's tile, K-major as TMA copies it) and A = N^T from
// registers (a fragment may come from any layout: each thread reads its elements from N's tile,
// which TMA copies as it lies, in boxes of 32 x 32, swizzled). Every tile arrives by TMA, as in
// rung 8: one producer thread fills a ring of STAGES buffers, mbarriers say when a stage is full
// and when its readers are done. Each consumer warpgroup owns 64 columns of the block's tile
// (rows of P^T): BN / 64 consumer warpgroups. Its warps read their fragments so that a warp's
// 32 reads fall in 32 banks: warp w takes the box's columns 8 (w % 2) + {0..3, 16..19} as its
// rows g, the same + 4 as its rows g + 8.
//   M is j x k, N is k x l, P is j x l. Mds[s] is BM x BK, Nds[s] BN / 32 boxes of BK x 32, both
//   from a multiple of 1024 bytes. Needs sm_90a, and k and l multiples of 4 (TMA's rows).

template <int BM, int BN, int BK, int STAGES>
__global__ void __launch_bounds__(BN / 64 * 128 + 128, 1)
matrixMulKernel(float* M, float* N, float* P, int j, int k, int l, const __grid_constant__ CUtensorMap mTiles,
                const __grid_constant__ CUtensorMap nTiles) {
  constexpr int CONSUMERS = BN / 64 * 128;       // a warpgroup per 64 columns of the tile
  constexpr int SUMS = BM / 2;                   // a consumer thread's share of its 64 x BM sums
  constexpr int BOXES = BN / 32;                 // N's tile comes as boxes 32 columns wide
  constexpr int STAGE_BYTES = (BM + BN) * BK * 4;  // what the copy engine delivers per stage
  constexpr bool REALLOCATE = CONSUMERS == 256;  // the H200's tilings: 2 warpgroups compute
  static_assert(BK == 32, "a row of the 128-byte swizzle is 32 floats");
  static_assert(STAGES <= 8, "the mbarrier arrays hold 8");
  extern __shared__ float tiles[];
  float* Mds = alignedTo1024(tiles);    // [STAGES][BM][BK], as TMA swizzled it
  float* Nds = Mds + STAGES * BM * BK;   // [STAGES][BOXES][BK][32], as TMA swizzled it
  __shared__ uint64_t full[8];   // full[s]: stage s holds both tiles (all their bytes arrived)
  __shared__ uint64_t empty[8];  // empty[s]: every consumer is done with stage s
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
        // write-after-read: the consumers are done with the tiles this stage held before
        mbarrierWait(&empty[s], (t / STAGES + 1) % 2);
        mbarrierArriveExpectTx(&full[s], STAGE_BYTES);
        cpAsyncBulkTensor2d(&Mds[s * BM * BK], &mTiles, t * BK, rowBase, &full[s]);  // box BK wide, BM high
        for (int b = 0; b < BOXES; ++b)  // box 32 wide, BK high
          cpAsyncBulkTensor2d(&Nds[(s * BOXES + b) * BK * 32], &nTiles, colBase + 32 * b, t * BK, &full[s]);
      }
    }
    return;
  }
  if (REALLOCATE) setmaxnregInc<232>();

  int group = threadIdx.x / 128, warp = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;
  int box = 2 * group + warp / 2, g = lane / 4, q = lane % 4;
  int column = 8 * (warp % 2) + 16 * (g / 4) + g % 4;  // in the box: A's row g; row g + 8 is column + 4
  float sums[SUMS];
#pragma unroll
  for (int i = 0; i < SUMS; ++i) sums[i] = 0.0f;

  // Issues tile t's four MMAs as one group, does not wait. Fragment element i of k step kk:
  // A's row g + 8 (i % 2), column q + 4 (i / 2), which is N's row 8 kk + q + 4 (i / 2) (of the
  // tile), column column + 4 (i % 2) of the box, at the chunk the swizzle gives.
  auto multiplyTile = [&](float (&a)[BK / 8][4], int t) {
    int s = t % STAGES;
    mbarrierWait(&full[s], (t / STAGES) % 2);  // read-after-write: both tiles of stage s are in place
#pragma unroll
    for (int kk = 0; kk < BK / 8; ++kk)
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        int row = 8 * kk + q + 4 * (i / 2), c = column + 4 * (i % 2);
        a[kk][i] = Nds[((s * BOXES + box) * BK + row) * 32 + ((c / 4) ^ (row % 8)) * 4 + c % 4];
      }
    wgmmaFence();
#pragma unroll
    for (int kk = 0; kk < BK / 8; ++kk)  // 64 x BM x 8 each, the whole warpgroup
      wgmmaTf32(sums, a[kk], &Mds[s * BM * BK + 8 * kk]);
    wgmmaCommit();
  };
  // One group in flight: while tile t's MMAs run, wait for tile t - 1's alone, then hand its
  // stage back. Its A registers are then free: two sets, taking turns. The first tile stands
  // before the loop, so that the loop's MMAs add into sums no other instruction writes while a
  // group is in flight (else the compiler serialises them).
  float setA[BK / 8][4], setB[BK / 8][4];
  multiplyTile(setA, 0);
  for (int t = 1; t < kTiles; t += 2) {
    multiplyTile(setB, t);
    wgmmaWaitPrior(sums);
    mbarrierArrive(&empty[(t - 1) % STAGES]);  // this thread's MMAs are done with stage t - 1
    if (t + 1 >= kTiles) break;
    multiplyTile(setA, t + 1);
    wgmmaWaitPrior(sums);
    mbarrierArrive(&empty[t % STAGES]);
  }
  wgmmaWait(sums);  // the last tile's MMAs too: the sums are whole

  // Sum i of a thread: P^T's row g (+ 8 for i % 4 >= 2) of its warp's 16, which is P's column
  // `column` (+ 4) of its box, and P^T's column 8 (i / 4) + 2q + i % 2, P's row.
#pragma unroll
  for (int i = 0; i < SUMS; ++i) {
    int row = rowBase + 8 * (i / 4) + 2 * q + i % 2;
    int col = colBase + 32 * box + column + (i % 4 >= 2 ? 4 : 0);
    if (row < j && col < l) P[row * l + col] = sums[i];
  }
}

// ---- facts ---------------------------------------------------------------------------
// matrixMulKernel is longer than 80 lines: lesson 21 reads the producer's and the consumers'
// halves of the ring side by side (who fills which stage, who reads it, and how).
struct Facts : RegisterTileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::WgmmaTf32,
      .name = "wgmma-tf32",
      .description = "warpgroups multiply on the tensor cores (wgmma, TF32): P^T = N^T M^T, M's swizzled tile through a descriptor, N's as register fragments, both by TMA",
      .sourceFile = "ladder/wgmma_tf32.cuh",
      .ladderRung = 11,
      .rowsMultipleOf = 4,  // a tensor map's row stride is a multiple of 16 bytes (tensor_map_rules.h)
      // The tensor cores keep the upper 19 bits of each FP32 operand (TF32, truncated): each
      // operand up to 2^-10 off, relative, the tolerance of 9 bits rounded (catalog.h).
      .operandMantissaBits = 9,
      // Not `textbook`: as on rung 10, the GPU = emulator comparison counts the descriptor reads
      // of slots a TMA copy filled as reads of undefined values; `textbook` would assert it
      // counts none.
      .textbook = false,
      // Its three built tilings.
      .gpuResourceLaunches = 3,
      // k and l multiples of 4; j and the rest no multiple of a tile; the H200's tilings last, over several blocks.
      .gpuTestLaunches = {{{40, 20, 68, 2}, {64, 64, 64, 2}, {33, 28, 100, 2}, {300, 68, 260, 0}, {131, 68, 260, 1}}},
  };
  // bn / 64 consumer warpgroups and one producer warpgroup; static: full[8] and empty[8],
  // 8-byte mbarriers, 128 bytes; dynamic: 4 stages of Mds[bm][bk] and Nds[bk][bn] floats and
  // 1024 bytes to start them 1024-aligned.
  static HandResources handResources(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return {.threads = t.bn / 64 * 128 + 128, .staticSharedBytes = 2 * 8 * 8,
            .dynamicSharedBytes = 4 * (t.bm * t.bk + t.bn * t.bk) * 4 + 1024};
  }
  // The H200's two (256 x 128: m64n256k8, two consumer warpgroups of 64 columns; 128 x 128),
  // then a teaching size (one consumer warpgroup, m64n32k8). A warp's sums are 16 columns of
  // its warpgroup's 64 by bm rows (the warp tile bm x 16); a thread's 2 columns by bm / 4 rows.
  static constexpr std::array<Tiling, 3> kTilings{
      {{256, 128, 32, 256, 16, 64, 2}, {128, 128, 32, 128, 16, 32, 2}, {32, 64, 32, 32, 16, 8, 2}}};
  static constexpr int kStages = 4;
  static int consumers(const Tiling& t) { return t.bn / 64 * 128; }
  static int sharedFloats(const Tiling& t) { return kStages * (t.bm * t.bk + t.bn * t.bk) + 256; }
  static constexpr unsigned kMbarrierBytes = 2 * 8 * sizeof(uint64_t);  // full[8] and empty[8]
  static std::string tilingProblem(const Tiling& t) {
    if (t.bk != 32) return "a row of the 128-byte swizzle is 32 floats: bk must be 32";
    if (t.bn != 64 && t.bn != 128) return "a consumer warpgroup takes 64 columns, one or two of them: bn 64 or 128";
    if (t.bm != 32 && t.bm != 64 && t.bm != 128 && t.bm != 256) return "a warpgroup's MMA spans the tile's rows (its N): bm 32, 64, 128 or 256";
    if (t.wn != 16 || t.wm != t.bm) return "a warp holds 16 columns of its warpgroup's 64 by all bm rows: wm = bm, wn 16";
    if (t.tn != 2 || t.tm != t.bm / 4) return "a consumer thread holds bm / 4 x 2 sums: the thread tile";
    if (4 * sharedFloats(t) + int(kMbarrierBytes) > kMaxSharedBytesPerBlock) return "its stages need more shared memory than a block may have";
    return {};
  }
  static LaunchShape shape(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    LaunchShape s = RegisterTileFamily::shape(L);
    s.blockX = unsigned(consumers(t) + 128);
    s.dynamicSharedFloats = unsigned(sharedFloats(t));
    s.staticSharedBytes = kMbarrierBytes;
    // Per k tile a consumer waits, reads and records its 4 x 4 fragment elements (a read of
    // Nds and an mma_a each), records its share of 4 MMAs' descriptor reads of Mds (2 bm
    // chunks each over 128 threads) and arrives; the producer thread waits, announces and
    // issues 1 + bn / 32 copies. Thread 0 initialises 2 x 4 mbarriers; every thread one
    // barrier; after the ring a consumer records its sums once and stores at most one per sum.
    const int consumer = 2 + 2 * t.bk + (t.bk / 8) * ceilDiv(2 * t.bm, 128), producer = 3 + t.bn / 32;
    s.eventsPerThread = unsigned(1 + 2 * kStages + 1 + s.phases * std::max(consumer, producer) + t.bm + 2);
    return s;
  }
  static SharedTileLayout tiles(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return TileFamily::twoTiles(kStages * t.bm, t.bk, kStages * t.bn / 32 * t.bk, 32);
  }
  // The extern array, Mds (a row of M per row), Nds (a row of N's box per row), the two mbarrier arrays.
  static SharedArrays arrays(const KernelLaunch& L) {
    return {{{}, {MatrixRole::M, L.tiling.bk, true}, {MatrixRole::N, 32, true}, {}, {}}};
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return withTiling(kTilings, L.tiling, [&](auto I) {
      constexpr Tiling t = kTilings[decltype(I)::value];
      x.launch(matrixMulKernel<t.bm, t.bn, t.bk, kStages>, L, a.M, a.N, a.P, L.j, L.k, L.l,
               x.tensorMap(a.M, L.j, L.k, t.bm, t.bk, TileSwizzle::Bytes128),
               x.tensorMap(a.N, L.k, L.l, t.bk, 32, TileSwizzle::Bytes128));
    });
  }
};
