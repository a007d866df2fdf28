// wgmma-tf32: rung 11, Hopper's warpgroup MMA. Rung 10's warps each multiplied 16 x 8 x 8 from
// fragments their lanes had read into registers; here four warps together (a warpgroup, 128
// threads) issue one instruction for a 64 x N x 8 product (wgmma.mma_async m64nNk8), and no
// thread reads an operand: the tensor cores read A and B from shared memory themselves, through
// a matrix descriptor (a 64-bit word: where the tile starts, how far apart its rows lie, how it
// is swizzled), while the threads hold only the sums, 64 x N over 128 threads. The MMA runs
// asynchronously: a warpgroup issues the four of a k tile, commits them as a group and waits
// only for the group before (one group in flight), whose stage it then hands back.
// The tiles arrive as in rung 8: producer warpgroups (two, taking turns) fill a ring of STAGES
// buffers, mbarriers say when a stage is full and when its readers are done. The tensor cores read TF32 only
// K-major (along k, a row of A and a column of B) in rows of 128 bytes (BK = 32 floats), swizzled
// (the 16-byte chunk c of row r at chunk c ^ (r % 8), so the eight rows of a chunk column lie in
// eight bank groups). M's tile lies so in M: TMA copies it, swizzling as it writes. N's tile must
// be turned (its columns become rows): a producer warpgroup's threads read it from N and write
// it down the columns of Nds, at the chunks the swizzle gives, then fence those writes to the
// tensor cores (fence.proxy.async) and arrive. Each consumer warpgroup owns 64 rows of the
// block's tile: BM / 64 consumer warpgroups.
//   M is j x k, N is k x l, P is j x l. Mds[s] is BM x BK, Nds[s] BN x BK (N's tile transposed),
//   both from a multiple of 1024 bytes. Needs sm_90a, and k and l multiples of 4 (TMA's rows).

template <int BM, int BN, int BK, int STAGES>
__global__ void __launch_bounds__(BM / 64 * 128 + 2 * 128, 1)
matrixMulKernel(float* M, float* N, float* P, int j, int k, int l, const __grid_constant__ CUtensorMap mTiles) {
  constexpr int CONSUMERS = BM / 64 * 128;  // a warpgroup per 64 rows of the tile
  constexpr int PRODUCERS = 2;              // producer warpgroups, taking turns at the tiles
  constexpr int SUMS = BN / 2;              // a consumer thread's share of its 64 x BN sums
  constexpr int M_BYTES = BM * BK * 4;      // what the copy engine delivers per stage
  static_assert(BK == 32, "a row of the 128-byte swizzle is 32 floats");
  static_assert(STAGES <= 8, "the mbarrier arrays hold 8");
  extern __shared__ float tiles[];
  float* Mds = alignedTo1024(tiles);    // [STAGES][BM][BK], as TMA swizzled it
  float* Nds = Mds + STAGES * BM * BK;   // [STAGES][BN][BK], each stage a multiple of 1024 bytes
  __shared__ uint64_t full[8];   // full[s]: stage s holds both tiles
  __shared__ uint64_t empty[8];  // empty[s]: every consumer is done with stage s
  int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
  int kTiles = (k + BK - 1) / BK;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbarrierInit(&full[s], 1 + 128);     // the copy's announcement, a producer warpgroup, then the copy's bytes
      mbarrierInit(&empty[s], CONSUMERS);  // one arrival per consumer thread
    }
    fenceMbarrierInit();
  }
  __syncthreads();  // read-after-write: the mbarriers are initialised before any thread uses them

  if (threadIdx.x >= CONSUMERS) {  // the producer warpgroups: `first` fills tiles first, first + 2, ...
    int p = (threadIdx.x - CONSUMERS) % 128, first = (threadIdx.x - CONSUMERS) / 128, warp = p / 32, lane = p % 32;
    // A warp takes 16 rows of N's tile by 8 columns at a time, two lanes on each row's 32 bytes
    // (whole sectors): this thread's float4 i is row kk, columns n to n + 3 of the tile, and goes
    // down column kk of Nds, rows n to n + 3, where the 32 lanes' writes hit 32 banks. A tile's
    // global loads take longer than the tensor cores take over it, so each warpgroup keeps two
    // of its tiles in flight, in two sets of registers, while the ring is consumed: four tiles.
    float4 setA[BN / 16], setB[BN / 16];
    auto loadN = [&](float4 (&v)[BN / 16], int t) {  // tile t's float4s (zeros past the matrix)
      for (int i = 0; i < BN / 16; ++i) {
        int g = i * 4 + warp, kk = lane / 2 + 16 * (g % 2), col = colBase + (g / 2) * 8 + (lane % 2) * 4;
        int row = t * BK + kk;
        v[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (row < k && col < l) v[i] = *reinterpret_cast<float4*>(&N[row * l + col]);
      }
    };
    auto fillStage = [&](const float4 (&v)[BN / 16], int t) {  // stage t % STAGES gets tile t
      int s = t % STAGES;
      // write-after-read: the consumers are done with the tiles this stage held before
      mbarrierWait(&empty[s], (t / STAGES + 1) % 2);
      if (p == 0) {
        mbarrierArriveExpectTx(&full[s], M_BYTES);
        cpAsyncBulkTensor2d(&Mds[s * BM * BK], &mTiles, t * BK, rowBase, &full[s]);  // box BK wide, BM high
      }
      for (int i = 0; i < BN / 16; ++i) {
        int g = i * 4 + warp, kk = lane / 2 + 16 * (g % 2), n = (g / 2) * 8 + (lane % 2) * 4;
        int r = s * BN + n;  // Nds's row of column n
        Nds[(r + 0) * BK + ((kk / 4) ^ ((n + 0) % 8)) * 4 + kk % 4] = v[i].x;
        Nds[(r + 1) * BK + ((kk / 4) ^ ((n + 1) % 8)) * 4 + kk % 4] = v[i].y;
        Nds[(r + 2) * BK + ((kk / 4) ^ ((n + 2) % 8)) * 4 + kk % 4] = v[i].z;
        Nds[(r + 3) * BK + ((kk / 4) ^ ((n + 3) % 8)) * 4 + kk % 4] = v[i].w;
      }
      fenceProxyAsync();          // these writes are seen by the tensor cores' reads
      mbarrierArrive(&full[s]);   // this producer's part of stage s is in place
    };
    loadN(setA, first);
    loadN(setB, first + PRODUCERS);
    for (int t = first; t < kTiles; t += 2 * PRODUCERS) {
      fillStage(setA, t);
      loadN(setA, t + 2 * PRODUCERS);
      if (t + PRODUCERS >= kTiles) break;
      fillStage(setB, t + PRODUCERS);
      loadN(setB, t + 3 * PRODUCERS);
    }
    return;
  }

  int group = threadIdx.x / 128;  // this consumer warpgroup: rows 64 group to 64 group + 63
  float sums[SUMS];
#pragma unroll
  for (int i = 0; i < SUMS; ++i) sums[i] = 0.0f;

  auto multiplyTile = [&](int t) {  // issues tile t's four MMAs as one group, does not wait
    int s = t % STAGES;
    mbarrierWait(&full[s], (t / STAGES) % 2);  // read-after-write: both tiles of stage s are in place
    wgmmaFence();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 8)  // 64 x BN x 8 each, the whole warpgroup
      wgmmaTf32(sums, &Mds[(s * BM + group * 64) * BK + kk], &Nds[s * BN * BK + kk]);
    wgmmaCommit();
  };
  // One group in flight: while tile t's MMAs run, wait for tile t - 1's alone, then hand its
  // stage back. The first tile stands before the loop, so that the loop's MMAs add into sums
  // no other instruction writes while a group is in flight (else the compiler serialises them).
  multiplyTile(0);
  for (int t = 1; t < kTiles; ++t) {
    multiplyTile(t);
    wgmmaWaitPrior(sums);
    mbarrierArrive(&empty[(t - 1) % STAGES]);  // this thread's MMAs are done with stage t - 1
  }
  wgmmaWait(sums);  // the last tile's MMAs too: the sums are whole

  // Sum i of a lane: row g (+ 8 for i % 4 >= 2) of its warp's 16, column 8 (i / 4) + 2t + i % 2.
  int warp = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;
#pragma unroll
  for (int i = 0; i < SUMS; ++i) {
    int row = rowBase + group * 64 + warp * 16 + lane / 4 + (i % 4 >= 2 ? 8 : 0);
    int col = colBase + (i / 4) * 8 + (lane % 4) * 2 + i % 2;
    if (row < j && col < l) P[row * l + col] = sums[i];
  }
}

// ---- facts ---------------------------------------------------------------------------
// matrixMulKernel is longer than 80 lines: lesson 21 reads the producers' and the consumers'
// halves of the ring side by side (who fills which stage, who reads it through descriptors).
struct Facts : RegisterTileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::WgmmaTf32,
      .name = "wgmma-tf32",
      .description = "warpgroups multiply on the tensor cores from swizzled shared tiles (wgmma, TF32), fed by TMA and two producer warpgroups",
      .sourceFile = "ladder/wgmma_tf32.cuh",
      .ladderRung = 11,
      .rowsMultipleOf = 4,  // a tensor map's row stride is a multiple of 16 bytes (tensor_map_rules.h)
      // The tensor cores keep the upper 19 bits of each FP32 operand (TF32, truncated): each
      // operand up to 2^-10 off, relative, the tolerance of 9 bits rounded (catalog.h).
      .operandMantissaBits = 9,
      // Not `textbook`: as on rung 10, the GPU = emulator comparison counts the descriptor reads
      // of slots a TMA copy or the producers filled as reads of undefined values (on the H200
      // every event and value it could compare agreed, 0 differences at 5 shapes); `textbook`
      // would assert it counts none.
      .textbook = false,
      // Its three built tilings.
      .gpuResourceLaunches = 3,
      // 192 x 128 spills: 104 bytes a thread on the H200 (CUDA 13.0; 96 registers for 640
      // threads), and is still the faster at 8192 (5.615 ms against 6.727 for 128 x 128, which
      // spills nothing: bench/results/2026-11-29-h200-tensor12/run2).
      .plainLocalBytesAllowed = 104,
      // k and l multiples of 4; j and the rest no multiple of a tile; the H200's tilings last, over several blocks.
      .gpuTestLaunches = {{{40, 20, 68, 2}, {64, 64, 64, 2}, {33, 28, 100, 2}, {300, 68, 260, 0}, {131, 68, 260, 1}}},
  };
  // bm / 64 consumer warpgroups and two producer warpgroups; static: full[8] and empty[8],
  // 8-byte mbarriers, 128 bytes; dynamic: 4 stages of Mds[bm][bk] and Nds[bn][bk] floats and
  // 1024 bytes to start them 1024-aligned.
  static HandResources handResources(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return {.threads = t.bm / 64 * 128 + 2 * 128, .staticSharedBytes = 2 * 8 * 8,
            .dynamicSharedBytes = 4 * (t.bm * t.bk + t.bn * t.bk) * 4 + 1024};
  }
  // The H200's two (192 x 128 the faster at 8192, 128 x 128 at 4096), then a teaching size
  // (one consumer warpgroup). A warp's sums are 16 rows of its warpgroup's 64 by bn (the warp
  // tile 16 x bn); a lane's 2 rows (g, g + 8) and 2 columns of each 8 (the thread tile 2 x bn / 4).
  static constexpr std::array<Tiling, 3> kTilings{
      {{192, 128, 32, 16, 128, 2, 32}, {128, 128, 32, 16, 128, 2, 32}, {64, 32, 32, 16, 32, 2, 8}}};
  static constexpr int kStages = 4;
  static int consumers(const Tiling& t) { return t.bm / 64 * 128; }
  static int sharedFloats(const Tiling& t) { return kStages * (t.bm * t.bk + t.bn * t.bk) + 256; }
  static constexpr unsigned kMbarrierBytes = 2 * 8 * sizeof(uint64_t);  // full[8] and empty[8]
  static std::string tilingProblem(const Tiling& t) {
    if (t.bk != 32) return "a row of the 128-byte swizzle is 32 floats: bk must be 32";
    if (t.bm % 64 || t.bm > 256) return "a warpgroup MMA is 64 rows: bm 64, 128, 192 or 256";
    if (t.wm != 16) return "a warp holds 16 rows of its warpgroup's 64: wm 16";
    if (t.wn != t.bn || (t.bn != 32 && t.bn != 64 && t.bn != 128)) return "a warpgroup's MMA spans the tile: wn = bn, 32, 64 or 128";
    if (t.tm != 2 || t.tn != t.bn / 4) return "a consumer thread holds 2 x bn / 4 sums: the thread tile";
    if (4 * sharedFloats(t) + int(kMbarrierBytes) > kMaxSharedBytesPerBlock) return "its stages need more shared memory than a block may have";
    return {};
  }
  static LaunchShape shape(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    LaunchShape s = RegisterTileFamily::shape(L);
    s.blockX = unsigned(consumers(t) + 2 * 128);
    s.dynamicSharedFloats = unsigned(sharedFloats(t));
    s.staticSharedBytes = kMbarrierBytes;
    // Per k tile a consumer waits, records its share of 4 MMAs' descriptor reads (a chunk of
    // Mds and up to bn / 64 of Nds each) and arrives; a producer waits, writes bn / 16 float4s of
    // N as 4 elements each, arrives and loads the tile after next's bn / 16 (thread 0 also
    // announces and copies); the first two tiles' loads come before the ring.
    // Thread 0 initialises 2 x 4 mbarriers; every thread one barrier; after the ring a consumer
    // records its sums once and stores at most one per sum.
    const int consumer = 2 + (t.bk / 8) * (1 + ceilDiv(t.bn, 64)), producer = 4 + 5 * (t.bn / 16);
    s.eventsPerThread = unsigned(1 + 2 * kStages + 2 * (t.bn / 16) + s.phases * std::max(consumer, producer) + t.bn + 2);
    return s;
  }
  static SharedTileLayout tiles(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    return TileFamily::twoTiles(kStages * t.bm, t.bk, kStages * t.bn, t.bk);
  }
  // The extern array, Mds (a row of M per row), Nds (a column of N per row), the two mbarrier arrays.
  static SharedArrays arrays(const KernelLaunch& L) {
    return {{{}, {MatrixRole::M, L.tiling.bk, true}, {MatrixRole::N, L.tiling.bk, false}, {}, {}}};
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return withTiling(kTilings, L.tiling, [&](auto I) {
      constexpr Tiling t = kTilings[decltype(I)::value];
      x.launch(matrixMulKernel<t.bm, t.bn, t.bk, kStages>, L, a.M, a.N, a.P, L.j, L.k, L.l,
               x.tensorMap(a.M, L.j, L.k, t.bm, t.bk, TileSwizzle::Bytes128));
    });
  }
};
